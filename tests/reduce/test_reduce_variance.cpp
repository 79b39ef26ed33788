// REDUCE's VKDML_REDUCE_FUNCTION_VARIANCE and STANDARD_DEVIATION (SPEC §3, vkdml's functions): exact
// values where the arithmetic is exact (the SPEC example, constant lines, N <= correction), accuracy
// against a two-pass long double reference on normal data and on data with a large mean (1e8 + N(0, 1),
// where Σx² - (Σx)²/N would lose every digit), over 1-D lines of several chunks, rows, columns, several
// axes and strided views, for every float type and both kernel families; the same bits on both families
// and policy rows (the canonical association); NanMode::ignore as NumPy's nanvar and nanstd; and the
// refusals by message.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "half.hpp"
#include "run_operation.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace vkdml_test;
using vkdml::NanMode;

namespace {

constexpr DML_REDUCE_FUNCTION kVar = VKDML_REDUCE_FUNCTION_VARIANCE;
constexpr DML_REDUCE_FUNCTION kStd = VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION;
constexpr DML_TENSOR_DATA_TYPE kF16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kF32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kF64 = DML_TENSOR_DATA_TYPE_FLOAT64;

/// VARIANCE or STANDARD_DEVIATION of `in` with `correction`: the output's values.
std::vector<double> run(const vkdml::Device& dev, const vkdml::ops::Operation& op, const TestTensor& in,
                        uint32_t correction = 0, NanMode mode = NanMode::propagate) {
    vkdml::OperatorOptions options;
    options.nan_mode = mode;
    options.correction = correction;
    const TestTensor out = run_operation(dev, op, in, options);
    std::vector<double> v(out.count());
    for (uint64_t i = 0; i < out.count(); ++i) v[i] = out.get_double(i);
    return v;
}

/// `value` rounded to `type` as the SPEC has it: FLOAT16 results are rounded to float32, then once to
/// FLOAT16 (the accumulator's result, rounded once).
double rounded(DML_TENSOR_DATA_TYPE type, long double value) {
    if (type == kF64) return static_cast<double>(value);
    const float f = static_cast<float>(value);
    return type == kF32 ? f : half_to_double(half_from_float(f));
}

/// The reference over each fiber of a row-major [outer, n, inner] view: two passes in long double over the
/// stored values, skipping NaN with `skip_nan`; {M2, count} per output (outer-major, then inner).
struct Moments {
    long double m2 = 0;
    uint64_t count = 0;
    bool nan = false;
};
std::vector<Moments> moments(const TestTensor& x, uint64_t outer, uint64_t n, uint64_t inner, bool skip_nan) {
    std::vector<Moments> r(outer * inner);
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t k = 0; k < inner; ++k) {
            Moments& m = r[o * inner + k];
            long double sum = 0;
            for (uint64_t j = 0; j < n; ++j) {
                const double v = x.get_double((o * n + j) * inner + k);
                if (std::isnan(v) && skip_nan) continue;
                if (!std::isfinite(v)) m.nan = true;
                sum += v;
                ++m.count;
            }
            const long double mean = m.count ? sum / m.count : 0;
            for (uint64_t j = 0; j < n; ++j) {
                const double v = x.get_double((o * n + j) * inner + k);
                if (std::isnan(v) && skip_nan) continue;
                m.m2 += (v - mean) * (v - mean);
            }
        }
    return r;
}

/// The contract's accuracy: 1e-6 relative for FLOAT32, 1e-14 for FLOAT64; FLOAT16 half a unit in the last
/// place of the exact value, plus the float32 accumulator's 1e-6.
bool accurate(DML_TENSOR_DATA_TYPE type, double got, long double want) {
    const double w = static_cast<double>(want);
    if (type == kF16) return std::fabs(got - w) <= half_ulp(w) / 2 + 1e-6 * std::fabs(w);
    return std::fabs(got - w) <= (type == kF32 ? 1e-6 : 1e-14) * std::fabs(w);
}

