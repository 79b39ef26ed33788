// NanMode::ignore on the sums and products (SPEC §3 NaN): REDUCE's SUM, L1, SUM_SQUARE, L2, MULTIPLY,
// LOG_SUM and LOG_SUM_EXP and both cumulative operators read a NaN element as their identity (0; 1 for
// products; -inf for LOG_SUM_EXP), as numpy's nansum, nanprod, nancumsum and nancumprod do. Each result
// is checked bit for bit against the same operator in NanMode::propagate on the data with its NaNs
// replaced by that identity on the host: the leaves are the same, so is the association. Every float
// type (1-D lines of several chunks; float32 also rows and columns), both kernel families (the GPU rows
// with the cooperative kernels: the tree reduction and the chained scan), exclusive and reversed scans;
// AVERAGE (numpy's nanmean) as that SUM over the count of numbers, rounded once; integers (no NaN) as in
// propagate; all-NaN lines.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
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

/// `x` of `type` and `sizes`: normal values, about one in eight a NaN, a few ±inf where `inf`.
TestTensor noisy(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed, bool product) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> near_one(0.99, 1.01);
    for (uint64_t i = 0; i < t.count(); ++i) {
        const uint32_t pick = rng() % 64;
        const double v = pick < 8 ? std::nan("") : (product ? near_one(rng) : normal(rng));
        t.set_double(i, v);
    }
    return t;
}

/// `x` with each NaN replaced by `identity`.
TestTensor replaced(const TestTensor& x, double identity) {
    TestTensor t = x;
    for (uint64_t i = 0; i < t.count(); ++i)
        if (std::isnan(t.get_double(i))) t.set_double(i, identity);
    return t;
}

std::vector<std::byte> run(const vkdml::Device& dev, const vkdml::ops::Operation& op, const TestTensor& in,
                           NanMode mode) {
    vkdml::OperatorOptions options;
    options.nan_mode = mode;
    std::vector<std::byte> out(op.output_bytes());
    const std::span<const std::byte> inputs[] = {in.bytes};
    const std::span<std::byte> outputs[] = {out};
    const vkdml::Status st =
        vkdml::execute(dev, op.desc(), inputs, outputs, DML_EXECUTION_FLAG_NONE, options);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    return out;
}

vkdml::ops::Operation built(vkdml::Result<vkdml::ops::Operation> r) {
    REQUIRE(r);
    return *r;
}

struct Shape {
    std::vector<uint32_t> sizes;
    uint32_t axis;
};

const Shape kShapes[] = {{{5001}, 0}, {{7, 600}, 1}, {{600, 7}, 0}};

/// The values of a float32 or float64 output.
std::vector<double> values_of(DML_TENSOR_DATA_TYPE type, const std::vector<std::byte>& b) {
    std::vector<double> v;
    for (size_t at = 0; at < b.size(); at += type == DML_TENSOR_DATA_TYPE_FLOAT32 ? 4 : 8) {
        if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
            float f;
            std::memcpy(&f, b.data() + at, 4);
            v.push_back(f);
        } else {
            double d;
            std::memcpy(&d, b.data() + at, 8);
            v.push_back(d);
        }
    }
    return v;
}

/// AVERAGE with NanMode::ignore (numpy's nanmean): each output is the SUM with NanMode::ignore divided
/// by the count of numbers, rounded once in the output type, bit for bit.
void check_average(const vkdml::Device& dev, DML_TENSOR_DATA_TYPE type, const Shape& shape) {
    INFO("AVERAGE");
    const TestTensor x = noisy(type, shape.sizes, 23, false);
    const vkdml::ops::TensorDesc input{type, shape.sizes};
    const auto sum =
        values_of(type, run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_SUM, {shape.axis})), x,
                            NanMode::ignore));
    const auto average =
        values_of(type, run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_AVERAGE, {shape.axis})),
                            x, NanMode::ignore));
    // Row-major [rows, cols]: an output per column (axis 0) or per row (axis 1 and 1-D).
    const uint64_t cols = shape.sizes.back(), rows = x.count() / cols;
    std::vector<double> count(sum.size(), 0.0);
    for (uint64_t i = 0; i < x.count(); ++i)
        if (!std::isnan(x.get_double(i))) count[shape.axis == 0 && rows > 1 ? i % cols : i / cols] += 1;
    REQUIRE(average.size() == sum.size());
    for (size_t o = 0; o < sum.size(); ++o) {
        const double expected = type == DML_TENSOR_DATA_TYPE_FLOAT32
                                    ? double(static_cast<float>(sum[o]) / static_cast<float>(count[o]))
                                    : sum[o] / count[o];
        CHECK(average[o] == expected);
    }
}

}  // namespace

