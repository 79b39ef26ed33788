// Host-only tests of the reduce/arg oracle (reference_reduce.hpp): SPEC §6's examples verbatim, the
// [vkdml] rules of SPEC §3 (arg index order, ties, AxisCount 0, NaN, integer wrap, LOG_SUM_EXP's
// running maximum), layouts, and the float comparison rule, all with exact expected values.
#include <catch2/catch.hpp>

#include "half.hpp"
#include "reference_reduce.hpp"
#include "tensor_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace vkdml_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<DML_TENSOR_DATA_TYPE> kIndexTypes = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64,
                                                       DML_TENSOR_DATA_TYPE_UINT32,
                                                       DML_TENSOR_DATA_TYPE_UINT64};

// Writes `values` (row-major logical order) into every logical position of `t` (any layout).
void fill_logical(TestTensor& t, const std::vector<double>& values) {
    REQUIRE(values.size() == t.count());
    std::vector<uint32_t> index(t.rank(), 0);
    size_t i = 0;
    do {
        t.set_double_at(index, values[i++]);
    } while (next_index(index, t.sizes));
}

TestTensor packed(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                  const std::vector<double>& values) {
    TestTensor t = make_packed(type, sizes);
    fill_logical(t, values);
    return t;
}

ReduceSpec spec_of(DML_REDUCE_FUNCTION function, std::vector<uint32_t> axes,
                   DML_TENSOR_DATA_TYPE output_type = DML_TENSOR_DATA_TYPE_UNKNOWN) {
    ReduceSpec spec;
    spec.function = function;
    spec.axes = std::move(axes);
    spec.output_type = output_type;
    return spec;
}

std::vector<ReduceElement> reduce_1d(DML_TENSOR_DATA_TYPE type, const std::vector<double>& values,
                                     const ReduceSpec& spec) {
    return reference_reduce(packed(type, {static_cast<uint32_t>(values.size())}, values), spec);
}

// The one element of a 1-D reduction over axis 0.
ReduceElement reduce_one(DML_TENSOR_DATA_TYPE type, const std::vector<double>& values,
                         DML_REDUCE_FUNCTION function) {
    const std::vector<ReduceElement> r = reduce_1d(type, values, spec_of(function, {0}));
    REQUIRE(r.size() == 1);
    return r[0];
}

std::vector<uint64_t> indices(const std::vector<ReduceElement>& r) {
    std::vector<uint64_t> out;
    for (const ReduceElement& e : r) out.push_back(e.bits);
    return out;
}

std::vector<long double> values_of(const std::vector<ReduceElement>& r) {
    std::vector<long double> out;
    for (const ReduceElement& e : r) out.push_back(e.value);
    return out;
}

// The result bits of an integer element, sign-extended for signed types.
int64_t int_result(DML_TENSOR_DATA_TYPE type, const ReduceElement& e) {
    TestTensor t = make_packed(type, {1});
    t.set_bits(0, e.bits);
    return t.get_int(0);
}

// reduce_element_matches for a float result `got` stored in the output type.
bool accepts(const ReduceSpec& spec, DML_TENSOR_DATA_TYPE type, const ReduceElement& e, double got) {
    TestTensor t = make_packed(reduce_output_type(spec, type), {1});
    t.set_double(0, got);
    REQUIRE((std::isnan(got) || t.get_double(0) == got));  // got must be a value of the output type
    return reduce_element_matches(spec, type, e, t.get_bits(0), t.get_double(0));
}

// The float32 neighbours of a value.
double f32_up(double v) {
    return static_cast<double>(std::nextafter(static_cast<float>(v), std::numeric_limits<float>::infinity()));
}
double f32_down(double v) {
    return static_cast<double>(
        std::nextafter(static_cast<float>(v), -std::numeric_limits<float>::infinity()));
}

}  // namespace

TEST_CASE("reference reduce: SPEC §6 SUM examples for every data type", "[reference]") {
    const std::vector<double> input = {1, 2, 3, 3, 0, 4, 2, 4, 2};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO(type_name(type));
        const TestTensor t = packed(type, {3, 3}, input);
        const ReduceSpec sum0 = spec_of(DML_REDUCE_FUNCTION_SUM, {0});
        const ReduceSpec sum1 = spec_of(DML_REDUCE_FUNCTION_SUM, {1});
        const ReduceSpec sum01 = spec_of(DML_REDUCE_FUNCTION_SUM, {0, 1});
        CHECK(reduce_output_sizes(t.sizes, sum0.axes) == std::vector<uint32_t>{1, 3});
        CHECK(reduce_output_sizes(t.sizes, sum1.axes) == std::vector<uint32_t>{3, 1});
        CHECK(reduce_output_sizes(t.sizes, sum01.axes) == std::vector<uint32_t>{1, 1});
        const std::vector<ReduceElement> r0 = reference_reduce(t, sum0);
        const std::vector<ReduceElement> r1 = reference_reduce(t, sum1);
        const std::vector<ReduceElement> r01 = reference_reduce(t, sum01);
        if (is_float_type(type)) {
            CHECK(values_of(r0) == std::vector<long double>{6, 6, 9});
            CHECK(values_of(r1) == std::vector<long double>{6, 7, 8});
            CHECK(values_of(r01) == std::vector<long double>{21});
            for (const ReduceElement& e : r0) CHECK(e.exact);
            CHECK(r01[0].exact);
            CHECK(r01[0].count == 9);
            CHECK(accepts(sum01, type, r01[0], 21));
            CHECK_FALSE(accepts(sum01, type, r01[0], 22));
        } else {
            CHECK(indices(r0) == std::vector<uint64_t>{6, 6, 9});
            CHECK(indices(r1) == std::vector<uint64_t>{6, 7, 8});
            CHECK(indices(r01) == std::vector<uint64_t>{21});
            CHECK(reduce_element_matches(sum01, type, r01[0], 21, 21));
            CHECK_FALSE(reduce_element_matches(sum01, type, r01[0], 22, 22));
        }
    }
}

