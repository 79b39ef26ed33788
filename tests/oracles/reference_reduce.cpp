// reference_reduce.cpp — the reduce/arg oracle: a plain walk of every output position and of its inputs.
#include "reference_reduce.hpp"

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

#include "vkdml/ops.hpp"

namespace vkdml_test {

std::string to_string(const ReduceSpec& spec) {
    std::string s = std::string(to_string(spec.function)) + " axes " + to_string(spec.axes);
    if (is_arg_function(spec.function)) s += spec.tie == ArgTie::first ? " tie first" : " tie last";
    if (spec.nan_mode == vkdml::NanMode::ignore) s += " nan ignore";
    if (spec.output_type != DML_TENSOR_DATA_TYPE_UNKNOWN)
        s += std::string(" -> ") + type_name(spec.output_type);
    return s;
}

bool is_arg_function(DML_REDUCE_FUNCTION function) {
    return function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
}

ReduceSpec standalone_arg_spec(DML_OPERATOR_TYPE op, std::vector<uint32_t> axes, DML_AXIS_DIRECTION direction,
                               DML_TENSOR_DATA_TYPE output_type) {
    if (op != DML_OPERATOR_ARGMAX && op != DML_OPERATOR_ARGMIN)
        throw std::invalid_argument("standalone_arg_spec: the operator must be ARGMAX or ARGMIN");
    ReduceSpec spec;
    spec.function = op == DML_OPERATOR_ARGMAX ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN;
    spec.axes = std::move(axes);
    spec.tie = direction == DML_AXIS_DIRECTION_DECREASING ? ArgTie::last : ArgTie::first;
    spec.output_type = output_type;
    return spec;
}

std::vector<uint32_t> reduce_output_sizes(const std::vector<uint32_t>& input_sizes,
                                          const std::vector<uint32_t>& axes) {
    auto sizes = vkdml::ops::reduced_sizes(input_sizes, axes);
    if (!sizes) throw std::invalid_argument("reduce_output_sizes: " + sizes.error().message);
    return *sizes;
}

DML_TENSOR_DATA_TYPE reduce_output_type(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type) {
    if (is_arg_function(spec.function)) return spec.output_type;
    return spec.output_type == DML_TENSOR_DATA_TYPE_UNKNOWN ? input_type : spec.output_type;
}

namespace {

// ---- the accumulator of a float input type (SPEC §3) ------------------------------------------

struct Accumulator {
    bool is64;               // float64 (FLOAT64 data) or float32 (FLOAT16, FLOAT32 data)
    int precision;           // significand bits: 53 or 24
    int min_exponent;        // log2 of the smallest normal number: -1022 or -126
    long double eps;         // 2^(1 - precision): 2^-52 or 2^-23
    long double max;         // largest finite value
    long double min_normal;  // smallest normal value
};

Accumulator accumulator_of(DML_TENSOR_DATA_TYPE input_type) {
    if (input_type == DML_TENSOR_DATA_TYPE_FLOAT64)
        return {true,
                53,
                -1022,
                0x1p-52L,
                static_cast<long double>(std::numeric_limits<double>::max()),
                static_cast<long double>(std::numeric_limits<double>::min())};
    return {false,
            24,
            -126,
            0x1p-23L,
            static_cast<long double>(std::numeric_limits<float>::max()),
            static_cast<long double>(std::numeric_limits<float>::min())};
}

// Rounds to the nearest accumulator value (ties to even; overflow gives ±inf).
long double to_acc(const Accumulator& acc, long double v) {
    return acc.is64 ? static_cast<long double>(static_cast<double>(v))
                    : static_cast<long double>(static_cast<float>(v));
}

// Rounds an accumulator value (or any value already within double precision) to the output type.
double to_output(DML_TENSOR_DATA_TYPE type, long double v) {
    const double d = static_cast<double>(v);
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return half_to_double(half_from_double(d));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return static_cast<double>(static_cast<float>(d));
    default: return d;
    }
}

// Neumaier's compensated sum in long double: the error is about 2^-63 of the result, whatever N.
struct CompensatedSum {
    long double sum = 0;
    long double carry = 0;

