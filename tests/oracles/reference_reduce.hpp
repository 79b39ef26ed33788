// reference_reduce.hpp — CPU oracle for DML_REDUCE (all 12 functions) and the standalone ARGMIN/ARGMAX
// operators (SPEC §3), and the float tolerance rule their tests use.
//
// Each output element folds the N input elements that share its non-reduced coordinates. The oracle
// walks every output position (row-major over the output sizes: the input sizes with 1 on every
// reduced axis), then every reduced multi-index in row-major order (the highest reduced axis fastest),
// so the k-th element visited has arg index k whatever the order of `axes`.
//   Integers: exact modulo 2^bits (folded in uint64 arithmetic, which wraps modulo 2^64; the low bits
//     of a sum or product depend only on the low bits of the operands). L1 takes |x| modulo 2^bits, so
//     the most negative signed value is its own absolute value (unsigned values, UINT64's >= 2^63
//     included, are their own). MIN/MAX compare signed or unsigned per type.
//   Floats: the exact stored inputs (FLOAT16 read exactly) are folded in long double (sums with
//     Neumaier compensation, so the reference itself is as good as exact), and `value` is the exact
//     result. The accepted results model the accumulator the SPEC prescribes: FLOAT16 and FLOAT32 in
//     float32 (24-bit significand, eps = 2^-23), FLOAT64 in float64 (eps = 2^-52), rounded once to the
//     output type at the end.
//   Arg functions: the index of the first extreme element (the last one with ArgTie::last); a NaN is
//     more extreme than anything (first NaN, or last NaN with ArgTie::last), as NumPy does.
//   MIN/MAX of floats: exact; of +0 and -0, MIN gives -0 and MAX +0 (IEEE 754-2019).
//   NanMode::ignore (MIN, MAX, arg functions): NaN elements are left out; with none left, MAX gives
//     -inf, MIN +inf and the arg functions index 0.
//   AxisCount 0 (empty axes): each output folds its one element, N = 1 (SPEC §3).
#pragma once

