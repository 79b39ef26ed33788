"""DirectML parity (docs/SPEC.md §3 "No axes", "NaN", "Signed zeros", §7): every reproducer of the
SPEC's table of differences, AxisCount 0 through vkdml.dml.reduce(..., axes=()), nan='ignore', and
numpy's nanmax, nanmin, nanargmax and nanargmin against numpy's own."""

import math
import warnings

import numpy as np
import pytest

import vkdml
from vkdml import dml

FLOATS = ["float16", "float32", "float64"]


# ---- SPEC §7: one line each ------------------------------------------------------------------------

def test_spec_table_of_differences():
    nan_max = dml.reduce(np.float32([1, np.nan, 3]), 'max', 0)
    assert nan_max.shape == (1,) and np.isnan(nan_max[0])
    np.testing.assert_array_equal(dml.reduce(np.float32([1, np.nan, 3]), 'max', 0, nan='ignore'), [3])
    assert vkdml.argmax(np.float32([1, np.nan, 3, 2]), axis=0) == 1
    assert dml.argmax(np.float32([1, np.nan, 3, 2]), 0)[0] == 1
    assert dml.argmax(np.float32([1, np.nan, 3, 2]), 0, nan='ignore')[0] == 2
    assert dml.argmax(np.float32([np.nan, 5]), 0, nan='ignore')[0] == 1
    assert vkdml.nanargmax(np.float32([1, np.nan, 3, 2])) == 2 and vkdml.nanargmax(np.float32([np.nan, 5])) == 1
    lse = dml.reduce(np.float32([100, 99]), 'log_sum_exp', 0)
    assert lse.dtype == np.float32 and lse[0] == np.float32(100.31326)
    big = dml.reduce(np.int64([0x80000000, 0x7FFFFFFF]), 'max', 0)
    assert big.dtype == np.int64 and big[0] == 2147483648
    np.testing.assert_array_equal(vkdml.cumsum(np.float64([1, 2]), 0), np.float64([1, 3]))
    np.testing.assert_array_equal(dml.cumulative_sum(np.float64([1, 2]), 0), np.float64([1, 3]))
    np.testing.assert_allclose(dml.reduce(np.float32([-3, 1]), 'l2', ()), [3, 1], rtol=1e-6)  # Vulkan's sqrt
    zero = dml.reduce(np.float32([-0.0, 0.0]), 'max', 0)
    assert zero[0] == 0 and not np.signbit(zero[0])


def test_all_nan_fibers_give_directml_answers_with_nan_ignore():
    x = np.full((2, 3), np.nan, dtype=np.float32)
    x[1, 1] = 2
    np.testing.assert_array_equal(dml.reduce(x, 'max', 1, nan='ignore'), [[-np.inf], [2]])
    np.testing.assert_array_equal(dml.reduce(x, 'min', 1, nan='ignore'), [[np.inf], [2]])
    np.testing.assert_array_equal(dml.reduce(x, 'argmax', 1, nan='ignore'), [[0], [1]])
    np.testing.assert_array_equal(dml.argmin(x, (1,), select_last_index=True, nan='ignore'), [[0], [1]])


def test_nan_mode_takes_only_its_two_names():
    np.testing.assert_array_equal(dml.reduce(np.float32([1, np.nan, 2]), 'average', 0, nan='ignore'), [1.5])
    with pytest.raises(vkdml.InvalidArgument) as e:
        dml.reduce(np.float32([1, 2]), 'max', 0, nan='skip')
    assert e.value.message == "nan 'skip' is not one of propagate, ignore"
    assert dml.NAN_MODES == ("propagate", "ignore")
    with pytest.raises(vkdml.InvalidArgument):
        dml.argmax(np.float32([1, 2]), 0, nan=None)


# ---- SPEC §3 "No axes" -----------------------------------------------------------------------------