/// Checks VARIANCE and STANDARD_DEVIATION of `x` (row-major `sizes`) over `axis` against the reference.
void check_against_reference(const vkdml::Device& dev, const TestTensor& x, uint32_t axis,
                             uint32_t correction, NanMode mode = NanMode::propagate) {
    const std::vector<uint32_t>& sizes = x.sizes;
    uint64_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < axis; ++d) outer *= sizes[d];
    for (size_t d = axis + 1; d < sizes.size(); ++d) inner *= sizes[d];
    const auto ref = moments(x, outer, sizes[axis], inner, mode == NanMode::ignore);
    const vkdml::ops::TensorDesc input{x.type, sizes};
    const auto var = run(dev, built(vkdml::ops::reduce(input, kVar, {axis})), x, correction, mode);
    const auto sd = run(dev, built(vkdml::ops::reduce(input, kStd, {axis})), x, correction, mode);
    REQUIRE(var.size() == ref.size());
    size_t bad = 0;
    for (size_t o = 0; o < ref.size(); ++o) {
        const Moments& m = ref[o];
        const long double v = m.m2 / static_cast<long double>(m.count - correction);
        const bool ok = m.nan ? std::isnan(var[o]) && std::isnan(sd[o])
                              : accurate(x.type, var[o], v) && accurate(x.type, sd[o], std::sqrt(v));
        if (!ok && bad++ < 3)
            FAIL_CHECK("output " << o << ": variance " << var[o] << ", deviation " << sd[o] << ", want "
                                 << static_cast<double>(v) << " and " << static_cast<double>(std::sqrt(v)));
    }
    CHECK(bad == 0);
}

/// Normal data around `mean` (about one in sixteen a NaN with `nans`), stored in `type`.
TestTensor normal(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed, double mean,
                  bool nans = false) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    std::normal_distribution<double> dist(mean, 1.0);
    for (uint64_t i = 0; i < t.count(); ++i)
        t.set_double(i, nans && rng() % 16 == 0 ? std::nan("") : dist(rng));
    return t;
}

}  // namespace

TEST_CASE("SPEC §6 VARIANCE and STANDARD_DEVIATION examples, exact, for every float type",
          "[gpu][reduce][variance][spec]") {
    vkdml::Device& dev = test_device();
    // [[1, 2, 3, 4], [2, 4, 6, 8], [5, 5, 5, 5]]: M2 = 5, 20 and 0 along axis 1.
    const std::vector<double> values = {1, 2, 3, 4, 2, 4, 6, 8, 5, 5, 5, 5};
    for (DML_TENSOR_DATA_TYPE type : {kF16, kF32, kF64}) {
        INFO(vkdml::to_string(type));
        if (!dev.supports(DML_OPERATOR_REDUCE, type).supported) continue;
        TestTensor x = make_packed(type, {3, 4});
        for (uint64_t i = 0; i < values.size(); ++i) x.set_double(i, values[i]);
        const vkdml::ops::TensorDesc input{type, {3, 4}};
        const auto var = built(vkdml::ops::reduce(input, kVar, {1}));
        const auto sd = built(vkdml::ops::reduce(input, kStd, {1}));
        CHECK(run(dev, var, x) == std::vector<double>{rounded(type, 1.25L), rounded(type, 5.0L), 0.0});
        CHECK(run(dev, var, x, 1) ==
              std::vector<double>{rounded(type, 5.0L / 3), rounded(type, 20.0L / 3), 0.0});
        CHECK(run(dev, sd, x) ==
              std::vector<double>{rounded(type, std::sqrt(1.25L)), rounded(type, std::sqrt(5.0L)), 0.0});
        CHECK(run(dev, sd, x, 1) == std::vector<double>{rounded(type, std::sqrt(5.0L / 3)),
                                                        rounded(type, std::sqrt(20.0L / 3)), 0.0});
        // Along axis 0: columns [1, 2, 5], [2, 4, 5], [3, 6, 5], [4, 8, 5]; M2 = 26/3, 14/3, 14/3, 26/3.
        const auto cols = built(vkdml::ops::reduce(input, kVar, {0}));
        CHECK(run(dev, cols, x, 1) == std::vector<double>{rounded(type, 13.0L / 3), rounded(type, 7.0L / 3),
                                                          rounded(type, 7.0L / 3), rounded(type, 13.0L / 3)});
        // Both axes: mean 50/12, M2 = 250 - 2500/12 = 125/3.
        const auto all = built(vkdml::ops::reduce(input, kVar, {0, 1}));
        CHECK(run(dev, all, x) == std::vector<double>{rounded(type, 125.0L / 36)});
        // N <= correction divides by 0: +inf, or NaN for the constant row (0 / 0), as NumPy.
        const auto at_n = run(dev, var, x, 4);
        CHECK(at_n[0] == INFINITY);
        CHECK(at_n[1] == INFINITY);
        CHECK(std::isnan(at_n[2]));
        CHECK(run(dev, var, x, 9)[1] == INFINITY);
        // AxisCount 0: each element alone, M2 = 0: 0, and 0 / 0 with correction 1.
        const auto none = built(vkdml::ops::reduce(input, kStd, std::span<const uint32_t>()));
        CHECK(run(dev, none, x) == std::vector<double>(12, 0.0));
        for (double v : run(dev, none, x, 1)) CHECK(std::isnan(v));
    }
    require_no_validation_messages();
}

