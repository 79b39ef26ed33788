"""vkdml's errors as Python exceptions, and the call into the native module that raises them."""

import numpy as _np

from ._load import load_native

_native = load_native()


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


class AxisError(InvalidArgument, getattr(getattr(_np, "exceptions", _np), "AxisError")):
    """An axis out of range: vkdml's InvalidArgument and numpy's AxisError (so a ValueError and an
    IndexError), as numpy raises for the same call."""

    def __init__(self, message):
        InvalidArgument.__init__(self, "invalid_argument", message)
        self.axis = self.ndim = None  # numpy's AxisError fields; the message says it all
        self._msg = message

    def __str__(self):
        return self.message


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


_BY_CODE = {
    "invalid_descriptor": InvalidDescriptor, "unsupported_type": UnsupportedType,
    "unsupported_device": UnsupportedDevice, "invalid_binding": InvalidBinding, "no_device": NoDevice,
    "out_of_memory": OutOfMemory, "device_lost": DeviceLost, "vulkan_error": VulkanError,
    "invalid_argument": InvalidArgument,
}


def error(code, message):
    """The exception for vkdml's error `code`."""
    return _BY_CODE.get(code, Error)(code, message)


def invalid(message):
    """An InvalidArgument with `message`."""
    return InvalidArgument("invalid_argument", message)


def native_call(function, *args):
    """`function(*args)` of the native module, its errors raised as vkdml's exceptions."""
    try:
        return function(*args)
    except _native.NativeError as e:
        raise error(*e.args) from None