def one_element(function, x):
    """The function over one element, in float64 (numpy's own element-wise operations)."""
    with np.errstate(all="ignore"):
        if function in ("l1", "l2"):
            return np.abs(x)
        if function == "sum_square":
            return x * x
        if function == "log_sum":
            return np.log(x)
        if function == "log_sum_exp":
            return np.where(x == 0, 0.0, x)
        return x


@pytest.mark.parametrize("dtype", FLOATS)
def test_axes_none_applies_each_function_to_its_element_floats(dtype):
    x = np.array([-3, 1, 0, -0.0, np.nan, np.inf, -np.inf, 0.5, 2.5, 65504], dtype=dtype)
    for function in dml.REDUCE_FUNCTIONS:
        got = dml.reduce(x, function, ())
        if function in ("argmax", "argmin"):
            np.testing.assert_array_equal(got, np.zeros(x.shape, np.int64))
            continue
        with np.errstate(over="ignore"):  # float16's 65504² is +inf
            want = one_element(function, x.astype(np.float64)).astype(dtype)
        assert got.dtype == x.dtype and got.shape == x.shape
        # Vulkan's sqrt and log need not round exactly (log: 2^-21 absolute near 1).
        exact = ~np.isin(function, ["l2", "log_sum"]) | ~np.isfinite(want) | ((want == 0) & (x == 0))
        np.testing.assert_array_equal(got[exact], want[exact], err_msg=function)
        signed = exact & ~np.isnan(want)  # a NaN's sign is unspecified (SPEC §3 "NaN payloads")
        np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(want[signed]), err_msg=function)
        eps = 4 * np.finfo(dtype).eps
        np.testing.assert_allclose(got[~exact], want[~exact], rtol=eps, atol=eps, err_msg=function)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_axes_none_applies_each_function_to_its_element_integers(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, 0, 1, 3 if info.min == 0 else -3, 16], dtype=dtype)
    for function in ("sum", "multiply", "max", "min", "l1", "sum_square"):
        with np.errstate(over="ignore"):
            want = np.abs(x) if function == "l1" else (x * x if function == "sum_square" else x)
        np.testing.assert_array_equal(dml.reduce(x, function, ()), want, err_msg=function)


# ---- numpy's nan-functions -------------------------------------------------------------------------

