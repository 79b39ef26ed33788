// vkdml's CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM (SPEC §3, vkdml's operators): the SPEC example on every
// type, exact; random data against a host running maximum and minimum on every type (signed extremes
// among them), rows, columns, a middle axis and lines of many tiles, exclusive and reversed, on both
// kernel families (the chained scan with the GPU rows) and through small windows; NaN, infinities and
// signed zeros in both NaN modes; and the refusals by message.
#include <catch2/catch.hpp>

#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "run_operation.hpp"
#include "selection_support.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace vkdml_test;
using vkdml::element_size;
using vkdml::is_float_type;
using vkdml::is_signed_integer_type;
using vkdml::NanMode;

namespace {

using Scan = SelectionScan;

vkdml::ops::Operation operation(const vkdml::ops::TensorDesc& input, uint32_t axis, const Scan& s) {
    return built(s.maximum ? vkdml::ops::cumulative_maximum(input, axis, s.direction, s.exclusive)
                           : vkdml::ops::cumulative_minimum(input, axis, s.direction, s.exclusive));
}

/// The output's raw bits (floats: NaN as one pattern, so that vectors compare).
std::vector<uint64_t> bits_of(const TestTensor& t) {
    std::vector<uint64_t> v(t.count());
    for (uint64_t i = 0; i < t.count(); ++i)
        v[i] = is_float_type(t.type) && std::isnan(t.get_double(i)) ? ~uint64_t{0} : t.get_bits(i);
    return v;
}

/// The host's running maximum or minimum of `x` (row-major [outer, n, inner]) along the middle axis, as
/// bits_of gives them: a NaN wins (is skipped with `skip_nan`), +0 beats -0 in a maximum, -0 in a minimum.
std::vector<uint64_t> expected(const TestTensor& x, uint64_t outer, uint64_t n, uint64_t inner, const Scan& s,
                               bool skip_nan = false) {
    TestTensor out = make_packed(x.type, {static_cast<uint32_t>(x.count())});
    const bool fl = is_float_type(x.type);
    const uint32_t bits = element_size(x.type) * 8;
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t smallest = is_signed_integer_type(x.type) ? (uint64_t{1} << (bits - 1)) : 0;
    const uint64_t largest = is_signed_integer_type(x.type) ? smallest - 1 : mask;
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t k = 0; k < inner; ++k) {
            double run_f = s.maximum ? -INFINITY : INFINITY;
            uint64_t run_b = s.maximum ? smallest : largest;
            for (uint64_t step = 0; step < n; ++step) {
                const uint64_t j = s.direction == DML_AXIS_DIRECTION_INCREASING ? step : n - 1 - step;
                const uint64_t at = (o * n + j) * inner + k;
                const auto store = [&] {
                    if (fl)
                        out.set_double(at, run_f);
                    else
                        out.set_bits(at, run_b);
                };
                if (s.exclusive) store();
                if (fl) {
                    const double v = x.get_double(at);
                    if (std::isnan(v)) {
                        if (!skip_nan && !std::isnan(run_f)) run_f = v;
                    } else if (!std::isnan(run_f)) {
                        const bool beyond = s.maximum ? v > run_f : v < run_f;
                        const bool zero = v == run_f && std::signbit(v) != std::signbit(run_f) &&
                                          std::signbit(v) == !s.maximum;
                        if (beyond || zero) run_f = v;
                    }
                } else {
                    const uint64_t v = x.get_bits(at);
                    if (s.maximum ? less_in_type(x.type, run_b, v) : less_in_type(x.type, v, run_b))
                        run_b = v;
                }
                if (!s.exclusive) store();
            }
        }
    return bits_of(out);
}

