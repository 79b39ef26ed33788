"""vkdml for numpy users: DirectML's cumulative and reduce operators on any Vulkan device.

Every function takes a numpy array of one of vkdml's 11 types (float16/32/64, int8/16/32/64,
uint8/16/32/64), reads it through its strides (C or Fortran order, views, slices), runs on a Vulkan
device (a GPU, or lavapipe on the CPU) and returns a new numpy array.

    import numpy as np, vkdml
    vkdml.cumsum(np.arange(5, dtype=np.float32), 0)     # array([ 0.,  1.,  3.,  6., 10.], dtype=float32)
    vkdml.sum(x, axis=1)                                 # numpy's conventions
    vkdml.reduce(x, 'log_sum_exp', axes=(0,))            # DirectML's: the rank is kept
    vkdml.devices(); vkdml.Device('llvmpipe')            # the devices, and choosing one

Float sums and products are compensated (as if computed in twice the precision, then rounded once);
integers wrap in their own type, as in DirectML, except where the numpy-style sum and prod widen
them the way numpy does. An operator compiled for a shape, type and device is cached with its
buffers: a repeated call compiles and allocates nothing (cache_info()). The GIL is released while
the device works. Errors raise vkdml.Error subclasses carrying vkdml's code and message; those
caused by the input are ValueErrors as well.
"""

import threading as _threading
import warnings as _warnings

import numpy as _np

from . import _native

__version__ = _native.version

__all__ = [
    "Error", "InvalidDescriptor", "UnsupportedType", "UnsupportedDevice", "InvalidBinding", "NoDevice",
    "OutOfMemory", "DeviceLost", "VulkanError", "InvalidArgument",
    "Device", "devices", "default_device", "cache_info",
    "cumsum", "cumprod", "reduce", "argmax", "argmin",
    "sum", "prod", "max", "min", "mean", "logsumexp", "nanmax", "nanmin", "nanargmax", "nanargmin",
    "REDUCE_FUNCTIONS", "NAN_MODES",
]


# ---- errors ----------------------------------------------------------------------------------------

