// Shared by the reduce kernels: specialization constants, push-constant parameters, the fold state of
// each function (value; LOG_SUM_EXP's running maximum and scaled sum; the variances' count, shift and
// shifted sums; the arg functions' index), its
// load / combine / finish steps, the packing of states into 32-bit words for partials between passes,
// and the addressing of outputs and reduced elements through arbitrary strides.
//
// A pass folds, for each output o and chunk c, the elements r in [c·chunk_len, min((c+1)·chunk_len, n))
// of o's reduced index range, taken from the input (r is the row-major position over the reduced axes)
// or, with SRC_PARTIALS, from the states a previous pass left (r is then its chunk number). It writes
// the finished result to the output or, with DST_PARTIALS, the state to partials[o·chunks + c]. A
// dispatch runs the items [item_begin, item_end) of its pass; items number (o, c) pairs, below 2^32.
// Offsets are computed modulo 2^32: the base words wrap them back into the window the dispatch binds
// (src/core/window.hpp).
#ifndef REDUCE_COMMON_GLSL
#define REDUCE_COMMON_GLSL

#include "kernel_abi.h"
#include "storage_types.glsl"
#include "compensated.glsl"
#include "ordering.glsl"
#if defined(STORAGE_F64)
#include "float64_math.glsl"
#endif
#if defined(CANONICAL_FOLD)
#include "rounded_math.glsl"
#if defined(ACC_IS_FLOAT) && !defined(STORAGE_F64)
#include "float32_math.glsl"
#endif
#endif

layout(local_size_x_id = ABI_SPEC_WORKGROUP) in;
#include "work_items.glsl"  // after the workgroup size: it reads gl_WorkGroupSize
layout(constant_id = REDUCE_SPEC_FUNCTION) const uint FUNCTION = 10u;  // DML_REDUCE_FUNCTION
layout(constant_id = REDUCE_SPEC_SRC_PARTIALS) const bool SRC_PARTIALS = false;  // read previous states
layout(constant_id = REDUCE_SPEC_DST_PARTIALS) const bool DST_PARTIALS = false;  // write states
layout(constant_id = REDUCE_SPEC_TIE_LAST) const bool TIE_LAST = false;  // arg: last index among ties
layout(constant_id = REDUCE_SPEC_SIGNED) const bool SIGNED = false;      // integers are signed
layout(constant_id = REDUCE_SPEC_INDEX64) const bool INDEX64 = false;    // arg: 64-bit output indices
// Blocks (reduce_serial's input only): VEC_K > 0 makes each reduced position one block of VEC_K vectors
// of VEC_W input elements, consecutive in memory, holding A = VEC_K·VEC_W / VEC_F consecutive reduced
// elements of each of VEC_F neighbouring outputs (element j: reduced element q·A + j % A of output
// lane j / A). n, chunk_len, the input strides and base_in then count blocks and vectors, and an item
// is VEC_F outputs, 1 element (or VEC_F slots) apart (the planner's block layout).
layout(constant_id = REDUCE_SPEC_VEC_K) const uint VEC_K = 0u;
layout(constant_id = REDUCE_SPEC_VEC_F) const uint VEC_F = 1u;
// The numbers of kept and reduced dimensions are constants, not push words, so that the addressing of
// the common layouts compiles to one path: lavapipe (Mesa 22) runs the body of every if and every loop
// at least once, lanes masked or not, so code a uniform branch skips still costs its time there.
layout(constant_id = REDUCE_SPEC_KEPT_DIMS) const uint KEPT_DIMS = 1u;
layout(constant_id = REDUCE_SPEC_LINE_DIMS) const uint LINE_DIMS = 1u;

const uint F_ARGMAX = REDUCE_F_ARGMAX, F_ARGMIN = REDUCE_F_ARGMIN, F_AVERAGE = REDUCE_F_AVERAGE,
           F_L1 = REDUCE_F_L1, F_L2 = REDUCE_F_L2, F_LOG_SUM = REDUCE_F_LOG_SUM,
           F_LOG_SUM_EXP = REDUCE_F_LOG_SUM_EXP, F_MAX = REDUCE_F_MAX, F_MIN = REDUCE_F_MIN,
           F_MULTIPLY = REDUCE_F_MULTIPLY, F_SUM = REDUCE_F_SUM, F_SUM_SQUARE = REDUCE_F_SUM_SQUARE,
           F_STANDARD_DEVIATION = REDUCE_F_STANDARD_DEVIATION, F_ANY = REDUCE_F_ANY, F_ALL = REDUCE_F_ALL,
           F_COUNT_NONZERO = REDUCE_F_COUNT_NONZERO;
