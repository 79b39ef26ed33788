// golden_corpus.cpp — the determinism corpus's cases, inputs, runs and hashes (golden_corpus.hpp).
#include "golden_corpus.hpp"

#include "../oracles/tensor_data.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <limits>

namespace vkdml_test {
namespace {

using vkdml::ops::TensorDesc;

constexpr DML_TENSOR_DATA_TYPE F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE F64 = DML_TENSOR_DATA_TYPE_FLOAT64;

// SplitMix64: the inputs' only source of randomness (integer arithmetic: the same on every platform).
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 40) * 0x1p-24; }  // [0, 1), exact
    double normal() {  // mean 0, variance 1: four uniforms (each of variance 1/12), no libm
        return (uniform() + uniform() + uniform() + uniform() - 2.0) * 1.7320508075688772;
    }
};

double generate(GoldenData data, Random& r, bool is_unsigned) {
    switch (data) {
    case GoldenData::normal: return r.normal();
    case GoldenData::cancelling: {
        const double big = 1e4 * (1.0 + r.uniform());
        return (r.next() & 1u) ? big : (r.next() & 1u) ? -big : r.normal();
    }
    case GoldenData::near_one: return 1.0 + r.normal() * 0x1p-8;
    case GoldenData::positive: return (r.uniform() + 0x1p-24) * 4.0;
    case GoldenData::integers: return static_cast<double>(r.next() % 2001u) - (is_unsigned ? 0.0 : 1000.0);
    case GoldenData::normal_nan:
    case GoldenData::near_one_nan: {
        const bool nan = r.next() % 8u == 0u;
        const double v = data == GoldenData::normal_nan ? r.normal() : 1.0 + r.normal() * 0x1p-8;
        return nan ? std::numeric_limits<double>::quiet_NaN() : v;
    }
    }
    return 0.0;
}

const char* function_name(DML_REDUCE_FUNCTION f) {
    switch (f) {
    case DML_REDUCE_FUNCTION_ARGMAX: return "argmax";
    case DML_REDUCE_FUNCTION_ARGMIN: return "argmin";
    case DML_REDUCE_FUNCTION_AVERAGE: return "average";
    case DML_REDUCE_FUNCTION_L1: return "l1";
    case DML_REDUCE_FUNCTION_L2: return "l2";
    case DML_REDUCE_FUNCTION_LOG_SUM: return "log_sum";
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return "log_sum_exp";
    case DML_REDUCE_FUNCTION_MAX: return "max";
    case DML_REDUCE_FUNCTION_MIN: return "min";
    case DML_REDUCE_FUNCTION_MULTIPLY: return "multiply";
    case DML_REDUCE_FUNCTION_SUM: return "sum";
    case DML_REDUCE_FUNCTION_SUM_SQUARE: return "sum_square";
    default: break;
    }
    if (f == VKDML_REDUCE_FUNCTION_VARIANCE) return "variance";
    if (f == VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION) return "standard_deviation";
    if (f == VKDML_REDUCE_FUNCTION_ANY) return "any";
    if (f == VKDML_REDUCE_FUNCTION_ALL) return "all";
    if (f == VKDML_REDUCE_FUNCTION_COUNT_NONZERO) return "count_nonzero";
    return "?";
}

const char* data_name(GoldenData d) {
    switch (d) {
    case GoldenData::normal: return "normal";
    case GoldenData::cancelling: return "cancelling";
    case GoldenData::near_one: return "near 1";
    case GoldenData::positive: return "positive";
    case GoldenData::integers: return "integers";
    case GoldenData::normal_nan: return "normal with NaN";
    case GoldenData::near_one_nan: return "near 1 with NaN";
    }
    return "?";
}

std::string shape_text(const TensorDesc& t) {
    std::string s = std::string(type_name(t.data_type)) + " " + to_string(t.sizes);
    if (!t.strides.empty()) s += " strides " + to_string(t.strides);
    return s;
}

class Builder {
public:
    std::vector<GoldenCase> cases;

