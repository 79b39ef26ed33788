// REDUCE's VKDML_REDUCE_FUNCTION_ANY, ALL and COUNT_NONZERO (SPEC §3, vkdml's functions): the SPEC example
// on every type and count type, exact; float zeros, NaN and infinities, and NanMode::ignore; random data
// against a host count over rows, columns, several axes and lines of several chunks, on both kernel
// families and through small windows; the bytes around ANY's and ALL's one-byte outputs (written by
// word atomics) kept; and the refusals by message.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
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

constexpr DML_REDUCE_FUNCTION kAny = VKDML_REDUCE_FUNCTION_ANY;
constexpr DML_REDUCE_FUNCTION kAll = VKDML_REDUCE_FUNCTION_ALL;
constexpr DML_REDUCE_FUNCTION kCount = VKDML_REDUCE_FUNCTION_COUNT_NONZERO;

/// ANY, ALL or COUNT_NONZERO of `in`: the output's values.
std::vector<uint64_t> run(const vkdml::Device& dev, const vkdml::ops::Operation& op, const TestTensor& in,
                          NanMode mode = NanMode::propagate) {
    vkdml::OperatorOptions options;
    options.nan_mode = mode;
    const TestTensor out = run_operation(dev, op, in, options);
    std::vector<uint64_t> v(out.count());
    for (uint64_t i = 0; i < out.count(); ++i) v[i] = out.get_bits(i);
    return v;
}

/// The host's ANY, ALL and COUNT_NONZERO of `x` (row-major [outer, n, inner]) over the middle axis.
std::vector<uint64_t> expected(DML_REDUCE_FUNCTION f, const TestTensor& x, uint64_t outer, uint64_t n,
                               uint64_t inner, bool skip_nan = false) {
    std::vector<uint64_t> r;
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t k = 0; k < inner; ++k) {
            uint64_t count = 0, numbers = 0;
            for (uint64_t j = 0; j < n; ++j) {
                const uint64_t at = (o * n + j) * inner + k;
                const bool nan = is_float_type(x.type) && std::isnan(x.get_double(at));
                if (nan && skip_nan) continue;
                ++numbers;
                if (is_float_type(x.type) ? x.get_double(at) != 0 : x.get_bits(at) != 0) ++count;
            }
            r.push_back(f == kCount ? count : f == kAny ? count > 0 : count == numbers);
        }
    return r;
}

/// Mostly zeros, a few ones and other values (and, for floats, -0 and an occasional NaN with `nans`).
TestTensor sparse(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed,
                  uint32_t one_in, bool nans = false) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    for (uint64_t i = 0; i < t.count(); ++i) {
        const auto pick = static_cast<uint32_t>(rng() % one_in);
        double v = pick == 0 ? 1.0 + static_cast<double>(rng() % 5) : 0.0;
        if (is_float_type(type) && pick == 1) v = -0.0;
        if (is_float_type(type) && nans && pick == 2) v = std::nan("");
        t.set_double(i, v);
    }
    return t;
}

}  // namespace