TEST_CASE("VARIANCE and STANDARD_DEVIATION are accurate on every float type, both families",
          "[gpu][reduce][variance][families]") {
    std::string configuration;
    const auto dev = make_family_test_device(GENERATE(0, 1), &configuration);
    INFO(configuration);
    for (DML_TENSOR_DATA_TYPE type : {kF16, kF32, kF64}) {
        if (!dev->supports(DML_OPERATOR_REDUCE, type).supported) continue;
        INFO(vkdml::to_string(type));
        // A line of several chunks (partial states between passes), rows, columns and a middle axis.
        check_against_reference(*dev, normal(type, {300007}, 1, 3.0), 0, 0);
        check_against_reference(*dev, normal(type, {37, 1001}, 2, -2.0), 1, 1);
        check_against_reference(*dev, normal(type, {1001, 37}, 3, 0.5), 0, 0);
        check_against_reference(*dev, normal(type, {9, 257, 5}, 4, 10.0), 1, 2);
        // A large mean: 1e8 + N(0, 1) (FLOAT16: 1000 + N(0, 1)). FLOAT32 holds it in steps of 8, FLOAT64
        // exactly; the shifted sums keep every digit of the spread.
        const double big = type == kF16 ? 1000.0 : 1e8;
        check_against_reference(*dev, normal(type, {200003}, 5, big), 0, 0);
        check_against_reference(*dev, normal(type, {64, 999}, 6, big), 1, 1);
        check_against_reference(*dev, normal(type, {999, 64}, 7, -big), 0, 0);
    }
    // FLOAT32 1e4 + N(0, 1): stored in steps of 2^-10, where a plain sum of squares would cancel 8 digits.
    check_against_reference(*dev, normal(kF32, {100003}, 8, 1e4), 0, 1);
    require_no_validation_messages();
}

