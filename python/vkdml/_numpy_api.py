"""The numpy-named functions: numpy's signatures and semantics (promotion, axis=None, dtype=, out=,
keepdims, bools, byte-swapped input) over DirectML's operators (dml.py)."""

import collections as _collections
import warnings as _warnings

import numpy as _np

from ._array import Array, asarray
from ._arguments import (accumulator_dtype, as_array, axis_index, axis_set, cast_input, direct_out, like, on_host,
                         store, vkdml_dtype)
from ._docs import numpy_doc
from ._errors import invalid
from .dml import REDUCE_FUNCTIONS, VKDML_REDUCE_FUNCTIONS, reduced, reduced_shape, scanned, selected_with_indices

_INTP = _np.dtype(_np.intp)


class _NoValue:
    """The default of `initial` (numpy's own sentinel, shown as numpy shows it): no initial value."""

    def __repr__(self):
        return "<no value>"


_NO_VALUE = _NoValue()


def _with_out(computed, out):
    """numpy's loop for a given `out` and no dtype: out's type where the default one casts to it safely
    (float32 data summed into a float64 out is summed in float64), else the default (then cast)."""
    if isinstance(out, (_np.ndarray, Array)) and out.dtype.kind in "fiu" and _np.can_cast(computed, out.dtype,
                                                                                          "safe"):
        return out.dtype.newbyteorder("=")
    return computed


def _nan_as(arr, computed, identity, nan_ignore):
    """`arr` with its NaNs as `identity` where a cast to an integer `computed` type would lose them (numpy's
    nan functions replace them first); the device reads them so itself otherwise."""
    if nan_ignore and arr.dtype.kind == "f" and computed.kind != "f":
        arr = on_host(arr)
        return _np.where(_np.isnan(arr), arr.dtype.type(identity), arr)
    return arr


def _scan(a, axis, dtype, out, product, device, name, nan_ignore=False):
    arr = as_array(a, allow_bool=True)
    if axis is None:  # numpy: the flattened array, in C order
        arr, ax = arr.reshape(-1), 0
    else:
        arr = arr.reshape(1) if arr.ndim == 0 else arr
        ax = axis_index(axis, arr.ndim)
    computed = _with_out(accumulator_dtype(arr.dtype), out) if dtype is None else vkdml_dtype(dtype)
    arr = cast_input(_nan_as(arr, computed, 1 if product else 0, nan_ignore), computed)
    result = scanned(arr, ax, product, device=device, out=direct_out(out, computed, arr.shape), nan=nan_ignore)
    return like(store(result, out, name), a, out)


def _zero_d_axis(arr, axis):
    """numpy's reductions (but mean, var and std) take axis 0 or -1 of a 0-d array as no axis (not in a
    tuple)."""
    if arr.ndim == 0 and axis is not None and not isinstance(axis, tuple):
        axis_index(axis, 1)
        return ()
    return axis


def _drop_axes(result, shape, axes, keepdims):
    if keepdims:
        return result
    return result.reshape(tuple(n for i, n in enumerate(shape) if i not in axes))


def _with_initial(result, initial, function, nan_ignore):
    """numpy's `initial=`: the reduction's result combined with `initial`, cast to the result's type
    (numpy's rule 'unsafe'), on the host: added, multiplied, or the larger (smaller) of the two; nanmax and
    nanmin leave a NaN out (a slice of NaN only gives `initial`)."""
    host = _np.asarray(on_host(result))
    init = _np.asarray(initial).astype(host.dtype)
    combine = {"sum": _np.add, "multiply": _np.multiply,
               "max": _np.fmax if nan_ignore else _np.maximum,
               "min": _np.fmin if nan_ignore else _np.minimum}[function]
    with _np.errstate(over="ignore", invalid="ignore"):
        return _np.asarray(combine(init, host), host.dtype)


def _reduction(a, axis, dtype, out, keepdims, function, device, name, nan_ignore=False, initial=_NO_VALUE):
    arr = as_array(a, allow_bool=True)
    is_bool = arr.dtype == _np.bool_
    if dtype is not None:
        computed = vkdml_dtype(dtype)
    elif function in ("sum", "multiply"):
        computed = _with_out(accumulator_dtype(arr.dtype), out)
    elif function in ("average", "log_sum_exp"):
        computed = _with_out(arr.dtype if arr.dtype.kind == "f" else _np.dtype(_np.float64), out)
    else:  # max and min keep the type; booleans are compared as 0 and 1
        computed = _np.dtype(_np.uint8) if is_bool else arr.dtype
    if function == "average" and not nan_ignore and arr.ndim == 0 and axis is not None:
        axis_set(axis, 0, tuple)  # numpy's mean takes no axis of a 0-d array (but an empty tuple; nanmean does)
    if function == "average" and not nan_ignore and arr.size == 0:
        # numpy's mean warns where a slice is empty (the reduced count is 0), even for an empty result
        if 0 in [arr.shape[d] for d in axis_set(axis, arr.ndim, tuple)]:
            _warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
    if function == "average" and (computed.kind in "iu" or out is not None):
        # numpy's mean in an integer type, or into `out`: the sum in that type, written to a new array of
        # it (or to out), then divided there, truncated back to its type.
        total = _np.asarray(on_host(_reduction(arr, axis, computed, None, keepdims, "sum", device, name)))
        count = arr.size // total.size if arr.size else 0
        target = store(total, out, name) if out is not None else total
        view = on_host(target)  # an Array out: its memory, divided in place
        with _np.errstate(divide="ignore", invalid="ignore"):
            _np.true_divide(view, count, out=view, casting="unsafe")
        return out if out is not None else like(store(target, None, name), a, out)
    arr = cast_input(_nan_as(arr, computed, 1 if function == "multiply" else 0, nan_ignore), computed)
    axis = _zero_d_axis(arr, axis) if function != "average" or nan_ignore else axis
    axes = axis_set(axis, arr.ndim, tuple)
    out_shape = reduced_shape(arr.shape, axes)
    has_initial = initial is not _NO_VALUE and initial is not None  # numpy: None is no initial
    # numpy refuses a maximum over an axis of 0 even where the result has no element, (0, 0) over 0; and a
    # sum or product too where initial=None takes its identity away
    no_identity = function in ("max", "min") and not has_initial or function in ("sum", "multiply") and (
        initial is None)
    # (`0 in ...`, not any(): this module's any is numpy's)
    if arr.size == 0 and no_identity and 0 in [arr.shape[d] for d in axes]:
        raise invalid(f"{name}: zero-size array to a reduction operation {name} which has no identity")
    if arr.size == 0 and _np.prod(out_shape, dtype=_np.int64) != 0:
        identity = {"sum": 0, "multiply": 1, "average": _np.nan, "log_sum_exp": -_np.inf}.get(function)
        if identity is None:  # max, min: initial is the result of an empty slice (a bool's as numpy casts)
            identity = _np.asarray(initial).astype(_np.bool_ if is_bool else computed)
        if function == "average" and nan_ignore:
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        result = _np.full(out_shape, identity, computed)
    else:
        final = out_shape if keepdims else tuple(n for i, n in enumerate(arr.shape) if i not in axes)
        # numpy's all-NaN rule for nanmax and nanmin runs on the host, and so does `initial`
        host_after = (nan_ignore and computed.kind == "f" and function in ("max", "min")) or has_initial
        result = reduced(arr, REDUCE_FUNCTIONS.index(function), axes, computed, nan=nan_ignore, device=device,
                         out=None if host_after else direct_out(out, computed, final, arr))
    if nan_ignore and computed.kind == "f" and function in ("max", "min") and result.size and not has_initial:
        arr, result = on_host(arr), on_host(result)
        # numpy: a slice of NaN only is NaN, with a warning (NanMode::ignore gives -inf or +inf there).
        extreme = -_np.inf if function == "max" else _np.inf
        if _np.any(result == extreme):
            all_nan = _np.isnan(arr).all(axis=axes, keepdims=True)
            if _np.any(all_nan):
                _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
                result = _np.where(all_nan, _np.array(_np.nan, computed), result)
    if is_bool and function in ("max", "min"):
        result = result.astype(_np.bool_)
    if has_initial:
        result = _with_initial(result, initial, function, nan_ignore)
    return like(store(_drop_axes(result, arr.shape, axes, keepdims), out, name), a, out)


