// NaN and signed zeros in REDUCE's MIN, MAX, ARGMIN and ARGMAX and the standalone ARGMIN / ARGMAX
// operators (SPEC §3 "NaN", "Signed zeros"), in both NanModes, on every float type and kernel family:
// rows with NaN first, inside, last, only NaN, NaN among ±inf, ±0 only, and none; short rows and rows
// of 3,000 (several chunks and passes with the GPU policy rows), along the last axis and the first.
// The NaN-heavy random sweep is in test_reduce_sweep.cpp.
// Expected values come from a fold written here (not the sweeps' oracle); OperatorOptions' errors too.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reduce_expect.hpp"
#include "tensor_data.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace vkdml_test;
using vkdml::NanMode;

namespace {

constexpr uint32_t kPatternLength = 8;
constexpr uint32_t kPatterns = 8;

// One row per pattern (NaN first, inside, last, only NaN, among ±inf, with -inf alone, ±0 only, none).
const double kRows[kPatterns][kPatternLength] = {
    {kNaN, 2, -1, 3, 0, 1, -2, 3},
    {1, 2, -1, kNaN, 4, 0, -3, 1},
    {1, 5, -1, 2, 0, 5, -4, kNaN},
    {kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN},
    {kNaN, -kInf, kNaN, 2, kInf, kNaN, -kInf, 1},
    {kNaN, -kInf, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN},
    {-0.0, kNaN, 0.0, -0.0, kNaN, 0.0, -0.0, kNaN},
    {3, -1, 3, 2, -1, 0, 1, 2},
};

struct Selected {
    double value;
    uint64_t index;
};

// MIN/MAX (is_max) or ARGMIN/ARGMAX over `row`: the extreme value and its first index (last with
// tie_last). propagate: the first (last) NaN if there is one. ignore: NaN left out; none left gives
// ∓inf and index 0. Of -0 and +0 the value is +0 for MAX and -0 for MIN (IEEE 754-2019); as indices
// they tie (equal values).
Selected select(const std::vector<double>& row, bool is_max, bool tie_last, NanMode mode) {
    Selected s{is_max ? -kInf : kInf, 0};
    bool found = false, any_pos_zero = false, any_neg_zero = false;
    for (size_t i = 0; i < row.size(); ++i) {
        const double x = row[i];
        if (std::isnan(x)) {
            if (mode == NanMode::ignore) continue;
            if (!std::isnan(s.value) || tie_last) s = {x, i};
            found = true;
            continue;
        }
        if (std::isnan(s.value)) continue;
        if (x == 0) (std::signbit(x) ? any_neg_zero : any_pos_zero) = true;
        const bool beyond = is_max ? x > s.value : x < s.value;
        if (!found || beyond || (x == s.value && tie_last)) s = {x, i};
        found = true;
    }
    if (s.value == 0) s.value = (is_max ? !any_pos_zero : any_neg_zero) ? -0.0 : 0.0;
    return s;
}

std::shared_ptr<vkdml::Device> device_with(vkdml::KernelChoice kernels) {
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    overrides.kernels = kernels;
    overrides.policy_class =
        vkdml::testing::DeviceOverrides::PolicyClass::gpu;  // small chunks: several passes
    auto device = vkdml::testing::create_device(options, overrides);
    REQUIRE(device);
    return *device;
}

// The four functions as operators: REDUCE MAX/MIN, REDUCE ARGMAX/ARGMIN (first index), the standalone
// ARGMAX/ARGMIN with DECREASING (last index).
struct Function {
    const char* name;
    DML_OPERATOR_TYPE op;
    DML_REDUCE_FUNCTION function;
    bool is_max, is_arg, tie_last;
};
const Function kFunctions[] = {
    {"MAX", DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MAX, true, false, false},
    {"MIN", DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, false, false, false},
    {"REDUCE ARGMAX", DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_ARGMAX, true, true, false},
    {"REDUCE ARGMIN", DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_ARGMIN, false, true, false},
    {"ARGMAX DECREASING", DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, true, true, true},
    {"ARGMIN DECREASING", DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_ARGMIN, false, true, true},
};

vkdml::Status execute(vkdml::Device& device, const Function& f, uint32_t axis, const TestTensor& in,
                      TestTensor& out, NanMode mode) {
    const TensorDescView i(in), o(out);
    const uint32_t axes[] = {axis};
    const DML_REDUCE_OPERATOR_DESC reduce{f.function, i.get(), o.get(), 1, axes};
    const DML_ARGMAX_OPERATOR_DESC arg{i.get(), o.get(), 1, axes, DML_AXIS_DIRECTION_DECREASING};
    const DML_OPERATOR_DESC desc{f.op,
                                 f.op == DML_OPERATOR_REDUCE ? static_cast<const void*>(&reduce) : &arg};
    const std::span<const std::byte> inputs[] = {in.bytes};
    const std::span<std::byte> outputs[] = {out.bytes};
    vkdml::OperatorOptions options;
    options.nan_mode = mode;
    return vkdml::execute(device, desc, inputs, outputs, DML_EXECUTION_FLAG_NONE, options);
}

// Every pattern as a row of `length` (pattern element j / (length / 8) at j: runs of each), reduced along
// the last axis ({8, length}) or the first ({length, 8}), checked against select().
void check_patterns(vkdml::Device& device, DML_TENSOR_DATA_TYPE type, uint32_t length, bool rows_last) {
    std::vector<std::vector<double>> rows(kPatterns, std::vector<double>(length));
    for (uint32_t r = 0; r < kPatterns; ++r)
        for (uint32_t j = 0; j < length; ++j) rows[r][j] = kRows[r][j * kPatternLength / length];
    const std::vector<uint32_t> sizes =
        rows_last ? std::vector<uint32_t>{kPatterns, length} : std::vector<uint32_t>{length, kPatterns};
    TestTensor in = make_packed(type, sizes);
    for (uint32_t r = 0; r < kPatterns; ++r)
        for (uint32_t j = 0; j < length; ++j)
            in.set_double_at(rows_last ? std::vector<uint32_t>{r, j} : std::vector<uint32_t>{j, r},
                             rows[r][j]);
    const uint32_t axis = rows_last ? 1 : 0;
    for (NanMode mode : {NanMode::ignore, NanMode::propagate}) {
        for (const Function& f : kFunctions) {
            INFO(type_name(type) << " " << f.name
                                 << (mode == NanMode::ignore ? " NaN ignored" : " NaN propagated")
                                 << ", rows of " << length << " along axis " << axis);
            const std::vector<uint32_t> out_sizes =
                rows_last ? std::vector<uint32_t>{kPatterns, 1} : std::vector<uint32_t>{1, kPatterns};
            TestTensor out = make_packed(f.is_arg ? DML_TENSOR_DATA_TYPE_INT64 : type, out_sizes);
            const vkdml::Status st = execute(device, f, axis, in, out, mode);
            if (!st && st.error().code == vkdml::ErrorCode::unsupported_device) return;  // no such type
            INFO("execute: " << (st ? std::string("ok") : st.error().message));
            REQUIRE(st);
            for (uint32_t r = 0; r < kPatterns; ++r) {
                const Selected want = select(rows[r], f.is_max, f.tie_last, mode);
                INFO("pattern " << r);
                if (f.is_arg) {
                    CHECK(out.get_bits(r) == want.index);
                    continue;
                }
                const double got = out.get_double(r);
                INFO("got " << got << ", want " << want.value);
                CHECK((std::isnan(want.value) ? std::isnan(got) : got == want.value));
                CHECK(std::signbit(got) == std::signbit(want.value));
            }
        }
    }
}

}  // namespace

