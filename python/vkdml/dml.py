"""DirectML's semantics: the operators as DML_OPERATOR_* define them.

These functions are the descriptors of docs/SPEC.md in Python: the result keeps the input's type
(integers wrap modulo 2^bits), a reduction keeps the input's rank (size 1 on the reduced axes), axes
come as DirectML's `Axes`, and the arg functions take DirectML's output index type and axis
direction. For numpy's conventions (widening, removed axes, `dtype=`, `out=`), use the functions of
the same names in `vkdml` itself.

    >>> import numpy as np
    >>> from vkdml import dml
    >>> dml.cumulative_sum(np.array([127, 1], np.int8), 0)
    array([ 127, -128], dtype=int8)
    >>> dml.reduce(np.array([[1., 2.], [3., 4.]], np.float32), "sum", axes=(1,))
    array([[3.],
           [7.]], dtype=float32)
"""

import numpy as _np

from ._array import Array, asarray
from ._arguments import as_array, axis_index, axis_set, vkdml_dtype
from ._devices import as_device, native_device_call, run
from ._docs import numpy_doc
from ._errors import OutOfMemory, UnsupportedType, _native, invalid

OPERATORS = {name: (python, value) for name, value, python in _native.operators}
"""The operator table (vkdml::operators()): each DirectML operator name, its function here and its
DML_OPERATOR_TYPE value."""

__all__ = [python for python, _ in OPERATORS.values()] + ["OPERATORS", "REDUCE_FUNCTIONS", "VKDML_REDUCE_FUNCTIONS",
                                                          "NAN_MODES", "INDEX_TYPES"]

REDUCE_FUNCTIONS = ("argmax", "argmin", "average", "l1", "l2", "log_sum", "log_sum_exp", "max", "min",
                    "multiply", "sum", "sum_square")
"""DML_REDUCE_FUNCTION's names, in its order: the index is the enum's value."""

VKDML_REDUCE_FUNCTIONS = {"variance": 1000, "standard_deviation": 1001, "any": 1002, "all": 1003,
                          "count_nonzero": 1004}
"""vkdml's own REDUCE functions (VKDML_REDUCE_FUNCTION_*, outside DirectML's range): name and value."""

INDEX_TYPES = tuple(sorted(_native.index_types))  # the type table's index outputs
"""The output types of the arg functions."""

NAN_MODES = ("propagate", "ignore")
"""vkdml::NanMode: how MIN, MAX, ARGMIN and ARGMAX treat NaN."""


def nan_ignore(nan):
    """Whether `nan` (one of NAN_MODES) is 'ignore'."""
    if nan not in NAN_MODES:
        raise invalid(f"nan {nan!r} is not one of {', '.join(NAN_MODES)}")
    return nan == "ignore"


def _index_dtype(output_type):
    dt = vkdml_dtype(output_type, "output_type")
    if dt.name not in INDEX_TYPES:
        raise UnsupportedType("unsupported_type",
                              f"output_type {dt.name} is not one of {', '.join(INDEX_TYPES)}")
    return dt


def reduced_shape(shape, axes):
    """The shape a reduction over `axes` gives an array of `shape`: the native builder's
    (vkdml::ops::reduced_sizes); () for a 0-d array."""
    return tuple(_native.reduced_shape(shape, list(axes))) if len(shape) else ()


def _array_device(arr, device):
    """The device of the Array `arr`; `device`, when given, must be it."""
    if device is not None and as_device(device)._handle is not arr.device._handle:
        raise invalid(f"the Array is on {arr.device.name}, device= names {as_device(device).name}: "
                      "move it with vkdml.asarray(a, device=...)")
    return arr.device


def _on_device(arr, function, *args, out=None):
    """`function(handle, array, *args, out)` for the Array `arr`: an Array (out, if given), not waited for."""
    dev = arr.device
    native_out = None if out is None else out._native
    return Array(native_device_call(dev, function, dev._handle, arr._native, *args, native_out), dev)