def _arg(a, axis, out, keepdims, code, name, nan_ignore=False, device=None):
    arr = as_array(a, allow_bool=True)
    if arr.dtype == _np.bool_:
        arr = arr.astype(_np.uint8)
    if axis is None:  # numpy: the index into the flattened array (row-major over every axis)
        if arr.size == 0:
            raise invalid(f"attempt to get {name} of an empty sequence")
        result = reduced(arr, code, tuple(range(arr.ndim)), _INTP, nan=nan_ignore, device=device)
        result = result.reshape((1,) * arr.ndim if keepdims else ())
        return like(store(result, out, name, indices=True), a, out), arr, None
    zero_d = arr.ndim == 0
    arr = arr.reshape(1) if zero_d else arr
    ax = axis_index(axis, arr.ndim)
    if arr.shape[ax] == 0:
        raise invalid(f"attempt to get {name} of an empty sequence")
    result = _drop_axes(reduced(arr, code, (ax,), _INTP, nan=nan_ignore, device=device), arr.shape, (ax,),
                        keepdims)
    return like(store(result.reshape(()) if zero_d else result, out, name, indices=True), a, out), arr, ax


def _nanarg(a, axis, out, keepdims, code, name, device):
    result, arr, ax = _arg(a, axis, None, True, code, name, True, device)
    result, arr = on_host(result), on_host(arr)
    if arr.dtype.kind == "f":
        values = arr.reshape(-1) if ax is None else arr
        at = 0 if ax is None else ax
        index = result.reshape(1) if ax is None or result.ndim == 0 else result  # kept dims: 1 at `at`
        picked = _np.take_along_axis(values, index, at)
        # NaN is picked only where a slice holds nothing else (index 0 then): numpy raises there.
        if _np.any(_np.isnan(picked)):
            raise invalid("All-NaN slice encountered")
        # numpy reads NaN as -inf (nanargmax) or +inf (nanargmin): where the extreme won, the first
        # NaN or extreme element is numpy's answer.
        extreme = -_np.inf if code == -1 else _np.inf
        if _np.any(picked == extreme):
            first = _np.argmax(_np.isnan(values) | (values == extreme), axis=at, keepdims=True)
            index = _np.where(picked == extreme, first, index)
            result = index.reshape(result.shape)
    if not keepdims:
        result = result.reshape(()) if ax is None or result.ndim == 0 else _np.squeeze(result, axis=ax)
    return like(store(result, out, name, indices=True), a, out)


@numpy_doc(
    "numpy.cumsum: the cumulative sum of the elements along an axis.",
    [("a : array_like",
      "Input array: bool or one of vkdml's 11 types; byte-swapped data is read as numpy reads it."),
     "axis_scan",
     ("dtype : dtype, optional",
      "The type of the result and of the sums. Default: `a`'s type, except that booleans and integers "
      "narrower than the platform integer widen to it (int64 or uint64), as numpy does."),
     ("out : ndarray, optional",
      "Where to write the result (its shape; the sums are cast to its type, as numpy casts)."),
     "device"],
    ("numpy.ndarray",
     "The running sums (`out` if given). Float sums are compensated: as if computed in twice the "
     "precision, then rounded once."),
    """
>>> vkdml.cumsum(np.array([[1, 2], [3, 4]], np.int32))
array([ 1,  3,  6, 10])
>>> vkdml.cumsum(np.array([[1, 2], [3, 4]], np.int32), 0)
array([[1, 2],
       [4, 6]])
""")
def cumsum(a, axis=None, dtype=None, out=None, *, device=None):
    return _scan(a, axis, dtype, out, False, device, "cumsum")


