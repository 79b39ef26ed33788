// Window arithmetic (src/core/window.cpp) against brute force: the exact bounds of a run of row-major
// indices, and chunk lengths that fit a window wherever they start.
#include <catch2/catch.hpp>

#include "core/window.hpp"

#include <algorithm>
#include <random>
#include <vector>

using vkdml::detail::AccessDim;
using vkdml::detail::ElementRange;

namespace {

int64_t offset_of(const std::vector<AccessDim>& dims, uint64_t index) {
    int64_t off = 0;
    for (size_t k = dims.size(); k-- > 0;) {
        off += int64_t(index % dims[k].size) * dims[k].stride;
        index /= dims[k].size;
    }
    return off;
}

std::vector<AccessDim> random_dims(std::mt19937& rng) {
    std::vector<AccessDim> dims(1 + rng() % 4);
    for (auto& d : dims) d = {1 + static_cast<uint32_t>(rng() % 5), int64_t(rng() % 41) - 20};
    return dims;
}

uint64_t count(const std::vector<AccessDim>& dims) {
    uint64_t n = 1;
    for (const auto& d : dims) n *= d.size;
    return n;
}

}  // namespace

TEST_CASE("row_major_bounds is the exact minimum and maximum of every index run", "[unit]") {
    std::mt19937 rng(42);
    for (int trial = 0; trial < 300; ++trial) {
        const auto dims = random_dims(rng);
        const uint64_t n = count(dims);
        for (uint64_t first = 0; first < n; ++first)
            for (uint64_t last = first; last < n; last += 1 + rng() % 3) {
                int64_t lo = offset_of(dims, first), hi = lo;
                for (uint64_t i = first; i <= last; ++i) {
                    lo = std::min(lo, offset_of(dims, i));
                    hi = std::max(hi, offset_of(dims, i));
                }
                const ElementRange r = vkdml::detail::row_major_bounds(dims, first, last);
                INFO("trial " << trial << " first " << first << " last " << last);
                REQUIRE(r.lo == lo);
                REQUIRE(r.hi == hi);
            }
    }
    CHECK(vkdml::detail::row_major_bounds({}, 0, 0).lo == 0);
}

TEST_CASE("max_chunk_in_window: every run of that many positions fits, wherever it starts", "[unit]") {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 300; ++trial) {
        const auto dims = random_dims(rng);
        const uint64_t n = count(dims);
        const auto element_bytes = static_cast<uint32_t>(1u << (rng() % 4));
        const auto extent = static_cast<uint32_t>(1 + rng() % 3);
        const uint64_t window = element_bytes * (extent + rng() % 60);
        const uint64_t chunk = vkdml::detail::max_chunk_in_window(dims, element_bytes, extent, window);
        INFO("trial " << trial << " chunk " << chunk);
        REQUIRE(chunk >= 1);
        const uint64_t run = std::min(chunk, n);
        for (uint64_t first = 0; first + run <= n; ++first) {
            const ElementRange r = vkdml::detail::row_major_bounds(dims, first, first + run - 1);
            if (chunk > 1 || extent * element_bytes <= window)
                CHECK(uint64_t(r.hi - r.lo + extent) * element_bytes <= window);
        }
        // One dimension: exactly the longest such run.
        if (dims.size() == 1 && chunk < n && dims[0].stride != 0) {
            const uint64_t step = uint64_t(dims[0].stride < 0 ? -dims[0].stride : dims[0].stride);
            CHECK((chunk * step - step + extent) * element_bytes <= window);
            CHECK((chunk * step + extent) * element_bytes > window);
        }
    }
}
