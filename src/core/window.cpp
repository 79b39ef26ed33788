// Windows and dispatch cutting (see window.hpp).
#include "core/window.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace vkdml::detail {

namespace {

/// Folds a 1-D count of workgroups into an x*y grid within the device limits; returns false if even
/// that does not fit. Kernels unfold it with gl_NumWorkGroups.x (work_items.glsl).
bool fold_groups(const DeviceInfo& info, uint64_t groups, uint32_t& x, uint32_t& y) {
    uint64_t max_x = std::max<uint32_t>(1, info.max_workgroup_count[0]);
    uint64_t gx = std::min<uint64_t>(std::max<uint64_t>(groups, 1), max_x);
    uint64_t gy = ceil_div(std::max<uint64_t>(groups, 1), gx);
    if (gy > info.max_workgroup_count[1]) return false;
    x = static_cast<uint32_t>(gx);
    y = static_cast<uint32_t>(gy);
    return true;
}

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

uint64_t alignment(const DeviceInfo& info) {
    return std::max<uint64_t>(16, info.min_storage_buffer_offset_alignment);
}

/// Σ (size − 1)·|stride|: the span of a full block of dims.
uint64_t full_span(std::span<const AccessDim> dims) {
    uint64_t s = 0;
    for (const AccessDim& d : dims) s += uint64_t(d.size - 1) * uint64_t(d.stride < 0 ? -d.stride : d.stride);
    return s;
}

}  // namespace

uint64_t window_bytes(const DeviceInfo& info) {
    uint64_t a = alignment(info);
    // (Whole words: a binding then ends on a word within maxStorageBufferRange, as ANY and ALL need.)
    return info.max_storage_buffer_range > a ? (info.max_storage_buffer_range - a) / 4 * 4 : 0;
}

ElementRange row_major_bounds(std::span<const AccessDim> dims, uint64_t first, uint64_t last) {
    const size_t m = dims.size();
    if (m == 0) return {0, 0};
    // Digits of first and last, outermost first.
    std::array<uint64_t, 16> lo_d{}, hi_d{};
    for (size_t k = m; k-- > 0;) {
        lo_d[k] = first % dims[k].size;
        hi_d[k] = last % dims[k].size;
        first /= dims[k].size;
        last /= dims[k].size;
    }
    // Digit dynamic programme from the innermost digit out. State bit 1: the prefix equals first's
    // (digits may not go below first's); bit 2: it equals last's. best_* hold the extremes of the
    // suffix for each state (kNone: a state no index reaches).
    std::array<int64_t, 4> best_min{0, 0, 0, 0}, best_max{0, 0, 0, 0};
    for (size_t k = m; k-- > 0;) {
        std::array<int64_t, 4> nmin, nmax;
        for (uint32_t state = 0; state < 4; ++state) {
            bool tl = state & 1u, th = state & 2u;
            int64_t low = tl ? int64_t(lo_d[k]) : 0;
            int64_t high = th ? int64_t(hi_d[k]) : int64_t(dims[k].size) - 1;
            nmin[state] = kNone;
            nmax[state] = kNone;
            if (low > high) continue;
            const int64_t candidates[] = {low, low + 1, high - 1, high, int64_t(lo_d[k]), int64_t(hi_d[k])};
            for (int64_t d : candidates) {
                if (d < low || d > high) continue;
                uint32_t next =
                    ((tl && d == int64_t(lo_d[k])) ? 1u : 0u) | ((th && d == int64_t(hi_d[k])) ? 2u : 0u);
                if (best_min[next] == kNone) continue;
                int64_t here = d * dims[k].stride;
                int64_t mn = here + best_min[next], mx = here + best_max[next];
                if (nmin[state] == kNone || mn < nmin[state]) nmin[state] = mn;
                if (nmax[state] == kNone || mx > nmax[state]) nmax[state] = mx;
            }
        }
        best_min = nmin;
        best_max = nmax;
    }
    return {best_min[3], best_max[3]};
}

uint64_t max_chunk_in_window(std::span<const AccessDim> line, uint32_t element_bytes, uint32_t extent,
                             uint64_t window) {
    uint64_t capacity = window / element_bytes;  // elements
    if (capacity < extent) return 1;
    capacity -= extent;  // the largest offset difference a window holds
    if (full_span(line) <= capacity) return UINT64_MAX;
    if (line.size() == 1) {
        uint64_t s = uint64_t(line[0].stride < 0 ? -line[0].stride : line[0].stride);
        return capacity / s + 1;
    }
    // Several dims. A run of at most P_j positions (P_j: the product of the j innermost sizes) lies in
    // two neighbouring blocks of those dims, whose bases differ by the step of the outer index: s_j,
    // or with carries s_(j+t) − Σ (size − 1)·s over the t dims carried. Its span is at most the block's
    // span plus the largest step.
    uint64_t best = 1;
    uint64_t block = 1;
    const size_t m = line.size();
    for (size_t j = 1; j < m; ++j) {
        block *= line[m - j].size;
        std::span<const AccessDim> inner = line.subspan(m - j);
        uint64_t largest_step = 0;
        int64_t carried = 0;
        for (size_t t = m - j; t-- > 0;) {
            int64_t step = line[t].stride - carried;
            largest_step = std::max<uint64_t>(largest_step, uint64_t(step < 0 ? -step : step));
            carried += int64_t(line[t].size - 1) * line[t].stride;
        }
        if (full_span(inner) + largest_step <= capacity) best = block;
    }
    return best;
}