TEST_CASE("reference reduce: SPEC §6 ARGMAX/ARGMIN examples, every input and index type", "[reference]") {
    const std::vector<double> input = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            INFO(type_name(type) << " -> " << type_name(index_type));
            const TestTensor t = packed(type, {3, 3}, input);
            auto arg = [&](DML_REDUCE_FUNCTION f, std::vector<uint32_t> axes) {
                return indices(reference_reduce(t, spec_of(f, std::move(axes), index_type)));
            };
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMAX, {0}) == std::vector<uint64_t>{1, 2, 1});
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMAX, {1}) == std::vector<uint64_t>{2, 2, 1});
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMAX, {0, 1}) == std::vector<uint64_t>{7});
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMIN, {0}) == std::vector<uint64_t>{0, 1, 2});
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMIN, {1}) == std::vector<uint64_t>{0, 1, 0});
            CHECK(arg(DML_REDUCE_FUNCTION_ARGMIN, {0, 1}) == std::vector<uint64_t>{4});
            // The standalone operators agree in both directions (these inputs have no ties).
            for (DML_AXIS_DIRECTION dir : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
                const ReduceSpec amax = standalone_arg_spec(DML_OPERATOR_ARGMAX, {0, 1}, dir, index_type);
                const ReduceSpec amin = standalone_arg_spec(DML_OPERATOR_ARGMIN, {0}, dir, index_type);
                CHECK(indices(reference_reduce(t, amax)) == std::vector<uint64_t>{7});
                CHECK(indices(reference_reduce(t, amin)) == std::vector<uint64_t>{0, 1, 2});
            }
            const ReduceSpec both = spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0, 1}, index_type);
            const ReduceElement e = reference_reduce(t, both)[0];
            CHECK(reduce_element_matches(both, type, e, 7, 7));
            CHECK_FALSE(reduce_element_matches(both, type, e, 5, 5));
            CHECK(e.value == 5);
        }
    }
}

TEST_CASE("reference reduce: SPEC §6 ties: first index, last with DECREASING", "[reference]") {
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO(type_name(type));
        const TestTensor up = packed(type, {5}, {3, 2, 1, 2, 3});
        const TestTensor down = packed(type, {5}, {1, 2, 3, 2, 1});
        const DML_TENSOR_DATA_TYPE it = DML_TENSOR_DATA_TYPE_UINT32;
        CHECK(reference_reduce(up, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0}, it))[0].bits == 0);
        CHECK(reference_reduce(down, spec_of(DML_REDUCE_FUNCTION_ARGMIN, {0}, it))[0].bits == 0);
        const auto inc = DML_AXIS_DIRECTION_INCREASING;
        const auto dec = DML_AXIS_DIRECTION_DECREASING;
        CHECK(reference_reduce(up, standalone_arg_spec(DML_OPERATOR_ARGMAX, {0}, inc, it))[0].bits == 0);
        CHECK(reference_reduce(up, standalone_arg_spec(DML_OPERATOR_ARGMAX, {0}, dec, it))[0].bits == 4);
        CHECK(reference_reduce(down, standalone_arg_spec(DML_OPERATOR_ARGMIN, {0}, inc, it))[0].bits == 0);
        CHECK(reference_reduce(down, standalone_arg_spec(DML_OPERATOR_ARGMIN, {0}, dec, it))[0].bits == 4);
    }
    // −0 and +0 compare equal: a tie.
    const TestTensor zeros = packed(DML_TENSOR_DATA_TYPE_FLOAT32, {3}, {-0.0, 0.0, -1});
    const auto dec = DML_AXIS_DIRECTION_DECREASING;
    CHECK(reference_reduce(zeros, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0}, DML_TENSOR_DATA_TYPE_INT32))[0]
              .bits == 0);
    CHECK(reference_reduce(zeros,
                           standalone_arg_spec(DML_OPERATOR_ARGMAX, {0}, dec, DML_TENSOR_DATA_TYPE_INT32))[0]
              .bits == 1);
}

TEST_CASE("reference reduce: arg index is row-major over the reduced axes in ascending order",
          "[reference]") {
    // 3×3, maximum at (2,1): 7 whether Axes is {0,1} or {1,0}.
    const TestTensor t = packed(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 3}, {1, 2, 3, 3, 0, 4, 2, 5, 2});
    for (const std::vector<uint32_t>& axes : {std::vector<uint32_t>{0, 1}, std::vector<uint32_t>{1, 0}}) {
        CHECK(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_ARGMAX, axes, DML_TENSOR_DATA_TYPE_INT64))[0]
                  .bits == 7);
        CHECK(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_ARGMIN, axes, DML_TENSOR_DATA_TYPE_INT64))[0]
                  .bits == 4);
    }
    // {2,3,4} reduced over axes {2,0}: index = i0·4 + i2. Maximum of row j at (1, j, 2 - j % 2) -> 6, 5, 6.
    TestTensor c = make_packed(DML_TENSOR_DATA_TYPE_INT16, {2, 3, 4});
    for (uint32_t j = 0; j < 3; ++j) c.set_int_at({1, j, 2 - j % 2}, 100 + j);
    const std::vector<ReduceElement> r =
        reference_reduce(c, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {2, 0}, DML_TENSOR_DATA_TYPE_UINT64));
    CHECK(indices(r) == std::vector<uint64_t>{6, 5, 6});
    CHECK(values_of(r) == std::vector<long double>{100, 101, 102});
    CHECK(r[0].count == 8);
}

