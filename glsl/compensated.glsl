// Compensated accumulation (error-free transformations): a float sum or product that runs long is
// kept as an unevaluated pair hi + lo, where hi is the ordinary running result and lo collects the
// rounding error of every step exactly (TwoSum for sums, Dekker's TwoProduct for products), so the
// result is as if accumulated in twice the precision and rounded once. Integer types have no
// rounding: their pair keeps lo = 0 and the steps below are the plain operations.
//
// `precise` keeps the compiler from contracting or reassociating these steps (they rely on every
// operation being rounded separately, in order). TwoProduct splits its operands (Veltkamp) instead of
// calling fma: Vulkan lets fma() round twice, and a product with an unfused fma has no error term.
#ifndef COMPENSATED_GLSL
#define COMPENSATED_GLSL

struct Pair {
    ACC_T hi;  // the running result, rounded at every step
    ACC_T lo;  // the sum of the rounding errors hi has made (float types), else 0
};

Pair pair_of(ACC_T x) { return Pair(x, ACC_T(0)); }

#if defined(ACC_IS_FLOAT)
#if defined(ACC_IS_F64)
const ACC_T SPLITTER = ACC_T(134217729.0);  // 2^27 + 1
ACC_T acc_infinity() { return packDouble2x32(uvec2(0u, 0x7ff00000u)); }
#else
const ACC_T SPLITTER = 4097.0;  // 2^12 + 1
ACC_T acc_infinity() { return uintBitsToFloat(0x7f800000u); }
#endif

// s + e = a + b exactly, s = fl(a + b) (Knuth's TwoSum: no ordering of |a| and |b| needed).
ACC_T two_sum_error(ACC_T a, ACC_T b, ACC_T s) {
    precise ACC_T z = s - a;
    precise ACC_T e = (a - (s - z)) + (b - z);
    return e;
}

// p + e = a · b exactly, p = fl(a · b), unless a or b is near overflow or the product underflows (the
// error term is then dropped: the step is an ordinary rounded product).
ACC_T two_product_error(ACC_T a, ACC_T b, ACC_T p) {
    precise ACC_T ca = SPLITTER * a;
    precise ACC_T ah = ca - (ca - a);
    precise ACC_T al = a - ah;
    precise ACC_T cb = SPLITTER * b;
    precise ACC_T bh = cb - (cb - b);
    precise ACC_T bl = b - bh;
    precise ACC_T e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return abs(e) < acc_infinity() ? e : ACC_T(0);
}

// a + b for pairs (b may be a plain value: b.lo = 0).
Pair pair_add(Pair a, Pair b) {
    precise ACC_T s = a.hi + b.hi;
    precise ACC_T lo = (a.lo + b.lo) + two_sum_error(a.hi, b.hi, s);
    return Pair(s, lo);
}

// a + b for a pair and a value (the common step: one element more).
Pair pair_add_value(Pair a, ACC_T b) {
    precise ACC_T s = a.hi + b;
    precise ACC_T lo = a.lo + two_sum_error(a.hi, b, s);
    return Pair(s, lo);
}

// a · b for a pair and a value.
Pair pair_mul_value(Pair a, ACC_T b) {
    precise ACC_T p = a.hi * b;
    precise ACC_T lo = a.lo * b + two_product_error(a.hi, b, p);
    return Pair(p, lo);
}

// a · b for pairs: the error of hi·hi, and the cross terms. lo·lo stays: a long product's hi drifts
// from the exact value by n·u (biased rounding), so lo is not always small next to hi.
Pair pair_mul(Pair a, Pair b) {
    precise ACC_T p = a.hi * b.hi;
    precise ACC_T lo = ((a.lo * b.hi + a.hi * b.lo) + a.lo * b.lo) + two_product_error(a.hi, b.hi, p);
    return Pair(p, lo);
}

// The pair rounded once; hi alone where hi + lo is 0 (hi may be -0: |lo| < |hi| unless both are 0) or
// NaN (hi is then inf or NaN: an error term of an infinite step is NaN).
ACC_T pair_value(Pair a) {
    precise ACC_T v = a.hi + a.lo;
    return abs(v) > ACC_T(0) ? v : a.hi;
}

// The same value as a normalized pair (|lo| at most half an ulp of hi), for storing between passes;
// (hi, 0) where pair_value would ignore lo.
Pair pair_normalized(Pair a) {
    bool use = a.lo != ACC_T(0) && abs(a.lo) < acc_infinity();
    precise ACC_T v = a.hi + a.lo;
    precise ACC_T e = a.lo - (v - a.hi);
    return use ? Pair(v, e) : Pair(a.hi, ACC_T(0));
}
#else
Pair pair_add_value(Pair a, ACC_T b) { return Pair(a.hi + b, ACC_T(0)); }
Pair pair_mul_value(Pair a, ACC_T b) { return Pair(a.hi * b, ACC_T(0)); }
Pair pair_add(Pair a, Pair b) { return Pair(a.hi + b.hi, ACC_T(0)); }
Pair pair_mul(Pair a, Pair b) { return Pair(a.hi * b.hi, ACC_T(0)); }
ACC_T pair_value(Pair a) { return a.hi; }
Pair pair_normalized(Pair a) { return a; }
#endif

#endif
