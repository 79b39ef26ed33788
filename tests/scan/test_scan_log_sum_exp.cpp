// vkdml's LOG_CUMULATIVE_SUM_EXP (SPEC §3, vkdml's operators): the SPEC example on every float type;
// random data of every magnitude against a long double host scan, rows, columns, a middle axis and lines
// of many tiles, exclusive and reversed, on both kernel families (the chained scan with the GPU rows)
// and through small windows, within the accuracy the SPEC states; the same bits on every serial
// configuration; infinities, NaN in both modes, in place; and the refusals by message.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "run_operation.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace vkdml_test;
using vkdml::NanMode;

namespace {

struct Scan {
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;
    bool exclusive = false;
};

vkdml::ops::Operation operation(const vkdml::ops::TensorDesc& input, uint32_t axis, const Scan& s) {
    return built(vkdml::ops::log_cumulative_sum_exp(input, axis, s.direction, s.exclusive));
}

/// The host's scan of `x` (row-major [outer, n, inner]) along the middle axis in long double: each
/// output, and the largest |x| it covers (the scale of its error). `skip_nan`: NaN elements left out.
struct Reference {
    std::vector<long double> value, scale;
};
Reference reference(const TestTensor& x, uint64_t outer, uint64_t n, uint64_t inner, const Scan& s,
                    bool skip_nan = false) {
    Reference r{std::vector<long double>(x.count()), std::vector<long double>(x.count())};
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t k = 0; k < inner; ++k) {
            long double m = -INFINITY, sum = 0, scale = 0;
            bool nan = false;
            for (uint64_t step = 0; step < n; ++step) {
                const uint64_t j = s.direction == DML_AXIS_DIRECTION_INCREASING ? step : n - 1 - step;
                const uint64_t at = (o * n + j) * inner + k;
                const auto store = [&] {
                    r.value[at] = nan ? NAN : (std::isinf(m) ? m : m + std::log(sum));
                    r.scale[at] = scale;
                };
                if (s.exclusive) store();
                const long double v = x.get_double(at);
                if (std::isnan(v)) {
                    nan = nan || !skip_nan;
                } else if (v > m) {
                    sum = (std::isinf(m) || std::isinf(v) ? 0 : sum * std::exp(m - v)) + 1;
                    m = v;
                } else {
                    sum += std::isinf(v) ? 0 : std::exp(v - m);
                }
                if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
                if (!s.exclusive) store();
            }
        }
    return r;
}

/// The error the tests allow random data (SPEC §3): float32 4·2^-24, float64 4·2^-53 of max(|y|, the
/// largest |x| it covers, 1); float16 outputs half a unit in the last place of float16 past float32's.
double bound(DML_TENSOR_DATA_TYPE type, long double y, long double scale) {
    const double big = static_cast<double>(std::max({std::fabs(y), scale, 1.0L}));
    if (type == DML_TENSOR_DATA_TYPE_FLOAT64) return 4 * std::ldexp(big, -53);
    const double f32 = 4 * std::ldexp(big, -24);
    if (type == DML_TENSOR_DATA_TYPE_FLOAT32) return f32;
    int e = 0;
    std::frexp(static_cast<double>(std::fabs(y)), &e);
    return f32 + std::ldexp(1.0, std::max(e, -13) - 12);  // half an ulp of float16 at |y|
}

/// How many outputs of `out` miss the reference's value by more than bound() (infinities and NaN must
/// match exactly); the worst error in units of the bound goes to `worst`.
uint64_t misses(const TestTensor& out, const Reference& ref, double& worst) {
    uint64_t count = 0;
    worst = 0;
    for (uint64_t i = 0; i < out.count(); ++i) {
        const double y = out.get_double(i);
        const long double want = ref.value[i];
        if (std::isnan(want) || std::isinf(want)) {
            const bool same = std::isnan(want) ? std::isnan(y) : y == static_cast<double>(want);
            count += same ? 0 : 1;
            continue;
        }
        const double err = static_cast<double>(std::fabs(static_cast<long double>(y) - want)) /
                           bound(out.type, want, ref.scale[i]);
        worst = std::max(worst, err);
        count += err <= 1 ? 0 : 1;
    }
    return count;
}

/// Random normal data around `center` with spread `spread`, and now and then ±inf, a value far off, and
/// (with `nans`) NaN.
TestTensor data(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed, double center,
                double spread, bool nans = false) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(center, spread);
    for (uint64_t i = 0; i < t.count(); ++i) {
        const uint32_t pick = static_cast<uint32_t>(rng() % 8192);
        double v = normal(rng);
        if (pick == 0) v = -INFINITY;
        if (pick == 1) v = center + 40 * spread;
        if (pick == 2 && nans) v = std::nan("");
        t.set_double(i, v);
        if (type == DML_TENSOR_DATA_TYPE_FLOAT16 && std::isinf(t.get_double(i)) && !std::isinf(v))
            t.set_double(i, center);  // (out of float16's range)
    }
    return t;
}