ElementRange touched(const Pass& pass, const Access& a, uint64_t first, uint64_t last) {
    const uint64_t G = pass.groups, C = pass.chunks;
    uint64_t g0, g1, c0, c1;
    if (pass.chunk_major) {
        c0 = first / G;
        c1 = last / G;
        g0 = c0 == c1 ? first % G : 0;
        g1 = c0 == c1 ? last % G : G - 1;
    } else {
        g0 = first / C;
        g1 = last / C;
        c0 = g0 == g1 ? first % C : 0;
        c1 = g0 == g1 ? last % C : C - 1;
    }
    uint64_t l0 = c0, l1 = c1;
    if (!a.per_chunk) {
        l0 = c0 * pass.chunk_len;
        l0 -= std::min<uint64_t>(l0, a.lead);
        l1 = std::min((c1 + 1) * pass.chunk_len, pass.line_length) - 1;
    }
    ElementRange g = row_major_bounds(a.group, g0, g1);
    ElementRange l = row_major_bounds(a.line, l0, l1);
    return {a.origin + g.lo + l.lo, a.origin + g.hi + l.hi + int64_t(a.extent) - 1};
}

Status cut_into_segments(const DeviceInfo& info, Pass& pass) {
    const uint64_t items = pass.groups * pass.chunks;
    const uint64_t window = window_bytes(info);
    const uint64_t max_groups = uint64_t(std::max<uint32_t>(1, info.max_workgroup_count[0])) *
                                std::max<uint32_t>(1, info.max_workgroup_count[1]);
    const uint64_t max_items = std::min<uint64_t>(max_groups * pass.items_per_workgroup, 0xFFFFFFFFull);
    auto fits = [&](uint64_t first, uint64_t end) {
        for (uint32_t i = 0; i < kBindingCount; ++i) {
            if (pass.bindings[i].unused) continue;
            ElementRange r = touched(pass, pass.access[i], first, end - 1);
            if (uint64_t(r.hi - r.lo + 1) * pass.bindings[i].element_bytes > window) return false;
        }
        return true;
    };
    pass.segments.clear();
    uint64_t last_length = 0;
    for (uint64_t begin = 0; begin < items;) {
        // The longest run from `begin` that fits (fits() only fails more as the run grows): `good`
        // fits, `bad` does not or passes the limit. The runs of a pass are mostly alike, so the
        // previous run's length is tried first and usually settles it in two calls.
        const uint64_t limit = std::min(items, begin + max_items);
        uint64_t good = begin + 1, bad = limit + 1;
        bool settled = false;
        if (last_length > 1) {
            const uint64_t guess = std::min(begin + last_length, limit);
            if (fits(begin, guess)) {
                good = guess;
                settled = true;
                if (guess < limit && !fits(begin, guess + 1)) bad = guess + 1;
            } else {
                bad = guess;
            }
        }
        if (!settled && !fits(begin, begin + 1))
            return make_error(ErrorCode::unsupported_device, "one work item of ", name(pass.key.kernel),
                              " spans more than this device's maxStorageBufferRange (",
                              info.max_storage_buffer_range, " bytes)");
        if (bad == limit + 1 && good < limit && fits(begin, limit)) good = limit;
        while (bad - good > 1) {
            uint64_t mid = good + (bad - good) / 2;
            (fits(begin, mid) ? good : bad) = mid;
        }
        if (pass.segments.size() == kMaxSegments)
            return make_error(ErrorCode::unsupported_device, name(pass.key.kernel), " would need more than ",
                              kMaxSegments, " dispatches through windows of ", window,
                              " bytes: the tensor is too large for this device's maxStorageBufferRange (",
                              info.max_storage_buffer_range, " bytes) and maxComputeWorkGroupCount");
        Segment s;
        s.item_begin = static_cast<uint32_t>(begin);
        s.item_end = static_cast<uint32_t>(good);
        uint64_t workgroups = ceil_div(good - begin, pass.items_per_workgroup);
        if (!fold_groups(info, workgroups, s.groups_x, s.groups_y))
            return make_error(ErrorCode::unsupported_device, "a dispatch of ", workgroups,
                              " workgroups does not fit maxComputeWorkGroupCount");
        for (uint32_t i = 0; i < kBindingCount; ++i)
            if (!pass.bindings[i].unused) s.window[i] = touched(pass, pass.access[i], begin, good - 1);
        pass.segments.push_back(s);
        last_length = good - begin;
        begin = good;
    }
    return {};
}

}  // namespace vkdml::detail