@numpy_doc(
    "numpy.cumprod: the cumulative product of the elements along an axis.",
    ["a",
     "axis_scan",
     ("dtype : dtype, optional",
      "The type of the result and of the products; default as in cumsum (small integers widen)."),
     ("out : ndarray, optional",
      "Where to write the result."),
     "device"],
    ("numpy.ndarray",
     "The running products (`out` if given); float products are compensated."),
    """
>>> vkdml.cumprod(np.array([1., 2., 3.], np.float32))
array([1., 2., 6.], dtype=float32)
""")
def cumprod(a, axis=None, dtype=None, out=None, *, device=None):
    return _scan(a, axis, dtype, out, True, device, "cumprod")


@numpy_doc(
    "numpy.sum: the sum of the elements over the given axes.",
    ["a",
     ("axis : None or int or tuple of ints, optional",
      "The axes summed over; None (default) sums every element."),
     ("dtype : dtype, optional",
      "The type of the result and of the sum; default as numpy's (small integers widen to int64 or uint64, "
      "booleans to int64, floats keep their type)."),
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The sums (a scalar when every axis is reduced without keepdims; `out` if given). Float sums are "
     "compensated; integers wrap in `dtype`."),
    """
>>> vkdml.sum(np.array([[1, 2], [3, 4]], np.int8), axis=1)
array([3, 7])
""")
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, *,  # noqa: A001 (numpy's name)
        device=None):
    return _reduction(a, axis, dtype, out, keepdims, "sum", device, "sum", initial=initial)


@numpy_doc(
    "numpy.prod: the product of the elements over the given axes.",
    ["a",
     ("axis : None or int or tuple of ints, optional",
      "The axes multiplied over; None (default) multiplies every element."),
     ("dtype : dtype, optional",
      "The type of the result and of the product; default as in sum."),
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The products (`out` if given); an empty product is 1."),
    """
>>> vkdml.prod(np.array([[1, 2], [3, 4]], np.uint8), axis=0)
array([3, 8], dtype=uint64)
""")
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):
    return _reduction(a, axis, dtype, out, keepdims, "multiply", device, "prod", initial=initial)


@numpy_doc(
    "numpy.mean: the arithmetic mean over the given axes.",
    ["a",
     ("axis : None or int or tuple of ints, optional",
      "The axes averaged over; None (default) averages every element."),
     ("dtype : dtype, optional",
      "The type of the result and of the computation; default float64 for booleans and integers, else "
      "`a`'s type."),
     "out",
     "keepdims",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The means (`out` if given); an empty slice gives NaN with a RuntimeWarning, as in numpy."),
    """
>>> vkdml.mean(np.array([1, 2, 3, 4], np.int32))
2.5
""")
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, device=None):
    return _reduction(a, axis, dtype, out, keepdims, "average", device, "mean")


@numpy_doc(
    "numpy.max: the largest element over the given axes.",
    ["a",
     "axes_reduced",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The maxima, in `a`'s type; NaN where a slice holds a NaN (see nanmax). An empty slice raises "
     "ValueError, as in numpy. Of -0 and +0, +0 (IEEE 754-2019's maximum; numpy keeps the first)."),
    """
>>> vkdml.max(np.array([[1, 5], [7, 2]], np.int16), axis=0)
array([7, 5], dtype=int16)
""")
def max(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):  # noqa: A001 (numpy's)
    return _reduction(a, axis, None, out, keepdims, "max", device, "max", initial=initial)


@numpy_doc(
    "numpy.min: the smallest element over the given axes.",
    ["a",
     "axes_reduced",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The minima, in `a`'s type; NaN where a slice holds a NaN (see nanmin). Of -0 and +0, -0 (IEEE "
     "754-2019's minimum; numpy keeps the first)."),
    """
>>> vkdml.min(np.array([[1, 5], [7, 2]], np.int16), axis=1)
array([1, 2], dtype=int16)
""")
def min(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):  # noqa: A001 (numpy's)
    return _reduction(a, axis, None, out, keepdims, "min", device, "min", initial=initial)


#: numpy's other name of max (numpy.amax), the same function.
amax = max
#: numpy's other name of min (numpy.amin), the same function.
amin = min


@numpy_doc(
    "numpy.ptp: the range of values (maximum minus minimum) over the given axes.",
    ["a",
     "axes_reduced",
     "out",
     "keepdims",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "max - min, in `a`'s type (integers wrap, as in numpy); NaN where a slice holds a NaN. Booleans "
     "raise TypeError and an empty slice ValueError, as in numpy. The maximum and the minimum are two "
     "reductions on the device; their difference is numpy's."),
    """
>>> vkdml.ptp(np.array([[1, 5], [7, 2]], np.int16), axis=0)
array([6, 3], dtype=int16)
""")
def ptp(a, axis=None, out=None, keepdims=False, *, device=None):
    high = _reduction(a, axis, None, None, keepdims, "max", device, "ptp")
    low = _reduction(a, axis, None, None, keepdims, "min", device, "ptp")
    high, low = _np.asarray(on_host(high)), _np.asarray(on_host(low))
    if isinstance(out, (_np.ndarray, Array)):  # numpy: the maximum in out's type, then out's subtraction
        high = high.astype(out.dtype)
    with _np.errstate(over="ignore"):
        result = _np.subtract(high, low) if out is None else _np.subtract(high, low, out=_np.empty_like(high))
    return like(store(_np.asarray(result), out, "ptp"), a, out)