TEST_CASE("reference reduce: AxisCount 0 folds each element alone; arg functions give 0", "[reference]") {
    // SPEC §3 "No axes": each output is its function over its one element (DirectML 1.15.4): L1 |x|,
    // SUM_SQUARE x², L2 |x| (within its tolerance), LOG_SUM ln x, the others x; integers wrap.
    const std::vector<double> input = {-1, 2, -3, 4, -5, 6};
    const std::vector<DML_REDUCE_FUNCTION> all_functions = {
        DML_REDUCE_FUNCTION_AVERAGE,   DML_REDUCE_FUNCTION_L1,          DML_REDUCE_FUNCTION_L2,
        DML_REDUCE_FUNCTION_LOG_SUM,   DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MAX,
        DML_REDUCE_FUNCTION_MIN,       DML_REDUCE_FUNCTION_MULTIPLY,    DML_REDUCE_FUNCTION_SUM,
        DML_REDUCE_FUNCTION_SUM_SQUARE};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        const TestTensor t = packed(type, {2, 3}, input);
        const std::vector<double> stored = stored_values(type, input);
        for (DML_REDUCE_FUNCTION f : all_functions) {
            const bool float_only = f == DML_REDUCE_FUNCTION_AVERAGE || f == DML_REDUCE_FUNCTION_L2 ||
                                    f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_LOG_SUM_EXP;
            if (float_only && !is_float_type(type)) continue;
            INFO(type_name(type) << " " << to_string(f));
            const ReduceSpec spec = spec_of(f, {});
            const std::vector<ReduceElement> r = reference_reduce(t, spec);
            REQUIRE(r.size() == 6);
            for (size_t i = 0; i < 6; ++i) {
                CHECK(r[i].count == 1);
                const double x = stored[i];
                double want = x;
                if (f == DML_REDUCE_FUNCTION_L1 || f == DML_REDUCE_FUNCTION_L2) want = std::fabs(x);
                if (f == DML_REDUCE_FUNCTION_SUM_SQUARE) want = x * x;
                if (f == DML_REDUCE_FUNCTION_LOG_SUM) want = std::log(x);  // NaN for the negatives
                if (!is_float_type(type)) {
                    // Unsigned types hold the negatives as 2^bits - |x|: squares and sums wrap alike.
                    const uint64_t bits = t.get_bits(i);
                    const uint64_t expected = (f == DML_REDUCE_FUNCTION_SUM_SQUARE ? bits * bits
                                               : f == DML_REDUCE_FUNCTION_L1 && is_signed_integer_type(type)
                                                   ? static_cast<uint64_t>(std::llabs(t.get_int(i)))
                                                   : bits) &
                                              type_mask(type);
                    CHECK((r[i].bits & type_mask(type)) == expected);
                    CHECK(reduce_element_matches(spec, type, r[i], expected, 0));
                    CHECK_FALSE(reduce_element_matches(spec, type, r[i], expected + 1, 0));
                } else if (std::isnan(want)) {
                    CHECK(std::isnan(r[i].value));
                    CHECK(accepts(spec, type, r[i], kNaN));
                    CHECK_FALSE(accepts(spec, type, r[i], 0));
                } else {
                    CHECK(static_cast<double>(r[i].value) == Approx(want).epsilon(1e-15));
                    CHECK(accepts(spec, type, r[i], stored_values(type, {want})[0]));
                    CHECK_FALSE(accepts(spec, type, r[i], stored_values(type, {-want - 1})[0]));
                }
            }
        }
        const std::vector<ReduceElement> arg =
            reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {}, DML_TENSOR_DATA_TYPE_INT32));
        const std::vector<ReduceElement> argmin =
            reference_reduce(t, standalone_arg_spec(DML_OPERATOR_ARGMIN, {}, DML_AXIS_DIRECTION_DECREASING,
                                                    DML_TENSOR_DATA_TYPE_UINT64));
        CHECK(indices(arg) == std::vector<uint64_t>(6, 0));
        CHECK(indices(argmin) == std::vector<uint64_t>(6, 0));
    }
    // Specials: NaN stays NaN; |±inf| and (±inf)² are +inf, ln(+inf) +inf and ln(-inf) NaN; of −0, L1,
    // L2 and SUM_SQUARE give +0, LOG_SUM −inf, LOG_SUM_EXP 0.
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    const TestTensor s = packed(f32, {4}, {kNaN, kInf, -kInf, -0.0});
    struct Special {
        DML_REDUCE_FUNCTION f;
        double pos_inf, neg_inf, neg_zero;
    };
    for (const Special& c :
         {Special{DML_REDUCE_FUNCTION_LOG_SUM, kInf, kNaN, -kInf},
          Special{DML_REDUCE_FUNCTION_L1, kInf, kInf, 0.0}, Special{DML_REDUCE_FUNCTION_L2, kInf, kInf, 0.0},
          Special{DML_REDUCE_FUNCTION_SUM_SQUARE, kInf, kInf, 0.0},
          Special{DML_REDUCE_FUNCTION_SUM, kInf, -kInf, -0.0}}) {
        INFO(to_string(c.f));
        const ReduceSpec spec = spec_of(c.f, {});
        const std::vector<ReduceElement> r = reference_reduce(s, spec);
        CHECK(std::isnan(r[0].value));
        CHECK(accepts(spec, f32, r[0], kNaN));
        CHECK(accepts(spec, f32, r[1], c.pos_inf));
        CHECK(accepts(spec, f32, r[2], c.neg_inf));
        if (!std::isnan(c.neg_inf)) CHECK_FALSE(accepts(spec, f32, r[2], -c.neg_inf));
        CHECK(accepts(spec, f32, r[3], c.neg_zero));
        if (c.f != DML_REDUCE_FUNCTION_SUM &&
            c.f != DML_REDUCE_FUNCTION_L2)  // (not exact: a zero of either sign)
            CHECK_FALSE(accepts(spec, f32, r[3], -c.neg_zero));
    }
}

TEST_CASE("reference reduce: NaN rules for MIN/MAX and the arg functions", "[reference]") {
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        INFO(type_name(type));
        const std::vector<double> v = {1, kNaN, 5, kNaN, -2};
        CHECK(std::isnan(reduce_one(type, v, DML_REDUCE_FUNCTION_MAX).value));
        CHECK(std::isnan(reduce_one(type, v, DML_REDUCE_FUNCTION_MIN).value));
        const ReduceSpec max_spec = spec_of(DML_REDUCE_FUNCTION_MAX, {0});
        const ReduceElement mx = reduce_one(type, v, DML_REDUCE_FUNCTION_MAX);
        CHECK(accepts(max_spec, type, mx, kNaN));
        CHECK_FALSE(accepts(max_spec, type, mx, 5));
        // First NaN; last NaN with DECREASING.
        const DML_TENSOR_DATA_TYPE it = DML_TENSOR_DATA_TYPE_INT64;
        for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
            const ReduceSpec inc = standalone_arg_spec(op, {0}, DML_AXIS_DIRECTION_INCREASING, it);
            const ReduceSpec dec = standalone_arg_spec(op, {0}, DML_AXIS_DIRECTION_DECREASING, it);
            CHECK(reduce_1d(type, v, inc)[0].bits == 1);
            CHECK(reduce_1d(type, v, dec)[0].bits == 3);
        }
        // NanMode::ignore: NaN left out; none left gives ∓inf and index 0.
        ReduceSpec max_ignore = max_spec;
        max_ignore.nan_mode = vkdml::NanMode::ignore;
        CHECK(reduce_1d(type, v, max_ignore)[0].value == 5);
        CHECK(reduce_1d(type, {kNaN, kNaN}, max_ignore)[0].value == -kInf);
        ReduceSpec min_ignore = spec_of(DML_REDUCE_FUNCTION_MIN, {0});
        min_ignore.nan_mode = vkdml::NanMode::ignore;
        CHECK(reduce_1d(type, v, min_ignore)[0].value == -2);
        CHECK(reduce_1d(type, {kNaN}, min_ignore)[0].value == kInf);
        for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
            ReduceSpec last = standalone_arg_spec(op, {0}, DML_AXIS_DIRECTION_DECREASING, it);
            last.nan_mode = vkdml::NanMode::ignore;
            CHECK(reduce_1d(type, {kNaN, 7, kNaN, 7, kNaN}, last)[0].bits == 3);
            CHECK(reduce_1d(type, {kNaN, kNaN, kNaN}, last)[0].bits == 0);
            CHECK(reduce_1d(type, v, last)[0].bits == (op == DML_OPERATOR_ARGMAX ? 2u : 4u));
        }
        // Without NaN, MIN/MAX are exact and pick an input.
        const ReduceElement m = reduce_one(type, {1, -2.5, 5, 0.5}, DML_REDUCE_FUNCTION_MIN);
        CHECK(m.value == -2.5L);
        CHECK(m.exact);
        // Zero signs (IEEE 754-2019): MAX over {−0, +0} is +0, MIN −0; over {−0, −1} MAX is −0.
        const ReduceElement z = reduce_one(type, {-0.0, 0.0, -1}, DML_REDUCE_FUNCTION_MAX);
        CHECK(accepts(max_spec, type, z, 0.0));
        CHECK_FALSE(accepts(max_spec, type, z, -0.0));
        const ReduceSpec min_spec = spec_of(DML_REDUCE_FUNCTION_MIN, {0});
        const ReduceElement mz = reduce_one(type, {0.0, -0.0, 1}, DML_REDUCE_FUNCTION_MIN);
        CHECK(accepts(min_spec, type, mz, -0.0));
        CHECK_FALSE(accepts(min_spec, type, mz, 0.0));
        const ReduceElement nz = reduce_one(type, {-0.0, -1}, DML_REDUCE_FUNCTION_MAX);
        CHECK(accepts(max_spec, type, nz, -0.0));
        CHECK_FALSE(accepts(max_spec, type, nz, 0.0));
    }
}

