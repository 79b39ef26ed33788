// reduce_sweep.cpp — running one reduce/arg case against the oracle; the fills of the reduce sweeps.
#include "reduce_sweep.hpp"

#include "gpu_fixture.hpp"
#include "vkdml/vkdml.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace vkdml_test {

const std::vector<DML_TENSOR_DATA_TYPE> kIndexTypes = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64,
                                                       DML_TENSOR_DATA_TYPE_UINT32,
                                                       DML_TENSOR_DATA_TYPE_UINT64};

const std::vector<DML_REDUCE_FUNCTION> kReduceFunctions = {
    DML_REDUCE_FUNCTION_ARGMAX,      DML_REDUCE_FUNCTION_ARGMIN, DML_REDUCE_FUNCTION_AVERAGE,
    DML_REDUCE_FUNCTION_L1,          DML_REDUCE_FUNCTION_L2,     DML_REDUCE_FUNCTION_LOG_SUM,
    DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MAX,    DML_REDUCE_FUNCTION_MIN,
    DML_REDUCE_FUNCTION_MULTIPLY,    DML_REDUCE_FUNCTION_SUM,    DML_REDUCE_FUNCTION_SUM_SQUARE};

std::vector<DML_TENSOR_DATA_TYPE> types_of(DML_REDUCE_FUNCTION f) {
    if (is_float_only_function(f))
        return {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64};
    return all_types();
}

bool is_arg_case(const ReduceCase& c) {
    return c.op != DML_OPERATOR_REDUCE || is_arg_function(c.function);
}

ReduceSpec reduce_spec(const ReduceCase& c) {
    if (c.op != DML_OPERATOR_REDUCE) {
        ReduceSpec spec = standalone_arg_spec(c.op, c.axes, c.direction, c.index_type);
        spec.nan_mode = c.nan_mode;
        return spec;
    }
    ReduceSpec spec;
    spec.function = c.function;
    spec.axes = c.axes;
    spec.output_type = is_arg_function(c.function) ? c.index_type : c.type;
    spec.nan_mode = c.nan_mode;
    return spec;
}

DML_TENSOR_DATA_TYPE output_type(const ReduceCase& c) {
    return is_arg_case(c) ? c.index_type : c.type;
}

std::vector<uint32_t> output_sizes(const ReduceCase& c) {
    return reduce_output_sizes(c.sizes, c.axes);
}

std::string describe(const ReduceCase& c) {
    std::ostringstream s;
    s << vkdml::to_string(c.op);
    if (c.op == DML_OPERATOR_REDUCE)
        s << " " << to_string(c.function);
    else
        s << (c.direction == DML_AXIS_DIRECTION_DECREASING ? " DECREASING" : " INCREASING");
    s << " " << type_name(c.type);
    if (is_arg_case(c)) s << " -> " << type_name(c.index_type);
    s << " sizes " << to_string(c.sizes) << " axes " << to_string(c.axes) << " (AxisCount " << c.axes.size()
      << ")\n  input strides " << to_string(c.in_strides) << " (+" << c.in_extra_bytes
      << " tail bytes), output sizes " << to_string(output_sizes(c)) << " strides "
      << to_string(c.out_strides) << " (+" << c.out_extra_bytes << " tail bytes)\n  fill "
      << (c.fill == ReduceFill::random           ? "random"
          : c.fill == ReduceFill::small_integers ? "small integers"
          : c.fill == ReduceFill::specials       ? "specials"
                                                 : "NaNs")
      << ", seed 0x" << std::hex << c.seed << std::dec
      << (c.nan_mode == vkdml::NanMode::ignore ? ", NaN ignored" : "");
    return s.str();
}

namespace {

// The number of elements each output element folds.
uint64_t reduced_count(const ReduceCase& c) {
    uint64_t n = 1;
    for (uint32_t a : c.axes)
        if (a < c.sizes.size()) n *= c.sizes[a];
    return n;
}

// ±e^u, |u| uniform in [lo, hi], the signs of u and of the value random.
void fill_near_one(TestTensor& t, uint64_t seed, double lo, double hi) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> magnitude(lo, hi);
    std::vector<uint32_t> index(t.rank(), 0);
    do {
        const double u = (rng() & 1u) ? magnitude(rng) : -magnitude(rng);
        t.set_double_at(index, (rng() & 2u) ? -std::exp(u) : std::exp(u));
    } while (next_index(index, t.sizes));
}

// Overwrites about `per_row` elements of each reduced row (on average) with NaN, ±inf or ±0.
void sprinkle_specials(TestTensor& t, uint64_t seed, uint64_t n, double per_row) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double specials[] = {std::numeric_limits<double>::quiet_NaN(), kInf, -kInf, -0.0, 0.0};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u01(0, 1);
    const double p = std::min(0.1, per_row / static_cast<double>(std::max<uint64_t>(n, 1)));
    std::vector<uint32_t> index(t.rank(), 0);
    do {
        if (u01(rng) < p) t.set_double_at(index, specials[rng() % 5]);
    } while (next_index(index, t.sizes));
}

