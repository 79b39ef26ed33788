// DML_OPERATOR_REDUCE and the standalone DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX pinned with exact
// expected values (SPEC §3, §4, §6): the SPEC examples verbatim for every type and index type, ties,
// the order of Axes, every function on every type it takes, AxisCount 0, NaN (also in different
// chunks of rows longer than 65,535), infinities, integer wrap for SUM/MULTIPLY/L1/SUM_SQUARE, signed
// against unsigned comparisons, LOG_SUM_EXP's running maximum, FLOAT16 accumulated in FLOAT32, and
// the deep copy of Axes. Every execution is also checked against the CPU oracle (floats within its
// accepted range, integers and indices exactly), with untouched output padding and input.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reduce_sweep.hpp"
#include "tensor_data.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr auto F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr auto F64 = DML_TENSOR_DATA_TYPE_FLOAT64;
constexpr auto INC = DML_AXIS_DIRECTION_INCREASING;
constexpr auto DEC = DML_AXIS_DIRECTION_DECREASING;

const std::vector<DML_TENSOR_DATA_TYPE> kFloatTypes = {F16, F32, F64};

ReduceCase reduce_case(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                       std::vector<uint32_t> axes,
                       DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_UINT32) {
    ReduceCase c;
    c.op = DML_OPERATOR_REDUCE;
    c.function = f;
    c.type = type;
    c.index_type = index_type;
    c.sizes = std::move(sizes);
    c.axes = std::move(axes);
    c.in_strides = packed_strides(c.sizes);
    c.out_strides = packed_strides(output_sizes(c));
    return c;
}

ReduceCase arg_case(DML_OPERATOR_TYPE op, DML_AXIS_DIRECTION direction, DML_TENSOR_DATA_TYPE type,
                    std::vector<uint32_t> sizes, std::vector<uint32_t> axes,
                    DML_TENSOR_DATA_TYPE index_type) {
    ReduceCase c =
        reduce_case(DML_REDUCE_FUNCTION_ARGMAX, type, std::move(sizes), std::move(axes), index_type);
    c.op = op;
    c.direction = direction;
    return c;
}

// Runs `c` on a packed input holding `values` (row-major; each stored as the type stores it) and
// returns the output (empty when the device refused an unsupported type, which check_reduce_case
// verified). The output is also checked against the oracle.
TestTensor run_values(const ReduceCase& c, const std::vector<double>& values) {
    TestTensor input = make_packed(c.type, c.sizes);
    REQUIRE(values.size() == input.count());
    for (uint64_t i = 0; i < values.size(); ++i) input.set_double(i, values[i]);
    SweepStats stats;
    return check_reduce_case(c, input, stats);
}

// The same with the input given as bit patterns.
TestTensor run_bits(const ReduceCase& c, const std::vector<uint64_t>& bits) {
    TestTensor input = make_packed(c.type, c.sizes);
    REQUIRE(bits.size() == input.count());
    for (uint64_t i = 0; i < bits.size(); ++i) input.set_bits(i, bits[i]);
    SweepStats stats;
    return check_reduce_case(c, input, stats);
}

bool skipped(const TestTensor& out) {
    return out.bytes.empty();
}

// The elements of a packed output, as values and as bit patterns.
std::vector<double> values_of(const TestTensor& out) {
    std::vector<double> v;
    for (uint64_t i = 0; i < out.count(); ++i) v.push_back(out.get_double(i));
    return v;
}
std::vector<uint64_t> bits_of(const TestTensor& out) {
    std::vector<uint64_t> v;
    for (uint64_t i = 0; i < out.count(); ++i) v.push_back(out.get_bits(i));
    return v;
}

// Values equal, NaN matching NaN.
bool same_values(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]) ? !std::isnan(got[i]) : got[i] != want[i]) return false;
    }
    return true;
}

