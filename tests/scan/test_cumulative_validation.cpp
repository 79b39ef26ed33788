// SPEC §2 rules 1–8 for DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT (every test runs for
// both): each violation is refused by create_operator with its error code and a message naming the
// operator, the tensor, the field, the rule and the values.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace vkdml_test;
using Catch::Matchers::Contains;

namespace {

/// A valid cumulative description (float32 {2,3}, axis 1) that each test breaks in one place.
struct Desc {
    explicit Desc(DML_OPERATOR_TYPE t) : type(t) {}

    DML_OPERATOR_TYPE type;
    std::vector<uint32_t> in_sizes{2, 3}, out_sizes{2, 3};
    DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, nullptr, nullptr, 24, 0};
    DML_BUFFER_TENSOR_DESC out{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, nullptr, nullptr, 24, 0};
    DML_TENSOR_DESC tin{DML_TENSOR_TYPE_BUFFER, &in}, tout{DML_TENSOR_TYPE_BUFFER, &out};
    // The fields both operators share; create() hands the product operator its own struct.
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC op{&tin, &tout, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product{};

    bool null_input_sizes = false;

    vkdml::Result<vkdml::Operator> create() {
        in.Sizes = null_input_sizes ? nullptr : in_sizes.data();
        out.Sizes = out_sizes.data();
        if (type == DML_OPERATOR_CUMULATIVE_SUMMATION) return test_device().create_operator({type, &op});
        product = {op.InputTensor, op.OutputTensor, op.Axis, op.AxisDirection, op.HasExclusiveSum};
        return test_device().create_operator({type, &product});
    }
};

/// Creation must fail with `code` and a message containing the operator's name and every part.
void check(Desc& d, vkdml::ErrorCode code, const std::vector<std::string>& parts) {
    auto r = d.create();
    REQUIRE_FALSE(r);
    const vkdml::Error& e = r.error();
    INFO(e.message);
    CHECK(e.code == code);
    CHECK_THAT(e.message, Contains(vkdml::to_string(d.type)));
    for (const auto& p : parts) CHECK_THAT(e.message, Contains(p));
}

#define CUMULATIVE_OPERATOR() \
    GENERATE(as<DML_OPERATOR_TYPE>{}, DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT)

/// Stores a raw value in an enum field (values outside the enumerators, as a C caller could pass).
template <class E>
void set_raw(E& field, uint32_t value) {
    static_assert(sizeof(E) == sizeof(uint32_t));
    std::memcpy(&field, &value, sizeof value);
}

using vkdml::ErrorCode;

}  // namespace

TEST_CASE("the valid base description is accepted", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    Desc d(op);
    auto r = d.create();
    REQUIRE(r);
    CHECK(r->type() == op);
}

TEST_CASE("rule 1: tensor type, desc and data type", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.op.InputTensor = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor is null", "rule 1"});
    }
    {
        Desc d(op);
        d.tout.Type = DML_TENSOR_TYPE_INVALID;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Type is 0", "rule 1"});
    }
    {
        Desc d(op);
        d.tin.Desc = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Desc is null"});
    }
    {
        Desc d(op);
        d.in.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
        check(d, ErrorCode::unsupported_type, {"InputTensor.DataType is 0", "rule 1"});
    }
    {
        Desc d(op);
        d.in.DataType = static_cast<DML_TENSOR_DATA_TYPE>(12);
        check(d, ErrorCode::unsupported_type, {"DataType is 12"});
    }
    {
        auto r = test_device().create_operator({op, nullptr});
        REQUIRE_FALSE(r);
        CHECK(r.error().code == ErrorCode::invalid_descriptor);
        CHECK_THAT(r.error().message, Contains("Desc is null"));
    }
}

TEST_CASE("rule 2: dimension count, sizes and element count", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.in.DimensionCount = 0;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.DimensionCount is 0", "rule 2"});
    }
    {
        Desc d(op);
        d.in_sizes.assign(9, 1);
        d.in.DimensionCount = 9;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.DimensionCount is 9", "1 to 8"});
    }
    {
        Desc d(op);
        d.null_input_sizes = true;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Sizes is null", "rule 2"});
    }
    {
        Desc d(op);
        d.out_sizes = {2, 0};
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Sizes[1] is 0", "{2,0}", "rule 2"});
    }
    {
        Desc d(op);
        d.in_sizes = d.out_sizes = {65536, 65536};
        d.in.TotalTensorSizeInBytes = d.out.TotalTensorSizeInBytes = 65536ull * 65536 * 4;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Sizes {65536,65536}", "4294967295", "rule 2"});
    }
}

TEST_CASE("rule 3: an output may not map two elements to one address", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    const uint32_t broadcast[] = {0, 1};
    {
        Desc d(op);
        d.out.Strides = broadcast;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Strides {0,1}", "rule 3"});
    }
    const uint32_t overlap[] = {2, 1};  // rows of 3 elements starting 2 apart
    {
        Desc d(op);
        d.out.Strides = overlap;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Strides {2,1}", "Sizes {2,3}"});
    }
    // the same layouts are fine on the input (broadcast and overlapping reads are allowed)
    Desc ok(op);
    ok.in.Strides = broadcast;
    CHECK(ok.create());
    const uint32_t interleaved[] = {1, 2};  // offsets 0,2,4,1,3,5: a permutation
    Desc perm(op);
    perm.out.Strides = interleaved;
    CHECK(perm.create());
}

