// The builders of vkdml/ops.hpp: inferred output tensors, every refusal with its message, descriptors that
// stay valid through copies and moves, and built operators run on the device.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/ops.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

using Catch::Matchers::Contains;
using vkdml::ops::TensorDesc;

namespace {

using Sizes = std::vector<uint32_t>;

const DML_BUFFER_TENSOR_DESC& buffer(const DML_TENSOR_DESC* t) {
    return *static_cast<const DML_BUFFER_TENSOR_DESC*>(t->Desc);
}
Sizes sizes_of(const DML_BUFFER_TENSOR_DESC& b) {
    return Sizes(b.Sizes, b.Sizes + b.DimensionCount);
}

// The REDUCE description `op` points at, with its tensors and axes checked against the operation.
void check_reduce_desc(const vkdml::ops::Operation& op, DML_REDUCE_FUNCTION function) {
    REQUIRE(op.desc().Type == DML_OPERATOR_REDUCE);
    const auto& d = *static_cast<const DML_REDUCE_OPERATOR_DESC*>(op.desc().Desc);
    CHECK(d.Function == function);
    CHECK(d.AxisCount == op.axes().size());
    CHECK(Sizes(d.Axes, d.Axes + d.AxisCount) == Sizes(op.axes().begin(), op.axes().end()));
    CHECK(sizes_of(buffer(d.InputTensor)) == op.input().sizes);
    CHECK(sizes_of(buffer(d.OutputTensor)) == op.output().sizes);
    CHECK(buffer(d.OutputTensor).DataType == op.output().data_type);
    CHECK(buffer(d.OutputTensor).Strides == nullptr);
    CHECK(buffer(d.InputTensor).TotalTensorSizeInBytes == op.input_bytes());
    CHECK(buffer(d.OutputTensor).TotalTensorSizeInBytes == op.output_bytes());
}

template <class T>
void check_error(const vkdml::Result<T>& r, vkdml::ErrorCode code, const std::string& message) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == code);
    CHECK(r.error().message == message);
}

}  // namespace

TEST_CASE("ops::TensorDesc::total_bytes is DMLCalcBufferTensorSize, without overflow", "[host][ops]") {
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3, 1000}}.total_bytes() == 24000);
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT16, {3}}.total_bytes() == 8);
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_INT8, {5}}.total_bytes() == 8);
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_UINT64, {5}}.total_bytes() == 40);
    // Strides: the last element's offset + 1; broadcast (stride 0) and column-major.
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}, {1, 2}}.total_bytes() == 24);
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {4, 3}, {0, 1}}.total_bytes() == 12);
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_INT16, {2, 2}, {8, 1}}.total_bytes() == 20);
    const uint32_t big[] = {0xFFFFFFFF, 0xFFFFFFFF, 4};
    CHECK(*TensorDesc{DML_TENSOR_DATA_TYPE_UINT8, {big[0], big[1]}}.total_bytes() ==
          DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT8, 2, big, nullptr));
    CHECK(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}}.elements() == 6);

    check_error(TensorDesc{DML_TENSOR_DATA_TYPE_UNKNOWN, {2}}.total_bytes(),
                vkdml::ErrorCode::unsupported_type,
                "data type 0 (UNKNOWN) is not a DML_TENSOR_DATA_TYPE vkdml knows");
    check_error(TensorDesc{static_cast<DML_TENSOR_DATA_TYPE>(99), {2}}.total_bytes(),
                vkdml::ErrorCode::unsupported_type,
                "data type 99 (UNKNOWN) is not a DML_TENSOR_DATA_TYPE vkdml knows");
    check_error(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {}}.total_bytes(),
                vkdml::ErrorCode::invalid_argument, "sizes are empty (a tensor has 1 to 8)");
    check_error(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}, {1}}.total_bytes(),
                vkdml::ErrorCode::invalid_argument,
                "has 1 strides for 2 sizes (give one stride per size, or none for packed row-major)");
    check_error(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0}}.total_bytes(),
                vkdml::ErrorCode::invalid_argument, "size 1 is 0 (every size is at least 1)");
    check_error(TensorDesc{DML_TENSOR_DATA_TYPE_UINT8, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}}.total_bytes(),
                vkdml::ErrorCode::invalid_argument,
                "sizes {4294967295,4294967295,4294967295} reach past 2^64 elements");
    check_error(
        TensorDesc{DML_TENSOR_DATA_TYPE_UINT64, {0xFFFFFFFF, 0xFFFFFFFF}, {0xFFFFFFFF, 1}}.total_bytes(),
        vkdml::ErrorCode::invalid_argument, "takes more than 2^64 bytes");
}

