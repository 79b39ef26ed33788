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
//          < 2^-33), plus e·ln2 (split as above). The quotient s is div_rn's, or, where the includer
//          defines LOG_NEWTON_QUOTIENT (a logarithm per element), f times 1/(2+f) from a quadratic guess
//          (error < 2^-8.8) and two Newton steps, then one residual correction: within 1.2 ulp of s,
//          from additions and multiplications alone (the same bits on every device still).
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

#if defined(LOG_NEWTON_QUOTIENT)
float log_quotient(float f) {
    precise float d = 2.0 + f;
    precise float y = 0.117238954 * d - 0.722926319;
    y = y * d + 1.47711539;
    y = y * (2.0 - d * y);
    y = y * (2.0 - d * y);
    precise float s = f * y;
    s = s + (f - s * d) * y;
    return s;
}
#else
float log_quotient(float f) { return div_rn(f, 2.0 + f); }
#endif

// ln(1.frac · 2^e): log32 past its special cases.
float log32_of(uint frac, int e) {
    // m = 1.frac in [1, 2); above sqrt(2) (significand 0x3504f3), halved: m in [sqrt(1/2), sqrt(2)).
    bool halve = frac > 0x3504f3u;
    float m = uintBitsToFloat((halve ? 0x3f000000u : 0x3f800000u) | frac);
    if (halve) e += 1;
    precise float f = m - 1.0;  // exact
    float s = log_quotient(f);
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
    return log32_of(frac, e);
}

// log32(x) for a positive normal finite x, without the special cases (the scans' scaled sums, >= 1).
float log32_normal(float x) {
    uint bits = floatBitsToUint(x);
    return log32_of(bits & 0x7fffffu, int((bits >> 23) & 0xffu) - 127);
}

// e^d for d <= 0 (NaN passes), cheaper than exp32 (the scans' log-sum-exp rescales by it twice per
// element): 2^t with t = d·log2(e) rounded, t = k + f, 2^f by its Taylor polynomial to degree 7 (|f| <=
// 1/2, truncation < 2^-27). The rounding of t makes the relative error about |d|·2^-24, so a term scaled
// by e^d is off by at most 2^-24/e of the larger one. A result below the normal range is 0, as exp32's.
float exp_neg32(float d) {
    precise float t = d * 1.44269504;
    float clamped = t < -150.0 ? -150.0 : t;
    float k = roundEven(clamped);
    precise float f = clamped - k;  // exact
    precise float q = 1.5252734e-05;
    q = q * f + 1.5403530e-04;
    q = q * f + 1.3333558e-03;
    q = q * f + 9.6181291e-03;
    q = q * f + 5.5504109e-02;
    q = q * f + 2.4022651e-01;
    q = q * f + 6.9314718e-01;
    q = q * f + 1.0;
    int ki = int(k);
    precise float r = q * uintBitsToFloat(uint(max(ki, -126) + 127) << 23);
    return isnan(d) ? d : (ki < -126 || r < 1.17549435e-38 ? 0.0 : r);
}

#endif
