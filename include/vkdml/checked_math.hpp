// vkdml/checked_math.hpp — 64-bit unsigned addition and multiplication that report overflow, in portable
// C++ (no compiler builtin). The library computes every size and offset it takes from a descriptor with
// them; an application sizing buffers from untrusted shapes (a file header, say) may use them too.
#pragma once

#include <cstdint>

namespace vkdml {

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

}  // namespace vkdml
