// Cutting a pass into dispatches that fit the device: each binding seen through a window of at most
// maxStorageBufferRange bytes, each grid within maxComputeWorkGroupCount.
//
// Why windows. A binding may be larger than maxStorageBufferRange (128 MiB on lavapipe; 4 GiB − 1 at
// most anywhere), and a tensor of 2^32 − 1 elements is bigger than any range. The alternatives were
// buffer device addresses and several descriptors per binding. Device addresses need the application
// to create every buffer with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT on device-address memory (which
// the library cannot even check on a VkBuffer it did not make), the bufferDeviceAddress feature
// (optional before Vulkan 1.3) and 64-bit address arithmetic per element. Descriptor arrays run out:
// push descriptors stop at 32 per set and lavapipe allows 32 storage buffers per stage. Windows need
// nothing: a pass's work items are numbered so that a run of consecutive items touches a compact
// range of each binding (Access), and record() binds, per run, only that range. A tensor that fits is
// one run: no cost. Inside a window every offset is below 2^32 elements, so the kernels keep 32-bit
// index arithmetic: they compute offsets modulo 2^32 and the window's base word (negative, wrapped)
// brings them back into the window exactly.
#pragma once

#include "core/plan.hpp"

#include <span>

namespace vkdml::detail {

/// Bytes a window may span before its start is aligned down (maxStorageBufferRange less the alignment).
uint64_t window_bytes(const DeviceInfo& info);

/// Exact smallest and largest Σ coordinate·stride over the row-major indices first..last (inclusive)
/// of `dims`. Empty dims: {0, 0}.
ElementRange row_major_bounds(std::span<const AccessDim> dims, uint64_t first, uint64_t last);

/// The longest chunk (in line positions) that fits one window wherever it starts: any run of that
/// many consecutive positions of `line`, plus `extent` − 1 elements, spans at most `window` bytes.
/// At least 1; UINT64_MAX when the whole line fits.
uint64_t max_chunk_in_window(std::span<const AccessDim> line, uint32_t element_bytes, uint32_t extent,
                             uint64_t window);

/// Element range of one binding touched by the items first..last (inclusive) of a pass.
ElementRange touched(const Pass& pass, const Access& access, uint64_t first, uint64_t last);

/// Most dispatches one pass may be cut into. 32 GiB, the largest DirectML tensor, is 256 windows of
/// Vulkan's minimum maxStorageBufferRange (128 MiB); only far smaller DeviceOverrides::limits come near
/// this, and the cap keeps planning and recording bounded there.
inline constexpr size_t kMaxSegments = 16384;

/// Fills pass.segments: the fewest runs of consecutive items, in order, whose touched ranges fit a
/// window for every binding and whose workgroups fit one dispatch.
Status cut_into_segments(const DeviceInfo& info, Pass& pass);

}  // namespace vkdml::detail
