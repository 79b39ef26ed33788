"""vkdml for numpy users: DirectML's cumulative and reduce operators on any Vulkan device.

The numpy-named functions (cumsum, cumprod, sum, prod, mean, var, std, max and min (also amax and amin),
ptp, any, all, count_nonzero, maximum_accumulate, minimum_accumulate, fmax_accumulate, fmin_accumulate,
logaddexp_accumulate, argmax, argmin, the nan variants (nansum, nanprod, nanmean, nanvar, nanstd, nancumsum, nancumprod,
nanmax, nanmin, nanargmax, nanargmin), scipy's logsumexp and PyTorch's logcumsumexp, cummax and cummin) follow numpy: positional `axis` (None flattens a scan and reduces
every axis), numpy's type promotion (int32 cumsum gives int64), `dtype=`, `out=`, `keepdims`, bool and
byte-swapped input. DirectML's own semantics (the input's type kept and wrapping, the rank kept, axes
tuples, index types, exclusive and reverse scans, the NaN mode) are in `vkdml.dml`.

Every function reads its array through its strides (C or Fortran order, views, slices) and runs on a
Vulkan device: a GPU, or lavapipe on the CPU. Float sums and products are compensated (as if computed
in twice the precision, then rounded once). An operator compiled for a shape, type and device is cached
(at most 64 per device by default) and device buffers are pooled by size (Device.set_cache_limits), so
a repeated call compiles and allocates nothing (cache_info()). vkdml.asarray puts an array on the
device as a vkdml.Array: every function takes Arrays and returns Arrays without waiting, so chained
calls copy nothing through the host; reading one (.numpy(), np.asarray) waits. The GIL is released while the device
works. Errors raise vkdml.Error subclasses carrying vkdml's code and message; those caused by the input
are ValueErrors as well; an axis out of range is also numpy's AxisError, and a non-integer axis a
TypeError, as in numpy.

    >>> import numpy as np, vkdml
    >>> vkdml.cumsum(np.arange(5, dtype=np.float32))
    array([ 0.,  1.,  3.,  6., 10.], dtype=float32)
    >>> vkdml.argmax(np.ones((2, 3, 4)), 1).shape
    (2, 4)
    >>> vkdml.dml.reduce(np.ones((2, 3), np.float32), "log_sum_exp", axes=(1,)).shape
    (2, 1)
"""

from . import dml
from ._array import Array, asarray
from ._devices import Device, cache_info, default_device, devices
from ._errors import (AxisError, DeviceLost, Error, InvalidArgument, InvalidBinding, InvalidDescriptor,
                      NoDevice, OutOfMemory, UnsupportedDevice, UnsupportedType, VulkanError, _native)
from ._numpy_api import all, any, max, min  # noqa: F401 (numpy's names; not star-imported, as numpy)
from ._numpy_api import (amax, amin, argmax, argmin, count_nonzero, cummax, cummin, cumprod, cumsum, fmax_accumulate,
                         fmin_accumulate, logaddexp_accumulate, logcumsumexp, logsumexp, maximum_accumulate, mean, minimum_accumulate, nanargmax,
                         nanargmin, nancumprod, nancumsum, nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar,
                         prod, ptp, std, sum, var)

__version__ = _native.version

__all__ = [
    "Error", "InvalidDescriptor", "UnsupportedType", "UnsupportedDevice", "InvalidBinding", "NoDevice",
    "OutOfMemory", "DeviceLost", "VulkanError", "InvalidArgument", "AxisError",
    "Device", "devices", "default_device", "cache_info", "dml", "Array", "asarray",
    "cumsum", "cumprod", "sum", "prod", "mean", "argmax", "argmin", "logsumexp",
    "nanmax", "nanmin", "nanargmax", "nanargmin", "amax", "amin", "ptp",
    "nansum", "nanprod", "nanmean", "nancumsum", "nancumprod", "var", "std", "nanvar", "nanstd",
    "count_nonzero", "maximum_accumulate", "minimum_accumulate", "fmax_accumulate", "fmin_accumulate",
    "logaddexp_accumulate", "logcumsumexp", "cummax", "cummin",
]
