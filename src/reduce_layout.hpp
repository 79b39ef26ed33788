// The canonical view of a reduction: the kept dimensions (one output per combination) and the reduced
// dimensions (folded into each output), size-1 ones dropped and neighbours merged where their strides
// make them one. Kept dimensions are ordered slowest-first by input stride, so neighbouring outputs
// read neighbouring memory where they can; reduced dimensions keep ascending axis order, because the
// arg functions' index is the row-major position over them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkdml::detail {

struct KeptDim {
    uint32_t size;
    uint32_t stride_in;
    uint32_t stride_out;
};

struct ReducedDim {
    uint32_t size;
    uint32_t stride_in;
};

struct ReduceLayout {
    std::vector<KeptDim> kept;
    std::vector<ReducedDim> reduced;
    uint64_t outputs() const;  ///< product of the kept sizes
    uint64_t n() const;        ///< product of the reduced sizes: elements folded per output
    /// True when consecutive reduced elements are closer in memory than consecutive outputs, so a
    /// workgroup cooperating on one output reads contiguous memory.
    bool reduced_innermost() const;
};

/// `reduced[i]` tells whether dimension i is one of the reduced axes.
ReduceLayout make_reduce_layout(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                                std::span<const uint32_t> strides_out, std::span<const bool> reduced);

}  // namespace vkdml::detail