    void add(long double x) {
        const long double t = sum + x;
        if (std::fabs(sum) >= std::fabs(x))
            carry += (sum - t) + x;
        else
            carry += (x - t) + sum;
        sum = t;
    }
    long double get() const { return sum + carry; }
};

bool is_sum_like(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_SUM || f == DML_REDUCE_FUNCTION_AVERAGE ||
           f == DML_REDUCE_FUNCTION_LOG_SUM;
}

bool is_square_like(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_SUM_SQUARE || f == DML_REDUCE_FUNCTION_L2;
}

bool is_min_max(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_MIN || f == DML_REDUCE_FUNCTION_MAX;
}

// The largest accepted distance between the accumulator's `inner` and the exact one (see the header).
long double inner_tolerance(DML_REDUCE_FUNCTION f, const Accumulator& acc, const ReduceElement& e) {
    if (e.inner_exact) return 0;
    const long double n = static_cast<long double>(e.count);
    const long double l = std::log2(n + 1);
    const long double k = kReduceToleranceFactor;
    switch (f) {
    case DML_REDUCE_FUNCTION_SUM:
    case DML_REDUCE_FUNCTION_AVERAGE:
    case DML_REDUCE_FUNCTION_LOG_SUM:
    case DML_REDUCE_FUNCTION_L1: return k * acc.eps * l * e.scale + 2 * n * acc.min_normal;
    case DML_REDUCE_FUNCTION_SUM_SQUARE:
    case DML_REDUCE_FUNCTION_L2: return (k * l + 1) * acc.eps * e.scale + 2 * n * acc.min_normal;
    case DML_REDUCE_FUNCTION_MULTIPLY: return (n + 1) * acc.eps * e.scale;
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return acc.eps * (3 * n + (5 + 2 * k * l) * e.scale);
    default: return 0;
    }
}

// ---- the fold of one output element ----------------------------------------------------------

class Fold {
public:
    Fold(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE type)
        : spec_(spec),
          type_(type),
          acc_(accumulator_of(type)),
          int_result_(spec.function == DML_REDUCE_FUNCTION_MULTIPLY ? 1 : 0) {}

    // Folds the element at `offset`, the `index`-th of this output element (row-major over the
    // reduced axes).
    void add(const TestTensor& input, uint64_t offset, uint64_t index) {
        ++count_;
        const DML_REDUCE_FUNCTION f = spec_.function;
        if (is_arg_function(f) || is_min_max(f)) {
            select(input, offset, index);
            return;
        }
        if (!is_float_type(type_)) {
            // Zero-extended bit patterns: the low `bits` bits of the uint64 result are the exact
            // result modulo 2^bits for signed and unsigned types alike.
            const uint64_t x = input.get_bits(offset);
            switch (f) {
            case DML_REDUCE_FUNCTION_SUM: int_result_ += x; break;
            case DML_REDUCE_FUNCTION_MULTIPLY: int_result_ *= x; break;
            case DML_REDUCE_FUNCTION_SUM_SQUARE: int_result_ += x * x; break;
            case DML_REDUCE_FUNCTION_L1: {
                if (!is_signed_integer_type(type_)) {  // unsigned: |x| = x (UINT64 values >= 2^63 included)
                    int_result_ += x;
                    break;
                }
                const int64_t v = input.get_int(offset);  // sign-extended
                // |v| modulo 2^64: the most negative value of a type negates to itself modulo 2^bits.
                int_result_ += v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
                break;
            }
            default: throw std::invalid_argument("reference_reduce: function not defined on integers");
            }
            return;
        }
        add_float(input.get_double(offset));
    }

    ReduceElement finish() const {
        ReduceElement e;
        e.count = count_;
        const DML_REDUCE_FUNCTION f = spec_.function;
        if (is_arg_function(f) || is_min_max(f)) return finish_select();
        if (!is_float_type(type_)) {
            e.bits = int_result_;
            e.value = integer_value(int_result_);
            return e;
        }
        if (f == DML_REDUCE_FUNCTION_MULTIPLY) return finish_product();
        if (f == DML_REDUCE_FUNCTION_LOG_SUM_EXP) return finish_log_sum_exp();
        return finish_sum();
    }

private:
    const ReduceSpec& spec_;
    DML_TENSOR_DATA_TYPE type_;
    Accumulator acc_;
    uint32_t count_ = 0;

