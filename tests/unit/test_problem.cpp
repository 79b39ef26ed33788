// Lowering (src/core/problem.cpp): the problem a planner sees visits exactly the tensor's elements, line by
// line in the same order, with the fewest dimensions — checked against enumerating the tensor itself.
#include <catch2/catch.hpp>

#include "core/problem.hpp"

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <utility>
#include <vector>

using vkdml::detail::Dim;
using vkdml::detail::Problem;

namespace {

using Line = std::vector<std::pair<uint64_t, uint64_t>>;  // (input offset, output offset) per position

/// Every line of a problem: row-major over its kept dims, positions row-major over its line dims.
std::set<Line> lines_of(const Problem& p) {
    std::set<Line> lines;
    const uint64_t n = p.lines(), len = p.line_length();
    for (uint64_t g = 0; g < n; ++g) {
        uint64_t base_in = 0, base_out = 0, rest = g;
        for (size_t i = p.kept.size(); i-- > 0;) {
            base_in += rest % p.kept[i].size * p.kept[i].stride_in;
            base_out += rest % p.kept[i].size * p.kept[i].stride_out;
            rest /= p.kept[i].size;
        }
        Line line;
        for (uint64_t q = 0; q < len; ++q) {
            uint64_t in = base_in, out = base_out, r = q;
            for (size_t i = p.line.size(); i-- > 0;) {
                in += r % p.line[i].size * p.line[i].stride_in;
                out += r % p.line[i].size * p.line[i].stride_out;
                r /= p.line[i].size;
            }
            line.push_back({in, out});
        }
        lines.insert(line);
    }
    return lines;
}

/// The same lines read off the tensor directly: one dimension per axis, nothing merged or dropped.
Problem unlowered(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& in,
                  const std::vector<uint32_t>& out, const std::vector<bool>& line_axis, bool scan) {
    Problem p;
    for (size_t i = 0; i < sizes.size(); ++i)
        (line_axis[i] ? p.line : p.kept).push_back({sizes[i], in[i], line_axis[i] && !scan ? 0 : out[i]});
    if (p.line.empty()) p.line.push_back({1, 0, 0});
    return p;
}

/// A reduced-axes mask as lower_reduce takes it.
std::array<bool, 8> mask(const std::vector<bool>& v) {
    std::array<bool, 8> m{};
    std::copy(v.begin(), v.end(), m.begin());
    return m;
}

std::vector<uint32_t> packed_strides(const std::vector<uint32_t>& sizes, const std::vector<size_t>& order) {
    std::vector<uint32_t> strides(sizes.size());
    uint32_t s = 1;
    for (size_t k = order.size(); k-- > 0;) {
        strides[order[k]] = s;
        s *= sizes[order[k]];
    }
    return strides;
}

}  // namespace

TEST_CASE("lowering merges packed dimensions and drops size-1 ones", "[unit]") {
    const std::vector<uint32_t> sizes{2, 1, 3, 4}, strides{12, 12, 4, 1};
    const Problem scan = vkdml::detail::lower_scan(sizes, strides, strides, 3);
    CHECK(scan.line == std::vector<Dim>{{4, 1, 1}});
    CHECK(scan.kept == std::vector<Dim>{{6, 4, 4}});
    CHECK(scan.axis_innermost());
    const auto reduced = mask({false, true, true, true});
    const Problem reduce = vkdml::detail::lower_reduce(sizes, strides, std::vector<uint32_t>{1, 1, 1, 1},
                                                       std::span(reduced.data(), 4));
    CHECK(reduce.line == std::vector<Dim>{{12, 1, 0}});
    CHECK(reduce.kept == std::vector<Dim>{{2, 12, 1}});
    CHECK(reduce.line_innermost());
    // Reducing axes 0 and 2: axis 1 has size 1, so they are neighbours in memory and merge.
    const auto outer = mask({true, false, true, false});
    const Problem split = vkdml::detail::lower_reduce(sizes, strides, std::vector<uint32_t>{4, 4, 4, 1},
                                                      std::span(outer.data(), 4));
    CHECK(split.line == std::vector<Dim>{{6, 4, 0}});
    CHECK(split.kept == std::vector<Dim>{{4, 1, 1}});
    CHECK_FALSE(split.line_innermost());
    // A reduction over nothing (AxisCount 0) is a copy: one position per line.
    const auto none = mask({false, false, false, false});
    const Problem copy = vkdml::detail::lower_reduce(sizes, strides, strides, std::span(none.data(), 4));
    CHECK(copy.line.empty());
    CHECK(copy.line_length() == 1);
    CHECK(copy.lines() == 24);
    // Reducing axes 0 and 2 of {2, 3, 4}: not neighbours, kept in axis order (the arg index is row-major
    // over them).
    const std::vector<uint32_t> s3{2, 3, 4}, t3{12, 4, 1};
    const auto ends = mask({true, false, true});
    const Problem apart =
        vkdml::detail::lower_reduce(s3, t3, std::vector<uint32_t>{3, 1, 3}, std::span(ends.data(), 3));
    CHECK(apart.line == std::vector<Dim>{{2, 12, 0}, {4, 1, 0}});
    CHECK(apart.kept == std::vector<Dim>{{3, 4, 1}});
}

TEST_CASE("lowering visits the tensor's lines, in order, for random shapes and layouts", "[unit]") {
    std::mt19937 rng(19);
    for (int trial = 0; trial < 400; ++trial) {
        const size_t rank = 1 + rng() % 5;
        std::vector<uint32_t> sizes(rank);
        for (auto& s : sizes) s = 1 + rng() % 4;
        std::vector<size_t> order_in(rank), order_out(rank);
        for (size_t i = 0; i < rank; ++i) order_in[i] = order_out[i] = i;
        std::shuffle(order_in.begin(), order_in.end(), rng);
        if (rng() % 2) std::shuffle(order_out.begin(), order_out.end(), rng);
        const auto in = packed_strides(sizes, order_in), out = packed_strides(sizes, order_out);
        INFO("trial " << trial);
        const auto axis = static_cast<uint32_t>(rng() % rank);
        std::vector<bool> is_axis(rank, false);
        is_axis[axis] = true;
        CHECK(lines_of(vkdml::detail::lower_scan(sizes, in, out, axis)) ==
              lines_of(unlowered(sizes, in, out, is_axis, true)));
        std::vector<bool> reduced(rank);
        for (size_t i = 0; i < rank; ++i) reduced[i] = rng() % 2;
        std::vector<uint32_t> out_sizes = sizes;
        for (size_t i = 0; i < rank; ++i)
            if (reduced[i]) out_sizes[i] = 1;
        const auto rout = packed_strides(out_sizes, order_out);
        const auto m = mask(reduced);
        const Problem lowered = vkdml::detail::lower_reduce(sizes, in, rout, std::span(m.data(), rank));
        CHECK(lines_of(lowered) == lines_of(unlowered(sizes, in, rout, reduced, false)));
        for (size_t i = 1; i < lowered.kept.size(); ++i)
            CHECK(lowered.kept[i - 1].stride_in >= lowered.kept[i].stride_in);
    }
}