TEST_CASE("NanMode: the expected folds of this file", "[unit][nan]") {
    // DirectML's measured MAX/MIN answers, which NanMode::ignore reproduces (SPEC §7); its arg functions
    // skip NaN everywhere, as numpy's nanargmax (DirectML keeps a NaN at element 0).
    CHECK(select({1, kNaN, 3}, true, false, NanMode::ignore).value == 3);
    CHECK(select({1, kNaN, 3, 2}, true, false, NanMode::ignore).index == 2);
    CHECK(select({kNaN, kNaN}, true, false, NanMode::ignore).value == -kInf);
    CHECK(select({kNaN, kNaN}, false, false, NanMode::ignore).value == kInf);
    CHECK(select({kNaN, kNaN}, true, true, NanMode::ignore).index == 0);
    CHECK(select({kNaN, 5}, true, false, NanMode::ignore).index == 1);  // numpy's nanargmax; DirectML: 0
    // Propagation: the first NaN, or the last.
    CHECK(std::isnan(select({1, kNaN, 3}, true, false, NanMode::propagate).value));
    CHECK(select({1, kNaN, 3, kNaN}, false, false, NanMode::propagate).index == 1);
    CHECK(select({1, kNaN, 3, kNaN}, false, true, NanMode::propagate).index == 3);
    // Signed zeros: IEEE 754-2019 values, tied indices.
    CHECK_FALSE(std::signbit(select({-0.0, 0.0}, true, false, NanMode::propagate).value));
    CHECK(std::signbit(select({0.0, -0.0}, false, false, NanMode::propagate).value));
    CHECK(std::signbit(select({-0.0, -0.0}, true, false, NanMode::propagate).value));
    CHECK(select({-0.0, 0.0}, true, false, NanMode::propagate).index == 0);
    CHECK(select({-0.0, 0.0}, true, true, NanMode::propagate).index == 1);
}

TEST_CASE("NanMode::ignore skips NaN in MIN/MAX/ARGMIN/ARGMAX, propagate picks it; ±0 as IEEE 754-2019",
          "[gpu][reduce][argminmax][nan]") {
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        check_patterns(test_device(), type, kPatternLength, true);
        check_patterns(test_device(), type, kPatternLength, false);
        check_patterns(test_device(), type, 3000, true);
    }
}

