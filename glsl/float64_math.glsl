// Natural exponential and logarithm in float64. GLSL has exp() and log() for float only; these give
// float64 kernels float64 accuracy (about 1 ULP; the tests allow 3) instead of a float32 round trip, and
// the same bits on every device: every step `precise` (no fused multiply-add, no reordering), an
// addition, subtraction or multiplication (correctly rounded in Vulkan) or rounded_math.glsl's division.
//   exp64: x = k·ln2 + r with |r| <= ln2/2 (ln2 split in two so k·LN2_HI is exact), e^r by its Taylor
//          polynomial to degree 13 (truncation < 2^-57), scaled by 2^k in two steps so 2^1024 is never
//          formed on the way to a finite result.
//   log64: subnormal x scaled by 2^54 first (frexp of subnormals is not reliable on every driver);
//          x = m·2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2·atanh(s), s = (m-1)/(m+1), by its odd
//          series to s^23 (|s| <= 0.1716, truncation < 2^-60), plus e·ln2 (split as above). The
//          quotient s as in float32_math.glsl (div_rn's, or with LOG_NEWTON_QUOTIENT three Newton steps).
#ifndef FLOAT64_MATH_GLSL
#define FLOAT64_MATH_GLSL

#include "rounded_math.glsl"

const double LN2_HI = 6.93147180369123816490e-01LF;  // ln 2 with its low 21 bits zero: k·LN2_HI is exact for |k| < 2^11
const double LN2_LO = 1.90821492927058770002e-10LF;  // ln 2 - LN2_HI
const double INV_LN2 = 1.44269504088896338700e+00LF;

double f64_inf() { return packDouble2x32(uvec2(0u, 0x7ff00000u)); }
double f64_nan() { return packDouble2x32(uvec2(0u, 0x7ff80000u)); }

double exp64(double x) {
    if (isnan(x)) return x;
    if (x > 709.782712893384LF) return f64_inf();
    if (x < -745.1332191019412LF) return 0.0LF;
    precise double k = roundEven(x * INV_LN2);
    precise double r = (x - k * LN2_HI) - k * LN2_LO;
    precise double q = 1.0LF / 6227020800.0LF;  // 1/13!
    q = q * r + 1.0LF / 479001600.0LF;
    q = q * r + 1.0LF / 39916800.0LF;
    q = q * r + 1.0LF / 3628800.0LF;
    q = q * r + 1.0LF / 362880.0LF;
    q = q * r + 1.0LF / 40320.0LF;
    q = q * r + 1.0LF / 5040.0LF;
    q = q * r + 1.0LF / 720.0LF;
    q = q * r + 1.0LF / 120.0LF;
    q = q * r + 1.0LF / 24.0LF;
    q = q * r + 1.0LF / 6.0LF;
    q = q * r + 0.5LF;
    q = q * r + 1.0LF;
    q = q * r + 1.0LF;
    int ki = int(k);
    int half_k = ki / 2;
    return ldexp(ldexp(q, half_k), ki - half_k);
}

#if defined(LOG_NEWTON_QUOTIENT)
double log_quotient(double f) {
    precise double d = 2.0LF + f;
    precise double y = 0.11723895498498137LF * d - 0.7229263053444298LF;
    y = y * d + 1.4771154007253262LF;
    y = y * (2.0LF - d * y);
    y = y * (2.0LF - d * y);
    y = y * (2.0LF - d * y);
    precise double s = f * y;
    s = s + (f - s * d) * y;
    return s;
}
#else
double log_quotient(double f) { return div_rn(f, 2.0LF + f); }
#endif

// ln(m · 2^e) for m in [0.5, 1) (frexp's): log64 past its special cases.
double log64_of(double m, int e) {
    if (m < 0.70710678118654752440LF) {
        m *= 2.0LF;
        e -= 1;
    }
    precise double f = m - 1.0LF;  // exact
    double s = log_quotient(f);
    precise double z = s * s;
    precise double q = 1.0LF / 23.0LF;
    q = q * z + 1.0LF / 21.0LF;
    q = q * z + 1.0LF / 19.0LF;
    q = q * z + 1.0LF / 17.0LF;
    q = q * z + 1.0LF / 15.0LF;
    q = q * z + 1.0LF / 13.0LF;
    q = q * z + 1.0LF / 11.0LF;
    q = q * z + 1.0LF / 9.0LF;
    q = q * z + 1.0LF / 7.0LF;
    q = q * z + 1.0LF / 5.0LF;
    q = q * z + 1.0LF / 3.0LF;
    precise double ln_m = 2.0LF * s + 2.0LF * s * z * q;
    precise double de = double(e);
    precise double result = de * LN2_HI + (de * LN2_LO + ln_m);
    return result;
}

double log64(double x) {
    if (isnan(x)) return x;
    if (x < 0.0LF) return f64_nan();
    if (x == 0.0LF) return -f64_inf();
    if (isinf(x)) return x;
    int scale = 0;
    if (x < 2.2250738585072014e-308LF) {  // subnormal: scale into the normal range
        x *= 18014398509481984.0LF;         // 2^54
        scale = -54;
    }
    int e;
    double m = frexp(x, e);  // m in [0.5, 1)
    return log64_of(m, e + scale);
}

// log64(x) for a positive normal finite x, without the special cases (the scans' scaled sums, >= 1).
double log64_normal(double x) {
    int e;
    double m = frexp(x, e);
    return log64_of(m, e);
}

// e^d for d <= 0 (NaN passes), as float32_math.glsl's exp_neg32: 2^t, t = d·log2(e) rounded, 2^f by its
// Taylor polynomial to degree 14 (|f| <= 1/2, truncation < 2^-62); relative error about |d|·2^-53. A
// result below the normal range is 0.
double exp_neg64(double d) {
    precise double t = d * 1.4426950408889634LF;
    double clamped = t < -1100.0LF ? -1100.0LF : t;
    double k = roundEven(clamped);
    precise double f = clamped - k;  // exact
    precise double q = 6.778726354822543e-14LF;
    q = q * f + 1.3691488853904124e-12LF;
    q = q * f + 2.5678435993488196e-11LF;
    q = q * f + 4.44553827187081e-10LF;
    q = q * f + 7.054911620801121e-09LF;
    q = q * f + 1.0178086009239696e-07LF;
    q = q * f + 1.3215486790144305e-06LF;
    q = q * f + 1.5252733804059838e-05LF;
    q = q * f + 0.00015403530393381606LF;
    q = q * f + 0.0013333558146428441LF;
    q = q * f + 0.009618129107628477LF;
    q = q * f + 0.055504108664821576LF;
    q = q * f + 0.2402265069591007LF;
    q = q * f + 0.6931471805599453LF;
    q = q * f + 1.0LF;
    int ki = int(k);
    precise double r = q * packDouble2x32(uvec2(0u, uint(max(ki, -1022) + 1023) << 20));
    return isnan(d) ? d : (ki < -1022 || r < 2.2250738585072014e-308LF ? 0.0LF : r);
}

#endif