TEST_CASE("reference reduce: IEEE specials in the float functions", "[reference]") {
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    CHECK(std::isnan(reduce_one(f32, {1, kNaN}, DML_REDUCE_FUNCTION_SUM).value));
    CHECK(std::isnan(reduce_one(f32, {kInf, 1, -kInf}, DML_REDUCE_FUNCTION_SUM).value));
    CHECK(reduce_one(f32, {kInf, 1}, DML_REDUCE_FUNCTION_SUM).value == kInf);
    CHECK(reduce_one(f32, {-kInf, 1}, DML_REDUCE_FUNCTION_L1).value == kInf);
    CHECK(reduce_one(f32, {-kInf, 1}, DML_REDUCE_FUNCTION_SUM_SQUARE).value == kInf);
    // |x| and x² make both infinities +inf: no inf − inf.
    CHECK(reduce_one(f32, {kInf, 1, -kInf}, DML_REDUCE_FUNCTION_L1).value == kInf);
    CHECK(reduce_one(f32, {kInf, 1, -kInf}, DML_REDUCE_FUNCTION_SUM_SQUARE).value == kInf);
    CHECK(reduce_one(f32, {-kInf, kInf}, DML_REDUCE_FUNCTION_L2).value == kInf);
    CHECK(std::isnan(reduce_one(f32, {-kInf, kInf}, DML_REDUCE_FUNCTION_AVERAGE).value));
    CHECK(std::isnan(reduce_one(f32, {-kInf, kInf}, DML_REDUCE_FUNCTION_LOG_SUM).value));
    CHECK(std::isnan(reduce_one(f32, {0, kInf}, DML_REDUCE_FUNCTION_MULTIPLY).value));
    CHECK(reduce_one(f32, {-2, kInf}, DML_REDUCE_FUNCTION_MULTIPLY).value == -kInf);
    CHECK(std::isnan(reduce_one(f32, {2, kNaN}, DML_REDUCE_FUNCTION_MULTIPLY).value));
    CHECK(std::isnan(reduce_one(f32, {0, kNaN}, DML_REDUCE_FUNCTION_LOG_SUM_EXP).value));
    CHECK(reduce_one(f32, {0, kInf}, DML_REDUCE_FUNCTION_LOG_SUM_EXP).value == kInf);
    CHECK(reduce_one(f32, {-kInf, -kInf}, DML_REDUCE_FUNCTION_LOG_SUM_EXP).value == -kInf);
    CHECK(reduce_one(f32, {-kInf, 0}, DML_REDUCE_FUNCTION_LOG_SUM_EXP).value == 0);
    CHECK(reduce_one(f32, {0, 0}, DML_REDUCE_FUNCTION_LOG_SUM).value == -kInf);
    CHECK(reduce_one(f32, {1, -1}, DML_REDUCE_FUNCTION_LOG_SUM).value == -kInf);
    CHECK(std::isnan(reduce_one(f32, {-1}, DML_REDUCE_FUNCTION_LOG_SUM).value));
    CHECK(reduce_one(f32, {kInf}, DML_REDUCE_FUNCTION_LOG_SUM).value == kInf);
    // Infinities must match exactly.
    const ReduceSpec sum = spec_of(DML_REDUCE_FUNCTION_SUM, {0});
    const ReduceElement inf = reduce_one(f32, {kInf, 1}, DML_REDUCE_FUNCTION_SUM);
    CHECK(accepts(sum, f32, inf, kInf));
    CHECK_FALSE(accepts(sum, f32, inf, static_cast<double>(std::numeric_limits<float>::max())));
    CHECK_FALSE(accepts(sum, f32, inf, kNaN));
    const ReduceSpec ls = spec_of(DML_REDUCE_FUNCTION_LOG_SUM, {0});
    const ReduceElement minus_inf = reduce_one(f32, {1, -1}, DML_REDUCE_FUNCTION_LOG_SUM);
    CHECK(accepts(ls, f32, minus_inf, -kInf));
    CHECK_FALSE(accepts(ls, f32, minus_inf, -104));
    // Products keep the sign of a zero result.
    const ReduceSpec mul = spec_of(DML_REDUCE_FUNCTION_MULTIPLY, {0});
    const ReduceElement neg_zero = reduce_one(f32, {0, -3}, DML_REDUCE_FUNCTION_MULTIPLY);
    CHECK(neg_zero.exact);
    CHECK(accepts(mul, f32, neg_zero, -0.0));
    CHECK_FALSE(accepts(mul, f32, neg_zero, 0.0));
}