    void scan(DML_OPERATOR_TYPE type, TensorDesc in, uint32_t axis, GoldenData data, bool reverse = false,
              bool exclusive = false) {
        GoldenCase c;
        c.type = type;
        c.input = std::move(in);
        c.axes = {axis};
        c.reverse = reverse;
        c.exclusive = exclusive;
        c.data = data;
        c.name = std::string(type == DML_OPERATOR_CUMULATIVE_SUMMATION   ? "cumsum "
                             : type == DML_OPERATOR_CUMULATIVE_PRODUCT   ? "cumprod "
                             : type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM ? "cummax "
                             : type == VKDML_OPERATOR_CUMULATIVE_MINIMUM ? "cummin "
                                                                         : "logcumsumexp ") +
                 shape_text(c.input) + " axis " + std::to_string(axis) + (reverse ? " reverse" : "") +
                 (exclusive ? " exclusive" : "");
        add(std::move(c));
    }
    void reduce(DML_REDUCE_FUNCTION f, TensorDesc in, std::vector<uint32_t> axes, GoldenData data,
                uint32_t correction = 0) {
        GoldenCase c;
        c.type = DML_OPERATOR_REDUCE;
        c.function = f;
        c.input = std::move(in);
        c.axes = std::move(axes);
        c.data = data;
        c.correction = correction;
        c.name = std::string("reduce ") + function_name(f) + " " + shape_text(c.input) + " axes " +
                 to_string(c.axes) + (correction ? " correction " + std::to_string(correction) : "");
        add(std::move(c));
    }
    void arg(DML_OPERATOR_TYPE type, TensorDesc in, std::vector<uint32_t> axes, bool last, GoldenData data) {
        GoldenCase c;
        c.type = type;
        c.input = std::move(in);
        c.axes = std::move(axes);
        c.reverse = last;
        c.data = data;
        c.name = std::string(type == DML_OPERATOR_ARGMAX ? "argmax " : "argmin ") + shape_text(c.input) +
                 " axes " + to_string(c.axes) + (last ? " last" : "");
        add(std::move(c));
    }

    /// The cases made inside `make` read NaN as NanMode::ignore does.
    template <class Make>
    void ignoring_nan(Make make) {
        const size_t first = cases.size();
        make();
        for (size_t i = first; i < cases.size(); ++i) {
            cases[i].nan_ignore = true;
            cases[i].name += ", NaN ignored";
        }
    }

private:
    void add(GoldenCase c) {
        c.name += std::string(", ") + data_name(c.data);
        c.seed = 0x5EED0000u + cases.size();
        cases.push_back(std::move(c));
    }
};