// |got − want| within `ulps` units of the output type's precision, relative to |want|.
bool close_to(DML_TENSOR_DATA_TYPE type, double got, double want, double ulps = 8) {
    if (std::isnan(want) || std::isinf(want)) return std::isnan(want) ? std::isnan(got) : got == want;
    const double eps = type == F16 ? 0x1p-10 : type == F32 ? 0x1p-23 : 0x1p-52;
    return std::fabs(got - want) <= ulps * eps * std::max(1.0, std::fabs(want));
}

std::string show(const std::vector<double>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}
std::string show(const std::vector<uint64_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}

// The three ways to ask for an arg function: REDUCE, and the standalone operator in each direction.
struct ArgWay {
    const char* name;
    DML_OPERATOR_TYPE op;  // REDUCE or the standalone one
    DML_AXIS_DIRECTION direction;
};

ReduceCase arg_way_case(const ArgWay& w, bool is_max, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                        std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE index_type) {
    if (w.op == DML_OPERATOR_REDUCE)
        return reduce_case(is_max ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN, type,
                           std::move(sizes), std::move(axes), index_type);
    return arg_case(is_max ? DML_OPERATOR_ARGMAX : DML_OPERATOR_ARGMIN, w.direction, type, std::move(sizes),
                    std::move(axes), index_type);
}

const std::vector<ArgWay> kArgWays = {{"REDUCE", DML_OPERATOR_REDUCE, INC},
                                      {"standalone INCREASING", DML_OPERATOR_ARGMAX, INC},
                                      {"standalone DECREASING", DML_OPERATOR_ARGMAX, DEC}};

// Bit patterns of a signed value in a type (two's complement, low bits).
uint64_t wrap(DML_TENSOR_DATA_TYPE type, int64_t v) {
    return static_cast<uint64_t>(v) & type_mask(type);
}

}  // namespace

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
          "[gpu][argminmax][spec]") {
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

TEST_CASE("reduce: AxisCount 0 reduces nothing (output = input; arg functions all zeros)",
          "[gpu][reduce][argminmax]") {
    const std::vector<double> x = {-1, 2, -3, 4, -5, 6};
    for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
        for (DML_TENSOR_DATA_TYPE type : types_of(f)) {
            INFO(type_name(type) << " " << to_string(f) << " AxisCount 0");
            const TestTensor out =
                run_values(reduce_case(f, type, {2, 3}, {}, DML_TENSOR_DATA_TYPE_INT64), x);
            if (skipped(out)) continue;
            CHECK(out.sizes == std::vector<uint32_t>{2, 3});
            if (is_arg_function(f)) {
                CHECK(bits_of(out) == std::vector<uint64_t>(6, 0));
            } else {
                // L1 keeps the sign, SUM_SQUARE does not square, LOG_SUM does not take the log, ...
                CHECK(values_of(out) == stored_values(type, x));
            }
        }
    }
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            for (const ArgWay& way : kArgWays) {
                if (way.op == DML_OPERATOR_REDUCE) continue;
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
    // Float specials pass through bit for bit (−0 stays −0, NaN stays NaN, −inf stays −inf).
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
            if (is_arg_function(f)) continue;
            INFO(type_name(type) << " " << to_string(f) << " AxisCount 0, specials");
            const std::vector<double> specials = {kNaN, kInf, -kInf, -0.0, 0.5, -3};
            const TestTensor out = run_values(reduce_case(f, type, {6}, {}), specials);
            if (skipped(out)) continue;
            const std::vector<double> got = values_of(out);
            CHECK(same_values(got, specials));
            CHECK(std::signbit(got[3]));
        }
    }
}

// ---- NaN and infinities -------------------------------------------------------------------------

