// Shared by the scan kernels: specialization constants, push-constant parameters, the combine
// operation (sum, product, maximum, minimum or log-sum-exp, chosen by a specialization constant) and the
// addressing of one chunk of one fiber (a 1-D line along the scanned axis) through arbitrary strides. A dispatch runs the items
// [item_begin, item_end) of its pass; items number (fiber, chunk) pairs, below 2^32.
#ifndef SCAN_COMMON_GLSL
#define SCAN_COMMON_GLSL

#include "kernel_abi.h"
#include "storage_types.glsl"
#include "compensated.glsl"
#include "ordering.glsl"
// Log-sum-exp takes a logarithm per element: its quotient by Newton steps, not by the correctly rounded
// division's bit loop (float32_math.glsl), which would cost more than the scan and, on lavapipe, whose
// loops end after 65,535 trips counted over a whole invocation, stop a long chunk.
#define LOG_NEWTON_QUOTIENT 1
// The accumulator's e^d for d <= 0 and ln of a normal number, vkdml's own (the same bits on every device).
#if defined(ACC_IS_F64)
#include "float64_math.glsl"
#define acc_exp_neg(d) exp_neg64(d)
#define acc_log_normal(x) log64_normal(x)
#elif defined(ACC_IS_FLOAT)
#include "float32_math.glsl"
#define acc_exp_neg(d) exp_neg32(d)
#define acc_log_normal(x) log32_normal(x)
#endif

layout(local_size_x_id = ABI_SPEC_WORKGROUP) in;
#include "work_items.glsl"  // after the workgroup size: it reads gl_WorkGroupSize
layout(constant_id = SCAN_SPEC_OP) const uint OP = 0;  // a SCAN_OP_*: sum, product, maximum, minimum, log-sum-exp
layout(constant_id = SCAN_SPEC_REVERSE) const bool REVERSE = false; // DECREASING direction
layout(constant_id = SCAN_SPEC_EXCLUSIVE) const bool EXCLUSIVE = false;
layout(constant_id = SCAN_SPEC_MODE) const uint MODE = 0;        // a SCAN_MODE_* (kernel_abi.h)
layout(constant_id = SCAN_SPEC_HAS_CARRY) const bool HAS_CARRY = false; // add the chunk's carry
// The number of non-axis dimensions is a constant, not a push word, so that fiber_base compiles to one
// path: lavapipe (Mesa 22) runs the body of every if and loop whether or not a lane takes it, and the
// general path's divisions cost short rows ([1M, 16] along axis 1) 9 % of their time.
layout(constant_id = SCAN_SPEC_OTHER_DIMS) const uint OTHER_DIMS = 1u;
// In place (the carry levels of reduce-then-scan, and a caller's in-place execution): the source is the
// destination, and every load and store goes through the destination's declarations; binding 0 is not
// accessed. SPIR-V lets a compiler assume that two storage-buffer variables without the Aliased
// decoration never overlap, so reading src and writing dst over the same memory would let it move a
// load past the store to the same address (NVIDIA's compiler did: an exclusive scan's store does not
// depend on the element loaded at the same position, and integer carries read back as the identity).
layout(constant_id = SCAN_SPEC_IN_PLACE) const bool IN_PLACE = false;
// NanMode::ignore (the passes that read the caller's input, never the partials): a NaN element reads as
// the combine's identity, 0 for sums and 1 for products, as numpy's nancumsum and nancumprod read it, and
// -inf (+inf) for the maximum (minimum), as numpy's fmax.accumulate (fmin) leaves it out; -inf for
// log-sum-exp.
layout(constant_id = SCAN_SPEC_NAN_IGNORE) const bool NAN_IGNORE = false;
// The maximum and minimum (SELECT) of integers compare signed or unsigned.
layout(constant_id = SCAN_SPEC_SIGNED) const bool SIGNED = false;
const bool SELECT = OP == SCAN_OP_MAX || OP == SCAN_OP_MIN;
// Log-sum-exp (floats): a running pair is (m, S), the running maximum and Σ e^(x - m) (the value is
// m + ln S), not a compensated value. Neither it nor a selection's (value, 0) is normalized.
const bool LSE = OP == SCAN_OP_LOG_SUM_EXP;
const bool RAW_PAIRS = SELECT || LSE;

