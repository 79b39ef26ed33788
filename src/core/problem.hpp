// Lowering: an operator's tensors seen as the problem every planner solves — independent lines, one
// per combination of the kept dimensions, each running over the line dimensions. A scan's lines are
// its fibers (the line: the scanned axis); a reduction's are its outputs (the line: the reduced axes,
// folded in row-major order). Size-1 dimensions are dropped and neighbours merged where their strides
// make them one, so the planners see the fewest dimensions the memory allows.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

namespace vkdml::detail {

/// `size` positions, `stride_in` input elements and `stride_out` output elements apart (stride_out 0:
/// the output has no such dimension, as for a reduced one).
struct Dim {
    uint32_t size = 1;
    uint32_t stride_in = 0;
    uint32_t stride_out = 0;
    auto operator<=>(const Dim&) const = default;
};

/// Appends `d` (inner to the last of `dims`) to `dims`, or merges it into the last one when stepping
/// through both is one stride: outer stride = inner stride × inner size, on both sides.
void append_merged(std::vector<Dim>& dims, Dim d);

struct Problem {
    std::vector<Dim> kept;         ///< slowest first; lines are their row-major combinations
    std::vector<Dim> line;         ///< row-major positions along a line (a scan: exactly one, its axis)
    uint64_t lines() const;        ///< product of the kept sizes: fibers or outputs
    uint64_t line_length() const;  ///< product of the line sizes: scan length, or N
    /// True when the scan's axis is the innermost output dimension (fibers are contiguous lines).
    bool axis_innermost() const;
    /// True when consecutive line elements are closer in the input than consecutive lines, so a
    /// workgroup cooperating on one line reads contiguous memory.
    bool line_innermost() const;
};

/// A scan along `axis`: kept dimensions ordered slowest-first by output stride.
Problem lower_scan(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                   std::span<const uint32_t> strides_out, uint32_t axis);

/// A reduction over the dimensions i with reduced[i]: kept dimensions ordered slowest-first by input
/// stride (neighbouring outputs read neighbouring memory where they can); reduced dimensions keep
/// ascending axis order, because the arg functions' index is the row-major position over them.
Problem lower_reduce(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                     std::span<const uint32_t> strides_out, std::span<const bool> reduced);

}  // namespace vkdml::detail
