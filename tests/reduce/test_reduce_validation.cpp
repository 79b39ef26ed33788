// SPEC §2 and §4 rules for DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN and DML_OPERATOR_ARGMAX: each
// violation is refused by create_operator with its error code and a message naming the operator and
// the field (and the rule where SPEC numbers it). Out-of-range enum values are stored with memcpy, as
// a C caller could pass them.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reference_reduce.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace vkdml_test;
using Catch::Matchers::Contains;
using vkdml::ErrorCode;

namespace {

const char* op_name(DML_OPERATOR_TYPE op) {
    return op == DML_OPERATOR_REDUCE ? "REDUCE" : op == DML_OPERATOR_ARGMIN ? "ARGMIN" : "ARGMAX";
}

/// A valid description (FLOAT32 {2,3} reduced over axis 1 into {2,1}; arg outputs INT32) that each
/// test breaks in one place. TotalTensorSizeInBytes follows the sizes, strides and types unless set.
struct Desc {
    explicit Desc(DML_OPERATOR_TYPE t, DML_REDUCE_FUNCTION f = DML_REDUCE_FUNCTION_SUM)
        : type(t), function(f) {
        const bool arg =
            t != DML_OPERATOR_REDUCE || f == DML_REDUCE_FUNCTION_ARGMAX || f == DML_REDUCE_FUNCTION_ARGMIN;
        out.DataType = arg ? DML_TENSOR_DATA_TYPE_INT32 : DML_TENSOR_DATA_TYPE_FLOAT32;
    }

    DML_OPERATOR_TYPE type;
    DML_REDUCE_FUNCTION function;
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;
    std::vector<uint32_t> in_sizes{2, 3}, out_sizes{2, 1};
    std::vector<uint32_t> in_strides, out_strides;  // empty: null (packed)
    std::vector<uint32_t> axes{1};
    bool null_axes = false;
    bool fixed_totals = false;  // keep the TotalTensorSizeInBytes a test wrote
    DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, nullptr, nullptr, 0, 0};
    DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, nullptr, nullptr, 0, 0};
    DML_TENSOR_DESC tin{DML_TENSOR_TYPE_BUFFER, &in}, tout{DML_TENSOR_TYPE_BUFFER, &out};
    const DML_TENSOR_DESC* input = &tin;
    const DML_TENSOR_DESC* output = &tout;
    uint32_t axis_count = 1;
    bool fixed_axis_count = false;  // keep axis_count instead of axes.size()

    DML_REDUCE_OPERATOR_DESC reduce{};
    DML_ARGMIN_OPERATOR_DESC argmin{};
    DML_ARGMAX_OPERATOR_DESC argmax{};

    vkdml::Result<vkdml::Operator> create() {
        in.Sizes = in_sizes.data();
        out.Sizes = out_sizes.data();
        in.Strides = in_strides.empty() ? nullptr : in_strides.data();
        out.Strides = out_strides.empty() ? nullptr : out_strides.data();
        if (!fixed_totals) {
            in.TotalTensorSizeInBytes =
                DMLCalcBufferTensorSize(in.DataType, in.DimensionCount, in.Sizes, in.Strides);
            out.TotalTensorSizeInBytes =
                DMLCalcBufferTensorSize(out.DataType, out.DimensionCount, out.Sizes, out.Strides);
        }
        if (!fixed_axis_count) axis_count = static_cast<uint32_t>(axes.size());
        const uint32_t* a = null_axes || axes.empty() ? nullptr : axes.data();
        reduce = {function, input, output, axis_count, a};
        argmin = {input, output, axis_count, a, direction};
        argmax = {input, output, axis_count, a, direction};
        const void* d = type == DML_OPERATOR_REDUCE   ? static_cast<const void*>(&reduce)
                        : type == DML_OPERATOR_ARGMIN ? static_cast<const void*>(&argmin)
                                                      : static_cast<const void*>(&argmax);
        return test_device().create_operator({type, d});
    }
};