// Integers in [-3, 3] (0 stored as -0 half the time), then NaN with a probability of 3%, 50%, 97% or 100%
// (by seed), and ±inf in 2% of the elements.
void fill_nans(TestTensor& t, uint64_t seed) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double nan_share[] = {0.03, 0.5, 0.97, 1.0};
    const double p = nan_share[seed % 4];
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u01(0, 1);
    std::vector<uint32_t> index(t.rank(), 0);
    do {
        double x = static_cast<double>(static_cast<int>(rng() % 7) - 3);
        if (x == 0 && (rng() & 1u)) x = -0.0;
        const double u = u01(rng);
        if (u < 0.02) x = (rng() & 1u) ? kInf : -kInf;
        if (u01(rng) < p) x = std::numeric_limits<double>::quiet_NaN();
        t.set_double_at(index, x);
    } while (next_index(index, t.sizes));
}

bool any_ambiguous(const TestTensor& input, const ReduceSpec& spec) {
    const std::vector<ReduceElement> r = reference_reduce(input, spec);
    return std::any_of(r.begin(), r.end(), [](const ReduceElement& e) { return e.ambiguous; });
}

}  // namespace

void fill_reduce_input(TestTensor& input, const ReduceCase& c) {
    const bool is_float = is_float_type(c.type);
    const double n = static_cast<double>(std::max<uint64_t>(1, reduced_count(c)));
    const DML_REDUCE_FUNCTION f = c.op == DML_OPERATOR_REDUCE   ? c.function
                                  : c.op == DML_OPERATOR_ARGMAX ? DML_REDUCE_FUNCTION_ARGMAX
                                                                : DML_REDUCE_FUNCTION_ARGMIN;
    const bool selects = is_arg_function(f) || f == DML_REDUCE_FUNCTION_MIN || f == DML_REDUCE_FUNCTION_MAX;
    const bool small = c.fill == ReduceFill::small_integers;
    // Specials where every order of evaluation gives the same answer.
    const bool specials = c.fill == ReduceFill::specials && is_float && f != DML_REDUCE_FUNCTION_MULTIPLY &&
                          f != DML_REDUCE_FUNCTION_LOG_SUM;

    if (f == DML_REDUCE_FUNCTION_MULTIPLY) {
        if (!is_float) {
            if (small) {
                const double rare = std::min(1.0 / 8, 16.0 / n), zero = std::min(1.0 / 64, 0.5 / n);
                const double common = (1.0 - 2 * rare - zero) / 4;
                fill_choice(input, c.seed, {1, -1, 3, -3, 2, -2, 0},
                            {common, common, common, common, rare, rare, zero});
            } else {
                fill_random_odd(input, c.seed);
            }
            return;
        }
        if (small) {
            const double rare = std::min(1.0 / 8, 8.0 / n), zero = std::min(1.0 / 64, 0.5 / n);
            const double common = (1.0 - 4 * rare - zero) / 2;
            fill_choice(input, c.seed, {1, -1, 2, -2, 0.5, -0.5, 0},
                        {common, common, rare, rare, rare, rare, zero});
        } else {
            const double s = std::clamp(3 / std::sqrt(n), 0.01, 0.5);
            fill_near_one(input, c.seed, s / 2, s);
        }
        if (any_ambiguous(input, reduce_spec(c))) fill_choice(input, c.seed ^ 0x77, {1, -1, 0}, {10, 10, 1});
        return;
    }
    if (c.fill == ReduceFill::nans && is_float && selects) {
        fill_nans(input, c.seed);
        return;
    }
    if (selects) {
        if (small)
            fill_random_integers(input, c.seed, -3, 3);
        else
            fill_random(input, c.seed);
    } else if (f == DML_REDUCE_FUNCTION_LOG_SUM) {
        if (small)
            fill_random_integers(input, c.seed, 1, 8);
        else
            fill_random(input, c.seed, 0.25, 1);
    } else if (f == DML_REDUCE_FUNCTION_LOG_SUM_EXP) {
        if (small)
            fill_random_integers(input, c.seed, -8, 8);
        else
            fill_random(input, c.seed, -10, 10);
    } else {  // SUM, AVERAGE, L1, L2, SUM_SQUARE
        if (small && is_float)
            fill_random_integers(input, c.seed, -8, 8);
        else
            fill_random(input, c.seed);
    }
    if (specials) sprinkle_specials(input, c.seed ^ 0x5bec1a1, reduced_count(c), 1.0);
}