TEST_CASE("reference reduce: integers wrap modulo 2^bits; MIN/MAX compare by signedness", "[reference]") {
    using T = DML_TENSOR_DATA_TYPE;
    auto int_of = [](T type, const std::vector<double>& v, DML_REDUCE_FUNCTION f) {
        return int_result(type, reduce_one(type, v, f));
    };
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {100, 100}, DML_REDUCE_FUNCTION_SUM) == -56);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_UINT8, {200, 100}, DML_REDUCE_FUNCTION_SUM) == 44);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_UINT8, {16, 16}, DML_REDUCE_FUNCTION_MULTIPLY) == 0);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT16, {300, 300}, DML_REDUCE_FUNCTION_MULTIPLY) ==
          24464);  // 90000 - 65536
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {16}, DML_REDUCE_FUNCTION_SUM_SQUARE) == 0);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT16, {200, -200}, DML_REDUCE_FUNCTION_SUM_SQUARE) == 14464);  // 80000
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {-100, -100}, DML_REDUCE_FUNCTION_L1) == -56);            // 200
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {-128}, DML_REDUCE_FUNCTION_L1) == -128);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_UINT8, {255, 1}, DML_REDUCE_FUNCTION_L1) == 0);

    // INT32_MIN's absolute value wraps to itself; INT64 too.
    TestTensor i32 = make_packed(DML_TENSOR_DATA_TYPE_INT32, {2});
    i32.set_int(0, std::numeric_limits<int32_t>::min());
    const ReduceSpec l1 = spec_of(DML_REDUCE_FUNCTION_L1, {0});
    const ReduceElement one = reference_reduce(i32, l1)[0];
    CHECK(int_result(DML_TENSOR_DATA_TYPE_INT32, one) == std::numeric_limits<int32_t>::min());
    i32.set_int(1, -1);  // |INT32_MIN| + |-1| = 2^31 + 1 -> INT32_MIN + 1
    CHECK(int_result(DML_TENSOR_DATA_TYPE_INT32, reference_reduce(i32, l1)[0]) ==
          std::numeric_limits<int32_t>::min() + 1);
    CHECK(
        reduce_element_matches(l1, DML_TENSOR_DATA_TYPE_INT32, reference_reduce(i32, l1)[0], 0x80000001u, 0));
    CHECK_FALSE(
        reduce_element_matches(l1, DML_TENSOR_DATA_TYPE_INT32, reference_reduce(i32, l1)[0], 0x7FFFFFFFu, 0));
    TestTensor i64 = make_packed(DML_TENSOR_DATA_TYPE_INT64, {1});
    i64.set_int(0, std::numeric_limits<int64_t>::min());
    CHECK(reference_reduce(i64, l1)[0].bits == uint64_t{1} << 63);

    // 64-bit sums and products wrap modulo 2^64.
    TestTensor u64 = make_packed(DML_TENSOR_DATA_TYPE_UINT64, {2});
    u64.set_bits(0, ~uint64_t{0});
    u64.set_bits(1, 2);
    CHECK(reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_SUM, {0}))[0].bits == 1);
    CHECK(reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_MULTIPLY, {0}))[0].bits == ~uint64_t{0} - 1);
    CHECK(reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_MAX, {0}))[0].bits == ~uint64_t{0});
    // UINT64 values of 2^63 and more are their own absolute values: L1 {2^64 - 1, 2} = 1 (mod 2^64).
    CHECK(reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_L1, {0}))[0].bits == 1);
    u64.set_bits(1, uint64_t{1} << 63);
    CHECK(reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_L1, {0}))[0].bits == (uint64_t{1} << 63) - 1);
    u64.set_bits(1, 2);
    CHECK(
        reference_reduce(u64, spec_of(DML_REDUCE_FUNCTION_ARGMIN, {0}, DML_TENSOR_DATA_TYPE_INT32))[0].bits ==
        1);

    // The same bit patterns order differently as INT8 and UINT8 (0xFF is -1 or 255).
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {-1, 1}, DML_REDUCE_FUNCTION_MAX) == 1);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_UINT8, {255, 1}, DML_REDUCE_FUNCTION_MAX) == 255);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_INT8, {-1, 1}, DML_REDUCE_FUNCTION_MIN) == -1);
    CHECK(int_of(DML_TENSOR_DATA_TYPE_UINT8, {255, 1}, DML_REDUCE_FUNCTION_MIN) == 1);
    const ReduceSpec amax = spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0}, DML_TENSOR_DATA_TYPE_UINT32);
    CHECK(reduce_1d(DML_TENSOR_DATA_TYPE_INT8, {-1, 1}, amax)[0].bits == 1);
    CHECK(reduce_1d(DML_TENSOR_DATA_TYPE_UINT8, {255, 1}, amax)[0].bits == 0);
    TestTensor s64 = make_packed(DML_TENSOR_DATA_TYPE_INT64, {2});
    s64.set_int(0, std::numeric_limits<int64_t>::max());
    s64.set_int(1, std::numeric_limits<int64_t>::min());
    CHECK(reference_reduce(s64, spec_of(DML_REDUCE_FUNCTION_MIN, {0}))[0].bits == uint64_t{1} << 63);
    CHECK(reference_reduce(s64, spec_of(DML_REDUCE_FUNCTION_SUM, {0}))[0].bits == ~uint64_t{0});  // -1
    // Integer comparisons look at the low bits of the type only.
    const ReduceSpec sum = spec_of(DML_REDUCE_FUNCTION_SUM, {0});
    const ReduceElement wrapped = reduce_one(DML_TENSOR_DATA_TYPE_INT8, {100, 100}, DML_REDUCE_FUNCTION_SUM);
    CHECK(reduce_element_matches(sum, DML_TENSOR_DATA_TYPE_INT8, wrapped, 0xC8, -56));
    CHECK_FALSE(reduce_element_matches(sum, DML_TENSOR_DATA_TYPE_INT8, wrapped, 0xC9, -55));
}

TEST_CASE("reference reduce: LOG_SUM_EXP uses a running maximum", "[reference]") {
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    const ReduceSpec lse = spec_of(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {0});
    const ReduceElement hundred = reduce_one(f32, {100}, DML_REDUCE_FUNCTION_LOG_SUM_EXP);
    CHECK(hundred.value == 100);
    CHECK(hundred.shift == 100);
    CHECK(hundred.inner == 1);
    CHECK(reduce_accepted_range(lse, f32, hundred) == std::pair<double, double>{100, 100});
    CHECK(accepts(lse, f32, hundred, 100));
    CHECK_FALSE(accepts(lse, f32, hundred, kInf));  // DirectML's answer; this library's is 100

    const ReduceElement thousand = reduce_one(f32, {1000, 1000}, DML_REDUCE_FUNCTION_LOG_SUM_EXP);
    CHECK(thousand.value == 1000 + std::log(2.0L));
    CHECK(thousand.inner == 2);
    // float32(1000 + ln 2) = 1000.6931762695312 lies 0.48 of a spacing (2^-14) above the exact value, so
    // the accepted range [1000 + ln 2 ± 2.9e-6] reaches its lower neighbour.
    CHECK(reduce_accepted_range(lse, f32, thousand) ==
          std::pair<double, double>{1000.693115234375, 1000.6931762695312});
    CHECK(accepts(lse, f32, thousand, 1000.6931762695312));
    CHECK_FALSE(accepts(lse, f32, thousand, 1000.6932373046875));
    CHECK_FALSE(accepts(lse, f32, thousand, kInf));

    const ReduceElement f64 =
        reduce_one(DML_TENSOR_DATA_TYPE_FLOAT64, {1000, 1000}, DML_REDUCE_FUNCTION_LOG_SUM_EXP);
    CHECK(f64.value == 1000 + std::log(2.0L));
    CHECK(accepts(lse, DML_TENSOR_DATA_TYPE_FLOAT64, f64, static_cast<double>(1000 + std::log(2.0L))));
}

