// The shorter C++ path beside DirectML's descriptors (README quick start): vkdml::PackedTensorDesc for a
// packed tensor from a type and sizes, and execute() on the shared_ptr Device::create gives.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

using Catch::Matchers::Contains;

TEST_CASE("PackedTensorDesc: packed sizes, TotalTensorSizeInBytes, copies that point at their own",
          "[host]") {
    const vkdml::PackedTensorDesc t(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3, 1000});
    const DML_TENSOR_DESC* d = t.desc();
    REQUIRE(d->Type == DML_TENSOR_TYPE_BUFFER);
    const auto* b = static_cast<const DML_BUFFER_TENSOR_DESC*>(d->Desc);
    CHECK(b->DataType == DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK(b->Flags == DML_TENSOR_FLAG_NONE);
    CHECK(b->DimensionCount == 3);
    CHECK(std::vector<uint32_t>(b->Sizes, b->Sizes + 3) == std::vector<uint32_t>{2, 3, 1000});
    CHECK(b->Strides == nullptr);
    CHECK(b->TotalTensorSizeInBytes == 24000);
    CHECK(b->GuaranteedBaseOffsetAlignment == 0);
    CHECK(t.bytes() == 24000);
    CHECK(t.elements() == 6000);
    CHECK(t.type() == DML_TENSOR_DATA_TYPE_FLOAT32);
    // Narrow types round the bytes up to a multiple of 4, as DMLCalcBufferTensorSize does.
    CHECK(vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_FLOAT16, {3}).bytes() == 8);
    CHECK(vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_INT8, {5}).bytes() == 8);
    CHECK(vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_UINT64, {5}).bytes() == 40);
    const std::vector<uint32_t> sizes = {7, 9};
    CHECK(vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_INT32, sizes).bytes() == 252);
    // A copy (and an assigned one) describes the same tensor through its own members.
    const vkdml::PackedTensorDesc copy = t;
    vkdml::PackedTensorDesc assigned(DML_TENSOR_DATA_TYPE_INT8, {1});
    assigned = t;
    for (const vkdml::PackedTensorDesc* c : {&copy, static_cast<const vkdml::PackedTensorDesc*>(&assigned)}) {
        CHECK(c->desc() != t.desc());
        const auto* cb = static_cast<const DML_BUFFER_TENSOR_DESC*>(c->desc()->Desc);
        CHECK(cb != b);
        CHECK(cb->Sizes != b->Sizes);
        CHECK(cb->Sizes == c->sizes().data());
        CHECK(std::vector<uint32_t>(cb->Sizes, cb->Sizes + 3) == std::vector<uint32_t>{2, 3, 1000});
        CHECK(cb->TotalTensorSizeInBytes == 24000);
    }
}

TEST_CASE("the shorter path runs an operator; create_operator still judges its sizes", "[gpu][host]") {
    vkdml::Result<std::shared_ptr<vkdml::Device>> device = vkdml::Device::create();
    REQUIRE(device);
    const vkdml::PackedTensorDesc x(DML_TENSOR_DATA_TYPE_INT32, {2, 4});
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{x.desc(), x.desc(), 1, DML_AXIS_DIRECTION_INCREASING,
                                                  false};
    const std::vector<int32_t> in = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<int32_t> out(8);
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(in))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(out))};
    REQUIRE(vkdml::execute(*device, {DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum}, inputs, outputs));
    CHECK(out == std::vector<int32_t>{1, 3, 6, 10, 5, 11, 18, 26});
    // A null device pointer is refused, named.
    const vkdml::Status null_device = vkdml::execute(
        std::shared_ptr<vkdml::Device>(), {DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum}, inputs, outputs);
    REQUIRE_FALSE(null_device);
    CHECK(null_device.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(null_device.error().message == "execute: the device is null");
    // Sizes are the operator's to validate: a size of 0 and a rank of 9 are refused there.
    for (const vkdml::PackedTensorDesc& bad :
         {vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_FLOAT32, {4, 0}),
          vkdml::PackedTensorDesc(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 1, 1, 1, 1, 1, 1, 2})}) {
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{bad.desc(), bad.desc(), 0, DML_AXIS_DIRECTION_INCREASING,
                                                 false};
        auto op = (*device)->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
        REQUIRE_FALSE(op);
        CHECK(op.error().code == vkdml::ErrorCode::invalid_descriptor);
        CHECK_THAT(op.error().message, Contains("CUMULATIVE_SUMMATION"));
    }
}
