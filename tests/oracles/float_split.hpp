// float_split.hpp — a finite non-zero double as odd × 2^exponent: what the oracles use to decide
// whether every partial sum or product of some inputs is exact in an accumulator.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace vkdml_test {

/// |x| = odd · 2^exponent with `odd` an odd integer below 2^53.
struct OddSplit {
    uint64_t odd;
    int exponent;
};

/// The split of a finite non-zero double.
inline OddSplit split_odd(double x) {
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);                // |x| = f * 2^e, f in [0.5, 1)
    const uint64_t m = static_cast<uint64_t>(std::ldexp(f, 53));  // exact: 53 significant bits at most
    const int tz = std::countr_zero(m);
    return {m >> tz, e - 53 + tz};
}

}  // namespace vkdml_test
