// One dispatch of a compiled plan, recorded on its own: the host path's streamed execution
// (host_stream.cpp) records each segment of each pass in a command buffer of its own.
#pragma once

#include "front/operator_state.hpp"

#include <array>

namespace vkdml::detail {

/// Records segment `segment` of pass `pass` of `state`'s plan: the pass's pipeline (never its in-place
/// variant), binding i seen through the segment's window of `regions[i]` as record() sees it (a region's
/// offset may wrap below zero: the window is then that far into the buffer), its push constants and its
/// workgroups. No barrier. Fails as record() does when a window exceeds maxStorageBufferRange.
Status record_segment(const CompiledState& state, VkCommandBuffer cmd, size_t pass, const Segment& segment,
                      const std::array<BufferBinding, kBindingCount>& regions);

}  // namespace vkdml::detail
