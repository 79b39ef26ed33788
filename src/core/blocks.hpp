// The serial kernels' vector blocks (scan_serial, reduce_serial's first pass): a problem re-read in
// blocks of k vectors of w elements, so that one load brings w·k elements. A block holds w·k / f steps
// along the line of f neighbouring lines. The kinds, in order of preference: whole vectors along a
// contiguous line; vectors across neighbouring lines; (scans) a few fibers side by side, the axis
// outside them; whole short rows back to back.
#pragma once

#include "core/problem.hpp"

namespace vkdml::detail {

/// What the kernel reading the blocks allows.
struct BlockRules {
    uint32_t max_k = 4;         ///< vectors per block at most
    uint32_t max_k_rows = 4;    ///< vectors per block of whole rows at most (more rows: fewer items)
    bool vector_out = false;    ///< the output is written in the same blocks (scans); else one value per
                                ///< line (reductions), whose output strides stay in elements
    bool side_by_side = false;  ///< the "few fibers side by side" kind (scans)
};

/// How a kernel sees a problem (its VEC_K, VEC_F and, for scans, VEC_AXIS_INNER): element by element
/// (k = 0), or blocks of k vectors holding w·k / f steps of f lines, `layout` counting blocks along
/// the line and vectors in the input strides (and the output's, with vector_out). A block across
/// lines (!axis_inner) holds step j / f of line j % f at element j, else step j % (w·k / f) of line
/// j / (w·k / f).
struct Blocks {
    uint32_t k = 0, f = 1;
    bool axis_inner = true;
    Problem layout;
    uint32_t lanes() const { return k == 0 ? 1 : f; }  ///< lines per kernel item
};

/// The preferred blocks of w-element vectors `p` allows, or k = 0 (element by element).
Blocks block_layout(const Problem& p, uint32_t w, const BlockRules& rules);

/// The largest k of {16, 12, 8, 6, 4, 3, 2, 1} up to max_k (multiples of 3 only with `three`) for which
/// ok(k) holds, 0 if none.
template <class F>
uint32_t largest_k(uint32_t max_k, bool three, F&& ok) {
    for (uint32_t k : {16u, 12u, 8u, 6u, 4u, 3u, 2u, 1u})
        if (k <= max_k && (k % 3 != 0 || three) && ok(k)) return k;
    return 0;
}

}  // namespace vkdml::detail