def nan_data(dtype, seed):
    """(4, 5, 6) with NaN first, inside, last, and whole rows of NaN along each axis, ±inf and ±0."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=(4, 5, 6)).astype(dtype)
    x[rng.random(x.shape) < 0.3] = np.nan
    x[rng.random(x.shape) < 0.05] = np.inf
    x[rng.random(x.shape) < 0.05] = -np.inf
    x[0, :, 0] = np.nan
    x[1, 0, :] = np.nan
    x[:, 2, 3] = np.nan
    x[2, 3, 0] = -0.0
    return x


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
def test_nanmax_nanmin_match_numpy(dtype, name):
    mine, theirs = getattr(vkdml, name), getattr(np, name)
    clean = nan_data(dtype, 1)
    clean[np.isnan(clean)] = 7  # no NaN-only slice: no warning
    for x in (nan_data(dtype, 1), clean):
        for axis in (None, 0, 1, 2, (0, 2), -1):
            for keepdims in (False, True):
                with warnings.catch_warnings(record=True) as mine_warned:
                    warnings.simplefilter("always")
                    got = mine(x, axis=axis, keepdims=keepdims)
                with warnings.catch_warnings(record=True) as numpy_warned:
                    warnings.simplefilter("always")
                    want = theirs(x, axis=axis, keepdims=keepdims)
                assert np.shape(got) == np.shape(want) and np.asarray(got).dtype == want.dtype
                np.testing.assert_array_equal(got, want)
                assert [str(w.message) for w in mine_warned] == [str(w.message) for w in numpy_warned]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanargmax_nanargmin_match_numpy(dtype, name):
    mine, theirs = getattr(vkdml, name), getattr(np, name)
    x = nan_data(dtype, 2)
    np.testing.assert_array_equal(mine(x), theirs(x))
    np.testing.assert_array_equal(mine(x, keepdims=True), theirs(x, keepdims=True))
    # Each axis has a slice of NaN only: numpy raises there, and so does vkdml.
    for axis in (0, 1, 2, -1):
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            theirs(x, axis=axis)
        with pytest.raises(ValueError, match="All-NaN slice encountered") as e:
            mine(x, axis=axis)
        assert isinstance(e.value, vkdml.InvalidArgument)
    clean = np.where(np.isnan(x), np.asarray(-5, dtype), x)
    clean[1, 0, 2] = np.nan
    for axis in (0, 1, 2, -1):
        for keepdims in (False, True):
            np.testing.assert_array_equal(mine(clean, axis=axis, keepdims=keepdims),
                                          theirs(clean, axis=axis, keepdims=keepdims))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        mine(np.full(3, np.nan, dtype=dtype))


def test_nan_functions_on_integers_and_scalars():
    x = np.array([[3, -1, 7], [7, 2, -8]], dtype=np.int16)
    assert vkdml.nanmax(x) == np.nanmax(x) and vkdml.nanmin(x, axis=1).tolist() == [-1, -8]
    assert vkdml.nanargmax(x) == 2 and vkdml.nanargmin(x, axis=0).tolist() == [0, 0, 1]
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        assert math.isnan(vkdml.nanmax(np.float32([np.nan, np.nan])))


def test_the_operator_table_names_a_function_here_for_every_operator():
    # vkdml::operators(), the library's operator table: each row's function exists and is exported.
    assert list(dml.OPERATORS) == ["CUMULATIVE_SUMMATION", "CUMULATIVE_PRODUCT", "CUMULATIVE_MAXIMUM",
                                   "CUMULATIVE_MINIMUM", "LOG_CUMULATIVE_SUM_EXP", "REDUCE", "ARGMIN", "ARGMAX"]
    assert dml.OPERATORS["LOG_CUMULATIVE_SUM_EXP"] == ("log_cumulative_sum_exp", 1002)
    assert dml.OPERATORS["CUMULATIVE_MAXIMUM"] == ("cumulative_maximum", 1000)
    assert dml.OPERATORS["ARGMAX"] == ("argmax", 138)
    assert dml.OPERATORS["CUMULATIVE_PRODUCT"] == ("cumulative_product", 145)
    for python, _ in dml.OPERATORS.values():
        assert callable(getattr(dml, python))
        assert python in dml.__all__


def test_nan_ignore_reads_nan_as_the_identity_in_sums_products_and_scans():
    x = np.array([[1, np.nan, 3, np.inf], [np.nan, np.nan, np.nan, np.nan]], np.float32)
    np.testing.assert_array_equal(dml.reduce(x, 'sum', 1, nan='ignore'), [[np.inf], [0]])
    np.testing.assert_array_equal(dml.reduce(x[:, :3], 'multiply', 1, nan='ignore'), [[3], [1]])
    np.testing.assert_array_equal(dml.reduce(x[:, :3], 'l1', 1, nan='ignore'), [[4], [0]])
    np.testing.assert_array_equal(dml.reduce(x[:, :3], 'log_sum_exp', 1, nan='ignore')[1], [-np.inf])
    np.testing.assert_array_equal(dml.cumulative_sum(x, 1, nan='ignore'), [[1, 1, 4, np.inf], [0, 0, 0, 0]])
    np.testing.assert_array_equal(dml.cumulative_product(x[:, :3], 1, exclusive=True, nan='ignore'),
                                  [[1, 1, 1], [1, 1, 1]])
    np.testing.assert_array_equal(dml.cumulative_sum(x, 1, reverse=True, nan='ignore'), np.nancumsum(x[:, ::-1], 1)[:, ::-1])
    ints = np.array([3, -1, 2], np.int16)
    np.testing.assert_array_equal(dml.cumulative_sum(ints, 0, nan='ignore'), dml.cumulative_sum(ints, 0))
    with pytest.raises(vkdml.InvalidArgument, match="nan 'skip' is not one of propagate, ignore"):
        dml.cumulative_product(x, 0, nan='skip')