const uint MODE_SCAN = SCAN_MODE_SCAN;
const uint MODE_REDUCE = SCAN_MODE_REDUCE;
const uint MAX_OTHER_DIMS = SCAN_MAX_OTHER_DIMS;

// Word offsets from kernel_abi.h (128 bytes, the minimum every device allows).
layout(push_constant, std430) uniform Params {
    layout(offset = 4 * SCAN_W_FIBERS) uint fibers;  // number of fibers (product of the non-axis sizes)
    layout(offset = 4 * SCAN_W_LEN) uint len;              // fiber length L
    layout(offset = 4 * SCAN_W_CHUNK_LEN) uint chunk_len;  // elements per chunk
    layout(offset = 4 * SCAN_W_ITEM_END) uint item_end;    // one past the last item of this dispatch
    layout(offset = 4 * SCAN_W_AXIS_IN) uint axis_in;  // input stride along the axis (0: broadcast)
    layout(offset = 4 * SCAN_W_AXIS_OUT) uint axis_out;  // output stride along the axis
    // Element offsets of the input, the output and the partials inside their windows, modulo 2^32.
    layout(offset = 4 * SCAN_W_BASE_IN) uint base_in;
    layout(offset = 4 * SCAN_W_BASE_OUT) uint base_out;
    layout(offset = 4 * SCAN_W_BASE_PART) uint base_part;
    layout(offset = 4 * SCAN_W_ITEM_BEGIN) uint item_begin;  // the first item of this dispatch
    layout(offset = 4 * SCAN_W_SIZE) uint size[MAX_OTHER_DIMS];
    layout(offset = 4 * SCAN_W_STRIDE_IN) uint stride_in[MAX_OTHER_DIMS];
    layout(offset = 4 * SCAN_W_STRIDE_OUT) uint stride_out[MAX_OTHER_DIMS];
} p;

layout(set = 0, binding = 0) readonly buffer Src { STORE_T src[]; };
layout(set = 0, binding = 1) buffer Dst { STORE_T dst[]; };  // read too when IN_PLACE
layout(set = 0, binding = 2) buffer Partials { ACC_T partials[]; };  // one Pair per slot for floats
layout(set = 0, binding = 0) readonly buffer SrcV { STORE_V srcv[]; };
layout(set = 0, binding = 1) buffer DstV { STORE_V dstv[]; };

// Vector i of the source: the destination's when IN_PLACE (a constant: one path compiles).
STORE_V source_vector(uint i) { return IN_PLACE ? dstv[i] : srcv[i]; }

// The identity of the combine: for float sums -0 (x + -0 = x for every x, -0 included), else 0 or 1; the
// type's smallest (largest) value for the maximum (minimum): -inf (+inf) for floats; -inf for log-sum-exp
// (its pair (-inf, 0) is the empty sum, e^-inf = 0).
ACC_T identity() {
    if (OP == SCAN_OP_MAX || LSE) return order_lowest(SIGNED);
    if (OP == SCAN_OP_MIN) return order_highest(SIGNED);
#if defined(ACC_IS_F64)
    if (OP == 0u) return packDouble2x32(uvec2(0u, 0x80000000u));
#elif defined(ACC_IS_FLOAT)
    if (OP == 0u) return uintBitsToFloat(0x80000000u);
#endif
    return OP == 0u ? ACC_T(0) : ACC_T(1);
}