/// Creation must fail with `code` and a message containing the operator's name and every part.
void check(Desc& d, ErrorCode code, const std::vector<std::string>& parts) {
    auto r = d.create();
    INFO(op_name(d.type) << " (function " << static_cast<int>(d.function) << ")");
    REQUIRE_FALSE(r);
    const vkdml::Error& e = r.error();
    INFO("message: " << e.message);
    CHECK(e.code == code);
    CHECK_THAT(e.message, Contains(op_name(d.type)));
    for (const auto& p : parts) CHECK_THAT(e.message, Contains(p));
}

/// Creation must succeed.
void accept(Desc& d) {
    auto r = d.create();
    INFO(op_name(d.type) << " (function " << static_cast<int>(d.function)
                         << "): " << (r ? std::string("created") : r.error().message));
    REQUIRE(r);
    CHECK(r->type() == d.type);
}

#define REDUCE_OR_ARG_OPERATOR() \
    GENERATE(as<DML_OPERATOR_TYPE>{}, DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX)

/// Stores a raw value in an enum field (values outside the enumerators, as a C caller could pass).
template <class E>
void set_raw(E& field, uint32_t value) {
    static_assert(sizeof(E) == sizeof(uint32_t));
    std::memcpy(&field, &value, sizeof value);
}

const std::vector<DML_REDUCE_FUNCTION> kFunctions = {
    DML_REDUCE_FUNCTION_ARGMAX,      DML_REDUCE_FUNCTION_ARGMIN, DML_REDUCE_FUNCTION_AVERAGE,
    DML_REDUCE_FUNCTION_L1,          DML_REDUCE_FUNCTION_L2,     DML_REDUCE_FUNCTION_LOG_SUM,
    DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MAX,    DML_REDUCE_FUNCTION_MIN,
    DML_REDUCE_FUNCTION_MULTIPLY,    DML_REDUCE_FUNCTION_SUM,    DML_REDUCE_FUNCTION_SUM_SQUARE};

const std::vector<DML_TENSOR_DATA_TYPE> kAllTypes = {
    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT64};

const std::vector<DML_TENSOR_DATA_TYPE> kIndexTypes = {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64,
                                                       DML_TENSOR_DATA_TYPE_UINT32,
                                                       DML_TENSOR_DATA_TYPE_UINT64};

/// Whether the test device can do `type` at all (else creation fails with unsupported_device, which the
/// sweeps check).
bool device_has(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) {
    return test_device().supports(op, type).supported;
}

}  // namespace

TEST_CASE("reduce validation: valid descriptions are accepted", "[gpu][validation][reduce][argminmax]") {
    // Every REDUCE function on FLOAT32; arg functions into every index type.
    for (DML_REDUCE_FUNCTION f : kFunctions) {
        Desc d(DML_OPERATOR_REDUCE, f);
        accept(d);
    }
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
        for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
            if (!device_has(op, index_type)) continue;
            Desc d(op, DML_REDUCE_FUNCTION_ARGMAX);
            d.out.DataType = index_type;
            accept(d);
        }
        for (DML_AXIS_DIRECTION dir : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
            Desc d(op, DML_REDUCE_FUNCTION_MIN);
            d.direction = dir;
            accept(d);
        }
        // Every input type (SPEC §4: all 11 for SUM and the arg operators).
        for (DML_TENSOR_DATA_TYPE type : kAllTypes) {
            if (!device_has(op, type)) continue;
            Desc d(op, DML_REDUCE_FUNCTION_SUM);
            d.in.DataType = type;
            if (op == DML_OPERATOR_REDUCE) d.out.DataType = type;
            accept(d);
        }
        // Both axes, in either order; AxisCount 0 with Axes null (output sizes = input sizes).
        for (const std::vector<uint32_t>& axes : {std::vector<uint32_t>{0, 1}, std::vector<uint32_t>{1, 0}}) {
            Desc d(op, DML_REDUCE_FUNCTION_MAX);
            d.axes = axes;
            d.out_sizes = {1, 1};
            accept(d);
        }
        {
            Desc d(op, DML_REDUCE_FUNCTION_L2);
            d.axes.clear();
            d.out_sizes = {2, 3};
            accept(d);
        }
        {
            // AxisCount 0 with a non-null Axes pointer: nothing is read from it.
            Desc d(op, DML_REDUCE_FUNCTION_L1);
            d.axes = {7};
            d.fixed_axis_count = true;
            d.axis_count = 0;
            d.out_sizes = {2, 3};
            accept(d);
        }
        {
            // Reducing a size-1 axis; strides on the output's size-1 dimension are free (0 included);
            // a zero-stride (broadcast) input.
            Desc d(op, DML_REDUCE_FUNCTION_SUM);
            d.in_sizes = {2, 1, 3};
            d.out_sizes = {2, 1, 1};
            d.in.DimensionCount = d.out.DimensionCount = 3;
            d.axes = {1, 2};
            d.in_strides = {0, 5, 1};
            d.out_strides = {1, 0, 0};
            accept(d);
        }
    }
}

