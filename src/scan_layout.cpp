// Canonical scan view (see scan_layout.hpp).
#include "scan_layout.hpp"

#include <algorithm>

namespace vkdml::detail {

uint64_t ScanLayout::fibers() const {
    uint64_t f = 1;
    for (const auto& d : others) f *= d.size;
    return f;
}

bool ScanLayout::axis_innermost() const {
    return std::all_of(others.begin(), others.end(),
                       [&](const ScanDim& d) { return d.stride_out > axis_out; });
}

ScanLayout make_scan_layout(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                            std::span<const uint32_t> strides_out, uint32_t axis) {
    ScanLayout v;
    v.len = sizes[axis];
    v.axis_in = strides_in[axis];
    v.axis_out = strides_out[axis];
    std::vector<ScanDim> dims;
    for (size_t i = 0; i < sizes.size(); ++i)
        if (i != axis && sizes[i] > 1) dims.push_back({sizes[i], strides_in[i], strides_out[i]});
    std::stable_sort(dims.begin(), dims.end(),
                     [](const ScanDim& a, const ScanDim& b) { return a.stride_out > b.stride_out; });
    for (const auto& d : dims) {
        if (!v.others.empty()) {
            ScanDim& outer = v.others.back();
            if (uint64_t(outer.stride_in) == uint64_t(d.stride_in) * d.size &&
                uint64_t(outer.stride_out) == uint64_t(d.stride_out) * d.size) {
                outer = {outer.size * d.size, d.stride_in, d.stride_out};
                continue;
            }
        }
        v.others.push_back(d);
    }
    return v;
}

}  // namespace vkdml::detail