@numpy_doc(
    "scipy.special.logsumexp: ln(sum(exp(a))) over the given axes, without overflow.",
    [("a : array_like",
      "Input array: bool or one of vkdml's 11 types (booleans and integers as float64)."),
     ("axis : None or int or tuple of ints, optional",
      "The axes; None (default) every element."),
     "keepdims",
     "out",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The results (`out` if given); an empty slice gives -inf."),
    """
>>> float(vkdml.logsumexp(np.array([1000., 1000.], np.float32)))
1000.6931762695312
""")
def logsumexp(a, axis=None, *, keepdims=False, out=None, device=None):
    return _reduction(a, axis, None, out, keepdims, "log_sum_exp", device, "logsumexp")


@numpy_doc(
    "numpy.argmax: the index of the largest element (the first of ties; NaN counts as largest).",
    ["a",
     "axis_arg",
     "out",
     "keepdims_arg",
     "device"],
    ("numpy.ndarray of intp, or an intp scalar",
     "The indices (`out` if given). For DirectML's ARGMAX (axes tuples, the rank kept, index types, the "
     "last of ties) use vkdml.dml.argmax."),
    """
>>> vkdml.argmax(np.ones((2, 3, 4)), 1).shape
(2, 4)
""")
def argmax(a, axis=None, out=None, *, keepdims=False, device=None):
    return _arg(a, axis, out, keepdims, -1, "argmax", device=device)[0]


@numpy_doc(
    "numpy.argmin: the index of the smallest element (the first of ties; NaN counts as smallest).",
    ["a",
     "axis_arg",
     "out",
     "keepdims_arg",
     "device"],
    ("numpy.ndarray of intp, or an intp scalar",
     "The indices (`out` if given); see vkdml.dml.argmin for DirectML's ARGMIN."),
    """
>>> vkdml.argmin(np.array([[3, 1], [0, 2]], np.int8), axis=1)
array([1, 0])
""")
def argmin(a, axis=None, out=None, *, keepdims=False, device=None):
    return _arg(a, axis, out, keepdims, -2, "argmin", device=device)[0]


@numpy_doc(
    "numpy.nanmax: the largest element over the given axes, NaN left out.",
    ["a",
     "axes_reduced",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The maxima (vkdml's NanMode::ignore). A slice of NaN only gives NaN with a RuntimeWarning, as in "
     "numpy (DirectML, and dml.reduce(..., nan='ignore'), give -inf there). Of -0 and +0, +0."),
    """
>>> vkdml.nanmax(np.array([1., np.nan, 3.], np.float32))
3.0
""")
def nanmax(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):
    return _reduction(a, axis, None, out, keepdims, "max", device, "nanmax", nan_ignore=True, initial=initial)


@numpy_doc(
    "numpy.nanmin: the smallest element over the given axes, NaN left out.",
    ["a",
     "axes_reduced",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The minima; a slice of NaN only gives NaN with a RuntimeWarning (DirectML: +inf). Of -0 and +0, -0."),
    """
>>> vkdml.nanmin(np.array([1., np.nan, 3.], np.float32))
1.0
""")
def nanmin(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):
    return _reduction(a, axis, None, out, keepdims, "min", device, "nanmin", nan_ignore=True, initial=initial)


@numpy_doc(
    "numpy.nansum: the sum over the given axes, NaN counted as zero.",
    ["a",
     "axes_folded",
     "dtype_fold",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The sums, as `sum` gives them (integers as they are: they hold no NaN); a slice of NaN only gives "
     "0. NaN elements are read as 0 on the device (NanMode::ignore)."),
    """
>>> vkdml.nansum(np.array([1, np.nan, 3], np.float32))
4.0
""")
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):
    return _reduction(a, axis, dtype, out, keepdims, "sum", device, "nansum", nan_ignore=True, initial=initial)


@numpy_doc(
    "numpy.nanprod: the product over the given axes, NaN counted as one.",
    ["a",
     "axes_folded",
     "dtype_fold",
     "out",
     "keepdims",
     "initial",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The products, as `prod` gives them; a slice of NaN only gives 1. NaN elements are read as 1 on the "
     "device (NanMode::ignore)."),
    """
>>> vkdml.nanprod(np.array([2, np.nan, 3], np.float64))
6.0
""")
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, *, device=None):
    return _reduction(a, axis, dtype, out, keepdims, "multiply", device, "nanprod", nan_ignore=True, initial=initial)


@numpy_doc(
    "numpy.nanmean: the mean over the given axes of the elements that are not NaN.",
    ["a",
     ("axis : None or int or tuple of ints, optional",
      "The axes averaged over; None (default) every element."),
     ("dtype : dtype, optional",
      "The type of the result and of the sum; a float type for float input (TypeError otherwise, as in "
      "numpy). Default: `a`'s type for floats, float64 for integers and booleans."),
     "out",
     "keepdims",
     "device"],
    ("numpy.ndarray or numpy scalar",
     "The sum of the numbers divided by their count, rounded once (REDUCE AVERAGE with NanMode::ignore, "
     "which counts them on the device); a slice of NaN only gives NaN with a RuntimeWarning, as in numpy. "
     "Integer input is averaged as `mean` does."),
    """
>>> vkdml.nanmean(np.array([1, np.nan, 2], np.float32))
1.5
""")
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, device=None):
    arr = as_array(a, allow_bool=True)
    if arr.dtype.kind != "f":  # nothing to ignore: numpy's nanmean is its mean
        return _reduction(a, axis, dtype, out, keepdims, "average", device, "nanmean")
    if dtype is not None and vkdml_dtype(dtype).kind != "f":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and _np.dtype(out.dtype).kind != "f":
        raise TypeError("If a is inexact, then out must be inexact")
    if dtype is None and out is not None:  # numpy sums into out's type where a's casts to it safely
        dtype = _with_out(arr.dtype, out)
    result = _reduction(a, axis, dtype, None, keepdims, "average", device, "nanmean", nan_ignore=True)
    values = _np.asarray(on_host(result))
    if arr.size and values.size and _np.isnan(values).any():  # (an empty one: _reduction warned)
        host = _np.asarray(on_host(arr))
        axes = axis_set(axis, host.ndim, tuple) if host.ndim else ()
        if _np.isnan(host).all(axis=axes).any():
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    return store(result, out, "nanmean") if out is not None else result


@numpy_doc(
    "numpy.nancumsum: the running sum along an axis, NaN counted as zero.",
    ["a",
     "axis_scan",
     ("dtype : dtype, optional",
      "The type of the result and of the running values; default as in cumsum (small integers widen)."),
     "out",
     "device"],
    ("numpy.ndarray",
     "The running sums, as `cumsum` gives them; a NaN adds nothing (leading NaNs give 0)."),
    """
>>> vkdml.nancumsum(np.array([1, np.nan, 3], np.float32))
array([1., 1., 4.], dtype=float32)
""")
def nancumsum(a, axis=None, dtype=None, out=None, *, device=None):
    return _scan(a, axis, dtype, out, False, device, "nancumsum", nan_ignore=True)


