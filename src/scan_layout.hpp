// The canonical view of a scan (DESIGN "Canonical view"): one axis of length `len` with its input
// and output strides, and the other dimensions, size-1 ones dropped, ordered slowest-first by output
// stride and merged where their strides make them one. Fibers (1-D lines along the axis) are the
// row-major enumeration of the other dimensions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkdml::detail {

struct ScanDim {
    uint32_t size;
    uint32_t stride_in;
    uint32_t stride_out;
};

struct ScanLayout {
    uint32_t len = 1;
    uint32_t axis_in = 0;
    uint32_t axis_out = 0;
    std::vector<ScanDim> others;  ///< at most 7
    uint64_t fibers() const;
    /// True when the axis is the innermost dimension of the output (fibers are contiguous lines).
    bool axis_innermost() const;
};

ScanLayout make_scan_layout(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                            std::span<const uint32_t> strides_out, uint32_t axis);

}  // namespace vkdml::detail