TEST_CASE("ops::reduced_sizes: size 1 on each reduced axis, any order; bad axes refused", "[host][ops]") {
    const Sizes in = {2, 3, 4};
    CHECK(*vkdml::ops::reduced_sizes(in, Sizes{}) == Sizes{2, 3, 4});
    CHECK(*vkdml::ops::reduced_sizes(in, Sizes{1}) == Sizes{2, 1, 4});
    CHECK(*vkdml::ops::reduced_sizes(in, Sizes{2, 0}) == Sizes{1, 3, 1});
    CHECK(*vkdml::ops::reduced_sizes(in, Sizes{0, 1, 2}) == Sizes{1, 1, 1});
    CHECK(*vkdml::ops::reduced_sizes(Sizes{0, 5}, Sizes{1}) == Sizes{0, 1});
    check_error(vkdml::ops::reduced_sizes(in, Sizes{3}), vkdml::ErrorCode::invalid_argument,
                "axes {3} name axis 3, out of range for an input of 3 dimensions (axes count from 0)");
    check_error(vkdml::ops::reduced_sizes(in, Sizes{1, 2, 1}), vkdml::ErrorCode::invalid_argument,
                "axes {1,2,1} name axis 1 twice (each axis at most once)");
}

TEST_CASE("ops::reduce, argmin, argmax: the inferred output for a table of shapes, axes and functions",
          "[host][ops]") {
    struct Row {
        DML_TENSOR_DATA_TYPE input_type;
        Sizes sizes, axes;
        DML_REDUCE_FUNCTION function;
        DML_TENSOR_DATA_TYPE requested, output_type;
        Sizes output;
        uint64_t output_bytes;
    };
    const DML_TENSOR_DATA_TYPE kAuto = vkdml::ops::kAutoType;
    const Row rows[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32,
         {3, 3},
         {0},
         DML_REDUCE_FUNCTION_SUM,
         kAuto,
         DML_TENSOR_DATA_TYPE_FLOAT32,
         {1, 3},
         12},
        {DML_TENSOR_DATA_TYPE_FLOAT32,
         {3, 3},
         {1},
         DML_REDUCE_FUNCTION_SUM,
         DML_TENSOR_DATA_TYPE_FLOAT32,
         DML_TENSOR_DATA_TYPE_FLOAT32,
         {3, 1},
         12},
        {DML_TENSOR_DATA_TYPE_FLOAT16,
         {2, 3, 5},
         {2, 0},
         DML_REDUCE_FUNCTION_AVERAGE,
         kAuto,
         DML_TENSOR_DATA_TYPE_FLOAT16,
         {1, 3, 1},
         8},
        {DML_TENSOR_DATA_TYPE_INT8,
         {7},
         {},
         DML_REDUCE_FUNCTION_L1,
         kAuto,
         DML_TENSOR_DATA_TYPE_INT8,
         {7},
         8},
        {DML_TENSOR_DATA_TYPE_INT8,
         {1, 2, 3, 4, 5, 6, 7, 8},
         {7, 6, 5, 4, 3, 2, 1, 0},
         DML_REDUCE_FUNCTION_MAX,
         kAuto,
         DML_TENSOR_DATA_TYPE_INT8,
         {1, 1, 1, 1, 1, 1, 1, 1},
         4},
        {DML_TENSOR_DATA_TYPE_FLOAT64,
         {4, 6},
         {1},
         DML_REDUCE_FUNCTION_ARGMAX,
         kAuto,
         DML_TENSOR_DATA_TYPE_INT64,
         {4, 1},
         32},
        {DML_TENSOR_DATA_TYPE_UINT16,
         {4, 6},
         {0, 1},
         DML_REDUCE_FUNCTION_ARGMIN,
         DML_TENSOR_DATA_TYPE_INT64,
         DML_TENSOR_DATA_TYPE_INT64,
         {1, 1},
         8},
    };
    for (const Row& row : rows) {
        INFO("function " << vkdml::to_string(row.function) << ", rank " << row.sizes.size());
        const TensorDesc in{row.input_type, row.sizes};
        auto op = vkdml::ops::reduce(in, row.function, row.axes, row.requested);
        REQUIRE(op);
        CHECK(op->type() == DML_OPERATOR_REDUCE);
        CHECK(op->input() == in);
        CHECK(op->output() == TensorDesc{row.output_type, row.output});
        CHECK(op->output_bytes() == row.output_bytes);
        CHECK(op->input_bytes() == *in.total_bytes());
        check_reduce_desc(*op, row.function);
        if (row.function == DML_REDUCE_FUNCTION_ARGMAX || row.function == DML_REDUCE_FUNCTION_ARGMIN) {
            auto standalone =
                row.function == DML_REDUCE_FUNCTION_ARGMAX
                    ? vkdml::ops::argmax(in, row.axes, DML_AXIS_DIRECTION_DECREASING, row.requested)
                    : vkdml::ops::argmin(in, row.axes, DML_AXIS_DIRECTION_DECREASING, row.requested);
            REQUIRE(standalone);
            CHECK(standalone->type() ==
                  (row.function == DML_REDUCE_FUNCTION_ARGMAX ? DML_OPERATOR_ARGMAX : DML_OPERATOR_ARGMIN));
            CHECK(standalone->output() == op->output());
            const auto& d = *static_cast<const DML_ARGMAX_OPERATOR_DESC*>(standalone->desc().Desc);
            CHECK(d.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
            CHECK(d.AxisCount == row.axes.size());
            CHECK(sizes_of(buffer(d.OutputTensor)) == row.output);
            CHECK(buffer(d.OutputTensor).DataType == row.output_type);
        }
    }
    // Strided input: kept as given, its bytes what its strides reach; the output packed.
    const TensorDesc strided{DML_TENSOR_DATA_TYPE_INT32, {3, 2}, {1, 3}, 16};
    auto op = vkdml::ops::reduce(strided, DML_REDUCE_FUNCTION_SUM, {1});
    REQUIRE(op);
    const auto& d = *static_cast<const DML_REDUCE_OPERATOR_DESC*>(op->desc().Desc);
    CHECK(Sizes(buffer(d.InputTensor).Strides, buffer(d.InputTensor).Strides + 2) == Sizes{1, 3});
    CHECK(buffer(d.InputTensor).GuaranteedBaseOffsetAlignment == 16);
    CHECK(buffer(d.InputTensor).Flags == DML_TENSOR_FLAG_NONE);
    CHECK(op->output() == TensorDesc{DML_TENSOR_DATA_TYPE_INT32, {3, 1}});
    // The README's example, braced lists throughout.
    auto readme = vkdml::ops::reduce({DML_TENSOR_DATA_TYPE_FLOAT32, {2, 1000}}, DML_REDUCE_FUNCTION_SUM, {1});
    REQUIRE(readme);
    CHECK(readme->output() == TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 1}});
    CHECK(readme->output_bytes() == 8);
    // The braced-list overloads.
    CHECK(vkdml::ops::argmin(strided, {0, 1})->output().sizes == Sizes{1, 1});
    // The arg functions' indices: INT64 unless asked otherwise (as the tool and Python give them).
    CHECK(vkdml::ops::argmax(strided, {0})->output().data_type == DML_TENSOR_DATA_TYPE_INT64);
    CHECK(vkdml::ops::argmax(strided, {0}, DML_AXIS_DIRECTION_INCREASING, DML_TENSOR_DATA_TYPE_UINT32)
              ->output()
              .data_type == DML_TENSOR_DATA_TYPE_UINT32);
}

