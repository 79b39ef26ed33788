// Lowering to lines (see problem.hpp).
#include "core/problem.hpp"

#include <algorithm>

namespace vkdml::detail {

namespace {

uint64_t product(const std::vector<Dim>& dims) {
    uint64_t p = 1;
    for (const Dim& d : dims) p *= d.size;
    return p;
}

/// The kept dimensions (not `skip`, size above 1) sorted slowest-first by `key`, merged.
template <class Key, class Skip>
std::vector<Dim> kept_dims(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                           std::span<const uint32_t> strides_out, Skip skip, Key key) {
    std::vector<Dim> dims;
    for (size_t i = 0; i < sizes.size(); ++i)
        if (!skip(i) && sizes[i] > 1) dims.push_back({sizes[i], strides_in[i], strides_out[i]});
    std::stable_sort(dims.begin(), dims.end(), [&](const Dim& a, const Dim& b) { return key(a) > key(b); });
    std::vector<Dim> merged;
    for (const Dim& d : dims) append_merged(merged, d);
    return merged;
}

}  // namespace

void append_merged(std::vector<Dim>& dims, Dim d) {
    if (!dims.empty()) {
        Dim& outer = dims.back();
        if (uint64_t(outer.stride_in) == uint64_t(d.stride_in) * d.size &&
            uint64_t(outer.stride_out) == uint64_t(d.stride_out) * d.size) {
            outer = {outer.size * d.size, d.stride_in, d.stride_out};
            return;
        }
    }
    dims.push_back(d);
}

uint64_t Problem::lines() const {
    return product(kept);
}

uint64_t Problem::line_length() const {
    return product(line);
}

bool Problem::axis_innermost() const {
    return std::all_of(kept.begin(), kept.end(),
                       [&](const Dim& d) { return d.stride_out > line[0].stride_out; });
}

bool Problem::line_innermost() const {
    if (line.empty()) return false;
    if (kept.empty()) return true;
    return line.back().stride_in <= kept.back().stride_in;
}

Problem lower_scan(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                   std::span<const uint32_t> strides_out, uint32_t axis) {
    Problem p;
    p.line = {{sizes[axis], strides_in[axis], strides_out[axis]}};
    p.kept = kept_dims(
        sizes, strides_in, strides_out, [&](size_t i) { return i == axis; },
        [](const Dim& d) { return d.stride_out; });
    return p;
}

Problem lower_reduce(std::span<const uint32_t> sizes, std::span<const uint32_t> strides_in,
                     std::span<const uint32_t> strides_out, std::span<const bool> reduced) {
    Problem p;
    for (size_t i = 0; i < sizes.size(); ++i)
        if (reduced[i] && sizes[i] > 1) append_merged(p.line, {sizes[i], strides_in[i], 0});
    p.kept = kept_dims(
        sizes, strides_in, strides_out, [&](size_t i) { return reduced[i]; },
        [](const Dim& d) { return d.stride_in; });
    return p;
}

}  // namespace vkdml::detail
