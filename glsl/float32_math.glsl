// Natural exponential and logarithm in float32 from correctly rounded steps alone, so that LOG_SUM and
// LOG_SUM_EXP give the same bits on every device (a device's own exp and log may be off by 3 + 2·|x| ulp
// and differ between drivers). Every step is `precise` (no fused multiply-add, no reordering) and is an
// addition, subtraction or multiplication, which Vulkan rounds correctly; the one division is
// rounded_math.glsl's div_rn. About 1 ulp (the tests hold LOG_SUM_EXP to 2).
//   exp32: x = k·ln2 + r with |r| <= ln2/2 (ln2 split in two so k·LN2_HI_F is exact), e^r by its Taylor
//          polynomial to degree 7 (truncation < 2^-27), times 2^k in two exact steps. A result below
//          the normal range is 0 (a device that keeps subnormals and one that flushes them agree).
//   log32: x = m·2^e from the bits (subnormals too, by integer steps), m in [sqrt(1/2), sqrt(2)),
//          ln m = 2·atanh(s), s = (m-1)/(m+1), by its odd series to s^11 (|s| <= 0.1716, truncation
//          < 2^-33), plus e·ln2 (split as above).
#ifndef FLOAT32_MATH_GLSL
#define FLOAT32_MATH_GLSL

#include "rounded_math.glsl"

// ln 2 with its low 9 bits zero (k·LN2_HI_F is exact for |k| < 2^9), and the rest of it.
const float LN2_HI_F = 0.693145751953125;
const float LN2_LO_F = 1.42860682e-06;
const float INV_LN2_F = 1.44269504;

float f32_inf() { return uintBitsToFloat(0x7f800000u); }
float f32_nan() { return uintBitsToFloat(0x7fc00000u); }

float exp32(float x) {
    if (isnan(x)) return x;
    if (x > 88.7228394) return f32_inf();  // ln(FLT_MAX)
    if (x < -87.3365479) return 0.0;       // ln(2^-126): below the normal range
    precise float k = roundEven(x * INV_LN2_F);
    precise float r = (x - k * LN2_HI_F) - k * LN2_LO_F;
    precise float q = 1.0 / 5040.0;
    q = q * r + 1.0 / 720.0;
    q = q * r + 1.0 / 120.0;
    q = q * r + 1.0 / 24.0;
    q = q * r + 1.0 / 6.0;
    q = q * r + 0.5;
    q = q * r + 1.0;
    q = q * r + 1.0;
    int ki = int(k);  // in [-126, 128]
    int half_k = ki / 2;
    precise float e = q * uintBitsToFloat(uint(half_k + 127) << 23);
    e = e * uintBitsToFloat(uint(ki - half_k + 127) << 23);
    return e < 1.17549435e-38 ? 0.0 : e;
}

float log32(float x) {
    if (isnan(x) || x < 0.0) return f32_nan();
    if (x == 0.0) return -f32_inf();
    if (isinf(x)) return x;
    uint bits = floatBitsToUint(x);
    uint field = (bits >> 23) & 0xffu, frac = bits & 0x7fffffu;
    int e = int(field) - 127;
    if (field == 0u) {  // subnormal: normalized by integer steps
        int shift = 23 - findMSB(frac);
        frac = (frac << uint(shift)) & 0x7fffffu;
        e = -126 - shift;
    }
    // m = 1.frac in [1, 2); above sqrt(2) (significand 0x3504f3), halved: m in [sqrt(1/2), sqrt(2)).
    bool halve = frac > 0x3504f3u;
    float m = uintBitsToFloat((halve ? 0x3f000000u : 0x3f800000u) | frac);
    if (halve) e += 1;
    precise float f = m - 1.0;  // exact
    float s = div_rn(f, 2.0 + f);
    precise float z = s * s;
    precise float q = 1.0 / 11.0;
    q = q * z + 1.0 / 9.0;
    q = q * z + 1.0 / 7.0;
    q = q * z + 1.0 / 5.0;
    q = q * z + 1.0 / 3.0;
    precise float ln_m = 2.0 * s + 2.0 * s * z * q;
    precise float de = float(e);
    precise float result = de * LN2_HI_F + (de * LN2_LO_F + ln_m);
    return result;
}

#endif
