"""vkdml's Python operators against numpy: every function of vkdml.dml (DirectML's semantics) with every
dtype and flag, the SPEC examples, and the numpy-named functions; strided, Fortran-ordered and sliced
inputs; negative axes. Integers are compared exactly (numpy wraps in the same type), floats within the
contract's bounds (docs/SPEC.md §3), against float64 or longdouble."""

import numpy as np
import pytest

import vkdml
from vkdml import dml

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
ALL = FLOATS + INTS
SHAPE = (3, 4, 5)


def data(dtype, shape=SHAPE, seed=0, low=-3, high=4):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "u":
        low = 0
    return rng.integers(low, high, size=shape).astype(dtype)


def close(got, want, dtype):
    """Floats: 1e-6 relative (float32), 1e-14 (float64), half an ulp (float16), against the exact value."""
    dt = np.dtype(dtype)
    assert got.dtype == dt and got.shape == want.shape
    want = np.asarray(want, dtype=np.longdouble)
    if dt == np.float16:
        # Rounded once from the exact value: the nearest half, ties either way.
        err = np.abs(got.astype(np.longdouble) - want)
        ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.longdouble)
        assert np.all(err <= ulp / 2 + np.abs(want) * 2e-7)
    else:
        tol = 1e-6 if dt == np.float32 else 1e-14
        np.testing.assert_allclose(got.astype(np.longdouble), want, rtol=tol, atol=0)


def reference_scan(x, axis, product, exclusive, reverse):
    """numpy's scan in the input's type (integers wrap) or exactly-enough in longdouble (floats)."""
    wide = x.astype(np.longdouble) if x.dtype.kind == "f" else x
    if reverse:
        wide = np.flip(wide, axis)
    y = (np.cumprod if product else np.cumsum)(wide, axis=axis, dtype=wide.dtype)
    if exclusive:
        first = np.ones_like(np.take(y, [0], axis)) if product else np.zeros_like(np.take(y, [0], axis))
        y = np.concatenate([first, np.delete(y, -1, axis)], axis=axis)
    return np.flip(y, axis) if reverse else y


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("product", [False, True])
def test_cumulative_every_type_axis_and_flag(dtype, product):
    x = data(dtype, low=-2 if product else -3, high=3 if product else 4)
    fn = dml.cumulative_product if product else dml.cumulative_sum
    for axis in (0, 1, 2, -1):
        for exclusive in (False, True):
            for reverse in (False, True):
                got = fn(x, axis, exclusive=exclusive, reverse=reverse)
                want = reference_scan(x, axis, product, exclusive, reverse)
                if x.dtype.kind == "f":
                    close(got, want, dtype)
                else:
                    assert got.dtype == x.dtype
                    np.testing.assert_array_equal(got, want)


def test_integer_scans_wrap_in_their_type():
    x = np.full(4, 100, dtype=np.int8)
    got = dml.cumulative_sum(x, 0)
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, np.array([100, -56, 44, -112], dtype=np.int8))
    y = np.full(3, 2**31, dtype=np.uint32)
    np.testing.assert_array_equal(dml.cumulative_product(np.array([65536, 65536, 3], dtype=np.uint32), 0),
                                  np.array([65536, 0, 0], dtype=np.uint32))
    np.testing.assert_array_equal(dml.cumulative_sum(y, 0), np.array([2**31, 0, 2**31], dtype=np.uint32))
    # numpy's cumsum widens them instead, as numpy does: nothing wraps.
    wide = vkdml.cumsum(x)
    assert wide.dtype == np.cumsum(x).dtype == np.int64
    np.testing.assert_array_equal(wide, [100, 200, 300, 400])
    np.testing.assert_array_equal(vkdml.cumprod(np.array([65536, 65536, 3], dtype=np.uint32)),
                                  np.array([65536, 2**32, 3 * 2**32], dtype=np.uint64))


def test_float32_cumsum_of_many_values_is_accurate():
    # numpy's float32 cumsum of this drifts; vkdml's compensated scan stays within 1e-6 of the truth.
    n = 1 << 22
    x = np.full(n, 0.1, dtype=np.float32)
    got = vkdml.cumsum(x, 0)
    want = np.arange(1, n + 1, dtype=np.float64) * np.float64(np.float32(0.1))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert abs(float(np.cumsum(x)[-1]) - want[-1]) / want[-1] > 1e-4  # numpy's own is far off


