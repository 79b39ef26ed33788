// The index output of vkdml's CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM (SPEC §3, OutputIndexTensor): the
// SPEC example, exact; random data full of ties against a host loop of PyTorch's rule (the last element
// in scan order equal to the running value, the last NaN) on every type and the four index types, rows,
// columns, a middle axis and long lines, exclusive and reversed, on both kernel families and through small
// windows; NaN in both modes; in place; strided index outputs; and the refusals by message.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "run_operation.hpp"
#include "selection_support.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/submission.hpp"

#include <cmath>
#include <cstring>
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

vkdml::ops::Operation operation(const vkdml::ops::TensorDesc& input, uint32_t axis, const Scan& s,
                                DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_INT64) {
    return built(
        s.maximum
            ? vkdml::ops::cumulative_maximum_with_indices(input, axis, s.direction, s.exclusive, index_type)
            : vkdml::ops::cumulative_minimum_with_indices(input, axis, s.direction, s.exclusive, index_type));
}

/// Whether element `a` of `x` and element `b` of `y` (both of one type) are the same number: integers by
/// their bits, floats by value (-0 equals +0).
bool same_number(const TestTensor& x, uint64_t a, const TestTensor& y, uint64_t b) {
    return is_float_type(x.type) ? x.get_double(a) == y.get_double(b) : x.get_bits(a) == y.get_bits(b);
}

/// PyTorch's cummax/cummin indices of x (row-major [outer, n, inner]) along the middle axis, as a loop:
/// an element takes the index when it is NaN or not beyond the running one (>= for the maximum), unless
/// NaN is running (or, with `skip_nan`, is the element); exclusive outputs take the index before their
/// element; -1 before any.
std::vector<int64_t> expected_indices(const TestTensor& x, uint64_t outer, uint64_t n, uint64_t inner,
                                      const Scan& s, bool skip_nan = false) {
    std::vector<int64_t> out(x.count(), -1);
    const bool fl = is_float_type(x.type);
    for (uint64_t o = 0; o < outer; ++o)
        for (uint64_t k = 0; k < inner; ++k) {
            int64_t index = -1;
            uint64_t run = 0;  // the element at `index`
            for (uint64_t step = 0; step < n; ++step) {
                const uint64_t j = s.direction == DML_AXIS_DIRECTION_INCREASING ? step : n - 1 - step;
                const uint64_t at = (o * n + j) * inner + k;
                if (s.exclusive) out[at] = index;
                bool take = index < 0;
                if (fl) {
                    const double v = x.get_double(at), r = x.get_double(run);
                    if (skip_nan && std::isnan(v))
                        take = false;
                    else if (!take)
                        take = std::isnan(v) || (!std::isnan(r) && (s.maximum ? v >= r : v <= r));
                } else if (!take) {
                    const uint64_t v = x.get_bits(at), r = x.get_bits(run);
                    take = s.maximum ? !less_in_type(x.type, v, r) : !less_in_type(x.type, r, v);
                }
                if (take) {
                    index = static_cast<int64_t>(j);
                    run = at;
                }
                if (!s.exclusive) out[at] = index;
            }
        }
    return out;
}

/// The index output read back as signed numbers (all bits set: -1).
std::vector<int64_t> indices_of(const TestTensor& t) {
    std::vector<int64_t> v(t.count());
    const bool wide = element_size(t.type) == 8;
    for (uint64_t i = 0; i < t.count(); ++i) {
        const uint64_t b = t.get_bits(i);
        v[i] = wide ? static_cast<int64_t>(b) : (b == 0xFFFFFFFFu ? -1 : static_cast<int64_t>(b));
    }
    return v;
}

/// Values of `type` with many ties: a few small numbers, now and then an extreme (floats: ±inf, ±0 and,
/// with `nans`, NaN).
TestTensor tied_data(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t seed,
                     bool nans = false) {
    TestTensor t = make_packed(type, sizes);
    std::mt19937 rng(seed);
    const uint32_t bits = element_size(type) * 8;
    for (uint64_t i = 0; i < t.count(); ++i) {
        const uint32_t pick = static_cast<uint32_t>(rng() % 1024);
        if (is_float_type(type)) {
            double v = static_cast<double>(static_cast<int>(rng() % 9) - 4);
            if (pick == 0) v = INFINITY;
            if (pick == 1) v = -INFINITY;
            if (pick < 64 && v == 0) v = -0.0;
            if (pick == 3 && nans) v = std::nan("");
            t.set_double(i, v);
        } else {
            uint64_t v = rng() % 9;
            if (pick == 0) v = bits == 64 ? ~uint64_t{0} >> 1 : (uint64_t{1} << (bits - 1)) - 1;
            if (pick == 1) v = uint64_t{1} << (bits - 1);
            if (pick == 2) v = ~uint64_t{0};
            if (pick == 3 && is_signed_integer_type(type)) v = ~uint64_t{0} - (rng() % 4);  // -1 .. -4
            t.set_bits(i, v);
        }
    }
    return t;
}

