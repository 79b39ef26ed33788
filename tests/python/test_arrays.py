"""vkdml.Array: arrays that stay on the device. The numpy-named functions on Arrays against numpy (the
table of test_numpy_conventions.py), chains that make no host copy, lifetimes, the pool, and refusals."""

import gc
import warnings

import numpy as np
import pytest

import vkdml
from vkdml import dml

from test_numpy_conventions import CASES, SCANS, check, expected, values

ARRAY_CASES = [c for c in CASES if c[1] != "bool"]  # an Array holds one of the 11 types


def host(result):
    """A function's Array result as numpy gives it: 0-d as a numpy scalar."""
    assert isinstance(result, vkdml.Array), type(result)
    view = result.numpy()
    return view[()] if view.ndim == 0 else view


@pytest.mark.parametrize("function,dtype,shape,axis,keepdims", ARRAY_CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}-{c[4]}" for c in ARRAY_CASES])
def test_agrees_with_numpy_on_arrays(function, dtype, shape, axis, keepdims):
    x = values(function, dtype, shape, seed=len(shape) * 31 + 5)
    a = vkdml.asarray(x)
    assert a.dtype == x.dtype.newbyteorder("=") and a.shape == x.shape
    what = f"{function}(Array {dtype} {shape}, axis={axis}, keepdims={keepdims})"
    kw = {"keepdims": keepdims} if function not in SCANS else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = expected(function, x, axis, keepdims, None)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(vkdml, function)(a, axis, **kw)
            return
        got = getattr(vkdml, function)(a, axis, **kw)
    got = host(got)
    if function in ("any", "all"):  # an Array holds no bool: its flags are uint8 0 and 1
        assert np.asarray(got).dtype == np.uint8, what
        got = np.asarray(got).astype(np.bool_)[()]
    if function == "count_nonzero" and axis is None and not keepdims:  # numpy's int, an int64 Array here
        assert np.asarray(got).dtype == np.int64, what
        got = int(got)
    check(got, want, what)


@pytest.mark.parametrize("function,dtype,computed", [
    ("cumsum", "int8", "int16"), ("cumsum", "float32", "float64"), ("sum", "int16", "int16"),
    ("sum", "float64", "int32"), ("prod", "int8", "int16"), ("mean", "int32", "float32"),
    ("mean", "uint8", "float16")])
def test_dtype_argument_on_arrays(function, dtype, computed):
    x = values(function, dtype, (3, 5), seed=7)
    got = getattr(vkdml, function)(vkdml.asarray(x), 1, computed)
    check(host(got), expected(function, x, 1, False, computed), f"{function}(Array {dtype}, dtype={computed})")


@pytest.mark.parametrize("function,dtype,out_dtype,axis", [
    ("cumsum", "int32", "int32", 0), ("cumsum", "int32", "int64", 1), ("cumprod", "float32", "float64", None),
    ("sum", "float32", "float32", 0), ("sum", "int8", "int32", (0, 1)), ("mean", "int32", "float32", 1),
    ("mean", "float32", "float32", 1), ("max", "int16", "int16", 0), ("argmax", "float32", "int64", 1),
    ("argmin", "uint8", "int32", 0), ("nanmax", "float64", "float64", 1), ("logsumexp", "float32", "float32", 1),
    ("ptp", "int16", "int16", 1), ("amax", "float32", "float64", 0)])
def test_out_argument_may_be_an_array(function, dtype, out_dtype, axis):
    x = values(function, dtype, (4, 6), seed=3)
    fn = getattr(np, function) if function != "logsumexp" else None
    np_out = None
    if fn is not None:
        want_shape = np.asarray(fn(x, axis)).shape
        np_out = np.full(want_shape, 99, out_dtype)
        fn(x, axis, out=np_out)
    else:
        np_out = expected(function, x, axis, False, None).astype(out_dtype)
        want_shape = np_out.shape
    out = vkdml.asarray(np.full(want_shape, 99, out_dtype))
    got = getattr(vkdml, function)(vkdml.asarray(x), axis, out=out)
    assert got is out
    check(out.numpy(), np.asarray(np_out), f"{function}(Array {dtype}, out=Array {out_dtype})")


def test_a_chain_of_calls_on_arrays_copies_nothing_through_the_host():
    n = 1 << 20
    x = np.arange(n, dtype=np.int64) % 1000
    a = vkdml.asarray(x)
    before = vkdml._native.host_transfers()
    running = vkdml.cumsum(a)
    total = vkdml.sum(running)
    biggest = vkdml.argmax(running)
    assert vkdml._native.host_transfers() == before  # nothing read or written by the host yet
    assert biggest.wait() is biggest and biggest.ready and total.ready
    assert isinstance(total, vkdml.Array) and total.shape == () and total.dtype == np.int64
    assert int(total.numpy()) == int(np.sum(np.cumsum(x)))
    assert int(biggest.numpy()) == n - 1
    assert vkdml._native.host_transfers() == before + 2


