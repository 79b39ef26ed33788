// DML_OPERATOR_REDUCE and the standalone DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX pinned with exact
// expected values on ordinary data (SPEC §3, §4, §6): the SPEC examples verbatim for every type and
// index type, ties, the order of Axes and the arg index over several reduced axes, every function on
// every type it takes, negative values, and AxisCount 0 (each function over one element). Every execution is
// also checked against the CPU oracle (floats within its accepted range, integers and indices exactly), with
// untouched output padding and input. NaN, infinities, integer wrap and float accumulation:
// test_reduce_special_values.cpp.
#include <catch2/catch.hpp>

#include "reduce_expect.hpp"
#include "reduce_sweep.hpp"
#include "tensor_data.hpp"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

using namespace vkdml_test;

// ---- SPEC §6 -------------------------------------------------------------------------------------

TEST_CASE("SPEC §6 REDUCE SUM examples for every data type", "[gpu][reduce][spec]") {
    const std::vector<double> input = {1, 2, 3, 3, 0, 4, 2, 4, 2};
    struct Example {
        std::vector<uint32_t> axes;
        std::vector<uint32_t> out_sizes;
        std::vector<double> expected;
    };
    const std::vector<Example> examples = {
        {{0}, {1, 3}, {6, 6, 9}}, {{1}, {3, 1}, {6, 7, 8}}, {{0, 1}, {1, 1}, {21}}, {{1, 0}, {1, 1}, {21}}};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (const Example& e : examples) {
            INFO(type_name(type) << " SUM axes " << to_string(e.axes));
            const ReduceCase c = reduce_case(DML_REDUCE_FUNCTION_SUM, type, {3, 3}, e.axes);
            CHECK(output_sizes(c) == e.out_sizes);
            const TestTensor out = run_values(c, input);
            if (skipped(out)) continue;
            CHECK(out.sizes == e.out_sizes);
            CHECK(values_of(out) == e.expected);
        }
    }
}

TEST_CASE("SPEC §6 ARGMAX/ARGMIN examples for every input and index type, REDUCE and standalone",
          "[gpu][argminmax][spec][each-type]") {
    const std::vector<double> input = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    struct Example {
        bool is_max;
        std::vector<uint32_t> axes;
        std::vector<uint64_t> expected;
        std::vector<uint64_t> decreasing;  // the standalone operator with DECREASING (ties go last)
    };
    // The one tie: the minimum of row 2, [2, 5, 2], is at 0 and at 2.
    const std::vector<Example> examples = {
        {true, {0}, {1, 2, 1}, {1, 2, 1}},  {true, {1}, {2, 2, 1}, {2, 2, 1}},
        {true, {0, 1}, {7}, {7}},           {true, {1, 0}, {7}, {7}},
        {false, {0}, {0, 1, 2}, {0, 1, 2}}, {false, {1}, {0, 1, 0}, {0, 1, 2}},
        {false, {0, 1}, {4}, {4}},          {false, {1, 0}, {4}, {4}},
    };
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            for (const ArgWay& way : kArgWays) {
                for (const Example& e : examples) {
                    INFO(type_name(type)
                         << " -> " << type_name(index_type) << " " << way.name << " "
                         << (e.is_max ? "ARGMAX" : "ARGMIN") << " axes " << to_string(e.axes));
                    const TestTensor out =
                        run_values(arg_way_case(way, e.is_max, type, {3, 3}, e.axes, index_type), input);
                    if (skipped(out)) continue;
                    CHECK(bits_of(out) == (way.direction == DEC ? e.decreasing : e.expected));
                }
            }
        }
    }
}

TEST_CASE("SPEC §6 arg ties: the first index, the last with DECREASING", "[gpu][argminmax][spec]") {
    const std::vector<double> max_tie = {3, 2, 1, 2, 3};
    const std::vector<double> min_tie = {1, 2, 3, 2, 1};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            for (const ArgWay& way : kArgWays) {
                INFO(type_name(type) << " -> " << type_name(index_type) << " " << way.name);
                const uint64_t want = way.direction == DEC ? 4 : 0;
                const TestTensor amax =
                    run_values(arg_way_case(way, true, type, {5}, {0}, index_type), max_tie);
                const TestTensor amin =
                    run_values(arg_way_case(way, false, type, {5}, {0}, index_type), min_tie);
                if (skipped(amax) || skipped(amin)) continue;
                CHECK(bits_of(amax) == std::vector<uint64_t>{want});
                CHECK(bits_of(amin) == std::vector<uint64_t>{want});
                // Ties over two axes: all four equal -> 0 or 3 (row-major over the reduced axes).
                const TestTensor all =
                    run_values(arg_way_case(way, true, type, {2, 2}, {1, 0}, index_type), {7, 7, 7, 7});
                if (!skipped(all))
                    CHECK(bits_of(all) == std::vector<uint64_t>{way.direction == DEC ? 3u : 0u});
            }
        }
    }
}

