// Canonical reduce view (see reduce_layout.hpp).
#include "reduce_layout.hpp"

#include <algorithm>

namespace vkdml::detail {

uint64_t ReduceLayout::outputs() const {
    uint64_t count = 1;
    for (const auto& d : kept) count *= d.size;
    return count;
}

uint64_t ReduceLayout::n() const {
    uint64_t count = 1;
    for (const auto& d : reduced) count *= d.size;
    return count;
}

bool ReduceLayout::reduced_innermost() const {
    if (reduced.empty()) return false;
    if (kept.empty()) return true;
    return reduced.back().stride_in <= kept.back().stride_in;
}

ReduceLayout make_reduce_layout(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                                std::span<const uint32_t> strides_out, std::span<const bool> reduced) {
    ReduceLayout v;
    std::vector<KeptDim> kept;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == 1) continue;
        if (!reduced[i]) {
            kept.push_back({sizes[i], strides_in[i], strides_out[i]});
            continue;
        }
        ReducedDim d{sizes[i], strides_in[i]};
        if (!v.reduced.empty() && uint64_t(v.reduced.back().stride_in) == uint64_t(d.stride_in) * d.size) {
            v.reduced.back() = {v.reduced.back().size * d.size, d.stride_in};
            continue;
        }
        v.reduced.push_back(d);
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const KeptDim& a, const KeptDim& b) { return a.stride_in > b.stride_in; });
    for (const auto& d : kept) {
        if (!v.kept.empty()) {
            KeptDim& outer = v.kept.back();
            if (uint64_t(outer.stride_in) == uint64_t(d.stride_in) * d.size &&
                uint64_t(outer.stride_out) == uint64_t(d.stride_out) * d.size) {
                outer = {outer.size * d.size, d.stride_in, d.stride_out};
                continue;
            }
        }
        v.kept.push_back(d);
    }
    return v;
}

}  // namespace vkdml::detail