def test_the_functions_of_dml_take_arrays():
    x = np.array([[1, 5], [7, 2]], np.int32)
    a = vkdml.asarray(x)
    np.testing.assert_array_equal(dml.cumulative_sum(a, 1, exclusive=True).numpy(), [[0, 1], [0, 7]])
    np.testing.assert_array_equal(dml.cumulative_product(a, 0, reverse=True).numpy(), [[7, 10], [7, 2]])
    np.testing.assert_array_equal(dml.reduce(a, "max", axes=0).numpy(), [[7, 5]])
    got = dml.argmax(a, axes=1, output_type="uint32")
    assert got.dtype == np.uint32 and got.shape == (2, 1)
    np.testing.assert_array_equal(got.numpy(), [[1], [0]])
    np.testing.assert_array_equal(dml.argmin(a, axes=(0, 1), select_last_index=True).numpy(), [[0]])


def test_an_array_in_place_and_views_share_memory():
    a = vkdml.asarray(np.array([1, 2, 3, 4], np.float32))
    view = a.numpy()
    assert np.shares_memory(view, a.numpy())  # the mapped memory, not a copy
    assert vkdml.cumsum(a, out=a) is a  # in place: one buffer read and written
    np.testing.assert_array_equal(a.numpy(), [1, 3, 6, 10])
    np.testing.assert_array_equal(view, [1, 3, 6, 10])
    view[0] = 100  # the host writes; the next call reads it
    assert float(vkdml.sum(a).numpy()) == 119
    m = a.reshape(2, 2)
    assert m.shape == (2, 2) and np.shares_memory(m.numpy(), view)
    assert a.reshape(-1, 1).shape == (4, 1) and a.reshape((4,)).shape == (4,)
    np.testing.assert_array_equal(np.asarray(m), [[100, 3], [6, 10]])
    np.testing.assert_array_equal(np.asarray(m, dtype=np.int64), [[100, 3], [6, 10]])
    got = a.get()
    assert not np.shares_memory(got, view)


def test_array_attributes_slicing_and_conversions():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    a = vkdml.asarray(x)
    assert (a.shape, a.ndim, a.size, a.itemsize, a.nbytes, len(a)) == ((3, 4), 2, 12, 2, 24, 3)
    assert a.device.name == vkdml.default_device().name
    np.testing.assert_array_equal(a[1].numpy(), [4, 5, 6, 7])
    np.testing.assert_array_equal(a[1:].numpy(), x[1:])
    np.testing.assert_array_equal(a[-1:].numpy(), x[-1:])
    f = a.astype(np.float32)
    assert isinstance(f, vkdml.Array) and f.dtype == np.float32
    assert a.astype(np.int16) is a
    assert vkdml.asarray(a) is a
    assert vkdml.asarray(a, dtype=np.float64).dtype == np.float64
    assert vkdml.asarray([1.5, 2.5]).dtype == np.float64
    assert vkdml.asarray(np.arange(3, dtype=">i4")).dtype == np.int32  # byte-swapped: native order
    zero = vkdml.asarray(np.float32(2.5))
    assert zero.shape == () and zero.ndim == 0 and zero.size == 1 and float(zero.numpy()) == 2.5
    assert repr(a) == ("vkdml.Array([[ 0,  1,  2,  3],\n             [ 4,  5,  6,  7],\n             "
                       "[ 8,  9, 10, 11]], dtype=int16, device=" + repr(a.device.name) + ")")
    assert str(vkdml.asarray(np.array([1, 2], np.uint8))) == "[1 2]"
    empty = vkdml.cumsum(vkdml.asarray(np.zeros((2, 0), np.float32)), 1)
    assert isinstance(empty, vkdml.Array) and empty.shape == (2, 0)


def test_arrays_refuse_what_they_cannot_hold_or_do():
    with pytest.raises(vkdml.UnsupportedType, match="bool is not one of vkdml's 11 types"):
        vkdml.asarray(np.array([True, False]))
    with pytest.raises(vkdml.UnsupportedType):
        vkdml.asarray(np.array([1 + 2j]))
    a = vkdml.asarray(np.arange(6, dtype=np.float32))
    with pytest.raises(vkdml.InvalidArgument, match="cannot reshape an Array of size 6 into shape"):
        a.reshape(4, 2)
    with pytest.raises(TypeError, match="contiguous slices only"):
        a[::2]
    with pytest.raises(TypeError, match="one integer or one slice"):
        a[1, 2]
    with pytest.raises(TypeError, match="0-d Array"):
        len(vkdml.asarray(np.float32(1)))
    with pytest.raises(vkdml.InvalidArgument, match="out has shape"):
        vkdml.cumsum(a, out=vkdml.asarray(np.zeros(5, np.float32)))
    with pytest.raises(TypeError, match="out must be a numpy array or a vkdml.Array"):
        vkdml.sum(a, out=[0.0])
    own = vkdml.Device("", shared=False)
    with pytest.raises(vkdml.InvalidArgument, match="device= names"):
        vkdml.sum(a, device=own)
    moved = vkdml.asarray(a, device=own)  # copied to the other handle
    assert moved.device is own and float(vkdml.sum(moved).numpy()) == 15