TEST_CASE("ops::cumulative_sum and cumulative_product: the input's sizes and type, packed", "[host][ops]") {
    const TensorDesc in{DML_TENSOR_DATA_TYPE_UINT8, {2, 3}, {1, 2}};
    for (bool product : {false, true}) {
        auto op = product ? vkdml::ops::cumulative_product(in, 1, DML_AXIS_DIRECTION_DECREASING, true)
                          : vkdml::ops::cumulative_sum(in, 1, DML_AXIS_DIRECTION_DECREASING, true);
        REQUIRE(op);
        CHECK(op->type() == (product ? DML_OPERATOR_CUMULATIVE_PRODUCT : DML_OPERATOR_CUMULATIVE_SUMMATION));
        CHECK(op->output() == TensorDesc{DML_TENSOR_DATA_TYPE_UINT8, {2, 3}});
        CHECK(op->output_bytes() == 8);
        CHECK(op->axes().empty());
        // Both descriptions share one layout.
        const auto& d = *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*>(op->desc().Desc);
        CHECK(d.Axis == 1);
        CHECK(d.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
        CHECK(d.HasExclusiveSum == 1);
        CHECK(buffer(d.InputTensor).Strides != nullptr);
        CHECK(buffer(d.OutputTensor).Strides == nullptr);
        CHECK(sizes_of(buffer(d.OutputTensor)) == Sizes{2, 3});
    }
    auto plain = vkdml::ops::cumulative_sum(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {4}}, 0);
    REQUIRE(plain);
    const auto& d = *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*>(plain->desc().Desc);
    CHECK(d.AxisDirection == DML_AXIS_DIRECTION_INCREASING);
    CHECK(d.HasExclusiveSum == 0);
    CHECK(buffer(d.InputTensor).Strides == nullptr);
}