TEST_CASE("reduce validation: Function out of range", "[gpu][validation][reduce]") {
    for (uint32_t raw : {12u, 13u, 999u, 1005u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
        Desc d(DML_OPERATOR_REDUCE);
        set_raw(d.function, raw);
        INFO("Function " << raw);
        check(d, ErrorCode::invalid_descriptor,
              {"REDUCE: Function is " + std::to_string(static_cast<int32_t>(raw)) +
               " (must be a DML_REDUCE_FUNCTION, ARGMAX (0) to SUM_SQUARE (11), or vkdml's VARIANCE (1000) "
               "to COUNT_NONZERO (1004))"});
    }
}

TEST_CASE("reduce validation: AxisCount, Axes and rule 8", "[gpu][validation][reduce][argminmax]") {
    const DML_OPERATOR_TYPE op = REDUCE_OR_ARG_OPERATOR();
    {
        // More axes than dimensions.
        Desc d(op);
        d.axes = {0, 1, 0};
        d.out_sizes = {1, 1};
        check(d, ErrorCode::invalid_descriptor, {"AxisCount is 3 but the tensors have 2 dimensions (rule 8"});
    }
    {
        Desc d(op);
        d.axes = {0, 1};
        d.fixed_axis_count = true;
        d.axis_count = 9;
        d.out_sizes = {1, 1};
        check(d, ErrorCode::invalid_descriptor, {"AxisCount is 9 but the tensors have 2 dimensions (rule 8"});
    }
    {
        // Axes null with AxisCount > 0.
        Desc d(op);
        d.null_axes = true;
        check(d, ErrorCode::invalid_descriptor,
              {"Axes is null with AxisCount 1 (rule 8: Axes may be null only when AxisCount is 0)"});
    }
    {
        // An axis past the last dimension.
        Desc d(op);
        d.axes = {2};
        check(d, ErrorCode::invalid_descriptor,
              {"Axes {2} has 2 at position 0 but the tensors have 2 dimensions (rule 8"});
    }
    {
        Desc d(op);
        d.axes = {0, 0xFFFFFFFFu};
        d.out_sizes = {1, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"Axes {0,4294967295} has 4294967295 at position 1", "rule 8"});
    }
    {
        // The same axis twice (the output would otherwise be valid).
        Desc d(op);
        d.axes = {1, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"Axes {1,1} names axis 1 twice (rule 8: duplicate axes are an error)"});
    }
    {
        Desc d(op);
        d.axes = {0, 1, 0};
        d.in_sizes = {2, 3, 4};
        d.out_sizes = {1, 1, 4};
        d.in.DimensionCount = d.out.DimensionCount = 3;
        check(d, ErrorCode::invalid_descriptor, {"Axes {0,1,0} names axis 0 twice", "rule 8"});
    }
}