const Scan kScans[] = {{true},
                       {false},
                       {true, DML_AXIS_DIRECTION_DECREASING},
                       {false, DML_AXIS_DIRECTION_DECREASING},
                       {true, DML_AXIS_DIRECTION_INCREASING, true},
                       {false, DML_AXIS_DIRECTION_DECREASING, true}};

}  // namespace

TEST_CASE("SPEC §6 CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM index example", "[gpu][scan][selection][spec]") {
    vkdml::Device& dev = test_device();
    const std::vector<double> input = {2, 5, 1, 5, 3, 5, 7, 7};
    const double inf = INFINITY;
    struct Example {
        Scan scan;
        std::vector<double> values;
        std::vector<int64_t> indices;
    };
    const std::vector<Example> examples = {
        {{true}, {2, 5, 5, 5, 5, 5, 7, 7}, {0, 1, 1, 3, 3, 5, 6, 7}},
        {{false}, {2, 2, 1, 1, 1, 1, 1, 1}, {0, 0, 2, 2, 2, 2, 2, 2}},
        {{true, DML_AXIS_DIRECTION_INCREASING, true}, {-inf, 2, 5, 5, 5, 5, 5, 7}, {-1, 0, 1, 1, 3, 3, 5, 6}},
        {{true, DML_AXIS_DIRECTION_DECREASING}, {7, 7, 7, 7, 7, 7, 7, 7}, {6, 6, 6, 6, 6, 6, 6, 7}},
        {{false, DML_AXIS_DIRECTION_DECREASING, true}, {1, 1, 3, 3, 5, 7, 7, inf}, {2, 2, 4, 4, 5, 6, 7, -1}},
    };
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64,
          DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32,
          DML_TENSOR_DATA_TYPE_UINT64}) {
        if (!dev.supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        TestTensor x = make_packed(type, {8});
        for (uint64_t i = 0; i < input.size(); ++i) x.set_double(i, input[i]);
        for (const Example& e : examples)
            for (DML_TENSOR_DATA_TYPE index_type : {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32}) {
                INFO(describe(type, e.scan) << ", " << vkdml::to_string(index_type) << " indices");
                const auto r = run_with_indices(
                    dev, operation(vkdml::ops::TensorDesc{type, {8}}, 0, e.scan, index_type), x);
                CHECK(indices_of(r.indices) == e.indices);
                for (uint64_t i = 0; i < e.values.size(); ++i)
                    if (!std::isinf(e.values[i]) || is_float_type(type))
                        CHECK(r.values.get_double(i) == e.values[i]);
            }
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM indices against PyTorch's loop, both families, windows",
          "[gpu][scan][selection][families]") {
    const int config = GENERATE(0, 1, 2);
    std::string configuration;
    const auto dev = make_family_test_device(config, &configuration);
    INFO(configuration);
    const AxisShape shapes[] = {{{100003}, 0}, {{37, 1001}, 1}, {{1001, 37}, 0}, {{9, 257, 5}, 1}};
    const DML_TENSOR_DATA_TYPE index_types[] = {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
                                                DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_UINT32};
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (!dev->supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        // (Through windows: a type of each storage class, for time.)
        if (config == 2 && type != DML_TENSOR_DATA_TYPE_FLOAT32 && type != DML_TENSOR_DATA_TYPE_INT8 &&
            type != DML_TENSOR_DATA_TYPE_UINT64 && type != DML_TENSOR_DATA_TYPE_FLOAT16)
            continue;
        for (size_t si = 0; si < std::size(shapes); ++si) {
            const AxisShape& sh = shapes[si];
            const TestTensor x = tied_data(type, sh.sizes, static_cast<uint32_t>(si * 31 + type));
            const Scan& s = kScans[(si + static_cast<size_t>(type)) % std::size(kScans)];
            const DML_TENSOR_DATA_TYPE index_type = index_types[(si + type) % std::size(index_types)];
            INFO(describe(type, s) << " " << sh.sizes.size() << "-D axis " << sh.axis << ", "
                                   << vkdml::to_string(index_type) << " indices");
            const auto r = run_with_indices(
                *dev, operation(vkdml::ops::TensorDesc{type, sh.sizes}, sh.axis, s, index_type), x);
            const std::vector<int64_t> want = expected_indices(x, sh.outer(), sh.length(), sh.inner(), s);
            CHECK(indices_of(r.indices) == want);
            // Each value is its index's element (the type's extreme where none).
            const auto values_alone = run_operation(
                *dev,
                built(s.maximum ? vkdml::ops::cumulative_maximum(vkdml::ops::TensorDesc{type, sh.sizes},
                                                                 sh.axis, s.direction, s.exclusive)
                                : vkdml::ops::cumulative_minimum(vkdml::ops::TensorDesc{type, sh.sizes},
                                                                 sh.axis, s.direction, s.exclusive)),
                x);
            CHECK(r.values.bytes == values_alone.bytes);
            uint64_t mismatches = 0;
            for (uint64_t i = 0; i < x.count(); ++i) {
                if (want[i] < 0) continue;
                const uint64_t o = i / (sh.length() * sh.inner()), k = i % sh.inner();
                const uint64_t at = (o * sh.length() + static_cast<uint64_t>(want[i])) * sh.inner() + k;
                if (!same_number(x, at, r.values, i)) ++mismatches;
            }
            CHECK(mismatches == 0);
        }
    }
    // The exclusive mark's neighbour across chunks (and windows) of an outer axis, scanned backwards.
    const TestTensor x = tied_data(DML_TENSOR_DATA_TYPE_FLOAT32, {1001, 37}, 77, true);
    const Scan s{false, DML_AXIS_DIRECTION_DECREASING, true};
    for (DML_TENSOR_DATA_TYPE index_type : {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64}) {
        INFO(describe(DML_TENSOR_DATA_TYPE_FLOAT32, s)
             << " along an outer axis, " << vkdml::to_string(index_type));
        const auto r = run_with_indices(
            *dev,
            operation(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {1001, 37}}, 0, s, index_type), x);
        CHECK(indices_of(r.indices) == expected_indices(x, 1, 1001, 37, s));
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM indices: the last NaN, or none with NanMode::ignore",
          "[gpu][scan][selection][nan]") {
    std::string configuration;
    const auto dev = make_family_test_device(GENERATE(0, 1), &configuration);
    INFO(configuration);
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT16}) {
        if (!dev->supports(VKDML_OPERATOR_CUMULATIVE_MAXIMUM, type).supported) continue;
        TestTensor x = tied_data(type, {3, 20001}, 11, true);
        x.set_double(20001, std::nan(""));  // a row that starts with NaN
        for (const Scan& s : kScans)
            for (const NanMode mode : {NanMode::propagate, NanMode::ignore}) {
                INFO(describe(type, s) << (mode == NanMode::ignore ? ", NaN ignored" : ""));
                vkdml::OperatorOptions options;
                options.nan_mode = mode;
                const auto r = run_with_indices(
                    *dev, operation(vkdml::ops::TensorDesc{type, {3, 20001}}, 1, s), x, options);
                CHECK(indices_of(r.indices) == expected_indices(x, 3, 20001, 1, s, mode == NanMode::ignore));
            }
    }
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM indices in place and into a strided index output", "[gpu][scan][selection]") {
    vkdml::Device& dev = test_device();
    const DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    const TestTensor x = tied_data(type, {70, 300}, 5, true);
    const bool exclusive = GENERATE(false, true);
    const NanMode mode = GENERATE(NanMode::propagate, NanMode::ignore);
    const Scan s{true, DML_AXIS_DIRECTION_DECREASING, exclusive};
    INFO(describe(type, s) << (mode == NanMode::ignore ? ", NaN ignored" : ""));
    const std::vector<int64_t> want = expected_indices(x, 1, 70, 300, s, mode == NanMode::ignore);
    // The index output column-major with gaps: strides {1, 80} over sizes {70, 300}.
    const uint32_t sizes[] = {70, 300}, index_strides[] = {1, 80};
    const uint64_t in_bytes = x.bytes.size(), index_bytes = (69 + 299 * 80 + 1) * 8;
    const DML_BUFFER_TENSOR_DESC values{type, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, in_bytes, 0};
    const DML_BUFFER_TENSOR_DESC indices{
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_FLAG_NONE, 2, sizes, index_strides, index_bytes, 0};
    const DML_TENSOR_DESC tv{DML_TENSOR_TYPE_BUFFER, &values}, ti{DML_TENSOR_TYPE_BUFFER, &indices};
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC desc{
        &tv, &tv, 0, DML_AXIS_DIRECTION_DECREASING, exclusive ? 1 : 0, &ti};
    vkdml::OperatorOptions options;
    options.nan_mode = mode;
    auto op = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &desc}, options);
    REQUIRE(op);
    auto compiled = dev.compile_operator(*op);
    REQUIRE(compiled);
    auto data = vkdml::MappedBuffer::create(dev, in_bytes);
    auto index = vkdml::MappedBuffer::create(dev, index_bytes);
    REQUIRE(data);
    REQUIRE(index);
    std::memcpy(data->data().data(), x.bytes.data(), in_bytes);
    std::memset(index->data().data(), 0x5A, index_bytes);
    const uint64_t temp_bytes = compiled->binding_properties().TemporaryResourceSize;
    vkdml::MappedBuffer temp;
    if (temp_bytes > 0) {
        auto t = vkdml::MappedBuffer::create(dev, temp_bytes);
        REQUIRE(t);
        temp = *t;
    }
    const vkdml::MappedBuffer ins[] = {*data}, outs[] = {*data, *index};
    auto run = vkdml::submit(*compiled, ins, outs, temp);
    REQUIRE(run);
    REQUIRE(run->wait());
    uint64_t wrong = 0, gaps_changed = 0;
    const std::byte* got = index->data().data();
    for (uint64_t i = 0; i < 70; ++i)
        for (uint64_t k = 0; k < 300; ++k) {
            int64_t v;
            std::memcpy(&v, got + (i + k * 80) * 8, 8);
            if (v != want[i * 300 + k]) ++wrong;
        }
    for (uint64_t k = 0; k + 1 < 300; ++k)
        for (uint64_t g = 70 * 8; g < 80 * 8; ++g)
            if (got[k * 80 * 8 + g] != std::byte{0x5A}) ++gaps_changed;
    CHECK(wrong == 0);
    CHECK(gaps_changed == 0);
    // The values, in place: each is its index's element (-inf where none).
    uint64_t values_wrong = 0;
    const float* v = reinterpret_cast<const float*>(data->data().data());
    for (uint64_t i = 0; i < 70; ++i)
        for (uint64_t k = 0; k < 300; ++k) {
            const int64_t j = want[i * 300 + k];
            const float expect =
                j < 0 ? -INFINITY : static_cast<float>(x.get_double(static_cast<uint64_t>(j) * 300 + k));
            if (!(v[i * 300 + k] == expect || (std::isnan(v[i * 300 + k]) && std::isnan(expect))))
                ++values_wrong;
        }
    CHECK(values_wrong == 0);
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM index output refusals",
          "[gpu][scan][selection][validation]") {
    vkdml::Device& dev = test_device();
    const uint32_t sizes[] = {4}, other[] = {5}, huge[] = {0x80000001u};
    const DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 4, 0};
    const DML_BUFFER_TENSOR_DESC f32{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
    const DML_BUFFER_TENSOR_DESC i64{
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 32, 0};
    const DML_BUFFER_TENSOR_DESC i64_other{
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_FLAG_NONE, 1, other, nullptr, 40, 0};
    const DML_BUFFER_TENSOR_DESC big{
        DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_FLAG_NONE, 1, huge, nullptr, 0x80000004ull, 0};
    const DML_BUFFER_TENSOR_DESC big_i32{
        DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 1, huge, nullptr, 0x200000004ull, 0};
    const DML_TENSOR_DESC tin{DML_TENSOR_TYPE_BUFFER, &in}, tf32{DML_TENSOR_TYPE_BUFFER, &f32},
        ti64{DML_TENSOR_TYPE_BUFFER, &i64}, tother{DML_TENSOR_TYPE_BUFFER, &i64_other},
        tbig{DML_TENSOR_TYPE_BUFFER, &big}, tbig32{DML_TENSOR_TYPE_BUFFER, &big_i32};
    const auto refused = [&](const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC& d, vkdml::ErrorCode code,
                             const std::string& message) {
        auto r = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &d});
        REQUIRE_FALSE(r);
        CHECK(r.error().code == code);
        CHECK(r.error().message == message);
    };
    refused(
        {&tin, &tin, 0, DML_AXIS_DIRECTION_INCREASING, 0, &tf32}, vkdml::ErrorCode::unsupported_type,
        "CUMULATIVE_MAXIMUM: OutputIndexTensor.DataType is FLOAT32 but CUMULATIVE_MAXIMUM writes indices: "
        "INT32, INT64, UINT32 or UINT64 (SPEC §4)");
    refused(
        {&tin, &tin, 0, DML_AXIS_DIRECTION_INCREASING, 0, &tother}, vkdml::ErrorCode::invalid_descriptor,
        "CUMULATIVE_MAXIMUM: OutputIndexTensor.Sizes {5} differ from InputTensor.Sizes {4} at dimension 0 "
        "(rule 7: sizes must be equal)");
    refused({&tbig, &tbig, 0, DML_AXIS_DIRECTION_INCREASING, 0, &tbig32}, vkdml::ErrorCode::unsupported_type,
            "CUMULATIVE_MAXIMUM: OutputIndexTensor.DataType is UINT32 but the axis has 2147483649 elements: "
            "32-bit indices reach 2147483647, the last of 2^31 (use INT64 or UINT64)");
    const uint32_t two_d[] = {4, 1};
    const DML_BUFFER_TENSOR_DESC i64_2d{
        DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_FLAG_NONE, 2, two_d, nullptr, 32, 0};
    const DML_TENSOR_DESC t2d{DML_TENSOR_TYPE_BUFFER, &i64_2d};
    refused(
        {&tin, &tin, 0, DML_AXIS_DIRECTION_INCREASING, 0, &t2d}, vkdml::ErrorCode::invalid_descriptor,
        "CUMULATIVE_MAXIMUM: OutputIndexTensor.DimensionCount is 2 but InputTensor.DimensionCount is 1 (rule "
        "7: they must be equal)");
    // 2^31 elements: the last index, 2^31 - 1, fits INT32.
    const uint32_t most[] = {0x80000000u};
    const DML_BUFFER_TENSOR_DESC most_in{
        DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_FLAG_NONE, 1, most, nullptr, 0x80000000ull, 0};
    const DML_BUFFER_TENSOR_DESC most_i32{
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, most, nullptr, 0x200000000ull, 0};
    const DML_TENSOR_DESC tmost{DML_TENSOR_TYPE_BUFFER, &most_in}, tmost32{DML_TENSOR_TYPE_BUFFER, &most_i32};
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC most_desc{&tmost, &tmost,  0, DML_AXIS_DIRECTION_INCREASING,
                                                           0,      &tmost32};
    CHECK(dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &most_desc}));
    // INT64 indices need 64-bit integers.
    vkdml::testing::DeviceOverrides no_int64;
    no_int64.features.shader_int64 = false;
    const auto narrow = make_test_device(no_int64);
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC wide{&tin, &tin, 0, DML_AXIS_DIRECTION_INCREASING, 0, &ti64};
    auto r = narrow->create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &wide});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::unsupported_device);
    CHECK_THAT(r.error().message, Catch::Matchers::StartsWith(
                                      "CUMULATIVE_MAXIMUM: OutputIndexTensor.DataType INT64 needs the Vulkan "
                                      "feature shaderInt64"));
    // The builders: an index type that is not one.
    auto b = vkdml::ops::cumulative_minimum_with_indices(
        vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_INT8, {3}}, 0, DML_AXIS_DIRECTION_INCREASING, false,
        DML_TENSOR_DATA_TYPE_INT16);
    REQUIRE_FALSE(b);
    CHECK(b.error().message ==
          "vkdml::ops::cumulative_minimum_with_indices: output type INT16 (7) is not an "
          "index type: indices are INT32, INT64, UINT32 or UINT64");
    // Bindings: the index output over the input (not in place: only output 0 may be), over output 0.
    const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC fine{&tin, &tin, 0, DML_AXIS_DIRECTION_INCREASING, 0, &ti64};
    auto op = dev.create_operator(DML_OPERATOR_DESC{VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &fine});
    REQUIRE(op);
    auto compiled = dev.compile_operator(*op);
    REQUIRE(compiled);
    auto a = vkdml::MappedBuffer::create(dev, 32), c = vkdml::MappedBuffer::create(dev, 32);
    REQUIRE(a);
    REQUIRE(c);
    const uint64_t temp_bytes = compiled->binding_properties().TemporaryResourceSize;
    auto temp = vkdml::MappedBuffer::create(dev, std::max<uint64_t>(temp_bytes, 16));
    REQUIRE(temp);
    const vkdml::MappedBuffer ins[] = {*a}, over_input[] = {*c, *a}, over_output[] = {*c, *c};
    auto st = vkdml::submit(*compiled, ins, over_input, temp_bytes ? *temp : vkdml::MappedBuffer());
    REQUIRE_FALSE(st);
    CHECK_THAT(st.error().message,
               Catch::Matchers::Contains("input 0 [0, +32) and output 1 [0, +32) overlap"));
    st = vkdml::submit(*compiled, ins, over_output, temp_bytes ? *temp : vkdml::MappedBuffer());
    REQUIRE_FALSE(st);
    CHECK_THAT(
        st.error().message,
        Catch::Matchers::Contains("output 0 [0, +32) and output 1 [0, +32) overlap (rule 9: outputs never "
                                  "share bytes)"));
    require_no_validation_messages();
}