    // Integers.
    uint64_t int_result_ = 0;

    // MIN, MAX, ARGMIN, ARGMAX: the selected element so far.
    bool have_best_ = false;
    uint64_t best_index_ = 0;
    double best_f_ = 0;
    int64_t best_s_ = 0;
    uint64_t best_u_ = 0;
    bool has_pos_zero_ = false, has_neg_zero_ = false;

    // Floats: specials.
    bool has_nan_ = false, has_pos_inf_ = false, has_neg_inf_ = false, has_zero_ = false;

    // Float sums: the terms (x, |x| or x²), Σ|term|, and the sums of the positive and of the negative
    // finite terms (how far a partial sum can go in either direction).
    CompensatedSum sum_, abs_sum_, pos_sum_, neg_sum_;
    bool terms_exact_ = true;  // every term is exact in the accumulator
    int min_term_exponent_ = INT_MAX;

    // Float products.
    long double product_ = 1, abs_product_ = 1;
    long double upper_ = 1;        // Π of the |x| > 1: bounds every partial product in any order from above
    long double lower_ = 1;        // Π of the non-zero |x| < 1: bounds them from below
    long double odd_product_ = 1;  // Π of the odd parts of the non-zero finite factors

    // LOG_SUM_EXP: the inputs (two passes: the maximum first).
    std::vector<double> values_;

    long double integer_value(uint64_t bits) const {
        const uint64_t v = bits & type_mask(type_);
        if (is_signed_integer_type(type_)) {
            const uint32_t n = type_bits(type_);
            const int64_t s = (n < 64 && ((v >> (n - 1)) & 1u)) ? static_cast<int64_t>(v | ~type_mask(type_))
                                                                : static_cast<int64_t>(v);
            return static_cast<long double>(s);
        }
        return static_cast<long double>(v);
    }

    // True when candidate `x` (at a later index than the current best) replaces the best.
    template <typename T>
    bool better(T x, T best, bool x_nan, bool best_nan) const {
        const bool tie_last = spec_.tie == ArgTie::last;
        if (best_nan) return x_nan && tie_last;
        if (x_nan) return true;
        const bool wants_max =
            spec_.function == DML_REDUCE_FUNCTION_MAX || spec_.function == DML_REDUCE_FUNCTION_ARGMAX;
        if (wants_max ? x > best : x < best) return true;
        return x == best && tie_last;
    }

    void select(const TestTensor& input, uint64_t offset, uint64_t index) {
        bool take = !have_best_;
        if (is_float_type(type_)) {
            const double x = input.get_double(offset);
            if (std::isnan(x) && spec_.nan_mode == vkdml::NanMode::ignore) return;  // as if absent
            if (x == 0) (std::signbit(x) ? has_neg_zero_ : has_pos_zero_) = true;
            if (!take) take = better(x, best_f_, std::isnan(x), std::isnan(best_f_));
            if (take) best_f_ = x;
        } else if (is_signed_integer_type(type_)) {
            const int64_t x = input.get_int(offset);
            if (!take) take = better(x, best_s_, false, false);
            if (take) best_s_ = x;
        } else {
            const uint64_t x = input.get_bits(offset);
            if (!take) take = better(x, best_u_, false, false);
            if (take) best_u_ = x;
        }
        if (take) best_index_ = index;
        have_best_ = true;
    }

    ReduceElement finish_select() const {
        ReduceElement e;
        e.count = count_;
        long double best = 0;
        uint64_t best_bits = 0;
        if (is_float_type(type_)) {
            best = best_f_;
        } else if (is_signed_integer_type(type_)) {
            best = static_cast<long double>(best_s_);
            best_bits = static_cast<uint64_t>(best_s_);
        } else {
            best = static_cast<long double>(best_u_);
            best_bits = best_u_;
        }
        const bool wants_max =
            spec_.function == DML_REDUCE_FUNCTION_MAX || spec_.function == DML_REDUCE_FUNCTION_ARGMAX;
        if (!have_best_) {  // NanMode::ignore and every element NaN: ∓inf, index 0
            constexpr long double kInf = std::numeric_limits<long double>::infinity();
            best = is_arg_function(spec_.function) ? std::numeric_limits<long double>::quiet_NaN()
                                                   : (wants_max ? -kInf : kInf);
        } else if (is_float_type(type_) && best == 0 && !is_arg_function(spec_.function)) {
            // IEEE 754-2019 maximum and minimum: +0 beats -0 for MAX, -0 beats +0 for MIN.
            const bool negative = wants_max ? !has_pos_zero_ : has_neg_zero_;
            best = negative ? -0.0L : 0.0L;
        }
        e.value = best;
        e.inner = best;
        if (is_arg_function(spec_.function)) {
            e.bits = have_best_ ? best_index_ : 0;
            return e;
        }
        e.bits = best_bits;
        e.exact = is_float_type(type_);
        e.inner_exact = e.exact;
        return e;
    }

