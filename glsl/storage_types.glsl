// Storage type (how elements sit in memory) and arithmetic type (what kernels accumulate in), chosen
// by the -DSTORAGE_<T> define the build passes. Narrow types load wide and store narrow: float16 goes
// through float32 (converted by hand, round to nearest even, so every device rounds alike) and 8/16/32-
// bit integers through uint32, whose wrap-around keeps the low bits of sums and products exact.
// STORE_V holds VEC_W elements (16 bytes at most) for kernels that load several neighbouring elements
// at once; UNPACK_V makes it a WIDE_V of VEC_W elements of 32 bits or more (WIDE_T each) and PACK_V
// the reverse. Narrow types travel as 32-bit words (little-endian, as every Vulkan device is): 8- and
// 16-bit vector loads and stores are slow on some devices (lavapipe), and the storage-only 8/16-bit
// features allow no arithmetic on narrow values. TO_ACC takes a WIDE_T as well; FROM_ACC_WIDE gives the
// stored bits as a WIDE_T.
#ifndef STORAGE_TYPES_GLSL
#define STORAGE_TYPES_GLSL

// Each variant enables only the extensions (and so the Vulkan features) its storage type needs.
// float16 bits -> float32 (exact). Branch-free: every lane of a SIMD device computes all cases anyway.
// Normal halves move their exponent up by 127 - 15 = 112 (inf and NaN by 112 twice, to 255); a
// subnormal m * 2^-24 comes from an integer conversion and a power-of-two scale, both exact and neither
// touching float32 subnormals, which a device may flush.
float f16_bits_to_f32(uint h) {
    uint m = h & 0x7fffu;
    uint bits = (m << 13) + (m >= 0x7c00u ? 0x70000000u : 0x38000000u);
    float magnitude = m < 0x400u ? float(m) * 5.9604644775390625e-8 : uintBitsToFloat(bits);
    return uintBitsToFloat(floatBitsToUint(magnitude) | ((h & 0x8000u) << 16));
}

// float32 -> float16 bits, round to nearest even; overflow gives inf, NaN stays NaN (quiet, payload
// kept). Branch-free; the same bits as the step-by-step rounding for every float32.
uint f32_to_f16_bits(float f) {
    uint x = floatBitsToUint(f);
    uint sign = (x >> 16) & 0x8000u;
    uint a = x & 0x7fffffffu;
    // Normal halves: 13 mantissa bits rounded off (ties to even), exponent rebiased; a carry or a too
    // large exponent ends at inf.
    uint normal = min((a + 0x0fffu + ((a >> 13) & 1u) - 0x38000000u) >> 13, 0x7c00u);
    // Below 2^-14 the device's own rounding does it: |f| + 0.5 lies in [0.5, 0.5 + 2^-14], where
    // float32's unit is 2^-24, the unit of a subnormal half, so the sum is 0.5 + (|f| rounded to that
    // unit, ties to even) and its low bits are the half's (2^-14 itself carries into the smallest
    // normal, 0x400). Only normal float32 values arise; a flushed subnormal |f| was a zero half anyway.
    precise float shifted = uintBitsToFloat(a) + 0.5;
    uint subnormal = floatBitsToUint(shifted) - 0x3f000000u;
    uint nan = 0x7e00u | ((a >> 13) & 0x3ffu);
    return sign | (a > 0x7f800000u ? nan : (a < 0x38800000u ? subnormal : normal));
}