class Error(Exception):
    """A vkdml error: `code` is vkdml's error code name ('invalid_descriptor', ...), `message` its text."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidDescriptor(Error, ValueError):
    """The operator's description breaks a rule of vkdml's contract (docs/SPEC.md §2)."""


class UnsupportedType(Error, ValueError):
    """A dtype vkdml does not take, or that the function or device does not allow."""


class InvalidArgument(Error, ValueError):
    """A bad argument: an axis out of range or repeated, an unknown function, a zero-size reduction."""


class UnsupportedDevice(Error):
    """The device lacks a feature or limit the operation needs."""


class InvalidBinding(Error):
    """A buffer binding breaks the contract (not raised by this module's own calls)."""


class NoDevice(Error):
    """No Vulkan device, or none matches the selector."""


class OutOfMemory(Error, MemoryError):
    """Host or device memory ran out, or a buffer would exceed the device's limits."""


class DeviceLost(Error):
    """The device was lost; it refuses all later work."""


class VulkanError(Error):
    """Another Vulkan call failed."""


_ERRORS = {
    "invalid_descriptor": InvalidDescriptor, "unsupported_type": UnsupportedType,
    "unsupported_device": UnsupportedDevice, "invalid_binding": InvalidBinding, "no_device": NoDevice,
    "out_of_memory": OutOfMemory, "device_lost": DeviceLost, "vulkan_error": VulkanError,
    "invalid_argument": InvalidArgument,
}


def _error(code, message):
    return _ERRORS.get(code, Error)(code, message)


def _native_call(function, *args):
    try:
        return function(*args)
    except _native.NativeError as e:
        raise _error(*e.args) from None


def _run(device, function, *args):
    """An operator call on `device`; a lost device is dropped from the shared handles."""
    dev = _device(device)
    try:
        return _native_call(function, dev._handle, *args)
    except DeviceLost:
        with Device._lock:
            for table in (Device._by_selector, Device._by_index):
                for key in [k for k, h in table.items() if h is dev._handle]:
                    del table[key]
        raise


# ---- devices ---------------------------------------------------------------------------------------

class Device:
    """A Vulkan device, chosen as `vkdml --device` chooses: a decimal index into devices(), or a
    case-insensitive substring of its name; '' (or None) picks $VKDML_DEVICE, else the best device
    (discrete, integrated, virtual, then CPU). Selectors that pick the same device share one handle
    and one operator cache; shared=False makes a handle (a VkDevice and a cache) of this object's own.
    A device that was lost is dropped: the next Device() for it opens a new one."""

    _lock = _threading.Lock()
    _by_selector = {}  # selector -> handle
    _by_index = {}  # physical device index -> handle

    def __init__(self, selector="", *, shared=True):
        key = "" if selector is None else str(selector)
        self.selector = key
        if not shared:
            self._handle = _native_call(_native.open_device, key)
            return
        with Device._lock:
            handle = Device._by_selector.get(key)
            if handle is None or handle.lost:
                handle = _native_call(_native.open_device, key)
                existing = Device._by_index.get(handle.index)
                if existing is not None and not existing.lost:
                    handle = existing  # the same device under another selector: one cache
                Device._by_index[handle.index] = handle
                Device._by_selector[key] = handle
        self._handle = handle

    @property
    def info(self):
        """The device: name, type, driver, subgroup size, limits and the optional type features."""
        return self._handle.info

    @property
    def name(self):
        return self._handle.info["name"]

    @property
    def lost(self):
        """Whether the device was lost (vkdml.DeviceLost): it then refuses all work."""
        return self._handle.lost

    def cache_info(self):
        """The operator cache's counters: 'compiles' (operators compiled), 'hits' (calls that reused
        one), 'entries' and 'bytes' (cached now, with their buffers), 'evictions', and the limits
        'max_entries' and 'max_bytes'."""
        return self._handle.cache_info()

    def set_cache_limits(self, max_entries=64, max_bytes=256 << 20):
        """Past `max_entries` operators or `max_bytes` of their buffers, the least recently used ones
        are freed after each call (0 and 0: cache nothing). Defaults: 64 operators, 256 MiB (an
        operator whose buffers alone pass the limit runs, then is freed)."""
        if max_entries < 0 or max_bytes < 0:
            raise InvalidArgument("invalid_argument", "cache limits are counts and bytes: not negative")
        self._handle.set_cache_limits(int(max_entries), int(max_bytes))

    def clear_cache(self):
        """Frees the cached operators and their buffers."""
        self._handle.clear_cache()

    def __repr__(self):
        return f"vkdml.Device({self.name!r})"


def devices():
    """The Vulkan devices, as dicts: index, name, type ('discrete', 'integrated', 'virtual', 'cpu',
    'other'), api_version, driver, driver_info; for those vkdml can use, also subgroup_size, the
    limits and the optional type features (else 'error': why not). Devices not in use are opened
    only to be asked, and closed again. No Vulkan loader or driver: an empty list (Device() then raises
    vkdml.NoDevice saying what to install)."""
    result = []
    try:
        found = _native_call(_native.enumerate)
    except NoDevice:
        return result
    for d in found:
        with Device._lock:
            handle = Device._by_index.get(d["index"])
        try:
            info = handle.info if handle is not None else _native_call(_native.open_device, str(d["index"])).info
            d = dict(info)
        except Error as e:
            d["error"] = f"{e.code}: {e.message}"
        result.append(d)
    return result


def default_device():
    """The device used where a call gives none: Device('')."""
    return Device("")


def _device(device):
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    return Device(device)


def cache_info(device=None):
    """The operator cache's counters of `device` (default: the default device): Device.cache_info()."""
    return _device(device).cache_info()


# ---- arguments -------------------------------------------------------------------------------------

REDUCE_FUNCTIONS = ("argmax", "argmin", "average", "l1", "l2", "log_sum", "log_sum_exp", "max", "min",
                    "multiply", "sum", "sum_square")  # DML_REDUCE_FUNCTION order: index = value

_INDEX_TYPES = ("int32", "int64", "uint32", "uint64")

NAN_MODES = ("propagate", "ignore")  # vkdml::NanMode: how MIN, MAX, ARGMIN and ARGMAX treat NaN


def _nan_ignore(nan):
    if nan not in NAN_MODES:
        raise InvalidArgument("invalid_argument", f"nan {nan!r} is not one of {', '.join(NAN_MODES)}")
    return nan == "ignore"


def _array(a, bool_as=None):
    """`a` as a numpy array, refusing what vkdml cannot read (bool arrays become `bool_as` if given)."""
    if isinstance(a, _np.ma.MaskedArray):
        raise UnsupportedType("unsupported_type", "masked arrays are not supported (use a.filled(...))")
    arr = _np.asarray(a)
    if arr.dtype == _np.bool_ and bool_as is not None:
        arr = arr.astype(bool_as)
    if arr.dtype.kind not in "fiu" or arr.dtype.itemsize not in (1, 2, 4, 8) or (
            arr.dtype.kind == "f" and arr.dtype.itemsize == 1):
        raise UnsupportedType("unsupported_type",
                              f"dtype {arr.dtype} is not one of vkdml's 11 types "
                              "(float16/32/64, int8/16/32/64, uint8/16/32/64)")
    if arr.dtype.byteorder == ">" or (arr.dtype.byteorder == "=" and not _np.little_endian):
        raise UnsupportedType("unsupported_type",
                              f"byte-swapped dtype {arr.dtype.str}: vkdml reads little-endian data only")
    return arr


def _axis(axis, ndim):
    if isinstance(axis, bool) or not isinstance(axis, (int, _np.integer)):
        raise InvalidArgument("invalid_argument", f"axis {axis!r} is not an integer")
    a = int(axis)
    if not -ndim <= a < ndim:
        raise InvalidArgument("invalid_argument", f"axis {a} is out of range for an array of {ndim} dimensions")
    return a + ndim if a < 0 else a


def _axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, _np.integer)) and not isinstance(axes, bool):
        axes = (axes,)
    result = tuple(_axis(a, ndim) for a in axes)
    if len(set(result)) != len(result):
        raise InvalidArgument("invalid_argument", f"axes {tuple(axes)} repeat an axis")
    return tuple(sorted(result))