std::vector<GoldenCase> make_cases() {
    Builder b;
    constexpr auto SUM = DML_OPERATOR_CUMULATIVE_SUMMATION, PROD = DML_OPERATOR_CUMULATIVE_PRODUCT;
    using D = GoldenData;
    // Scans: 1-D lines of every length class (one subgroup, one tile, several tiles, chains of tiles).
    for (DML_TENSOR_DATA_TYPE t : {F32, F64, F16}) {
        for (uint32_t n : {1u, 33u, 1000u, 4097u, 65537u, 1000003u}) {
            b.scan(SUM, {t, {n}}, 0, D::normal);
            b.scan(PROD, {t, {n}}, 0, D::near_one);
        }
        b.scan(SUM, {t, {100003}}, 0, D::normal, true);
        b.scan(SUM, {t, {100003}}, 0, D::normal, false, true);
        b.scan(PROD, {t, {100003}}, 0, D::near_one, true, true);
        // Rows along either axis, and a middle axis.
        b.scan(SUM, {t, {257, 1031}}, 1, D::normal);
        b.scan(SUM, {t, {1031, 257}}, 0, D::normal);
        b.scan(SUM, {t, {6, 5000, 7}}, 1, D::normal, true);
        b.scan(PROD, {t, {257, 1031}}, 1, D::near_one);
        b.scan(PROD, {t, {1031, 257}}, 0, D::near_one, false, true);
        b.scan(SUM, {t, {20000, 3}}, 1, D::normal, false, true);
        b.scan(SUM, {t, {3, 20000}}, 0, D::normal);
    }
    b.scan(SUM, {F32, {3000001}}, 0, D::normal);
    b.scan(SUM, {F32, {1000003}}, 0, D::cancelling, true);
    b.scan(SUM, {F64, {1000003}}, 0, D::cancelling);
    b.scan(SUM, {F32, {300, 4099}}, 1, D::cancelling);
    // Strided views: column-major rows, padded rows, a broadcast line.
    b.scan(SUM, {F32, {500, 300}, {1, 500}}, 1, D::normal);
    b.scan(SUM, {F32, {500, 300}, {1, 500}}, 0, D::normal, true);
    b.scan(SUM, {F32, {64, 1000}, {1003, 1}}, 1, D::normal, false, true);
    b.scan(PROD, {F32, {64, 1000}, {1003, 1}}, 1, D::near_one);
    b.scan(SUM, {F32, {40, 70000}, {0, 1}}, 1, D::normal);
    b.scan(SUM, {F64, {500, 300}, {1, 500}}, 1, D::normal);
    b.scan(SUM, {F16, {64, 1000}, {1003, 1}}, 0, D::normal);
    // Integers (exact on every path).
    b.scan(SUM, {DML_TENSOR_DATA_TYPE_INT32, {1000003}}, 0, D::integers);
    b.scan(SUM, {DML_TENSOR_DATA_TYPE_INT64, {257, 1031}}, 0, D::integers, true);
    b.scan(PROD, {DML_TENSOR_DATA_TYPE_INT16, {65537}}, 0, D::integers);
    b.scan(SUM, {DML_TENSOR_DATA_TYPE_UINT8, {300, 4099}}, 1, D::integers, false, true);

    // Reductions: every function and float type, a long line, rows along either axis, two axes of three.
    const DML_REDUCE_FUNCTION value_functions[] = {
        DML_REDUCE_FUNCTION_SUM,         DML_REDUCE_FUNCTION_AVERAGE,  DML_REDUCE_FUNCTION_SUM_SQUARE,
        DML_REDUCE_FUNCTION_L1,          DML_REDUCE_FUNCTION_L2,       DML_REDUCE_FUNCTION_LOG_SUM,
        DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MULTIPLY, DML_REDUCE_FUNCTION_MIN,
        DML_REDUCE_FUNCTION_MAX,         DML_REDUCE_FUNCTION_ARGMIN,   DML_REDUCE_FUNCTION_ARGMAX};
    for (DML_TENSOR_DATA_TYPE t : {F32, F64, F16}) {
        for (DML_REDUCE_FUNCTION f : value_functions) {
            const D data = f == DML_REDUCE_FUNCTION_MULTIPLY  ? D::near_one
                           : f == DML_REDUCE_FUNCTION_LOG_SUM ? D::positive
                                                              : D::normal;
            const uint32_t line = t == F16 ? 4097u : 100003u;  // float16 sums of squares stay finite
            b.reduce(f, {t, {line}}, {0}, data);
            b.reduce(f, {t, {257, 1031}}, {1}, data);
            b.reduce(f, {t, {1031, 257}}, {0}, data);
            if (t == F32) b.reduce(f, {t, {40, 50, 60}}, {0, 2}, data);
        }
    }
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {3000001}}, {0}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {F32, {3000001}}, {0}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {1000003}}, {0}, D::cancelling);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F64, {1000003}}, {0}, D::cancelling);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {3001, 1027}}, {1}, D::cancelling);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {3001, 1027}}, {0}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_AVERAGE, {F32, {4, 250000}}, {1}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_MULTIPLY, {F32, {1000003}}, {0}, D::near_one);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {500, 300}, {1, 500}}, {1}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {64, 1000}, {1003, 1}}, {0, 1}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_L2, {F64, {500, 300}, {1, 500}}, {0}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {F16, {64, 1000}, {1003, 1}}, {1}, D::normal);
    b.reduce(DML_REDUCE_FUNCTION_SUM, {DML_TENSOR_DATA_TYPE_INT32, {1000003}}, {0}, D::integers);
    b.reduce(DML_REDUCE_FUNCTION_MULTIPLY, {DML_TENSOR_DATA_TYPE_UINT64, {257, 1031}}, {1}, D::integers);
    b.reduce(DML_REDUCE_FUNCTION_SUM_SQUARE, {DML_TENSOR_DATA_TYPE_INT8, {1031, 257}}, {0}, D::integers);
    // The standalone arg operators.
    for (DML_TENSOR_DATA_TYPE t : {F32, F16, DML_TENSOR_DATA_TYPE_INT32}) {
        const D data = t == DML_TENSOR_DATA_TYPE_INT32 ? D::integers : D::normal;
        b.arg(DML_OPERATOR_ARGMAX, {t, {1000003}}, {0}, false, data);
        b.arg(DML_OPERATOR_ARGMIN, {t, {257, 1031}}, {1}, true, data);
        b.arg(DML_OPERATOR_ARGMAX, {t, {1031, 257}}, {0}, true, data);
    }
    // NanMode::ignore (appended: the cases above keep their seeds): the sums, products, averages and
    // scans that read NaN as the identity, and a selection that skips it.
    b.ignoring_nan([&] {
        b.reduce(DML_REDUCE_FUNCTION_SUM, {F32, {100003}}, {0}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_AVERAGE, {F32, {100003}}, {0}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_AVERAGE, {F64, {257, 1031}}, {1}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_AVERAGE, {F16, {1031, 257}}, {0}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_MULTIPLY, {F32, {1031, 257}}, {0}, D::near_one_nan);
        b.reduce(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {F32, {257, 1031}}, {1}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_L2, {F16, {4097}}, {0}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_SUM, {F64, {40, 50, 60}}, {0, 2}, D::normal_nan);
        b.reduce(DML_REDUCE_FUNCTION_MAX, {F32, {257, 1031}}, {1}, D::normal_nan);
        b.arg(DML_OPERATOR_ARGMIN, {F32, {1031, 257}}, {0}, false, D::normal_nan);
        b.scan(SUM, {F32, {100003}}, 0, D::normal_nan);
        b.scan(SUM, {F64, {1031, 257}}, 0, D::normal_nan, true);
        b.scan(PROD, {F16, {4097}}, 0, D::near_one_nan, false, true);
        b.scan(PROD, {F64, {257, 1031}}, 1, D::near_one_nan);
    });
    // vkdml's VARIANCE and STANDARD_DEVIATION (appended): every float type, a long line, rows along either
    // axis, two axes of three, cancelling data, a strided view, and NaN ignored.
    constexpr DML_REDUCE_FUNCTION VAR = VKDML_REDUCE_FUNCTION_VARIANCE,
                                  STD = VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION;
    b.reduce(VAR, {F32, {1000003}}, {0}, D::normal);
    b.reduce(STD, {F64, {100003}}, {0}, D::normal, 1);
    b.reduce(VAR, {F16, {4097}}, {0}, D::normal);
    b.reduce(VAR, {F32, {257, 1031}}, {1}, D::normal, 1);
    b.reduce(STD, {F32, {1031, 257}}, {0}, D::normal);
    b.reduce(VAR, {F64, {1031, 257}}, {0}, D::cancelling);
    b.reduce(STD, {F16, {257, 1031}}, {1}, D::normal, 1);
    b.reduce(VAR, {F32, {40, 50, 60}}, {0, 2}, D::normal);
    b.reduce(VAR, {F32, {500, 300}, {1, 500}}, {1}, D::cancelling);
    b.ignoring_nan([&] { b.reduce(VAR, {F32, {257, 1031}}, {1}, D::normal_nan, 1); });
    // vkdml's cumulative maximum and minimum and its logical functions (appended): exact everywhere.
    constexpr auto MAXIMUM = VKDML_OPERATOR_CUMULATIVE_MAXIMUM, MINIMUM = VKDML_OPERATOR_CUMULATIVE_MINIMUM;
    b.scan(MAXIMUM, {F32, {100003}}, 0, D::normal);
    b.scan(MINIMUM, {F16, {4097}}, 0, D::normal, true, true);
    b.scan(MAXIMUM, {DML_TENSOR_DATA_TYPE_INT8, {257, 1031}}, 1, D::integers);
    b.scan(MINIMUM, {DML_TENSOR_DATA_TYPE_INT64, {1031, 257}}, 0, D::integers, true);
    b.ignoring_nan([&] { b.scan(MINIMUM, {F64, {1031, 257}}, 0, D::normal_nan); });
    b.reduce(VKDML_REDUCE_FUNCTION_ANY, {F32, {257, 1031}}, {1}, D::normal_nan);
    b.reduce(VKDML_REDUCE_FUNCTION_ALL, {DML_TENSOR_DATA_TYPE_UINT8, {100003}}, {0}, D::integers);
    b.reduce(VKDML_REDUCE_FUNCTION_COUNT_NONZERO, {DML_TENSOR_DATA_TYPE_INT16, {1031, 257}}, {0},
             D::integers);
    // vkdml's log-cumulative-sum-exp (appended): every float type, a long line, rows along either axis,
    // exclusive and reversed, NaN ignored.
    constexpr auto LSE = VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP;
    b.scan(LSE, {F32, {100003}}, 0, D::normal);
    b.scan(LSE, {F64, {1031, 257}}, 0, D::normal, true);
    b.scan(LSE, {F16, {4097}}, 0, D::normal, false, true);
    b.ignoring_nan([&] { b.scan(LSE, {F32, {257, 1031}}, 1, D::normal_nan); });
    return std::move(b.cases);
}

}  // namespace

