"""The numpy-named functions against numpy itself, on a table of functions, dtypes (bool and byte-swapped
ones too), shapes, axes, keepdims, dtype= and out=: the same shape, the same dtype, the same kind of
result (array or scalar), and the same values, integers exactly and floats within a bound of the exact
value (numpy's own float16 and float32 sums are further off than vkdml's compensated ones, so floats are
compared with a float64 computation rounded to numpy's result type). Also numpy's errors for bad axes,
empty inputs and casts, and numpy-format docstrings."""

import pydoc
import warnings

import numpy as np
import pytest

import vkdml

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", ">i4", ">f4", ">f8"]
SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "nanmax", "nanmin", "logsumexp", "ptp", "nansum", "nanprod",
              "nanmean", "var", "std", "nanvar", "nanstd", "any", "all", "count_nonzero"]
ARGS = ["argmax", "argmin", "nanargmax", "nanargmin"]

# (shape, axis) pairs; each function and dtype takes two of them, rotating, so every pair meets every
# function.
SCAN_AXES = [((7,), None), ((3, 4), 0), ((3, 4), -1), ((2, 3, 4), None), ((2, 3, 4), 1), ((), None),
             ((4, 0), 1), ((5, 2, 3), 2)]
REDUCE_AXES = [((7,), None), ((3, 4), 0), ((3, 4), (0, 1)), ((2, 3, 4), (0, 2)), ((2, 3, 4), -1),
               ((2, 3, 4), None), ((), None), ((3, 0), 0), ((5, 1, 6), (1,))]
ARG_AXES = [((7,), None), ((3, 4), 0), ((3, 4), -1), ((2, 3, 4), 1), ((2, 3, 4), None), ((), None)]