TEST_CASE("ops builders: every refusal, with its code and message", "[host][ops]") {
    using vkdml::ErrorCode;
    const TensorDesc in{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}};
    check_error(vkdml::ops::reduce(in, DML_REDUCE_FUNCTION_SUM, {2}), ErrorCode::invalid_argument,
                "vkdml::ops::reduce: axes {2} name axis 2, out of range for an input of 2 dimensions (axes "
                "count from 0)");
    check_error(vkdml::ops::argmax(in, {0, 0}), ErrorCode::invalid_argument,
                "vkdml::ops::argmax: axes {0,0} name axis 0 twice (each axis at most once)");
    check_error(vkdml::ops::reduce(in, static_cast<DML_REDUCE_FUNCTION>(12), {0}),
                ErrorCode::invalid_argument,
                "vkdml::ops::reduce: function 12 is not a DML_REDUCE_FUNCTION (ARGMAX (0) to SUM_SQUARE "
                "(11), or vkdml's "
                "VARIANCE (1000) to COUNT_NONZERO (1004))");
    check_error(vkdml::ops::reduce(in, DML_REDUCE_FUNCTION_SUM, {0}, DML_TENSOR_DATA_TYPE_FLOAT64),
                ErrorCode::unsupported_type,
                "vkdml::ops::reduce: output type FLOAT64 (9) but SUM writes the input's type, FLOAT32");
    check_error(vkdml::ops::reduce(in, DML_REDUCE_FUNCTION_ARGMIN, {0}, DML_TENSOR_DATA_TYPE_FLOAT32),
                ErrorCode::unsupported_type,
                "vkdml::ops::reduce: output type FLOAT32 (1) is not an index type: indices are INT32, "
                "INT64, UINT32 or UINT64");
    check_error(vkdml::ops::argmin(in, {0}, DML_AXIS_DIRECTION_INCREASING, DML_TENSOR_DATA_TYPE_INT16),
                ErrorCode::unsupported_type,
                "vkdml::ops::argmin: output type INT16 (7) is not an index type: indices are INT32, "
                "INT64, UINT32 or UINT64");
    check_error(vkdml::ops::argmin(in, {0}, static_cast<DML_AXIS_DIRECTION>(2)), ErrorCode::invalid_argument,
                "vkdml::ops::argmin: direction 2 is neither DML_AXIS_DIRECTION_INCREASING (0) nor "
                "DML_AXIS_DIRECTION_DECREASING (1)");
    check_error(vkdml::ops::cumulative_sum(in, 2), ErrorCode::invalid_argument,
                "vkdml::ops::cumulative_sum: axis 2 is out of range for an input of 2 dimensions (axes count "
                "from 0)");
    check_error(
        vkdml::ops::cumulative_product(in, 0, static_cast<DML_AXIS_DIRECTION>(7)),
        ErrorCode::invalid_argument,
        "vkdml::ops::cumulative_product: direction 7 is neither DML_AXIS_DIRECTION_INCREASING (0) nor "
        "DML_AXIS_DIRECTION_DECREASING (1)");
    check_error(
        vkdml::ops::cumulative_product(in, 0, DML_AXIS_DIRECTION_INCREASING, false,
                                       DML_TENSOR_DATA_TYPE_INT32),
        ErrorCode::unsupported_type,
        "vkdml::ops::cumulative_product: output type INT32 (6) but CUMULATIVE_PRODUCT writes the input's "
        "type, FLOAT32");
    // The input's own errors, under the builder's name.
    check_error(vkdml::ops::cumulative_sum(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, {3, 0}}, 0),
                ErrorCode::invalid_argument,
                "vkdml::ops::cumulative_sum: input size 1 is 0 (every size is at least 1)");
    check_error(
        vkdml::ops::reduce(TensorDesc{DML_TENSOR_DATA_TYPE_UNKNOWN, {3}}, DML_REDUCE_FUNCTION_SUM, {0}),
        ErrorCode::unsupported_type,
        "vkdml::ops::reduce: input data type 0 (UNKNOWN) is not a DML_TENSOR_DATA_TYPE vkdml knows");
    // A broadcast input whose packed output is too large to size.
    check_error(vkdml::ops::cumulative_sum(
                    TensorDesc{DML_TENSOR_DATA_TYPE_UINT64, {0xFFFFFFFF, 0xFFFFFFFF}, {0, 0}}, 0),
                ErrorCode::invalid_argument, "vkdml::ops::cumulative_sum: output takes more than 2^64 bytes");
}