TEST_CASE(
    "CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM indices of tensors past one allocation: in parts, or refused",
    "[gpu][scan][selection][host]") {
    vkdml::testing::DeviceOverrides o;
    o.limits.max_storage_buffer_range = 64 * 1024;
    o.limits.max_memory_allocation_size = 64 * 1024;
    const auto dev = make_test_device(o);
    // Rows along axis 1 of 240,000 bytes: the running values' scratch is past one allocation, so execute()
    // runs slabs of rows (parts along axis 0), both outputs scattered back.
    const TestTensor x = tied_data(DML_TENSOR_DATA_TYPE_FLOAT32, {300, 200}, 21, true);
    for (const Scan& s : {Scan{true}, Scan{false, DML_AXIS_DIRECTION_DECREASING, true}}) {
        INFO(describe(DML_TENSOR_DATA_TYPE_FLOAT32, s));
        const auto r = run_with_indices(
            *dev, operation(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {300, 200}}, 1, s), x);
        CHECK(indices_of(r.indices) == expected_indices(x, 300, 200, 1, s));
    }
    // One line: no axis to cut, and its scratch fits no allocation.
    const TestTensor line = tied_data(DML_TENSOR_DATA_TYPE_FLOAT32, {60000}, 22);
    const auto op = operation(vkdml::ops::TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {60000}}, 0, Scan{});
    std::vector<std::byte> values(op.output_bytes()), indices(op.index_output_bytes());
    const std::span<const std::byte> inputs[] = {line.bytes};
    const std::span<std::byte> outputs[] = {values, indices};
    const vkdml::Status st = vkdml::execute(*dev, op.desc(), inputs, outputs);
    REQUIRE_FALSE(st);
    CHECK(st.error().code == vkdml::ErrorCode::out_of_memory);
    CHECK_THAT(st.error().message, Catch::Matchers::Contains("temporary buffer"));
    require_no_validation_messages();
}

