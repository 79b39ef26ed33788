// half.hpp — IEEE 754 binary16 <-> float32/float64 bit conversions for the tests (header-only).
//
// Rounding is to nearest, ties to even, done by hand on exact float64 arithmetic, so it does not
// depend on the floating-point environment. Overflow gives infinity, tiny values give subnormals or
// a signed zero, NaN stays a (quiet) NaN with its sign and top payload bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace vkdml_test {

/// Rounds a float64 value to the nearest binary16 (ties to even) and returns its bits.
inline uint16_t half_from_double(double value) {
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    if (std::isnan(value)) {
        const uint16_t payload = static_cast<uint16_t>((bits >> 42) & 0x3FFu);
        return static_cast<uint16_t>(sign | 0x7C00u | 0x200u | payload);
    }
    const double a = std::fabs(value);
    // 65520 is halfway between 65504 (largest finite half, odd significand) and 65536: ties go
    // to the even neighbour, which is 2^16, i.e. infinity.
    if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00u);

    // Round a non-negative double that is below 2048 to the nearest integer, ties to even. The
    // subtraction is exact because such a value has at least 42 fraction bits to spare.
    auto round_even = [](double s) {
        double r = std::floor(s);
        const double frac = s - r;
        if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0)) r += 1.0;
        return r;
    };

    if (a < 0x1p-14) {
        // Subnormal range: the value is m * 2^-24 with m in [0, 1024]. m == 1024 is exactly the
        // bit pattern of the smallest normal number, so the bits are m either way.
        const double m = round_even(std::ldexp(a, 24));
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(m));
    }
    int e = 0;
    (void)std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1): unbiased exponent is e - 1
    int exponent = e - 1;     // in [-14, 15]
    double m = round_even(std::ldexp(a, 10 - exponent));  // in [1024, 2048]
    if (m == 2048.0) {
        m = 1024.0;
        ++exponent;
    }
    if (exponent > 15) return static_cast<uint16_t>(sign | 0x7C00u);
    const uint16_t biased = static_cast<uint16_t>(exponent + 15);
    return static_cast<uint16_t>(sign | (biased << 10) | (static_cast<uint16_t>(m) - 1024u));
}

/// Rounds a float32 value to the nearest binary16 (ties to even); float -> double is exact.
inline uint16_t half_from_float(float value) {
    return half_from_double(static_cast<double>(value));
}

/// Exact value of a binary16 bit pattern as float64.
inline double half_to_double(uint16_t h) {
    const bool negative = (h & 0x8000u) != 0;
    const uint32_t biased = (h >> 10) & 0x1Fu;
    const uint32_t mantissa = h & 0x3FFu;
    double magnitude;
    if (biased == 0x1F) {
        if (mantissa == 0) {
            magnitude = INFINITY;
        } else {
            // Keep sign and payload: build the float32 NaN with the same top mantissa bits.
            const uint32_t f = (negative ? 0x80000000u : 0u) | 0x7F800000u | (mantissa << 13);
            return static_cast<double>(std::bit_cast<float>(f));
        }
    } else if (biased == 0) {
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    } else {
        magnitude = std::ldexp(static_cast<double>(1024u + mantissa), static_cast<int>(biased) - 25);
    }
    return negative ? -magnitude : magnitude;
}

/// Exact value of a binary16 bit pattern as float32 (every half is a float).
inline float half_to_float(uint16_t h) {
    return static_cast<float>(half_to_double(h));
}

/// Distance from |value| to the next larger binary16 magnitude (2^-24 in the subnormal range).
inline double half_ulp(double value) {
    const double a = std::fabs(value);
    if (!(a >= 0x1p-14)) return 0x1p-24;  // subnormals, zero (and NaN: harmless)
    if (std::isinf(a)) return INFINITY;
    int e = 0;
    (void)std::frexp(a, &e);
    return std::ldexp(1.0, e - 1 - 10);
}

}  // namespace vkdml_test