TEST_CASE("rule 3: interleaved output layouts too large to check exactly are refused", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    Desc d(op);
    d.in_sizes = d.out_sizes = {3, 1u << 21};
    const uint32_t interleaved[] = {2, 3};  // not nested: rows start 2 apart, elements 3 apart
    d.out.Strides = interleaved;
    d.in.TotalTensorSizeInBytes = 3ull * (1u << 21) * 4;
    d.out.TotalTensorSizeInBytes = (2ull * 2 + 3ull * ((1u << 21) - 1) + 1) * 4;
    check(d, ErrorCode::invalid_descriptor,
          {"OutputTensor.Strides {2,3}", "cannot prove", "6291456 elements"});
}

TEST_CASE("rule 4: TotalTensorSizeInBytes covers the tensor", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.in.TotalTensorSizeInBytes = 20;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.TotalTensorSizeInBytes is 20", "need 24", "rule 4"});
    }
    const uint32_t padded[] = {8, 2};  // last element at 8 + 4 = 12 -> 52 bytes
    {
        Desc d(op);
        d.out.Strides = padded;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.TotalTensorSizeInBytes is 24", "need 52"});
    }
}

TEST_CASE("rule 5: GuaranteedBaseOffsetAlignment", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.in.GuaranteedBaseOffsetAlignment = 12;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.GuaranteedBaseOffsetAlignment is 12", "rule 5"});
    }
    {
        Desc d(op);
        d.out.GuaranteedBaseOffsetAlignment = 2;
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.GuaranteedBaseOffsetAlignment is 2", "element size 4"});
    }
}

TEST_CASE("rule 6: flags", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.in.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.Flags has DML_TENSOR_FLAG_OWNED_BY_DML", "no constant inputs", "rule 6"});
    }
    {
        Desc d(op);
        set_raw(d.out.Flags, 4);
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Flags is 4", "rule 6"});
    }
}

TEST_CASE("rule 7: input and output agree", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.out_sizes = {1, 2, 3};
        d.out.DimensionCount = 3;
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.DimensionCount is 3", "InputTensor.DimensionCount is 2", "rule 7"});
    }
    {
        Desc d(op);
        d.out.DataType = DML_TENSOR_DATA_TYPE_INT32;
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.DataType is INT32", "InputTensor.DataType is FLOAT32", "rule 7"});
    }
    {
        Desc d(op);
        d.out_sizes = {3, 2};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Sizes {3,2}", "InputTensor.Sizes {2,3}", "dimension 0", "rule 7"});
    }
}

TEST_CASE("rule 8: axis and direction", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    {
        Desc d(op);
        d.op.Axis = 2;
        check(d, ErrorCode::invalid_descriptor, {"Axis is 2", "2 dimensions", "rule 8"});
    }
    {
        Desc d(op);
        set_raw(d.op.AxisDirection, 2);
        check(d, ErrorCode::invalid_descriptor, {"AxisDirection is 2"});
    }
}

TEST_CASE("operators vkdml does not implement are refused by name", "[gpu][validation]") {
    Desc d(DML_OPERATOR_CUMULATIVE_SUMMATION);
    auto r = test_device().create_operator({static_cast<DML_OPERATOR_TYPE>(1), &d.op});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::invalid_descriptor);
    CHECK_THAT(r.error().message, Contains("DML_OPERATOR_DESC.Type is 1"));
    CHECK_THAT(r.error().message,
               Contains("it implements REDUCE (55), CUMULATIVE_SUMMATION (105), ARGMIN (137), ARGMAX (138), "
                        "CUMULATIVE_PRODUCT (145), CUMULATIVE_MAXIMUM (1000), CUMULATIVE_MINIMUM (1001) and "
                        "LOG_CUMULATIVE_SUM_EXP (1002)"));
}

TEST_CASE("the description is deep-copied at creation", "[gpu][validation]") {
    const DML_OPERATOR_TYPE op = CUMULATIVE_OPERATOR();
    auto d = std::make_unique<Desc>(op);
    d->op.AxisDirection = DML_AXIS_DIRECTION_DECREASING;
    d->op.HasExclusiveSum = 1;
    auto r = d->create();
    REQUIRE(r);
    d.reset();  // the caller's arrays die
    CHECK(r->type() == op);
    const DML_TENSOR_DESC* input = nullptr;
    if (op == DML_OPERATOR_CUMULATIVE_SUMMATION) {
        const auto& copy = *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*>(r->desc().Desc);
        CHECK(copy.Axis == 1);
        CHECK(copy.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
        CHECK(copy.HasExclusiveSum == 1);
        input = copy.InputTensor;
    } else {
        const auto& copy = *static_cast<const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC*>(r->desc().Desc);
        CHECK(copy.Axis == 1);
        CHECK(copy.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
        CHECK(copy.HasExclusiveProduct == 1);
        input = copy.InputTensor;
    }
    const auto& in = *static_cast<const DML_BUFFER_TENSOR_DESC*>(input->Desc);
    CHECK(in.DimensionCount == 2);
    CHECK(in.Sizes[0] == 2);
    CHECK(in.Sizes[1] == 3);
    CHECK(in.Strides == nullptr);
    CHECK(in.TotalTensorSizeInBytes == 24);
}