#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"  // to_string(DML_REDUCE_FUNCTION) for messages

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vkdml_test {

/// Which of several equal extremes an arg function returns.
enum class ArgTie { first, last };

/// One reduction: REDUCE with `function`, or a standalone ARGMIN/ARGMAX (see standalone_arg_spec).
struct ReduceSpec {
    DML_REDUCE_FUNCTION function = DML_REDUCE_FUNCTION_SUM;
    std::vector<uint32_t> axes;  // any order, no duplicates; empty = AxisCount 0
    ArgTie tie = ArgTie::first;  // arg functions only
    // Arg functions: INT32, INT64, UINT32 or UINT64. Other functions: the input type (UNKNOWN means
    // "the input type" for them).
    DML_TENSOR_DATA_TYPE output_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    vkdml::NanMode nan_mode = vkdml::NanMode::propagate;  // MIN, MAX and arg functions only
};

/// "SUM", "LOG_SUM_EXP", ... (DirectML suffix): the library's names.
using vkdml::to_string;
/// "ARGMAX axes {1, 0} tie last -> INT64".
std::string to_string(const ReduceSpec& spec);

/// ARGMAX or ARGMIN.
bool is_arg_function(DML_REDUCE_FUNCTION function);

/// AVERAGE, L2, LOG_SUM, LOG_SUM_EXP: defined on FLOAT16/32/64 only (SPEC §4). The tests' own reading
/// of the spec, kept apart from the library's (src/ops/reduce/reduce_validation.cpp) on purpose: an oracle.
bool is_float_only_function(DML_REDUCE_FUNCTION f);

/// The spec of a standalone DML_OPERATOR_ARGMAX / DML_OPERATOR_ARGMIN: the REDUCE arg function with
/// ties going to the last index when `direction` is DECREASING.
ReduceSpec standalone_arg_spec(DML_OPERATOR_TYPE op, std::vector<uint32_t> axes, DML_AXIS_DIRECTION direction,
                               DML_TENSOR_DATA_TYPE output_type);

/// The output sizes: `input_sizes` with 1 on every reduced axis.
std::vector<uint32_t> reduce_output_sizes(const std::vector<uint32_t>& input_sizes,
                                          const std::vector<uint32_t>& axes);

/// The output type of `spec` for an input of `input_type` (resolves UNKNOWN for non-arg functions).
DML_TENSOR_DATA_TYPE reduce_output_type(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type);

/// The reference result of one output element, with what the float comparison needs.
struct ReduceElement {
    uint64_t bits = 0;         // integer outputs: the exact result modulo 2^64 (compare the low bits);
                               // arg functions: the index of the selected element
    long double value = 0;     // floats: the exact result before rounding to the output type; arg
                               // functions: the selected input value; integers: the wrapped result
    long double inner = 0;     // floats: the folded quantity the last step maps: Σx (SUM, AVERAGE,
                               // LOG_SUM), Σ|x| (L1), Σx² (SUM_SQUARE, L2), Πx (MULTIPLY), Σe^(x−m)
                               // (LOG_SUM_EXP); MIN/MAX: the result
    long double scale = 0;     // floats: error scale of `inner`: Σ|x|, Σ|x|, Σx², Π|x|, Σe^(x−m)
    long double shift = 0;     // LOG_SUM_EXP: m = max x (an input, exact); value = m + ln(inner)
    uint32_t count = 0;        // N, the inputs folded into this element
    bool exact = false;        // floats: the output must equal value rounded once (SUM, L1, SUM_SQUARE,
                               // MULTIPLY when every partial result in any order is exact in the
                               // accumulator; MIN/MAX always)
    bool inner_exact = false;  // floats: `inner` is exact in the accumulator in any order (SUM-like
                               // inner sums and products; its tolerance is then 0)
    bool ambiguous = false;    // floats: some order of evaluation can overflow, underflow or meet
                               // inf − inf / 0 × inf where another does not, or LOG_SUM's sum can
                               // come out on either side of 0: a test must not create this
    bool either_zero_sign = false;  // floats: a zero result may have either sign (sums)
};

/// Reference reduction of `input` (any rank, any strides, zero strides included). Returns one element
/// per output position, in row-major order of reduce_output_sizes(input.sizes, spec.axes). Throws
/// std::invalid_argument for an axis out of range, a duplicate axis, AVERAGE/L2/LOG_SUM/LOG_SUM_EXP on
/// an integer input, or an output type SPEC §4 does not allow.
std::vector<ReduceElement> reference_reduce(const TestTensor& input, const ReduceSpec& spec);

/// Stores reference results into `out` (reduce_output_sizes, any injective layout): floats rounded to
/// out.type once, integers and indices truncated to its bits.
void store_reference(const std::vector<ReduceElement>& reference, TestTensor& out);

/// Tolerance factor k of the sum rules below (the same as the scan oracle's).
constexpr double kReduceToleranceFactor = 4.0;

/// The accepted results of a float element that is not `exact`: [lo, hi] in the output type. Every
/// step below is monotonic, so the range is what an accumulator within the stated error of each step
/// can produce. Writing eps = 2^-23 (FLOAT16, FLOAT32) or 2^-52 (FLOAT64), L = log2(N + 1),
/// acc(y) = y rounded to the accumulator (overflow gives ±inf) and out(y) = y rounded to the output:
///   inner sum [s_lo, s_hi] = [acc(inner − t), acc(inner + t)], t = 0 when inner_exact, else
///     SUM, AVERAGE, LOG_SUM, L1:  t = k·eps·L·Σ|x| + 2N·min_normal(acc)
///     SUM_SQUARE, L2:             t = (k·L + 1)·eps·Σx² + 2N·min_normal(acc)
///   (any summation tree of height ≤ 2k·L is within k·eps·L·Σ|x|, so a tree or blocked order passes,
///   a long sequential loop does not; + eps·Σx² for the rounding of each square; 2N·min_normal for
///   subnormal inputs and partial results flushed to zero, as Vulkan allows).
///   SUM, L1, SUM_SQUARE: [s_lo, s_hi].
///   MULTIPLY: [acc(P − t), acc(P + t)], t = (N + 1)·eps·Π|x| (twice the rigorous (N − 1)·u bound of
///     any grouping, u = eps/2).
///   AVERAGE: [s_lo/N, s_hi/N] widened by 4·eps relative: Vulkan's OpFDiv may be off by 2.5 ULP
///     (ULP ≤ eps·|q|), and N itself is rounded to the accumulator.
///   L2: [sqrt(s_lo), sqrt(s_hi)] widened by 5·eps relative: Vulkan's sqrt is 1/inversesqrt, 2 ULP then
///     a 2.5-ULP division.
///   LOG_SUM: [ln(s_lo), ln(s_hi)] widened by 4·eps·max(1, |ln|) absolute: Vulkan's log is within 3 ULP
///     outside [0.5, 2] and 2^-21 = 4·eps32 absolute inside (FLOAT64 kernels must match this at eps64).
///     A sum that may come out ≤ 0 gives −inf (0) or makes the element ambiguous (< 0).
///   LOG_SUM_EXP: r = m + ln S with S = Σ e^d ∈ [1, N], d = x − m ≤ 0. The computed Ŝ is within
///     E = eps·(3N + (5 + 2k·L)·S) of S, for the two-pass order (max, then Σ) and for a tree that
///     merges (max, partial sum) pairs: Vulkan's exp(d) is within (3 + 2|d|) ULP (ULP ≤ eps·e^d) and d
///     is rounded first; as |d|·e^d ≤ 1/e, a term is off by ≤ 3.01·eps·e^d + 0.93·eps. A merge tree
///     rescales a partial sum at most once per level (3 ULP each; the |d| of the rescalings along a
///     path add up to the element's |d|), and the sums cost k·eps·L·S. Ŝ ≥ 0.5 in any order (the
///     max term is e^0 = 1 within 3 ULP; adding non-negative terms never decreases a sum). Then ln
///     as LOG_SUM, and m + ln Ŝ is rounded once (monotonic):
///     [acc(m + ℓ_lo − a_lo), acc(m + ℓ_hi + a_hi)], ℓ_lo = ln max(S − E, 0.5), ℓ_hi = ln(S + E),
///     a = 4·eps·max(1, |ℓ|).
/// Each end is then rounded to the output type. Elements with a NaN or infinite `value` have no range
/// (matches() requires that value exactly).
std::pair<double, double> reduce_accepted_range(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type,
                                                const ReduceElement& e);

/// True when `got` (an element read from an output of the spec's output type; got_bits its raw bits,
/// got its value for float outputs) is acceptable for reference `e`:
///   integer outputs and arg indices equal modulo 2^bits of the output type;
///   `exact` float elements equal the value rounded once (NaN matches NaN; a zero matches either sign
///     only when either_zero_sign is set);
///   other float elements: a NaN or infinite value must be matched exactly; otherwise got lies in
///     reduce_accepted_range; a range below the accumulator's normal range only needs a result below it
///     too, with the right sign or 0 (subnormal precision and flushing are the device's).
bool reduce_element_matches(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type, const ReduceElement& e,
                            uint64_t got_bits, double got);

/// The expected element as text, for failure messages.
std::string format_expected(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type, const ReduceElement& e);

}  // namespace vkdml_test
