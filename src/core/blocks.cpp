// Vector blocks of the serial kernels (see blocks.hpp).
#include "core/blocks.hpp"

#include <algorithm>

namespace vkdml::detail {

namespace {

// Lines per block at most: the kernels keep a running state per line of a block.
constexpr uint32_t kMaxLanes = 16;

struct BlockFinder {
    const Problem& p;
    uint32_t w;
    const BlockRules& rules;
    Blocks b;  ///< the blocks found so far

    /// The strides of a dimension are whole vectors (the output's only when it is read in vectors too).
    bool divisible(const Dim& d) const {
        return d.stride_in % w == 0 && (!rules.vector_out || d.stride_out % w == 0);
    }
    bool kept_divisible(size_t count) const {
        return std::all_of(p.kept.begin(), p.kept.begin() + static_cast<std::ptrdiff_t>(count),
                           [&](const Dim& d) { return divisible(d); });
    }
    void divide(Dim& d) const {
        d.stride_in /= w;
        if (rules.vector_out) d.stride_out /= w;
    }
    void divide_kept(size_t count) {
        for (size_t i = 0; i < count; ++i) divide(b.layout.kept[i]);
    }
    /// A contiguous line of one dimension (and contiguous output, for scans).
    bool contiguous_line() const {
        return p.line.size() == 1 && p.line[0].stride_in == 1 &&
               (!rules.vector_out || p.line[0].stride_out == 1);
    }
    /// The dimension of f blocked lines: out strides count blocks (scans) or elements (reductions).
    Dim blocked(uint32_t size, uint32_t f) const { return {size / f, b.k, rules.vector_out ? b.k : f}; }
    Dim blocked_line(uint32_t size) const { return {size, b.k, rules.vector_out ? b.k : 0}; }

    // Along a contiguous line: k vectors of consecutive steps.
    bool along_line() {
        if (!contiguous_line() || !kept_divisible(p.kept.size())) return false;
        const uint32_t len = p.line[0].size;
        b.k = largest_k(rules.max_k, false, [&](uint32_t k) { return len % (k * w) == 0; });
        if (b.k == 0) return false;
        b.layout.line[0] = blocked_line(len / (b.k * w));
        divide_kept(p.kept.size());
        return true;
    }

    // Across neighbouring lines: k vectors of one step of w·k lines.
    bool across_lines(const Dim& inner) {
        const bool line_divisible =
            std::all_of(p.line.begin(), p.line.end(), [&](const Dim& d) { return divisible(d); });
        if (inner.stride_in != 1 || inner.stride_out != 1 || !line_divisible) return false;
        b.k = largest_k(rules.max_k, false, [&](uint32_t k) { return inner.size % (k * w) == 0; });
        if (b.k == 0) return false;
        b.f = b.k * w;
        b.axis_inner = false;
        divide_kept(p.kept.size() - 1);
        for (Dim& d : b.layout.line) divide(d);
        b.layout.kept.back() = blocked(inner.size, b.f);
        return true;
    }

    // A few fibers side by side, the axis outside them: blocks of w·k / size steps of all of them.
    bool side_by_side(const Dim& inner) {
        const Dim axis = p.line[0];
        if (!rules.side_by_side || inner.stride_in != 1 || inner.stride_out != 1 ||
            axis.stride_in != inner.size || axis.stride_out != inner.size)
            return false;
        b.k = largest_k(rules.max_k, true, [&](uint32_t k) {
            return (k * w) % inner.size == 0 && axis.size % (k * w / inner.size) == 0;
        });
        if (b.k == 0) return false;
        b.f = inner.size;
        b.axis_inner = false;
        divide_kept(p.kept.size() - 1);
        b.layout.kept.pop_back();
        b.layout.line[0] = {axis.size / (b.k * w / b.f), b.k, b.k};
        return true;
    }

    // Short contiguous rows back to back: blocks of w·k / len whole rows.
    bool whole_rows(const Dim& inner) {
        if (!contiguous_line()) return false;
        const uint32_t len = p.line[0].size;
        if (inner.stride_in != len || inner.stride_out != (rules.vector_out ? len : 1)) return false;
        b.k = largest_k(rules.max_k_rows, true, [&](uint32_t k) {
            return (k * w) % len == 0 && k * w / len <= kMaxLanes && inner.size % (k * w / len) == 0;
        });
        if (b.k == 0) return false;
        b.f = b.k * w / len;
        divide_kept(p.kept.size() - 1);
        b.layout.kept.back() = blocked(inner.size, b.f);
        b.layout.line[0] = blocked_line(1);
        return true;
    }

    Blocks find() {
        b = Blocks{0, 1, true, p};
        if (p.line.empty()) return b;  // nothing reduced (AxisCount 0): element by element
        if (along_line()) {
            // A whole short line in one block: blocks of several such rows, where they fit, do the same
            // work in fewer items.
            const Blocks along = b;
            b = Blocks{0, 1, true, p};
            const bool rows = along.layout.line[0].size == 1 && !p.kept.empty() &&
                              kept_divisible(p.kept.size() - 1) && whole_rows(p.kept.back()) && b.f > 1;
            return rows ? b : along;
        }
        b = Blocks{0, 1, true, p};
        if (p.kept.empty() || !kept_divisible(p.kept.size() - 1)) return b;
        const Dim inner = p.kept.back();
        for (auto kind : {&BlockFinder::across_lines, &BlockFinder::side_by_side, &BlockFinder::whole_rows}) {
            if ((this->*kind)(inner)) return b;
            b = Blocks{0, 1, true, p};
        }
        return b;
    }
};

}  // namespace

Blocks block_layout(const Problem& p, uint32_t w, const BlockRules& rules) {
    return BlockFinder{p, w, rules}.find();
}

}  // namespace vkdml::detail