TEST_CASE("ops builders leave SPEC §2's rank rule to create_operator", "[gpu][ops]") {
    // A rank of 9 builds (the reduced-shape rule applies to any rank) and is refused where DirectML's
    // rules are judged, as any description.
    auto op = vkdml::ops::argmax(TensorDesc{DML_TENSOR_DATA_TYPE_FLOAT32, Sizes(9, 2)}, {8});
    REQUIRE(op);
    CHECK(op->output().sizes == Sizes{2, 2, 2, 2, 2, 2, 2, 2, 1});
    auto created = vkdml_test::test_device().create_operator(op->desc());
    REQUIRE_FALSE(created);
    CHECK(created.error().code == vkdml::ErrorCode::invalid_descriptor);
    CHECK_THAT(created.error().message, Contains("rule 2"));
}

TEST_CASE("ops::Operation: copies and moved-to values point into themselves and stay valid", "[host][ops]") {
    std::vector<uint32_t> axes = {1, 0};
    TensorDesc in{DML_TENSOR_DATA_TYPE_INT32, {4, 5, 6}};
    auto built = vkdml::ops::reduce(in, DML_REDUCE_FUNCTION_MULTIPLY, axes);
    REQUIRE(built);
    // The builder copied its arguments: changing them changes nothing built.
    axes = {2};
    in.sizes = {9};
    vkdml::ops::Operation copy = *built;
    vkdml::ops::Operation moved = std::move(*built);
    check_reduce_desc(*built, DML_REDUCE_FUNCTION_MULTIPLY);  // moving copies: the source stays whole
    vkdml::ops::Operation assigned = *vkdml::ops::cumulative_sum(in, 0);
    assigned = copy;
    built = vkdml::ops::reduce(in, DML_REDUCE_FUNCTION_SUM, {0});  // replaces the original
    for (const vkdml::ops::Operation* op : {&copy, &moved, &assigned}) {
        check_reduce_desc(*op, DML_REDUCE_FUNCTION_MULTIPLY);
        CHECK(op->input().sizes == Sizes{4, 5, 6});
        CHECK(op->output().sizes == Sizes{1, 1, 6});
        CHECK(Sizes(op->axes().begin(), op->axes().end()) == Sizes{1, 0});
    }
    {
        // An operation outlives the copy it came from.
        vkdml::ops::Operation inner = copy;
        copy = *vkdml::ops::argmax(TensorDesc{DML_TENSOR_DATA_TYPE_INT8, {3}}, {0});
        check_reduce_desc(inner, DML_REDUCE_FUNCTION_MULTIPLY);
    }
    CHECK(copy.type() == DML_OPERATOR_ARGMAX);
}

