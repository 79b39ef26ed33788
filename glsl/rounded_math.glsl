// Correctly rounded float32 (and, in float64 kernels, float64) division and square root (round to nearest, ties to even), from the bits: a
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


#if defined(STORAGE_F64)
// The same for float64, its significands in 64-bit integers held as two 32-bit words (x: low, y: high;
// shaderInt64 is optional where shaderFloat64 is not), for FLOAT64's AVERAGE and L2.
uvec2 w_shl(uvec2 a, uint s) {  // s < 32
    return s == 0u ? a : uvec2(a.x << s, (a.y << s) | (a.x >> (32u - s)));
}
uvec2 w_shr(uvec2 a, int s) {  // s >= 0
    if (s >= 64) return uvec2(0u);
    if (s >= 32) return uvec2(a.y >> uint(s - 32), 0u);
    return s == 0 ? a : uvec2((a.x >> uint(s)) | (a.y << uint(32 - s)), a.y >> uint(s));
}
bool w_ge(uvec2 a, uvec2 b) { return a.y > b.y || (a.y == b.y && a.x >= b.x); }
uvec2 w_sub(uvec2 a, uvec2 b) { return uvec2(a.x - b.x, a.y - b.y - (a.x < b.x ? 1u : 0u)); }
bool w_bit(uvec2 a, int k) { return ((k >= 32 ? a.y >> uint(k - 32) : a.x >> uint(k)) & 1u) != 0u; }
bool w_below(uvec2 a, int k) {  // any bit below bit k
    if (k >= 64) return a != uvec2(0u);
    if (k > 32) return a.x != 0u || (a.y & ((1u << uint(k - 32)) - 1u)) != 0u;
    if (k == 32) return a.x != 0u;
    return k > 0 && (a.x & ((1u << uint(k)) - 1u)) != 0u;
}
int w_msb(uvec2 a) { return a.y != 0u ? 32 + findMSB(a.y) : findMSB(a.x); }

// |x| (finite, nonzero) = m · 2^(e − 52) with m in [2^52, 2^53).
void rn_unpack(uvec2 bits, out uvec2 m, out int e) {
    uint field = (bits.y >> 20) & 0x7ffu;
    uvec2 frac = uvec2(bits.x, bits.y & 0xfffffu);
    if (field != 0u) {
        m = uvec2(frac.x, frac.y | 0x100000u);
        e = int(field) - 1023;
    } else {
        int shift = 52 - w_msb(frac);
        m = shift >= 32 ? uvec2(0u, frac.x << uint(shift - 32)) : w_shl(frac, uint(shift));
        e = -1022 - shift;
    }
}

double rn_pack(uint sign, uint field, uvec2 mant) {
    return packDouble2x32(uvec2(mant.x, sign | (field << 20) | (mant.y & 0xfffffu)));
}

// The double nearest to q · 2^(exponent − top), as rn_round.
double rn_round(uint sign, uvec2 q, int top, int exponent, bool sticky) {
    int s = top - 52;
    if (exponent < -1022) s += -1022 - exponent;
    uvec2 mant = w_shr(q, s);
    bool guard = s >= 1 && s <= 64 && w_bit(q, s - 1);
    bool rest = sticky || (s >= 2 && w_below(q, s - 1));
    if (guard && (rest || (mant.x & 1u) != 0u)) mant = uvec2(mant.x + 1u, mant.y + (mant.x == 0xffffffffu ? 1u : 0u));
    if (exponent < -1022) return rn_pack(sign, mant.y >> 20, mant);  // a carry into 2^52: the least normal
    if (mant.y == 0x200000u) {  // 2^53
        mant = uvec2(0u, 0x100000u);
        exponent += 1;
    }
    if (exponent > 1023) return rn_pack(sign, 0x7ffu, uvec2(0u));
    return rn_pack(sign, uint(exponent + 1023), mant);
}

double div_rn(double a, double b) {
    uvec2 ua = unpackDouble2x32(a), ub = unpackDouble2x32(b);
    uint sign = (ua.y ^ ub.y) & 0x80000000u;
    if (isnan(a) || isnan(b)) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    bool a_inf = isinf(a), b_inf = isinf(b);
    bool a_zero = ua.x == 0u && (ua.y & 0x7fffffffu) == 0u, b_zero = ub.x == 0u && (ub.y & 0x7fffffffu) == 0u;
    if ((a_inf && b_inf) || (a_zero && b_zero)) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    if (a_inf || b_zero) return rn_pack(sign, 0x7ffu, uvec2(0u));
    if (a_zero || b_inf) return rn_pack(sign, 0u, uvec2(0u));
    uvec2 ma, mb;
    int ea, eb;
    rn_unpack(ua, ma, ea);
    rn_unpack(ub, mb, eb);
    int exponent = ea - eb;
    uvec2 r = ma;
    if (!w_ge(ma, mb)) {  // the quotient of the significands in [1, 2)
        r = w_shl(r, 1u);
        exponent -= 1;
    }
    uvec2 q = uvec2(0u);  // floor(r / mb · 2^54): 55 bits
    [[dont_unroll]] for (uint i = 0u; i < 55u; ++i) {
        q = w_shl(q, 1u);
        if (w_ge(r, mb)) {
            r = w_sub(r, mb);
            q.x |= 1u;
        }
        r = w_shl(r, 1u);
    }
    return rn_round(sign, q, 54, exponent, r != uvec2(0u));
}

double sqrt_rn(double a) {
    uvec2 ua = unpackDouble2x32(a);
    bool zero = ua.x == 0u && (ua.y & 0x7fffffffu) == 0u;
    if (isnan(a) || (!zero && (ua.y & 0x80000000u) != 0u)) return packDouble2x32(uvec2(0u, 0x7ff80000u));
    if (zero || isinf(a)) return a;
    uvec2 m;
    int e;
    rn_unpack(ua, m, e);
    // a = m · 2^(e − 52); with an even exponent t: a = m2 · 2^t, m2 in [2^52, 2^54).
    int t = e - 52;
    uvec2 m2 = m;
    if ((t & 1) != 0) {
        m2 = w_shl(m2, 1u);
        t -= 1;
    }
    // root = floor(sqrt(m2 · 2^56)) (55 bits), digit by digit: two bits of m2 · 2^56 a step, from the
    // top of its 110.
    uvec2 root = uvec2(0u), rem = uvec2(0u);
    [[dont_unroll]] for (int i = 54; i >= 0; --i) {
        int low = 2 * i - 56;  // the pair's lower bit in m2
        uint pair = low >= 0 ? w_shr(m2, low).x & 3u : (low == -1 ? (m2.x << 1) & 2u : 0u);
        rem = w_shl(rem, 2u);
        rem.x |= pair;
        uvec2 trial = w_shl(root, 2u);
        trial.x |= 1u;
        root = w_shl(root, 1u);
        if (w_ge(rem, trial)) {
            rem = w_sub(rem, trial);
            root.x |= 1u;
        }
    }
    int top = w_msb(root);
    return rn_round(0u, root, top, top + t / 2 - 28, rem != uvec2(0u));
}
#endif

#endif
