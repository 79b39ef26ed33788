// tests/api/test_checked_math.cpp — include/vkdml/checked_math.hpp: exact sums and products, and overflow
// reported exactly at the 64-bit boundary.
#include <catch2/catch.hpp>
#include <cstdint>

#include "vkdml/checked_math.hpp"

using vkdml::add_overflows;
using vkdml::mul_overflows;

TEST_CASE("checked_math: add_overflows is exact up to 2^64 - 1 and reports the first carry out",
          "[checked-math]") {
    uint64_t sum = 0;
    CHECK_FALSE(add_overflows(0, 0, &sum));
    CHECK(sum == 0);
    CHECK_FALSE(add_overflows(UINT64_MAX - 5, 5, &sum));
    CHECK(sum == UINT64_MAX);
    CHECK(add_overflows(UINT64_MAX - 5, 6, &sum));
    CHECK(sum == 0);  // the wrapped value
    CHECK(add_overflows(UINT64_MAX, UINT64_MAX, &sum));
    CHECK(sum == UINT64_MAX - 1);
    CHECK_FALSE(add_overflows(uint64_t{1} << 63, (uint64_t{1} << 63) - 1, &sum));
    CHECK(sum == UINT64_MAX);
    CHECK(add_overflows(uint64_t{1} << 63, uint64_t{1} << 63, &sum));
}

TEST_CASE("checked_math: mul_overflows is exact up to 2^64 - 1 and reports any larger product",
          "[checked-math]") {
    uint64_t product = 1;
    CHECK_FALSE(mul_overflows(0, UINT64_MAX, &product));
    CHECK(product == 0);
    CHECK_FALSE(mul_overflows(UINT64_MAX, 0, &product));
    CHECK(product == 0);
    CHECK_FALSE(mul_overflows(1, UINT64_MAX, &product));
    CHECK(product == UINT64_MAX);
    CHECK_FALSE(mul_overflows(4294967295u, 4294967297u, &product));  // (2^32 - 1)(2^32 + 1) = 2^64 - 1
    CHECK(product == UINT64_MAX);
    CHECK(mul_overflows(4294967296u, 4294967296u, &product));  // 2^64
    CHECK(product == 0);
    CHECK(mul_overflows(UINT64_MAX, 2, &product));
    CHECK(product == UINT64_MAX - 1);
    CHECK(mul_overflows(3, 6148914691236517206u, &product));  // 3 * ceil(2^64 / 3) = 2^64 + 2
    CHECK(product == 2);
    CHECK_FALSE(mul_overflows(3, 6148914691236517205u, &product));  // = 2^64 - 1
    CHECK(product == UINT64_MAX);
    static_assert([] {
        uint64_t p = 0;
        return !mul_overflows(uint64_t{1} << 31, uint64_t{1} << 32, &p) && p == uint64_t{1} << 63;
    }());
}
