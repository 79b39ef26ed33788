// The host path for tensors larger than one device buffer (execute()): the plan run one dispatch at a
// time, each dispatch's windows of the caller's arrays copied into staging buffers and back.
//
// Why this way. A plan already runs tensors larger than maxStorageBufferRange as dispatches that each see
// a window of every binding (window.hpp); planned with windows no larger than one allocation, each
// dispatch needs only its windows in device memory. So the arrays stay on the host, and every dispatch is
// preceded by copying its windows in (outputs too: the bytes it does not write keep their values, and a
// later pass may read what an earlier one wrote) and followed by copying its output windows back. The
// temporary buffer (partials, tile states) stays whole on the device. The association of every float
// result is the plan's, which does not depend on the windows (docs/SPEC.md, determinism): the bits are
// those of one call.
//
// Where it does not fit. Windows cut a line into chunks of at most one window each, and a scan or
// reduction keeps a partial per chunk: lines far apart in memory (an outer axis) give a temporary buffer
// as large as the tensor. Such an operator runs in parts along an axis it keeps instead (host_split.hpp).
#pragma once

#include "front/operator_state.hpp"

#include <memory>
#include <span>

namespace vkdml::detail {

/// execute() for an operator whose tensors its own buffers cannot hold (the caller's arrays checked:
/// counts and lengths): in windows, as above, when the windowed plan's buffers fit the device; else in
/// parts along a kept axis (host_split.hpp), when it has one; else the windows' refusal: out_of_memory
/// naming the sizes (the temporary buffer past one allocation, or with the staging buffers past the
/// host-visible heap), or the planner's error. Other errors: those of execute().
Status execute_large(const Device& device, const std::shared_ptr<const OperatorState>& op,
                     std::span<const std::span<const std::byte>> inputs,
                     std::span<const std::span<std::byte>> outputs, DML_EXECUTION_FLAGS flags);

}  // namespace vkdml::detail
