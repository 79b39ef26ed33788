"""Arrays past one device buffer run in windows: the native module hands them to vkdml::execute, which runs
the plan window by window on the host memory itself. A test device whose allocations stop at 1024 bytes
(testing_open_device) makes small arrays take that path. Integer results equal one call's; float results
are within the accuracy contract (windows of 1024 bytes cut lines whose 32 consecutive elements span
more, the one place where a window changes the association: docs/SPEC.md, determinism). The C++ tests
(test_host_stream.cpp) show the bits of one call with windows as large as the plan's."""

import numpy as np
import pytest

import vkdml
from vkdml import dml
from vkdml._errors import _native


@pytest.fixture()
def small():
    dev = vkdml.Device(shared=False)
    dev._handle = _native.testing_open_device("", 1024)  # 256 int32 elements per allocation
    return dev


def ints(shape, seed=0):
    return np.random.default_rng(seed).integers(-1000, 1000, size=shape, dtype=np.int32)


def windowed(call):
    """call()'s result and how many calls it ran in windows."""
    before = _native.execute_runs()
    result = call()
    return result, _native.execute_runs() - before


@pytest.mark.parametrize("shape,axis", [((300,), 0), ((40, 30), 0), ((40, 30), 1), ((3, 4, 200), 2)])
def test_scans_in_windows_equal_one_call(small, shape, axis):
    x = ints(shape)
    for exclusive in (False, True):
        for reverse in (False, True):
            got, runs = windowed(lambda: dml.cumulative_sum(x, axis, exclusive=exclusive, reverse=reverse,
                                                            device=small))
            np.testing.assert_array_equal(got, dml.cumulative_sum(x, axis, exclusive=exclusive, reverse=reverse))
            assert runs == 1
    np.testing.assert_array_equal(dml.cumulative_product(x % 3, axis, device=small),
                                  dml.cumulative_product(x % 3, axis))
    np.testing.assert_array_equal(vkdml.cumsum(x, axis, device=small), np.cumsum(x, axis))
    f = np.random.default_rng(1).standard_normal(shape, dtype=np.float32)
    np.testing.assert_allclose(vkdml.cumsum(f, axis, device=small), vkdml.cumsum(f, axis), rtol=1e-6, atol=1e-5)
    assert small.cache_info()["compiles"] == 0  # every call ran in windows, none from the pool


@pytest.mark.parametrize("shape,axes", [((300,), (0,)), ((40, 30), (0,)), ((40, 30), (1,)),
                                        ((6, 70, 5), (0, 2)), ((10, 100), (0, 1))])
def test_reductions_in_windows_equal_one_call(small, shape, axes):
    x = ints(shape, 1)
    for function in ("sum", "max", "min", "l1", "argmax", "argmin"):
        if function.startswith("arg") and len(axes) > 1 and len(axes) < len(shape):
            continue
        got, runs = windowed(lambda: dml.reduce(x, function, axes, device=small))
        np.testing.assert_array_equal(got, dml.reduce(x, function, axes), err_msg=function)
        assert runs == 1
    axis = axes if len(axes) > 1 else axes[0]
    np.testing.assert_array_equal(vkdml.sum(x, axis, device=small), np.sum(x, axis))
    f = np.random.default_rng(2).standard_normal(shape)
    np.testing.assert_allclose(vkdml.mean(f, axis, device=small), np.mean(f, axis), rtol=1e-13)


def test_int8_arrays_not_a_multiple_of_4_bytes_go_through_a_copy(small):
    x = (np.arange(2001) % 5).astype(np.int8)  # 2001 bytes; the tensor rounds up to 2004
    got, runs = windowed(lambda: vkdml.cumsum(x, 0, device=small, dtype=np.int8))
    np.testing.assert_array_equal(got, np.cumsum(x, dtype=np.int8))
    assert runs == 1
    np.testing.assert_array_equal(vkdml.max(x, device=small), np.int8(4))


def test_small_arrays_still_use_the_pool(small):
    x = ints((100,))
    _, runs = windowed(lambda: vkdml.cumsum(x, 0, device=small))
    assert runs == 0 and small.cache_info()["compiles"] == 1


def test_device_arrays_stay_within_one_buffer(small):
    with pytest.raises(vkdml.OutOfMemory) as e:
        vkdml.asarray(ints((300,)), device=small)
    assert str(e.value) == ("MappedBuffer::create: a buffer of 1200 bytes is more than this device's "
                            "maxMemoryAllocationSize (1024)")


def test_selection_indices_past_one_allocation(small):
    """cummax's index output keeps the running values in a temporary buffer as large as the output: rows run
    in parts along the kept axis; one line no allocation holds falls back to two plain scans (in windows)
    with the marks formed on the host. Both give one call's indices."""
    x = np.random.default_rng(3).integers(0, 7, size=(40, 30)).astype(np.int32)
    line = np.random.default_rng(4).integers(0, 7, size=600).astype(np.float32)
    line[[5, 300]] = np.nan
    for a, axis in ((x, 0), (x, 1), (line, 0)):
        for exclusive in (False, True):
            for reverse in (False, True):
                for nan in ("propagate", "ignore"):
                    what = f"{a.shape} axis {axis} exclusive={exclusive} reverse={reverse} {nan}"
                    got = dml.cumulative_minimum(a, axis, exclusive=exclusive, reverse=reverse, nan=nan,
                                                 indices=True, device=small)
                    want = dml.cumulative_minimum(a, axis, exclusive=exclusive, reverse=reverse, nan=nan,
                                                  indices=True)
                    np.testing.assert_array_equal(got[0], want[0], err_msg=what)
                    np.testing.assert_array_equal(got[1], want[1], err_msg=what)
    values, indices = vkdml.cummax(line, 0, device=small)
    np.testing.assert_array_equal(indices, vkdml.cummax(line, 0).indices)