def values(function, dtype, shape, seed):
    """Inputs numpy and vkdml both compute well: full-range integers for sums (both wrap the same way),
    small factors for products, NaNs (never a whole slice) for the nan functions."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    product = function in ("prod", "cumprod", "nanprod", "nancumprod")
    if dt.kind in "iu" and function in ("any", "all", "count_nonzero"):
        return (rng.integers(0, 3, size=shape) * (rng.random(shape) < 0.7)).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        low, high = (-3 if dt.kind == "i" else 0, 4) if product else (info.min, info.max)
        return rng.integers(low, high, size=shape, endpoint=True, dtype=np.int64 if dt.kind == "i" else
                            np.uint64).astype(dt)
    x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape) if product else rng.standard_normal(shape)
    if function in ("any", "all", "count_nonzero"):  # zeros (-0 among them) in about half the places
        x = x * (rng.random(shape) < 0.5) * rng.choice([-1, 1], shape)
    x = np.asarray(x).astype(dt)
    if function.startswith("nan") and x.ndim and x.shape[-1] > 1:
        x[..., 1] = np.nan  # one NaN in every last-axis slice, never all of one
    return x


def expected(function, x, axis, keepdims, dtype):
    """numpy's result; floats computed in float64 and rounded to numpy's result type."""
    fn = getattr(np, function) if function != "logsumexp" else None
    kw = {} if dtype is None else {"dtype": dtype}
    if function in ("max", "min", "nanmax", "nanmin", "argmax", "argmin", "nanargmax", "nanargmin", "ptp", "any",
                    "all", "count_nonzero"):
        kw = {}
    if function in REDUCTIONS or function in ARGS:
        kw["keepdims"] = keepdims
    if function == "logsumexp":
        wide = x.astype(np.float64)
        top = np.max(wide, axis=axis, keepdims=True, initial=-np.inf)
        ref = np.log(np.sum(np.exp(wide - top), axis=axis, keepdims=True)) + top  # scipy's shift
        ref = ref if keepdims else np.squeeze(ref, axis=axis)
        kind = x.dtype.newbyteorder("=") if x.dtype.kind == "f" else np.dtype(np.float64)
        return np.asarray(ref).astype(kind)[()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = fn(x, axis, **kw)
        if np.asarray(want).dtype.kind == "f" and function not in ("max", "min", "nanmax", "nanmin", "ptp"):
            wide = fn(x.astype(np.float64) if x.dtype.kind in "fb" or dtype is not None else x, axis, **{
                k: v for k, v in kw.items() if k != "dtype"})
            want = np.asarray(wide).astype(np.asarray(want).dtype)[()]
    return want


def check(got, want, what):
    assert type(got) is type(want), f"{what}: {type(got).__name__}, numpy {type(want).__name__}"
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, f"{what}: shape {g.shape}, numpy {w.shape}"
    assert g.dtype == w.dtype, f"{what}: dtype {g.dtype}, numpy {w.dtype}"
    if w.dtype.kind == "f":
        tol = {2: 2e-3, 4: 2e-6, 8: 1e-13}[w.dtype.itemsize]
        scale = np.max(np.abs(w[np.isfinite(w)]), initial=1.0)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale, err_msg=what)
    else:
        np.testing.assert_array_equal(g, w, err_msg=what)


def table():
    cases = []
    for f_index, function in enumerate(SCANS + REDUCTIONS + ARGS):
        table_axes = SCAN_AXES if function in SCANS else REDUCE_AXES if function in REDUCTIONS else ARG_AXES
        for d_index, dtype in enumerate(DTYPES):
            if function in ("logsumexp", "ptp") and dtype == "bool":  # ptp's TypeError: test_ptp_amax_amin
                continue
            for k in range(2):
                shape, axis = table_axes[(f_index + d_index * 2 + k) % len(table_axes)]
                keepdims = (d_index + k) % 2 == 1 and function not in SCANS
                cases.append((function, dtype, shape, axis, keepdims))
    return cases


CASES = table()


def test_the_table_has_at_least_200_cases():
    assert len(CASES) >= 200, len(CASES)


@pytest.mark.parametrize("function,dtype,shape,axis,keepdims", CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}-{c[4]}" for c in CASES])
def test_agrees_with_numpy(function, dtype, shape, axis, keepdims):
    x = values(function, dtype, shape, seed=len(shape) * 31 + DTYPES.index(dtype))
    what = f"{function}({dtype} {shape}, axis={axis}, keepdims={keepdims})"
    kw = {"keepdims": keepdims} if function not in SCANS else {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = expected(function, x, axis, keepdims, None)
    except ValueError as e:  # an empty slice without an identity, or nanarg's all-NaN slice
        with pytest.raises(ValueError, match=str(e).split(" ")[0] if "empty" not in str(e) else "empty|identity"):
            getattr(vkdml, function)(x, axis, **kw)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(vkdml, function)(x, axis, **kw)
    check(got, want, what)


# dtype= and out=, with numpy's rules for each.
DTYPE_CASES = [
    ("cumsum", "int8", "int16"), ("cumsum", "int32", "float64"), ("cumsum", "float32", "float64"),
    ("cumsum", "bool", "uint8"), ("cumprod", "uint8", "uint8"), ("cumprod", "int16", "int32"),
    ("sum", "int8", "int8"), ("sum", "float16", "float32"), ("sum", "uint16", "uint32"),
    ("sum", "int64", "float64"), ("prod", "int8", "int16"), ("prod", "float32", "float64"),
    ("mean", "int32", "float32"), ("mean", "float16", "float64"), ("mean", "uint8", "float16"),
    # numpy's rule 'unsafe': floats truncate to integers, integers wrap into other integers
    ("sum", "float64", "int32"), ("cumsum", "int64", "uint64"), ("sum", "int8", "uint8"),
    ("cumsum", "float32", "int16"), ("prod", "int32", "uint8"), ("mean", "int16", "int32"),
]


@pytest.mark.parametrize("function,dtype,computed", DTYPE_CASES)
def test_dtype_argument(function, dtype, computed):
    x = values(function, dtype, (3, 5), seed=7)
    got = getattr(vkdml, function)(x, 1, computed)
    check(got, expected(function, x, 1, False, computed), f"{function}({dtype}, dtype={computed})")


@pytest.mark.parametrize("function,dtype,out_dtype,axis", [
    ("cumsum", "int32", "int64", 0), ("cumsum", "int16", "float32", 1), ("cumprod", "float32", "float64", None),
    ("sum", "float32", "float64", 0), ("sum", "int8", "int32", (0, 1)), ("prod", "uint8", "uint16", 1),
    ("mean", "int32", "float32", 1), ("max", "int16", "int64", 0), ("min", "float16", "float32", 1),
    ("argmax", "float32", "int64", 1), ("argmin", "uint8", "int32", 0), ("nanmax", "float64", "float64", 1),
    # numpy's rule 'unsafe' for the results of reductions and scans
    ("cumsum", "float64", "int64", None), ("max", "float32", "int32", 0), ("mean", "int32", "int64", 1),
    ("sum", "int64", "uint8", 1), ("nanmin", "float32", "int16", 1), ("prod", "float64", "float16", 0),
    ("mean", "uint8", "int8", 1),  # numpy's mean: the sum cast into out (wrapping), then divided there
])
def test_out_argument(function, dtype, out_dtype, axis):
    x = values(function, dtype, (4, 6), seed=3)
    want_shape = np.asarray(getattr(np, function)(x, axis)).shape
    out = np.full(want_shape, 99, out_dtype)
    np_out = np.full(want_shape, 99, out_dtype)
    got = getattr(vkdml, function)(x, axis, out=out)
    getattr(np, function)(x, axis, out=np_out)
    assert got is out
    check(out, np_out, f"{function}({dtype}, out={out_dtype})")


def test_the_issue_examples():
    assert vkdml.argmax(np.ones((2, 3, 4)), 1).shape == (2, 4)
    got = vkdml.cumsum(np.array([2 ** 31 - 1, 1], np.int32))
    assert got.dtype == np.int64 and got.tolist() == [2 ** 31 - 1, 2 ** 31]
    assert vkdml.cumsum(np.arange(6, dtype=np.int16).reshape(2, 3)).tolist() == [0, 1, 3, 6, 10, 15]
    assert vkdml.argmax(np.array([[1, 9], [9, 1]], np.int8), keepdims=True).tolist() == [[1]]
    assert vkdml.argmin(np.array([[1, 9], [0, 1]], np.int8), 1, keepdims=True).tolist() == [[0], [0]]
    assert vkdml.max(np.array([[True, False], [False, False]]), 1).tolist() == [True, False]
    assert vkdml.sum(np.array([1, 2], ">i2")).item() == 3


def test_numpy_corners():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got, want = vkdml.mean(x, 1, dtype=np.int32), np.mean(x, 1, dtype=np.int32)  # truncated, in int32
    assert got.dtype == want.dtype == np.int32 and got.tolist() == want.tolist() == [1, 5, 9]
    assert vkdml.mean(np.array([-3, -4], np.int8), dtype=np.int16) == np.mean(np.array([-3, -4], np.int8),
                                                                             dtype=np.int16) == -3
    for axis in (0, -1, ()):
        got, want = vkdml.sum(np.float32(2), axis), np.sum(np.float32(2), axis)  # a 0-d array's axis 0
        assert type(got) is type(want) and got == want == 2
    assert vkdml.max(np.float32(-1), 0, keepdims=True).shape == np.max(np.float32(-1), 0, keepdims=True).shape
    assert vkdml.max(np.float16([-0.0, 0.0])) == 0 and not np.signbit(vkdml.max(np.float16([-0.0, 0.0])))
    assert np.signbit(vkdml.min(np.float32([0.0, -0.0])))
    x = np.float16([60000, 60000, -60000])  # the README's float16 difference: numpy's running sum stays inf
    with np.errstate(over="ignore"):
        assert vkdml.cumsum(x).tolist() == [60000, np.inf, 60000] and np.cumsum(x).tolist() == [60000, np.inf, np.inf]
    x = np.arange(18, dtype=np.uint8).reshape(2, 3, 3) * 7
    for m in (np, vkdml):  # an integer dtype with a float out: the sums divided in the out, not truncated
        out = np.zeros((2, 3), np.float32)
        m.mean(x, 2, dtype=np.int64, out=out)
        assert out.tolist() == [[7, 28, 49], [70, 91, 112]]
        out = np.zeros((2, 3), np.float64)
        m.mean(x + 1, 2, np.int64, out)
        assert out[0, 0] == 8.0
    with pytest.raises(np.AxisError):
        vkdml.mean(np.int32(4), 0, dtype=np.int64)  # numpy's mean takes no axis of a 0-d array
    for m in (np, vkdml):  # a 0-d array's arg functions give a 0-d index, kept dims or not
        assert np.shape(m.argmax(np.array(3.0), 0, keepdims=True)) == () == np.shape(m.nanargmin(np.array(3.0), 0))
    # nanargmax reads NaN as -inf, nanargmin as +inf: where that extreme wins, the first NaN or extreme
    for v, axis in (([np.nan, -np.inf], None), ([[1, np.nan, np.inf], [np.inf, np.nan, 2]], 1),
                    ([[-np.inf, np.nan], [np.nan, -np.inf]], 0), ([[np.nan, np.inf, 3]], None)):
        x = np.array(v, np.float32)
        for name in ("nanargmax", "nanargmin"):
            if name == "nanargmin" and axis == 0:
                continue  # an all-NaN-but-inf column is fine, a NaN-only one raises: not this table
            np.testing.assert_array_equal(getattr(vkdml, name)(x, axis), getattr(np, name)(x, axis),
                                          err_msg=f"{name}({v}, {axis})")


def test_numpy_errors():
    x = np.ones((2, 3), np.float32)
    for call in (lambda m: m.sum(x, axis=1.0), lambda m: m.cumsum(x, "0"), lambda m: m.argmax(x, (0, 1)),
                 lambda m: m.mean(x, axis=[0.5]), lambda m: m.sum(x, [0, 1]), lambda m: m.argmax(x, True),
                 lambda m: m.sum(x, 0, True), lambda m: m.sum(x, 0, "no such type")):
        with pytest.raises(TypeError):
            call(np)
        with pytest.raises(TypeError):
            call(vkdml)
    with pytest.raises(TypeError, match="axis 1.0 is not an integer"):
        vkdml.sum(x, axis=1.0)
    for call in (lambda m: m.sum(x, 2), lambda m: m.cumsum(x, -3), lambda m: m.argmax(x, 2),
                 lambda m: m.max(np.ones((0, 2)), 0), lambda m: m.argmin(np.ones((0, 2)), 0),
                 lambda m: m.sum(x, (0, 0))):
        with pytest.raises(ValueError):
            call(np)
        with pytest.raises(ValueError):
            call(vkdml)
    with pytest.raises(vkdml.InvalidArgument, match="axis 2 is out of range for an array of 2 dimensions"):
        vkdml.sum(x, 2)
    for call in (lambda m: m.sum(x, 2), lambda m: m.argmax(x, -3), lambda m: m.cumsum(x, 2),
                 lambda m: m.sum(np.float32(1), (0,)), lambda m: m.mean(np.float32(1), 0)):
        with pytest.raises(np.AxisError):
            call(np)
        with pytest.raises(np.AxisError):  # and IndexError, as numpy's
            call(vkdml)
    with pytest.raises(vkdml.AxisError, match="^axis 1 is out of range for an array of 1 dimension$"):
        vkdml.sum(np.ones(3), 1)
    for m in (np, vkdml):  # indices go only into an integer out
        with pytest.raises(TypeError):
            m.argmax(np.array([1, 3, 2]), out=np.empty((), np.float64))
    with pytest.raises(TypeError, match="argmax: out must have an integer dtype for indices, not float64"):
        vkdml.argmax(np.array([1, 3, 2]), out=np.empty((), np.float64))
    with pytest.raises(vkdml.InvalidArgument, match=r"out has shape \(2,\), the result has shape \(3,\)"):
        vkdml.max(x, 0, out=np.empty(2, np.float32))
    with pytest.raises(vkdml.UnsupportedType, match="complex64 is not one of vkdml's 11 types"):
        vkdml.sum(np.ones(3, np.complex64))
    with pytest.raises(vkdml.InvalidArgument, match="All-NaN slice encountered"):
        vkdml.nanargmax(np.array([[np.nan, np.nan], [1, 2]], np.float32), 1)


NUMPY_NAMED = ["cumsum", "cumprod", "sum", "prod", "mean", "max", "min", "argmax", "argmin", "logsumexp",
               "nanmax", "nanmin", "nanargmax", "nanargmin", "ptp", "nansum", "nanprod", "nanmean", "nancumsum",
               "nancumprod", "var", "std", "nanvar", "nanstd", "any", "all", "count_nonzero"]
DML_NAMED = ["cumulative_sum", "cumulative_product", "cumulative_maximum", "cumulative_minimum",
             "log_cumulative_sum_exp", "reduce", "argmax", "argmin"]
ACCUMULATE_NAMED = ["maximum_accumulate", "minimum_accumulate", "fmax_accumulate", "fmin_accumulate",
                    "logaddexp_accumulate", "logcumsumexp", "cummax", "cummin"]


@pytest.mark.parametrize("name", [f"vkdml.{n}" for n in NUMPY_NAMED + ACCUMULATE_NAMED] +
                         [f"vkdml.dml.{n}" for n in DML_NAMED])
def test_help_shows_numpy_format_docstrings(name):
    obj = vkdml.dml if name.startswith("vkdml.dml.") else vkdml
    text = pydoc.render_doc(getattr(obj, name.rsplit(".", 1)[1]), renderer=pydoc.plaintext)
    for section in ("Parameters\n    ----------", "Returns\n    -------", "Examples\n    --------", ">>> "):
        assert section in text, f"help({name}) lacks {section.split()[0]}"


def test_signatures_match_numpy():
    import inspect
    for name in ("cumsum", "cumprod", "sum", "prod", "mean", "max", "min", "argmax", "argmin", "ptp", "amax", "amin",
                 "nansum", "nanprod", "nanmean", "nancumsum", "nancumprod", "var", "std", "nanvar", "nanstd", "any",
                 "all", "count_nonzero"):
        ours = [p for p in inspect.signature(getattr(vkdml, name)).parameters if p != "device"]
        theirs = [p for p in inspect.signature(getattr(np, name)).parameters if p != "where"]
        assert ours == theirs, f"{name}: {ours} against numpy's {theirs}"


@pytest.mark.parametrize("module", ["vkdml", "vkdml._numpy_api", "vkdml.dml"])
def test_docstring_examples_give_what_they_show(module):
    import doctest
    import importlib
    from vkdml import dml
    result = doctest.testmod(importlib.import_module(module), extraglobs={"np": np, "vkdml": vkdml, "dml": dml},
                             optionflags=doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.attempted >= 4 and result.failed == 0, result


def test_ptp_amax_amin():
    # amax and amin are max and min under numpy's other names; ptp is max - min in the input's type.
    assert vkdml.amax is vkdml.max and vkdml.amin is vkdml.min
    assert {"amax", "amin", "ptp"} <= set(vkdml.__all__)
    x = np.array([[-128, 127, 3], [0, -5, 9]], np.int8)
    check(vkdml.ptp(x), np.ptp(x), "ptp int8, wrapping")
    check(vkdml.ptp(x, 1, keepdims=True), np.ptp(x, 1, keepdims=True), "ptp int8, axis 1")
    check(vkdml.amax(x, 0), np.amax(x, 0), "amax")
    check(vkdml.amin(x, axis=(0, 1)), np.amin(x, axis=(0, 1)), "amin")
    f = np.array([[1.5, np.nan], [3.0, 4.0]], np.float32)
    check(vkdml.ptp(f, 0), np.ptp(f, 0), "ptp float32 with a NaN")
    out = np.empty(2, np.float64)
    assert vkdml.ptp(f, 1, out=out) is out
    np.testing.assert_array_equal(out, np.ptp(f, 1))
    a = vkdml.asarray(f)
    got = vkdml.ptp(a, 0)
    assert isinstance(got, vkdml.Array)
    np.testing.assert_array_equal(got.numpy(), np.ptp(f, 0))
    with pytest.raises(TypeError, match="numpy boolean subtract"):
        vkdml.ptp(np.array([True, False]))
    with pytest.raises(ValueError, match="zero-size array"):
        vkdml.ptp(np.zeros((2, 0), np.float32), 1)


def test_nanmean_counts_the_numbers_on_the_device():
    x = np.array([[1, np.nan, 2, np.nan], [np.nan] * 4, [3, 4, 5, 6]], np.float32)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = vkdml.nanmean(x, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(got, np.nanmean(x, axis=1), "nanmean float32, axis 1")
    check(vkdml.nanmean(x[[0, 2]]), np.nanmean(x[[0, 2]]), "nanmean of everything")
    out, want = np.empty((1, 4), np.float64), np.empty((1, 4), np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert vkdml.nanmean(x, 0, out=out, keepdims=True) is out
        np.nanmean(x, 0, out=want, keepdims=True)  # summed in out's float64, as numpy does
        np.testing.assert_allclose(out, want, rtol=1e-15)
    with pytest.raises(TypeError, match="If a is inexact, then out must be inexact"):
        vkdml.nanmean(x, 0, out=np.empty(4, np.int32))
    # A 0-d out is returned as itself, not as the scalar it holds.
    out = np.empty((), np.float32)
    assert vkdml.mean(np.array([1, 2, 4], np.float32), out=out) is out and out == np.float32(7 / 3)
    out = np.empty((), np.float64)
    assert vkdml.nanmean(np.array([1, 2], np.int32), out=out) is out and out == 1.5
    with pytest.warns(RuntimeWarning) as caught:
        vkdml.nanmean(np.zeros((0,), np.float32))
    assert [str(w.message) for w in caught] == ["Mean of empty slice"]
    check(vkdml.nanmean(np.array([1, 2, 4], np.int16)), np.nanmean(np.array([1, 2, 4], np.int16)), "nanmean int16")
    with pytest.raises(TypeError, match="If a is inexact, then dtype must be inexact"):
        vkdml.nanmean(x, dtype=np.int32)
    a = vkdml.asarray(x[[0, 2]])
    assert isinstance(vkdml.nanmean(a, 1), vkdml.Array)
    np.testing.assert_array_equal(vkdml.nanmean(a, 1).numpy(), np.nanmean(x[[0, 2]], 1))


def test_empty_slices_warn_as_numpy_does():
    # mean warns where the reduced count is 0, var and std where it is at most ddof, even where the result
    # is empty or goes through an integer dtype or out=; the nan functions only for a slice of the result.
    cases = [("mean", (0, 0), 0, {}), ("mean", (0, 3), 0, {"dtype": np.int32}), ("mean", (0, 3), 0, {"out": 3}),
             ("mean", (0, 3), 1, {}), ("var", (0, 0), 0, {}), ("var", (0, 3), 1, {}), ("std", (0, 3), (), {"ddof": 1}),
             ("var", (0, 3), (), {}), ("nanmean", (0, 0), 0, {}), ("nanmean", (0, 3), 0, {"out": 3}),
             ("nanvar", (0, 3), (), {"ddof": 1}), ("nanstd", (0, 3), 0, {})]
    for name, shape, axis, options in cases:
        what = f"{name}({shape}, axis={axis}, {options})"
        results, messages = [], []
        for module in (np, vkdml):
            kwargs = {k: np.empty(v) if k == "out" else v for k, v in options.items()}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                results.append(getattr(module, name)(np.zeros(shape, np.float32), axis, **kwargs))
            # (numpy's own division by 0 warns too: not part of the contract)
            messages.append([str(w.message) for w in caught if "encountered in" not in str(w.message)])
        assert messages[1] == messages[0], what
        assert results[1].dtype == results[0].dtype and results[1].shape == results[0].shape, what
        np.testing.assert_array_equal(results[1], results[0], err_msg=what)
    assert messages[0] == ["Degrees of freedom <= 0 for slice."]  # (the last case: the list is not empty)


def test_var_and_std_follow_numpy_on_ddof_dtype_out_and_empty_slices():
    x = np.arange(12, dtype=np.float64).reshape(3, 4) ** 1.5
    for ddof in (0, 1, 3, 0.5, -1, 2.5):
        for fn in ("var", "std"):
            check(getattr(vkdml, fn)(x, 1, ddof=ddof), getattr(np, fn)(x, 1, ddof=ddof), f"{fn} ddof={ddof}")
            check(getattr(vkdml, fn)(x, ddof=ddof), getattr(np, fn)(x, ddof=ddof), f"{fn} ddof={ddof}, all")
    # N - ddof <= 0: +inf, or NaN for deviations of 0, with numpy's warning.
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
        got = vkdml.var(np.array([[1.0, 2.0], [3.0, 3.0]]), 1, ddof=2)
    assert got[0] == np.inf and np.isnan(got[1])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):  # nanvar: NaN, not inf
        got = vkdml.nanvar(np.array([[1.0, 2.0], [3.0, 3.0]]), 1, ddof=2)
    assert np.isnan(got).all()
    # Squares past float32's range: the variance is finite where numpy's is (S1·(S1/N), never S1²).
    big = np.array([1e18] + [0] * 99, np.float32)
    np.testing.assert_allclose(vkdml.var(big), np.var(big.astype(np.float64)), rtol=1e-6)
    with pytest.warns(RuntimeWarning, match=r"Degrees of freedom <= 0 for slice\."):
        got = vkdml.nanstd(np.array([[np.nan, np.nan], [1.0, 2.0]], np.float32), 1)
    assert np.isnan(got[0]) and got[1] == np.float32(0.5) and got.dtype == np.float32
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        assert np.isnan(vkdml.var(np.zeros(0, np.float32)))
    # dtype=: a float type computes there; numpy's integer dtypes are refused with a TypeError.
    ints = np.array([1, 2, 3, 4], np.int32)
    check(vkdml.var(ints, dtype=np.float32), np.var(ints, dtype=np.float32), "var int32 as float32")
    with pytest.raises(TypeError, match="var: dtype int32 is not a float type"):
        vkdml.var(ints, dtype=np.int32)
    # out=: a numpy array, and an Array the device writes itself.
    out = np.empty(3)
    assert vkdml.std(x, 1, out=out) is out
    np.testing.assert_allclose(out, np.std(x, 1), rtol=1e-15)
    on_device = vkdml.asarray(x)
    dev_out = vkdml.asarray(np.empty((3, 1)))
    assert vkdml.var(on_device, 1, keepdims=True, out=dev_out) is dev_out
    np.testing.assert_allclose(dev_out.numpy(), np.var(x, 1, keepdims=True), rtol=1e-15)
    assert isinstance(vkdml.nanvar(on_device, 0), vkdml.Array)


def test_var_keeps_every_digit_of_data_far_from_zero():
    # 1e4 + N(0, 1) in float32 (steps of 2^-10): numpy's own float32 var loses digits to the mean, vkdml's
    # shifted compensated sums keep the float64 two-pass result to 1e-6.
    x = (1e4 + np.random.default_rng(5).standard_normal(1_000_003)).astype(np.float32)
    exact = np.var(x.astype(np.float64), ddof=1)
    got = vkdml.var(x, ddof=1)
    assert got.dtype == np.float32
    assert abs(float(got) - exact) <= 1e-6 * exact, (float(got), exact)
    y = (1e8 + np.random.default_rng(6).standard_normal((300, 1001)))
    np.testing.assert_allclose(vkdml.std(y, 1), np.std(y, 1), rtol=1e-13)


def test_dml_reduce_variance_and_its_correction():
    x = np.array([[1, 2, 3, 4], [2, 4, 6, 8]], np.float32)
    got = vkdml.dml.reduce(x, "variance", 1, correction=1)
    np.testing.assert_array_equal(got, np.array([[5 / 3], [20 / 3]], np.float32))
    np.testing.assert_array_equal(vkdml.dml.reduce(x, "standard_deviation", (0, 1)),
                                  np.float32(np.sqrt(np.var(x.astype(np.float64)))).reshape(1, 1))
    assert vkdml.dml.VKDML_REDUCE_FUNCTIONS == {"variance": 1000, "standard_deviation": 1001, "any": 1002,
                                                "all": 1003, "count_nonzero": 1004}
    with pytest.raises(vkdml.InvalidArgument, match=r"correction -1 is not an integer from 0 to 2\*\*32 - 1"):
        vkdml.dml.reduce(x, "variance", 1, correction=-1)
    with pytest.raises(vkdml.InvalidArgument, match="OperatorOptions::correction is 1 but Function is SUM"):
        vkdml.dml.reduce(x, "sum", 1, correction=1)
    with pytest.raises(vkdml.UnsupportedType, match="InputTensor.DataType is INT32 but VARIANCE takes FLOAT16"):
        vkdml.dml.reduce(x.astype(np.int32), "variance", 1)
    with pytest.raises(vkdml.InvalidArgument, match="function 'varianse' is not one of .*sum_square, variance, "
                                                    "standard_deviation, any, all, count_nonzero"):
        vkdml.dml.reduce(x, "varianse", 1)


def test_any_all_count_nonzero_follow_numpy():
    x = np.array([[0.0, -0.0, 0.0], [np.nan, 0.0, 0.0], [np.inf, 1.0, 2.0]], np.float32)
    for fn in ("any", "all"):
        check(getattr(vkdml, fn)(x, 1), getattr(np, fn)(x, 1), f"{fn} rows")
        check(getattr(vkdml, fn)(x), getattr(np, fn)(x), f"{fn} all")
        check(getattr(vkdml, fn)(x, (0, 1), keepdims=True), getattr(np, fn)(x, (0, 1), keepdims=True), fn)
    check(vkdml.count_nonzero(x, axis=1), np.count_nonzero(x, axis=1), "count_nonzero rows")
    assert vkdml.count_nonzero(x) == 4 and type(vkdml.count_nonzero(x)) is int  # numpy: a Python int
    # Empty slices: any False, all True, a count of 0.
    empty = np.zeros((0, 3), np.int16)
    check(vkdml.any(empty, 0), np.any(empty, 0), "any of nothing")
    check(vkdml.all(empty, 0), np.all(empty, 0), "all of nothing")
    check(vkdml.count_nonzero(empty, axis=0), np.count_nonzero(empty, axis=0), "count of nothing")
    # out=, and an Array: its result stays on the device as uint8 0 or 1 (an Array holds no bool).
    out = np.empty(3, bool)
    assert vkdml.any(x, 1, out=out) is out
    np.testing.assert_array_equal(out, [False, True, True])
    on_device = vkdml.any(vkdml.asarray(x), 1)
    assert isinstance(on_device, vkdml.Array) and on_device.dtype == np.uint8
    np.testing.assert_array_equal(on_device.numpy(), [0, 1, 1])
    # vkdml.dml.reduce: uint8 flags, counts in any index type.
    np.testing.assert_array_equal(vkdml.dml.reduce(x, "all", 1), np.array([[0], [0], [1]], np.uint8))
    got = vkdml.dml.reduce(x, "count_nonzero", 0, output_type="uint32")
    assert got.dtype == np.uint32 and got.tolist() == [[2, 1, 1]]
    with pytest.raises(vkdml.UnsupportedType, match="reduce any: the output is uint8"):
        vkdml.dml.reduce(x, "any", 1, output_type="int32")
    # A long line of several chunks: one nonzero element at either end.
    line = np.zeros(3_000_001, np.uint8)
    assert not vkdml.any(line)
    line[-1] = 7
    assert vkdml.any(line) and vkdml.count_nonzero(line) == 1 and not vkdml.all(line)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "amax", "amin", "nansum", "nanprod", "nanmax",
                                  "nanmin"])
def test_initial_follows_numpy(name):
    rng = np.random.default_rng(7)
    floats = rng.standard_normal((4, 5)).astype(np.float32)
    floats[1, :] = np.nan if name.startswith("nan") else floats[1, :]
    floats[2, 3] = np.nan
    cases = [(floats, 1, 0.25), (floats, None, 3), (floats, (0, 1), -7.5),
             (np.arange(12, dtype=np.int8).reshape(3, 4), 0, 300.7),  # cast to the result's type first
             (np.array([True, False, True]), None, 2),
             (np.zeros((2, 0), np.float64), 1, -1.5),  # an empty slice gives initial
             (np.zeros((2, 0), np.int16), 1, 4)]
    for x, axis, initial in cases:
        what = f"{name}({x.dtype} {x.shape}, axis={axis}, initial={initial})"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(np, name)(x, axis, initial=initial)
            got = getattr(vkdml, name)(x, axis, initial=initial)
        check(got, want, what)
    # initial=None is no initial, as in numpy.
    check(getattr(vkdml, name)(floats, 1, initial=None), getattr(np, name)(floats, 1, initial=None), "None")
    # keepdims and out= with initial.
    out = np.empty((4, 1), np.float64)
    assert getattr(vkdml, name)(floats, 1, out=out, keepdims=True, initial=1) is out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_allclose(out, getattr(np, name)(floats, 1, keepdims=True, initial=1).astype(np.float64),
                                   rtol=2e-6)


def test_accumulate_takes_numpys_axes():
    x = np.arange(6.0).reshape(2, 3)
    for name in ("maximum", "minimum", "fmax", "fmin", "logaddexp"):
        ours, theirs = getattr(vkdml, f"{name}_accumulate"), getattr(np, name).accumulate
        np.testing.assert_allclose(ours(x[0], axis=None), theirs(x[0], axis=None), rtol=1e-15, err_msg=name)
        for axis in ((0,), (-1,)):
            np.testing.assert_allclose(ours(x, axis=axis), theirs(x, axis=axis), rtol=1e-15, err_msg=name)
        for axis in (None, (), (0, 1), (0, 0), (-1, 1)):
            with pytest.raises(ValueError, match="accumulate does not allow multiple axes"):
                ours(x, axis=axis)
        with pytest.raises(np.AxisError):
            ours(x[0], axis=(0, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_maximum_and_minimum_accumulate_follow_numpy(dtype):
    rng = np.random.default_rng(DTYPES.index(dtype))
    x = values("maximum", dtype, (6, 7, 5), seed=DTYPES.index(dtype))
    if np.dtype(dtype).kind == "f":
        x[rng.random(x.shape) < 0.05] = np.nan
    for name in ("maximum", "minimum", "fmax", "fmin"):
        for axis in (0, 1, -1):
            what = f"{name}.accumulate({dtype}, axis={axis})"
            want = getattr(np, name).accumulate(x, axis=axis)
            got = getattr(vkdml, f"{name}_accumulate")(x, axis=axis)
            assert got.dtype == want.dtype and got.shape == want.shape, what
            np.testing.assert_array_equal(got, want, err_msg=what)


def log_accumulated(x, axis):
    """ln(cumsum(exp)) along `axis` in long double, against a running maximum (the reference)."""
    x = np.moveaxis(np.asarray(x, np.longdouble), axis, -1)
    top = np.maximum.accumulate(x, axis=-1)
    out = np.empty_like(x)
    for k in range(x.shape[-1]):
        m = top[..., k:k + 1]
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            s = np.exp(np.where(np.isneginf(m), -np.inf, x[..., :k + 1] - m)).sum(axis=-1)
            out[..., k] = np.where(np.isinf(m[..., 0]), m[..., 0], m[..., 0] + np.log(s))
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("dtype", DTYPES)
def test_logaddexp_accumulate_and_logcumsumexp_follow_numpy_and_torch(dtype):
    seed = DTYPES.index(dtype)
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        x = (rng.normal(size=(6, 40, 5)) * 4 + (500 if dt.itemsize > 2 else 0)).astype(dtype)
        x[rng.random(x.shape) < 0.02] = -np.inf
    else:
        x = values("cumsum", dtype, (6, 40, 5), seed=seed)
        if dt.kind in "iu":
            x = (x % 50).astype(dtype)  # (integers whose float16 promotion stays finite)
    for axis in (0, 1, -1):
        what = f"logaddexp.accumulate({dtype}, axis={axis})"
        want_type = np.logaddexp.accumulate(x, axis=axis).dtype
        got = vkdml.logaddexp_accumulate(x, axis=axis)
        assert got.dtype == want_type and got.shape == x.shape, what
        exact = log_accumulated(x.astype(want_type), axis)
        eps = np.finfo(want_type).eps
        finite_x = np.where(np.isfinite(x.astype(np.float64)), np.abs(x.astype(np.float64)), 0)
        scale = np.maximum(np.maximum(np.abs(exact), 1), np.maximum.accumulate(finite_x, axis))
        finite = np.isfinite(exact)
        err = np.abs(got[finite].astype(np.longdouble) - exact[finite]) / scale[finite]
        assert err.max(initial=0) <= 4 * eps, what
        np.testing.assert_array_equal(got[~finite], exact[~finite].astype(want_type), err_msg=what)
        # PyTorch's logcumsumexp: floats keep their type, integers and bools become float64.
        torch_type = dt.newbyteorder("=") if dt.kind == "f" else np.dtype(np.float64)
        got = vkdml.logcumsumexp(x, axis)
        assert got.dtype == torch_type, what
        exact = log_accumulated(x.astype(torch_type), axis)
        finite = np.isfinite(exact)
        err = np.abs(got[finite].astype(np.longdouble) - exact[finite]) / scale[finite]
        assert err.max(initial=0) <= 4 * np.finfo(torch_type).eps, what


@pytest.mark.parametrize("dtype", DTYPES)
def test_cummax_and_cummin_follow_torch_values_and_indices(dtype):
    seed = DTYPES.index(dtype)
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    x = rng.integers(0, 6, (5, 23, 4)).astype(dtype)  # (many ties)
    if dt.kind == "f":
        x[rng.random(x.shape) < 0.04] = np.nan
        x[rng.random(x.shape) < 0.05] = -0.0
    for name, maximum in (("cummax", True), ("cummin", False)):
        for dim in (0, 1, -1):
            what = f"{name}({dtype}, dim={dim})"
            got = getattr(vkdml, name)(x, dim)
            want_values, want_indices = torch_cummax(x, dim, maximum)
            assert type(got).__name__ == name and got._fields == ("values", "indices"), what
            assert got.values.dtype == (np.dtype(np.bool_) if dt.kind == "b" else dt.newbyteorder("=")), what
            np.testing.assert_array_equal(got.values, want_values, err_msg=what)
            assert got.indices.dtype == np.int64, what
            np.testing.assert_array_equal(got.indices, want_indices, err_msg=what)


def selection_indices(x, axis, maximum, exclusive, reverse, skip_nan):
    """The index output of vkdml's CUMULATIVE_MAXIMUM (MINIMUM) as a loop in scan order: PyTorch's rule
    (torch_cummax), NaN left out with `skip_nan`, exclusive outputs the index before theirs, -1 for none."""
    x = np.moveaxis(np.asarray(x), axis, -1)
    out = np.full(x.shape, -1, np.int64)
    n = x.shape[-1]
    for at in np.ndindex(x.shape[:-1]):
        best, where = None, -1
        for step in range(n):
            k = n - 1 - step if reverse else step
            v = x[at + (k,)]
            if exclusive:
                out[at + (k,)] = where
            nan_v = x.dtype.kind == "f" and np.isnan(v)
            nan_best = best is not None and x.dtype.kind == "f" and np.isnan(best)
            if not (skip_nan and nan_v) and (best is None or nan_v or
                                             (not nan_best and (v >= best if maximum else v <= best))):
                best, where = v, k
            if not exclusive:
                out[at + (k,)] = where
    return np.moveaxis(out, -1, axis)


def torch_cummax(x, dim, maximum):
    """PyTorch's cummax (cummin): the indices of its CPU and CUDA kernels' loop (selection_indices, inclusive,
    forward, NaN kept) and the elements they name."""
    indices = selection_indices(x, dim, maximum, False, False, False)
    return np.take_along_axis(np.asarray(x), indices, axis=dim), indices


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.uint64])
def test_dml_selection_indices_exclusive_reverse_and_nan_modes(dtype):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 5, (3, 41, 2)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[rng.random(x.shape) < 0.05] = np.nan
        x[0, 0, 0] = np.nan  # a line that starts with NaN
    for maximum, function in ((True, vkdml.dml.cumulative_maximum), (False, vkdml.dml.cumulative_minimum)):
        for exclusive in (False, True):
            for reverse in (False, True):
                for nan in ("propagate", "ignore"):
                    what = f"{function.__name__}({dtype.__name__}, exclusive={exclusive}, reverse={reverse}, {nan})"
                    values, indices = function(x, 1, exclusive=exclusive, reverse=reverse, nan=nan, indices=True)
                    np.testing.assert_array_equal(
                        values, function(x, 1, exclusive=exclusive, reverse=reverse, nan=nan), err_msg=what)
                    np.testing.assert_array_equal(
                        indices, selection_indices(x, 1, maximum, exclusive, reverse, nan == "ignore"), err_msg=what)
    on_device = vkdml.dml.cumulative_maximum(vkdml.asarray(x), 1, indices=True)
    assert isinstance(on_device[0], vkdml.Array) and isinstance(on_device[1], vkdml.Array)
    np.testing.assert_array_equal(on_device[1].numpy(), selection_indices(x, 1, True, False, False, False))


def test_cummax_arguments():
    x = np.array([[1, 5, 2], [7, 0, 9]], np.int16)
    on_device = vkdml.cummin(vkdml.asarray(x), 1)
    assert isinstance(on_device.values, vkdml.Array) and isinstance(on_device.indices, vkdml.Array)
    np.testing.assert_array_equal(on_device.indices.numpy(), [[0, 0, 0], [0, 1, 1]])
    scalar = vkdml.cummax(np.float64(2.5), 0)
    assert scalar.values.shape == () and scalar.values == 2.5 and scalar.indices == 0
    values, indices = vkdml.cummax(np.empty((0, 3), np.float32), 1)
    assert values.shape == indices.shape == (0, 3)
    with pytest.raises(vkdml.AxisError):
        vkdml.cummax(x, 2)


def test_logcumsumexp_edges_arguments_and_the_dml_function():
    f = np.array([np.nan, 0.0, 0.0], np.float32)
    assert np.isnan(vkdml.logcumsumexp(f, 0)).all()  # NaN propagates, as in PyTorch
    np.testing.assert_array_equal(vkdml.dml.log_cumulative_sum_exp(f, 0, nan="ignore"),
                                  np.array([-np.inf, 0, np.log(2)], np.float32))
    big = np.array([1e30, 1e30, -np.inf, np.inf, 1.0], np.float32)
    np.testing.assert_array_equal(vkdml.logcumsumexp(big, 0), np.array([1e30, 1e30, 1e30, np.inf, np.inf], np.float32))
    np.testing.assert_array_equal(vkdml.dml.log_cumulative_sum_exp(np.float64([1, 2, 3]), 0, exclusive=True,
                                                                   reverse=True),
                                  [np.logaddexp(2, 3), 3, -np.inf])
    out = np.empty((2, 3), np.float64)
    x = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
    assert vkdml.logaddexp_accumulate(x, 1, out=out) is out  # computed in out's float64, as numpy's loop
    np.testing.assert_allclose(out, np.logaddexp.accumulate(x, axis=1, out=np.empty((2, 3))), rtol=1e-15)
    small = np.int8([1, 2, 3, 4])
    np.testing.assert_allclose(vkdml.logaddexp_accumulate(small, out=np.empty(4, np.float32)),
                               np.logaddexp.accumulate(small, out=np.empty(4, np.float32)), rtol=2e-7)
    np.testing.assert_allclose(vkdml.logaddexp_accumulate(np.int32([0, 0]), dtype=np.float32), [0, np.log(2)],
                               rtol=1e-7)
    on_device = vkdml.logcumsumexp(vkdml.asarray(x), -1)
    assert isinstance(on_device, vkdml.Array)
    np.testing.assert_allclose(on_device.numpy(), np.logaddexp.accumulate(x, axis=1), rtol=1e-6)
    assert vkdml.logcumsumexp(np.empty((0, 3), np.float32), 1).shape == (0, 3)
    # A 0-d input is its own result, as PyTorch's (dim 0 or -1); numpy's accumulate refuses it.
    scalar = vkdml.logcumsumexp(np.float32(1.5), -1)
    assert scalar.dtype == np.float32 and scalar == 1.5
    assert vkdml.logcumsumexp(np.int64(2), 0) == 2.0
    with pytest.raises(vkdml.AxisError):
        vkdml.logcumsumexp(np.float32(1), 1)
    with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
        vkdml.logaddexp_accumulate(np.float32(1))
    with pytest.raises(TypeError, match="logaddexp_accumulate: dtype int32 is not a float type"):
        vkdml.logaddexp_accumulate(x, dtype=np.int32)
    with pytest.raises(vkdml.UnsupportedType, match="LOG_CUMULATIVE_SUM_EXP: InputTensor.DataType is INT32"):
        vkdml.dml.log_cumulative_sum_exp(np.int32([1, 2]), 0)
    with pytest.raises(vkdml.AxisError):
        vkdml.logcumsumexp(x, 2)


def test_accumulate_arguments_and_the_dml_functions():
    x = np.array([[3, 1, 4], [1, 5, 9]], np.int8)
    out = np.empty((2, 3), np.int8)
    assert vkdml.maximum_accumulate(x, 1, out=out) is out
    np.testing.assert_array_equal(out, [[3, 3, 4], [1, 5, 9]])
    np.testing.assert_array_equal(vkdml.minimum_accumulate(x, dtype=np.float32), [[3, 1, 4], [1, 1, 4]])
    with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
        vkdml.maximum_accumulate(np.float32(1))
    on_device = vkdml.maximum_accumulate(vkdml.asarray(x), 1)
    assert isinstance(on_device, vkdml.Array)
    np.testing.assert_array_equal(on_device.numpy(), [[3, 3, 4], [1, 5, 9]])
    # DirectML's conventions: the type kept, exclusive and reverse, NaN left out as the identity.
    np.testing.assert_array_equal(vkdml.dml.cumulative_maximum(x, 1, exclusive=True),
                                  np.array([[-128, 3, 3], [-128, 1, 5]], np.int8))
    np.testing.assert_array_equal(vkdml.dml.cumulative_minimum(x.astype(np.uint16), 0, reverse=True),
                                  np.array([[1, 1, 4], [1, 5, 9]], np.uint16))
    f = np.array([np.nan, 2.0, np.nan, 1.0], np.float32)
    np.testing.assert_array_equal(vkdml.dml.cumulative_minimum(f, 0, nan="ignore"),
                                  np.array([np.inf, 2, 2, 1], np.float32))
    got = vkdml.dml.cumulative_maximum(f, 0)
    assert np.isnan(got).all()
    # Of -0 and +0: +0 for the maximum, -0 for the minimum, in either order (IEEE 754-2019).
    z = np.array([-0.0, 0.0, -0.0], np.float64)
    assert not np.signbit(vkdml.dml.cumulative_maximum(z, 0)[1:]).any()
    assert np.signbit(vkdml.dml.cumulative_minimum(z[::-1].copy(), 0)).all()


def test_zero_d_inputs_out_types_and_overflow_follow_numpy():
    scalar = np.array(5.0)
    # 0-d input: axis 0 or -1 is no axis where numpy's function takes it (mean, var and std do not).
    for name in ("any", "all", "count_nonzero", "nanmean", "nanvar", "nanstd", "sum", "nanmax", "ptp"):
        for axis in (0, -1):
            assert getattr(vkdml, name)(scalar, axis=axis) == getattr(np, name)(scalar, axis=axis), (name, axis)
        with pytest.raises(np.AxisError):
            getattr(vkdml, name)(scalar, axis=(0,))
    for name in ("mean", "var", "std"):
        with pytest.raises(np.AxisError):
            getattr(vkdml, name)(scalar, axis=0)
    for name in ("nanvar", "nanstd"):  # numpy's nanvar of integers is var
        with pytest.raises(np.AxisError):
            getattr(vkdml, name)(np.array(5), axis=0)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        vkdml.nanargmax(np.array(np.nan))
    assert vkdml.nanargmin(np.array(3.0)) == 0
    # A reduction into its own input Array (numpy allows out=a): computed apart, then written there.
    a = vkdml.asarray(np.full((1, 4), 3.0, np.float32))
    assert vkdml.var(a, axis=0, keepdims=True, out=a) is a
    assert a.numpy().tolist() == [[0.0, 0.0, 0.0, 0.0]]
    b = vkdml.asarray(np.array([[1.0, 2.0]]))
    assert vkdml.sum(b, axis=0, keepdims=True, out=b) is b and b.numpy().tolist() == [[1.0, 2.0]]
    # ptp into out: the maximum in out's type, then out's subtraction (and its casting errors).
    for x, out_type in [(np.array([-100, 100], np.int8), np.int64), (np.array([-100, 100], np.int64), np.int8),
                        (np.array([0, 200], np.uint8), np.int8), (np.array([0.5, 3.75]), np.float32)]:
        want, got = np.zeros((), out_type), np.zeros((), out_type)
        np.ptp(x, out=want)
        assert vkdml.ptp(x, out=got) is got and got == want and got.dtype == want.dtype, (x.dtype, out_type)
    for x, out_type in [(np.array([-100, 100], np.int8), np.uint8), (np.array([0.5, 3.7]), np.int64)]:
        with pytest.raises(TypeError, match="Cannot cast ufunc 'subtract' output"):
            vkdml.ptp(x, out=np.zeros((), out_type))
    # std and the nan functions refuse an integer out as numpy does; var and an integer nanvar take it.
    floats, ints = np.array([1.0, 2.0, 4.0]), np.array([1, 2, 4])
    for name, x, message in [("std", floats, "square root"), ("std", ints, "square root"),
                             ("nanstd", ints, "square root"), ("nanstd", floats, "If a is inexact"),
                             ("nanvar", floats, "If a is inexact")]:
        with pytest.raises(TypeError, match=message):
            getattr(vkdml, name)(x, out=np.zeros((), np.int64))
    for name, x in [("var", floats), ("nanvar", ints)]:
        want, got = np.zeros((), np.int64), np.zeros((), np.int64)
        getattr(np, name)(x, out=want)
        assert getattr(vkdml, name)(x, out=got) is got and got == want == 1, name
    # logaddexp.accumulate into an integer out computes in that type's float loop where wider, as numpy.
    for in_type in (np.int8, np.int64, np.float64):
        for out_type in (np.int64, np.int16, np.int8, np.uint8):
            x = np.array([-72, -49], in_type)
            want, got = np.zeros(2, out_type), np.zeros(2, out_type)
            np.logaddexp.accumulate(x, out=want)
            vkdml.logaddexp_accumulate(x, out=got)
            assert got.tolist() == want.tolist(), (in_type, out_type)
    # Finite data whose sums overflow: +inf, as numpy (never inf - inf); an infinity still gives NaN.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in (np.array([1e200, -1e200]), np.array([3e38, -3e38], np.float32)):
            assert vkdml.var(x) == np.var(x) == np.inf and vkdml.std(x) == np.inf, x.dtype
        assert np.isnan(vkdml.var(np.array([np.inf, 1.0])))