const std::vector<GoldenCase>& golden_cases() {
    static const std::vector<GoldenCase> cases = make_cases();
    return cases;
}

GoldenClass golden_class(const GoldenCase& c) {
    const bool logical = c.function == VKDML_REDUCE_FUNCTION_ANY || c.function == VKDML_REDUCE_FUNCTION_ALL ||
                         c.function == VKDML_REDUCE_FUNCTION_COUNT_NONZERO;
    const bool selection =
        c.type == DML_OPERATOR_ARGMIN || c.type == DML_OPERATOR_ARGMAX ||
        c.type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM || c.type == VKDML_OPERATOR_CUMULATIVE_MINIMUM ||
        (c.type == DML_OPERATOR_REDUCE &&
         (c.function == DML_REDUCE_FUNCTION_MIN || c.function == DML_REDUCE_FUNCTION_MAX ||
          c.function == DML_REDUCE_FUNCTION_ARGMIN || c.function == DML_REDUCE_FUNCTION_ARGMAX || logical));
    if (!is_float_type(c.input.data_type) || selection) return GoldenClass::exact;
    // Every float REDUCE and scan: the compensated pair rounded once, then divided, square-rooted
    // (correctly rounded) or taken the logarithm of, LOG_SUM_EXP's sums rescaled by exponentials (vkdml's
    // own exp and log, from correctly rounded steps): no device function anywhere.
    return GoldenClass::canonical;
}

