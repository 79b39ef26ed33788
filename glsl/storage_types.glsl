// Storage type (how elements sit in memory) and arithmetic type (what kernels accumulate in), chosen
// by the -DSTORAGE_<T> define the build passes. Narrow types load wide and store narrow: float16 goes
// through float32 (converted by hand, round to nearest even, so every device rounds alike) and 8/16/32-
// bit integers through uint32, whose wrap-around keeps the low bits of sums and products exact.
#ifndef STORAGE_TYPES_GLSL
#define STORAGE_TYPES_GLSL

// Each variant enables only the extensions (and so the Vulkan features) its storage type needs.
// float16 bits -> float32 (exact).
float f16_bits_to_f32(uint h) {
    uint sign = (h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1fu;
    uint m = h & 0x3ffu;
    if (e == 0u) {
        float v = float(m) * 5.9604644775390625e-8;  // m * 2^-24
        return (sign != 0u) ? -v : v;
    }
    if (e == 31u) return uintBitsToFloat(sign | 0x7f800000u | (m << 13));
    return uintBitsToFloat(sign | ((e + 112u) << 23) | (m << 13));
}

// float32 -> float16 bits, round to nearest even; overflow gives inf, NaN stays NaN.
uint f32_to_f16_bits(float f) {
    uint x = floatBitsToUint(f);
    uint sign = (x >> 16) & 0x8000u;
    uint e = (x >> 23) & 0xffu;
    uint m = x & 0x7fffffu;
    if (e == 255u) return sign | 0x7c00u | (m != 0u ? (0x200u | (m >> 13)) : 0u);
    int ee = int(e) - 112;
    if (ee >= 31) return sign | 0x7c00u;
    if (ee <= 0) {
        if (ee < -10) return sign;
        m |= 0x800000u;
        uint shift = uint(14 - ee);
        uint h = m >> shift;
        uint rem = m & ((1u << shift) - 1u);
        uint halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (h & 1u) != 0u)) h += 1u;
        return sign | h;
    }
    uint h = (uint(ee) << 10) | (m >> 13);
    uint rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) h += 1u;
    return sign | h;
}

#if defined(STORAGE_F16)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define STORE_T uint16_t
#define ACC_T float
#define TO_ACC(v) f16_bits_to_f32(uint(v))
#define FROM_ACC(a) uint16_t(f32_to_f16_bits(a))
#elif defined(STORAGE_F32)
#define STORE_T float
#define ACC_T float
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#elif defined(STORAGE_F64)
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#define STORE_T double
#define ACC_T double
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#elif defined(STORAGE_U8)
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define STORE_T uint8_t
#define ACC_T uint
#define TO_ACC(v) uint(v)
#define FROM_ACC(a) uint8_t(a)
#elif defined(STORAGE_U16)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define STORE_T uint16_t
#define ACC_T uint
#define TO_ACC(v) uint(v)
#define FROM_ACC(a) uint16_t(a)
#elif defined(STORAGE_U32)
#define STORE_T uint
#define ACC_T uint
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#elif defined(STORAGE_U64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#define STORE_T uint64_t
#define ACC_T uint64_t
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#else
#error "compile with -DSTORAGE_<F16|F32|F64|U8|U16|U32|U64>=1"
#endif

#endif