TEST_CASE("reduce: NaN makes MIN/MAX NaN; arg functions pick the first NaN, the last with DECREASING",
          "[gpu][reduce][argminmax]") {
    const std::vector<double> x = {1, kNaN, 5, kNaN, -2};
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        INFO(type_name(type));
        for (DML_REDUCE_FUNCTION f :
             {DML_REDUCE_FUNCTION_MIN, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_SUM,
              DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MULTIPLY}) {
            INFO(to_string(f));
            const TestTensor out = run_values(reduce_case(f, type, {5}, {0}), x);
            if (!skipped(out)) CHECK(std::isnan(out.get_double(0)));
        }
        for (const ArgWay& way : kArgWays) {
            for (bool is_max : {true, false}) {
                INFO(way.name << (is_max ? " ARGMAX" : " ARGMIN"));
                const TestTensor out =
                    run_values(arg_way_case(way, is_max, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT64), x);
                if (!skipped(out))
                    CHECK(bits_of(out) == std::vector<uint64_t>{way.direction == DEC ? 3u : 1u});
            }
        }
    }
}

TEST_CASE("reduce: NaN in different chunks of rows longer than 65535", "[gpu][reduce][argminmax][long]") {
    // Four rows of 70,001 with NaN at {3}, {40000}, {69999, 70000}, {1000, 65536, 69000}; the other
    // elements in [-1, 1] with a clear maximum 5 and minimum -5 placed away from the NaN.
    constexpr uint32_t kRow = 70001;
    const std::vector<std::vector<uint32_t>> nans = {{3}, {40000}, {69999, 70000}, {1000, 65536, 69000}};
    const std::vector<uint64_t> first = {3, 40000, 69999, 1000}, last = {3, 40000, 70000, 69000};
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        TestTensor input = make_packed(type, {4, kRow});
        fill_random(input, 0x7a7a, -1, 1);
        for (uint32_t r = 0; r < 4; ++r) {
            input.set_double_at({r, 12345}, 5);
            input.set_double_at({r, 54321}, -5);
            for (uint32_t p : nans[r]) input.set_double_at({r, p}, kNaN);
        }
        for (DML_REDUCE_FUNCTION f : {DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_MIN}) {
            INFO(type_name(type) << " " << to_string(f));
            SweepStats stats;
            const TestTensor out = check_reduce_case(reduce_case(f, type, {4, kRow}, {1}), input, stats);
            if (skipped(out)) continue;
            for (uint64_t r = 0; r < 4; ++r) CHECK(std::isnan(out.get_double(r)));
        }
        for (const ArgWay& way : kArgWays) {
            for (bool is_max : {true, false}) {
                INFO(type_name(type) << " " << way.name << (is_max ? " ARGMAX" : " ARGMIN"));
                SweepStats stats;
                const TestTensor out = check_reduce_case(
                    arg_way_case(way, is_max, type, {4, kRow}, {1}, DML_TENSOR_DATA_TYPE_UINT32), input,
                    stats);
                if (!skipped(out)) CHECK(bits_of(out) == (way.direction == DEC ? last : first));
            }
        }
    }
    // The outer axis: [70001, 2] over axis 0, column 0 with NaN at 66000, column 1 without (its
    // maximum 5 at 100 and 69000, minimum -5 at 7).
    TestTensor outer = make_packed(F32, {kRow, 2});
    fill_random(outer, 0x7b7b, -1, 1);
    outer.set_double_at({66000, 0}, kNaN);
    outer.set_double_at({100, 1}, 5);
    outer.set_double_at({69000, 1}, 5);
    outer.set_double_at({7, 1}, -5);
    for (const ArgWay& way : kArgWays) {
        INFO("outer axis, " << way.name);
        SweepStats stats;
        const TestTensor amax = check_reduce_case(
            arg_way_case(way, true, F32, {kRow, 2}, {0}, DML_TENSOR_DATA_TYPE_INT64), outer, stats);
        const TestTensor amin = check_reduce_case(
            arg_way_case(way, false, F32, {kRow, 2}, {0}, DML_TENSOR_DATA_TYPE_INT64), outer, stats);
        if (skipped(amax) || skipped(amin)) continue;
        CHECK(bits_of(amax) == std::vector<uint64_t>{66000, way.direction == DEC ? 69000u : 100u});
        CHECK(bits_of(amin) == std::vector<uint64_t>{66000, 7});
    }
    SweepStats stats;
    const TestTensor mx =
        check_reduce_case(reduce_case(DML_REDUCE_FUNCTION_MAX, F32, {kRow, 2}, {0}), outer, stats);
    if (!skipped(mx)) {
        CHECK(std::isnan(mx.get_double(0)));
        CHECK(mx.get_double(1) == 5);
    }
}

