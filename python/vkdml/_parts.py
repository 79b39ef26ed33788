"""Arrays past the device's buffer limits, run in parts.

The host path gives each tensor one device buffer, so an array larger than maxMemoryAllocationSize (or
than a third of the host-visible heap, which also holds the output and the temporary buffer) cannot go
in one call. Such an array is cut along an axis the operator does not work along — any axis but a
scan's, any axis a reduction keeps — into parts that fit, each run on its own (contiguous) and the
results joined: the same values one call would give, since no element's result depends on another
part. An array with no such axis left is refused with what to do instead.
"""

import numpy as _np

from ._devices import as_device
from ._errors import OutOfMemory


def part_bytes(device):
    """The bytes one input or output may take on `device` (Device._part_bytes overrides it)."""
    if device._part_bytes is not None:
        return device._part_bytes
    info = device.info
    return min(info["max_memory_allocation_size"], info["max_buffer_size"], info["host_visible_heap"] // 3)


def in_parts(run_one, arr, kept_axes, out_bytes, device, what, advice):
    """run_one(part) for `arr` cut along the axes in `kept_axes` (the result has the part's extent on
    them) until each part's input and output (out_bytes(shape)) fit in part_bytes, the results joined."""
    dev = as_device(device)
    budget = part_bytes(dev)

    def run(part):
        need = max(part.nbytes, out_bytes(part.shape))
        if need <= budget:
            return run_one(part, dev)
        free = [i for i in kept_axes if part.shape[i] > 1]
        if not free:
            info = dev.info
            limit = ("set by Device._part_bytes" if dev._part_bytes is not None else
                     f"the least of maxMemoryAllocationSize {info['max_memory_allocation_size']}, "
                     f"maxBufferSize {info['max_buffer_size']} and a third of the host-visible heap "
                     f"{info['host_visible_heap']}")
            raise OutOfMemory("out_of_memory", (
                f"{what}: the array needs {need} bytes in one device buffer, more than {dev.name} takes "
                f"({budget} bytes, {limit}). vkdml splits an array along the axes the operation keeps, and "
                f"this one has no such axis of more than one element; {advice}"))
        axis = max(free, key=lambda i: part.shape[i])
        count = min(part.shape[axis], -(-need // budget))
        pieces = _np.array_split(part, count, axis=axis)
        return _np.concatenate([run(_np.ascontiguousarray(p)) for p in pieces], axis=axis)

    return run(arr)
