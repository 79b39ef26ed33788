// SPEC §2 rule 9: the caller's bindings of a compiled operator, checked before anything is recorded:
// counts, each range against its tensor (or the plan's temporary bytes), overlaps. Each error names the
// operator, the binding and the rule.
#pragma once

#include "front/operator_state.hpp"

#include <functional>

namespace vkdml::detail {

/// The bytes of memory a buffer needs (vkGetBufferMemoryRequirements' size): the one thing rule 9 asks
/// of the device, asked only of a binding that passed the checks before it.
using BufferMemorySize = std::function<VkDeviceSize(VkBuffer)>;

/// Whether two bindings' ranges share a byte of one buffer.
bool overlaps(const BufferBinding& a, const BufferBinding& b);

/// SPEC §2 rule 9 for the caller's bindings of `s`, in this order: counts, inputs, outputs, temporary,
/// overlaps (only a cumulative operator's byte-identical in-place pair with equal strides may overlap).
Status validate_bindings(const CompiledState& s, const Bindings& b, const BufferMemorySize& memory_size);

}  // namespace vkdml::detail
