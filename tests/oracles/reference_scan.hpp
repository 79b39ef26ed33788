// reference_scan.hpp — CPU oracle for the cumulative operators (SPEC §3) and the float tolerance rule.
//
// One 1-D fiber of length L along `axis`, ⊕ = + (sum) or × (product), identity e = 0 or 1:
//   INCREASING:  y[k] = x[0] ⊕ … ⊕ x[k]      exclusive: y[k] = e ⊕ x[0] ⊕ … ⊕ x[k−1]
//   DECREASING:  y[k] = x[k] ⊕ … ⊕ x[L−1]    exclusive: y[k] = e ⊕ x[k+1] ⊕ … ⊕ x[L−1]
// Integers are exact modulo 2^bits (folded in uint64 arithmetic, which wraps modulo 2^64, then
// truncated: the low bits of a sum or product depend only on the low bits of the operands).
// Floats fold the exact stored values sequentially in long double (at least float64) and are
// rounded to the output type once at the end.
#pragma once

#include "tensor_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vkdml_test {

enum class ScanOp { sum, product };

const char* to_string(ScanOp op);

struct ScanSpec {
    ScanOp op = ScanOp::sum;
    uint32_t axis = 0;
    bool decreasing = false;
    bool exclusive = false;
};

/// "sum axis 2 DECREASING exclusive".
std::string to_string(const ScanSpec& spec);

/// The reference result of one output element, with what the float comparison needs.
struct ScanElement {
    uint64_t bits = 0;       // integer types: the exact result modulo 2^64 (compare the low bits)
    double value = 0;        // float types: the result before rounding to the output type
    double magnitude = 0;    // error scale: sum: Σ|x| over the folded inputs; product: Π|x|
    bool exact = false;      // float types: every partial result, in any order, is exact in the
                             // accumulator of the data type, so the output must equal value rounded once
    bool ambiguous = false;  // float product: intermediates may overflow or underflow and be undone later,
                             // so the result depends on the grouping (a test must not create this)
    uint32_t terms = 0;      // inputs folded (0: the identity)
    uint32_t length = 0;     // L, the length of the fiber
};

/// Reference scan of `input` (any rank, any strides, zero strides included). Returns one element per
/// logical position of the output, in row-major order of input.sizes.
std::vector<ScanElement> reference_scan(const TestTensor& input, const ScanSpec& spec);

/// Stores reference results into `out` (same sizes as the input, any injective layout; floats are
/// rounded to out.type once, integers truncated to its bits).
void store_reference(const std::vector<ScanElement>& reference, TestTensor& out);

/// Significand bits of the accumulator a float type uses per SPEC §3 (FLOAT16 and FLOAT32 -> 24,
/// FLOAT64 -> 53).
int accumulator_precision(DML_TENSOR_DATA_TYPE type);

/// Tolerance factor k of the sum rule below.
constexpr double kScanToleranceFactor = 4.0;

/// Largest accepted distance between the accumulator's result and the exact value, for a float
/// element that is not exact (eps(acc) = 2^-23 for FLOAT16/FLOAT32, accumulated in float32, and
/// 2^-52 for FLOAT64):
///   sum:     k · eps(acc) · log2(L + 1) · Σ|x|   (blocked/tree order: error grows like log L)
///   product: eps(acc) · (terms + 1) · Π|x|       (twice the rigorous bound (terms − 1)·u of any
///                                                 grouping, u = eps/2: one rounding per multiplication)
double scan_tolerance(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e);

/// True when `got` (an element read from an output of `type`) is acceptable for reference `e`:
/// integers equal modulo 2^bits; exact float elements equal the value rounded once (NaN matches NaN;
/// +0 matches −0 for sums, whose zero signs depend on the grouping, but not for products); other
/// float elements lie in [round(value − tol), round(value + tol)], rounding to the output type
/// (rounding is monotonic, so this is exactly "the accumulator was within tol and its result was
/// rounded once": a FLOAT16 result that overflows binary16 must be inf). An infinite or NaN value
/// must be matched exactly; a result below the accumulator's normal range only needs to be below it
/// too, with the right sign or 0 (subnormal precision and flushing are the device's).
bool scan_element_matches(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e, uint64_t got_bits,
                          double got);

/// The expected element as text, for failure messages.
std::string format_expected(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e);

}  // namespace vkdml_test
