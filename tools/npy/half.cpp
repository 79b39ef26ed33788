// tools/npy/half.cpp — binary16 conversions of the tool (see half.hpp).
#include "npy/half.hpp"

#include <bit>

namespace vkdml::cli {

float half_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) {
        const float v = static_cast<float>(m) * 0x1p-24f;
        return sign ? -v : v;
    }
    if (e == 31) return std::bit_cast<float>(sign | 0x7f800000u | (m << 13));
    return std::bit_cast<float>(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t float_to_half(float value) {
    const uint32_t x = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu;
    uint32_t m = x & 0x7fffffu;
    if (e == 255) return static_cast<uint16_t>(sign | 0x7c00u | (m ? 0x200u : 0u));
    const int ee = static_cast<int>(e) - 112;
    if (ee >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    uint32_t shift = 13;
    uint32_t base = static_cast<uint32_t>(ee) << 10;
    if (ee <= 0) {  // subnormal or zero
        if (ee < -10) return static_cast<uint16_t>(sign);
        m |= 0x800000u;
        shift = static_cast<uint32_t>(14 - ee);
        base = 0;
    }
    uint32_t h = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1u))) ++h;  // may carry into the exponent: still right
    return static_cast<uint16_t>(sign | (base + h));
}

}  // namespace vkdml::cli