TEST_CASE("reduce: infinities", "[gpu][reduce][argminmax]") {
    const std::vector<double> x = {1, kInf, 5, -kInf, kInf};
    struct Expect {
        DML_REDUCE_FUNCTION f;
        double want;
    };
    const std::vector<Expect> table = {
        {DML_REDUCE_FUNCTION_MAX, kInf},         {DML_REDUCE_FUNCTION_MIN, -kInf},
        {DML_REDUCE_FUNCTION_SUM, kNaN},         {DML_REDUCE_FUNCTION_AVERAGE, kNaN},
        {DML_REDUCE_FUNCTION_L1, kInf},          {DML_REDUCE_FUNCTION_SUM_SQUARE, kInf},
        {DML_REDUCE_FUNCTION_L2, kInf},          {DML_REDUCE_FUNCTION_MULTIPLY, -kInf},
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP, kInf}, {DML_REDUCE_FUNCTION_LOG_SUM, kNaN},
    };
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        for (const Expect& t : table) {
            INFO(type_name(type) << " " << to_string(t.f) << " of {1, inf, 5, -inf, inf}");
            const TestTensor out = run_values(reduce_case(t.f, type, {5}, {0}), x);
            if (!skipped(out)) CHECK(same_values(values_of(out), {t.want}));
        }
        for (const ArgWay& way : kArgWays) {
            INFO(type_name(type) << " " << way.name);
            const TestTensor amax =
                run_values(arg_way_case(way, true, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            const TestTensor amin =
                run_values(arg_way_case(way, false, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            if (skipped(amax) || skipped(amin)) continue;
            CHECK(bits_of(amax) == std::vector<uint64_t>{way.direction == DEC ? 4u : 1u});
            CHECK(bits_of(amin) == std::vector<uint64_t>{3});
        }
        INFO(type_name(type));
        const auto one = [&](DML_REDUCE_FUNCTION f, const std::vector<double>& v) {
            const TestTensor out =
                run_values(reduce_case(f, type, {static_cast<uint32_t>(v.size())}, {0}), v);
            return skipped(out) ? std::vector<double>{} : values_of(out);
        };
        const auto check_one = [&](DML_REDUCE_FUNCTION f, const std::vector<double>& v, double want) {
            const std::vector<double> got = one(f, v);
            INFO(to_string(f) << " of " << show(v) << ": got " << show(got));
            if (!got.empty()) CHECK(same_values(got, {want}));
        };
        check_one(DML_REDUCE_FUNCTION_SUM, {kInf, 2, 3}, kInf);
        check_one(DML_REDUCE_FUNCTION_SUM, {-kInf, 2, 3}, -kInf);
        check_one(DML_REDUCE_FUNCTION_MAX, {-kInf, -kInf}, -kInf);
        check_one(DML_REDUCE_FUNCTION_MIN, {kInf, kInf}, kInf);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {-kInf, -kInf, -kInf}, -kInf);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {-kInf, 2}, 2);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM, {kInf, 2}, kInf);
        check_one(DML_REDUCE_FUNCTION_MULTIPLY, {0, kInf}, kNaN);
        check_one(DML_REDUCE_FUNCTION_L1, {-kInf, 1}, kInf);
    }
}

// ---- integers -----------------------------------------------------------------------------------