def reduced(arr, code, axes, out_dtype, select_last=False, nan=False, device=None, out=None, correction=0):
    """REDUCE (code >= 0, a DML_REDUCE_FUNCTION value: an index into REDUCE_FUNCTIONS or one of
    VKDML_REDUCE_FUNCTIONS) or ARGMAX (-1) / ARGMIN (-2) of `arr` over the sorted `axes`, the rank kept;
    `nan`: NanMode::ignore; `correction`: the variances' OperatorOptions::correction. A 0-d array is one
    element. An Array `arr` gives an Array (written into `out`, an Array of the result's type and size, when
    given)."""
    out_shape = reduced_shape(arr.shape, axes)
    if isinstance(arr, Array):
        dev = _array_device(arr, device)
        if arr.size == 0 or arr.ndim == 0:
            return asarray(reduced(arr.numpy(), code, axes, out_dtype, select_last, nan, dev,
                                   correction=correction), device=dev)
        return _on_device(arr, _native.reduction_array, code, list(axes), _np.dtype(out_dtype), select_last,
                          nan, correction, out=out)
    if arr.size == 0:
        if _np.prod(out_shape, dtype=_np.int64) == 0:
            return _np.empty(out_shape, out_dtype)
        raise invalid("a reduction over zero elements has no result "
                      "(the array has size 0 along a reduced axis)")
    if arr.ndim == 0:
        one = run(device, _native.reduction, arr.reshape(1), code, [], out_dtype, select_last, nan, correction)
        return one.reshape(())
    # (An array no single device buffer holds runs in windows: vkdml::execute, in the native module.)
    return run(device, _native.reduction, arr, code, list(axes), out_dtype, select_last, nan, correction)


def scanned(arr, axis, combine, exclusive=False, reverse=False, device=None, out=None, nan=False):
    """A cumulative operator of `arr` (at least 1-d) along `axis` (in range), by `combine`: 0 (or False)
    CUMULATIVE_SUMMATION, 1 (or True) CUMULATIVE_PRODUCT, 2 vkdml's CUMULATIVE_MAXIMUM, 3 its
    CUMULATIVE_MINIMUM, 4 its LOG_CUMULATIVE_SUM_EXP; `nan`: NanMode::ignore. An Array `arr` gives an Array (written into `out`, an Array of
    its type and size, when given)."""
    if isinstance(arr, Array):
        dev = _array_device(arr, device)
        if arr.size == 0:
            return asarray(_np.empty(arr.shape, arr.dtype), device=dev)
        return _on_device(arr, _native.cumulative_array, axis, int(combine), bool(exclusive), bool(reverse), bool(nan),
                          out=out)
    if arr.size == 0:
        return _np.empty(arr.shape, arr.dtype)
    return run(device, _native.cumulative, arr, axis, int(combine), bool(exclusive), bool(reverse), bool(nan))


def selected_with_indices(arr, axis, combine, exclusive=False, reverse=False, device=None, nan=False):
    """vkdml's CUMULATIVE_MAXIMUM (combine 2) or CUMULATIVE_MINIMUM (3) of `arr` (at least 1-d) along
    `axis` (in range) with its index output: (values, int64 indices), Arrays for an Array `arr`."""
    if arr.size == 0:
        values, indices = _np.empty(arr.shape, arr.dtype), _np.empty(arr.shape, _np.int64)
        if isinstance(arr, Array):
            dev = _array_device(arr, device)
            return asarray(values, device=dev), asarray(indices, device=dev)
        return values, indices
    if isinstance(arr, Array):
        dev = _array_device(arr, device)
        values, indices = native_device_call(dev, _native.cumulative_with_indices_array, dev._handle, arr._native,
                                             axis, int(combine), bool(exclusive), bool(reverse), bool(nan))
        return Array(values, dev), Array(indices, dev)
    try:
        return tuple(run(device, _native.cumulative_with_indices, arr, axis, int(combine), bool(exclusive),
                         bool(reverse), bool(nan)))
    except OutOfMemory:
        # A line whose running values (the index output's scratch) no allocation holds: two plain scans,
        # which run in windows, with the marks formed on the host.
        return _indices_from_host_marks(arr, axis, combine, exclusive, reverse, device, nan)


def _indices_from_host_marks(arr, axis, combine, exclusive, reverse, device, nan):
    """selected_with_indices() by the values and the index output's own steps, the marks on the host: the
    running values (inclusive), each position's index where its element equals its running value (or is a
    NaN not left out) else -1, and their scan (the maximum; for DECREASING the unsigned minimum, -1's bits
    the largest); an exclusive scan's indices are the inclusive ones one step later, -1 first."""
    values = scanned(arr, axis, combine, exclusive, reverse, device, nan=nan)
    running = scanned(arr, axis, combine, False, reverse, device, nan=nan) if exclusive else values
    x, y = _np.asarray(arr), _np.asarray(running)
    with _np.errstate(invalid="ignore"):
        hit = x == y
        if x.dtype.kind == "f":
            hit = hit & ~_np.isnan(x) if nan else hit | _np.isnan(x)
    n = arr.shape[axis]
    steps = _np.arange(n, dtype=_np.int64).reshape([-1 if i == axis else 1 for i in range(arr.ndim)])
    marks = _np.where(hit, steps, _np.int64(-1))
    if reverse:
        indices = scanned(marks.view(_np.uint64), axis, 3, False, True, device).view(_np.int64)
    else:
        indices = scanned(marks, axis, 2, False, False, device)
    if exclusive:
        before = _np.full_like(_np.take(indices, [0], axis=axis), -1)
        kept = _np.take(indices, range(1, n) if reverse else range(n - 1), axis=axis)
        indices = _np.concatenate([kept, before] if reverse else [before, kept], axis=axis)
    return values, indices


