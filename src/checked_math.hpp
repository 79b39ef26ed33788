// checked_math.hpp — 64-bit unsigned addition and multiplication that report overflow, in portable C++
// (no compiler builtin), for every size and offset computed from user descriptors or file headers.
#pragma once

#include <cstdint>

namespace vkdml::detail {

/// `*sum = a + b` modulo 2^64; true when the exact sum does not fit in 64 bits.
constexpr bool add_overflows(uint64_t a, uint64_t b, uint64_t* sum) noexcept {
    *sum = a + b;
    return *sum < a;
}

/// `*product = a * b` modulo 2^64; true when the exact product does not fit in 64 bits.
constexpr bool mul_overflows(uint64_t a, uint64_t b, uint64_t* product) noexcept {
    *product = a * b;
    return a != 0 && b > UINT64_MAX / a;
}

}  // namespace vkdml::detail