TEST_CASE("reduce: the arg index is row-major over the reduced axes in ascending order, whatever Axes' order",
          "[gpu][argminmax]") {
    // {2,3,4} over axes {2,0}: index = i0·4 + i2. Row j's maximum is at (1, j, 2 - j % 2) -> 6, 5, 6.
    for (const std::vector<uint32_t>& axes : {std::vector<uint32_t>{2, 0}, std::vector<uint32_t>{0, 2}}) {
        for (const ArgWay& way : kArgWays) {
            INFO(way.name << " axes " << to_string(axes));
            std::vector<double> values(24, 0);
            for (uint32_t j = 0; j < 3; ++j) values[12 + j * 4 + (2 - j % 2)] = 100 + j;
            const TestTensor out = run_values(arg_way_case(way, true, DML_TENSOR_DATA_TYPE_INT16, {2, 3, 4},
                                                           axes, DML_TENSOR_DATA_TYPE_UINT64),
                                              values);
            if (skipped(out)) continue;
            CHECK(out.sizes == std::vector<uint32_t>{1, 3, 1});
            CHECK(bits_of(out) == std::vector<uint64_t>{6, 5, 6});
        }
    }
    // Rank 4, three reduced axes in every order: SUM and ARGMIN agree with axes {0, 1, 3}.
    const std::vector<std::vector<uint32_t>> orders = {{0, 1, 3}, {3, 1, 0}, {1, 3, 0}, {3, 0, 1}};
    std::vector<double> values(2 * 3 * 2 * 5);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>((i * 7) % 11);
    for (const std::vector<uint32_t>& axes : orders) {
        INFO("axes " << to_string(axes));
        const TestTensor sum =
            run_values(reduce_case(DML_REDUCE_FUNCTION_SUM, F32, {2, 3, 2, 5}, axes), values);
        const TestTensor arg = run_values(
            arg_case(DML_OPERATOR_ARGMIN, DEC, F32, {2, 3, 2, 5}, axes, DML_TENSOR_DATA_TYPE_INT32), values);
        if (skipped(sum) || skipped(arg)) continue;
        CHECK(sum.sizes == std::vector<uint32_t>{1, 1, 2, 1});
        // Σ of (i·7) mod 11 over the flat positions i = 30·i0 + 10·i1 + 5·i2 + i3 with i2 = 0 and with i2
        // = 1.
        CHECK(values_of(sum) == std::vector<double>{137, 164});
        // The zeros sit at i = 0, 11, 22, 33, 44 (i2 = 0) and 55 (i2 = 1). The last for i2 = 0 is
        // 44 = (1, 1, 0, 4): reduced index (i0·3 + i1)·5 + i3 = 24; for i2 = 1, 55 = (1, 2, 1, 0) -> 25.
        CHECK(bits_of(arg) == std::vector<uint64_t>{24, 25});
    }
}

// ---- every function -------------------------------------------------------------------------------