SPEC_INPUT = np.array([[2, 1, 3, 5], [3, 8, 7, 3], [9, 6, 2, 4]], dtype=np.float32).reshape(1, 1, 3, 4)


@pytest.mark.parametrize("fn,kw,want", [
    (dml.cumulative_sum, dict(axis=3), [[2, 3, 6, 11], [3, 11, 18, 21], [9, 15, 17, 21]]),
    (dml.cumulative_sum, dict(axis=3, exclusive=True), [[0, 2, 3, 6], [0, 3, 11, 18], [0, 9, 15, 17]]),
    (dml.cumulative_sum, dict(axis=3, reverse=True), [[11, 9, 8, 5], [21, 18, 10, 3], [21, 12, 6, 4]]),
    (dml.cumulative_sum, dict(axis=2), [[2, 1, 3, 5], [5, 9, 10, 8], [14, 15, 12, 12]]),
    (dml.cumulative_product, dict(axis=3), [[2, 2, 6, 30], [3, 24, 168, 504], [9, 54, 108, 432]]),
    (dml.cumulative_product, dict(axis=3, exclusive=True), [[1, 2, 2, 6], [1, 3, 24, 168], [1, 9, 54, 108]]),
    (dml.cumulative_product, dict(axis=3, reverse=True), [[30, 15, 15, 5], [504, 168, 21, 3], [432, 48, 8, 4]]),
    (dml.cumulative_product, dict(axis=2), [[2, 1, 3, 5], [6, 8, 21, 15], [54, 48, 42, 60]]),
])
def test_spec_cumulative_examples(fn, kw, want):
    np.testing.assert_array_equal(fn(SPEC_INPUT, **kw), np.array(want, dtype=np.float32).reshape(1, 1, 3, 4))


def test_spec_reduce_and_arg_examples():
    x = np.array([[1, 2, 3], [3, 0, 4], [2, 4, 2]], dtype=np.float32)
    np.testing.assert_array_equal(dml.reduce(x, "sum", (0,)), [[6, 6, 9]])
    np.testing.assert_array_equal(dml.reduce(x, "sum", (1,)), [[6], [7], [8]])
    np.testing.assert_array_equal(dml.reduce(x, "sum", (0, 1)), [[21]])
    y = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], dtype=np.float32)
    np.testing.assert_array_equal(dml.argmax(y, (0,)), [[1, 2, 1]])
    np.testing.assert_array_equal(dml.argmax(y, (1,)), [[2], [2], [1]])
    np.testing.assert_array_equal(dml.argmax(y, (0, 1)), [[7]])
    np.testing.assert_array_equal(dml.argmin(y, (0,)), [[0, 1, 2]])
    np.testing.assert_array_equal(dml.argmin(y, (1,)), [[0], [1], [0]])
    np.testing.assert_array_equal(dml.argmin(y, (0, 1)), [[4]])
    ties = np.array([3, 2, 1, 2, 3], dtype=np.float32)
    assert dml.argmax(ties, (0,))[0] == 0 and dml.argmax(ties, (0,), select_last_index=True)[0] == 4
    ties = np.array([1, 2, 3, 2, 1], dtype=np.float32)
    assert dml.argmin(ties, (0,))[0] == 0 and dml.argmin(ties, (0,), select_last_index=True)[0] == 4


def reference_reduce(x, function, axes):
    """The 12 functions in longdouble (floats) or wrapping in the input's type (integers), rank kept."""
    f = x.dtype.kind == "f"
    w = x.astype(np.longdouble) if f else x
    kw = dict(axis=axes, keepdims=True)
    if function == "sum":
        return np.sum(w, dtype=w.dtype, **kw)
    if function == "multiply":
        return np.prod(w, dtype=w.dtype, **kw)
    if function == "max":
        return np.max(w, **kw)
    if function == "min":
        return np.min(w, **kw)
    if function == "l1":
        return np.sum(np.abs(w), dtype=w.dtype, **kw)
    if function == "sum_square":
        return np.sum(w * w, dtype=w.dtype, **kw)
    if function == "average":
        return np.mean(w, **kw)
    if function == "l2":
        return np.sqrt(np.sum(w * w, **kw))
    if function == "log_sum":
        return np.log(np.sum(w, **kw))
    if function == "log_sum_exp":
        return np.log(np.sum(np.exp(w), **kw))
    raise AssertionError(function)