TEST_CASE("SPEC §6 ANY, ALL and COUNT_NONZERO examples for every type and count type",
          "[gpu][reduce][logical][spec]") {
    vkdml::Device& dev = test_device();
    // [[0, 2, 0], [3, 1, 4], [0, 0, 0]]
    const std::vector<double> values = {0, 2, 0, 3, 1, 4, 0, 0, 0};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (!dev.supports(DML_OPERATOR_REDUCE, type).supported) continue;
        INFO(vkdml::to_string(type));
        TestTensor x = make_packed(type, {3, 3});
        for (uint64_t i = 0; i < values.size(); ++i) x.set_double(i, values[i]);
        const vkdml::ops::TensorDesc input{type, {3, 3}};
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAny, {1})), x) == std::vector<uint64_t>{1, 1, 0});
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAll, {1})), x) == std::vector<uint64_t>{0, 1, 0});
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAny, {0})), x) == std::vector<uint64_t>{1, 1, 1});
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAll, {0})), x) == std::vector<uint64_t>{0, 0, 0});
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAny, {0, 1})), x) == std::vector<uint64_t>{1});
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAll, {0, 1})), x) == std::vector<uint64_t>{0});
        for (DML_TENSOR_DATA_TYPE count_type : {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64,
                                                DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT64}) {
            if (!dev.supports(DML_OPERATOR_REDUCE, count_type).supported) continue;
            INFO("counts as " << vkdml::to_string(count_type));
            CHECK(run(dev, built(vkdml::ops::reduce(input, kCount, {1}, count_type)), x) ==
                  std::vector<uint64_t>{1, 3, 0});
            CHECK(run(dev, built(vkdml::ops::reduce(input, kCount, {0}, count_type)), x) ==
                  std::vector<uint64_t>{1, 2, 1});
            CHECK(run(dev, built(vkdml::ops::reduce(input, kCount, {1, 0}, count_type)), x) ==
                  std::vector<uint64_t>{4});
        }
        // AxisCount 0: each element alone.
        CHECK(run(dev, built(vkdml::ops::reduce(input, kAll, std::span<const uint32_t>())), x) ==
              std::vector<uint64_t>{0, 1, 0, 1, 1, 1, 0, 0, 0});
    }
    CHECK(built(vkdml::ops::reduce(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {3}}, kAny, {0}))
              .output()
              .data_type == DML_TENSOR_DATA_TYPE_UINT8);
    CHECK(built(vkdml::ops::reduce(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_INT8, {3}}, kCount, {0}))
              .output()
              .data_type == DML_TENSOR_DATA_TYPE_INT64);
    require_no_validation_messages();
}

TEST_CASE("ANY, ALL and COUNT_NONZERO: -0 is 0, NaN and infinities are not; NanMode::ignore skips NaN",
          "[gpu][reduce][logical][nan]") {
    vkdml::Device& dev = test_device();
    const double nan = std::nan(""), inf = INFINITY;
    // Rows: [-0, 0, 0], [NaN, 0, 0], [inf, -inf, 1], [NaN, NaN, 2], [NaN, NaN, NaN], and the least
    // subnormal of each type (not 0, though a device may flush it in a comparison: told by its bits).
    const std::vector<double> values = {-0.0, 0, 0, nan, 0, 0, inf, -inf, 1, nan, nan, 2, nan, nan, nan};
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        if (!dev.supports(DML_OPERATOR_REDUCE, type).supported) continue;
        INFO(vkdml::to_string(type));
        TestTensor x = make_packed(type, {5, 3});
        for (uint64_t i = 0; i < values.size(); ++i) x.set_double(i, values[i]);
        const vkdml::ops::TensorDesc input{type, {5, 3}};
        const auto any = built(vkdml::ops::reduce(input, kAny, {1}));
        const auto all = built(vkdml::ops::reduce(input, kAll, {1}));
        const auto count = built(vkdml::ops::reduce(input, kCount, {1}));
        CHECK(run(dev, any, x) == std::vector<uint64_t>{0, 1, 1, 1, 1});
        CHECK(run(dev, all, x) == std::vector<uint64_t>{0, 0, 1, 1, 1});
        CHECK(run(dev, count, x) == std::vector<uint64_t>{0, 1, 3, 3, 3});
        // Ignored, a NaN is no element: a row of NaN only has none (ANY 0, ALL 1, as of an empty row).
        CHECK(run(dev, any, x, NanMode::ignore) == std::vector<uint64_t>{0, 0, 1, 1, 0});
        CHECK(run(dev, all, x, NanMode::ignore) == std::vector<uint64_t>{0, 0, 1, 1, 1});
        CHECK(run(dev, count, x, NanMode::ignore) == std::vector<uint64_t>{0, 0, 3, 1, 0});
        TestTensor tiny = make_packed(type, {1, 2});
        tiny.set_bits(0, 1);  // the least positive subnormal
        tiny.set_bits(1, 0);
        const vkdml::ops::TensorDesc pair{type, {1, 2}};
        CHECK(run(dev, built(vkdml::ops::reduce(pair, kCount, {1})), tiny) == std::vector<uint64_t>{1});
        CHECK(run(dev, built(vkdml::ops::reduce(pair, kAny, {1})), tiny) == std::vector<uint64_t>{1});
    }
    require_no_validation_messages();
}