vkdml::ops::Operation golden_operation(const GoldenCase& c) {
    const DML_AXIS_DIRECTION dir = c.reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    auto op = [&]() -> vkdml::Result<vkdml::ops::Operation> {
        if (c.type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM)
            return vkdml::ops::cumulative_maximum(c.input, c.axes[0], dir, c.exclusive);
        if (c.type == VKDML_OPERATOR_CUMULATIVE_MINIMUM)
            return vkdml::ops::cumulative_minimum(c.input, c.axes[0], dir, c.exclusive);
        if (c.type == VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP)
            return vkdml::ops::log_cumulative_sum_exp(c.input, c.axes[0], dir, c.exclusive);
        switch (c.type) {
        case DML_OPERATOR_CUMULATIVE_SUMMATION:
            return vkdml::ops::cumulative_sum(c.input, c.axes[0], dir, c.exclusive);
        case DML_OPERATOR_CUMULATIVE_PRODUCT:
            return vkdml::ops::cumulative_product(c.input, c.axes[0], dir, c.exclusive);
        // (Arg indices as UINT32, as the committed hashes were computed: the builders' default is INT64.)
        case DML_OPERATOR_REDUCE:
            return vkdml::ops::reduce(
                c.input, c.function, std::span(c.axes),
                c.function == DML_REDUCE_FUNCTION_ARGMAX || c.function == DML_REDUCE_FUNCTION_ARGMIN
                    ? DML_TENSOR_DATA_TYPE_UINT32
                    : vkdml::ops::kAutoType);
        case DML_OPERATOR_ARGMIN:
            return vkdml::ops::argmin(c.input, std::span(c.axes), dir, DML_TENSOR_DATA_TYPE_UINT32);
        default: return vkdml::ops::argmax(c.input, std::span(c.axes), dir, DML_TENSOR_DATA_TYPE_UINT32);
        }
    }();
    INFO(c.name << (op ? std::string() : ": " + op.error().message));
    REQUIRE(op);
    return *op;
}