TEST_CASE("reduce: integer SUM, MULTIPLY, L1 and SUM_SQUARE wrap modulo 2^bits", "[gpu][reduce]") {
    using T = DML_TENSOR_DATA_TYPE;
    const auto run1 = [](DML_REDUCE_FUNCTION f, T type, const std::vector<uint64_t>& bits) {
        const TestTensor out =
            run_bits(reduce_case(f, type, {static_cast<uint32_t>(bits.size())}, {0}), bits);
        return skipped(out) ? std::vector<uint64_t>{} : bits_of(out);
    };
    const auto check1 = [&](DML_REDUCE_FUNCTION f, T type, const std::vector<uint64_t>& bits, uint64_t want) {
        const std::vector<uint64_t> got = run1(f, type, bits);
        INFO(type_name(type) << " " << to_string(f) << " of bit patterns " << show(bits) << ": got "
                             << show(got) << ", expected " << want);
        if (!got.empty()) CHECK(got == std::vector<uint64_t>{want});
    };
    // The 8-bit examples written out.
    const T I8 = DML_TENSOR_DATA_TYPE_INT8, U8 = DML_TENSOR_DATA_TYPE_UINT8;
    check1(DML_REDUCE_FUNCTION_SUM, I8, {100, 100}, wrap(I8, -56));
    check1(DML_REDUCE_FUNCTION_SUM, U8, {200, 100}, 44);
    check1(DML_REDUCE_FUNCTION_MULTIPLY, I8, {3, 5, 7, 11}, wrap(I8, -125));  // 1155 = 4·256 + 131
    check1(DML_REDUCE_FUNCTION_MULTIPLY, U8, {16, 16}, 0);
    check1(DML_REDUCE_FUNCTION_L1, I8, {wrap(I8, -128)}, wrap(I8, -128));  // |−128| = 128 wraps to −128
    check1(DML_REDUCE_FUNCTION_L1, I8, {wrap(I8, -100), wrap(I8, -100)}, wrap(I8, -56));
    check1(DML_REDUCE_FUNCTION_L1, U8, {255, 1}, 0);                   // unsigned: no absolute value to take
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, I8, {12}, wrap(I8, -112));  // 144
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, I8, {wrap(I8, -16)}, 0);    // 256
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, U8, {200}, 64);             // 40000 = 156·256 + 64
    // Every width: the same identities at 2^bits.
    for (T type : all_types()) {
        if (is_float_type(type)) continue;
        const uint32_t b = type_bits(type);
        const uint64_t mask = type_mask(type);
        const uint64_t top = uint64_t{1} << (b - 1);  // bit pattern of the most negative signed value
        const uint64_t half = uint64_t{1} << (b / 2);
        const bool is_signed = is_signed_int_type(type);
        INFO(type_name(type));
        check1(DML_REDUCE_FUNCTION_SUM, type, {mask, 1}, 0);          // −1 + 1, or max + 1
        check1(DML_REDUCE_FUNCTION_SUM, type, {top - 1, 1}, top);     // max signed + 1
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {half, half}, 0);  // 2^(b/2) squared
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {mask, mask}, 1);  // (−1)² or (2^b − 1)²
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {top + 1, 2}, 2);  // 2^b + 2
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, {half}, 0);
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, {mask, 3}, 10);  // 1 + 9 either way
        check1(DML_REDUCE_FUNCTION_L1, type, {top}, top);             // |min| wraps to min; unsigned: itself
        check1(DML_REDUCE_FUNCTION_L1, type, {mask, 5}, is_signed ? 6 : 4);  // |−1| + 5, or 2^b − 1 + 5
        // Long rows that wrap again and again: 70,001 copies of the largest signed value and of 3.
        std::vector<uint64_t> many(70001, top - 1);
        check1(DML_REDUCE_FUNCTION_SUM, type, many, ((top - 1) * 70001) & mask);
        check1(DML_REDUCE_FUNCTION_L1, type, many, ((top - 1) * 70001) & mask);
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, many, ((top - 1) * (top - 1) * 70001) & mask);
        std::vector<uint64_t> threes(70001, 3);
        uint64_t p = 1;
        for (int i = 0; i < 70001; ++i) p *= 3;
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, threes, p & mask);
        // Signed L1 of 70,001 copies of −1: 70001 mod 2^b.
        if (is_signed) check1(DML_REDUCE_FUNCTION_L1, type, std::vector<uint64_t>(70001, mask), 70001 & mask);
    }
}