    void add_float(double x) {
        if (std::isnan(x)) {
            has_nan_ = true;
            product_ = std::numeric_limits<long double>::quiet_NaN();
            return;
        }
        if (std::isinf(x)) {
            (x > 0 ? has_pos_inf_ : has_neg_inf_) = true;
            // A product still multiplies it in (0 × inf = NaN, signs multiply).
            product_ *= x;
            abs_product_ *= std::fabs(static_cast<long double>(x));
            upper_ = std::numeric_limits<long double>::infinity();
            values_.push_back(x);
            return;
        }
        values_.push_back(x);
        const long double lx = x;
        // The term a sum folds, and its exactness in the accumulator.
        long double term = lx;
        if (spec_.function == DML_REDUCE_FUNCTION_L1) term = std::fabs(lx);
        if (is_square_like(spec_.function)) term = lx * lx;
        sum_.add(term);
        abs_sum_.add(std::fabs(term));
        (term > 0 ? pos_sum_ : neg_sum_).add(std::fabs(term));

        // Product bookkeeping.
        product_ *= lx;
        abs_product_ *= std::fabs(lx);
        if (x == 0) {
            has_zero_ = true;
            return;
        }
        const OddSplit s = split_odd(x);
        odd_product_ *= static_cast<long double>(s.odd);
        if (std::fabs(lx) > 1) upper_ *= std::fabs(lx);
        if (std::fabs(lx) < 1) lower_ *= std::fabs(lx);
        // A square is odd² · 2^(2·exponent); it is exact when odd² fits the significand.
        const bool square = is_square_like(spec_.function);
        const long double odd = static_cast<long double>(s.odd);
        const long double term_odd = square ? odd * odd : odd;
        const int term_exponent = square ? 2 * s.exponent : s.exponent;
        if (term_odd > std::ldexp(1.0L, acc_.precision)) terms_exact_ = false;
        min_term_exponent_ = std::min(min_term_exponent_, term_exponent);
    }

    // True when every partial sum of the terms, in any order, is exact in the accumulator: each is a
    // multiple of 2^min_term_exponent (a normal number when not 0) no larger than Σ|term|.
    bool sum_exact() const {
        if (has_nan_ || has_pos_inf_ || has_neg_inf_ || !terms_exact_) return false;
        if (min_term_exponent_ == INT_MAX) return true;  // every term is 0
        const long double total = abs_sum_.get();
        return min_term_exponent_ >= acc_.min_exponent &&
               total <= std::ldexp(1.0L, acc_.precision + min_term_exponent_) && total <= acc_.max;
    }