def _cumulative(a, axis, combine, exclusive, reverse, nan, device, indices=False):
    """The cumulative operators of this module: `combine` as scanned() takes it."""
    arr = as_array(a)
    ignore = nan_ignore(nan)
    if arr.ndim == 0:
        raise invalid("a 0-d array has no axis to scan (reshape it to (1,))")
    if indices:
        return selected_with_indices(arr, axis_index(axis, arr.ndim), combine, exclusive, reverse, device,
                                     nan=ignore)
    return scanned(arr, axis_index(axis, arr.ndim), combine, exclusive, reverse, device, nan=ignore)


@numpy_doc(
    "DML_OPERATOR_CUMULATIVE_SUMMATION: the running sum along one axis, in the input's type.",
    [("a : array_like",
      "One of vkdml's 11 types (float16/32/64, int8/16/32/64, uint8/16/32/64), at least 1-d."),
     ("axis : int",
      "The axis (DirectML's `Axis`; negative counts from the end)."),
     ("exclusive : bool, optional",
      "Each output leaves out its own element (`HasExclusiveSum`): the first is 0."),
     ("reverse : bool, optional",
      "Sum from the last index down (`AxisDirection` DECREASING)."),
     ("nan : {'propagate', 'ignore'}, optional",
      "'ignore': a NaN element counts as 0, as in numpy's nancumsum (floats; integers hold no NaN)."),
     "device_dml"],
    ("numpy.ndarray",
     "The shape and type of `a`. Integers wrap modulo 2^bits; floats are compensated sums."),
    """
>>> dml.cumulative_sum(np.array([1, 2, 3], np.uint8), 0, exclusive=True)
array([0, 1, 3], dtype=uint8)
""")
def cumulative_sum(a, axis, *, exclusive=False, reverse=False, nan="propagate", device=None):
    return _cumulative(a, axis, 0, exclusive, reverse, nan, device)


@numpy_doc(
    "DML_OPERATOR_CUMULATIVE_PRODUCT: the running product along one axis, in the input's type.",
    [("a : array_like",
      "One of vkdml's 11 types, at least 1-d."),
     ("axis : int",
      "The axis (negative counts from the end)."),
     ("exclusive : bool, optional",
      "Each output leaves out its own element (`HasExclusiveProduct`): the first is 1."),
     ("reverse : bool, optional",
      "Multiply from the last index down (`AxisDirection` DECREASING)."),
     ("nan : {'propagate', 'ignore'}, optional",
      "'ignore': a NaN element counts as 1, as in numpy's nancumprod (floats; integers hold no NaN)."),
     "device_dml"],
    ("numpy.ndarray",
     "The shape and type of `a`; integers wrap modulo 2^bits."),
    """
>>> dml.cumulative_product(np.array([1., 2., 3.], np.float32), 0, reverse=True)
array([6., 6., 3.], dtype=float32)
""")
def cumulative_product(a, axis, *, exclusive=False, reverse=False, nan="propagate", device=None):
    return _cumulative(a, axis, 1, exclusive, reverse, nan, device)



def _selection_doc(which, numpy_name, identity):
    return (
        f"vkdml's CUMULATIVE_{which.upper()}: the running {which} along one axis, in the input's type.",
        [("a : array_like", "One of vkdml's 11 types, at least 1-d."),
         ("axis : int", "The axis (negative counts from the end)."),
         ("exclusive : bool, optional",
          f"Each output leaves out its own element: the first is the type's {identity}."),
         ("reverse : bool, optional", "Scan from the last index down (`AxisDirection` DECREASING)."),
         ("nan : {'propagate', 'ignore'}, optional",
          f"'propagate': a NaN makes every later output NaN, as numpy's {numpy_name}.accumulate; 'ignore': "
          f"NaN elements are left out, as numpy's f{numpy_name[:3]}.accumulate (a leading NaN gives "
          f"{'-inf' if which == 'maximum' else '+inf'})."),
         ("indices : bool, optional",
          "Also return the index output (`OutputIndexTensor`): int64, the index along `axis` of the last "
          "element in scan order equal to each value (the last of ties and the last NaN; -0 equals +0; "
          "never a NaN that 'ignore' leaves out), -1 where no element contributed (an exclusive first "
          "output; with 'ignore', the outputs before the line's first number)."),
         "device_dml"],
        ("numpy.ndarray (or a pair with `indices`)", "The shape and type of `a`; exact (a selection). Of -0 "
         f"and +0, {'+0' if which == 'maximum' else '-0'} (IEEE 754-2019)."))