/// Values of `type`: a spread of small numbers, with its extremes now and then (floats: ±inf, ±0 and, with
/// `nans`, NaN).
TestTensor data(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed,
                bool nans = false) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    const uint32_t bits = element_size(type) * 8;
    for (uint64_t i = 0; i < t.count(); ++i) {
        const uint32_t pick = static_cast<uint32_t>(rng() % 4096);
        if (is_float_type(type)) {
            double v = static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 8;
            if (pick == 0) v = INFINITY;
            if (pick == 1) v = -INFINITY;
            if (pick == 2) v = -0.0;
            if (pick == 3 && nans) v = std::nan("");
            t.set_double(i, v);
        } else {
            uint64_t v = rng();
            v = (v << 32) | rng();
            if (pick == 0)
                v = bits == 64 ? ~uint64_t{0} >> 1 : (uint64_t{1} << (bits - 1)) - 1;  // signed max
            if (pick == 1) v = uint64_t{1} << (bits - 1);                              // signed min
            if (pick == 2) v = ~uint64_t{0};                                           // unsigned max
            t.set_bits(i, v);                                                          // (the low bits)
        }
    }
    return t;
}

}  // namespace

TEST_CASE("SPEC §6 CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM examples for every type",
          "[gpu][scan][selection][spec]") {
    vkdml::Device& dev = test_device();
    const std::vector<double> input = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    struct Example {
        Scan scan;
        uint32_t axis;
        std::vector<double> want;  // NaN: the type's smallest (maximum) or largest (minimum) value
    };
    const double edge = std::nan("");
    const std::vector<Example> examples = {
        {{true}, 3, {2, 2, 3, 5, 3, 8, 8, 8, 9, 9, 9, 9}},
        {{true, DML_AXIS_DIRECTION_INCREASING, true}, 3, {edge, 2, 2, 3, edge, 3, 8, 8, edge, 9, 9, 9}},
        {{true, DML_AXIS_DIRECTION_DECREASING}, 3, {5, 5, 5, 5, 8, 8, 7, 3, 9, 6, 4, 4}},
        {{true}, 2, {2, 1, 3, 5, 3, 8, 7, 5, 9, 8, 7, 5}},
        {{false}, 3, {2, 1, 1, 1, 3, 3, 3, 3, 9, 6, 2, 2}},
        {{false, DML_AXIS_DIRECTION_DECREASING, true}, 3, {1, 3, 5, edge, 3, 3, 3, edge, 2, 2, 4, edge}},
    };
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (!dev.supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        TestTensor x = make_packed(type, {1, 1, 3, 4});
        for (uint64_t i = 0; i < input.size(); ++i) x.set_double(i, input[i]);
        for (const Example& e : examples) {
            INFO(vkdml::to_string(type)
                 << (e.scan.maximum ? " maximum" : " minimum") << " axis " << e.axis
                 << (e.scan.exclusive ? " exclusive" : "") << (e.scan.direction ? " decreasing" : ""));
            const TestTensor out =
                run_operation(dev, operation(vkdml::ops::TensorDesc{type, {1, 1, 3, 4}}, e.axis, e.scan), x);
            for (uint64_t i = 0; i < e.want.size(); ++i) {
                if (!std::isnan(e.want[i])) {
                    CHECK(out.get_double(i) == e.want[i]);
                    continue;
                }
                // The exclusive first output: the type's extreme.
                TestTensor extreme = make_packed(type, {1});
                if (is_float_type(type))
                    extreme.set_double(0, e.scan.maximum ? -INFINITY : INFINITY);
                else {
                    const uint32_t bits = element_size(type) * 8;
                    const uint64_t smallest = is_signed_integer_type(type) ? uint64_t{1} << (bits - 1) : 0;
                    extreme.set_bits(0, e.scan.maximum ? smallest : smallest - 1);
                }
                CHECK(out.get_bits(i) == extreme.get_bits(0));
            }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM against the host on every type, both families, windows",
          "[gpu][scan][selection][families]") {
    const int config = GENERATE(0, 1, 2);
    std::string configuration;
    const auto dev = make_family_test_device(config, &configuration);
    INFO(configuration);
    const AxisShape shapes[] = {{{100003}, 0}, {{37, 1001}, 1}, {{1001, 37}, 0}, {{9, 257, 5}, 1}};
    const Scan scans[] = {{true},
                          {false, DML_AXIS_DIRECTION_DECREASING},
                          {true, DML_AXIS_DIRECTION_DECREASING, true},
                          {false, DML_AXIS_DIRECTION_INCREASING, true}};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (!dev->supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        // (Through windows: a type of each storage class, for time.)
        if (config == 2 && type != DML_TENSOR_DATA_TYPE_FLOAT32 && type != DML_TENSOR_DATA_TYPE_INT8 &&
            type != DML_TENSOR_DATA_TYPE_UINT64 && type != DML_TENSOR_DATA_TYPE_INT16)
            continue;
        for (size_t si = 0; si < std::size(shapes); ++si) {
            const AxisShape& sh = shapes[si];
            const TestTensor x = data(type, sh.sizes, static_cast<uint32_t>(si * 31 + type));
            // (Every type meets every shape; the scans rotate over them.)
            for (size_t k = 0; k < 2; ++k) {
                const Scan& s = scans[(si + k + static_cast<size_t>(type)) % std::size(scans)];
                INFO(vkdml::to_string(type)
                     << " " << sh.sizes.size() << "-D axis " << sh.axis
                     << (s.maximum ? " maximum" : " minimum") << (s.exclusive ? " exclusive" : "")
                     << (s.direction ? " decreasing" : ""));
                const TestTensor out =
                    run_operation(*dev, operation(vkdml::ops::TensorDesc{type, sh.sizes}, sh.axis, s), x);
                CHECK(bits_of(out) == expected(x, sh.outer(), sh.length(), sh.inner(), s));
            }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM: NaN wins, or is left out with NanMode::ignore",
          "[gpu][scan][selection][nan]") {
    std::string configuration;
    const auto dev = make_family_test_device(GENERATE(0, 1), &configuration);
    INFO(configuration);
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT16}) {
        if (!dev->supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        const TestTensor x = data(type, {3, 20001}, 7, true);
        for (const Scan& s : {Scan{true}, Scan{false, DML_AXIS_DIRECTION_DECREASING}}) {
            for (const NanMode mode : {NanMode::propagate, NanMode::ignore}) {
                INFO(vkdml::to_string(type) << (s.maximum ? " maximum" : " minimum")
                                            << (mode == NanMode::ignore ? ", NaN ignored" : ""));
                vkdml::OperatorOptions options;
                options.nan_mode = mode;
                const TestTensor out = run_operation(
                    *dev, operation(vkdml::ops::TensorDesc{type, {3, 20001}}, 1, s), x, options);
                CHECK(bits_of(out) == expected(x, 3, 20001, 1, s, mode == NanMode::ignore));
            }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("the chained pass's float maximum and minimum: look-back and fallback over many tiles",
          "[gpu][scan][selection][chained]") {
    const bool fallback = GENERATE(false, true);  // true: every tile reduces its predecessors itself
    const auto dev = make_test_device(vkdml::KernelChoice::cooperative,
                                      vkdml::testing::DeviceOverrides::PolicyClass::gpu, fallback);
    if (!dev->info().subgroup_shuffle) {
        WARN("skipped: the device has no subgroup shuffles, so no chained scan of floats");
        return;
    }
    // Three lines of 70,001 (18 tiles of float32): a line falling along the axis and a rising one, so that
    // what precedes a tile decides its outputs whichever way the scan runs, with noise. Line 0 starts at -0
    // and has +0 at 50,000 (a maximum's later +0 beats -0, in a tile whose own values are all lower); line 1
    // the mirror image for the minimum; line 2 a NaN at 40,000.
    const uint32_t n = 70001;
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT16}) {
        if (!dev->supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        TestTensor x = make_packed(type, {3, n});
        std::mt19937 rng(static_cast<uint32_t>(type));
        const double scale = type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 1.0 / 128 : 1.0 / 4;
        for (uint32_t line = 0; line < 3; ++line)
            for (uint32_t j = 0; j < n; ++j) {
                const double trend = (line == 1 ? 1.0 : -1.0) * j * scale;
                x.set_double(size_t(line) * n + j, trend + double(rng() % 17) / 16 * (line == 1 ? 1 : -1));
            }
        x.set_double(0, -0.0);
        x.set_double(50000, 0.0);
        x.set_double(n, 0.0);
        x.set_double(n + 50000, -0.0);
        x.set_double(2 * size_t(n) + 40000, std::nan(""));
        for (const Scan& s : {Scan{true}, Scan{false, DML_AXIS_DIRECTION_DECREASING},
                              Scan{true, DML_AXIS_DIRECTION_DECREASING, true}, Scan{false, {}, true}}) {
            const vkdml::ops::Operation o = operation(vkdml::ops::TensorDesc{type, {3, n}}, 1, s);
            const std::string plan = compiled_plan(*dev, o.desc());
            INFO(describe(type, s) << (fallback ? ", always falling back" : "") << "\n" << plan);
            CHECK(plan.find("pass 2: scan_chained/") != std::string::npos);
            const std::vector<uint64_t> got = bits_of(run_operation(*dev, o, x)),
                                        want = expected(x, 3, n, 1, s);
            const Differences d = find_differences(got.size(), [&](uint64_t i) { return got[i] != want[i]; });
            INFO(d);
            CHECK(d.count == 0);
        }
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM refusals and names",
          "[gpu][scan][selection][validation]") {
    vkdml::Device& dev = test_device();
    const uint32_t sizes[] = {4}, other[] = {5};
    const DML_BUFFER_TENSOR_DESC in{
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
    const DML_BUFFER_TENSOR_DESC bad{
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, other, nullptr, 20, 0};
    const DML_TENSOR_DESC tin{DML_TENSOR_TYPE_BUFFER, &in}, tbad{DML_TENSOR_TYPE_BUFFER, &bad};
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC wrong_axis{&tin, &tin, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    auto r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &wrong_axis});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::invalid_descriptor);
    CHECK_THAT(r.error().message, Catch::Matchers::StartsWith("CUMULATIVE_MAXIMUM: Axis is 1"));
    const VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC wrong_sizes{&tin, &tbad, 0, DML_AXIS_DIRECTION_INCREASING,
                                                             0};
    r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MINIMUM, &wrong_sizes});
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Matchers::StartsWith("CUMULATIVE_MINIMUM: OutputTensor.Sizes"));
    // In place is allowed (rule 9), as for the other cumulative operators; a correction is not.
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC fine{&tin, &tin, 0, DML_AXIS_DIRECTION_DECREASING, 1};
    vkdml::OperatorOptions options;
    options.correction = 2;
    r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &fine}, options);
    REQUIRE_FALSE(r);
    CHECK(r.error().message ==
          "CUMULATIVE_MAXIMUM: OperatorOptions::correction is 2 (only VARIANCE and "
          "STANDARD_DEVIATION take a correction; it must be 0 here)");
    CHECK(std::string(vkdml::to_string(VKDML_OPERATOR_CUMULATIVE_MAXIMUM)) == "CUMULATIVE_MAXIMUM");
    CHECK(std::string(vkdml::to_string(VKDML_OPERATOR_CUMULATIVE_MINIMUM)) == "CUMULATIVE_MINIMUM");
    auto built_op = vkdml::ops::cumulative_minimum(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_INT8, {3}}, 1);
    REQUIRE_FALSE(built_op);
    CHECK(built_op.error().message ==
          "vkdml::ops::cumulative_minimum: axis 1 is out of range for an input of 1 dimensions (axes count "
          "from 0)");
}