// The maximum (minimum) of a and b: a NaN wins (the first of two); of -0 and +0, +0 (-0), as IEEE
// 754-2019's maximum (minimum); else the larger (smaller) in the type's order. Exact in any order.
ACC_T select(ACC_T a, ACC_T b) {
#if defined(ACC_IS_FLOAT)
    // (Equal values have equal bits but for the zeros: their sign bits ANDed give +0, ORed -0.)
#if defined(ACC_IS_F64)
    uvec2 ua = unpackDouble2x32(a), ub = unpackDouble2x32(b);
    ACC_T equal = packDouble2x32(OP == SCAN_OP_MAX ? ua & ub : ua | ub);
#else
    ACC_T equal = uintBitsToFloat(OP == SCAN_OP_MAX ? floatBitsToUint(a) & floatBitsToUint(b)
                                                    : floatBitsToUint(a) | floatBitsToUint(b));
#endif
    bool b_beyond = OP == SCAN_OP_MAX ? a < b : b < a;
    ACC_T r = b_beyond ? b : (a == b ? equal : a);
    return isnan(a) ? a : (isnan(b) ? b : r);
#else
    bool b_beyond = OP == SCAN_OP_MAX ? order_less(a, b, SIGNED) : order_less(b, a, SIGNED);
    return b_beyond ? b : a;
#endif
}

// What an exclusive scan writes at logical position k given the combine of the elements before it: at
// k = 0 nothing was combined, which reads 0 (not -0) for sums and 1 for products.
Pair exclusive_value(Pair before, uint k) { return (OP == 0u && k == 0u) ? pair_of(ACC_T(0)) : before; }
ACC_T combine(ACC_T a, ACC_T b) { return SELECT ? select(a, b) : (OP == 0u ? a + b : a * b); }

// Log-sum-exp's combine of two (m, S) pairs: the larger maximum stays and the other sum is scaled by
// e^(m_small - m_large) (vkdml's exp_neg32/exp_neg64, float32_math.glsl/float64_math.glsl: the same
// bits on every device); equal maxima (two infinities too) add their sums. Symmetric. A NaN needs no
// test: it makes d, the scale and so S NaN, and S stays NaN in every later combine (scan_value reads it).
Pair lse_combine(Pair a, Pair b) {
#if defined(ACC_IS_FLOAT)
    bool b_higher = a.hi < b.hi;
    Pair top = b_higher ? b : a, low = b_higher ? a : b;
    precise ACC_T d = low.hi - top.hi;  // <= 0; -inf when low.hi is -inf or top.hi is +inf
    ACC_T scale = low.hi == top.hi ? ACC_T(1) : acc_exp_neg(d);
    precise ACC_T s = top.lo + low.lo * scale;
    return Pair(top.hi, s);
#else
    return a;  // (never: log-sum-exp takes floats alone)
#endif
}

// A running combine (compensated for floats, compensated.glsl; a selection's pair is (value, 0);
// log-sum-exp's (m, S), an element x is (x, 1)) and one more value or pair.
Pair combine_value(Pair run, ACC_T x) {
    if (SELECT) return pair_of(select(run.hi, x));
    if (LSE) return lse_combine(run, Pair(x, ACC_T(1)));
    return OP == 0u ? pair_add_value(run, x) : pair_mul_value(run, x);
}
Pair combine_pair(Pair run, Pair x) {
    if (SELECT) return pair_of(select(run.hi, x.hi));
    if (LSE) return lse_combine(run, x);
    return OP == 0u ? pair_add(run, x) : pair_mul(run, x);
}
// A running combine normalized (selections and log-sum-exp have no error term to normalize).
Pair run_normalized(Pair a) { return RAW_PAIRS ? a : pair_normalized(a); }

// The scan's value of a running combine, rounded once: log-sum-exp's m + ln S (m itself when it is not
// finite: -inf for the empty sum, +inf; NaN where S is; else S >= 1, the maximum's own term, and no
// special case of the logarithm arises).
ACC_T scan_value(Pair a) {
#if defined(ACC_IS_FLOAT)
    precise ACC_T lse = a.hi + acc_log_normal(a.lo);
    if (LSE) return isnan(a.lo) ? a.lo : (isinf(a.hi) || isnan(a.hi) ? a.hi : lse);
#endif
    return pair_value(a);
}