vkdml::Status execute_reduce(DML_OPERATOR_TYPE op, DML_REDUCE_FUNCTION function, DML_AXIS_DIRECTION direction,
                             const std::vector<uint32_t>& axes, const TestTensor& input, TestTensor& output,
                             vkdml::NanMode nan_mode) {
    const TensorDescView in_view(input);
    const TensorDescView out_view(output);
    const uint32_t count = static_cast<uint32_t>(axes.size());
    const uint32_t* pointer = axes.empty() ? nullptr : axes.data();
    const DML_REDUCE_OPERATOR_DESC reduce{function, in_view.get(), out_view.get(), count, pointer};
    const DML_ARGMIN_OPERATOR_DESC argmin{in_view.get(), out_view.get(), count, pointer, direction};
    const DML_ARGMAX_OPERATOR_DESC argmax{in_view.get(), out_view.get(), count, pointer, direction};
    const void* desc = op == DML_OPERATOR_REDUCE   ? static_cast<const void*>(&reduce)
                       : op == DML_OPERATOR_ARGMIN ? static_cast<const void*>(&argmin)
                                                   : static_cast<const void*>(&argmax);
    const std::span<const std::byte> inputs[] = {input.bytes};
    const std::span<std::byte> outputs[] = {output.bytes};
    vkdml::OperatorOptions options;
    options.nan_mode = nan_mode;
    return vkdml::execute(test_device(), DML_OPERATOR_DESC{op, desc}, inputs, outputs,
                          DML_EXECUTION_FLAG_NONE, options);
}

TestTensor check_reduce_case(const ReduceCase& c, const TestTensor& input, SweepStats& stats) {
    ++stats.cases;
    INFO("case: " << describe(c));
    REQUIRE(input.type == c.type);
    REQUIRE(input.sizes == c.sizes);
    REQUIRE(input.strides == c.in_strides);

    const ReduceSpec spec = reduce_spec(c);
    const std::vector<ReduceElement> reference = reference_reduce(input, spec);
    const auto ambiguous =
        std::count_if(reference.begin(), reference.end(), [](const ReduceElement& e) { return e.ambiguous; });
    if (ambiguous)
        FAIL("test design: the input gives " << ambiguous
                                             << " results that depend on the order of evaluation (overflow, "
                                                "inf - inf, a LOG_SUM around 0); change the fill");

    TestTensor output = make_tensor(output_type(c), output_sizes(c), c.out_strides, c.out_extra_bytes);
    fill_random_bytes(output, c.seed ^ 0x2222);  // sentinel padding, garbage elements
    const std::vector<std::byte> input_before = input.bytes;
    const std::vector<std::byte> output_before = output.bytes;

    vkdml::Device& device = test_device();
    vkdml::TypeSupport support = device.supports(c.op, c.type);
    if (support.supported && is_arg_case(c)) support = device.supports(c.op, c.index_type);
    const vkdml::Status status =
        execute_reduce(c.op, c.function, c.direction, c.axes, input, output, c.nan_mode);
    require_no_validation_messages();
    if (!support.supported) {
        // A device without the type's features must refuse it cleanly (SPEC §4), never compute.
        ++stats.unsupported;
        INFO("device does not support the case's types: " << support.reason);
        REQUIRE_FALSE(status.ok());
        CHECK(status.error().code == vkdml::ErrorCode::unsupported_device);
        return {};
    }
    INFO("execute: " << (status.ok() ? std::string("ok") : status.error().message));
    REQUIRE(status.ok());
    stats.elements += input.count();

    // Elements.
    uint64_t mismatches = 0;
    std::ostringstream detail;
    std::vector<uint32_t> index(output.rank(), 0);
    uint64_t logical = 0;
    do {
        const ReduceElement& e = reference[logical++];
        const uint64_t offset = output.offset_of(index);
        if (!reduce_element_matches(spec, c.type, e, output.get_bits(offset), output.get_double(offset))) {
            if (mismatches < 8)
                detail << "\n  output index " << to_string(index) << ": got " << output.format_element(offset)
                       << ", expected " << format_expected(spec, c.type, e);
            ++mismatches;
        }
    } while (next_index(index, output.sizes));

    check_case_verdict(output, output_before, input.bytes == input_before, mismatches, output.count(),
                       detail.str(), stats);
    return output;
}

TestTensor run_reduce_case(const ReduceCase& c, SweepStats& stats) {
    TestTensor input = make_tensor(c.type, c.sizes, c.in_strides, c.in_extra_bytes);
    fill_random_bytes(input, c.seed ^ 0x1111);  // garbage in the padding: it must not be read
    fill_reduce_input(input, c);
    return check_reduce_case(c, input, stats);
}

}  // namespace vkdml_test