def _out_dtype(name, allowed=None):
    try:
        dt = _np.dtype(name)
    except TypeError:
        raise UnsupportedType("unsupported_type", f"output_type {name!r} is not a numpy dtype") from None
    if allowed is not None and dt.name not in allowed:
        raise UnsupportedType("unsupported_type", f"output_type {dt.name} is not one of {', '.join(allowed)}")
    return dt


# ---- DirectML-style operators ----------------------------------------------------------------------

def _cumulative(a, axis, product, exclusive, reverse, device):
    arr = _array(a)
    ax = _axis(axis, arr.ndim)
    if arr.size == 0:
        return _np.empty(arr.shape, arr.dtype)
    return _run(device, _native.cumulative, arr, ax, product, bool(exclusive), bool(reverse))


def cumsum(a, axis, *, exclusive=False, reverse=False, device=None):
    """Cumulative sum of `a` along `axis` (DML_OPERATOR_CUMULATIVE_SUMMATION), in `a`'s dtype
    (integers wrap). exclusive: each output leaves out its own element; reverse: from the last index
    down."""
    return _cumulative(a, axis, False, exclusive, reverse, device)


def cumprod(a, axis, *, exclusive=False, reverse=False, device=None):
    """Cumulative product of `a` along `axis` (DML_OPERATOR_CUMULATIVE_PRODUCT); as cumsum."""
    return _cumulative(a, axis, True, exclusive, reverse, device)


def _reduced_shape(shape, axes):
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _run_reduction(arr, code, axes, out_dtype, select_last, device, nan_ignore=False):
    """REDUCE (code >= 0) or ARGMAX (-1) / ARGMIN (-2) of arr over sorted axes; the rank is kept.
    nan_ignore: NanMode::ignore (MIN, MAX and the arg functions)."""
    out_shape = _reduced_shape(arr.shape, axes)
    if arr.size == 0:
        if _np.prod(out_shape, dtype=_np.int64) == 0:
            return _np.empty(out_shape, out_dtype)
        raise InvalidArgument("invalid_argument", "a reduction over zero elements has no result "
                              "(the array has size 0 along a reduced axis)")
    if arr.ndim == 0:
        arr = arr.reshape(1)
        return _run(device, _native.reduction, arr, code, [], out_dtype, select_last, nan_ignore).reshape(())
    return _run(device, _native.reduction, arr, code, list(axes), out_dtype, select_last, nan_ignore)