def test_arrays_freed_in_flight_and_buffers_reused_wait_for_the_device():
    dev = vkdml.Device("", shared=False)
    n = 1 << 18
    x = np.ones(n, np.float32)
    a = vkdml.asarray(x, device=dev)
    b = vkdml.cumsum(a)
    del a  # freed while the scan may still read it: its buffer waits in the pool
    gc.collect()
    c = vkdml.cumsum(b)
    del b
    gc.collect()
    fresh = [vkdml.asarray(np.full(n, k, np.float32), device=dev) for k in range(3)]  # reuses those buffers
    expected_c = np.cumsum(np.arange(1, n + 1, dtype=np.float64)).astype(np.float32)
    np.testing.assert_allclose(c.numpy(), expected_c, rtol=1e-6)
    for k, f in enumerate(fresh):
        np.testing.assert_array_equal(f.numpy(), np.full(n, k, np.float32))
    info = dev.cache_info()
    assert info["reuses"] >= 2
    del dev  # the Arrays keep their device
    np.testing.assert_array_equal(fresh[1].numpy(), np.ones(n, np.float32))


def test_a_repeated_large_call_compiles_once_and_allocates_once():
    dev = vkdml.Device("", shared=False)
    x = np.ones(1 << 22, np.float32)  # 16 MiB each way
    for _ in range(3):
        vkdml.cumsum(x, device=dev)
        vkdml.sum(x, device=dev)
    info = dev.cache_info()
    assert info["compiles"] == 2 and info["hits"] == 4
    first_allocations = info["allocations"]
    for _ in range(2):
        vkdml.cumsum(x, device=dev)
    assert dev.cache_info()["allocations"] == first_allocations


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int64", "uint16", "uint64"])
def test_dlpack_gives_the_mapped_memory_to_numpy(dtype):
    x = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    a = vkdml.cumsum(vkdml.asarray(x), 1, dtype)  # written by the device, not yet waited for
    assert a.__dlpack_device__() == (1, 0)  # kDLCPU
    view = np.from_dlpack(a)
    assert view.dtype == np.dtype(dtype) and view.shape == (3, 4)
    np.testing.assert_array_equal(view, np.cumsum(x, 1, dtype=dtype))
    assert np.shares_memory(view, a.numpy())
    del a
    gc.collect()
    np.testing.assert_array_equal(view, np.cumsum(x, 1, dtype=dtype))  # the capsule keeps the memory
    unused = vkdml.asarray(x).__dlpack__()  # never consumed: freed with the capsule
    del unused
    with pytest.raises(vkdml.InvalidArgument, match="stream must be None"):
        vkdml.asarray(x).__dlpack__(stream=1)


def test_operators_and_ufuncs_run_through_numpy_on_the_host():
    a = vkdml.asarray(np.array([0, 1, 2, 3], np.float32))
    np.testing.assert_array_equal(a == 2, [False, False, True, False])
    np.testing.assert_array_equal(a != vkdml.asarray(np.array([0, 0, 2, 2], np.float32)), [False, True, False, True])
    np.testing.assert_array_equal(a + 1, [1, 2, 3, 4])
    np.testing.assert_array_equal(10 - a, [10, 9, 8, 7])
    np.testing.assert_array_equal(np.arange(4) * a, [0, 1, 4, 9])
    np.testing.assert_allclose(np.exp(a), np.exp(np.arange(4, dtype=np.float32)))
    assert isinstance(a + 1, np.ndarray)
    assert vkdml.argmax(a) == 3 and int(vkdml.argmax(a)) == 3 and float(vkdml.sum(a)) == 6.0
    assert bool(vkdml.max(a, keepdims=True)) is True and not bool(vkdml.min(a, keepdims=True))
    out = vkdml.asarray(np.zeros(4, np.float32))
    np.add(a, a, out=out)  # a numpy ufunc writing into an Array's memory
    np.testing.assert_array_equal(out.numpy(), [0, 2, 4, 6])
    with pytest.raises(TypeError):
        hash(a)


def test_copies_are_copies_and_views_are_views():
    a = vkdml.asarray(np.array([1, 2, 3], np.int32))
    for copied in (np.array(a), np.copy(a), a.get(), a.__array__(copy=True)):
        assert not np.shares_memory(copied, a.numpy())
    assert np.shares_memory(a.__array__(), a.numpy())
    assert a.__array__(np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="needs a copy"):
        a.__array__(np.float64, copy=False)
