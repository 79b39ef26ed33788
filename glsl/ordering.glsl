// The order of a data type, for the selections (REDUCE's MIN, MAX and arg functions; the cumulative
// maximum and minimum): its smallest and largest values, `<` on signed or unsigned integers or IEEE
// floats, the sign bit, and the sign extension of narrow signed integers (8- and 16-bit elements are
// held zero-extended in 32 bits: storage_types.glsl). `is_signed` is the includer's constant.
#ifndef ORDERING_GLSL
#define ORDERING_GLSL

// The smallest and largest values of the data type (floats: -inf and +inf).
ACC_T order_lowest(bool is_signed) {
#if defined(ACC_IS_F64)
    return packDouble2x32(uvec2(0u, 0xfff00000u));
#elif defined(ACC_IS_FLOAT)
    return uintBitsToFloat(0xff800000u);
#elif defined(STORAGE_U64)
    return is_signed ? uint64_t(0x8000000000000000ul) : uint64_t(0);
#elif defined(STORAGE_U8)
    return is_signed ? 0xFFFFFF80u : 0u;
#elif defined(STORAGE_U16)
    return is_signed ? 0xFFFF8000u : 0u;
#else
    return is_signed ? 0x80000000u : 0u;
#endif
}
ACC_T order_highest(bool is_signed) {
#if defined(ACC_IS_F64)
    return packDouble2x32(uvec2(0u, 0x7ff00000u));
#elif defined(ACC_IS_FLOAT)
    return uintBitsToFloat(0x7f800000u);
#elif defined(STORAGE_U64)
    return is_signed ? uint64_t(0x7FFFFFFFFFFFFFFFul) : ~uint64_t(0);
#elif defined(STORAGE_U8)
    return is_signed ? 0x7Fu : 0xFFu;
#elif defined(STORAGE_U16)
    return is_signed ? 0x7FFFu : 0xFFFFu;
#else
    return is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu;
#endif
}

// a < b in the data's order (signed or unsigned integers, IEEE floats).
bool order_less(ACC_T a, ACC_T b, bool is_signed) {
#if defined(ACC_IS_FLOAT)
    return a < b;
#elif defined(STORAGE_U64)
    return is_signed ? int64_t(a) < int64_t(b) : a < b;
#else
    return is_signed ? int(a) < int(b) : a < b;
#endif
}

// The sign bit: set for -0 and not for +0 (floats); false for integers.
bool order_signbit(ACC_T a) {
#if defined(ACC_IS_F64)
    return (unpackDouble2x32(a).y >> 31) != 0u;
#elif defined(ACC_IS_FLOAT)
    return (floatBitsToUint(a) >> 31) != 0u;
#else
    return false;
#endif
}

// An element widened to 32 bits, sign-extended where it is a narrow signed integer (the other types as
// they are). (In 32 bits: 8/16-bit arithmetic types would need shaderInt8/shaderInt16, which the
// storage-only features do not give.)
ACC_T order_extended(ACC_T x, bool is_signed) {
#if defined(STORAGE_U8)
    return is_signed ? uint(bitfieldExtract(int(x), 0, 8)) : x;
#elif defined(STORAGE_U16)
    return is_signed ? uint(bitfieldExtract(int(x), 0, 16)) : x;
#else
    return x;
#endif
}

#endif