constexpr DML_TENSOR_DATA_TYPE kFloats[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64,
                                            DML_TENSOR_DATA_TYPE_FLOAT16};

}  // namespace

TEST_CASE("SPEC §6 LOG_CUMULATIVE_SUM_EXP example for every float type", "[gpu][scan][lse][spec]") {
    vkdml::Device& dev = test_device();
    const std::vector<double> input = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    struct Example {
        Scan scan;
        uint32_t axis;
        std::vector<double> want;  // the SPEC's, to 4 decimals
    };
    const double inf = INFINITY;
    const std::vector<Example> examples = {
        {{}, 3, {2, 2.3133, 3.4076, 5.1852, 3, 8.0067, 8.3182, 8.3231, 9, 9.0486, 9.0495, 9.0558}},
        {{DML_AXIS_DIRECTION_INCREASING, true},
         3,
         {-inf, 2, 2.3133, 3.4076, -inf, 3, 8.0067, 8.3182, -inf, 9, 9.0486, 9.0495}},
        {{DML_AXIS_DIRECTION_DECREASING},
         3,
         {5.1852, 5.1429, 5.1269, 5, 8.3231, 8.3182, 7.0181, 3, 9.0558, 6.1429, 4.1269, 4}},
        {{}, 2, {2, 1, 3, 5, 3.3133, 8.0009, 7.0181, 5.1269, 9.0034, 8.1277, 7.0247, 5.4076}},
    };
    for (DML_TENSOR_DATA_TYPE type : kFloats) {
        if (!dev.supports(VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, type).supported) continue;
        TestTensor x = make_packed(type, {1, 1, 3, 4});
        for (uint64_t i = 0; i < input.size(); ++i) x.set_double(i, input[i]);
        for (const Example& e : examples) {
            INFO(vkdml::to_string(type) << " axis " << e.axis << (e.scan.exclusive ? " exclusive" : "")
                                        << (e.scan.direction ? " decreasing" : ""));
            const TestTensor out =
                run_operation(dev, operation(vkdml::ops::TensorDesc{type, {1, 1, 3, 4}}, e.axis, e.scan), x);
            const Reference ref = e.axis == 3 ? reference(x, 3, 4, 1, e.scan) : reference(x, 1, 3, 4, e.scan);
            double worst = 0;
            CHECK(misses(out, ref, worst) == 0);
            for (uint64_t i = 0; i < e.want.size(); ++i) {
                INFO("element " << i);
                if (std::isinf(e.want[i]))
                    CHECK(out.get_double(i) == e.want[i]);
                else
                    CHECK(out.get_double(i) ==
                          Approx(e.want[i]).margin(type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 5e-3 : 5e-5));
            }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP against a long double scan on both families and through windows",
          "[gpu][scan][lse][families]") {
    const int config = GENERATE(0, 1, 2);
    std::string configuration;
    const auto dev = make_family_test_device(config, &configuration);
    INFO(configuration);
    const AxisShape shapes[] = {
        {{300007}, 0},
        {{37, 1001}, 1},
        {{1001, 37}, 0},
        {{9, 257, 5}, 1},
        // (Whole vectors: the serial kernels' blocks, one invocation over thousands of elements, each with a
        // logarithm; its division loops would stop lavapipe's invocation after 65,535 trips.)
        {{65536}, 0}};
    const Scan scans[] = {{},
                          {DML_AXIS_DIRECTION_DECREASING},
                          {DML_AXIS_DIRECTION_DECREASING, true},
                          {DML_AXIS_DIRECTION_INCREASING, true}};
    // Magnitudes: around 0, far below it (every e^x underflows), and far above (every e^x overflows).
    const double centers[] = {0, -1e4, 1e4};
    for (DML_TENSOR_DATA_TYPE type : kFloats) {
        if (!dev->supports(VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, type).supported) continue;
        if (config == 2 && type != DML_TENSOR_DATA_TYPE_FLOAT32) continue;  // (windows: one type, for time)
        for (size_t si = 0; si < std::size(shapes); ++si) {
            const AxisShape& sh = shapes[si];
            const double center = type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 0 : centers[si % std::size(centers)];
            const TestTensor x = data(type, sh.sizes, static_cast<uint32_t>(si * 31 + type), center, 3);
            for (size_t k = 0; k < 2; ++k) {
                const Scan& s = scans[(si + k + static_cast<size_t>(type)) % std::size(scans)];
                INFO(vkdml::to_string(type)
                     << " " << sh.sizes.size() << "-D axis " << sh.axis << " around " << center
                     << (s.exclusive ? " exclusive" : "") << (s.direction ? " decreasing" : ""));
                const TestTensor out =
                    run_operation(*dev, operation(vkdml::ops::TensorDesc{type, sh.sizes}, sh.axis, s), x);
                double worst = 0;
                const uint64_t missed =
                    misses(out, reference(x, sh.outer(), sh.length(), sh.inner(), s), worst);
                INFO("worst error " << worst << " of the bound");
                CHECK(missed == 0);
            }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP: a line built to align S's rounding errors stays within SPEC's worst case",
          "[gpu][scan][lse]") {
    // 32 elements (one node: L = 1) a few ulp below x0 = -1.732868, each adding to S a term that rounds
    // S + 1 down by 0.49 ulp: the errors of the plain sum all point one way, and y = m + ln S is near 0,
    // so the scale max(|y|, |x|, 1) does not hide them. SPEC §3: within (16·L + 4)·2^-24 of that scale.
    vkdml::Device& dev = test_device();
    TestTensor x = make_packed(DML_TENSOR_DATA_TYPE_FLOAT32, {32});
    const float x0 = -1.7328680f;
    x.set_double(0, x0);
    for (uint32_t k = 1; k < 32; ++k) {
        const float target = static_cast<float>(k + 1);
        const double gap = std::nextafter(target, INFINITY) - target;
        x.set_double(k, static_cast<float>(static_cast<double>(x0) + std::log1p(-0.49 * gap)));
    }
    const TestTensor out = run_operation(
        dev, operation(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {32}}, 0, Scan{}), x);
    const Reference ref = reference(x, 1, 32, 1, Scan{});
    for (uint64_t k = 0; k < 32; ++k) {
        INFO("element " << k);
        const long double scale = std::max({std::fabs(ref.value[k]), ref.scale[k], 1.0L});
        CHECK(std::fabs(static_cast<long double>(out.get_double(k)) - ref.value[k]) <=
              20 * std::ldexp(scale, -24));
    }
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP: the same bits on every serial configuration", "[gpu][scan][lse]") {
    using PC = vkdml::testing::DeviceOverrides::PolicyClass;
    const TestTensor x = data(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 70001}, 5, 0, 10);
    const auto op = operation(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {3, 70001}}, 1, Scan{});
    const auto serial_cpu = make_test_device(vkdml::KernelChoice::serial, PC::cpu);
    const auto serial_gpu = make_test_device(vkdml::KernelChoice::serial, PC::gpu);
    const auto windowed = make_windowed_test_device(vkdml::KernelChoice::serial, PC::gpu, uint64_t{64} << 10);
    const TestTensor a = run_operation(*serial_cpu, op, x);
    const TestTensor b = run_operation(*serial_gpu, op, x);
    const TestTensor c = run_operation(*windowed, op, x);
    CHECK(a.bytes == b.bytes);
    CHECK(a.bytes == c.bytes);
    double worst = 0;
    CHECK(misses(a, reference(x, 3, 70001, 1, Scan{}), worst) == 0);
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP: infinities; NaN propagates, or is left out with NanMode::ignore",
          "[gpu][scan][lse][nan]") {
    std::string configuration;
    const auto dev = make_family_test_device(GENERATE(0, 1), &configuration);
    INFO(configuration);
    const double inf = INFINITY, nan = std::nan("");
    // Exact cases: -inf is e^x = 0; +inf absorbs everything but NaN.
    const std::vector<double> edge = {-inf, -inf, 5, -inf, inf, 7, -inf, nan, 1};
    const std::vector<double> want = {-inf, -inf, 5, 5, inf, inf, inf, nan, nan};
    const std::vector<double> want_ignored = {-inf, -inf, 5, 5, inf, inf, inf, inf, inf};
    for (DML_TENSOR_DATA_TYPE type : kFloats) {
        if (!dev->supports(VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, type).supported) continue;
        TestTensor x = make_packed(type, {9});
        for (uint64_t i = 0; i < edge.size(); ++i) x.set_double(i, edge[i]);
        for (const NanMode mode : {NanMode::propagate, NanMode::ignore}) {
            INFO(vkdml::to_string(type) << (mode == NanMode::ignore ? ", NaN ignored" : ""));
            vkdml::OperatorOptions options;
            options.nan_mode = mode;
            const TestTensor out =
                run_operation(*dev, operation(vkdml::ops::TensorDesc{type, {9}}, 0, Scan{}), x, options);
            const std::vector<double>& w = mode == NanMode::ignore ? want_ignored : want;
            for (uint64_t i = 0; i < w.size(); ++i) {
                INFO("element " << i);
                if (std::isnan(w[i]))
                    CHECK(std::isnan(out.get_double(i)));
                else
                    CHECK(out.get_double(i) == w[i]);
            }
            // Long lines with NaNs, against the host.
            const TestTensor y = data(type, {3, 20001}, 7, 0, 2, true);
            const TestTensor long_out = run_operation(
                *dev,
                operation(vkdml::ops::TensorDesc{type, {3, 20001}}, 1, Scan{DML_AXIS_DIRECTION_DECREASING}),
                y, options);
            double worst = 0;
            CHECK(misses(
                      long_out,
                      reference(y, 3, 20001, 1, Scan{DML_AXIS_DIRECTION_DECREASING}, mode == NanMode::ignore),
                      worst) == 0);
        }
    }
    require_no_validation_messages();
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP refusals and names", "[gpu][scan][lse][validation]") {
    vkdml::Device& dev = test_device();
    const uint32_t sizes[] = {4};
    const DML_BUFFER_TENSOR_DESC ints{
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
    const DML_BUFFER_TENSOR_DESC floats{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
    const DML_TENSOR_DESC tints{DML_TENSOR_TYPE_BUFFER, &ints}, tfloats{DML_TENSOR_TYPE_BUFFER, &floats};
    const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC integer{&tints, &tints, 0, DML_AXIS_DIRECTION_INCREASING,
                                                             0};
    auto r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, &integer});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::unsupported_type);
    CHECK(r.error().message ==
          "LOG_CUMULATIVE_SUM_EXP: InputTensor.DataType is INT32 but LOG_CUMULATIVE_SUM_EXP takes FLOAT16, "
          "FLOAT32 or FLOAT64 only (SPEC §4)");
    const vkdml::TypeSupport s =
        dev.supports(VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, DML_TENSOR_DATA_TYPE_INT32);
    CHECK_FALSE(s.supported);
    CHECK(s.reason == "LOG_CUMULATIVE_SUM_EXP does not take INT32");
    const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC mixed{&tfloats, &tints, 0, DML_AXIS_DIRECTION_INCREASING,
                                                           0};
    r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, &mixed});
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message,
               Catch::Matchers::StartsWith("LOG_CUMULATIVE_SUM_EXP: OutputTensor.DataType is INT32"));
    const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC fine{&tfloats, &tfloats, 0,
                                                          DML_AXIS_DIRECTION_INCREASING, 1};
    vkdml::OperatorOptions options;
    options.correction = 1;
    r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, &fine}, options);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message,
               Catch::Matchers::StartsWith("LOG_CUMULATIVE_SUM_EXP: OperatorOptions::correction is 1"));
    CHECK(std::string(vkdml::to_string(VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP)) == "LOG_CUMULATIVE_SUM_EXP");
    // The builder describes an integer input; creating the operator refuses it, as above.
    const auto byte_op =
        built(vkdml::ops::log_cumulative_sum_exp(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_UINT8, {3}}, 0));
    r = dev.create_operator(byte_op.desc());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::unsupported_type);
    auto wrong_axis =
        vkdml::ops::log_cumulative_sum_exp(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {3}}, 1);
    REQUIRE_FALSE(wrong_axis);
    CHECK(
        wrong_axis.error().message ==
        "vkdml::ops::log_cumulative_sum_exp: axis 1 is out of range for an input of 1 dimensions (axes count "
        "from 0)");
}

TEST_CASE("LOG_CUMULATIVE_SUM_EXP in place", "[gpu][scan][lse]") {
    vkdml::Device& dev = test_device();
    std::vector<float> x = {0, 0, 0, 0, 1, 2, 3, 4};
    const std::vector<float> input = x;
    const uint32_t sizes[] = {2, 4};
    const DML_BUFFER_TENSOR_DESC b{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 32, 0};
    const DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC d{&t, &t, 1, DML_AXIS_DIRECTION_DECREASING, 0};
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(x))};
    REQUIRE(vkdml::execute(dev, {VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, &d}, inputs, outputs));
    for (int row = 0; row < 2; ++row)
        for (int k = 0; k < 4; ++k) {
            long double sum = 0;
            for (int j = k; j < 4; ++j) sum += std::exp(static_cast<long double>(input[row * 4 + j]));
            CHECK(x[row * 4 + k] == Approx(static_cast<double>(std::log(sum))).epsilon(4e-7));
        }
}
