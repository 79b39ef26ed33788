"""vkdml.Array: an array that stays on a Vulkan device between calls, as CuPy's arrays do.

Every vkdml function given an Array runs on the Array's device and gives an Array back, without waiting
for the device and without copying through the host where the operator alone computes the result;
numpy arrays in give numpy arrays out, as before. Reading an Array (`.numpy()`, `np.asarray`, printing)
waits for the work that writes it. Its memory is a buffer of the device's pool (Device.cache_info()),
returned there when the Array and every numpy view of it are gone.
"""

import numpy as _np

from ._devices import as_device, native_device_call
from ._errors import _native, invalid


class Array:
    """An n-dimensional array in a Vulkan device's memory (C order, one of vkdml's 11 types); made by
    vkdml.asarray and returned by every vkdml function given one.

    Its memory is host-visible (mapped): `.numpy()`, `np.asarray(a)` and DLPack give that memory as a
    numpy array without a copy, once the device is done with it. Such a view is the Array's memory, not a
    snapshot: a later call with `out=` this Array changes it, and reading or writing the view while vkdml
    work uses the Array is a race (as with a torch tensor in use); `np.array(a)`, `np.copy(a)` and
    `.get()` copy. vkdml itself never writes to an Array unless it is a call's `out=`.

    Operators and numpy's ufuncs (`a + 1`, `a == b`, `np.exp(a)`, `bool(a)`, `int(a)`) run on the host,
    through numpy, after waiting, and give numpy results; vkdml's functions are what runs on the device."""

    __slots__ = ("_native", "_device")
    __hash__ = None

    def __init__(self, native, device):
        self._native = native
        self._device = device

    @property
    def shape(self):
        """The sizes, outermost first (a tuple)."""
        return self._native.shape

    @property
    def dtype(self):
        """The numpy dtype of the elements."""
        return self._native.dtype

    @property
    def ndim(self):
        return len(self._native.shape)

    @property
    def size(self):
        """The number of elements."""
        return int(_np.prod(self._native.shape, dtype=_np.int64))

    @property
    def itemsize(self):
        return self._native.dtype.itemsize

    @property
    def nbytes(self):
        return self._native.nbytes

    @property
    def device(self):
        """The vkdml.Device it lives on."""
        return self._device

    @property
    def ready(self):
        """Whether the work that writes or reads it is done (reading it would not wait)."""
        return self._native.ready

    def wait(self):
        """Blocks until the work that writes or reads this Array is done (as CuPy's stream
        synchronize); returns the Array."""
        native_device_call(self._device, self._native.wait)
        return self

    def numpy(self):
        """The elements as a numpy array sharing this Array's memory (no copy), after waiting for the work
        that writes them. The view keeps the memory alive."""
        return native_device_call(self._device, self._native.host)

    def get(self):
        """A numpy copy of the elements (CuPy's name)."""
        return self.numpy().copy()

    def __dlpack__(self, stream=None):
        """The elements as a DLPack capsule (kDLCPU: the mapped memory, no copy), after waiting for the
        work that writes them: numpy.from_dlpack(a), torch.from_dlpack(a) and other DLPack consumers
        read it in place. `stream` must be None (a CPU tensor has no stream)."""
        if stream is not None:
            raise invalid("__dlpack__: stream must be None for a kDLCPU tensor")
        return native_device_call(self._device, self._native.dlpack)

    def __dlpack_device__(self):
        """(kDLCPU, 0): the memory is host-visible and mapped."""
        return (1, 0)

    def __array__(self, dtype=None, copy=None):
        view = self.numpy()
        if copy:
            return view.astype(view.dtype if dtype is None else dtype, copy=True)
        if dtype is None or _np.dtype(dtype) == view.dtype:
            return view
        if copy is False:
            raise ValueError(f"converting a vkdml.Array of {view.dtype} to {_np.dtype(dtype)} needs a copy")
        return view.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """numpy's ufuncs on Arrays: on the host, on their memory (after waiting), numpy results."""
        inputs = tuple(x.numpy() if isinstance(x, Array) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.numpy() if isinstance(x, Array) else x for x in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)

    def _host_op(name):  # noqa: N805 (a helper that makes methods)
        def op(self, *others):
            return getattr(self.numpy(), name)(*(x.numpy() if isinstance(x, Array) else x for x in others))
        op.__name__ = name
        return op

    for _name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__",
                  "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__floordiv__",
                  "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__neg__", "__pos__",
                  "__abs__", "__bool__", "__int__", "__float__", "__index__", "__complex__", "__and__",
                  "__or__", "__xor__", "__invert__", "__lshift__", "__rshift__"):
        locals()[_name] = _host_op(_name)
    del _name, _host_op

    def reshape(self, *shape):
        """The same memory under another shape of as many elements (no copy); one size may be -1."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(n) for n in shape)
        known = int(_np.prod([n for n in shape if n != -1], dtype=_np.int64))
        if shape.count(-1) == 1 and known > 0 and self.size % known == 0:
            shape = tuple(self.size // known if n == -1 else n for n in shape)
        if any(n < 0 for n in shape) or int(_np.prod(shape, dtype=_np.int64)) != self.size:
            raise invalid(f"cannot reshape an Array of size {self.size} into shape {shape}")
        return Array(self._native.reshape(list(shape)), self._device)

    def astype(self, dtype):
        """The elements converted to `dtype` (numpy's 'unsafe' casting), in a new Array; the conversion
        runs on the host."""
        dt = _np.dtype(dtype)
        if dt == self.dtype:
            return self
        return asarray(self.numpy().astype(dt), device=self._device)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d Array")
        return self.shape[0]

    def __getitem__(self, key):
        """Contiguous slices along the first axis (a[i], a[i:j]) as a new Array: a copy through the host."""
        if not self.shape:
            raise IndexError("a 0-d Array has no index")
        if isinstance(key, tuple) or not isinstance(key, (int, slice, _np.integer)):
            raise TypeError("an Array takes one integer or one slice (along its first axis)")
        if isinstance(key, slice) and key.step not in (None, 1):
            raise TypeError("an Array takes contiguous slices only (step 1)")
        return asarray(self.numpy()[key], device=self._device)

    def __repr__(self):
        text = _np.array2string(self.numpy(), separator=", ", prefix="vkdml.Array(")
        return f"vkdml.Array({text}, dtype={self.dtype}, device={self._device.name!r})"

    def __str__(self):
        return str(self.numpy())


def asarray(a, dtype=None, *, device=None):
    """`a` as a vkdml.Array on `device` (default: the default device): an Array on that device is
    returned as it is (converted when `dtype` differs); anything else goes through numpy.asarray
    (with `dtype`) and is copied to the device. Types: vkdml's 11 (bool is refused: convert it to
    uint8 first)."""
    from ._arguments import vkdml_dtype
    dev = as_device(device if device is not None or not isinstance(a, Array) else a.device)
    if isinstance(a, Array):
        if a.device._handle is not dev._handle:
            a = a.numpy()
        else:
            return a if dtype is None else a.astype(vkdml_dtype(dtype))
    arr = _np.asarray(a, dtype=dtype)
    dt = vkdml_dtype(arr.dtype)
    arr = _np.asarray(arr, dtype=dt, order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    return Array(native_device_call(dev, _native.to_device, dev._handle, arr), dev)