@numpy_doc(*_selection_doc("maximum", "maximum", "smallest value (-inf for floats)"), """
>>> dml.cumulative_maximum(np.array([3, 1, 4, 1, 5], np.int8), 0)
array([3, 3, 4, 4, 5], dtype=int8)
>>> dml.cumulative_maximum(np.array([3, 1, 4, 4, 2], np.int8), 0, indices=True)
(array([3, 3, 4, 4, 4], dtype=int8), array([0, 0, 2, 3, 3]))
""")
def cumulative_maximum(a, axis, *, exclusive=False, reverse=False, nan="propagate", indices=False, device=None):
    return _cumulative(a, axis, 2, exclusive, reverse, nan, device, indices)


@numpy_doc(*_selection_doc("minimum", "minimum", "largest value (+inf for floats)"), """
>>> dml.cumulative_minimum(np.array([3., 1., 4.], np.float32), 0, reverse=True)
array([1., 1., 4.], dtype=float32)
>>> dml.cumulative_minimum(np.array([3., 1., 4.], np.float32), 0, reverse=True, exclusive=True, indices=True)
(array([ 1.,  4., inf], dtype=float32), array([ 1,  2, -1]))
""")
def cumulative_minimum(a, axis, *, exclusive=False, reverse=False, nan="propagate", indices=False, device=None):
    return _cumulative(a, axis, 3, exclusive, reverse, nan, device, indices)


@numpy_doc(
    "vkdml's LOG_CUMULATIVE_SUM_EXP: ln(sum(exp(x))) of the elements so far along one axis, in the "
    "input's type, against a running maximum (no overflow where the result is finite).",
    [("a : array_like", "float16, float32 or float64, at least 1-d (other types: UnsupportedType)."),
     ("axis : int", "The axis (negative counts from the end)."),
     ("exclusive : bool, optional",
      "Each output leaves out its own element: the first is -inf (the log of an empty sum)."),
     ("reverse : bool, optional", "Scan from the last index down (`AxisDirection` DECREASING)."),
     ("nan : {'propagate', 'ignore'}, optional",
      "'propagate': a NaN makes every later output NaN; 'ignore': NaN elements are left out (read as "
      "-inf)."),
     "device_dml"],
    ("numpy.ndarray",
     "The shape and type of `a`; +inf absorbs every later output (but NaN), -inf elements add nothing."),
    """
>>> dml.log_cumulative_sum_exp(np.array([1000., 1000., -np.inf], np.float32), 0, exclusive=True)
array([     -inf, 1000.    , 1000.6932], dtype=float32)
""")
def log_cumulative_sum_exp(a, axis, *, exclusive=False, reverse=False, nan="propagate", device=None):
    return _cumulative(a, axis, 4, exclusive, reverse, nan, device)