TEST_CASE("ANY, ALL and COUNT_NONZERO against a host count, both families, windows",
          "[gpu][reduce][logical][families]") {
    const int config = GENERATE(0, 1, 2);
    std::string configuration;
    const auto dev = make_family_test_device(config, &configuration);
    INFO(configuration);
    const AxisShape shapes[] = {
        {{200003}, 0}, {{37, 1001}, 1}, {{1001, 37}, 0}, {{9, 257, 5}, 1}, {{70001, 3}, 1}};
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT16,
          DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        if (!dev->supports(DML_OPERATOR_REDUCE, type).supported) continue;
        for (const AxisShape& s : shapes) {
            INFO(vkdml::to_string(type) << " " << s.sizes.size() << "-D, axis " << s.axis);
            const uint64_t n = s.length();
            // One in 3 (every line has a nonzero), one in n/2 (some lines do not) and all nonzero.
            for (uint32_t one_in : {3u, static_cast<uint32_t>(n / 2 + 1), 1u}) {
                const TestTensor x = sparse(type, s.sizes, one_in + s.axis, one_in);
                const vkdml::ops::TensorDesc input{type, s.sizes};
                for (DML_REDUCE_FUNCTION f : {kAny, kAll, kCount}) {
                    INFO(vkdml::to_string(f) << ", one in " << one_in);
                    CHECK(run(*dev, built(vkdml::ops::reduce(input, f, {s.axis})), x) ==
                          expected(f, x, s.outer(), n, s.inner()));
                }
            }
        }
    }
    // NaN ignored on a long line and on columns.
    const TestTensor x = sparse(DML_TENSOR_DATA_TYPE_FLOAT32, {1001, 37}, 9, 4, true);
    for (DML_REDUCE_FUNCTION f : {kAny, kAll, kCount})
        CHECK(run(*dev,
                  built(vkdml::ops::reduce(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {1001, 37}},
                                           f, {0})),
                  x, NanMode::ignore) == expected(f, x, 1, 1001, 37, true));
    require_no_validation_messages();
}

TEST_CASE("ANY and ALL write their bytes alone: the bytes between and after strided outputs are kept",
          "[gpu][reduce][logical]") {
    vkdml::Device& dev = test_device();
    // [11, 4] reduced along axis 1 into a UINT8 output with stride 3: 33 bytes, 22 of them padding.
    const uint32_t in_sizes[] = {11, 4}, out_sizes[] = {11, 1}, out_strides[] = {3, 1};
    const DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_INT32,
                                    DML_TENSOR_FLAG_NONE,
                                    2,
                                    in_sizes,
                                    nullptr,
                                    DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT32, 2, in_sizes, nullptr),
                                    0};
    const DML_BUFFER_TENSOR_DESC out{
        DML_TENSOR_DATA_TYPE_UINT8,
        DML_TENSOR_FLAG_NONE,
        2,
        out_sizes,
        out_strides,
        DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT8, 2, out_sizes, out_strides),
        0};
    const DML_TENSOR_DESC tin{DML_TENSOR_TYPE_BUFFER, &in}, tout{DML_TENSOR_TYPE_BUFFER, &out};
    const uint32_t axes[] = {1};
    std::vector<int32_t> x(44, 0);
    for (int r = 0; r < 11; ++r)
        for (int c = 0; c < 4; ++c) x[r * 4 + c] = (r % 3 == 0) ? 0 : (r % 3 == 1 ? c : c + 1);
    for (DML_REDUCE_FUNCTION f : {kAny, kAll}) {
        INFO(vkdml::to_string(f));
        const DML_REDUCE_OPERATOR_DESC r{f, &tin, &tout, 1, axes};
        const DML_OPERATOR_DESC desc{DML_OPERATOR_REDUCE, &r};
        std::vector<std::byte> bytes(out.TotalTensorSizeInBytes, std::byte{0xA5});
        const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
        const std::span<std::byte> outputs[] = {bytes};
        REQUIRE(vkdml::execute(dev, desc, inputs, outputs));
        REQUIRE(bytes.size() == 32);  // DMLCalcBufferTensorSize: 31 bytes, rounded to 32
        for (size_t i = 0; i < bytes.size(); ++i) {
            INFO("byte " << i);
            const int row = static_cast<int>(i / 3);
            if (i % 3 != 0 || row >= 11) {
                CHECK(bytes[i] == std::byte{0xA5});
                continue;
            }
            // Rows r % 3 == 0: all 0; == 1: [0, 1, 2, 3]; == 2: [1, 2, 3, 4].
            const int want = f == kAny ? (row % 3 != 0) : (row % 3 == 2);
            CHECK(static_cast<int>(bytes[i]) == want);
        }
    }
    require_no_validation_messages();
}