TEST_CASE("reduce: MIN, MAX, L1, SUM and the arg functions compare signed or unsigned per type",
          "[gpu][reduce][argminmax]") {
    // The bit patterns {0x80.., 0x7F.., 0x01, 0xFF..} of every width: as signed {min, max, 1, −1}, as
    // unsigned {2^(b−1), 2^(b−1) − 1, 1, 2^b − 1}.
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (is_float_type(type)) continue;
        const uint64_t mask = type_mask(type);
        const uint64_t top = uint64_t{1} << (type_bits(type) - 1);
        const std::vector<uint64_t> x = {top, top - 1, 1, mask};
        const bool s = is_signed_int_type(type);
        INFO(type_name(type));
        const auto run1 = [&](DML_REDUCE_FUNCTION f) {
            const TestTensor out = run_bits(reduce_case(f, type, {4}, {0}, DML_TENSOR_DATA_TYPE_UINT64), x);
            return skipped(out) ? std::vector<uint64_t>{} : bits_of(out);
        };
        const auto check_f = [&](DML_REDUCE_FUNCTION f, uint64_t want) {
            const std::vector<uint64_t> got = run1(f);
            INFO(to_string(f) << ": got " << show(got) << ", expected " << want);
            if (!got.empty()) CHECK(got == std::vector<uint64_t>{want});
        };
        check_f(DML_REDUCE_FUNCTION_MIN, s ? top : 1);
        check_f(DML_REDUCE_FUNCTION_MAX, s ? top - 1 : mask);
        check_f(DML_REDUCE_FUNCTION_L1, s ? 1 : mask);  // 2^(b-1) + (2^(b-1) - 1) + 1 + 1, or ... + 2^b - 1
        check_f(DML_REDUCE_FUNCTION_SUM, mask);         // the same bits either way: 2^b - 1 ≡ -1
        check_f(DML_REDUCE_FUNCTION_ARGMAX, s ? 1 : 3);
        check_f(DML_REDUCE_FUNCTION_ARGMIN, s ? 0 : 2);
        for (const ArgWay& way : kArgWays) {
            if (way.op == DML_OPERATOR_REDUCE) continue;
            INFO(way.name);
            const TestTensor amax =
                run_bits(arg_way_case(way, true, type, {4}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            const TestTensor amin =
                run_bits(arg_way_case(way, false, type, {4}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            if (skipped(amax) || skipped(amin)) continue;
            CHECK(bits_of(amax) == std::vector<uint64_t>{s ? 1u : 3u});
            CHECK(bits_of(amin) == std::vector<uint64_t>{s ? 0u : 2u});
        }
    }
}

// ---- float accumulation -------------------------------------------------------------------------

TEST_CASE("reduce: LOG_SUM_EXP uses a running maximum (no overflow where the result is finite)",
          "[gpu][reduce]") {
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        INFO(type_name(type));
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported)
            continue;  // refusal: see the sweeps
        const auto lse = [&](const std::vector<double>& v) {
            const TestTensor out = run_values(
                reduce_case(DML_REDUCE_FUNCTION_LOG_SUM_EXP, type, {static_cast<uint32_t>(v.size())}, {0}),
                v);
            return skipped(out) ? kNaN : out.get_double(0);
        };
        CHECK(lse({100}) == 100);           // DirectML: +inf
        CHECK(lse({1000, -1000}) == 1000);  // e^-2000 vanishes
        CHECK(lse({-kInf, 100}) == 100);
        const double two = lse({1000, 1000});  // 1000 + ln 2 = 1000.6931...
        CHECK(close_to(type, two, 1000 + std::log(2.0), 2));
        CHECK(std::isfinite(two));
        const double three = lse({-1000, -1000, -1000});  // -1000 + ln 3
        CHECK(close_to(type, three, -1000 + std::log(3.0), 2));
        // 70,001 copies of 80 (Σe^80 = 3.9e39 is past float32's range): 80 + ln 70001 = 91.156...
        const double many = lse(std::vector<double>(70001, 80));
        CHECK(close_to(type, many, 80 + std::log(70001.0), 4));
        CHECK(lse({kInf, 3}) == kInf);
        CHECK(lse({-kInf, -kInf}) == -kInf);
    }
}

TEST_CASE("reduce: LOG_SUM of zero, negative, NaN and subnormal sums", "[gpu][reduce]") {
    // GLSL leaves log(x <= 0) undefined, and frexp/log of subnormals differ between drivers: the
    // kernels answer IEEE's way and scale subnormal sums into the normal range first. (Executed
    // directly: the oracle rightly calls a sum that may flush to 0 ambiguous.)
    for (DML_TENSOR_DATA_TYPE type : {F32, F64}) {
        INFO(type_name(type));
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported) continue;
        const auto log_sum = [&](std::vector<double> v) {
            const auto n = static_cast<uint32_t>(v.size());
            TestTensor input = make_packed(type, {n});
            for (uint32_t i = 0; i < n; ++i) input.set_double(i, v[i]);
            TestTensor output = make_packed(type, {1});
            const vkdml::Status st =
                execute_reduce(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_LOG_SUM, INC, {0}, input, output);
            require_no_validation_messages();
            REQUIRE(st.ok());
            return output.get_double(0);
        };
        CHECK(log_sum({0, 0}) == -kInf);
        CHECK(log_sum({-0.0}) == -kInf);
        CHECK(std::isnan(log_sum({1, -3})));
        CHECK(std::isnan(log_sum({1, kNaN})));
        CHECK(log_sum({kInf, 1}) == kInf);
        // Subnormal sums: ln(2^-140) in float32 (2^-140 + 2^-140 = 2^-139), ln(1e-310) and ln(2^-1074)
        // in float64; a device that flushes subnormals to zero may answer -inf instead.
        const auto subnormal_ok = [&](double got, double want) {
            return got == -kInf || close_to(type, got, want, 4);
        };
        if (type == F32) {
            CHECK(subnormal_ok(log_sum({0x1p-140, 0x1p-140}), -139 * std::log(2.0)));
        } else {
            CHECK(subnormal_ok(log_sum({1e-310}), std::log(1e-310)));
            CHECK(subnormal_ok(log_sum({0x1p-1074}), -1074 * std::log(2.0)));
            CHECK(close_to(type, log_sum({0x1p-1022}), -1022 * std::log(2.0), 4));  // smallest normal
        }
    }
}

