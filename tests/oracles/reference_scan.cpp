// reference_scan.cpp — the cumulative-op oracle: a plain sequential walk of every fiber.
#include "reference_scan.hpp"

#include "float_split.hpp"
#include "half.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace vkdml_test {

const char* to_string(ScanOp op) {
    return op == ScanOp::sum ? "sum" : "product";
}

std::string to_string(const ScanSpec& spec) {
    return std::string(to_string(spec.op)) + " axis " + std::to_string(spec.axis) +
           (spec.decreasing ? " DECREASING" : " INCREASING") + (spec.exclusive ? " exclusive" : " inclusive");
}

int accumulator_precision(DML_TENSOR_DATA_TYPE type) {
    return type == DML_TENSOR_DATA_TYPE_FLOAT64 ? 53 : 24;
}

namespace {

double accumulator_max(DML_TENSOR_DATA_TYPE type) {
    return type == DML_TENSOR_DATA_TYPE_FLOAT64 ? std::numeric_limits<double>::max()
                                                : static_cast<double>(std::numeric_limits<float>::max());
}

double accumulator_min_normal(DML_TENSOR_DATA_TYPE type) {
    return type == DML_TENSOR_DATA_TYPE_FLOAT64 ? std::numeric_limits<double>::min()
                                                : static_cast<double>(std::numeric_limits<float>::min());
}

// The running fold of one fiber.
struct Fold {
    ScanOp op;
    DML_TENSOR_DATA_TYPE type;
    uint64_t bits;          // integers
    long double value;      // floats
    long double magnitude;  // Σ|x| or Π|x|
    uint32_t terms = 0;
    bool finite = true;  // no folded input was inf or NaN
    bool has_inf = false;
    bool any_nonzero = false;
    bool has_zero = false;
    int min_exponent = INT_MAX;   // sum: smallest power of two dividing every folded non-zero input
    long double odd_product = 1;  // product: Π of the odd parts of the folded inputs
    // Product: the largest and smallest log|Π x[i..j]| over contiguous runs of the non-zero finite
    // inputs folded so far (Kadane's algorithm), and of the runs ending at the newest one. Every
    // grouping a scan can use multiplies contiguous runs (it associates, it never reorders), so
    // e^max_run bounds every partial product from above and e^min_run from below.
    long double max_run = 0, min_run = 0, max_ending = 0, min_ending = 0;

    Fold(ScanOp o, DML_TENSOR_DATA_TYPE t)
        : op(o),
          type(t),
          bits(o == ScanOp::sum ? 0 : 1),
          value(o == ScanOp::sum ? 0 : 1),
          magnitude(o == ScanOp::sum ? 0 : 1) {}

    void add(const TestTensor& input, uint64_t offset) {
        ++terms;
        if (!is_float_type(type)) {
            // Zero-extended bit patterns: the low `bits` bits of the uint64 result are the exact
            // result modulo 2^bits for signed and unsigned types alike.
            const uint64_t x = input.get_bits(offset);
            bits = op == ScanOp::sum ? bits + x : bits * x;
            return;
        }
        const double x = input.get_double(offset);
        const long double ax = std::fabs(static_cast<long double>(x));
        if (op == ScanOp::sum) {
            value += x;
            magnitude += ax;
        } else {
            value *= x;
            magnitude *= ax;
        }
        if (!std::isfinite(x)) {
            finite = false;
            has_inf = has_inf || std::isinf(x);
            return;
        }
        if (x == 0) {
            has_zero = true;
            return;
        }
        any_nonzero = true;
        const OddSplit s = split_odd(x);
        if (s.exponent < min_exponent) min_exponent = s.exponent;
        if (op == ScanOp::sum) return;  // the rest bounds products
        odd_product *= static_cast<long double>(s.odd);
        const long double log_x = std::log(ax);
        max_ending = std::max(max_ending + log_x, log_x);
        min_ending = std::min(min_ending + log_x, log_x);
        max_run = std::max(max_run, max_ending);
        min_run = std::min(min_run, min_ending);
    }