TEST_CASE("ANY, ALL and COUNT_NONZERO refusals name what is wrong", "[gpu][reduce][logical][validation]") {
    vkdml::Device& dev = test_device();
    const uint32_t sizes[] = {4}, one[] = {1}, axes[] = {0};
    const auto desc_of = [&](DML_TENSOR_DATA_TYPE in_type, DML_TENSOR_DATA_TYPE out_type,
                             const uint32_t* in_sizes) {
        struct Parts {
            DML_BUFFER_TENSOR_DESC in, out;
            DML_TENSOR_DESC tin, tout;
        };
        auto p = std::make_shared<Parts>();
        p->in = {in_type, DML_TENSOR_FLAG_NONE,
                 1,       in_sizes,
                 nullptr, DMLCalcBufferTensorSize(in_type, 1, in_sizes, nullptr),
                 0};
        p->out = {out_type, DML_TENSOR_FLAG_NONE,
                  1,        one,
                  nullptr,  DMLCalcBufferTensorSize(out_type, 1, one, nullptr),
                  0};
        p->tin = {DML_TENSOR_TYPE_BUFFER, &p->in};
        p->tout = {DML_TENSOR_TYPE_BUFFER, &p->out};
        return p;
    };
    const auto refused = [&](DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE out_type, const std::string& message,
                             const uint32_t* in_sizes = nullptr) {
        auto p = desc_of(DML_TENSOR_DATA_TYPE_FLOAT32, out_type, in_sizes ? in_sizes : sizes);
        const DML_REDUCE_OPERATOR_DESC r{f, &p->tin, &p->tout, 1, axes};
        auto made = dev.create_operator(DML_OPERATOR_DESC{DML_OPERATOR_REDUCE, &r});
        REQUIRE_FALSE(made);
        CHECK(made.error().code == vkdml::ErrorCode::unsupported_type);
        CHECK(made.error().message == message);
    };
    refused(kAny, DML_TENSOR_DATA_TYPE_FLOAT32,
            "REDUCE: OutputTensor.DataType is FLOAT32 but ANY writes UINT8 flags, 0 or 1 (SPEC §4)");
    refused(kAll, DML_TENSOR_DATA_TYPE_INT8,
            "REDUCE: OutputTensor.DataType is INT8 but ALL writes UINT8 flags, 0 or 1 (SPEC §4)");
    refused(kCount, DML_TENSOR_DATA_TYPE_UINT8,
            "REDUCE: OutputTensor.DataType is UINT8 but COUNT_NONZERO writes counts: INT32, INT64, UINT32 or "
            "UINT64 (SPEC §4)");
    const uint32_t huge[] = {0x80000000u};  // 2^31 elements: a count of 2^31 passes INT32
    refused(kCount, DML_TENSOR_DATA_TYPE_INT32,
            "REDUCE: OutputTensor.DataType is INT32 but the 2147483648 reduced elements may count up to "
            "2147483648, past INT32's 2147483647 (use INT64, UINT32 or UINT64)",
            huge);
    // The builder's own checks.
    const vkdml::ops::TensorDesc input{DML_TENSOR_DATA_TYPE_FLOAT32, {4}};
    auto r = vkdml::ops::reduce(input, kAll, {0}, DML_TENSOR_DATA_TYPE_FLOAT32);
    REQUIRE_FALSE(r);
    CHECK(r.error().message ==
          "vkdml::ops::reduce: output type FLOAT32 (1) but ALL writes UINT8 flags, 0 or 1");
    r = vkdml::ops::reduce(input, kCount, {0}, DML_TENSOR_DATA_TYPE_FLOAT64);
    REQUIRE_FALSE(r);
    CHECK(r.error().message ==
          "vkdml::ops::reduce: output type FLOAT64 (9) is not a count type: COUNT_NONZERO "
          "writes INT32, INT64, UINT32 or UINT64");
    CHECK(std::string(vkdml::to_string(kAny)) == "ANY");
    CHECK(std::string(vkdml::to_string(kAll)) == "ALL");
    CHECK(std::string(vkdml::to_string(kCount)) == "COUNT_NONZERO");
}