TEST_CASE("reduce: FLOAT16 data accumulates in FLOAT32 and is rounded once", "[gpu][reduce]") {
    if (!test_device().supports(DML_OPERATOR_REDUCE, F16).supported) return;  // refusal: see the sweeps
    const auto run1 = [](DML_REDUCE_FUNCTION f, const std::vector<double>& v) {
        const TestTensor out = run_values(reduce_case(f, F16, {static_cast<uint32_t>(v.size())}, {0}), v);
        return skipped(out) ? kNaN : out.get_double(0);
    };
    // A FLOAT16 accumulator stops at 2048 (2048 + 1 rounds back to 2048); FLOAT32 counts on.
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(4096, 1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(3000, 1)) == 3000);
    CHECK(run1(DML_REDUCE_FUNCTION_L1, std::vector<double>(4096, -1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_SUM_SQUARE, std::vector<double>(4096, 1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_L2, std::vector<double>(4096, 1)) == 64);
    CHECK(run1(DML_REDUCE_FUNCTION_AVERAGE, std::vector<double>(4096, 1)) == 1);
    std::vector<double> big_then_ones(4096, 1);
    big_then_ones[0] = 2048;
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, big_then_ones) == 6144);  // 2048 + 4095, rounded once to 6144
    // 70,001 ones: 70001 overflows FLOAT16 (max 65504) only when rounded at the end; the average is 1.
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(70001, 1)) == kInf);
    CHECK(run1(DML_REDUCE_FUNCTION_AVERAGE, std::vector<double>(70001, 1)) == 1);
    CHECK(run1(DML_REDUCE_FUNCTION_MAX, std::vector<double>(70001, 1)) == 1);
    // A partial product below FLOAT16's range (2^-14 · 2^-14 = 2^-28) that a half accumulator would
    // flush to 0: 2^-28 · 2^28 = 1.
    CHECK(run1(DML_REDUCE_FUNCTION_MULTIPLY, {0x1p-14, 0x1p-14, 16384, 16384}) == 1);
}