@numpy_doc(
    "numpy.nancumprod: the running product along an axis, NaN counted as one.",
    ["a",
     "axis_scan",
     ("dtype : dtype, optional",
      "The type of the result and of the running values; default as in cumsum (small integers widen)."),
     "out",
     "device"],
    ("numpy.ndarray",
     "The running products, as `cumprod` gives them; a NaN multiplies by 1 (leading NaNs give 1)."),
    """
>>> vkdml.nancumprod(np.array([2, np.nan, 3], np.float64))
array([2., 2., 6.])
""")
def nancumprod(a, axis=None, dtype=None, out=None, *, device=None):
    return _scan(a, axis, dtype, out, True, device, "nancumprod", nan_ignore=True)


@numpy_doc(
    "numpy.nanargmax: the index of the largest element, NaN left out (the first of ties).",
    ["a",
     "axis_arg",
     "out",
     "keepdims_arg",
     "device"],
    ("numpy.ndarray of intp, or an intp scalar",
     "The indices. A slice of NaN only raises ValueError('All-NaN slice encountered'), as numpy does "
     "(vkdml.InvalidArgument; dml.argmax(..., nan='ignore') gives 0 there)."),
    """
>>> vkdml.nanargmax(np.array([np.nan, 2., 1.], np.float32))
1
""")
def nanargmax(a, axis=None, out=None, *, keepdims=False, device=None):
    return _nanarg(a, axis, out, keepdims, -1, "nanargmax", device)


@numpy_doc(
    "numpy.nanargmin: the index of the smallest element, NaN left out (the first of ties).",
    ["a",
     "axis_arg",
     "out",
     "keepdims_arg",
     "device"],
    ("numpy.ndarray of intp, or an intp scalar",
     "The indices; a slice of NaN only raises ValueError('All-NaN slice encountered')."),
    """
>>> vkdml.nanargmin(np.array([np.nan, 2., 1.], np.float32))
2
""")
def nanargmin(a, axis=None, out=None, *, keepdims=False, device=None):
    return _nanarg(a, axis, out, keepdims, -2, "nanargmin", device)


def _variance(a, axis, dtype, out, ddof, keepdims, device, name, deviation, nan_ignore=False):
    """numpy's var and std (nanvar, nanstd with nan_ignore) over REDUCE VARIANCE / STANDARD_DEVIATION: an
    integer ddof from 0 to 2**32 - 1 is the device's correction; another (negative, fractional) scales the
    population variance by N / (N - ddof) on the host."""
    arr = as_array(a, allow_bool=True)
    if dtype is not None:
        computed = vkdml_dtype(dtype)
        if computed.kind != "f":
            raise TypeError(f"{name}: dtype {computed} is not a float type (vkdml computes {name} in float16, "
                            "float32 or float64)")
    else:  # numpy: float input keeps its type, booleans and integers give float64
        computed = arr.dtype if arr.dtype.kind == "f" else _np.dtype(_np.float64)
    if isinstance(out, (_np.ndarray, Array)) and out.dtype.kind != "f":  # numpy's errors, in its order
        if nan_ignore and arr.dtype.kind == "f":
            raise TypeError("If a is inexact, then out must be inexact")
        if deviation:
            raise TypeError(f"{name}: cannot cast the square root's {computed} to out's {out.dtype} (numpy's "
                            "casting rule 'same_kind')")
    nan_ignore = nan_ignore and arr.dtype.kind == "f"
    if nan_ignore:  # (numpy's var and std take no axis of a 0-d array, nor nanvar's of integers, which is var)
        axis = _zero_d_axis(arr, axis)
    arr = cast_input(arr, computed)
    axes = axis_set(axis, arr.ndim, tuple)
    out_shape = reduced_shape(arr.shape, axes)
    whole = isinstance(ddof, (int, _np.integer)) and not isinstance(ddof, bool) and 0 <= ddof < 2**32
    if not whole and not isinstance(ddof, (int, float, _np.integer, _np.floating)):
        raise TypeError(f"{name}: ddof {ddof!r} is not a number")
    count_all = 1
    for i in axes:
        count_all *= arr.shape[i]
    if nan_ignore or arr.size == 0:
        host = _np.asarray(on_host(arr))
        counts = (~_np.isnan(host)).sum(axis=axes, keepdims=True) if nan_ignore else _np.full(out_shape, count_all)
    else:
        counts = _np.full((1,) * len(out_shape), count_all)
    if _np.any(counts - ddof <= 0) if nan_ignore else count_all - ddof <= 0:
        message = "Degrees of freedom <= 0 for slice." if nan_ignore else "Degrees of freedom <= 0 for slice"
        _warnings.warn(message, RuntimeWarning, stacklevel=3)
    code = VKDML_REDUCE_FUNCTIONS["standard_deviation" if deviation and whole else "variance"]
    if arr.size == 0:
        result = _np.full(out_shape, _np.nan, computed)
    else:
        final = out_shape if keepdims else tuple(n for i, n in enumerate(arr.shape) if i not in axes)
        result = reduced(arr, code, axes, computed, nan=nan_ignore, device=device,
                         out=direct_out(out, computed, final, arr) if whole else None,
                         correction=int(ddof) if whole else 0)
    if not whole:  # numpy's divisor max(N - ddof, 0), from the population variance
        host = _np.asarray(on_host(result)).astype(_np.float64)
        with _np.errstate(divide="ignore", invalid="ignore"):
            scaled = host * counts / _np.maximum(counts - ddof, 0)
            result = (_np.sqrt(scaled) if deviation else scaled).astype(computed)
    if nan_ignore and _np.any(counts - ddof <= 0):  # numpy's nanvar: NaN where N - ddof <= 0, not +inf
        host = _np.asarray(on_host(result))
        result = _np.where(counts - ddof <= 0, _np.array(_np.nan, computed), host).astype(computed)
    return like(store(_drop_axes(result, arr.shape, axes, keepdims), out, name), a, out)


_DDOF = ("ddof : int or float, optional",
         "The divisor is N - ddof (default 0: the population variance; 1: the sample variance). An integer "
         "from 0 to 2**32 - 1 runs on the device (OperatorOptions::correction); another scales the "
         "population variance on the host. N - ddof <= 0 gives +inf (NaN where the deviations are all 0) "
         "with numpy's RuntimeWarning.")