const bool IS_ARG = REDUCE_IS_ARG(FUNCTION);
// ANY, ALL, COUNT_NONZERO: "x is not 0" (a NaN is not 0) folded in the state's index word by |, & or +,
// exact in any order; ANY and ALL write their flag as a byte, COUNT_NONZERO its count as an index.
const bool IS_LOGICAL = REDUCE_IS_LOGICAL(FUNCTION);
const bool VARIANCE_F = REDUCE_IS_VARIANCE(FUNCTION);  // (IS_VAR: in the kernels that run it)
// NanMode::ignore: MIN, MAX and the arg functions skip a NaN element (the state stays as it was); the
// value functions read it as their identity (NAN_AS_IDENTITY: 0, 1 for MULTIPLY, -inf for LOG_SUM_EXP),
// as numpy's nansum and nanprod read it: it adds nothing, and the association is unchanged. AVERAGE
// counts the other elements in the state's index word (COUNTED) and divides by that count; the
// variances and the logical functions skip a NaN element, as the arg functions do.
layout(constant_id = REDUCE_SPEC_NAN_IGNORE) const bool NAN_IGNORE = false;
const bool NAN_AS_IDENTITY =
    NAN_IGNORE && !IS_ARG && FUNCTION != F_MIN && FUNCTION != F_MAX && !VARIANCE_F && !IS_LOGICAL;
// Float sums and products (and LOG_SUM_EXP's scaled sum) are compensated (the State carries their
// rounding error, compensated.glsl) and fold in the canonical association (canonical_walk.glsl: blocks of
// 32 leaves folded left, 32-ary nodes above them, WALK_TOP the chunk's node level), so that their results
// depend on element indices alone. They run in the kernels compiled with CANONICAL_FOLD (*_canonical),
// which run nothing else; the other functions are exact in any order and fold as a kernel finds fastest.
#if defined(CANONICAL_FOLD)
#if !defined(ACC_IS_FLOAT)
#error "CANONICAL_FOLD: float storage only"
#endif
const bool COMPENSATED = REDUCE_IS_COMPENSATED(FUNCTION);
const bool CANONICAL = true;
const bool IS_LSE = FUNCTION == F_LOG_SUM_EXP;
const bool IS_VAR = VARIANCE_F;
layout(constant_id = REDUCE_SPEC_WALK_TOP) const uint WALK_TOP = 0u;
#else
const bool COMPENSATED = false;
const bool CANONICAL = false;
const bool IS_LSE = false;
const bool IS_VAR = false;
#endif
// (Float AVERAGE and the variances always fold canonically; the other kernels' subgroup folds do not
// carry a count.)
const bool COUNTED = (NAN_AS_IDENTITY && FUNCTION == F_AVERAGE && CANONICAL) || IS_VAR;
const bool HAS_INDEX = IS_ARG || IS_LOGICAL;  // the index word travels through subgroup folds too
const bool STATE_INDEX = COUNTED || IS_LOGICAL;  // an index word between passes (beside the arg functions')
const uint NO_INDEX = 0xFFFFFFFFu;  // an empty arg state (indices are < 2^32 - 1)

// Word offsets from kernel_abi.h (128 bytes, the minimum every device allows).
layout(push_constant, std430) uniform Params {
    layout(offset = 4 * REDUCE_W_N) uint n;                // elements folded per output by this pass
    layout(offset = 4 * REDUCE_W_CHUNK_LEN) uint chunk_len;  // elements per chunk
    layout(offset = 4 * REDUCE_W_ITEM_END) uint item_end;  // one past the last item of this dispatch
    // Element (SRC_PARTIALS, DST_PARTIALS: word) offsets of the source and destination in their windows,
    // modulo 2^32.
    layout(offset = 4 * REDUCE_W_BASE_IN) uint base_in;
    layout(offset = 4 * REDUCE_W_BASE_OUT) uint base_out;
    layout(offset = 4 * REDUCE_W_ITEM_BEGIN) uint item_begin;  // the first item of this dispatch
    layout(offset = 4 * REDUCE_W_CORRECTION) uint correction;  // the variances: N - correction divides
    layout(offset = 4 * REDUCE_W_N_TOTAL) uint n_total;  // N over all passes (AVERAGE)
    // Kept: size, stride_in, stride_out each; then reduced: size, stride_in each.
    layout(offset = 4 * REDUCE_W_DIM) uint dim[REDUCE_MAX_DIM_WORDS];
} p;

