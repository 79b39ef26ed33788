// Correctly rounded float32 division and square root (round to nearest, ties to even), from the bits: a
// device's own may be off by 2.5 ulp (division) or more (sqrt), so AVERAGE and L2 would otherwise end
// in the device's rounding. The significands divide (or their square root is taken) bit by bit in
// 32-bit integers, two bits past the result's precision and a sticky bit for the rest; subnormal
// operands are normalized first, subnormal results rounded at their own precision, and the IEEE
// special cases (zeros, infinities, NaN) answered by rule.
#ifndef ROUNDED_MATH_GLSL
#define ROUNDED_MATH_GLSL

// |x| (finite, nonzero) = m · 2^(e − 23) with m in [2^23, 2^24).
void rn_unpack(uint bits, out uint m, out int e) {
    uint field = (bits >> 23) & 0xffu;
    uint frac = bits & 0x7fffffu;
    if (field != 0u) {
        m = frac | 0x800000u;
        e = int(field) - 127;
    } else {
        int shift = 23 - findMSB(frac);
        m = frac << uint(shift);
        e = -126 - shift;
    }
}

// The float nearest to q · 2^(exponent − top) (q < 2^32, its highest bit at `top`, `sticky`: something
// nonzero below q's last bit), with `sign`, rounded to nearest even; overflow to infinity.
float rn_round(uint sign, uint q, int top, int exponent, bool sticky) {
    int s = top - 23;                           // q's bits below a normal significand
    if (exponent < -126) s += -126 - exponent;  // a subnormal result keeps fewer
    uint mant = s >= 32 ? 0u : q >> uint(s);
    bool guard = s >= 1 && s <= 32 && ((q >> uint(s - 1)) & 1u) != 0u;
    bool rest =
        sticky || (s >= 2 && (q & ((s >= 33 ? 0xffffffffu : (1u << uint(min(s - 1, 31))) - 1u))) != 0u);
    if (guard && (rest || (mant & 1u) != 0u)) mant += 1u;
    if (exponent < -126) return uintBitsToFloat(sign | mant);  // a carry into 2^23 is the least normal
    if (mant == 0x1000000u) {
        mant >>= 1;
        exponent += 1;
    }
    if (exponent > 127) return uintBitsToFloat(sign | 0x7f800000u);
    return uintBitsToFloat(sign | (uint(exponent + 127) << 23) | (mant & 0x7fffffu));
}

float div_rn(float a, float b) {
    uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
    uint sign = (ua ^ ub) & 0x80000000u;
    if (isnan(a) || isnan(b)) return uintBitsToFloat(0x7fc00000u);
    // (Zeros by their bits: a device that flushes subnormals would take one for a zero.)
    bool a_inf = isinf(a), b_inf = isinf(b);
    bool a_zero = (ua & 0x7fffffffu) == 0u, b_zero = (ub & 0x7fffffffu) == 0u;
    if ((a_inf && b_inf) || (a_zero && b_zero)) return uintBitsToFloat(0x7fc00000u);
    if (a_inf || b_zero) return uintBitsToFloat(sign | 0x7f800000u);
    if (a_zero || b_inf) return uintBitsToFloat(sign);
    uint ma, mb;
    int ea, eb;
    rn_unpack(ua, ma, ea);
    rn_unpack(ub, mb, eb);
    int exponent = ea - eb;
    uint r = ma;
    if (ma < mb) {  // the quotient of the significands in [1, 2)
        r <<= 1;
        exponent -= 1;
    }
    uint q = 0u;  // floor(r / mb · 2^25): 26 bits
    [[dont_unroll]] for (uint i = 0u; i < 26u; ++i) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1u;
        }
        r <<= 1;
    }
    return rn_round(sign, q, 25, exponent, r != 0u);
}

float sqrt_rn(float a) {
    uint ua = floatBitsToUint(a);
    bool zero = (ua & 0x7fffffffu) == 0u;  // (by the bits, as in div_rn)
    if (isnan(a) || (!zero && (ua & 0x80000000u) != 0u)) return uintBitsToFloat(0x7fc00000u);
    if (zero || isinf(a)) return a;
    uint m;
    int e;
    rn_unpack(ua, m, e);
    // a = m · 2^(e − 23); with an even exponent t: a = m2 · 2^t, m2 in [2^23, 2^25).
    int t = e - 23;
    uint m2 = m;
    if ((t & 1) != 0) {
        m2 <<= 1;
        t -= 1;
    }
    // root = floor(sqrt(m2 · 2^28)) (26 or 27 bits), digit by digit: two bits of m2 · 2^28 a step, from
    // the top of its 54.
    uint root = 0u, rem = 0u;
    [[dont_unroll]] for (int i = 26; i >= 0; --i) {
        int low = 2 * i - 28;  // the pair's lower bit in m2
        uint pair = low >= 0 ? (m2 >> uint(low)) & 3u : (low == -1 ? (m2 << 1) & 2u : 0u);
        rem = (rem << 2) | pair;
        uint trial = (root << 2) | 1u;
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1u;
        }
    }
    int top = findMSB(root);
    return rn_round(0u, root, top, top + t / 2 - 14, rem != 0u);
}

#endif