VALUE_FUNCTIONS = ["average", "l1", "l2", "log_sum", "log_sum_exp", "max", "min", "multiply", "sum",
                   "sum_square"]
FLOAT_ONLY = {"average", "l2", "log_sum", "log_sum_exp"}


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("function", VALUE_FUNCTIONS)
def test_reduce_every_function_and_type(dtype, function):
    x = data(dtype, low=1 if function == "log_sum" else -3)
    for axes in [(0,), (1,), (2,), (0, 2), (-1, 0), (0, 1, 2), ()]:
        if function in FLOAT_ONLY and x.dtype.kind != "f":
            with pytest.raises(vkdml.UnsupportedType) as e:
                dml.reduce(x, function, axes)
            assert e.value.code == "unsupported_type" and isinstance(e.value, ValueError)
            return
        got = dml.reduce(x, function, axes)
        norm = tuple(sorted(a % x.ndim for a in axes))
        want = reference_reduce(x, function, norm)  # axes (): each function over one element
        assert got.shape == tuple(1 if i in norm else n for i, n in enumerate(x.shape))
        if x.dtype.kind == "f":
            close(got, np.asarray(want), dtype)
        else:
            assert got.dtype == x.dtype
            np.testing.assert_array_equal(got, np.asarray(want).astype(x.dtype))


@pytest.mark.parametrize("dtype", ALL)
def test_arg_functions_every_type_and_output_type(dtype):
    x = data(dtype, seed=3)
    for out in ["int32", "int64", "uint32", "uint64"]:
        for axis in range(3):
            for last in (False, True):
                got = dml.argmax(x, (axis,), select_last_index=last, output_type=out)
                flipped = np.flip(x, axis)
                want = (x.shape[axis] - 1 - np.argmax(flipped, axis)) if last else np.argmax(x, axis)
                assert got.dtype == np.dtype(out)
                np.testing.assert_array_equal(np.squeeze(got, axis), want)
                got = dml.argmin(x, (axis,), select_last_index=last, output_type=out)
                want = (x.shape[axis] - 1 - np.argmin(flipped, axis)) if last else np.argmin(x, axis)
                np.testing.assert_array_equal(np.squeeze(got, axis), want)
    # reduce() takes the arg functions too; several axes count row-major over them.
    np.testing.assert_array_equal(dml.reduce(x, "argmax", (1, 2))[:, 0, 0], np.argmax(x.reshape(3, 20), 1))


def test_nan_is_the_extreme_of_arg_max_and_min_as_in_numpy():
    x = np.array([1, np.nan, 5, np.nan], dtype=np.float32)
    assert vkdml.argmax(x) == np.argmax(x) == 1 and vkdml.argmin(x) == np.argmin(x) == 1
    assert np.isnan(vkdml.max(x)) and np.isnan(vkdml.min(x))


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint64"])
def test_strided_fortran_sliced_and_broadcast_inputs_read_through_their_strides(dtype):
    base = data(dtype, shape=(6, 8, 10), seed=5)
    views = {
        "fortran": np.asfortranarray(base),
        "sliced": base[1:5, ::2, 3:9:3],
        "transposed": base.transpose(2, 0, 1),
        "reversed": base[::-1, :, ::-2],
        "broadcast": np.broadcast_to(base[:1], (4, 8, 10)),
    }
    for name, v in views.items():
        for axis in range(3):
            want = reference_scan(v, axis, False, False, False)
            got = dml.cumulative_sum(v, axis)  # the input's type: read through the view's strides
            if v.dtype.kind == "f":
                close(got, want, dtype)
            else:
                np.testing.assert_array_equal(got, want, err_msg=name)
        np.testing.assert_array_equal(dml.reduce(v, "max", (0, 2)), np.max(v, axis=(0, 2), keepdims=True))
        np.testing.assert_array_equal(vkdml.max(v, (0, 2)), np.max(v, axis=(0, 2)))


def test_unaligned_and_non_native_layouts():
    raw = np.zeros(4 * 10 + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.float32)  # data pointer not a multiple of 4
    unaligned[:] = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(vkdml.cumsum(unaligned, 0), np.cumsum(np.arange(10, dtype=np.float32)))
    # Byte-swapped data is read as numpy reads it: the result is in the native order, as numpy's is.
    swapped = np.arange(4, dtype=">f4")
    for got in (vkdml.cumsum(swapped), dml.cumulative_sum(swapped, 0)):
        assert got.dtype == np.cumsum(swapped).dtype == np.float32 and got.dtype.isnative
        np.testing.assert_array_equal(got, [0, 1, 3, 6])
    assert vkdml.sum(np.arange(5, dtype=">i2")) == 10