layout(set = 0, binding = 0) readonly buffer Src { STORE_T src[]; };
layout(set = 0, binding = 0) readonly buffer SrcWords { uint src_words[]; };
layout(set = 0, binding = 0) readonly buffer SrcV { STORE_V srcv[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { STORE_T dst[]; };
layout(set = 0, binding = 1) writeonly buffer DstWords { uint dst_words[]; };
layout(set = 0, binding = 1) buffer DstBytes { uint dst_bytes[]; };  // ANY, ALL: bytes set by atomics

// ---- arithmetic type facts -------------------------------------------------------------------
const uint STATE_WORDS = REDUCE_STATE_WORDS(ACC_WORDS, FUNCTION, COMPENSATED, STATE_INDEX);

#if defined(STORAGE_F64)
ACC_T acc_inf() { return f64_inf(); }
ACC_T acc_nan() { return f64_nan(); }
ACC_T acc_exp(ACC_T x) { return exp64(x); }
ACC_T acc_log(ACC_T x) { return log64(x); }
#elif defined(ACC_IS_FLOAT)
ACC_T acc_inf() { return uintBitsToFloat(0x7f800000u); }
ACC_T acc_nan() { return uintBitsToFloat(0x7fc00000u); }
#if defined(CANONICAL_FOLD)
// vkdml's own, not the device's: the same bits on every device (float32_math.glsl).
ACC_T acc_exp(ACC_T x) { return exp32(x); }
ACC_T acc_log(ACC_T x) { return log32(x); }
#else
// (Never called: LOG_SUM and LOG_SUM_EXP run in the canonical kernels alone.)
ACC_T acc_exp(ACC_T x) { return exp(x); }
ACC_T acc_log(ACC_T x) { return log(x); }
#endif
#endif

bool acc_isnan(ACC_T a) {
#if defined(ACC_IS_FLOAT)
    return isnan(a);
#else
    return false;
#endif
}

// Whether x is not 0 (either zero), told by its bits.
bool acc_nonzero(ACC_T x) {
#if defined(STORAGE_F64)
    uvec2 u = unpackDouble2x32(x);
    return ((u.y & 0x7fffffffu) | u.x) != 0u;
#elif defined(ACC_IS_FLOAT)
    return (floatBitsToUint(x) & 0x7fffffffu) != 0u;
#else
    return x != ACC_T(0);
#endif
}

// The data type's order (ordering.glsl), with this kernel's signedness.
bool acc_signbit(ACC_T a) { return order_signbit(a); }
bool acc_less(ACC_T a, ACC_T b) { return order_less(a, b, SIGNED); }

ACC_T acc_abs(ACC_T a) {
#if defined(ACC_IS_FLOAT)
    return abs(a);
#elif defined(STORAGE_U64)
    return (SIGNED && int64_t(a) < 0l) ? uint64_t(0) - a : a;
#else
    return (SIGNED && int(a) < 0) ? 0u - a : a;
#endif
}

ACC_T acc_lowest() { return order_lowest(SIGNED); }
ACC_T acc_highest() { return order_highest(SIGNED); }

// Element value in the arithmetic type; narrow signed integers are sign-extended (wrap-around sums
// and products keep the same low bits either way; comparisons and |x| need the sign).
ACC_T element_value(WIDE_T stored) { return order_extended(TO_ACC(stored), SIGNED); }
ACC_T load_element(uint index) { return element_value(WIDE_T(src[index])); }

// ---- fold state ----------------------------------------------------------------------------------
// The variances fold shifted sums (IS_VAR): with k the first element a state took, v + c = Σ (x - k) and
// s + t = Σ (x - k)², compensated, over the i elements; combine moves the second state's sums to the
// first's shift. Data far from 0 but close together (1e8 + N(0, 1)) then loses nothing to the mean: x - k
// is exact there, where a plain Σ x² - (Σ x)²/N would cancel every digit.
struct State {
    ACC_T v;  // the folded value; LOG_SUM_EXP: the running maximum m; IS_VAR: Σ (x - k)
    ACC_T s;  // LOG_SUM_EXP: Σ e^(x - m); IS_VAR: Σ (x - k)²
    ACC_T c;  // COMPENSATED: the rounding error of v (LOG_SUM_EXP: of s) so far
    ACC_T t;  // IS_VAR: the rounding error of s
    ACC_T k;  // IS_VAR: the shift
    uint i;   // arg functions: index of v among the reduced elements (NO_INDEX: empty); COUNTED: numbers
};

State empty_state() {
    State st;
    st.s = ACC_T(0);
    st.c = ACC_T(0);
    st.t = ACC_T(0);
    st.k = ACC_T(0);
    st.i = COUNTED ? 0u : NO_INDEX;
    if (IS_LOGICAL) st.i = FUNCTION == F_ALL ? 1u : 0u;
    if (FUNCTION == F_MULTIPLY) st.v = ACC_T(1);
    else if (FUNCTION == F_MIN) st.v = acc_highest();
    else if (FUNCTION == F_MAX || IS_LSE || IS_ARG) st.v = acc_lowest();
#if defined(ACC_IS_FLOAT)
    else if (IS_VAR) st.v = ACC_T(0);
    else st.v = -ACC_T(0);  // x + -0 = x for every x, -0 included
#else
    else st.v = ACC_T(0);
#endif
    return st;
}

State element_state(ACC_T x, uint index) {
    State st;
    st.v = x;
    st.s = ACC_T(1);
    st.c = ACC_T(0);
    st.t = ACC_T(0);
    st.k = x;
    st.i = index;
    if (IS_VAR) {  // k = x: nothing shifted yet
        st.v = ACC_T(0);
        st.s = ACC_T(0);
        st.i = 1u;
    }
    if (FUNCTION == F_L1) st.v = acc_abs(x);
    else if (FUNCTION == F_SUM_SQUARE || FUNCTION == F_L2) st.v = x * x;
    return st;
}

// Which of two arg states wins: the more extreme value; a NaN beats any number; equal values (or two
// NaNs) go to the lower index, or the higher with TIE_LAST. Symmetric, so any fold order agrees. (With
// NAN_IGNORE no NaN ever enters an arg state: fold_element skips them.)
bool arg_takes_b(State a, State b) {
    if (a.i == NO_INDEX) return true;
    if (b.i == NO_INDEX) return false;
    bool an = acc_isnan(a.v), bn = acc_isnan(b.v);
    bool tie = (an && bn) || (!an && !bn && a.v == b.v);
    if (tie) return TIE_LAST ? b.i > a.i : b.i < a.i;
    if (an || bn) return bn;
    return FUNCTION == F_ARGMAX ? acc_less(a.v, b.v) : acc_less(b.v, a.v);
}

State combine(State a, State b) {
    if (IS_ARG) return arg_takes_b(a, b) ? b : a;
    if (IS_LOGICAL) {
        State r = a;
        r.i = FUNCTION == F_ANY ? (a.i | b.i) : (FUNCTION == F_ALL ? (a.i & b.i) : a.i + b.i);
        return r;
    }
    State r = a;
#if defined(ACC_IS_FLOAT)
    if (IS_VAR) {
        // b's sums moved to a's shift: with δ = k_b - k_a (kept exactly as a pair), Σ_b (x - k_a) =
        // S1_b + n_b·δ and Σ_b (x - k_a)² = S2_b + δ·(S1_b + Σ_b (x - k_a)). An empty side is the other.
        precise ACC_T dh = b.k - a.k;
        Pair d = Pair(dh, two_sum_error(b.k, -a.k, dh));
        Pair s1b = pair_add(Pair(b.v, b.c), pair_mul_value(d, ACC_T(b.i)));
        Pair s2b = pair_add(Pair(b.s, b.t), pair_mul(d, pair_add(Pair(b.v, b.c), s1b)));
        Pair s1 = pair_add(Pair(a.v, a.c), s1b);
        Pair s2 = pair_add(Pair(a.s, a.t), s2b);
        r.v = s1.hi;
        r.c = s1.lo;
        r.s = s2.hi;
        r.t = s2.lo;
        r.i = a.i + b.i;
        return a.i == 0u ? b : (b.i == 0u ? a : r);
    }
    if (IS_LSE) {
        // (m, S) pairs: the larger maximum stays, the other sum is rescaled by e^(m_small - m_large).
        // The sums are compensated pairs (s, c); a rescaled one is rounded at the scale's precision.
        if (acc_isnan(a.v) || acc_isnan(b.v)) {
            r.v = a.v + b.v;
            r.s = ACC_T(1);
            r.c = ACC_T(0);
        } else if (a.v == b.v) {
            Pair sum = pair_add(Pair(a.s, a.c), Pair(b.s, b.c));
            r.s = sum.hi;
            r.c = sum.lo;
        } else {
            State hi = a.v > b.v ? a : b;
            State lo = a.v > b.v ? b : a;
            ACC_T d = lo.v - hi.v;  // < 0; -inf when lo.v is -inf or hi.v is +inf
            ACC_T scale = acc_exp(d);
            Pair sum = d == -acc_inf() ? Pair(hi.s, hi.c)
                                       : pair_add(Pair(hi.s, hi.c), Pair(lo.s * scale, lo.c * scale));
            r.v = hi.v;
            r.s = sum.hi;
            r.c = sum.lo;
        }
        return r;
    }
#endif
    if (FUNCTION == F_MIN || FUNCTION == F_MAX) {
        // A NaN wins (NAN_IGNORE: any number beats it); otherwise the smaller (larger) value, and of
        // -0 and +0, -0 for MIN and +0 for MAX (IEEE 754-2019 minimum, maximum): equal values that
        // differ in the sign bit are two zeros. Symmetric, so any fold order agrees.
        bool an = acc_isnan(a.v), bn = acc_isnan(b.v);
        if (an || bn) return an != NAN_IGNORE ? a : b;
        bool b_beyond = FUNCTION == F_MIN ? acc_less(b.v, a.v) : acc_less(a.v, b.v);
        bool b_zero =
            a.v == b.v && acc_signbit(a.v) != acc_signbit(b.v) && acc_signbit(b.v) == (FUNCTION == F_MIN);
        return (b_beyond || b_zero) ? b : a;
    }
    Pair folded = FUNCTION == F_MULTIPLY ? pair_mul(Pair(a.v, a.c), Pair(b.v, b.c))
                                         : pair_add(Pair(a.v, a.c), Pair(b.v, b.c));
    r.v = folded.hi;
    r.c = COMPENSATED ? folded.lo : ACC_T(0);
    if (COUNTED) r.i = a.i + b.i;
    return r;
}

// NAN_AS_IDENTITY: what a NaN element reads as.
ACC_T nan_identity() {
    return FUNCTION == F_MULTIPLY ? ACC_T(1) : (FUNCTION == F_LOG_SUM_EXP ? acc_lowest() : ACC_T(0));
}

// combine(st, element_state(x, index)) for an element after every one st holds (index > st.i), cheaper:
// the compensated functions join one plain value to the pair (no second error term), LOG_SUM_EXP
// rescales with one exponential and no branch, and the arg functions take the later element on a tie
// only with TIE_LAST (and never a NaN with NAN_IGNORE).
State fold_element(State st, ACC_T x, uint index) {
#if defined(ACC_IS_FLOAT)
    if (IS_VAR) {
        // The first element sets the shift; each one adds x - k and its square (rounded: a sum of
        // squares has no cancellation). NAN_IGNORE: a NaN element leaves the state as it was. An infinite
        // element (or shift) deviates by NaN, so that S1 is NaN where an element is not finite, and ±inf
        // only where finite deviations pass the range (finish_variance; both ways at once, -inf + inf,
        // is NaN too).
        ACC_T k = st.i == 0u ? x : st.k;
        precise ACC_T d = (isinf(x) || isinf(k)) ? acc_nan() : x - k;
        precise ACC_T sq = d * d;
        Pair s1 = pair_add_value(Pair(st.v, st.c), d);
        Pair s2 = pair_add_value(Pair(st.s, st.t), sq);
        State r = st;
        r.v = s1.hi;
        r.c = s1.lo;
        r.s = s2.hi;
        r.t = s2.lo;
        r.k = k;
        r.i = st.i + 1u;
        return (NAN_IGNORE && acc_isnan(x)) ? st : r;
    }
#endif
    if (IS_LOGICAL) {
        // Not 0 by its bits (a device may flush a subnormal to 0 in a comparison; a NaN is not 0).
        // (NAN_IGNORE: a NaN element leaves the state as it was.)
        uint nonzero = (acc_nonzero(x) && !(NAN_IGNORE && acc_isnan(x))) ? 1u : 0u;
        uint all = (NAN_IGNORE && acc_isnan(x)) ? st.i : (st.i & nonzero);
        st.i = FUNCTION == F_ANY ? (st.i | nonzero) : (FUNCTION == F_ALL ? all : st.i + nonzero);
        return st;
    }
    if (NAN_AS_IDENTITY) {
        bool nan = acc_isnan(x);
        if (COUNTED && !nan) st.i += 1u;
        if (nan) x = nan_identity();
    }
    if (IS_ARG) {
        bool xn = acc_isnan(x), sn = acc_isnan(st.v);
        bool beyond = FUNCTION == F_ARGMAX ? acc_less(st.v, x) : acc_less(x, st.v);
        bool tie = (xn && sn) || (!xn && !sn && x == st.v);
        bool take = st.i == NO_INDEX || (xn && !sn) || (!sn && beyond) || (TIE_LAST && tie);
        if (NAN_IGNORE ? take && !xn : take) {
            st.v = x;
            st.i = index;
        }
        return st;
    }
    if (!COMPENSATED) return combine(st, element_state(x, index));
#if defined(ACC_IS_FLOAT)
    if (IS_LSE) {
        // A larger x becomes the maximum and the sum so far is scaled by e^(m - x); else e^(x - m) joins
        // the sum. (Equal values, infinities among them: e^0.) A NaN makes the state combine's NaN,
        // chosen by selects: a call of combine would run its every line on lavapipe, NaN or not.
        bool nan = acc_isnan(x) || acc_isnan(st.v);
        bool up = x > st.v;
        ACC_T d = x == st.v ? ACC_T(0) : (up ? st.v - x : x - st.v);  // <= 0; -inf from an empty state
        ACC_T scale = d == -acc_inf() ? ACC_T(0) : acc_exp(d);  // not left to the device's exp(-inf)
        Pair sum = up ? Pair(st.s * scale, st.c * scale) : Pair(st.s, st.c);
        sum = pair_add_value(sum, up ? ACC_T(1) : scale);
        st.v = nan ? st.v + x : (up ? x : st.v);
        st.s = nan ? ACC_T(1) : sum.hi;
        st.c = nan ? ACC_T(0) : sum.lo;
        return st;
    }
#endif
    State e = element_state(x, index);
    Pair r = FUNCTION == F_MULTIPLY ? pair_mul_value(Pair(st.v, st.c), e.v)
                                    : pair_add_value(Pair(st.v, st.c), e.v);
    st.v = r.hi;
    st.c = r.lo;
    return st;
}

#if defined(CANONICAL_FOLD)
// a / b for a pair and a value, as a pair: the quotient of hi, correctly rounded, and the quotient of
// what it leaves (hi - q·b exactly, plus lo). Rounded once (pair_value), it is a / b correctly rounded
// but for the rarest near-ties.
Pair pair_div_value(Pair a, ACC_T b) {
    ACC_T q = div_rn(a.hi, b);
    Pair back = pair_mul_value(pair_of(q), b);  // q·b exactly
    precise ACC_T rem = ((a.hi - back.hi) - back.lo) + a.lo;
    return Pair(q, div_rn(rem, b));
}

// The variances' result: M2 = S2 - S1·(S1/N) with the pairs, then M2 / (N - correction) as a pair, rounded
// once; the standard deviation its square root, correctly rounded. M2 below 0 (rounding) is 0; N <=
// correction divides by 0 (+inf, or NaN where M2 is 0, as NumPy); a fiber without a number (NAN_IGNORE)
// gives NaN. Finite data whose shifted sums overflow (S2 +inf, or NaN from inf - inf in a merge; S1 not
// NaN) gives +inf, as NumPy's sum of squares does, not inf - inf; data spanning more than the type's
// range both ways from the shift (S1 = -inf + inf) stays NaN.
ACC_T finish_variance(State st) {
    Pair s1 = Pair(st.v, st.c);
    // S1·(S1/N), not S1²/N: it stays finite wherever S2 is (S1²/N <= S2).
    Pair q = pair_mul(s1, pair_div_value(s1, ACC_T(st.i)));
    Pair m2 = pair_add(Pair(st.s, st.t), Pair(-q.hi, -q.lo));
    ACC_T m2v = pair_value(m2);
    m2 = (m2v < ACC_T(0) && !isinf(m2v)) ? pair_of(ACC_T(0)) : m2;
    ACC_T dof = st.i > p.correction ? ACC_T(st.i - p.correction) : ACC_T(0);
    ACC_T var = dof > ACC_T(0) ? pair_value(pair_div_value(m2, dof)) : div_rn(pair_value(m2), dof);
    ACC_T r = FUNCTION == F_STANDARD_DEVIATION ? sqrt_rn(var) : var;
    if ((isinf(st.s) || acc_isnan(st.s)) && !acc_isnan(st.v)) r = acc_inf();
    return st.i == 0u ? (ACC_T(0) / ACC_T(0)) : r;
}
#endif

// The result of a complete fold, in the arithmetic type.
ACC_T finish(State st) {
#if defined(ACC_IS_FLOAT)
    ACC_T v = IS_LSE ? st.v : pair_value(Pair(st.v, st.c));  // the compensated fold, rounded once
#if defined(CANONICAL_FOLD)
    if (IS_VAR) return finish_variance(st);
    // (Correctly rounded: the same bits on every device.)
    if (FUNCTION == F_AVERAGE) return div_rn(v, COUNTED ? ACC_T(st.i) : ACC_T(p.n_total));
    if (FUNCTION == F_L2) return sqrt_rn(v);
#else
    if (FUNCTION == F_AVERAGE) return v / (COUNTED ? ACC_T(st.i) : ACC_T(p.n_total));
    if (FUNCTION == F_L2) return sqrt(v);
#endif
    if (FUNCTION == F_LOG_SUM) return acc_log(v);
    if (IS_LSE) return (isinf(st.v) || acc_isnan(st.v)) ? st.v : st.v + acc_log(pair_value(Pair(st.s, st.c)));
    return v;
#else
    return st.v;
#endif
}

// ---- states as 32-bit words (partials between passes) ------------------------------------------
void acc_to_words(ACC_T a, uint w) {
    uvec2 u = acc_bits(a);
    dst_words[w] = u.x;
    if (ACC_WORDS == 2u) dst_words[w + 1u] = u.y;
}

ACC_T acc_from_words(uint w) {
    uvec2 u = uvec2(src_words[w], 0u);
    if (ACC_WORDS == 2u) u.y = src_words[w + 1u];
    return acc_from_bits(u);
}

// The state with its compensated pair normalized (hi the rounded value, lo what is left): the form a
// state is stored in between passes, and a canonical node total's.
State state_normalized(State st) {
    if (IS_VAR) {
        Pair n = pair_normalized(Pair(st.s, st.t));
        st.s = n.hi;
        st.t = n.lo;
    }
    if (COMPENSATED) {
        Pair n = pair_normalized(IS_LSE ? Pair(st.s, st.c) : Pair(st.v, st.c));
        if (IS_LSE) st.s = n.hi;
        else st.v = n.hi;
        st.c = n.lo;
    }
    return st;
}

// Words (acc words each): v, s (LOG_SUM_EXP, the variances), c (COMPENSATED), t and k (the variances);
// then the index or count.
const uint S_WORD = ACC_WORDS;
const uint C_WORD = ((IS_LSE || IS_VAR) ? 2u : 1u) * ACC_WORDS;
const uint T_WORD = C_WORD + ACC_WORDS;
const uint K_WORD = T_WORD + ACC_WORDS;

void write_state(uint slot, State st) {
    uint w = p.base_out + slot * STATE_WORDS;
    st = state_normalized(st);
    acc_to_words(st.v, w);
    if (IS_LSE || IS_VAR) acc_to_words(st.s, w + S_WORD);
    if (COMPENSATED) acc_to_words(st.c, w + C_WORD);
    if (IS_VAR) {
        acc_to_words(st.t, w + T_WORD);
        acc_to_words(st.k, w + K_WORD);
    }
    if (IS_ARG || STATE_INDEX) dst_words[w + STATE_WORDS - 1u] = st.i;
}

State read_state(uint slot) {
    uint w = p.base_in + slot * STATE_WORDS;
    State st;
    st.v = acc_from_words(w);
    st.s = (IS_LSE || IS_VAR) ? acc_from_words(w + S_WORD) : ACC_T(1);
    st.c = COMPENSATED ? acc_from_words(w + C_WORD) : ACC_T(0);
    st.t = IS_VAR ? acc_from_words(w + T_WORD) : ACC_T(0);
    st.k = IS_VAR ? acc_from_words(w + K_WORD) : ACC_T(0);
    st.i = (IS_ARG || STATE_INDEX) ? src_words[w + STATE_WORDS - 1u] : 0u;
    return st;
}

// ---- addressing ----------------------------------------------------------------------------------
// Chunks per output.
uint chunk_count() { return chunks_of(p.n, p.chunk_len); }

uint kept_dims() { return KEPT_DIMS; }
uint reduced_dims() { return LINE_DIMS; }

// (The common layouts take paths with constant push-constant indices: a variable index is gathered
// per invocation on some devices (lavapipe).)
uint output_count() {
    if (kept_dims() == 1u) return p.dim[REDUCE_D_KEPT_SIZE(0u)];
    uint count = 1u;
    for (uint d = 0u; d < kept_dims(); ++d) count *= p.dim[REDUCE_D_KEPT_SIZE(d)];
    return count;
}

// Element offsets of output o's first input element (x) and of the output element (y).
uvec2 output_base(uint o) {
    if (kept_dims() == 1u)
        return o * uvec2(p.dim[REDUCE_D_KEPT_STRIDE_IN(0u)], p.dim[REDUCE_D_KEPT_STRIDE_OUT(0u)]);
    uvec2 off = uvec2(0u);
    uint rest = o;
    for (uint i = 0u; i < kept_dims(); ++i) {
        uint d = kept_dims() - 1u - i;
        uint size = p.dim[REDUCE_D_KEPT_SIZE(d)];
        uint c = rest % size;
        rest /= size;
        off += c * uvec2(p.dim[REDUCE_D_KEPT_STRIDE_IN(d)], p.dim[REDUCE_D_KEPT_STRIDE_OUT(d)]);
    }
    return off;
}

// Input element offset of reduced index r (row-major over the reduced dimensions).
uint reduced_offset(uint r) {
    if (reduced_dims() == 1u) return r * p.dim[REDUCE_D_LINE_STRIDE_IN(kept_dims(), 0u)];
    uint off = 0u;
    uint rest = r;
    for (uint i = 0u; i < reduced_dims(); ++i) {
        uint j = reduced_dims() - 1u - i;
        uint size = p.dim[REDUCE_D_LINE_SIZE(kept_dims(), j)];
        uint c = rest % size;
        rest /= size;
        off += c * p.dim[REDUCE_D_LINE_STRIDE_IN(kept_dims(), j)];
    }
    return off;
}

// st folded with element r of output o (in_base = output_base(o).x).
State fold_at(State st, uint o, uint in_base, uint r) {
    if (SRC_PARTIALS) return combine(st, read_state(o * p.n + r));
    return fold_element(st, load_element(p.base_in + in_base + reduced_offset(r)), r);
}

// Writes output o's state (DST_PARTIALS) or finished result.
void store_state(uint o, uint chunk, uint out_base, State st) {
    if (DST_PARTIALS) {
        write_state(o * chunk_count() + chunk, st);
    } else if (IS_LOGICAL && FUNCTION != F_COUNT_NONZERO) {
        // One byte of a word other invocations may write too: cleared, then set, by atomics.
        uint at = p.base_out + out_base;
        uint shift = (at & 3u) * 8u;
        atomicAnd(dst_bytes[at >> 2u], ~(0xFFu << shift));
        atomicOr(dst_bytes[at >> 2u], st.i << shift);
    } else if (IS_ARG || IS_LOGICAL) {
        uint at = p.base_out + out_base;
        uint index = (IS_ARG && st.i == NO_INDEX) ? 0u : st.i;  // NAN_IGNORE, every element NaN: index 0
        if (INDEX64) {
            dst_words[2u * at] = index;
            dst_words[2u * at + 1u] = 0u;
        } else {
            dst_words[at] = index;
        }
    } else {
        dst[p.base_out + out_base] = FROM_ACC(finish(st));
    }
}

#endif