@numpy_doc(
    "DML_OPERATOR_REDUCE: `function` over `axes`, the rank kept.",
    ["a_dml",
     ("function : str",
      "One of REDUCE_FUNCTIONS ('sum', 'log_sum_exp', 'argmax', ...) or of vkdml's VKDML_REDUCE_FUNCTIONS "
      "('variance', 'standard_deviation': float types only; 'any', 'all', 'count_nonzero')."),
     ("axes : int or sequence of int",
      "The reduced axes (DirectML's `Axes`, any order). () reduces nothing: each output is the function of "
      "its one element (L2 gives |x|, SUM_SQUARE x², ...), as in DirectML."),
     ("output_type : dtype, optional",
      "The arg functions' index type and count_nonzero's count type, one of INDEX_TYPES (default int64); "
      "any and all write uint8 (0 or 1); the other functions keep `a`'s type and take no other."),
     ("nan : {'propagate', 'ignore'}, optional",
      "'ignore': max, min, argmax and argmin skip NaN elements (a slice of NaN only gives -inf (max), "
      "+inf (min) or index 0); the sums and products read a NaN as their identity (0; 1 for multiply; "
      "-inf for log_sum_exp), as numpy's nansum and nanprod do; average divides by the count of the "
      "others, as numpy's nanmean; variance and standard_deviation skip them, as numpy's nanvar."),
     ("correction : int, optional",
      "variance and standard_deviation: divide by N - correction (numpy's ddof; default 0, 1 for the "
      "sample variance), 0 to 2**32 - 1; the other functions take 0 only."),
     "device_dml"],
    ("numpy.ndarray",
     "`a`'s rank, size 1 on the reduced axes. The arg functions count row-major over the reduced axes in "
     "ascending order, the first of ties."),
    """
>>> dml.reduce(np.array([[1, 5], [7, 2]], np.int32), "max", axes=0)
array([[7, 5]], dtype=int32)
""")
def reduce(a, function, axes, *, output_type=None, nan="propagate", correction=0, device=None):
    arr = as_array(a)
    ignore = nan_ignore(nan)
    if function in VKDML_REDUCE_FUNCTIONS:
        code = VKDML_REDUCE_FUNCTIONS[function]
    elif function in REDUCE_FUNCTIONS:
        code = REDUCE_FUNCTIONS.index(function)
    else:
        raise invalid(f"function {function!r} is not one of "
                      f"{', '.join(REDUCE_FUNCTIONS + tuple(VKDML_REDUCE_FUNCTIONS))}")
    if not isinstance(correction, (int, _np.integer)) or isinstance(correction, bool) or \
            not 0 <= correction < 2**32:
        raise invalid(f"correction {correction!r} is not an integer from 0 to 2**32 - 1")
    ax = axis_set(axes, max(arr.ndim, 1))  # a 0-d array is one element: axis 0
    if function in ("argmax", "argmin", "count_nonzero"):
        out_dtype = _index_dtype("int64" if output_type is None else output_type)
    elif function in ("any", "all"):
        out_dtype = vkdml_dtype("uint8" if output_type is None else output_type, "output_type")
        if out_dtype != _np.uint8:
            raise UnsupportedType("unsupported_type", f"reduce {function}: the output is uint8 (0 or 1), not "
                                  f"{out_dtype}")
    elif output_type is not None and vkdml_dtype(output_type, "output_type") != arr.dtype:
        raise UnsupportedType("unsupported_type", f"reduce {function}: the output keeps the input's type "
                              f"{arr.dtype} (SPEC §2 rule 7), not {vkdml_dtype(output_type)}")
    else:
        out_dtype = arr.dtype
    return reduced(arr, code, ax, out_dtype, False, ignore, device, correction=int(correction))


def _arg(a, axes, select_last_index, output_type, nan, device, code):
    arr = as_array(a)
    ignore = nan_ignore(nan)
    ax = axis_set(axes, max(arr.ndim, 1))  # a 0-d array is one element: axis 0
    return reduced(arr, code, ax, _index_dtype(output_type), select_last_index, ignore, device)


@numpy_doc(
    "DML_OPERATOR_ARGMAX: the index of the largest element over `axes`, the rank kept.",
    ["a_dml",
     "axes_dml",
     "select_last_index",
     "output_type",
     ("nan : {'propagate', 'ignore'}, optional",
      "'propagate': NaN counts as the largest. 'ignore': NaN is skipped; a slice of NaN only gives 0."),
     "device_dml"],
    ("numpy.ndarray",
     "`a`'s rank, size 1 on the reduced axes, of `output_type`."),
    """
>>> dml.argmax(np.array([[1, 5], [7, 2]], np.int32), axes=1)
array([[1],
       [0]])
""")
def argmax(a, axes=None, *, select_last_index=False, output_type="int64", nan="propagate", device=None):
    return _arg(a, axes, select_last_index, output_type, nan, device, -1)


@numpy_doc(
    "DML_OPERATOR_ARGMIN: the index of the smallest element over `axes`, the rank kept.",
    ["a_dml",
     "axes_dml",
     "select_last_index",
     "output_type",
     ("nan : {'propagate', 'ignore'}, optional",
      "'propagate': NaN counts as the smallest. 'ignore': NaN is skipped; a slice of NaN only gives 0."),
     "device_dml"],
    ("numpy.ndarray",
     "`a`'s rank, size 1 on the reduced axes, of `output_type`."),
    """
>>> dml.argmin(np.array([[1, 5], [7, 2]], np.int32), axes=(0, 1), output_type="uint32")
array([[0]], dtype=uint32)
""")
def argmin(a, axes=None, *, select_last_index=False, output_type="int64", nan="propagate", device=None):
    return _arg(a, axes, select_last_index, output_type, nan, device, -2)
