"""Arguments as vkdml takes them: arrays of its 11 types, axes, dtypes and `out` arrays."""

import operator as _operator

import numpy as _np

from ._array import Array
from ._errors import AxisError, UnsupportedType, _native, invalid

TYPE_NAMES = tuple(sorted(_native.type_names))  # the library's type table (vkdml::kTypeInfo)

_TYPES_TEXT = "float16/32/64, int8/16/32/64, uint8/16/32/64"


def vkdml_dtype(dtype, what="dtype"):
    """`dtype` as a numpy dtype of vkdml's 11 types (native byte order), else UnsupportedType."""
    try:
        dt = _np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{what} {dtype!r} is not a numpy dtype") from None
    if dt.kind not in "fiu" or dt.newbyteorder("=").name not in TYPE_NAMES:
        raise UnsupportedType("unsupported_type",
                              f"{what} {dt} is not one of vkdml's 11 types ({_TYPES_TEXT})")
    return dt.newbyteorder("=")


def as_array(a, allow_bool=False):
    """`a` as a numpy array vkdml can read: byte-swapped data is converted to the native order; bool
    arrays pass only where `allow_bool` (the caller converts them); anything else outside the 11 types
    is refused."""
    if isinstance(a, Array):
        return a  # one of the 11 types already
    if isinstance(a, _np.ma.MaskedArray):
        raise UnsupportedType("unsupported_type", "masked arrays are not supported (use a.filled(...))")
    arr = _np.asarray(a)
    if arr.dtype == _np.bool_ and allow_bool:
        return arr
    dt = vkdml_dtype(arr.dtype)
    return arr if arr.dtype == dt else arr.astype(dt)


def axis_index(axis, ndim):
    """One axis, negative counting from the end: an integer (TypeError otherwise, as numpy) in range
    (AxisError: vkdml's InvalidArgument and numpy's AxisError)."""
    try:
        if isinstance(axis, (bool, _np.bool_)):
            raise TypeError
        a = _operator.index(axis)
    except TypeError:
        raise TypeError(f"axis {axis!r} is not an integer ({type(axis).__name__})") from None
    if not -ndim <= a < ndim:
        plural = "" if ndim == 1 else "s"
        raise AxisError(f"axis {a} is out of range for an array of {ndim} dimension{plural}")
    return a + ndim if a < 0 else a


def axis_set(axes, ndim, sequences=(tuple, list)):
    """Sorted distinct axes: None is every axis, an integer one axis, else a tuple or list of them (of
    the types in `sequences`: numpy's functions take tuples only)."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, sequences):
        result = tuple(axis_index(a, ndim) for a in axes)
    else:
        result = (axis_index(axes, ndim),)
    if len(set(result)) != len(result):
        raise invalid(f"axes {tuple(axes)} repeat an axis")
    return tuple(sorted(result))


def accumulator_dtype(dtype):
    """numpy's default type of sum, prod, cumsum and cumprod: booleans and integers narrower than the
    platform integer widen to it (signed, or unsigned for unsigned input); others keep their type."""
    if dtype == _np.bool_:
        return _np.dtype(_np.int_)
    if dtype.kind == "i" and dtype.itemsize < _np.dtype(_np.int_).itemsize:
        return _np.dtype(_np.int_)
    if dtype.kind == "u" and dtype.itemsize < _np.dtype(_np.uint).itemsize:
        return _np.dtype(_np.uint)
    return dtype


def cast_input(arr, dtype):
    """`arr` converted to the computation type `dtype`, as numpy's reductions and scans convert for
    `dtype=` (its rule 'unsafe': floats to integers truncate, integers wrap)."""
    return arr if arr.dtype == dtype else arr.astype(dtype)


def store(result, out, name, indices=False):
    """`result` as the function returns it: written into `out` when given (numpy's 'unsafe' cast of
    reductions and scans; an index result only into an integer `out`, TypeError otherwise, as numpy;
    `out`'s shape must be the result's) and `out` returned, else `result` (a numpy scalar for 0-d)."""
    if out is None:
        return result[()] if isinstance(result, _np.ndarray) and result.ndim == 0 else result
    if isinstance(out, Array):
        if isinstance(result, Array) and result._native.shares_memory(out._native) and result.shape == out.shape:
            return out  # written there by the device
        target = out.numpy()  # after the work on it is done
    elif isinstance(out, _np.ndarray):
        target = out
    else:
        raise TypeError(f"{name}: out must be a numpy array or a vkdml.Array, not {type(out).__name__}")
    result = _np.asarray(result)
    if out.shape != result.shape:
        raise invalid(f"{name}: out has shape {out.shape}, the result has shape {result.shape}")
    if indices and out.dtype.kind not in "iu":
        raise TypeError(f"{name}: out must have an integer dtype for indices, not {out.dtype}")
    _np.copyto(target, result, casting="unsafe")
    return out


def on_host(x):
    """`x` as numpy sees it: an Array's elements (after its work), anything else as it is."""
    return x.numpy() if isinstance(x, Array) else x


def like(result, a, out):
    """`result` as the function returns it for the input `a`: an Array on `a`'s device where `a` is one
    (and no `out` was given), else `result`."""
    if out is not None or not isinstance(a, Array) or isinstance(result, Array):
        return result
    from ._array import asarray
    return asarray(_np.asarray(result), device=a.device)


def direct_out(out, dtype, shape, source=None):
    """`out` where the device can write the result straight into it (an Array of the result's type and
    shape; for a reduction, not the memory of its `source`, which DirectML's rule 9 keeps apart), else
    None."""
    if isinstance(out, Array) and out.dtype == dtype and out.shape == tuple(shape):
        if isinstance(source, Array) and source._native.shares_memory(out._native):
            return None
        return out
    return None