_DTYPE_VAR = ("dtype : dtype, optional",
              "The float type of the result and of the computation; default `a`'s type for floats, float64 "
              "for booleans and integers.")


@numpy_doc(
    "numpy.var: the variance over the given axes, Σ (x - mean)² / (N - ddof).",
    ["a", "axes_folded", _DTYPE_VAR, "out", _DDOF, "keepdims", "device"],
    ("numpy.ndarray or numpy scalar",
     "The variances (REDUCE VARIANCE, vkdml's function: shifted compensated sums, accurate on data whose "
     "mean is far from 0); NaN where a slice holds a NaN or an infinity; +inf where finite "
     "data's sums overflow, as in numpy."),
    """
>>> vkdml.var(np.array([1, 2, 3, 4], np.float32))
1.25
""")
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, device=None):
    return _variance(a, axis, dtype, out, ddof, keepdims, device, "var", False)


@numpy_doc(
    "numpy.std: the standard deviation over the given axes, the square root of var.",
    ["a", "axes_folded", _DTYPE_VAR, "out", _DDOF, "keepdims", "device"],
    ("numpy.ndarray or numpy scalar",
     "The standard deviations (REDUCE STANDARD_DEVIATION, vkdml's function), the square root correctly "
     "rounded."),
    """
>>> vkdml.std(np.array([2, 4, 4, 4, 5, 5, 7, 9], np.float64))
2.0
""")
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, device=None):
    return _variance(a, axis, dtype, out, ddof, keepdims, device, "std", True)


@numpy_doc(
    "numpy.nanvar: the variance over the given axes of the elements that are not NaN.",
    ["a", "axes_folded", _DTYPE_VAR, "out", _DDOF, "keepdims", "device"],
    ("numpy.ndarray or numpy scalar",
     "The variances of the numbers (NaN elements skipped on the device, NanMode::ignore); a slice with no "
     "more than ddof numbers gives NaN or +inf with numpy's RuntimeWarning."),
    """
>>> vkdml.nanvar(np.array([1, np.nan, 3], np.float32))
1.0
""")
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, device=None):
    return _variance(a, axis, dtype, out, ddof, keepdims, device, "nanvar", False, nan_ignore=True)


@numpy_doc(
    "numpy.nanstd: the standard deviation over the given axes of the elements that are not NaN.",
    ["a", "axes_folded", _DTYPE_VAR, "out", _DDOF, "keepdims", "device"],
    ("numpy.ndarray or numpy scalar",
     "The square roots of nanvar's variances, correctly rounded."),
    """
>>> vkdml.nanstd(np.array([1, np.nan, 3], np.float64))
1.0
""")
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, device=None):
    return _variance(a, axis, dtype, out, ddof, keepdims, device, "nanstd", True, nan_ignore=True)


def _logical(a, axis, out, keepdims, function, device, name):
    """numpy's any, all and count_nonzero over REDUCE ANY / ALL (UINT8 flags, read as bool) and
    COUNT_NONZERO (int64 counts)."""
    arr = as_array(a, allow_bool=True)
    if arr.dtype == _np.bool_:
        arr = arr.view(_np.uint8)
    counts = function == "count_nonzero"
    result_dtype = _np.dtype(_np.int64) if counts else _np.dtype(_np.uint8)
    axes = axis_set(_zero_d_axis(arr, axis), arr.ndim, tuple)
    out_shape = reduced_shape(arr.shape, axes)
    if arr.size == 0:  # an empty slice: any False, all True, a count of 0
        result = _np.full(out_shape, 1 if function == "all" else 0, result_dtype)
    else:
        result = reduced(arr, VKDML_REDUCE_FUNCTIONS[function], axes, result_dtype, device=device)
    result = _drop_axes(result, arr.shape, axes, keepdims)
    if isinstance(result, _np.ndarray) and not counts and not isinstance(a, Array):  # (an Array holds no bool)
        result = result.view(_np.bool_)
    if counts and axis is None and not keepdims:  # numpy: a Python int
        return int(_np.asarray(on_host(result))) if not isinstance(a, Array) else like(result, a, None)
    return like(store(result, out, name), a, out)


@numpy_doc(
    "numpy.any: whether any element over the given axes is not zero.",
    ["a", ("axis : None or int or tuple of ints, optional", "The axes tested; None (default) every element."),
     "out", "keepdims", "device"],
    ("numpy.ndarray or numpy.bool_",
     "True where some element is not 0 (a NaN is not 0; -0 is); an empty slice gives False. REDUCE ANY "
     "(vkdml's function) writes 0 or 1 as UINT8; a vkdml.Array input gives that uint8 Array."),
    """
>>> vkdml.any(np.array([[0, 0], [0, 3]], np.int16), axis=1)
array([False,  True])
""")
def any(a, axis=None, out=None, keepdims=False, *, device=None):  # noqa: A001 (numpy's name)
    return _logical(a, axis, out, keepdims, "any", device, "any")


@numpy_doc(
    "numpy.all: whether every element over the given axes is not zero.",
    ["a", ("axis : None or int or tuple of ints, optional", "The axes tested; None (default) every element."),
     "out", "keepdims", "device"],
    ("numpy.ndarray or numpy.bool_",
     "True where no element is 0 (a NaN is not 0; -0 is); an empty slice gives True. REDUCE ALL (vkdml's "
     "function) writes 0 or 1 as UINT8; a vkdml.Array input gives that uint8 Array."),
    """
>>> vkdml.all(np.array([[1, 0], [2, 3]], np.float32), axis=1)
array([False,  True])
""")
def all(a, axis=None, out=None, keepdims=False, *, device=None):  # noqa: A001 (numpy's name)
    return _logical(a, axis, out, keepdims, "all", device, "all")


@numpy_doc(
    "numpy.count_nonzero: the number of elements that are not zero over the given axes.",
    ["a", ("axis : None or int or tuple of ints, optional", "The axes counted; None (default) every element."),
     "keepdims", "device"],
    ("int or numpy.ndarray",
     "The counts (REDUCE COUNT_NONZERO, vkdml's function, as int64): a Python int for axis=None, as in "
     "numpy. A NaN is not 0; -0 is."),
    """
>>> vkdml.count_nonzero(np.array([[0, 1, 7], [0, 0, -2]], np.int8), axis=1)
array([2, 1])
""")
def count_nonzero(a, axis=None, *, keepdims=False, device=None):
    return _logical(a, axis, None, keepdims, "count_nonzero", device, "count_nonzero")