TEST_CASE("reduce: every function on every type it takes, with exact expected values", "[gpu][reduce]") {
    // x = [[2, 4, 4], [1, 0, 3]]: non-negative, so every type holds it the same way.
    const std::vector<double> x = {2, 4, 4, 1, 0, 3};
    const double e = std::exp(1.0);
    struct Expect {
        DML_REDUCE_FUNCTION f;
        std::vector<double> axis1, axis0, both;  // over {1} (2 values), {0} (3 values), {0, 1}
    };
    const std::vector<Expect> table = {
        {DML_REDUCE_FUNCTION_SUM, {10, 4}, {3, 4, 7}, {14}},
        {DML_REDUCE_FUNCTION_MULTIPLY, {32, 0}, {2, 0, 12}, {0}},
        {DML_REDUCE_FUNCTION_MIN, {2, 0}, {1, 0, 3}, {0}},
        {DML_REDUCE_FUNCTION_MAX, {4, 3}, {2, 4, 4}, {4}},
        {DML_REDUCE_FUNCTION_L1, {10, 4}, {3, 4, 7}, {14}},
        {DML_REDUCE_FUNCTION_SUM_SQUARE, {36, 10}, {5, 16, 25}, {46}},
        {DML_REDUCE_FUNCTION_AVERAGE, {10.0 / 3, 4.0 / 3}, {1.5, 2, 3.5}, {14.0 / 6}},
        {DML_REDUCE_FUNCTION_L2, {6, std::sqrt(10.0)}, {std::sqrt(5.0), 4, 5}, {std::sqrt(46.0)}},
        {DML_REDUCE_FUNCTION_LOG_SUM,
         {std::log(10.0), std::log(4.0)},
         {std::log(3.0), std::log(4.0), std::log(7.0)},
         {std::log(14.0)}},
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP,
         {std::log(e * e + 2 * std::exp(4.0)), std::log(e + 1 + std::exp(3.0))},
         {std::log(e * e + e), std::log(std::exp(4.0) + 1), std::log(std::exp(4.0) + std::exp(3.0))},
         {std::log(e * e + 2 * std::exp(4.0) + e + 1 + std::exp(3.0))}},
        {DML_REDUCE_FUNCTION_ARGMAX, {1, 2}, {0, 0, 0}, {1}},
        {DML_REDUCE_FUNCTION_ARGMIN, {0, 1}, {1, 1, 1}, {4}},
    };
    for (const Expect& t : table) {
        for (DML_TENSOR_DATA_TYPE type : types_of(t.f)) {
            const std::vector<std::pair<std::vector<uint32_t>, const std::vector<double>*>> runs = {
                {{1}, &t.axis1}, {{0}, &t.axis0}, {{0, 1}, &t.both}};
            for (const auto& [axes, want] : runs) {
                INFO(type_name(type) << " " << to_string(t.f) << " axes " << to_string(axes));
                const TestTensor out =
                    run_values(reduce_case(t.f, type, {2, 3}, axes, DML_TENSOR_DATA_TYPE_INT64), x);
                if (skipped(out)) continue;
                const std::vector<double> got = values_of(out);
                INFO("got " << show(got) << ", expected " << show(*want));
                REQUIRE(got.size() == want->size());
                for (size_t i = 0; i < got.size(); ++i) CHECK(close_to(out.type, got[i], (*want)[i]));
                if (!is_float_only_function(t.f)) CHECK(got == stored_values(out.type, *want));  // exact
            }
        }
    }
}

TEST_CASE("reduce: every function on negative values (signed and float types)", "[gpu][reduce]") {
    // x = [[-2, 4, -4], [1, 0, -3]] over axis 1.
    const std::vector<double> x = {-2, 4, -4, 1, 0, -3};
    struct Expect {
        DML_REDUCE_FUNCTION f;
        std::vector<double> want;
    };
    const std::vector<Expect> table = {
        {DML_REDUCE_FUNCTION_SUM, {-2, -2}},
        {DML_REDUCE_FUNCTION_MULTIPLY, {32, -0.0}},
        {DML_REDUCE_FUNCTION_MIN, {-4, -3}},
        {DML_REDUCE_FUNCTION_MAX, {4, 1}},
        {DML_REDUCE_FUNCTION_L1, {10, 4}},
        {DML_REDUCE_FUNCTION_SUM_SQUARE, {36, 10}},
        {DML_REDUCE_FUNCTION_AVERAGE, {-2.0 / 3, -2.0 / 3}},
        {DML_REDUCE_FUNCTION_L2, {6, std::sqrt(10.0)}},
        {DML_REDUCE_FUNCTION_LOG_SUM, {kNaN, kNaN}},  // ln of a negative sum
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP,
         {std::log(std::exp(-2.0) + std::exp(4.0) + std::exp(-4.0)),
          std::log(std::exp(1.0) + 1 + std::exp(-3.0))}},
        {DML_REDUCE_FUNCTION_ARGMAX, {1, 0}},
        {DML_REDUCE_FUNCTION_ARGMIN, {2, 2}},
    };
    std::vector<DML_TENSOR_DATA_TYPE> types = kFloatTypes;
    for (DML_TENSOR_DATA_TYPE t : {DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_INT16,
                                   DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64})
        types.push_back(t);
    for (const Expect& t : table) {
        for (DML_TENSOR_DATA_TYPE type : types) {
            if (is_float_only_function(t.f) && !is_float_type(type)) continue;
            INFO(type_name(type) << " " << to_string(t.f));
            const TestTensor out =
                run_values(reduce_case(t.f, type, {2, 3}, {1}, DML_TENSOR_DATA_TYPE_INT32), x);
            if (skipped(out)) continue;
            const std::vector<double> got = values_of(out);
            INFO("got " << show(got) << ", expected " << show(t.want));
            for (size_t i = 0; i < got.size(); ++i) CHECK(close_to(out.type, got[i], t.want[i]));
        }
    }
    // LOG_SUM of a zero sum is −inf exactly.
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        INFO(type_name(type));
        const TestTensor out =
            run_values(reduce_case(DML_REDUCE_FUNCTION_LOG_SUM, type, {3}, {0}), {1, -1, 0});
        if (!skipped(out)) CHECK(values_of(out) == std::vector<double>{-kInf});
    }
}