TEST_CASE("reduce validation: rule 7, output rank and sizes", "[gpu][validation][reduce][argminmax]") {
    const DML_OPERATOR_TYPE op = REDUCE_OR_ARG_OPERATOR();
    {
        // The reduced axis squeezed away: the output must keep the input's rank.
        Desc d(op);
        d.out_sizes = {2};
        d.out.DimensionCount = 1;
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.DimensionCount is 1 but InputTensor.DimensionCount is 2 (rule 7"});
    }
    {
        Desc d(op);
        d.out_sizes = {2, 1, 1};
        d.out.DimensionCount = 3;
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.DimensionCount is 3 but InputTensor.DimensionCount is 2 (rule 7"});
    }
    {
        // Not 1 on the reduced axis.
        Desc d(op);
        d.out_sizes = {2, 3};
        check(
            d, ErrorCode::invalid_descriptor,
            {"OutputTensor.Sizes {2,3} for InputTensor.Sizes {2,3} and Axes {1}: dimension 1 is 3, must be 1 "
             "(rule 7"});
    }
    {
        // Different on a kept axis (smaller, larger).
        Desc d(op);
        d.out_sizes = {1, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Sizes {1,1}", ": dimension 0 is 1, must be 2 (rule 7"});
    }
    {
        Desc d(op);
        d.out_sizes = {3, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Sizes {3,1}", ": dimension 0 is 3, must be 2 (rule 7"});
    }
    {
        // AxisCount 0: the output must equal the input's sizes.
        Desc d(op);
        d.axes.clear();
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Sizes {2,1} for InputTensor.Sizes {2,3} and Axes {}: dimension 1 is 1, must be "
               "3"});
    }
}

TEST_CASE("reduce validation: AxisDirection of the standalone operators", "[gpu][validation][argminmax]") {
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
        for (uint32_t raw : {2u, 0xFFFFFFFFu}) {
            Desc d(op);
            set_raw(d.direction, raw);
            INFO("AxisDirection " << raw);
            check(d, ErrorCode::invalid_descriptor,
                  {"AxisDirection is " + std::to_string(static_cast<int32_t>(raw)) +
                   " (must be DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1))"});
        }
    }
}

TEST_CASE("reduce validation: float-only functions refuse integer inputs", "[gpu][validation][reduce]") {
    for (DML_REDUCE_FUNCTION f : kFunctions) {
        if (!is_float_only_function(f)) continue;
        for (DML_TENSOR_DATA_TYPE type : kAllTypes) {
            Desc d(DML_OPERATOR_REDUCE, f);
            d.in.DataType = d.out.DataType = type;
            INFO("function " << static_cast<int>(f) << " on type " << static_cast<int>(type));
            if (vkdml::is_float_type(type)) {
                if (device_has(DML_OPERATOR_REDUCE, type)) accept(d);
            } else {
                check(d, ErrorCode::unsupported_type,
                      {std::string("InputTensor.DataType is ") + vkdml::to_string(type) + " but " +
                       vkdml::to_string(f) + " takes FLOAT16, FLOAT32 or FLOAT64 only (SPEC §4)"});
            }
        }
    }
}

TEST_CASE("reduce validation: arg outputs must be INT32, INT64, UINT32 or UINT64",
          "[gpu][validation][reduce][argminmax]") {
    const DML_OPERATOR_TYPE op = REDUCE_OR_ARG_OPERATOR();
    for (DML_REDUCE_FUNCTION f : {DML_REDUCE_FUNCTION_ARGMAX, DML_REDUCE_FUNCTION_ARGMIN}) {
        if (op != DML_OPERATOR_REDUCE && f == DML_REDUCE_FUNCTION_ARGMIN) continue;
        for (DML_TENSOR_DATA_TYPE type :
             {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_UINT8,
              DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT8,
              DML_TENSOR_DATA_TYPE_UINT16}) {
            Desc d(op, f);
            d.out.DataType = type;
            INFO("output type " << static_cast<int>(type));
            const char* who = op == DML_OPERATOR_REDUCE ? vkdml::to_string(f) : vkdml::to_string(op);
            check(d, ErrorCode::unsupported_type,
                  {std::string("OutputTensor.DataType is ") + vkdml::to_string(type) + " but " + who +
                   " writes indices: INT32, INT64, UINT32 or UINT64 (SPEC §4)"});
        }
    }
}

TEST_CASE("reduce validation: non-arg REDUCE outputs keep the input type", "[gpu][validation][reduce]") {
    const std::vector<std::pair<DML_TENSOR_DATA_TYPE, DML_TENSOR_DATA_TYPE>> pairs = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16},
        {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32},
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32},
        {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64},
        {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT8},
    };
    for (DML_REDUCE_FUNCTION f :
         {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_AVERAGE}) {
        for (const auto& [in_type, out_type] : pairs) {
            if (is_float_only_function(f) && !vkdml::is_float_type(in_type)) continue;
            Desc d(DML_OPERATOR_REDUCE, f);
            d.in.DataType = in_type;
            d.out.DataType = out_type;
            INFO("function " << static_cast<int>(f) << ", " << static_cast<int>(in_type) << " -> "
                             << static_cast<int>(out_type));
            check(d, ErrorCode::unsupported_type,
                  {std::string("OutputTensor.DataType is ") + vkdml::to_string(out_type) +
                   " but InputTensor.DataType is " + vkdml::to_string(in_type) +
                   " (SPEC §4: " + vkdml::to_string(f) + " keeps the data type)"});
        }
    }
}