    long double upper() const { return std::exp(max_run); }  // >= 1
    long double lower() const { return std::exp(min_run); }  // <= 1

    // True when every partial result of the folded inputs, in any order or grouping, is exactly
    // representable in the accumulator of the type (so no rounding can happen before the output).
    // `up` and `low` are upper() and lower(), each an exp of long doubles that emit computes once.
    bool exact(long double up, long double low) const {
        if (!is_float_type(type) || !finite) return false;
        if (terms == 0) return true;
        const int p = accumulator_precision(type);
        if (op == ScanOp::sum) {
            // Every partial sum is a multiple of 2^min_exponent no larger than Σ|x| in magnitude.
            if (!any_nonzero) return true;
            return magnitude <= std::ldexp(1.0L, p + min_exponent) &&
                   magnitude <= static_cast<long double>(accumulator_max(type));
        }
        // With a zero among the inputs every grouping ends at ±0, as long as nothing overflows first.
        if (has_zero) return up <= static_cast<long double>(accumulator_max(type));
        // A partial product is (Π of some odd parts) * 2^(Σ of their exponents).
        return odd_product <= std::ldexp(1.0L, p) && up <= static_cast<long double>(accumulator_max(type)) &&
               low >= static_cast<long double>(accumulator_min_normal(type));
    }

    // True when the float product depends on the grouping beyond rounding: a partial product can
    // leave the accumulator's normal range and a later factor could bring it back (or meet it as
    // 0 x inf). Products whose partials only grow (every |x| >= 1) or only shrink (every |x| <= 1)
    // overflow or underflow alike in every grouping, so they are not ambiguous.
    bool ambiguous(bool is_exact, long double up, long double low) const {
        if (op != ScanOp::product || !is_float_type(type) || is_exact) return false;
        if (value != value) return false;  // a NaN input, or 0 x inf: NaN in every grouping
        const bool may_overflow = up > static_cast<long double>(accumulator_max(type));
        const bool may_underflow = low < static_cast<long double>(accumulator_min_normal(type));
        if (has_inf) return may_underflow;  // an underflow to 0 meets the inf: NaN instead of inf
        if (has_zero) return may_overflow;  // an overflow to inf meets the 0: NaN instead of 0
        const bool monotonic = max_run == 0 || min_run == 0;
        return (may_overflow || may_underflow) && !monotonic;
    }

    ScanElement emit(uint32_t length) const {
        ScanElement e;
        // Sums never use the bounds (their runs stay 0); float products compute each once.
        const bool float_product = op == ScanOp::product && is_float_type(type);
        const long double up = float_product ? upper() : 1, low = float_product ? lower() : 1;
        e.exact = exact(up, low);
        e.ambiguous = ambiguous(e.exact, up, low);
        e.bits = bits;
        e.value = static_cast<double>(value);
        e.magnitude = static_cast<double>(magnitude);
        e.terms = terms;
        e.length = length;
        return e;
    }
};

double round_to_type(DML_TENSOR_DATA_TYPE type, double v) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return half_to_double(half_from_double(v));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return static_cast<double>(static_cast<float>(v));
    default: return v;
    }
}

}  // namespace

std::vector<ScanElement> reference_scan(const TestTensor& input, const ScanSpec& spec) {
    const uint32_t rank = input.rank();
    if (spec.axis >= rank) throw std::invalid_argument("reference_scan: axis out of range");
    const uint32_t length = input.sizes[spec.axis];

    // Row-major logical position of each multi-index (the order of the returned elements).
    const std::vector<uint32_t> logical_strides = packed_strides(input.sizes);
    std::vector<ScanElement> out(input.count());

    // Walk every fiber: all multi-indices with index[axis] == 0, then along the axis.
    std::vector<uint32_t> fiber_sizes = input.sizes;
    fiber_sizes[spec.axis] = 1;
    std::vector<uint32_t> index(rank, 0);
    do {
        Fold fold(spec.op, input.type);
        for (uint32_t step = 0; step < length; ++step) {
            const uint32_t k = spec.decreasing ? length - 1 - step : step;
            index[spec.axis] = k;
            uint64_t logical = 0;
            for (uint32_t d = 0; d < rank; ++d) logical += uint64_t{index[d]} * logical_strides[d];
            if (spec.exclusive) {
                out[logical] = fold.emit(length);
                fold.add(input, input.offset_of(index));
            } else {
                fold.add(input, input.offset_of(index));
                out[logical] = fold.emit(length);
            }
        }
        index[spec.axis] = 0;
    } while (next_index(index, fiber_sizes));
    return out;
}