NUMPY_STYLE = [("sum", np.sum), ("prod", np.prod), ("max", np.max), ("min", np.min), ("mean", np.mean)]


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("name,np_fn", NUMPY_STYLE)
def test_numpy_style_reductions_match_numpy(dtype, name, np_fn):
    x = data(dtype, seed=7, low=-2, high=3)
    fn = getattr(vkdml, name)
    for axis in [None, 0, 1, -1, (0, 2), (-1, -3)]:
        for keepdims in (False, True):
            got = fn(x, axis=axis, keepdims=keepdims)
            want = np_fn(x, axis=axis, keepdims=keepdims)
            assert np.shape(got) == np.shape(want), (axis, keepdims)
            assert np.asarray(got).dtype == np.asarray(want).dtype, (axis, keepdims)
            if np.asarray(want).dtype.kind == "f":
                exact = np_fn(x.astype(np.longdouble), axis=axis, keepdims=keepdims)
                close(np.asarray(got), np.asarray(exact), np.asarray(want).dtype)
            else:
                np.testing.assert_array_equal(got, want)
    assert np.isscalar(fn(x)) and not isinstance(fn(x), np.ndarray)


def test_logsumexp_and_numpy_style_arg_functions():
    x = np.random.default_rng(1).normal(size=(4, 6)).astype(np.float64) * 300
    want = np.log(np.sum(np.exp(x.astype(np.longdouble)), axis=1))
    close(vkdml.logsumexp(x, axis=1), want, "float64")
    y = data("int32", shape=(4, 6), seed=2)
    assert vkdml.argmax(y) == np.argmax(y) and vkdml.argmin(y) == np.argmin(y)
    np.testing.assert_array_equal(vkdml.argmax(y, axis=1), np.argmax(y, axis=1))
    np.testing.assert_array_equal(vkdml.argmin(y, axis=-2), np.argmin(y, axis=-2))
    assert vkdml.argmax(y, axis=1).dtype == np.argmax(y, axis=1).dtype == np.intp
    # Over every axis of a view the index is numpy's flat index (C order of the view, not of memory).
    z = data("float32", shape=(5, 6, 7), seed=4, low=0, high=100)
    for v in (z.T, z[:, ::2], np.asfortranarray(z)):
        assert vkdml.argmax(v) == np.argmax(v) and vkdml.argmin(v) == np.argmin(v)
        flat = np.ravel(v)
        # DirectML's ARGMAX over every axis counts the same way, the rank kept.
        last = dml.argmax(v, select_last_index=True)
        assert last.shape == (1, 1, 1) and last.item() == flat.size - 1 - np.argmax(flat[::-1])


def test_zero_d_and_zero_size_arrays():
    assert vkdml.sum(np.float32(2.5)) == np.float32(2.5)
    assert vkdml.argmax(np.int32(7)) == 0
    empty = np.zeros((0, 3), dtype=np.float32)
    assert vkdml.cumsum(empty, 0).shape == (0, 3)
    np.testing.assert_array_equal(vkdml.sum(empty, axis=0), np.zeros(3, np.float32))
    np.testing.assert_array_equal(vkdml.prod(empty, axis=0), np.ones(3, np.float32))
    assert vkdml.sum(empty, axis=1).shape == (0,)
    assert vkdml.sum(empty) == 0
    with pytest.raises(vkdml.InvalidArgument) as e:
        vkdml.max(empty)
    assert "zero-size" in str(e.value) and isinstance(e.value, ValueError)
    with pytest.raises(vkdml.InvalidArgument):
        vkdml.argmax(empty)
    # numpy refuses a maximum over an axis of 0 even where the result would be empty; over another axis
    # the result is empty
    for function in (vkdml.max, vkdml.min, vkdml.nanmax, vkdml.amin):
        with pytest.raises(ValueError, match="zero-size array"):
            function(np.zeros((0, 0), np.float32), 0)
    assert vkdml.max(empty, axis=1).shape == (0,)
    np.testing.assert_array_equal(vkdml.max(np.zeros((0, 0), np.float32), 0, initial=1.0), np.zeros(0))
    # initial=None takes a sum's or a product's identity away, as in numpy: an empty slice has no value
    for function in (vkdml.sum, vkdml.prod, vkdml.nansum, vkdml.nanprod):
        for shape in ((0, 3), (0, 0)):
            with pytest.raises(ValueError, match="zero-size array"):
                function(np.zeros(shape, np.int8), 0, initial=None)
        assert function(np.zeros((0, 3), np.float32), 1, initial=None).shape == (0,)
        assert function(np.zeros((2, 3), np.int8), 0, initial=None).tolist() == [0, 0, 0]
    # a bool input's initial is cast to bool, as numpy casts it: 0.5 is True
    got = vkdml.min(np.zeros(0, bool), initial=0.5)
    assert got.dtype == np.bool_ and bool(got) is True
    got = vkdml.nanmin(np.zeros((0, 2), bool), 0, initial=0.5)
    assert got.dtype == np.bool_ and got.tolist() == [True, True]
    assert vkdml.min(np.zeros(2, bool), initial=0.5).tolist() is False
    with pytest.raises(vkdml.InvalidArgument):
        dml.reduce(empty, "sum", (0,))
    assert dml.reduce(empty, "sum", (1,)).shape == (0, 1)