TEST_CASE("VARIANCE: the same bits on both families and policy rows, strided views and several axes",
          "[gpu][reduce][variance][families]") {
    using PC = vkdml::testing::DeviceOverrides::PolicyClass;
    const auto serial = make_test_device(vkdml::KernelChoice::serial, PC::cpu);
    const auto coop = make_test_device(vkdml::KernelChoice::cooperative, PC::gpu);
    for (DML_TENSOR_DATA_TYPE type : {kF32, kF64}) {
        INFO(vkdml::to_string(type));
        const TestTensor x = normal(type, {3, 70001}, 9, 7.0);
        for (DML_REDUCE_FUNCTION f : {kVar, kStd})
            for (const std::vector<uint32_t>& axes : {std::vector<uint32_t>{1}, {0}, {0, 1}}) {
                INFO(vkdml::to_string(f) << " axes " << axes.size());
                const auto op = built(vkdml::ops::reduce(vkdml::ops::TensorDesc{type, {3, 70001}}, f, axes));
                const auto a = run(*serial, op, x, 1);
                const auto b = run(*coop, op, x, 1);
                REQUIRE(a.size() == b.size());
                for (size_t i = 0; i < a.size(); ++i) CHECK(std::memcmp(&a[i], &b[i], sizeof(double)) == 0);
            }
    }
    // A strided view: every other element of [40, 2·300] along axis 1, against its packed copy.
    vkdml::Device& dev = test_device();
    TestTensor wide = normal(kF32, {40, 600}, 10, -3.0);
    TestTensor packed = make_packed(kF32, {40, 300});
    for (uint64_t r = 0; r < 40; ++r)
        for (uint64_t c = 0; c < 300; ++c) packed.set_double(r * 300 + c, wide.get_double(r * 600 + 2 * c));
    vkdml::ops::TensorDesc view{kF32, {40, 300}};
    view.strides = {600, 2};
    const auto strided = run(dev, built(vkdml::ops::reduce(view, kVar, {1})), wide);
    const auto dense =
        run(dev, built(vkdml::ops::reduce(vkdml::ops::TensorDesc{kF32, {40, 300}}, kVar, {1})), packed);
    CHECK(strided == dense);
    require_no_validation_messages();
}

TEST_CASE("VARIANCE and STANDARD_DEVIATION: NaN and infinities, NanMode::ignore as nanvar and nanstd",
          "[gpu][reduce][variance][nan]") {
    vkdml::Device& dev = test_device();
    for (DML_TENSOR_DATA_TYPE type : {kF32, kF64}) {
        INFO(vkdml::to_string(type));
        // Rows with NaN, long enough to cross chunks; numpy's nanvar over the numbers.
        check_against_reference(dev, normal(type, {5, 20011}, 11, 2.0, true), 1, 1, NanMode::ignore);
        check_against_reference(dev, normal(type, {20011, 5}, 12, 2.0, true), 0, 0, NanMode::ignore);
        // [[NaN, 1, 2, 3], [NaN x 4], [inf, 1, 1, 1], [1, 2, NaN, 3]].
        const double nan = std::nan(""), inf = INFINITY;
        const std::vector<double> values = {nan, 1, 2, 3, nan, nan, nan, nan, inf, 1, 1, 1, 1, 2, nan, 3};
        TestTensor x = make_packed(type, {4, 4});
        for (uint64_t i = 0; i < values.size(); ++i) x.set_double(i, values[i]);
        const auto var = built(vkdml::ops::reduce(vkdml::ops::TensorDesc{type, {4, 4}}, kVar, {1}));
        const auto propagate = run(dev, var, x);
        for (double v : propagate) CHECK(std::isnan(v));  // a NaN or an infinity in every row
        const auto ignore = run(dev, var, x, 0, NanMode::ignore);
        CHECK(ignore[0] == rounded(type, 2.0L / 3));
        CHECK(std::isnan(ignore[1]));  // no number: NaN, as nanvar
        CHECK(std::isnan(ignore[2]));  // inf - inf
        CHECK(ignore[3] == rounded(type, 2.0L / 3));
        const auto sample = run(dev, var, x, 1, NanMode::ignore);
        CHECK(sample[0] == 1.0);
        CHECK(sample[3] == 1.0);
        // A NaN first element (the fold's shift is the first number, not the NaN) on a large mean.
        TestTensor shifted = normal(type, {2, 5000}, 13, 1e6, true);
        shifted.set_double(0, nan);
        shifted.set_double(5000, nan);
        check_against_reference(dev, shifted, 1, 0, NanMode::ignore);
        // Finite data whose sums overflow: +inf, as NumPy's sum of squares, never inf - inf = NaN. Rows:
        // squares past the range, a deviation past it ([big, -big]: x - k overflows too), a NaN between
        // (left out with NanMode::ignore), an infinity (NaN still); then long rows across chunks, whose
        // merges overflow (the two families and policy rows run this in CI).
        const double huge = type == kF64 ? 1e200 : 3e38, large = type == kF64 ? 1e154 : 1.5e19;
        const std::vector<double> edge = {large, -large, large, -large, huge, -huge, huge, -huge,
                                          huge,  nan,    -huge, 1.0,    inf,  1.0,   -1.0, 1.0};
        TestTensor e = make_packed(type, {4, 4});
        for (uint64_t i = 0; i < edge.size(); ++i) e.set_double(i, edge[i]);
        const auto sd = built(vkdml::ops::reduce(vkdml::ops::TensorDesc{type, {4, 4}}, kStd, {1}));
        for (const auto& op : {var, sd}) {
            const auto got = run(dev, op, e);
            CHECK(got[0] == inf);
            CHECK(got[1] == inf);
            CHECK(std::isnan(got[2]));
            CHECK(std::isnan(got[3]));
            const auto skipped = run(dev, op, e, 0, NanMode::ignore);
            CHECK(skipped[2] == inf);
            CHECK(std::isnan(skipped[3]));
        }
        TestTensor wide = normal(type, {3, 100003}, 14, 0.0);
        for (uint64_t i = 0; i < wide.count(); ++i) wide.set_double(i, wide.get_double(i) * large);
        wide.set_double(100003 + 70001, inf);
        const auto rows =
            run(dev, built(vkdml::ops::reduce(vkdml::ops::TensorDesc{type, {3, 100003}}, kVar, {1})), wide);
        CHECK(rows[0] == inf);
        CHECK(std::isnan(rows[1]));
        CHECK(rows[2] == inf);
    }
    require_no_validation_messages();
}