std::vector<std::byte> golden_input(const GoldenCase& c) {
    std::vector<uint32_t> strides = c.input.strides.empty() ? packed_strides(c.input.sizes) : c.input.strides;
    TestTensor t = make_tensor(c.input.data_type, c.input.sizes, strides);
    Random r{c.seed};
    const bool is_unsigned = !is_float_type(t.type) && !is_signed_integer_type(t.type);
    // Gaps first (any bits a type can hold as a number), then every element in row-major order.
    for (uint64_t k = 0; k < t.total_bytes() / t.element_size(); ++k) t.set_double(k, r.normal());
    std::vector<uint32_t> index(t.rank(), 0);
    do {
        t.set_double_at(index, generate(c.data, r, is_unsigned));
    } while (next_index(index, t.sizes));
    return std::move(t.bytes);
}

uint64_t golden_hash(DML_TENSOR_DATA_TYPE type, std::vector<std::byte> bytes) {
    const uint32_t size = type_size(type);
    if (is_float_type(type)) {
        const uint32_t mantissa = size == 2 ? 10 : size == 4 ? 23 : 52;
        const uint64_t exponent = ((uint64_t{1} << (8 * size - 1 - mantissa)) - 1) << mantissa;
        const uint64_t fraction = (uint64_t{1} << mantissa) - 1;
        for (size_t at = 0; at + size <= bytes.size(); at += size) {
            uint64_t bits = 0;
            std::memcpy(&bits, bytes.data() + at, size);
            if ((bits & exponent) == exponent && (bits & fraction) != 0) {
                bits = exponent | (uint64_t{1} << (mantissa - 1));  // +qNaN
                std::memcpy(bytes.data() + at, &bits, size);
            }
        }
    }
    uint64_t h = 0xcbf29ce484222325ull;
    for (std::byte b : bytes) h = (h ^ static_cast<uint8_t>(b)) * 0x100000001b3ull;
    return h;
}

uint64_t golden_run(const vkdml::Device& device, const GoldenCase& c) {
    const vkdml::ops::Operation op = golden_operation(c);
    const std::vector<std::byte> in = golden_input(c);
    std::vector<std::byte> out(op.output_bytes());
    const std::span<const std::byte> inputs[] = {std::span(in)};
    const std::span<std::byte> outputs[] = {std::span(out)};
    vkdml::OperatorOptions options;
    if (c.nan_ignore) options.nan_mode = vkdml::NanMode::ignore;
    options.correction = c.correction;
    const vkdml::Status st =
        vkdml::execute(device, op.desc(), inputs, outputs, DML_EXECUTION_FLAG_NONE, options);
    INFO(c.name << (st ? std::string() : ": " + st.error().message));
    REQUIRE(st);
    return golden_hash(op.output().data_type, std::move(out));
}

const std::vector<GoldenHash>& golden_hashes() {
    static const std::vector<GoldenHash> hashes = {
#include "../data/golden_hashes.inc"
    };
    return hashes;
}

}  // namespace vkdml_test