TEST_CASE("reference reduce: AVERAGE, L2 and LOG_SUM values and accepted ranges", "[reference]") {
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    // AVERAGE {1,2,3,4} = 2.5: the sum 10 is exact, the division may be off by 4·eps relative
    // (2.5 ± 10·2^-23 = 2.5 ± 5 spacings of 2^-22).
    const ReduceSpec avg = spec_of(DML_REDUCE_FUNCTION_AVERAGE, {0});
    const ReduceElement a = reduce_one(f32, {1, 2, 3, 4}, DML_REDUCE_FUNCTION_AVERAGE);
    CHECK(a.value == 2.5L);
    CHECK(a.inner == 10);
    CHECK(a.inner_exact);
    CHECK_FALSE(a.exact);
    CHECK(reduce_accepted_range(avg, f32, a) ==
          std::pair<double, double>{2.5 - 5 * 0x1p-22, 2.5 + 5 * 0x1p-22});
    CHECK(accepts(avg, f32, a, 2.5));
    CHECK_FALSE(accepts(avg, f32, a, 2.5 + 6 * 0x1p-22));
    // AVERAGE over two axes of a {2,3} tensor: N = 6.
    const std::vector<ReduceElement> a2 =
        reference_reduce(packed(DML_TENSOR_DATA_TYPE_FLOAT64, {2, 3}, {1, 2, 3, 4, 5, 6}),
                         spec_of(DML_REDUCE_FUNCTION_AVERAGE, {0, 1}));
    CHECK(a2[0].value == 3.5L);
    CHECK(a2[0].count == 6);

    // L2 {3,4} = 5: 5 ± 5·eps·5 = 5 ± 6.25 spacings of 2^-21, rounded to 6.
    const ReduceSpec l2 = spec_of(DML_REDUCE_FUNCTION_L2, {0});
    const ReduceElement n = reduce_one(f32, {3, -4}, DML_REDUCE_FUNCTION_L2);
    CHECK(n.value == 5);
    CHECK(n.inner == 25);
    CHECK(reduce_accepted_range(l2, f32, n) == std::pair<double, double>{5 - 6 * 0x1p-21, 5 + 6 * 0x1p-21});
    CHECK(reduce_one(DML_TENSOR_DATA_TYPE_FLOAT64, {3, -4}, DML_REDUCE_FUNCTION_SUM_SQUARE).value == 25);
    CHECK(reduce_one(DML_TENSOR_DATA_TYPE_FLOAT16, {-3, 4}, DML_REDUCE_FUNCTION_L1).value == 7);

    // LOG_SUM {1,1} = ln 2: ± 4·eps absolute = ± 8 spacings of 2^-24 around float32(ln 2).
    const ReduceSpec ls = spec_of(DML_REDUCE_FUNCTION_LOG_SUM, {0});
    const ReduceElement l = reduce_one(f32, {1, 1}, DML_REDUCE_FUNCTION_LOG_SUM);
    CHECK(l.value == std::log(2.0L));
    const double ln2 = static_cast<double>(static_cast<float>(std::log(2.0)));
    CHECK(reduce_accepted_range(ls, f32, l) ==
          std::pair<double, double>{ln2 - 8 * 0x1p-24, ln2 + 8 * 0x1p-24});
    CHECK(accepts(ls, f32, l, ln2));
    CHECK_FALSE(accepts(ls, f32, l, ln2 + 9 * 0x1p-24));
    CHECK(reduce_one(DML_TENSOR_DATA_TYPE_FLOAT64, {2, 2}, DML_REDUCE_FUNCTION_LOG_SUM).value ==
          std::log(4.0L));
}

TEST_CASE("reference reduce: strided, Fortran and broadcast inputs match a packed one", "[reference]") {
    const std::vector<uint32_t> sizes = {3, 4};
    const std::vector<double> rows = {1, -2, 3, 7, 1, -2, 3, 7, 1, -2, 3, 7};  // three equal rows
    const TestTensor p = packed(DML_TENSOR_DATA_TYPE_FLOAT32, sizes, rows);
    TestTensor f = make_fortran(DML_TENSOR_DATA_TYPE_FLOAT32, sizes, {1, 2});
    TestTensor b = make_broadcast(DML_TENSOR_DATA_TYPE_FLOAT32, sizes, 1u);  // stride 0 on dimension 0
    fill_logical(f, rows);
    fill_logical(b, rows);
    REQUIRE(b.strides[0] == 0);
    const std::vector<ReduceSpec> specs = {
        spec_of(DML_REDUCE_FUNCTION_SUM, {0}),
        spec_of(DML_REDUCE_FUNCTION_SUM, {1, 0}),
        spec_of(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1}),
        spec_of(DML_REDUCE_FUNCTION_MULTIPLY, {0}),
        spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0, 1}, DML_TENSOR_DATA_TYPE_INT32),
        standalone_arg_spec(DML_OPERATOR_ARGMAX, {0}, DML_AXIS_DIRECTION_DECREASING,
                            DML_TENSOR_DATA_TYPE_INT32),
    };
    for (const ReduceSpec& spec : specs) {
        INFO(to_string(spec));
        const std::vector<ReduceElement> want = reference_reduce(p, spec);
        for (const TestTensor* t : {&f, &b}) {
            const std::vector<ReduceElement> got = reference_reduce(*t, spec);
            CHECK(values_of(got) == values_of(want));
            CHECK(indices(got) == indices(want));
        }
    }
    CHECK(values_of(reference_reduce(b, specs[0])) == std::vector<long double>{3, -6, 9, 21});
    CHECK(values_of(reference_reduce(b, specs[1])) == std::vector<long double>{27});
    CHECK(values_of(reference_reduce(b, specs[3])) == std::vector<long double>{1, -8, 27, 343});
    CHECK(indices(reference_reduce(b, specs[4])) == std::vector<uint64_t>{3});
    CHECK(indices(reference_reduce(b, specs[5])) == std::vector<uint64_t>{2, 2, 2, 2});
}