#if defined(STORAGE_F16)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define STORE_T uint16_t
#define ACC_T float
#define TO_ACC(v) f16_bits_to_f32(uint(v))
#define FROM_ACC(a) uint16_t(f32_to_f16_bits(a))
#define STORE_V uvec2
#define VEC_W 4u
#define WIDE_V uvec4
#define WIDE_T uint
#define FROM_ACC_WIDE(a) f32_to_f16_bits(a)
#define UNPACK_V(u_) uvec4((u_).x & 0xffffu, (u_).x >> 16, (u_).y & 0xffffu, (u_).y >> 16)
#define PACK_V(p_) uvec2(((p_).x & 0xffffu) | ((p_).y << 16), ((p_).z & 0xffffu) | ((p_).w << 16))
#elif defined(STORAGE_F32)
#define STORE_T float
#define ACC_T float
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#define STORE_V vec4
#define VEC_W 4u
#define WIDE_V vec4
#define WIDE_T float
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) (u_)
#define PACK_V(p_) (p_)
#elif defined(STORAGE_F64)
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#define STORE_T double
#define ACC_T double
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#define STORE_V f64vec2
#define VEC_W 2u
#define WIDE_V f64vec2
#define WIDE_T double
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) (u_)
#define PACK_V(p_) (p_)
#elif defined(STORAGE_F32X2) || defined(STORAGE_F64X2)
// Compensated pairs (hi, lo) of float32 or float64 accumulators (compensated.glsl): the partials a scan
// keeps between its passes. Only scan_serial's element path reads them (LOAD_PAIR, STORE_PAIR).
#define PAIR_STORAGE 1
#if defined(STORAGE_F64X2)
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
#define STORE_T f64vec2
#define ACC_T double
#else
#define STORE_T vec2
#define ACC_T float
#endif
#define STORE_V STORE_T
#define VEC_W 1u
#define WIDE_V STORE_T
#define WIDE_T ACC_T
#define UNPACK_V(u_) (u_)
#define PACK_V(p_) (p_)
#elif defined(STORAGE_U8)
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define STORE_T uint8_t
#define ACC_T uint
#define TO_ACC(v) uint(v)
#define FROM_ACC(a) uint8_t(a)
#define STORE_V uint
#define VEC_W 4u
#define WIDE_V uvec4
#define WIDE_T uint
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) uvec4((u_) & 0xffu, ((u_) >> 8) & 0xffu, ((u_) >> 16) & 0xffu, (u_) >> 24)
#define PACK_V(p_) (((p_).x & 0xffu) | (((p_).y & 0xffu) << 8) | (((p_).z & 0xffu) << 16) | ((p_).w << 24))
#elif defined(STORAGE_U16)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define STORE_T uint16_t
#define ACC_T uint
#define TO_ACC(v) uint(v)
#define FROM_ACC(a) uint16_t(a)
#define STORE_V uvec2
#define VEC_W 4u
#define WIDE_V uvec4
#define WIDE_T uint
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) uvec4((u_).x & 0xffffu, (u_).x >> 16, (u_).y & 0xffffu, (u_).y >> 16)
#define PACK_V(p_) uvec2(((p_).x & 0xffffu) | ((p_).y << 16), ((p_).z & 0xffffu) | ((p_).w << 16))
#elif defined(STORAGE_U32)
#define STORE_T uint
#define ACC_T uint
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#define STORE_V uvec4
#define VEC_W 4u
#define WIDE_V uvec4
#define WIDE_T uint
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) (u_)
#define PACK_V(p_) (p_)
#elif defined(STORAGE_U64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#define STORE_T uint64_t
#define ACC_T uint64_t
#define TO_ACC(v) (v)
#define FROM_ACC(a) (a)
#define STORE_V u64vec2
#define VEC_W 2u
#define WIDE_V u64vec2
#define WIDE_T uint64_t
#define FROM_ACC_WIDE(a) (a)
#define UNPACK_V(u_) (u_)
#define PACK_V(p_) (p_)
#else
#error "compile with -DSTORAGE_<F16|F32|F64|F32X2|F64X2|U8|U16|U32|U64>=1"
#endif

#if defined(STORAGE_F16) || defined(STORAGE_F32) || defined(STORAGE_F64) || defined(PAIR_STORAGE)
#define ACC_IS_FLOAT 1
#endif
#if defined(STORAGE_F64) || defined(STORAGE_F64X2)
#define ACC_IS_F64 1
#endif

// The arithmetic type as 32-bit words, for buffers of words (a single-pass scan's tile states, a
// reduction's partials): ACC_WORDS of them, the low word first (for one word, acc_bits(a).y is 0).
#if defined(ACC_IS_F64) || defined(STORAGE_U64)
const uint ACC_WORDS = 2u;
#else
const uint ACC_WORDS = 1u;
#endif
uvec2 acc_bits(ACC_T a) {
#if defined(ACC_IS_F64)
    return unpackDouble2x32(a);
#elif defined(STORAGE_U64)
    return unpack32(a);
#elif defined(ACC_IS_FLOAT)
    return uvec2(floatBitsToUint(a), 0u);
#else
    return uvec2(a, 0u);
#endif
}
ACC_T acc_from_bits(uvec2 u) {
#if defined(ACC_IS_F64)
    return packDouble2x32(u);
#elif defined(STORAGE_U64)
    return pack64(u);
#elif defined(ACC_IS_FLOAT)
    return uintBitsToFloat(u.x);
#else
    return u.x;
#endif
}

#endif