TEST_CASE("VARIANCE and STANDARD_DEVIATION refusals name what is wrong",
          "[gpu][reduce][variance][validation]") {
    vkdml::Device& dev = test_device();
    // Integer input: float types only.
    for (DML_REDUCE_FUNCTION f : {kVar, kStd}) {
        const auto op =
            built(vkdml::ops::reduce(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_INT32, {4}}, f, {0}));
        auto r = dev.create_operator(op.desc());
        REQUIRE_FALSE(r);
        CHECK(r.error().code == vkdml::ErrorCode::unsupported_type);
        CHECK(r.error().message == std::string("REDUCE: InputTensor.DataType is INT32 but ") +
                                       vkdml::to_string(f) +
                                       " takes FLOAT16, FLOAT32 or FLOAT64 only (SPEC §4)");
    }
    // An output type of its own: the input's only.
    auto r = vkdml::ops::reduce(vkdml::ops::TensorDesc{kF32, {4}}, kVar, {0}, kF64);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::unsupported_type);
    // A correction for another function or operator.
    vkdml::OperatorOptions options;
    options.correction = 1;
    const auto sum =
        built(vkdml::ops::reduce(vkdml::ops::TensorDesc{kF32, {4}}, DML_REDUCE_FUNCTION_SUM, {0}));
    auto refused = dev.create_operator(sum.desc(), options);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(
        refused.error().message ==
        "REDUCE: OperatorOptions::correction is 1 but Function is SUM (only VARIANCE and STANDARD_DEVIATION "
        "take a correction; it must be 0 here)");
    const auto scan = built(vkdml::ops::cumulative_sum(vkdml::ops::TensorDesc{kF32, {4}}, 0));
    refused = dev.create_operator(scan.desc(), options);
    REQUIRE_FALSE(refused);
    CHECK(
        refused.error().message ==
        "CUMULATIVE_SUMMATION: OperatorOptions::correction is 1 (only VARIANCE and STANDARD_DEVIATION take a "
        "correction; it must be 0 here)");
    // The names.
    CHECK(std::string(vkdml::to_string(kVar)) == "VARIANCE");
    CHECK(std::string(vkdml::to_string(kStd)) == "STANDARD_DEVIATION");
}