TEST_CASE("reference reduce: the float comparison rule", "[reference]") {
    const ReduceSpec sum = spec_of(DML_REDUCE_FUNCTION_SUM, {0});
    // FLOAT32 {1, 2^-24, 2^-24}: exact sum 1 + 2^-23, but a sequential float32 loop gives 1, so the
    // element is not exact. tol = 4·2^-23·log2(4)·(1 + 2^-23) (+ a negligible flush term), just over
    // 2^-20 = 8·2^-23: the range is [1 - 7·2^-23, 1 + 9·2^-23].
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    const ReduceElement e = reduce_one(f32, {1, 0x1p-24, 0x1p-24}, DML_REDUCE_FUNCTION_SUM);
    CHECK(e.value == 1 + 0x1p-23L);
    CHECK(e.scale == 1 + 0x1p-23L);
    CHECK_FALSE(e.exact);
    CHECK_FALSE(e.ambiguous);
    const auto range = reduce_accepted_range(sum, f32, e);
    CHECK(range == std::pair<double, double>{1 - 7 * 0x1p-23, 1 + 9 * 0x1p-23});
    CHECK(accepts(sum, f32, e, 1));
    CHECK(accepts(sum, f32, e, 1 + 0x1p-23));
    CHECK(accepts(sum, f32, e, range.first));
    CHECK(accepts(sum, f32, e, range.second));
    CHECK_FALSE(accepts(sum, f32, e, f32_down(range.first)));
    CHECK_FALSE(accepts(sum, f32, e, f32_up(range.second)));
    CHECK_FALSE(accepts(sum, f32, e, kNaN));
    // The same in FLOAT64 at 2^-52.
    const auto f64 = DML_TENSOR_DATA_TYPE_FLOAT64;
    const ReduceElement d = reduce_one(f64, {1, 0x1p-53, 0x1p-53}, DML_REDUCE_FUNCTION_SUM);
    CHECK(reduce_accepted_range(sum, f64, d) == std::pair<double, double>{1 - 7 * 0x1p-52, 1 + 9 * 0x1p-52});
    // In FLOAT16 the float32 range rounds to 1 alone (2^-24 is the smallest half subnormal).
    const auto f16 = DML_TENSOR_DATA_TYPE_FLOAT16;
    const ReduceElement h = reduce_one(f16, {1, 0x1p-24, 0x1p-24}, DML_REDUCE_FUNCTION_SUM);
    CHECK(reduce_accepted_range(sum, f16, h) == std::pair<double, double>{1, 1});
    CHECK(accepts(sum, f16, h, 1));
    CHECK_FALSE(accepts(sum, f16, h, 1 + 0x1p-10));

    // Exact sums must equal the value rounded once. FLOAT16 {2048, 1, 1}: float32 gives 2050 in every
    // order (a half accumulator would give 2048).
    const ReduceElement x = reduce_one(f16, {2048, 1, 1}, DML_REDUCE_FUNCTION_SUM);
    CHECK(x.exact);
    CHECK(accepts(sum, f16, x, 2050));
    CHECK_FALSE(accepts(sum, f16, x, 2048));
    const ReduceElement six = reduce_one(f32, {1, 2, 3}, DML_REDUCE_FUNCTION_SUM);
    CHECK(six.exact);
    CHECK(accepts(sum, f32, six, 6));
    CHECK_FALSE(accepts(sum, f32, six, f32_up(6)));
    // A zero sum may have either sign.
    const ReduceElement zero = reduce_one(f32, {1, -1}, DML_REDUCE_FUNCTION_SUM);
    CHECK(accepts(sum, f32, zero, 0.0));
    CHECK(accepts(sum, f32, zero, -0.0));

    // MULTIPLY {3, float32(1/3)} = 1 + 2^-25: tol = 3·2^-23·(1 + 2^-25), range [1 - 3·2^-23, 1 + 3·2^-23].
    const ReduceSpec mul = spec_of(DML_REDUCE_FUNCTION_MULTIPLY, {0});
    const double third = static_cast<double>(1.0f / 3.0f);
    const ReduceElement p = reduce_one(f32, {3, third}, DML_REDUCE_FUNCTION_MULTIPLY);
    CHECK(p.value == 1 + 0x1p-25L);
    CHECK_FALSE(p.exact);
    CHECK(reduce_accepted_range(mul, f32, p) == std::pair<double, double>{1 - 3 * 0x1p-23, 1 + 3 * 0x1p-23});
    CHECK(accepts(mul, f32, p, 1));
    CHECK_FALSE(accepts(mul, f32, p, 1 + 4 * 0x1p-23));
    const ReduceElement q = reduce_one(f32, {3, 0.25, -2}, DML_REDUCE_FUNCTION_MULTIPLY);
    CHECK(q.exact);
    CHECK(accepts(mul, f32, q, -1.5));
    CHECK_FALSE(accepts(mul, f32, q, f32_down(-1.5)));
}

TEST_CASE("reference reduce: the float32 accumulator overflows; ambiguous orders are flagged",
          "[reference]") {
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    const double big = 3e38;  // float32 3.0000000054977558e38
    // Every order of {big, big} overflows: SUM and AVERAGE give +inf although the exact average is finite.
    const ReduceSpec avg = spec_of(DML_REDUCE_FUNCTION_AVERAGE, {0});
    const ReduceElement a = reduce_one(f32, {big, big}, DML_REDUCE_FUNCTION_AVERAGE);
    CHECK_FALSE(a.ambiguous);
    CHECK(reduce_accepted_range(avg, f32, a) == std::pair<double, double>{kInf, kInf});
    CHECK(accepts(avg, f32, a, kInf));
    CHECK_FALSE(accepts(avg, f32, a, static_cast<double>(static_cast<float>(big))));
    // L2 of 1e20 squares past float32's range; FLOAT64 keeps it.
    const ReduceSpec l2 = spec_of(DML_REDUCE_FUNCTION_L2, {0});
    CHECK(reduce_accepted_range(l2, f32, reduce_one(f32, {1e20}, DML_REDUCE_FUNCTION_L2)) ==
          std::pair<double, double>{kInf, kInf});
    const ReduceElement l64 = reduce_one(DML_TENSOR_DATA_TYPE_FLOAT64, {1e20}, DML_REDUCE_FUNCTION_L2);
    CHECK(l64.value == 1e20L);
    CHECK(accepts(l2, DML_TENSOR_DATA_TYPE_FLOAT64, l64, 1e20));
    // Orders that overflow or not, or meet inf - inf.
    CHECK(reduce_one(f32, {big, big, -big}, DML_REDUCE_FUNCTION_SUM).ambiguous);
    CHECK(reduce_one(f32, {kInf, -big, -big}, DML_REDUCE_FUNCTION_SUM).ambiguous);
    CHECK_FALSE(reduce_one(f32, {kInf, -big}, DML_REDUCE_FUNCTION_SUM).ambiguous);
    CHECK(reduce_one(f32, {1e30, 1e30, 1e-30}, DML_REDUCE_FUNCTION_MULTIPLY).ambiguous);
    CHECK(reduce_one(f32, {0, 1e30, 1e30}, DML_REDUCE_FUNCTION_MULTIPLY).ambiguous);
    CHECK_FALSE(reduce_one(f32, {1e30, 1e30, 2}, DML_REDUCE_FUNCTION_MULTIPLY).ambiguous);
    CHECK_FALSE(reduce_one(DML_TENSOR_DATA_TYPE_FLOAT64, {1e30, 1e30, 1e-30}, DML_REDUCE_FUNCTION_MULTIPLY)
                    .ambiguous);
    // LOG_SUM of a sum that may come out on either side of 0.
    CHECK(reduce_one(f32, {1, 0x1p-24, -1}, DML_REDUCE_FUNCTION_LOG_SUM).ambiguous);
    CHECK_FALSE(reduce_one(f32, {1, 0x1p-20, -1}, DML_REDUCE_FUNCTION_LOG_SUM).ambiguous);
}