// ---- AxisCount 0 --------------------------------------------------------------------------------

namespace {

// Function f over the one element x of a float type (SPEC §3 "AxisCount 0"), before rounding to the
// type: SUM, MULTIPLY, MIN, MAX, AVERAGE, LOG_SUM_EXP give x (LOG_SUM_EXP of -0: ln e^0 = +0), L1 and
// L2 |x|, SUM_SQUARE x², LOG_SUM ln x (ln ±0 = -inf, ln of a negative NaN).
double one_float(DML_REDUCE_FUNCTION f, double x) {
    switch (f) {
    case DML_REDUCE_FUNCTION_L1:
    case DML_REDUCE_FUNCTION_L2: return std::fabs(x);
    case DML_REDUCE_FUNCTION_SUM_SQUARE: return x * x;
    case DML_REDUCE_FUNCTION_LOG_SUM: return x == 0 ? -kInf : (x < 0 ? kNaN : std::log(x));
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return x == 0 ? 0.0 : x;
    default: return x;
    }
}

// The spacing of the type's numbers at 1 (FLOAT16 2^-10, FLOAT32 2^-23, FLOAT64 2^-52).
double ulp_of(DML_TENSOR_DATA_TYPE type) {
    return type == F16 ? 0x1p-10 : type == F32 ? 0x1p-23 : 0x1p-52;
}

// Function f over the one element of bits `x` of an integer type, modulo 2^bits.
uint64_t one_integer(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type, uint64_t x) {
    const uint64_t mask = type_mask(type);
    const bool negative = vkdml::is_signed_integer_type(type) && ((x >> (type_bits(type) - 1)) & 1u);
    switch (f) {
    case DML_REDUCE_FUNCTION_L1: return (negative ? uint64_t{0} - (x | ~mask) : x) & mask;
    case DML_REDUCE_FUNCTION_SUM_SQUARE: return (x * x) & mask;  // (x mod 2^64)² has x²'s low bits
    default: return x;
    }
}

}  // namespace