TEST_CASE("ops builders run on the device: SPEC §6 examples from built descriptions", "[gpu][ops]") {
    vkdml::Device& device = vkdml_test::test_device();
    const std::vector<float> in = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(in))};
    const TensorDesc x{DML_TENSOR_DATA_TYPE_FLOAT32, {3, 3}};

    auto sum = vkdml::ops::reduce(x, DML_REDUCE_FUNCTION_SUM, {0});
    REQUIRE(sum);
    REQUIRE(device.create_operator(sum->desc()));
    std::vector<float> sums(3);
    const std::span<std::byte> sum_out[] = {std::as_writable_bytes(std::span(sums))};
    REQUIRE(vkdml::execute(device, sum->desc(), inputs, sum_out));
    CHECK(sums == std::vector<float>{6, 7, 9});

    // ARGMAX over both axes (the maximum 5 at (2, 1) is index 7), through a copy of the built operation.
    const vkdml::ops::Operation arg =
        *vkdml::ops::argmax(x, {1, 0}, DML_AXIS_DIRECTION_INCREASING, DML_TENSOR_DATA_TYPE_INT64);
    std::vector<int64_t> index(1);
    const std::span<std::byte> arg_out[] = {std::as_writable_bytes(std::span(index))};
    REQUIRE(vkdml::execute(device, vkdml::ops::Operation(arg).desc(), inputs, arg_out));
    CHECK(index == std::vector<int64_t>{7});

    // Exclusive decreasing cumulative product along axis 1.
    auto cumprod = vkdml::ops::cumulative_product(x, 1, DML_AXIS_DIRECTION_DECREASING, true);
    REQUIRE(cumprod);
    std::vector<float> products(9);
    const std::span<std::byte> cumprod_out[] = {std::as_writable_bytes(std::span(products))};
    REQUIRE(vkdml::execute(device, cumprod->desc(), inputs, cumprod_out));
    CHECK(products == std::vector<float>{6, 3, 1, 0, 4, 1, 10, 2, 1});
    vkdml_test::require_no_validation_messages();
}