TEST_CASE("reference reduce: specs, output types, store_reference and bad arguments", "[reference]") {
    const ReduceSpec a = standalone_arg_spec(DML_OPERATOR_ARGMIN, {1, 0}, DML_AXIS_DIRECTION_DECREASING,
                                             DML_TENSOR_DATA_TYPE_INT64);
    CHECK(a.function == DML_REDUCE_FUNCTION_ARGMIN);
    CHECK(a.tie == ArgTie::last);
    CHECK(to_string(a) == "ARGMIN axes {1, 0} tie last -> INT64");
    CHECK(to_string(spec_of(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {2})) == "LOG_SUM_EXP axes {2}");
    CHECK(reduce_output_type(spec_of(DML_REDUCE_FUNCTION_SUM, {0}), DML_TENSOR_DATA_TYPE_INT8) ==
          DML_TENSOR_DATA_TYPE_INT8);
    CHECK(reduce_output_type(a, DML_TENSOR_DATA_TYPE_FLOAT16) == DML_TENSOR_DATA_TYPE_INT64);

    const TestTensor t = packed(DML_TENSOR_DATA_TYPE_INT16, {2, 3}, {1, -2, 3, -4, 5, -6});
    TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_INT16, {2, 1});
    store_reference(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_SUM, {1})), out);
    CHECK(out.get_int(0) == 2);
    CHECK(out.get_int(1) == -5);
    TestTensor h = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 3});
    store_reference(reference_reduce(packed(DML_TENSOR_DATA_TYPE_FLOAT16, {2, 3}, {1, 2, 3, 4, 5, 6}),
                                     spec_of(DML_REDUCE_FUNCTION_AVERAGE, {0})),
                    h);
    CHECK(h.get_double(0) == 2.5);
    CHECK(h.get_double(2) == 4.5);

    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_SUM, {2})), std::invalid_argument);
    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_SUM, {1, 1})), std::invalid_argument);
    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_AVERAGE, {0})), std::invalid_argument);
    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0})), std::invalid_argument);
    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_ARGMAX, {0}, DML_TENSOR_DATA_TYPE_INT16)),
                    std::invalid_argument);
    CHECK_THROWS_AS(reference_reduce(t, spec_of(DML_REDUCE_FUNCTION_SUM, {0}, DML_TENSOR_DATA_TYPE_INT32)),
                    std::invalid_argument);
    CHECK_THROWS_AS(standalone_arg_spec(DML_OPERATOR_REDUCE, {0}, DML_AXIS_DIRECTION_INCREASING,
                                        DML_TENSOR_DATA_TYPE_INT32),
                    std::invalid_argument);
}

namespace {

// What a device could compute: sequential runs of `block` elements, then a pairwise tree, in Acc.
template <typename Acc>
Acc blocked_tree(const std::vector<Acc>& v, size_t block, bool multiply) {
    std::vector<Acc> partial;
    for (size_t i = 0; i < v.size(); i += block) {
        Acc s = v[i];
        for (size_t j = i + 1; j < std::min(i + block, v.size()); ++j) s = multiply ? s * v[j] : s + v[j];
        partial.push_back(s);
    }
    while (partial.size() > 1) {
        std::vector<Acc> next;
        for (size_t i = 0; i + 1 < partial.size(); i += 2)
            next.push_back(multiply ? partial[i] * partial[i + 1] : partial[i] + partial[i + 1]);
        if (partial.size() % 2) next.push_back(partial.back());
        partial = next;
    }
    return partial[0];
}

template <typename Acc>
double simulate(DML_REDUCE_FUNCTION f, const std::vector<double>& x, size_t block) {
    std::vector<Acc> terms;
    Acc m = -std::numeric_limits<Acc>::infinity();
    for (double v : x) m = std::max(m, static_cast<Acc>(v));
    for (double v : x) {
        const Acc a = static_cast<Acc>(v);
        switch (f) {
        case DML_REDUCE_FUNCTION_L1: terms.push_back(std::fabs(a)); break;
        case DML_REDUCE_FUNCTION_SUM_SQUARE:
        case DML_REDUCE_FUNCTION_L2: terms.push_back(a * a); break;
        case DML_REDUCE_FUNCTION_LOG_SUM_EXP: terms.push_back(std::exp(a - m)); break;
        default: terms.push_back(a); break;
        }
    }
    const Acc s = blocked_tree(terms, block, f == DML_REDUCE_FUNCTION_MULTIPLY);
    switch (f) {
    case DML_REDUCE_FUNCTION_AVERAGE: return static_cast<double>(s / static_cast<Acc>(x.size()));
    case DML_REDUCE_FUNCTION_L2: return static_cast<double>(std::sqrt(s));
    case DML_REDUCE_FUNCTION_LOG_SUM: return static_cast<double>(std::log(s));
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return static_cast<double>(m + std::log(s));
    default: return static_cast<double>(s);
    }
}

}  // namespace

TEST_CASE("reference reduce: tree and blocked float evaluations are accepted", "[reference]") {
    struct Case {
        DML_REDUCE_FUNCTION function;
        double lo, hi;  // input range
    };
    const std::vector<Case> cases = {
        {DML_REDUCE_FUNCTION_SUM, -1, 1},
        {DML_REDUCE_FUNCTION_AVERAGE, -1, 1},
        {DML_REDUCE_FUNCTION_L1, -1, 1},
        {DML_REDUCE_FUNCTION_SUM_SQUARE, -1, 1},
        {DML_REDUCE_FUNCTION_L2, -1, 1},
        {DML_REDUCE_FUNCTION_LOG_SUM, 0.25, 1},
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP, -10, 10},
        {DML_REDUCE_FUNCTION_MULTIPLY, 0.99, 1.01},
    };
    uint64_t seed = 1;
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        for (const Case& c : cases) {
            for (uint32_t n : {1u, 2u, 7u, 100u, 1000u, 4097u}) {
                TestTensor t = make_packed(type, {n});
                fill_random(t, seed++, c.lo, c.hi);
                std::vector<double> x;
                for (uint32_t i = 0; i < n; ++i) x.push_back(t.get_double(i));
                const ReduceSpec spec = spec_of(c.function, {0});
                const ReduceElement e = reference_reduce(t, spec)[0];
                REQUIRE_FALSE(e.ambiguous);
                for (size_t block : {size_t{1}, size_t{2}, size_t{32}}) {
                    const double acc = type == DML_TENSOR_DATA_TYPE_FLOAT64
                                           ? simulate<double>(c.function, x, block)
                                           : simulate<float>(c.function, x, block);
                    const double got =
                        type == DML_TENSOR_DATA_TYPE_FLOAT16 ? half_to_double(half_from_double(acc)) : acc;
                    INFO(type_name(type)
                         << " " << to_string(spec) << " N " << n << " block " << block << ": got " << got
                         << ", expected " << format_expected(spec, type, e));
                    CHECK(accepts(spec, type, e, got));
                }
            }
        }
    }
}