def reduce(a, function, axes, *, output_type=None, nan="propagate", device=None):
    """DML_OPERATOR_REDUCE: `function` (one of REDUCE_FUNCTIONS, e.g. 'sum', 'log_sum_exp') over
    `axes` (an int or a sequence; () reduces nothing: each output is the function of its one element,
    as in DirectML). The output keeps `a`'s rank, size 1 on the reduced axes. output_type: the arg
    functions' index type (default int64); others keep a's dtype. nan='ignore' (min, max, argmax,
    argmin only): NaN elements are skipped (as DirectML's max and min do); a slice of NaN only gives
    -inf (max), +inf (min) or index 0."""
    arr = _array(a)
    nan_ignore = _nan_ignore(nan)
    if function not in REDUCE_FUNCTIONS:
        raise InvalidArgument("invalid_argument",
                              f"function {function!r} is not one of {', '.join(REDUCE_FUNCTIONS)}")
    code = REDUCE_FUNCTIONS.index(function)
    ax = _axes(axes, arr.ndim)
    if function in ("argmax", "argmin"):
        out_dtype = _out_dtype("int64" if output_type is None else output_type, _INDEX_TYPES)
    else:
        out_dtype = arr.dtype if output_type is None else _out_dtype(output_type)
    return _run_reduction(arr, code, ax, out_dtype, False, device, nan_ignore)


def _arg(a, axes, axis, select_last_index, output_type, device, code, name, nan="propagate"):
    arr = _array(a)
    nan_ignore = _nan_ignore(nan)
    out_dtype = _out_dtype(output_type, _INDEX_TYPES)
    if axes is not None and axis is not None:
        raise TypeError(f"{name}() takes axes (DirectML's rules) or axis (numpy's), not both")
    if axes is not None:  # DirectML's: the rank is kept
        return _run_reduction(arr, code, _axes(axes, arr.ndim), out_dtype, select_last_index, device,
                              nan_ignore)
    # numpy's: axis None searches the flattened array (one index); an axis is removed.
    if axis is None:  # over every axis: DirectML counts row-major over them, numpy's flat index
        if arr.size == 0:
            raise InvalidArgument("invalid_argument", f"attempt to get {name} of an empty sequence")
        axes_all = tuple(range(arr.ndim))
        return _run_reduction(arr, code, axes_all, out_dtype, select_last_index, device,
                              nan_ignore).reshape(())[()]
    ax = _axis(axis, arr.ndim)
    if arr.shape[ax] == 0:
        raise InvalidArgument("invalid_argument", f"attempt to get {name} of an empty sequence")
    out = _np.squeeze(_run_reduction(arr, code, (ax,), out_dtype, select_last_index, device, nan_ignore),
                      axis=ax)
    return out[()] if out.ndim == 0 else out


def argmax(a, axes=None, *, axis=None, select_last_index=False, output_type="int64", nan="propagate",
           device=None):
    """Index of the largest element (NaN counts as the largest). With `axes` (DML_OPERATOR_ARGMAX):
    over those axes, counted row-major over them, the rank kept. Without (numpy's convention): over the
    flattened array when `axis` is None (a scalar), else along `axis`, which is removed.
    select_last_index: the last of equal elements instead of the first. nan='ignore': NaN elements are
    skipped (vkdml's NanMode::ignore); a slice of NaN only gives index 0 (see nanargmax)."""
    return _arg(a, axes, axis, select_last_index, output_type, device, -1, "argmax", nan)


def argmin(a, axes=None, *, axis=None, select_last_index=False, output_type="int64", nan="propagate",
           device=None):
    """Index of the smallest element (NaN counts as the smallest); as argmax."""
    return _arg(a, axes, axis, select_last_index, output_type, device, -2, "argmin", nan)


# ---- numpy-style reductions ------------------------------------------------------------------------

def _numpy_style(a, axis, keepdims, function, device, widen=False, to_float=False, identity=None,
                 nan_ignore=False):
    arr = _array(a, bool_as=_np.int64 if widen else None)
    if widen and arr.dtype.kind in "iu" and arr.dtype.itemsize < 8:  # numpy's sum/prod of small integers
        arr = arr.astype(_np.int64 if arr.dtype.kind == "i" else _np.uint64)
    if to_float and arr.dtype.kind in "iu":  # numpy's mean of integers
        arr = arr.astype(_np.float64)
    ax = _axes(axis, arr.ndim)
    out_shape = _reduced_shape(arr.shape, ax)
    if arr.size == 0 and identity is not None and _np.prod(out_shape, dtype=_np.int64) != 0:
        if function == "average":
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        out = _np.full(out_shape, identity, arr.dtype)
    elif arr.size == 0 and _np.prod(out_shape, dtype=_np.int64) != 0:
        raise InvalidArgument("invalid_argument",
                              f"zero-size array to reduction operation {function} which has no identity")
    else:
        out = _run_reduction(arr, REDUCE_FUNCTIONS.index(function), ax, arr.dtype, False, device, nan_ignore)
        if nan_ignore and arr.dtype.kind == "f":
            # numpy: a slice of NaN only is NaN, with a warning (vkdml gives -inf or +inf there).
            extreme = -_np.inf if function == "max" else _np.inf
            if _np.any(out == extreme):
                all_nan = _np.isnan(arr).all(axis=ax, keepdims=True)
                if _np.any(all_nan):
                    _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
                    out = _np.where(all_nan, _np.array(_np.nan, arr.dtype), out)
    if keepdims:
        return out
    out = out.reshape(tuple(n for i, n in enumerate(arr.shape) if i not in ax))
    return out[()] if out.ndim == 0 else out