TEST_CASE("NanMode::ignore reads NaN as the identity in sums, products and scans, bit for bit",
          "[gpu][nan][families]") {
    std::string configuration;
    const auto dev = make_family_test_device(GENERATE(0, 1), &configuration);
    INFO(configuration);
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        for (const Shape& shape : kShapes) {
            if (type != DML_TENSOR_DATA_TYPE_FLOAT32 && shape.sizes.size() > 1) continue;  // (time: 1-D only)
            INFO(vkdml::to_string(type) << " " << shape.sizes.size() << "-D, axis " << shape.axis);
            const vkdml::ops::TensorDesc input{type, shape.sizes};
            for (DML_REDUCE_FUNCTION f :
                 {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_L1, DML_REDUCE_FUNCTION_SUM_SQUARE,
                  DML_REDUCE_FUNCTION_L2, DML_REDUCE_FUNCTION_MULTIPLY, DML_REDUCE_FUNCTION_LOG_SUM,
                  DML_REDUCE_FUNCTION_LOG_SUM_EXP}) {
                INFO(vkdml::to_string(f));
                const bool product = f == DML_REDUCE_FUNCTION_MULTIPLY;
                const double identity =
                    product ? 1.0 : (f == DML_REDUCE_FUNCTION_LOG_SUM_EXP ? -INFINITY : 0.0);
                TestTensor x = noisy(type, shape.sizes, 11 + f, product);
                if (f == DML_REDUCE_FUNCTION_LOG_SUM)  // LOG_SUM of positive sums
                    for (uint64_t i = 0; i < x.count(); ++i)
                        if (!std::isnan(x.get_double(i))) x.set_double(i, std::fabs(x.get_double(i)));
                const auto op = built(vkdml::ops::reduce(input, f, {shape.axis}));
                CHECK(run(*dev, op, x, NanMode::ignore) ==
                      run(*dev, op, replaced(x, identity), NanMode::propagate));
            }
            if (type != DML_TENSOR_DATA_TYPE_FLOAT16) check_average(*dev, type, shape);
            // A line of several chunks: the counts travel through the partial states between passes.
            if (type == DML_TENSOR_DATA_TYPE_FLOAT32 && shape.sizes.size() == 1)
                check_average(*dev, type, {{300007}, 0});
            for (const bool product : {false, true})
                for (const bool exclusive : {false, true}) {
                    const DML_AXIS_DIRECTION dir =
                        exclusive ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
                    INFO((product ? "cumprod" : "cumsum") << (exclusive ? ", exclusive, reversed" : ""));
                    const auto op =
                        built(product ? vkdml::ops::cumulative_product(input, shape.axis, dir, exclusive)
                                      : vkdml::ops::cumulative_sum(input, shape.axis, dir, exclusive));
                    const TestTensor x = noisy(type, shape.sizes, 5 + product, product);
                    CHECK(run(*dev, op, x, NanMode::ignore) ==
                          run(*dev, op, replaced(x, product ? 1.0 : 0.0), NanMode::propagate));
                }
        }
    }
    require_no_validation_messages();
}

TEST_CASE("NanMode::ignore: all-NaN lines, infinities that still make NaN, counted averages, integers",
          "[gpu][nan]") {
    vkdml::Device& dev = test_device();
    const float nan = std::nanf(""), inf = INFINITY;
    // [2, 4]: a line of NaN only, and one where +inf and -inf meet (their sum stays NaN, as in numpy).
    TestTensor x = make_packed(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 4});
    const float values[] = {nan, nan, nan, nan, inf, nan, -inf, 2.0f};
    for (uint64_t i = 0; i < 8; ++i) x.set_double(i, values[i]);
    const vkdml::ops::TensorDesc input{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 4}};
    const auto floats = [](const std::vector<std::byte>& b) {
        std::vector<float> v(b.size() / 4);
        std::memcpy(v.data(), b.data(), b.size());
        return v;
    };
    const auto sum =
        floats(run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_SUM, {1})), x, NanMode::ignore));
    CHECK(sum[0] == 0.0f);
    CHECK_FALSE(std::signbit(sum[0]));  // numpy's nansum of NaN only: +0
    CHECK(std::isnan(sum[1]));
    const auto prod = floats(
        run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_MULTIPLY, {1})), x, NanMode::ignore));
    CHECK(prod[0] == 1.0f);
    CHECK(prod[1] == -inf);  // inf * 1 * -inf * 2
    const auto scan = floats(run(dev, built(vkdml::ops::cumulative_sum(input, 1)), x, NanMode::ignore));
    const std::vector<float> first = {0.0f, 0.0f, 0.0f, 0.0f};
    CHECK(std::vector<float>(scan.begin(), scan.begin() + 4) == first);
    CHECK(scan[4] == inf);
    CHECK(scan[5] == inf);
    CHECK(std::isnan(scan[6]));
    CHECK(std::isnan(scan[7]));
    const auto lse = floats(
        run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1})), x, NanMode::ignore));
    CHECK(lse[0] == -inf);

    // Integers hold no NaN: the same as propagate.
    TestTensor ints = make_packed(DML_TENSOR_DATA_TYPE_INT32, {300});
    for (uint64_t i = 0; i < 300; ++i) ints.set_int(i, int64_t(i % 17) - 8);
    const auto isum = built(vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT32, {300}}, 0));
    CHECK(run(dev, isum, ints, NanMode::ignore) == run(dev, isum, ints, NanMode::propagate));

    // AVERAGE of NaN only: 0 / 0, NaN (numpy's nanmean); of [inf, NaN, -inf, 2]: NaN (inf - inf).
    const auto average = floats(
        run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_AVERAGE, {1})), x, NanMode::ignore));
    CHECK(std::isnan(average[0]));
    CHECK(std::isnan(average[1]));
    TestTensor y = make_packed(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 4});
    const float more[] = {1.0f, nan, 2.0f, nan, nan, nan, nan, 8.0f};
    for (uint64_t i = 0; i < 8; ++i) y.set_double(i, more[i]);
    const auto means = floats(
        run(dev, built(vkdml::ops::reduce(input, DML_REDUCE_FUNCTION_AVERAGE, {1})), y, NanMode::ignore));
    CHECK(means == std::vector<float>{1.5f, 8.0f});
    require_no_validation_messages();
}
