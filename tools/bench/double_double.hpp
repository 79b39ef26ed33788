// tools/bench/double_double.hpp — a sum or product of doubles kept as an unevaluated pair hi + lo (about 106
// bits: TwoSum for sums, TwoProduct by fma for products): the float reference of `vkdml bench` and of
// the accuracy tests, exact enough to measure float64 results against.
#pragma once

#include <cmath>

namespace vkdml::cli {

struct DoubleDouble {
    double hi = 0, lo = 0;

    /// Adds x; hi + lo stays the exact sum while it fits in 106 bits.
    void add(double x) {
        const double s = hi + x, z = s - hi;
        lo += (hi - (s - z)) + (x - z);
        hi = s;
    }
    /// Adds a · b (its rounding error included).
    void add_product(double a, double b) {
        const double p = a * b;
        add(p);
        lo += std::fma(a, b, -p);
    }
    /// Multiplies by x.
    void multiply(double x) {
        const double p = hi * x;
        lo = lo * x + std::fma(hi, x, -p);
        hi = p;
    }
    /// hi + lo rounded once to a double.
    double value() const { return hi + lo; }
};

}  // namespace vkdml::cli
