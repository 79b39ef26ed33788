"""Arrays past the device's buffer limits run in parts (python/vkdml/_parts.py): cut along the axes the
operation keeps, each part one call, the results joined. A device whose part size is set small
(Device._part_bytes) makes small arrays take that path; integer results must equal one call's exactly,
float results numpy's within the contract's bound."""

import numpy as np
import pytest

import vkdml
from vkdml import dml


@pytest.fixture()
def small_parts():
    dev = vkdml.Device(shared=False)
    dev._part_bytes = 1024  # 256 int32 elements per input or output
    return dev


@pytest.fixture()
def calls(monkeypatch):
    """The shapes of the arrays handed to the native module's operators, in order."""
    from vkdml._errors import _native
    shapes = []
    for name in ("cumulative", "reduction"):
        def counting(handle, part, *args, _real=getattr(_native, name)):
            shapes.append(part.shape)
            return _real(handle, part, *args)
        monkeypatch.setattr(_native, name, counting)
    return shapes


def test_parts_are_cut_along_the_longest_kept_axis_into_what_fits(small_parts, calls):
    x = ints((40, 30))  # 4800 bytes: 5 parts of 960 along axis 1 for a scan along axis 0
    np.testing.assert_array_equal(dml.cumulative_sum(x, 0, device=small_parts), dml.cumulative_sum(x, 0))
    assert calls == [(40, 6)] * 5 + [(40, 30)]
    calls.clear()
    x = ints((6, 70, 5))  # 8400 bytes: 9 parts along axis 1 (70 = 8 + 8 + ... + 7), each 6 x 5 reduced
    np.testing.assert_array_equal(dml.reduce(x, "sum", (0, 2), device=small_parts), dml.reduce(x, "sum", (0, 2)))
    assert calls == [(6, 8, 5)] * 7 + [(6, 7, 5)] * 2 + [(6, 70, 5)]
    calls.clear()
    x = ints((3, 4, 200))  # one (1, 1, 200) line per part: split along axis 1, then axis 0
    np.testing.assert_array_equal(dml.cumulative_sum(x, 2, device=small_parts), dml.cumulative_sum(x, 2))
    assert calls[:-1] == [(1, 1, 200)] * 12


def ints(shape, seed=0):
    return np.random.default_rng(seed).integers(-1000, 1000, size=shape, dtype=np.int32)


@pytest.mark.parametrize("shape,axis", [((40, 30), 0), ((40, 30), 1), ((6, 70, 5), 1), ((3, 4, 200), 2)])
def test_scans_in_parts_equal_one_call(small_parts, shape, axis):
    x = ints(shape)
    for exclusive in (False, True):
        for reverse in (False, True):
            want = dml.cumulative_sum(x, axis, exclusive=exclusive, reverse=reverse)
            got = dml.cumulative_sum(x, axis, exclusive=exclusive, reverse=reverse, device=small_parts)
            np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(dml.cumulative_product(x % 3, axis, device=small_parts),
                                  dml.cumulative_product(x % 3, axis))
    if x.shape[axis] * 8 <= 1024:  # numpy's cumsum widens to int64
        np.testing.assert_array_equal(vkdml.cumsum(x, axis, device=small_parts), np.cumsum(x, axis))
    assert small_parts.cache_info()["compiles"] >= 2  # it did run in parts


@pytest.mark.parametrize("shape,axes", [((40, 30), (0,)), ((40, 30), (1,)), ((6, 70, 5), (0, 2)),
                                        ((30, 2, 20), (1,))])
def test_reductions_in_parts_equal_one_call(small_parts, shape, axes):
    x = ints(shape, 1)
    for function in ("sum", "max", "min", "l1", "argmax", "argmin"):
        np.testing.assert_array_equal(dml.reduce(x, function, axes, device=small_parts), dml.reduce(x, function, axes),
                                      err_msg=function)
    axis = axes if len(axes) > 1 else axes[0]
    np.testing.assert_array_equal(vkdml.sum(x, axis, device=small_parts), np.sum(x, axis))
    if len(axes) == 1:
        np.testing.assert_array_equal(vkdml.argmax(x, axis, device=small_parts), np.argmax(x, axis))
    f = x.astype(np.float64) / 7
    np.testing.assert_allclose(vkdml.mean(f, axis, device=small_parts), np.mean(f, axis), rtol=1e-13)
    assert small_parts.cache_info()["compiles"] >= 2


def test_a_part_too_big_with_no_axis_left_is_refused_with_advice(small_parts):
    with pytest.raises(vkdml.OutOfMemory) as e:
        dml.cumulative_sum(ints((300,)), 0, device=small_parts)
    assert e.value.code == "out_of_memory"
    assert str(e.value) == (
        "cumulative sum: the array needs 1200 bytes in one device buffer, more than "
        f"{small_parts.name} takes (1024 bytes, set by Device._part_bytes). vkdml splits an array along the "
        "axes the operation keeps, and this one has no such axis of more than one element; scan it in parts "
        "(a[:n], then a[n:]) and carry the first part's last result into the second's")
    with pytest.raises(vkdml.OutOfMemory, match=r"^reduce sum: the array needs 8000 bytes .* reduce it in parts "
                       r"\(a\[:n\] and a\[n:\]\) and combine their results, or over fewer axes first$"):
        vkdml.sum(ints((10, 100)), device=small_parts)  # every axis reduced
    with pytest.raises(vkdml.OutOfMemory, match="^reduce argmax: the array needs 1200 bytes"):
        vkdml.argmax(ints((300,)), device=small_parts)


def test_the_default_part_size_comes_from_the_device():
    from vkdml._parts import part_bytes
    dev = vkdml.Device()
    info = dev.info
    assert part_bytes(dev) == min(info["max_memory_allocation_size"], info["max_buffer_size"],
                                  info["host_visible_heap"] // 3)