TEST_CASE("reduce validation: the generic tensor rules", "[gpu][validation][reduce][argminmax]") {
    const DML_OPERATOR_TYPE op = REDUCE_OR_ARG_OPERATOR();
    {
        Desc d(op);
        d.input = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor is null", "rule 1"});
    }
    {
        Desc d(op);
        d.output = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor is null", "rule 1"});
    }
    {
        Desc d(op);
        d.tin.Desc = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Desc is null"});
    }
    {
        Desc d(op);
        d.in.DataType = DML_TENSOR_DATA_TYPE_UNKNOWN;
        check(d, ErrorCode::unsupported_type, {"InputTensor.DataType is 0 (rule 1"});
    }
    {
        Desc d(op);
        set_raw(d.in.DataType, 12);
        check(d, ErrorCode::unsupported_type, {"InputTensor.DataType is 12 (rule 1"});
    }
    {
        Desc d(op);
        set_raw(d.out.DataType, 0xFFFFFFFFu);
        check(d, ErrorCode::unsupported_type, {"OutputTensor.DataType is -1 (rule 1"});
    }
    {
        Desc d(op);
        d.tin.Type = DML_TENSOR_TYPE_INVALID;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.Type is 0 (rule 1: only DML_TENSOR_TYPE_BUFFER"});
    }
    {
        Desc d(op);
        set_raw(d.tout.Type, 7);
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Type is 7 (rule 1"});
    }
    {
        Desc d(op);
        d.tout.Desc = nullptr;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Desc is null (rule 1"});
    }
    {
        Desc d(op);
        d.in.DimensionCount = d.out.DimensionCount = 0;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.DimensionCount is 0 (rule 2: must be 1 to 8)"});
    }
    {
        Desc d(op);
        d.in_sizes = {65536, 65536};
        d.out_sizes = {65536, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.Sizes {65536,65536} has more than 4294967295 elements (rule 2"});
    }
    {
        Desc d(op);
        d.out_sizes = {2, 0};
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Sizes[1] is 0 in {2,0} (rule 2"});
    }
    {
        Desc d(op);
        d.in.Flags = static_cast<DML_TENSOR_FLAGS>(4);
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.Flags is 4 (rule 6: only DML_TENSOR_FLAG_NONE"});
    }
    {
        // Overlapping output layout with non-zero strides (AxisCount 0 keeps the {2,3} shape).
        Desc d(op);
        d.axes.clear();
        d.out_sizes = {2, 3};
        d.out_strides = {1, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Strides {1,1} with Sizes {2,3} map two elements to one address (rule 3"});
    }
    {
        Desc d(op);
        d.in.GuaranteedBaseOffsetAlignment = 2;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.GuaranteedBaseOffsetAlignment is 2 (rule 5: must be 0 or a power of two >= the "
               "element size 4)"});
    }
    {
        Desc d(op);
        d.in_sizes = {2, 0};
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Sizes[1] is 0 in {2,0} (rule 2"});
    }
    {
        Desc d(op);
        d.in.DimensionCount = d.out.DimensionCount = 9;
        d.in_sizes.assign(9, 1);
        d.out_sizes.assign(9, 1);
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.DimensionCount is 9 (rule 2: must be 1 to 8)"});
    }
    {
        Desc d(op);
        d.in.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
        check(d, ErrorCode::invalid_descriptor, {"InputTensor.Flags", "OWNED_BY_DML", "rule 6"});
    }
    {
        Desc d(op);
        d.out.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.Flags", "OWNED_BY_DML", "rule 6"});
    }
    {
        // Output stride 0 on a dimension of size > 1: two outputs at one address.
        Desc d(op);
        d.out_strides = {0, 1};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Strides {0,1} with Sizes {2,1} map two elements to one address (rule 3"});
    }
    {
        Desc d(op);
        d.axes = {0};
        d.out_sizes = {1, 3};
        d.out_strides = {3, 0};
        check(d, ErrorCode::invalid_descriptor,
              {"OutputTensor.Strides {3,0} with Sizes {1,3} map two elements"});
    }
    {
        Desc d(op);
        d.fixed_totals = true;
        d.in.TotalTensorSizeInBytes = 20;
        d.out.TotalTensorSizeInBytes = 64;
        check(d, ErrorCode::invalid_descriptor,
              {"InputTensor.TotalTensorSizeInBytes is 20 but the sizes and strides need 24 bytes (rule 4"});
    }
    {
        Desc d(op);
        d.out.GuaranteedBaseOffsetAlignment = 3;
        check(d, ErrorCode::invalid_descriptor, {"OutputTensor.GuaranteedBaseOffsetAlignment is 3 (rule 5"});
    }
    {
        auto r = test_device().create_operator({op, nullptr});
        REQUIRE_FALSE(r);
        CHECK(r.error().code == ErrorCode::invalid_descriptor);
        CHECK_THAT(r.error().message, Contains("Desc is null"));
    }
}

TEST_CASE("reduce validation: the description and its Axes are deep-copied",
          "[gpu][validation][reduce][argminmax]") {
    const DML_OPERATOR_TYPE op = REDUCE_OR_ARG_OPERATOR();
    auto d = std::make_unique<Desc>(op, DML_REDUCE_FUNCTION_LOG_SUM_EXP);
    d->axes = {1, 0};
    d->out_sizes = {1, 1};
    d->direction = DML_AXIS_DIRECTION_DECREASING;
    auto r = d->create();
    INFO((r ? std::string("created") : r.error().message));
    REQUIRE(r);
    const auto caller_axes = reinterpret_cast<std::uintptr_t>(d->axes.data());
    d.reset();  // the caller's arrays die
    CHECK(r->type() == op);
    const DML_TENSOR_DESC* input = nullptr;
    const uint32_t* axes = nullptr;
    uint32_t count = 0;
    if (op == DML_OPERATOR_REDUCE) {
        const auto& copy = *static_cast<const DML_REDUCE_OPERATOR_DESC*>(r->desc().Desc);
        CHECK(copy.Function == DML_REDUCE_FUNCTION_LOG_SUM_EXP);
        input = copy.InputTensor;
        axes = copy.Axes;
        count = copy.AxisCount;
    } else if (op == DML_OPERATOR_ARGMIN) {
        const auto& copy = *static_cast<const DML_ARGMIN_OPERATOR_DESC*>(r->desc().Desc);
        CHECK(copy.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
        input = copy.InputTensor;
        axes = copy.Axes;
        count = copy.AxisCount;
    } else {
        const auto& copy = *static_cast<const DML_ARGMAX_OPERATOR_DESC*>(r->desc().Desc);
        CHECK(copy.AxisDirection == DML_AXIS_DIRECTION_DECREASING);
        input = copy.InputTensor;
        axes = copy.Axes;
        count = copy.AxisCount;
    }
    REQUIRE(count == 2);
    REQUIRE(axes != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(axes) != caller_axes);  // the operator's own copy
    CHECK(axes[0] == 1);
    CHECK(axes[1] == 0);
    REQUIRE(input != nullptr);
    const auto& in = *static_cast<const DML_BUFFER_TENSOR_DESC*>(input->Desc);
    CHECK(in.DimensionCount == 2);
    CHECK(in.Sizes[0] == 2);
    CHECK(in.Sizes[1] == 3);
    CHECK(in.TotalTensorSizeInBytes == 24);
}

TEST_CASE("reduce validation: an INT32 index output must hold every index", "[gpu][validation][argminmax]") {
    // 2^31 + 1 broadcast elements (stride 0: a 4-byte buffer) have indices up to 2^31, past INT32.
    uint32_t in_sizes[] = {0x80000001u}, in_strides[] = {0}, out_sizes[] = {1};
    const uint32_t axis[] = {0};
    DML_BUFFER_TENSOR_DESC bi{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, in_sizes, in_strides, 4, 0};
    DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &bi};
    for (DML_TENSOR_DATA_TYPE out_type : {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                          DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}) {
        INFO(vkdml::to_string(out_type));
        DML_BUFFER_TENSOR_DESC bo{out_type, DML_TENSOR_FLAG_NONE, 1, out_sizes, nullptr, 8, 0};
        DML_TENSOR_DESC to{DML_TENSOR_TYPE_BUFFER, &bo};
        const DML_ARGMAX_OPERATOR_DESC argmax{&ti, &to, 1, axis, DML_AXIS_DIRECTION_INCREASING};
        const DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_ARGMIN, &ti, &to, 1, axis};
        for (const DML_OPERATOR_DESC desc : {DML_OPERATOR_DESC{DML_OPERATOR_ARGMAX, &argmax},
                                             DML_OPERATOR_DESC{DML_OPERATOR_REDUCE, &reduce}}) {
            auto r = test_device().create_operator(desc);
            if (out_type != DML_TENSOR_DATA_TYPE_INT32) {
                CHECK(r);
                continue;
            }
            REQUIRE_FALSE(r);
            CHECK(r.error().code == ErrorCode::unsupported_type);
            CHECK_THAT(r.error().message,
                       Contains("OutputTensor.DataType is INT32 but the 2147483649 reduced "
                                "elements have indices up to 2147483648"));
        }
    }
    // 2^31 elements fit: the last index is INT32's maximum.
    in_sizes[0] = 0x80000000u;
    DML_BUFFER_TENSOR_DESC bo{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, out_sizes, nullptr, 4, 0};
    DML_TENSOR_DESC to{DML_TENSOR_TYPE_BUFFER, &bo};
    const DML_ARGMAX_OPERATOR_DESC fits{&ti, &to, 1, axis, DML_AXIS_DIRECTION_DECREASING};
    CHECK(test_device().create_operator({DML_OPERATOR_ARGMAX, &fits}));
}