TEST_CASE("CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM indices of column-major, padded and broadcast inputs",
          "[gpu][scan][selection]") {
    vkdml::Device& dev = test_device();
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT16}) {
        const TestTensor packed_data = tied_data(type, {37, 500}, 31);
        struct Layout {
            const char* name;
            TestTensor t;
        };
        Layout layouts[] = {{"column-major", make_fortran(type, {37, 500})},
                            {"padded", make_padded(type, {37, 500}, {3, 2})},
                            {"broadcast along the axis", make_broadcast(type, {37, 500}, 2u)},
                            {"broadcast across it", make_broadcast(type, {37, 500}, 1u)}};
        for (Layout& l : layouts) {
            TestTensor packed = make_packed(type, {37, 500});  // what the layout holds, packed
            for (uint32_t i = 0; i < 37; ++i)
                for (uint32_t k = 0; k < 500; ++k) l.t.set_bits_at({i, k}, packed_data.get_bits_at({i, k}));
            for (uint32_t i = 0; i < 37; ++i)
                for (uint32_t k = 0; k < 500; ++k) packed.set_bits_at({i, k}, l.t.get_bits_at({i, k}));
            for (const Scan& s : kScans) {
                INFO(describe(type, s) << ", " << l.name << " input");
                const vkdml::ops::TensorDesc desc{type, {37, 500}, l.t.strides};
                const auto r = run_with_indices(dev, operation(desc, 1, s), l.t);
                CHECK(indices_of(r.indices) == expected_indices(packed, 37, 500, 1, s));
            }
        }
    }
    require_no_validation_messages();
}