    ReduceElement finish_sum() const {
        const DML_REDUCE_FUNCTION f = spec_.function;
        constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();
        constexpr long double kInf = std::numeric_limits<long double>::infinity();
        ReduceElement e;
        e.count = count_;
        e.scale = abs_sum_.get();  // over the finite terms: what the tolerance of a finite result needs
        e.inner_exact = sum_exact();
        e.exact = e.inner_exact && !is_float_only_function(f);
        e.either_zero_sign = f == DML_REDUCE_FUNCTION_SUM;
        const long double t = inner_tolerance(f, acc_, e);
        // The inner sum, with IEEE specials: the terms of L1, SUM_SQUARE and L2 are never negative.
        // (|x| and x² of −inf are +inf: L1, SUM_SQUARE and L2 of {+inf, −inf} are +inf, not NaN.)
        long double s;
        if (has_nan_ || (has_pos_inf_ && has_neg_inf_ && is_sum_like(f))) {
            s = kNaN;
        } else if (has_pos_inf_) {
            s = kInf;
        } else if (has_neg_inf_) {
            s = is_sum_like(f) ? -kInf : kInf;
        } else {
            s = sum_.get();
        }
        e.inner = s;
        const long double n = static_cast<long double>(count_);
        switch (f) {
        case DML_REDUCE_FUNCTION_AVERAGE: e.value = s / n; break;
        case DML_REDUCE_FUNCTION_L2: e.value = std::sqrt(s); break;
        case DML_REDUCE_FUNCTION_LOG_SUM: e.value = std::log(s); break;
        default: e.value = s; break;
        }
        if (std::isnan(s) || std::isinf(s)) {
            // Finite terms that overflow the other way in some order meet this infinity: NaN there.
            if (has_pos_inf_ != has_neg_inf_ && !has_nan_ && is_sum_like(f)) {
                const long double other = has_pos_inf_ ? neg_sum_.get() : pos_sum_.get();
                e.ambiguous = other + t > acc_.max;
            }
            return e;
        }
        const bool pos_over = pos_sum_.get() + t > acc_.max;
        const bool neg_over = neg_sum_.get() + t > acc_.max;
        if (pos_over && neg_over) {
            e.ambiguous = true;  // +inf in one order, -inf in another, inf - inf in a third
        } else if (pos_over || neg_over) {
            // Partial sums can overflow towards one side: fine when that infinity is accepted anyway.
            const long double end = pos_over ? s + t : s - t;
            e.ambiguous = !std::isinf(to_acc(acc_, end));
        }
        if (f == DML_REDUCE_FUNCTION_LOG_SUM && t > 0 && s - t < 0 && s + t >= 0)
            e.ambiguous = true;  // the computed sum may be negative (NaN) or not
        return e;
    }

    ReduceElement finish_product() const {
        ReduceElement e;
        e.count = count_;
        e.value = product_;
        e.inner = product_;
        e.scale = abs_product_;
        const bool finite = !has_nan_ && !has_pos_inf_ && !has_neg_inf_;
        const bool may_overflow = upper_ > acc_.max;
        const bool may_underflow = lower_ < acc_.min_normal;
        bool exact = false;
        if (finite) {
            // With a zero among the factors every order ends at ±0, as long as nothing overflows first.
            // Otherwise a partial product is (Π of some odd parts) · 2^(Σ of their exponents).
            exact = has_zero_
                        ? !may_overflow
                        : odd_product_ <= std::ldexp(1.0L, acc_.precision) && !may_overflow && !may_underflow;
        }
        e.exact = exact;
        e.inner_exact = exact;
        if (exact || std::isnan(product_)) return e;  // NaN: a NaN factor or 0 × inf, in every order
        // Overflow or underflow in some order that a later factor (or a 0 or an inf) could undo or
        // turn into NaN. Factors all ≥ 1 or all ≤ 1 overflow or underflow alike in every order.
        const bool has_inf = has_pos_inf_ || has_neg_inf_;
        if (has_inf)
            e.ambiguous = may_underflow;
        else if (has_zero_)
            e.ambiguous = may_overflow;
        else
            e.ambiguous = (may_overflow || may_underflow) && upper_ != 1 && lower_ != 1;
        return e;
    }

    ReduceElement finish_log_sum_exp() const {
        constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();
        ReduceElement e;
        e.count = count_;
        if (has_nan_) {
            e.value = kNaN;
            return e;
        }
        long double m = -std::numeric_limits<long double>::infinity();
        for (double x : values_) m = std::max(m, static_cast<long double>(x));
        e.shift = m;
        if (std::isinf(m)) {  // +inf anywhere: +inf; every input -inf: -inf
            e.value = m;
            return e;
        }
        CompensatedSum s;
        for (double x : values_) s.add(std::exp(static_cast<long double>(x) - m));
        e.inner = s.get();
        e.scale = e.inner;
        e.value = m + std::log(e.inner);
        return e;
    }
};

}  // namespace

bool is_float_only_function(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_AVERAGE || f == DML_REDUCE_FUNCTION_L2 ||
           f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_LOG_SUM_EXP;
}