def test_sparse_views_are_compacted_not_uploaded_whole():
    big = np.arange(20000 * 1000, dtype=np.float32).reshape(20000, 1000)
    column = big[:, 7:8]  # 80 KB of data spread over 80 MB
    dev = vkdml.Device("")
    got = vkdml.cumsum(column, 0, device=dev)
    np.testing.assert_array_equal(got, reference_scan(column, 0, False, False, False).astype(np.float32))
    assert dev.cache_info()["bytes"] < 64 << 20  # not 80 MB for the input alone


def test_strides_numpy_allows_and_vkdml_does_not_take_directly():
    fields = np.zeros(10, dtype=[("a", "<f4"), ("b", "<i2")])  # a stride of 6 bytes
    fields["a"] = np.arange(10)
    np.testing.assert_array_equal(vkdml.cumsum(fields["a"], 0), np.cumsum(np.arange(10, dtype=np.float32)))
    windows = np.lib.stride_tricks.sliding_window_view(np.arange(10, dtype=np.int32), 3)  # overlapping
    np.testing.assert_array_equal(dml.cumulative_sum(windows, 1), np.cumsum(windows, 1, dtype=np.int32))
    odd = np.lib.stride_tricks.as_strided(np.arange(12, dtype=np.int64), shape=(3, 1, 4), strides=(32, -8000, 8))
    np.testing.assert_array_equal(vkdml.cumsum(odd, 2), np.cumsum(odd, 2))


def test_numpy_conventions_at_the_edges():
    x = data("int32", shape=(4, 6), seed=9)
    # numpy's positional order: (a, axis, dtype, out, keepdims) for sum, (a, axis, out, keepdims) for max.
    got, want = vkdml.sum(x, 0, np.int8, None, True), np.sum(x, 0, np.int8, None, True)
    assert got.dtype == want.dtype == np.int8 and got.shape == want.shape == (1, 6)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(vkdml.max(x, 1, None, True), np.max(x, 1, None, True))
    with pytest.raises(TypeError):
        vkdml.argmax(x, (0,))  # numpy's argmax takes one axis; DirectML's axes are dml.argmax's
    with pytest.raises(TypeError):
        vkdml.argmax(x, 0, axis=0)
    one = np.array([3, 9, 2], dtype=np.float32)
    assert vkdml.argmax(one, axis=0) == 1 and np.isscalar(vkdml.argmax(one, axis=0))
    assert vkdml.argmin(x, axis=1).dtype == np.intp and dml.argmin(x, (1,), output_type="uint32").dtype == np.uint32
    flags = np.array([[True, False, True], [True, True, True]])
    assert vkdml.sum(flags) == np.sum(flags) == 5 and vkdml.sum(flags, axis=0).dtype == np.sum(flags, axis=0).dtype
    with pytest.warns(RuntimeWarning):
        assert np.isnan(vkdml.mean(np.zeros(0, np.float32)))
    with pytest.raises(vkdml.UnsupportedType):
        vkdml.sum(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))
    # numpy's functions take bools; DirectML's operators do not (not one of the 11 types).
    assert vkdml.max(flags).dtype == np.bool_
    np.testing.assert_array_equal(vkdml.min(flags, axis=1), np.min(flags, axis=1))
    with pytest.raises(vkdml.UnsupportedType):
        dml.reduce(flags, "max", 0)