TEST_CASE("NanMode in both kernel families with the GPU policy rows (chunks, partials, passes)",
          "[gpu][reduce][argminmax][nan][families]") {
    using K = vkdml::KernelChoice;
    for (K kernels : {K::serial, K::cooperative}) {
        INFO((kernels == K::serial ? "serial" : "cooperative") << " kernels");
        auto device = device_with(kernels);
        for (DML_TENSOR_DATA_TYPE type : kFloatTypes)
            for (bool rows_last : {true, false}) check_patterns(*device, type, 3000, rows_last);
    }
}

TEST_CASE("NanMode::ignore: integers as propagate, float pipelines of their own, kept by the Operator",
          "[gpu][reduce][nan]") {
    auto fresh = vkdml::Device::create();  // its pipeline count depends on this test alone
    REQUIRE(fresh);
    vkdml::Device& device = **fresh;
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_FLOAT32}) {
        INFO(type_name(type));
        TestTensor in = make_packed(type, {2, 5});
        const std::vector<double> x = {4, -2, 7, 7, 0, -5, 3, -5, 1, 2};
        for (uint64_t i = 0; i < x.size(); ++i) in.set_double(i, x[i]);
        TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_INT64, {2, 1});
        const size_t before = vkdml::testing::pipeline_count(device);
        REQUIRE(execute(device, kFunctions[2], 1, in, out, NanMode::propagate));
        const size_t after_propagate = vkdml::testing::pipeline_count(device);
        CHECK(bits_of(out) == std::vector<uint64_t>{2, 1});
        REQUIRE(execute(device, kFunctions[2], 1, in, out, NanMode::ignore));
        CHECK(bits_of(out) == std::vector<uint64_t>{2, 1});
        // Integers have no NaN: ignore shares propagate's pipeline; a float type gets one of its own.
        CHECK(vkdml::testing::pipeline_count(device) - after_propagate ==
              (type == DML_TENSOR_DATA_TYPE_INT32 ? 0u : 1u));
        CHECK(after_propagate - before == 1);  // one pass: one pipeline
    }
    TestTensor in = make_packed(F32, {4});
    TestTensor out = make_packed(F32, {1});
    const TensorDescView i(in), o(out);
    const uint32_t axes[] = {0};
    const DML_REDUCE_OPERATOR_DESC d{DML_REDUCE_FUNCTION_MIN, i.get(), o.get(), 1, axes};
    vkdml::OperatorOptions options;
    options.nan_mode = NanMode::ignore;
    auto op = device.create_operator({DML_OPERATOR_REDUCE, &d}, options);
    REQUIRE(op);
    CHECK(op->options().nan_mode == NanMode::ignore);
    auto plain = device.create_operator({DML_OPERATOR_REDUCE, &d});
    REQUIRE(plain);
    CHECK(plain->options().nan_mode == NanMode::propagate);
}

TEST_CASE("OperatorOptions: NanMode::ignore on every operator; values out of range are refused",
          "[gpu][reduce][nan][validation]") {
    vkdml::Device& device = test_device();
    TestTensor in = make_packed(F32, {2, 3});
    TestTensor out = make_packed(F32, {2, 1});
    const TensorDescView i(in), o(out), full(in);
    const uint32_t axes[] = {1};
    vkdml::OperatorOptions ignore;
    ignore.nan_mode = NanMode::ignore;
    // Every REDUCE function takes it (the sums, products and AVERAGE read NaN as their identity:
    // kernels/test_nan_as_identity.cpp), and so do both cumulative operators.
    for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
        if (is_arg_function(f)) continue;  // (their ignore mode: the tests above)
        INFO(to_string(f));
        const DML_REDUCE_OPERATOR_DESC d{f, i.get(), o.get(), 1, axes};
        CHECK(device.create_operator({DML_OPERATOR_REDUCE, &d}, ignore));
    }
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{full.get(), full.get(), 1,
                                                        DML_AXIS_DIRECTION_INCREASING, 0};
    CHECK(device.create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum}, ignore));
    // A value that is neither mode.
    vkdml::OperatorOptions bad;
    bad.nan_mode = static_cast<NanMode>(7);
    const DML_REDUCE_OPERATOR_DESC max{DML_REDUCE_FUNCTION_MAX, i.get(), o.get(), 1, axes};
    auto op = device.create_operator({DML_OPERATOR_REDUCE, &max}, bad);
    REQUIRE_FALSE(op);
    CHECK(op.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(op.error().message ==
          "REDUCE: OperatorOptions::nan_mode 7 is neither NanMode::propagate nor NanMode::ignore");
    auto plan = vkdml::describe_plan({DML_OPERATOR_REDUCE, &max}, vkdml::PlanDevice{}, bad);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().code == vkdml::ErrorCode::invalid_argument);
    auto host =
        vkdml::HostExecution::create(device, {DML_OPERATOR_REDUCE, &max}, DML_EXECUTION_FLAG_NONE, bad);
    REQUIRE_FALSE(host);
    CHECK(host.error().code == vkdml::ErrorCode::invalid_argument);
}
