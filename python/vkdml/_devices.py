"""Vulkan devices: choosing one, the handles shared per device, and their operator caches."""

import threading as _threading

from ._errors import DeviceLost, Error, InvalidArgument, NoDevice, _native, native_call


def run(device, function, *args):
    """An operator call `function(handle, *args)` on `device`; a lost device is dropped from the
    shared handles."""
    dev = as_device(device)
    return native_device_call(dev, function, dev._handle, *args)


def native_device_call(dev, function, *args):
    """native_call(function, *args) for work on the Device `dev`; a lost device is dropped from the
    shared handles."""
    try:
        return native_call(function, *args)
    except DeviceLost:
        with Device._lock:
            for table in (Device._by_selector, Device._by_index):
                for key in [k for k, h in table.items() if h is dev._handle]:
                    del table[key]
        raise


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
            self._handle = native_call(_native.open_device, key)
            return
        with Device._lock:
            handle = Device._by_selector.get(key)
            if handle is None or handle.lost:
                handle = native_call(_native.open_device, key)
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
    def policy_rows(self):
        """The policy rows vkdml plans with on the device (Device::policy_rows): 'cooperative-gpu' on a GPU
        whose subgroups can be whole, 'serial-gpu' on one without, 'serial-cpu' on lavapipe."""
        return self._handle.policy_rows

    @property
    def lost(self):
        """Whether the device was lost (vkdml.DeviceLost): it then refuses all work."""
        return self._handle.lost

    def cache_info(self):
        """The device's caches. Operators: 'compiles' (operators compiled), 'hits' (calls that reused
        one), 'entries' (cached now), 'evictions', 'max_entries'. Buffers (the pool that calls and
        vkdml.Arrays take device memory from): 'bytes' and 'buffers' (idle in the pool now),
        'bytes_in_use' (lent to calls and Arrays), 'allocations', 'reuses', 'frees', 'max_bytes'."""
        return self._handle.cache_info()

    def set_cache_limits(self, max_entries=64, max_bytes=None):
        """Keeps at most `max_entries` compiled operators (the least recently used past it are freed)
        and at most `max_bytes` of idle buffers in the pool (the least recently returned past it are
        freed). Defaults: 64 operators; half the device's host-visible heap, at least 256 MiB and at
        most 1 GiB, of buffers. Compiled operators take little memory; buffers are what a repeated call of a large
        shape reuses, so that it allocates nothing."""
        if max_entries < 0 or (max_bytes is not None and max_bytes < 0):
            raise InvalidArgument("invalid_argument", "cache limits are counts and bytes: not negative")
        self._handle.set_cache_limits(int(max_entries), None if max_bytes is None else int(max_bytes))

    def clear_cache(self):
        """Frees the compiled operators and the idle buffers (those in use stay with their users)."""
        self._handle.clear_cache()

    def __repr__(self):
        return f"vkdml.Device({self.name!r})"


def devices():
    """The Vulkan devices, as dicts: index, name, type ('discrete', 'integrated', 'virtual', 'cpu',
    'other'), api_version, driver, driver_info; for those vkdml can use, also subgroup_size (with
    min_subgroup_size, max_subgroup_size and full_subgroups: see DeviceInfo), the
    limits, the optional type features and subnormals_kept (float16/float32/float64: whether the
    kernels keep subnormals of that width, DeviceInfo's denorm_preserve_*) (else 'error': why not). Devices not in use are opened
    only to be asked, and closed again. No Vulkan loader or driver: an empty list (Device() then raises
    vkdml.NoDevice saying what to install)."""
    result = []
    try:
        found = native_call(_native.enumerate)
    except NoDevice:
        return result
    for d in found:
        with Device._lock:
            handle = Device._by_index.get(d["index"])
        try:
            if handle is None:
                handle = native_call(_native.open_device, str(d["index"]))
            info = handle.info
            d = dict(info)
        except Error as e:
            d["error"] = f"{e.code}: {e.message}"
        result.append(d)
    return result


def default_device():
    """The device used where a call gives none: Device('')."""
    return Device("")


def as_device(device):
    """`device` as a Device: None is the default device, a Device itself, else a selector."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    return Device(device)


def cache_info(device=None):
    """The operator cache's counters of `device` (default: the default device): Device.cache_info()."""
    return as_device(device).cache_info()
