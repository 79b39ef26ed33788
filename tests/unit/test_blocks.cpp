// The serial kernels' vector blocks (src/core/blocks.cpp): each kind taken by the shape built for it, with
// its exact layout; and for random shapes, the blocks read (and, for scans, write) every element of the
// problem exactly once — checked by expanding them back into elements.
#include <catch2/catch.hpp>

#include "core/blocks.hpp"

#include <map>
#include <random>
#include <vector>

using vkdml::detail::BlockRules;
using vkdml::detail::Blocks;
using vkdml::detail::Dim;
using vkdml::detail::Problem;

namespace {

constexpr BlockRules kScan{4, 16, true, true};
constexpr BlockRules kReduce{4, 16, false, false};

Problem packed_scan(std::vector<uint32_t> sizes, uint32_t axis) {
    std::vector<uint32_t> strides(sizes.size());
    uint32_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = s;
        s *= sizes[i];
    }
    return vkdml::detail::lower_scan(sizes, strides, strides, axis);
}

Problem packed_reduce(std::vector<uint32_t> sizes, uint32_t axis) {
    std::vector<uint32_t> in(sizes.size()), out(sizes.size());
    uint32_t s = 1, o = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        in[i] = s;
        out[i] = o;
        s *= sizes[i];
        if (i != axis) o *= sizes[i];
    }
    bool reduced[8] = {};
    reduced[axis] = true;
    return vkdml::detail::lower_reduce(sizes, in, out, std::span<const bool>(reduced, sizes.size()));
}

void check_blocks(const Blocks& b, uint32_t k, uint32_t f, bool axis_inner, std::vector<Dim> kept,
                  std::vector<Dim> line) {
    CHECK(b.k == k);
    CHECK(b.f == f);
    CHECK(b.axis_inner == axis_inner);
    CHECK(b.layout.kept == kept);
    CHECK(b.layout.line == line);
}

/// How many times each element offset is visited by the problem's lines and positions, on one side;
/// with `w` > 0 the problem counts vectors of w elements, k of them per position.
std::map<uint64_t, int> visits(const Problem& p, bool output, uint32_t w, uint32_t k) {
    std::map<uint64_t, int> count;
    for (uint64_t g = 0; g < p.lines(); ++g) {
        uint64_t base = 0, rest = g;
        for (size_t i = p.kept.size(); i-- > 0;) {
            base += rest % p.kept[i].size * (output ? p.kept[i].stride_out : p.kept[i].stride_in);
            rest /= p.kept[i].size;
        }
        for (uint64_t q = 0; q < p.line_length(); ++q) {
            uint64_t off = base, r = q;
            for (size_t i = p.line.size(); i-- > 0;) {
                off += r % p.line[i].size * (output ? p.line[i].stride_out : p.line[i].stride_in);
                r /= p.line[i].size;
            }
            if (w == 0) {
                ++count[off];
                continue;
            }
            for (uint64_t e = 0; e < uint64_t(w) * k; ++e) ++count[off * w + e];
        }
    }
    return count;
}

}  // namespace

TEST_CASE("block kinds of scans: along the axis, across fibers, side by side, whole rows", "[unit]") {
    check_blocks(block_layout(packed_scan({3, 64}, 1), 4, kScan), 4, 1, true, {{3, 16, 16}}, {{4, 4, 4}});
    check_blocks(block_layout(packed_scan({40, 16}, 0), 4, kScan), 4, 16, false, {{1, 4, 4}}, {{40, 4, 4}});
    check_blocks(block_layout(packed_scan({300, 2}, 0), 4, kScan), 3, 2, false, {}, {{50, 3, 3}});
    // Whole rows: up to 16 vectors, 16 rows of 3 in 12 vectors.
    check_blocks(block_layout(packed_scan({64, 3}, 1), 4, kScan), 12, 16, true, {{4, 12, 12}}, {{1, 12, 12}});
    // A short row that one block along it would hold whole: blocks of 8 such rows instead.
    check_blocks(block_layout(packed_scan({64, 8}, 1), 4, kScan), 16, 8, true, {{8, 16, 16}}, {{1, 16, 16}});
    // float16 scans: blocks of one vector.
    check_blocks(block_layout(packed_scan({3, 64}, 1), 4, {1, 1, true, true}), 1, 1, true, {{3, 16, 16}},
                 {{16, 1, 1}});
    // 64-bit types: vectors of 2.
    check_blocks(block_layout(packed_scan({3, 64}, 1), 2, kScan), 4, 1, true, {{3, 32, 32}}, {{8, 4, 4}});
    // No kind fits rows of 7: element by element, the problem unchanged.
    const Problem odd = packed_scan({5, 7}, 1);
    check_blocks(block_layout(odd, 4, kScan), 0, 1, true, odd.kept, odd.line);
}