def sum(a, axis=None, *, keepdims=False, device=None):  # noqa: A001 (numpy's name)
    """numpy.sum: over all axes (None), one or several; integers narrower than 64 bits (and bools) are
    summed as int64 or uint64, as numpy does. keepdims is keyword-only (numpy's third parameter is
    dtype)."""
    return _numpy_style(a, axis, keepdims, "sum", device, widen=True, identity=0)


def prod(a, axis=None, *, keepdims=False, device=None):
    """numpy.prod, with numpy's widening of small integers."""
    return _numpy_style(a, axis, keepdims, "multiply", device, widen=True, identity=1)


def max(a, axis=None, *, keepdims=False, device=None):  # noqa: A001
    """numpy.max (NaN if any element is NaN)."""
    return _numpy_style(a, axis, keepdims, "max", device)


def min(a, axis=None, *, keepdims=False, device=None):  # noqa: A001
    """numpy.min (NaN if any element is NaN)."""
    return _numpy_style(a, axis, keepdims, "min", device)


def mean(a, axis=None, *, keepdims=False, device=None):
    """numpy.mean: float inputs keep their dtype, integers are averaged as float64; an empty slice is
    NaN with a RuntimeWarning."""
    return _numpy_style(a, axis, keepdims, "average", device, to_float=True, identity=_np.nan)


def logsumexp(a, axis=None, *, keepdims=False, device=None):
    """scipy.special.logsumexp: ln(sum(exp(a))), overflow-safe; integers as float64."""
    return _numpy_style(a, axis, keepdims, "log_sum_exp", device, to_float=True)


# ---- numpy's NaN-ignoring functions ----------------------------------------------------------------

def nanmax(a, axis=None, *, keepdims=False, device=None):
    """numpy.nanmax: the largest element, NaN left out (vkdml's NanMode::ignore). As numpy does, a
    slice of NaN only gives NaN with a RuntimeWarning (DirectML, and reduce(..., nan='ignore'), give
    -inf there). Of -0 and +0, +0 (IEEE 754-2019)."""
    return _numpy_style(a, axis, keepdims, "max", device, nan_ignore=True)


def nanmin(a, axis=None, *, keepdims=False, device=None):
    """numpy.nanmin: the smallest element, NaN left out; as nanmax (+inf in DirectML's answer)."""
    return _numpy_style(a, axis, keepdims, "min", device, nan_ignore=True)


def _nanarg(a, axis, keepdims, device, code, name):
    arr = _array(a)
    out = _arg(arr, None, axis, False, "int64", device, code, name, "ignore")
    if arr.dtype.kind == "f" and arr.size:
        # NaN is never picked unless the slice holds nothing else (index 0): numpy raises there.
        if axis is None:
            picked = arr.reshape(-1)[out]
        else:
            ax = _axis(axis, arr.ndim)
            picked = _np.take_along_axis(arr, _np.expand_dims(_np.asarray(out), ax), ax)
        if _np.any(_np.isnan(picked)):
            raise InvalidArgument("invalid_argument", "All-NaN slice encountered")
    if keepdims:
        if axis is None:
            return _np.asarray(out).reshape((1,) * arr.ndim)
        return _np.expand_dims(out, _axis(axis, arr.ndim))
    return out


def nanargmax(a, axis=None, *, keepdims=False, device=None):
    """numpy.nanargmax: the index of the largest element, NaN left out (the first of ties); over the
    flattened array when `axis` is None. A slice of NaN only raises ValueError('All-NaN slice
    encountered'), as numpy does (vkdml.InvalidArgument; argmax(..., nan='ignore') gives 0 there)."""
    return _nanarg(a, axis, keepdims, device, -1, "argmax")


def nanargmin(a, axis=None, *, keepdims=False, device=None):
    """numpy.nanargmin: the index of the smallest element, NaN left out; as nanargmax."""
    return _nanarg(a, axis, keepdims, device, -2, "argmin")
