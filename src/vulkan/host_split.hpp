// execute() in parts along an axis the operator keeps: for tensors too large for buffers of their own
// whose lines lie far apart in memory (host_stream.hpp says why windows do not serve those).
//
// A part is a slab of the input along one kept axis (any axis but a scan's, any axis a reduction does not
// reduce) gathered into a packed host array, run through vkdml::execute as an operator of its own (which
// may cut it again), and its packed results scattered into the caller's outputs by their strides (a
// selection's index output too): bytes between an output's elements keep their values. No element's result
// depends on another part, so each is what one call gives (the association of a line is a function of its own
// element indices).
#pragma once

#include "front/operator_state.hpp"

#include <optional>
#include <span>

namespace vkdml::detail {

/// Whether two host byte ranges share a byte (the host path's test for an input that is an output too).
bool bytes_overlap(std::span<const std::byte> a, std::span<const std::byte> b);

/// Runs `op` (one input, one output or, for a selection's index output, two; arrays checked by execute()) in
/// parts along the kept axis of more than one element with the largest input stride: at most half the axis
/// each, each part's input and output at most a quarter of the host-visible heap and one allocation, and its
/// lines within one window where a part of one index allows. nullopt when `op` keeps no axis of more than one
/// element. Errors: out_of_memory when host memory for a part runs out; those of execute() on each part,
/// prefixed with the axis ("execute: OP: in parts along axis k: ...").
std::optional<Status> execute_split(const Device& device, const OperatorState& op,
                                    std::span<const std::span<const std::byte>> inputs,
                                    std::span<const std::span<std::byte>> outputs, DML_EXECUTION_FLAGS flags);

}  // namespace vkdml::detail
