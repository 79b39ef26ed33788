// differences.hpp — how many positions of a result differ from what a test expects, and the first: one line
// to report instead of two whole vectors (Catch prints a failed `CHECK(got == want)` in full, which for a
// million elements takes minutes).
#pragma once

#include <cstdint>
#include <ostream>

namespace vkdml_test {

/// The positions where a result differs: how many, and the first of them.
struct Differences {
    uint64_t count = 0;  ///< positions that differ
    uint64_t first = 0;  ///< the lowest of them (0 when none does)
};

/// The positions i in [0, n) for which `differs(i)` is true.
template <class Differs>
Differences find_differences(uint64_t n, Differs differs) {
    Differences d;
    for (uint64_t i = 0; i < n; ++i)
        if (differs(i) && d.count++ == 0) d.first = i;
    return d;
}

/// "N positions differ, the first at I", or "no position differs".
inline std::ostream& operator<<(std::ostream& os, const Differences& d) {
    if (d.count == 0) return os << "no position differs";
    return os << d.count << (d.count == 1 ? " position differs" : " positions differ") << ", the first at "
              << d.first;
}

}  // namespace vkdml_test