def _ufunc_axis(axis, ndim):
    """The axis of numpy's ufunc.accumulate: an integer, a tuple of one, or None for a 1-d array."""
    if axis is None or isinstance(axis, tuple):
        # (as numpy: each axis in range, then one of them; a repeated axis is several, not an error of its own)
        axes = tuple(range(ndim)) if axis is None else tuple(axis_index(a, ndim) for a in axis)
        if len(axes) != 1:
            raise invalid("accumulate does not allow multiple axes")
        return axes[0]
    return axis


def _accumulate(a, axis, dtype, out, combine, nan, device, name):
    """numpy's maximum.accumulate and minimum.accumulate (fmax and fmin with `nan`) over vkdml's
    CUMULATIVE_MAXIMUM (combine 2) and CUMULATIVE_MINIMUM (3): the type kept, bools as bools."""
    arr = as_array(a, allow_bool=True)
    if arr.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    is_bool = arr.dtype == _np.bool_
    computed = vkdml_dtype(dtype) if dtype is not None else (_np.dtype(_np.uint8) if is_bool else arr.dtype)
    arr = cast_input(arr.view(_np.uint8) if is_bool else arr, computed)
    ax = axis_index(_ufunc_axis(axis, arr.ndim), arr.ndim)
    if arr.size == 0:
        result = _np.empty(arr.shape, computed)
    else:
        result = scanned(arr, ax, combine, device=device, nan=nan,
                         out=None if is_bool else direct_out(out, computed, arr.shape))
    if is_bool and dtype is None and not isinstance(result, Array):
        result = _np.asarray(result).view(_np.bool_)
    if nan and computed.kind == "f" and arr.size:
        # numpy's fmax/fmin.accumulate: an output before the slice's first number is NaN (the device, with
        # NanMode::ignore, gives the identity there).
        host = _np.asarray(on_host(arr))
        leading = _np.logical_and.accumulate(_np.isnan(host), axis=ax)
        if leading.any():
            result = _np.where(leading, _np.array(_np.nan, computed), _np.asarray(on_host(result)))
    return like(store(result, out, name), a, out)


_ACCUMULATE_AXIS = ("axis : int, optional",
                    "The axis (default 0); as numpy's, a tuple of one axis, or None for a 1-d array (several "
                    "axes raise ValueError).")


def _accumulate_doc(name, which, nan):
    rule = ("NaN elements are left out on the device (NanMode::ignore), and the outputs before a slice's "
            "first number are NaN, as numpy's" if nan else
            "a NaN makes every later output NaN, as numpy's")
    return (f"numpy.{name}.accumulate: the running {which} along an axis.",
            ["a", _ACCUMULATE_AXIS,
             ("dtype : dtype, optional", "The type of the result and of the comparison (default `a`'s)."),
             "out", "device"],
            ("numpy.ndarray",
             f"The running {which}s, `a`'s shape and type (vkdml's CUMULATIVE_{which.upper()}, exact); "
             f"{rule} {name}.accumulate. A vkdml.Array of bool cannot exist: bools give bools from numpy "
             "input."))


@numpy_doc(*_accumulate_doc("maximum", "maximum", False), """
>>> vkdml.maximum_accumulate(np.array([3, 1, 4, 1, 5], np.int16))
array([3, 3, 4, 4, 5], dtype=int16)
""")
def maximum_accumulate(a, axis=0, dtype=None, out=None, *, device=None):
    return _accumulate(a, axis, dtype, out, 2, False, device, "maximum_accumulate")


@numpy_doc(*_accumulate_doc("minimum", "minimum", False), """
>>> vkdml.minimum_accumulate(np.array([[3., 1.], [2., 5.]], np.float32), axis=1)
array([[3., 1.],
       [2., 2.]], dtype=float32)
""")
def minimum_accumulate(a, axis=0, dtype=None, out=None, *, device=None):
    return _accumulate(a, axis, dtype, out, 3, False, device, "minimum_accumulate")


@numpy_doc(*_accumulate_doc("fmax", "maximum", True), """
>>> vkdml.fmax_accumulate(np.array([1., np.nan, 3.], np.float64))
array([1., 1., 3.])
""")
def fmax_accumulate(a, axis=0, dtype=None, out=None, *, device=None):
    return _accumulate(a, axis, dtype, out, 2, True, device, "fmax_accumulate")


@numpy_doc(*_accumulate_doc("fmin", "minimum", True), """
>>> vkdml.fmin_accumulate(np.array([np.nan, 2., 1.], np.float32))
array([nan,  2.,  1.], dtype=float32)
""")
def fmin_accumulate(a, axis=0, dtype=None, out=None, *, device=None):
    return _accumulate(a, axis, dtype, out, 3, True, device, "fmin_accumulate")


def _log_accumulate(a, axis, dtype, out, device, name, promote, scalar_ok=False, integer_out=False):
    """ln(sum(exp)) accumulated along `axis` over vkdml's LOG_CUMULATIVE_SUM_EXP (combine 4), in
    `dtype`, else in `out`'s float type where the one `promote` gives `a`'s dtype casts to it safely (as
    numpy's loops choose), else in that one; `integer_out`: an integer `out` asks for the type `promote`
    gives it, where wider (numpy's loop for its dtype). `scalar_ok`: a 0-d input is its own result
    (PyTorch's)."""
    arr = as_array(a, allow_bool=True)
    if arr.ndim == 0 and not scalar_ok:
        raise TypeError("cannot accumulate on a scalar")
    if dtype is not None:
        computed = vkdml_dtype(dtype)
        if computed.kind != "f":
            raise TypeError(f"{name}: dtype {computed} is not a float type (float16, float32 or float64)")
    else:
        computed = promote(arr.dtype)
        with_out = _with_out(computed, out)
        computed = with_out if with_out.kind == "f" else computed
        if integer_out and out is not None and _np.dtype(out.dtype).kind in "iu":
            computed = _np.promote_types(computed, promote(_np.dtype(out.dtype)))
    if arr.ndim == 0:
        result = _np.asarray(on_host(arr)).astype(computed)
        return like(store(result, out, name), a, out)
    arr = cast_input(arr, computed)
    ax = axis_index(axis, arr.ndim)
    if arr.size == 0:
        result = _np.empty(arr.shape, computed)
    else:
        result = scanned(arr, ax, 4, device=device, out=direct_out(out, computed, arr.shape))
    return like(store(result, out, name), a, out)