std::vector<ReduceElement> reference_reduce(const TestTensor& input, const ReduceSpec& spec) {
    const uint32_t rank = input.rank();
    std::vector<bool> reduced(rank, false);
    for (uint32_t axis : spec.axes) {
        if (axis >= rank) throw std::invalid_argument("reference_reduce: axis out of range");
        if (reduced[axis]) throw std::invalid_argument("reference_reduce: duplicate axis");
        reduced[axis] = true;
    }
    if (!is_float_type(input.type) && is_float_only_function(spec.function))
        throw std::invalid_argument(std::string("reference_reduce: ") + to_string(spec.function) +
                                    " needs a float input");
    const DML_TENSOR_DATA_TYPE out_type = reduce_output_type(spec, input.type);
    if (is_arg_function(spec.function)) {
        if (out_type != DML_TENSOR_DATA_TYPE_INT32 && out_type != DML_TENSOR_DATA_TYPE_INT64 &&
            out_type != DML_TENSOR_DATA_TYPE_UINT32 && out_type != DML_TENSOR_DATA_TYPE_UINT64)
            throw std::invalid_argument(
                "reference_reduce: arg output must be INT32, INT64, UINT32 or UINT64");
    } else if (out_type != input.type) {
        throw std::invalid_argument("reference_reduce: output type must equal the input type");
    }

    // The output positions, and for each the reduced multi-indices: sizes 1 off the reduced axes.
    const std::vector<uint32_t> out_sizes = reduce_output_sizes(input.sizes, spec.axes);
    std::vector<uint32_t> reduced_sizes(rank, 1);
    for (uint32_t d = 0; d < rank; ++d)
        if (reduced[d]) reduced_sizes[d] = input.sizes[d];

    std::vector<ReduceElement> out;
    out.reserve(element_count(out_sizes));
    std::vector<uint32_t> out_index(rank, 0);
    std::vector<uint32_t> index(rank, 0);
    do {
        Fold fold(spec, input.type);
        std::vector<uint32_t> reduced_index(rank, 0);
        uint64_t k = 0;  // row-major position over the reduced axes, the highest fastest: the arg index
        do {
            for (uint32_t d = 0; d < rank; ++d) index[d] = out_index[d] + reduced_index[d];
            fold.add(input, input.offset_of(index), k++);
        } while (next_index(reduced_index, reduced_sizes));
        out.push_back(fold.finish());
    } while (next_index(out_index, out_sizes));
    return out;
}

void store_reference(const std::vector<ReduceElement>& reference, TestTensor& out) {
    if (reference.size() != out.count())
        throw std::invalid_argument("store_reference: element count differs");
    std::vector<uint32_t> index(out.rank(), 0);
    uint64_t logical = 0;
    do {
        const ReduceElement& e = reference[logical++];
        if (is_float_type(out.type))
            out.set_double(out.offset_of(index), static_cast<double>(e.value));
        else
            out.set_bits(out.offset_of(index), e.bits);
    } while (next_index(index, out.sizes));
}

namespace {

// v moved outwards by a relative r (infinities and zeros stay).
long double widen_down(long double v, long double r) {
    return std::isinf(v) ? v : v - r * std::fabs(v);
}
long double widen_up(long double v, long double r) {
    return std::isinf(v) ? v : v + r * std::fabs(v);
}

// Vulkan's log: 3 ULP outside [0.5, 2], 2^-21 = 4·eps32 absolute inside.
long double log_allowance(const Accumulator& acc, long double l) {
    return 4 * acc.eps * std::max(1.0L, std::fabs(l));
}

// The accepted range in the accumulator, before the rounding to the output type.
std::pair<long double, long double> accumulator_range(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type,
                                                      const ReduceElement& e) {
    const Accumulator acc = accumulator_of(input_type);
    const DML_REDUCE_FUNCTION f = spec.function;
    const long double t = inner_tolerance(f, acc, e);
    const long double s_lo = to_acc(acc, e.inner - t);
    const long double s_hi = to_acc(acc, e.inner + t);
    switch (f) {
    case DML_REDUCE_FUNCTION_AVERAGE: {
        const long double n = static_cast<long double>(e.count);
        return {to_acc(acc, widen_down(s_lo / n, 4 * acc.eps)), to_acc(acc, widen_up(s_hi / n, 4 * acc.eps))};
    }
    case DML_REDUCE_FUNCTION_L2:
        return {to_acc(acc, widen_down(std::sqrt(std::max(s_lo, 0.0L)), 5 * acc.eps)),
                to_acc(acc, widen_up(std::sqrt(s_hi), 5 * acc.eps))};
    case DML_REDUCE_FUNCTION_LOG_SUM: {
        const long double l_lo = std::log(std::max(s_lo, 0.0L));
        const long double l_hi = std::log(s_hi);
        return {to_acc(acc, l_lo - log_allowance(acc, l_lo)), to_acc(acc, l_hi + log_allowance(acc, l_hi))};
    }
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: {
        const long double l_lo = std::log(std::max(e.inner - t, 0.5L));
        const long double l_hi = std::log(e.inner + t);
        return {to_acc(acc, e.shift + (l_lo - log_allowance(acc, l_lo))),
                to_acc(acc, e.shift + (l_hi + log_allowance(acc, l_hi)))};
    }
    default: return {s_lo, s_hi};
    }
}

}  // namespace