TEST_CASE("reduce: AxisCount 0 applies each function to its one element (DirectML 1.15.4); arg gives 0",
          "[gpu][reduce][argminmax][nan][each-type]") {
    // Floats: negative, ±0, NaN, ±inf, 0.5, 2.5 and FLOAT16's largest value, whose square overflows
    // FLOAT16 (SUM_SQUARE: +inf) but not the FLOAT32 accumulator (L2: 65504 again).
    const std::vector<double> floats = {-3, 1, 0, -0.0, kNaN, kInf, -kInf, 0.5, 2.5, 65504};
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
            if (is_arg_function(f)) continue;
            INFO(type_name(type) << " " << to_string(f) << " AxisCount 0");
            const TestTensor out = run_values(reduce_case(f, type, {2, 5}, {}), floats);
            if (skipped(out)) continue;
            REQUIRE(out.sizes == std::vector<uint32_t>{2, 5});
            for (size_t i = 0; i < floats.size(); ++i) {
                const double want = stored_values(type, {one_float(f, floats[i])})[0];
                const double got = out.get_double(i);
                INFO("x = " << floats[i] << ": got " << got << ", want " << want);
                if (std::isnan(want)) {
                    CHECK(std::isnan(got));
                } else if (std::isfinite(want) &&
                           (f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_L2)) {
                    // Vulkan's log and sqrt need not round exactly (log: 2^-21 absolute near 1).
                    CHECK(std::fabs(got - want) <= 4 * ulp_of(type) * std::max(1.0, std::fabs(want)));
                } else {
                    CHECK(got == want);
                    CHECK(std::signbit(got) == std::signbit(want));
                }
            }
        }
    }
    // DirectML's answers for float32 [-3, 1]: L2 and L1 [3, 1], SUM_SQUARE [9, 1], LOG_SUM [NaN, 0].
    const auto l2 = values_of(run_values(reduce_case(DML_REDUCE_FUNCTION_L2, F32, {2}, {}), {-3, 1}));
    CHECK(close_to(F32, l2[0], 3, 4));
    CHECK(close_to(F32, l2[1], 1, 4));
    const auto square = run_values(reduce_case(DML_REDUCE_FUNCTION_SUM_SQUARE, F32, {2}, {}), {-3, 1});
    CHECK(values_of(square) == std::vector<double>{9, 1});
    const auto log_sum =
        values_of(run_values(reduce_case(DML_REDUCE_FUNCTION_LOG_SUM, F32, {2}, {}), {-3, 1}));
    CHECK(std::isnan(log_sum[0]));
    CHECK(std::fabs(log_sum[1]) <= 4 * ulp_of(F32));
    // L2 squares in the accumulator (SPEC §3 "No axes"): float32 1e20 overflows to +inf, 1e-30 to 0.
    const auto l2_range = run_values(reduce_case(DML_REDUCE_FUNCTION_L2, F32, {2}, {}), {1e20, 1e-30});
    CHECK(values_of(l2_range) == std::vector<double>{kInf, 0});

    // Integers: negative, 0, the extremes (INT_MIN's |x| and x² wrap), and values whose square wraps.
    struct IntegerTable {
        DML_TENSOR_DATA_TYPE type;
        std::vector<uint64_t> bits;
    };
    const IntegerTable tables[] = {
        {DML_TENSOR_DATA_TYPE_INT8, {wrap(DML_TENSOR_DATA_TYPE_INT8, -3), 1, 0, 0x80, 0x7F, 16}},
        {DML_TENSOR_DATA_TYPE_INT16, {wrap(DML_TENSOR_DATA_TYPE_INT16, -3), 1, 0, 0x8000, 0x7FFF, 256}},
        {DML_TENSOR_DATA_TYPE_INT32,
         {wrap(DML_TENSOR_DATA_TYPE_INT32, -3), 1, 0, 0x80000000u, 0x7FFFFFFFu, 46341}},
        {DML_TENSOR_DATA_TYPE_INT64,
         {wrap(DML_TENSOR_DATA_TYPE_INT64, -3), 1, 0, 0x8000000000000000u, 0x7FFFFFFFFFFFFFFFu, 3037000500u}},
        {DML_TENSOR_DATA_TYPE_UINT8, {3, 1, 0, 0x80, 0xFF, 16}},
        {DML_TENSOR_DATA_TYPE_UINT16, {3, 1, 0, 0x8000, 0xFFFF, 256}},
        {DML_TENSOR_DATA_TYPE_UINT32, {3, 1, 0, 0x80000000u, 0xFFFFFFFFu, 65536}},
        {DML_TENSOR_DATA_TYPE_UINT64, {3, 1, 0, 0x8000000000000000u, ~uint64_t{0}, 0x100000000u}},
    };
    for (const IntegerTable& t : tables) {
        for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
            if (is_arg_function(f) || is_float_only_function(f)) continue;
            INFO(type_name(t.type) << " " << to_string(f) << " AxisCount 0");
            const TestTensor out = run_bits(reduce_case(f, t.type, {6}, {}), t.bits);
            if (skipped(out)) continue;
            std::vector<uint64_t> want;
            for (uint64_t x : t.bits) want.push_back(one_integer(f, t.type, x));
            CHECK(show(bits_of(out)) == show(want));
        }
    }

    // Arg functions: index 0 everywhere, for every type, index type and way of asking.
    const std::vector<double> x = {-1, 2, -3, 4, -5, 6};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            for (const ArgWay& way : kArgWays) {
                for (bool is_max : {true, false}) {
                    INFO(type_name(type) << " -> " << type_name(index_type) << " " << way.name
                                         << (is_max ? " ARGMAX" : " ARGMIN") << " AxisCount 0");
                    const TestTensor out =
                        run_values(arg_way_case(way, is_max, type, {3, 2}, {}, index_type), x);
                    if (!skipped(out)) CHECK(bits_of(out) == std::vector<uint64_t>(6, 0));
                }
            }
        }
    }
}