def _logaddexp_type(dtype):
    """numpy's logaddexp result type for `dtype` (bool and int8/uint8 float16, int16/uint16 float32, wider
    integers float64)."""
    return _np.dtype(_np.logaddexp(_np.zeros(1, dtype), _np.zeros(1, dtype)).dtype)


@numpy_doc(
    "numpy.logaddexp.accumulate: ln(exp(x0) + ... + exp(xk)) along an axis, without overflow.",
    ["a", _ACCUMULATE_AXIS,
     ("dtype : dtype, optional",
      "The float type of the result and the computation (default numpy's for logaddexp: bool and 8-bit "
      "integers float16, 16-bit float32, wider integers float64)."),
     "out", "device"],
    ("numpy.ndarray",
     "`a`'s shape (vkdml's LOG_CUMULATIVE_SUM_EXP: a running maximum and a scaled sum, within a few ulp of "
     "the exact result, where numpy's pairwise logaddexp rounds at every step). A NaN makes every later "
     "output NaN."),
    """
>>> vkdml.logaddexp_accumulate(np.array([0., 0., 0., 0.]))
array([0.        , 0.69314718, 1.09861229, 1.38629436])
""")
def logaddexp_accumulate(a, axis=0, dtype=None, out=None, *, device=None):
    if _np.ndim(a):  # (a 0-d input: the scalar's TypeError)
        axis = _ufunc_axis(axis, _np.ndim(a))
    return _log_accumulate(a, axis, dtype, out, device, "logaddexp_accumulate", _logaddexp_type, integer_out=True)


@numpy_doc(
    "torch.logcumsumexp: the log of the cumulative sum of exp along `dim`, without overflow.",
    [("a : array_like",
      "Input array: bool or one of vkdml's 11 types (booleans and integers as float64, which PyTorch "
      "refuses)."),
     ("dim : int", "The dimension (negative counts from the end)."),
     "out", "device"],
    ("numpy.ndarray",
     "`a`'s shape and float type (vkdml's LOG_CUMULATIVE_SUM_EXP). NaN propagates to every later output, "
     "as in PyTorch; -inf elements add nothing; a +inf element makes every later output +inf."),
    """
>>> vkdml.logcumsumexp(np.array([[1., 2.], [3., 4.]], np.float32), 1)
array([[1.       , 2.3132617],
       [3.       , 4.3132615]], dtype=float32)
""")
def logcumsumexp(a, dim, *, out=None, device=None):
    if _np.ndim(a) == 0:
        axis_index(dim, 1)  # (PyTorch takes dim 0 or -1 for a 0-d input)
    return _log_accumulate(a, dim, None, out, device, "logcumsumexp",
                           lambda dt: dt if dt.kind == "f" else _np.dtype(_np.float64), scalar_ok=True)


def _torch_selection(a, dim, combine, device, name):
    """PyTorch's cummax (combine 2) and cummin (3): vkdml's CUMULATIVE_MAXIMUM (MINIMUM) with its int64 index
    output (the last of ties, the last NaN: PyTorch's index)."""
    arr = as_array(a, allow_bool=True)
    scalar = arr.ndim == 0
    if scalar:
        arr = arr.reshape(1)
    ax = axis_index(dim, arr.ndim)
    is_bool = arr.dtype == _np.bool_
    source = arr.view(_np.uint8) if is_bool else arr
    values, indices = selected_with_indices(source, ax, combine, device=device)
    if is_bool and not isinstance(values, Array):
        values = _np.asarray(values).view(_np.bool_)
    if scalar:
        values, indices = values.reshape(()), indices.reshape(())
    return _RESULT_TYPES[name](like(values, a, None), like(indices, a, None))


_RESULT_TYPES = {name: _collections.namedtuple(name, ["values", "indices"]) for name in ("cummax", "cummin")}


def _torch_selection_doc(which, torch_name):
    return (f"torch.{torch_name}: the running {which} along `dim` and the index of the element it comes from.",
            [("a : array_like", "Input array: bool or one of vkdml's 11 types."),
             ("dim : int", "The dimension (negative counts from the end)."),
             "device"],
            (f"({torch_name}.values, {torch_name}.indices): numpy.ndarray (or vkdml.Array) pair",
             f"`values`: the running {which}s, `a`'s shape and type (vkdml's CUMULATIVE_{which.upper()}, exact; "
             "a NaN makes every later value NaN). `indices`: int64, the position along `dim` of the element "
             "each value comes from: of equal elements the last, and after a NaN the last NaN, as PyTorch's "
             "kernels choose. Of -0 and +0 the value is IEEE 754's (+0 for the maximum, -0 for the minimum), "
             "where PyTorch keeps the later zero; the index is the later one in both."))


@numpy_doc(*_torch_selection_doc("maximum", "cummax"), """
>>> vkdml.cummax(np.array([1, 3, 2, 3, 0], np.int32), 0)
cummax(values=array([1, 3, 3, 3, 3], dtype=int32), indices=array([0, 1, 1, 3, 3]))
""")
def cummax(a, dim, *, device=None):
    return _torch_selection(a, dim, 2, device, "cummax")


@numpy_doc(*_torch_selection_doc("minimum", "cummin"), """
>>> vkdml.cummin(np.array([2., 1., 1., np.nan, 0.], np.float32), 0)
cummin(values=array([ 2.,  1.,  1., nan, nan], dtype=float32), indices=array([0, 1, 2, 3, 3]))
""")
def cummin(a, dim, *, device=None):
    return _torch_selection(a, dim, 3, device, "cummin")