TEST_CASE("block kinds of reductions: along the reduced axis, across outputs, whole rows", "[unit]") {
    check_blocks(block_layout(packed_reduce({3, 64}, 1), 4, kReduce), 4, 1, true, {{3, 16, 1}}, {{4, 4, 0}});
    check_blocks(block_layout(packed_reduce({40, 16}, 0), 4, kReduce), 4, 16, false, {{1, 4, 16}},
                 {{40, 4, 0}});
    // Whole rows: up to 16 vectors, 16 rows of 3 in 12 vectors (fewer, larger items).
    check_blocks(block_layout(packed_reduce({64, 3}, 1), 4, kReduce), 12, 16, true, {{4, 12, 16}},
                 {{1, 12, 0}});
    // A short line that one block along it would hold whole: blocks of 8 such rows instead.
    check_blocks(block_layout(packed_reduce({64, 8}, 1), 4, kReduce), 16, 8, true, {{8, 16, 8}},
                 {{1, 16, 0}});
    // Reductions have no side-by-side kind: two outputs of 300 elements each, axis outside, run plainly.
    const Problem pair = packed_reduce({300, 2}, 0);
    check_blocks(block_layout(pair, 4, kReduce), 0, 1, true, pair.kept, pair.line);
    // A copy (no reduced axis) is never blocked.
    const std::vector<uint32_t> sizes{8, 8}, strides{8, 1};
    const bool none[2] = {false, false};
    const Problem copy = vkdml::detail::lower_reduce(sizes, strides, strides, std::span<const bool>(none, 2));
    CHECK(block_layout(copy, 4, kReduce).k == 0);
}

TEST_CASE("blocks read every element exactly once, for random shapes", "[unit]") {
    std::mt19937 rng(7);
    const uint32_t sizes_pool[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24};
    int blocked = 0;
    for (int trial = 0; trial < 600; ++trial) {
        const size_t rank = 1 + rng() % 3;
        std::vector<uint32_t> sizes(rank);
        for (auto& s : sizes) s = sizes_pool[rng() % std::size(sizes_pool)];
        const auto axis = static_cast<uint32_t>(rng() % rank);
        const uint32_t w = rng() % 2 ? 4 : 2;
        INFO("trial " << trial << " axis " << axis << " w " << w);
        const Problem scan = packed_scan(sizes, axis);
        const Blocks s = block_layout(scan, w, kScan);
        if (s.k > 0) {
            ++blocked;
            CHECK(visits(s.layout, false, w, s.k) == visits(scan, false, 0, 0));
            CHECK(visits(s.layout, true, w, s.k) == visits(scan, true, 0, 0));
        }
        const Problem reduce = packed_reduce(sizes, axis);
        const Blocks r = block_layout(reduce, w, kReduce);
        if (r.k > 0) {
            ++blocked;
            CHECK(visits(r.layout, false, w, r.k) == visits(reduce, false, 0, 0));
            CHECK(r.layout.lines() * r.f == reduce.lines());  // f outputs per item
        }
    }
    CHECK(blocked > 300);  // the sweep exercises the blocked kinds, not just the fallback
}