void store_reference(const std::vector<ScanElement>& reference, TestTensor& out) {
    if (reference.size() != out.count())
        throw std::invalid_argument("store_reference: element count differs");
    std::vector<uint32_t> index(out.rank(), 0);
    uint64_t logical = 0;
    do {
        const ScanElement& e = reference[logical++];
        if (is_float_type(out.type))
            out.set_double(out.offset_of(index), e.value);
        else
            out.set_bits(out.offset_of(index), e.bits);
    } while (next_index(index, out.sizes));
}

double scan_tolerance(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e) {
    if (!is_float_type(type)) return 0;
    const double eps = type == DML_TENSOR_DATA_TYPE_FLOAT64 ? 0x1p-52 : 0x1p-23;
    if (op == ScanOp::sum)
        return kScanToleranceFactor * eps * std::log2(static_cast<double>(e.length) + 1.0) * e.magnitude;
    return eps * (static_cast<double>(e.terms) + 1.0) * e.magnitude;
}

namespace {

// The accepted range of a non-exact float element, in the output type.
std::pair<double, double> accepted_range(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e) {
    const double tol = scan_tolerance(op, type, e);
    return {round_to_type(type, e.value - tol), round_to_type(type, e.value + tol)};
}

}  // namespace

bool scan_element_matches(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e, uint64_t got_bits,
                          double got) {
    if (!is_float_type(type)) return ((got_bits ^ e.bits) & type_mask(type)) == 0;
    if (e.exact) {
        const double want = round_to_type(type, e.value);
        if (std::isnan(want)) return std::isnan(got);
        // The sign of a product is the product of the signs in every grouping, zeros included.
        if (op == ScanOp::product && want == 0 && std::signbit(got) != std::signbit(want)) return false;
        return got == want;
    }
    if (std::isnan(e.value)) return std::isnan(got);
    if (std::isinf(e.value)) return got == e.value;
    if (std::isnan(got)) return false;
    const auto [lo, hi] = accepted_range(op, type, e);
    if (lo <= got && got <= hi) return true;
    // Results below the accumulator's normal range: subnormal precision (or a flush to zero) is
    // the device's; only the sign and the magnitude band are checked.
    const double smallest_normal = accumulator_min_normal(type);
    return std::fabs(lo) < smallest_normal && std::fabs(hi) < smallest_normal &&
           std::fabs(got) < smallest_normal && (got == 0 || std::signbit(got) == std::signbit(e.value));
}

std::string format_expected(ScanOp op, DML_TENSOR_DATA_TYPE type, const ScanElement& e) {
    std::ostringstream s;
    if (!is_float_type(type)) {
        const uint64_t v = e.bits & type_mask(type);
        if (is_signed_integer_type(type)) {
            const uint32_t n = type_bits(type);
            const int64_t sv = (n < 64 && ((v >> (n - 1)) & 1u)) ? static_cast<int64_t>(v | ~type_mask(type))
                                                                 : static_cast<int64_t>(v);
            s << sv;
        } else {
            s << v;
        }
        return s.str();
    }
    s << std::setprecision(17);
    if (e.exact)
        s << round_to_type(type, e.value) << " (exact)";
    else {
        const auto [lo, hi] = accepted_range(op, type, e);
        s << e.value << " (accepted " << lo << " .. " << hi << ")";
    }
    s << " [terms " << e.terms << ", magnitude " << e.magnitude << "]";
    return s.str();
}

}  // namespace vkdml_test