// ---- descriptors --------------------------------------------------------------------------------

TEST_CASE("reduce: the caller's Axes array may be overwritten right after create_operator",
          "[gpu][reduce][argminmax]") {
    // [[1, 2, 3], [3, 0, 4], [2, 5, 2]] over axis 0 (sum {6, 7, 9}, argmax {1, 2, 1}); the caller's
    // array is then changed to {1}: the operator must still reduce axis 0.
    TestTensor input = make_packed(F32, {3, 3});
    const std::vector<double> x = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    for (uint64_t i = 0; i < 9; ++i) input.set_double(i, x[i]);
    const TensorDescView in_view(input);
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
        INFO(vkdml::to_string(op));
        const bool arg = op != DML_OPERATOR_REDUCE;
        TestTensor output = make_packed(arg ? DML_TENSOR_DATA_TYPE_INT32 : F32, {1, 3});
        const TensorDescView out_view(output);
        auto axes = std::make_unique<uint32_t[]>(1);
        axes[0] = 0;
        const DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_SUM, in_view.get(), out_view.get(), 1,
                                              axes.get()};
        const DML_ARGMAX_OPERATOR_DESC argmax{in_view.get(), out_view.get(), 1, axes.get(), INC};
        const DML_ARGMIN_OPERATOR_DESC argmin{in_view.get(), out_view.get(), 1, axes.get(), INC};
        const void* desc = op == DML_OPERATOR_REDUCE   ? static_cast<const void*>(&reduce)
                           : op == DML_OPERATOR_ARGMAX ? static_cast<const void*>(&argmax)
                                                       : static_cast<const void*>(&argmin);
        auto created = test_device().create_operator({op, desc});
        INFO((created ? std::string("created") : created.error().message));
        REQUIRE(created);
        axes[0] = 1;   // the caller reuses its array ...
        axes.reset();  // ... and frees it
        // The operator's own copy of the description still says axis 0.
        const DML_OPERATOR_DESC& copy = created->desc();
        const uint32_t* copied_axes =
            op == DML_OPERATOR_REDUCE   ? static_cast<const DML_REDUCE_OPERATOR_DESC*>(copy.Desc)->Axes
            : op == DML_OPERATOR_ARGMAX ? static_cast<const DML_ARGMAX_OPERATOR_DESC*>(copy.Desc)->Axes
                                        : static_cast<const DML_ARGMIN_OPERATOR_DESC*>(copy.Desc)->Axes;
        REQUIRE(copied_axes != nullptr);
        CHECK(copied_axes[0] == 0);
        // Executing the copied description reduces axis 0.
        const void* inputs[] = {input.bytes.data()};
        void* outputs[] = {output.bytes.data()};
        const vkdml::Status status = vkdml::execute(test_device(), copy, inputs, outputs);
        require_no_validation_messages();
        INFO((status.ok() ? std::string("ok") : status.error().message));
        REQUIRE(status.ok());
        if (op == DML_OPERATOR_REDUCE)
            CHECK(values_of(output) == std::vector<double>{6, 7, 9});
        else if (op == DML_OPERATOR_ARGMAX)
            CHECK(bits_of(output) == std::vector<uint64_t>{1, 2, 1});
        else
            CHECK(bits_of(output) == std::vector<uint64_t>{0, 1, 2});
    }
}