// Partial slot i (already offset by base_part): a pair for floats, one accumulator for integers.
Pair load_partial(uint i) {
#if defined(ACC_IS_FLOAT)
    return Pair(partials[2u * i], partials[2u * i + 1u]);
#else
    return pair_of(partials[i]);
#endif
}
void store_partial(uint i, Pair a) {
#if defined(ACC_IS_FLOAT)
    Pair n = run_normalized(a);
    partials[2u * i] = n.hi;
    partials[2u * i + 1u] = n.lo;
#else
    partials[i] = a.hi;
#endif
}

// A leaf of the scan, source element i: a pair (pair storage) or a widened value (LEAF_T); a running
// combine and one more leaf; a pair stored as the element dst[i] (rounded once; pair storage keeps both
// words). (Narrow elements never pass through a function: an 8- or 16-bit parameter would need the
// shaderInt8/shaderInt16 arithmetic features.)
#if defined(PAIR_STORAGE)
#define LEAF_T Pair
Pair source_leaf(uint i) {
    STORE_T x = IN_PLACE ? dst[i] : src[i];
    return Pair(x.x, x.y);
}
Pair combine_leaf(Pair run, Pair x) { return combine_pair(run, x); }
void store_element(uint i, Pair a) {
    Pair n = run_normalized(a);
    dst[i] = STORE_T(n.hi, n.lo);
}
#else
// An input element as the scan reads it: a narrow signed integer sign-extended for the selections;
// NAN_IGNORE: a NaN as 0, 1 or the selection's identity.
ACC_T leaf_value(ACC_T x) {
#if defined(ACC_IS_FLOAT)
    if (NAN_IGNORE && isnan(x)) return (SELECT || LSE) ? identity() : (OP == 0u ? ACC_T(0) : ACC_T(1));
#endif
    return SELECT ? order_extended(x, SIGNED) : x;
}

// Element i of the source, widened (the destination's when IN_PLACE).
ACC_T source_element(uint i) { return leaf_value(IN_PLACE ? TO_ACC(dst[i]) : TO_ACC(src[i])); }
#define LEAF_T ACC_T
ACC_T source_leaf(uint i) { return source_element(i); }
Pair combine_leaf(Pair run, ACC_T x) { return combine_value(run, x); }
void store_element(uint i, Pair a) { dst[i] = FROM_ACC(scan_value(a)); }
#endif

// Chunks per fiber.
uint chunk_count() { return chunks_of(p.len, p.chunk_len); }

// Element offsets of the first element of fiber f in the input and output. Offsets are computed
// modulo 2^32: the base words wrap them back into the window the dispatch binds (src/core/window.hpp).
// IN_PLACE: the input's strides are the output's, and its offsets are the output's too (binding 0 is not
// bound through a window, so base_in carries no window shift).
uvec2 fiber_base(uint f) {
    uvec2 o = uvec2(p.base_in, p.base_out);
    if (OTHER_DIMS == 1u) {
        o += f * uvec2(p.stride_in[0], p.stride_out[0]);
    } else {
        uint r = f;
        for (uint i = 0u; i < OTHER_DIMS; ++i) {
            uint d = OTHER_DIMS - 1u - i;
            uint c = r % p.size[d];
            r /= p.size[d];
            o += c * uvec2(p.stride_in[d], p.stride_out[d]);
        }
    }
    return IN_PLACE ? o.yy : o;
}

// The source's stride along the axis: the output's when IN_PLACE (equal by construction, read from the
// one binding in use).
uint source_axis_stride() { return IN_PLACE ? p.axis_out : p.axis_in; }

// Physical position along the axis of logical position k (direction folded in).
uint axis_pos(uint k) { return REVERSE ? p.len - 1u - k : k; }

// Whether a tile kernel's elements from logical position `start` load and store as whole vectors:
// contiguous, forward, aligned (uniform).
bool vector_io(uvec2 base, uint start) {
    return !REVERSE && source_axis_stride() == 1u && p.axis_out == 1u && (base.x + start) % VEC_W == 0u &&
           (base.y + start) % VEC_W == 0u;
}

// a or b by c, without a branch.
Pair select_pair(bool c, Pair a, Pair b) { return Pair(c ? a.hi : b.hi, c ? a.lo : b.lo); }

#endif