std::pair<double, double> reduce_accepted_range(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type,
                                                const ReduceElement& e) {
    const DML_TENSOR_DATA_TYPE out_type = reduce_output_type(spec, input_type);
    if (!is_float_type(out_type) || e.exact || std::isnan(e.value) || std::isinf(e.value)) {
        const double v =
            is_float_type(out_type) ? to_output(out_type, e.value) : static_cast<double>(e.value);
        return {v, v};
    }
    const auto [lo, hi] = accumulator_range(spec, input_type, e);
    return {to_output(out_type, lo), to_output(out_type, hi)};
}

bool reduce_element_matches(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type, const ReduceElement& e,
                            uint64_t got_bits, double got) {
    const DML_TENSOR_DATA_TYPE out_type = reduce_output_type(spec, input_type);
    if (!is_float_type(out_type)) return ((got_bits ^ e.bits) & type_mask(out_type)) == 0;
    if (e.exact) {
        const double want = to_output(out_type, e.value);
        if (std::isnan(want)) return std::isnan(got);
        if (want == 0 && !e.either_zero_sign && std::signbit(got) != std::signbit(want)) return false;
        return got == want;
    }
    if (std::isnan(e.value)) return std::isnan(got);
    if (std::isinf(e.value)) return got == static_cast<double>(e.value);
    if (std::isnan(got)) return false;
    const auto [lo, hi] = reduce_accepted_range(spec, input_type, e);
    if (lo <= got && got <= hi) return true;
    // Results below the accumulator's normal range: subnormal precision (or a flush to zero) is the
    // device's; only the sign and the magnitude band are checked.
    const double smallest_normal = static_cast<double>(accumulator_of(input_type).min_normal);
    return std::fabs(lo) < smallest_normal && std::fabs(hi) < smallest_normal &&
           std::fabs(got) < smallest_normal &&
           (got == 0 || std::signbit(got) == std::signbit(static_cast<double>(e.value)));
}

std::string format_expected(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE input_type, const ReduceElement& e) {
    const DML_TENSOR_DATA_TYPE out_type = reduce_output_type(spec, input_type);
    std::ostringstream s;
    s << std::setprecision(17);
    if (is_arg_function(spec.function)) {
        s << "index " << e.bits << " (value " << static_cast<double>(e.value) << ")";
        return s.str();
    }
    if (!is_float_type(out_type)) {
        // value holds the wrapped integer exactly (a long double has a 64-bit significand).
        if (is_signed_integer_type(out_type))
            s << static_cast<int64_t>(e.value);
        else
            s << static_cast<uint64_t>(e.value);
        return s.str();
    }
    if (e.exact) {
        s << to_output(out_type, e.value) << " (exact)";
    } else {
        const auto [lo, hi] = reduce_accepted_range(spec, input_type, e);
        s << static_cast<double>(e.value) << " (accepted " << lo << " .. " << hi << ")";
    }
    s << " [N " << e.count << ", scale " << static_cast<double>(e.scale) << "]";
    if (e.ambiguous) s << " AMBIGUOUS";
    return s.str();
}

}  // namespace vkdml_test
