// The DirectML descriptor mirror: enum values, struct sizes and field offsets (LP64 layout, which
// matches DirectML's on 64-bit Windows), DMLCalcBufferTensorSize, and the library's enum names.
#include <catch2/catch.hpp>

#include "operator_set.hpp"

#include "vkdml/directml.h"
#include "vkdml/vkdml.hpp"

#include <cstddef>
#include <cstring>
#include <string>

static_assert(DML_TENSOR_DATA_TYPE_UNKNOWN == 0 && DML_TENSOR_DATA_TYPE_FLOAT32 == 1 &&
              DML_TENSOR_DATA_TYPE_FLOAT16 == 2 && DML_TENSOR_DATA_TYPE_UINT32 == 3 &&
              DML_TENSOR_DATA_TYPE_UINT16 == 4 && DML_TENSOR_DATA_TYPE_UINT8 == 5 &&
              DML_TENSOR_DATA_TYPE_INT32 == 6 && DML_TENSOR_DATA_TYPE_INT16 == 7 &&
              DML_TENSOR_DATA_TYPE_INT8 == 8 && DML_TENSOR_DATA_TYPE_FLOAT64 == 9 &&
              DML_TENSOR_DATA_TYPE_UINT64 == 10 && DML_TENSOR_DATA_TYPE_INT64 == 11);
static_assert(DML_TENSOR_TYPE_INVALID == 0 && DML_TENSOR_TYPE_BUFFER == 1);
static_assert(DML_TENSOR_FLAG_NONE == 0 && DML_TENSOR_FLAG_OWNED_BY_DML == 1);
static_assert(DML_OPERATOR_INVALID == 0 && DML_OPERATOR_REDUCE == 55 &&
              DML_OPERATOR_CUMULATIVE_SUMMATION == 105 && DML_OPERATOR_ARGMIN == 137 &&
              DML_OPERATOR_ARGMAX == 138 && DML_OPERATOR_CUMULATIVE_PRODUCT == 145);
static_assert(DML_AXIS_DIRECTION_INCREASING == 0 && DML_AXIS_DIRECTION_DECREASING == 1);
static_assert(DML_REDUCE_FUNCTION_ARGMAX == 0 && DML_REDUCE_FUNCTION_ARGMIN == 1 &&
              DML_REDUCE_FUNCTION_AVERAGE == 2 && DML_REDUCE_FUNCTION_L1 == 3 &&
              DML_REDUCE_FUNCTION_L2 == 4 && DML_REDUCE_FUNCTION_LOG_SUM == 5 &&
              DML_REDUCE_FUNCTION_LOG_SUM_EXP == 6 && DML_REDUCE_FUNCTION_MAX == 7 &&
              DML_REDUCE_FUNCTION_MIN == 8 && DML_REDUCE_FUNCTION_MULTIPLY == 9 &&
              DML_REDUCE_FUNCTION_SUM == 10 && DML_REDUCE_FUNCTION_SUM_SQUARE == 11);
static_assert(DML_EXECUTION_FLAG_NONE == 0 && DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION == 1 &&
              DML_EXECUTION_FLAG_DISABLE_META_COMMANDS == 2 && DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE == 4);
static_assert(DML_FEATURE_LEVEL_1_0 == 0x1000 && DML_FEATURE_LEVEL_2_0 == 0x2000 &&
              DML_FEATURE_LEVEL_2_1 == 0x2100 && DML_FEATURE_LEVEL_3_0 == 0x3000 &&
              DML_FEATURE_LEVEL_3_1 == 0x3100 && DML_FEATURE_LEVEL_4_0 == 0x4000 &&
              DML_FEATURE_LEVEL_4_1 == 0x4100 && DML_FEATURE_LEVEL_5_0 == 0x5000);

static_assert(sizeof(DML_TENSOR_DATA_TYPE) == 4 && sizeof(DML_AXIS_DIRECTION) == 4);
static_assert(sizeof(DML_BUFFER_TENSOR_DESC) == 48);
static_assert(offsetof(DML_BUFFER_TENSOR_DESC, DataType) == 0 &&
              offsetof(DML_BUFFER_TENSOR_DESC, Flags) == 4 &&
              offsetof(DML_BUFFER_TENSOR_DESC, DimensionCount) == 8 &&
              offsetof(DML_BUFFER_TENSOR_DESC, Sizes) == 16 &&
              offsetof(DML_BUFFER_TENSOR_DESC, Strides) == 24 &&
              offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == 32 &&
              offsetof(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment) == 40);
static_assert(sizeof(DML_TENSOR_DESC) == 16 && offsetof(DML_TENSOR_DESC, Desc) == 8);
static_assert(sizeof(DML_OPERATOR_DESC) == 16 && offsetof(DML_OPERATOR_DESC, Desc) == 8);
static_assert(sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC) == 32 &&
              offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, OutputTensor) == 8 &&
              offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, Axis) == 16 &&
              offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, AxisDirection) == 20 &&
              offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, HasExclusiveSum) == 24);
static_assert(sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC) == 32 &&
              offsetof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC, HasExclusiveProduct) == 24);
static_assert(sizeof(DML_REDUCE_OPERATOR_DESC) == 40 &&
              offsetof(DML_REDUCE_OPERATOR_DESC, InputTensor) == 8 &&
              offsetof(DML_REDUCE_OPERATOR_DESC, OutputTensor) == 16 &&
              offsetof(DML_REDUCE_OPERATOR_DESC, AxisCount) == 24 &&
              offsetof(DML_REDUCE_OPERATOR_DESC, Axes) == 32);
static_assert(sizeof(DML_ARGMIN_OPERATOR_DESC) == 40 && offsetof(DML_ARGMIN_OPERATOR_DESC, AxisCount) == 16 &&
              offsetof(DML_ARGMIN_OPERATOR_DESC, Axes) == 24 &&
              offsetof(DML_ARGMIN_OPERATOR_DESC, AxisDirection) == 32);
static_assert(sizeof(DML_ARGMAX_OPERATOR_DESC) == 40 &&
              offsetof(DML_ARGMAX_OPERATOR_DESC, AxisDirection) == 32);
static_assert(sizeof(DML_BINDING_PROPERTIES) == 24 &&
              offsetof(DML_BINDING_PROPERTIES, TemporaryResourceSize) == 8 &&
              offsetof(DML_BINDING_PROPERTIES, PersistentResourceSize) == 16);

TEST_CASE("DMLCalcBufferTensorSize follows DirectML's formula", "[abi]") {
    const uint32_t sizes[] = {1, 1, 3, 4};
    // packed: 12 elements
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, nullptr) == 48);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT64, 4, sizes, nullptr) == 96);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT16, 4, sizes, nullptr) == 24);
    // rounded up to a multiple of 4: 12 int8 = 12, 3 int8 = 4, 3 int16 = 8
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT8, 4, sizes, nullptr) == 12);
    const uint32_t three[] = {3};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT8, 1, three, nullptr) == 4);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT16, 1, three, nullptr) == 8);
    // strided: last = (3-1)*10 + (4-1)*2 = 26 -> 27 elements * 4 = 108
    const uint32_t strides[] = {0, 0, 10, 2};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT32, 4, sizes, strides) == 108);
    // broadcast: all strides zero -> one element, 2 bytes rounded to 4
    const uint32_t zeros[] = {0, 0, 0, 0};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT16, 4, sizes, zeros) == 4);
    // 64-bit arithmetic: 2^32-1 elements of 8 bytes
    const uint32_t big[] = {0xFFFFFFFFu};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT64, 1, big, nullptr) == 0xFFFFFFFFull * 8);
    const uint32_t big2[] = {65536, 65536};
    const uint32_t big2_strides[] = {65536, 1};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, big2, big2_strides) ==
          65536ull * 65536 * 4);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UNKNOWN, 4, sizes, nullptr) == 0);
}

TEST_CASE("the operator table: every implemented operator once, with its names; others are INVALID",
          "[abi]") {
    struct Row {
        DML_OPERATOR_TYPE type;
        const char *name, *command, *python;
        bool cumulative;
    };
    const Row expected[] = {
        {DML_OPERATOR_CUMULATIVE_SUMMATION, "CUMULATIVE_SUMMATION", "cumsum", "cumulative_sum", true},
        {DML_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", "cumprod", "cumulative_product", true},
        {VKDML_OPERATOR_CUMULATIVE_MAXIMUM, "CUMULATIVE_MAXIMUM", "cummax", "cumulative_maximum", true},
        {VKDML_OPERATOR_CUMULATIVE_MINIMUM, "CUMULATIVE_MINIMUM", "cummin", "cumulative_minimum", true},
        {VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, "LOG_CUMULATIVE_SUM_EXP", "logcumsumexp",
         "log_cumulative_sum_exp", true},
        {DML_OPERATOR_REDUCE, "REDUCE", "reduce", "reduce", false},
        {DML_OPERATOR_ARGMIN, "ARGMIN", "argmin", "argmin", false},
        {DML_OPERATOR_ARGMAX, "ARGMAX", "argmax", "argmax", false},
    };
    const auto table = vkdml::operators();
    REQUIRE(table.size() == std::size(expected));
    for (size_t i = 0; i < table.size(); ++i) {
        INFO(expected[i].name);
        CHECK(table[i].type == expected[i].type);
        CHECK(std::string(table[i].name) == expected[i].name);
        CHECK(std::string(table[i].command) == expected[i].command);
        CHECK(std::string(table[i].python) == expected[i].python);
        CHECK(table[i].cumulative == expected[i].cumulative);
        CHECK(std::string(vkdml::to_string(table[i].type)) == expected[i].name);  // one name, the table's
    }
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_INVALID)) == "INVALID");
    CHECK(std::string(vkdml::to_string(static_cast<DML_OPERATOR_TYPE>(1))) ==
          "INVALID");  // ELEMENT_WISE_IDENTITY
    CHECK(std::string(vkdml::to_string(static_cast<DML_OPERATOR_TYPE>(100000))) == "INVALID");
    // The tests' one description of each operator (operator_set.hpp) covers the table, in its order.
    const vkdml_test::OperatorSet set(DML_TENSOR_DATA_TYPE_FLOAT32);
    const auto all = set.all();
    REQUIRE(all.size() == table.size());
    for (size_t i = 0; i < table.size(); ++i) CHECK(all[i].Type == table[i].type);
}

TEST_CASE("names of operators, data types and reduce functions", "[abi]") {
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_REDUCE)) == "REDUCE");
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_ARGMIN)) == "ARGMIN");
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_ARGMAX)) == "ARGMAX");
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_CUMULATIVE_SUMMATION)) == "CUMULATIVE_SUMMATION");
    CHECK(std::string(vkdml::to_string(DML_OPERATOR_CUMULATIVE_PRODUCT)) == "CUMULATIVE_PRODUCT");
    CHECK(std::string(vkdml::to_string(DML_TENSOR_DATA_TYPE_UINT64)) == "UINT64");
    const char* functions[] = {"ARGMAX",      "ARGMIN", "AVERAGE", "L1",       "L2",  "LOG_SUM",
                               "LOG_SUM_EXP", "MAX",    "MIN",     "MULTIPLY", "SUM", "SUM_SQUARE"};
    for (uint32_t f = 0; f < 12; ++f)
        CHECK(std::string(vkdml::to_string(static_cast<DML_REDUCE_FUNCTION>(f))) == functions[f]);
    DML_REDUCE_FUNCTION out_of_range;
    const uint32_t twelve = 12;
    std::memcpy(&out_of_range, &twelve, sizeof twelve);
    CHECK(std::string(vkdml::to_string(out_of_range)) == "UNKNOWN");
}

TEST_CASE("element sizes of the 11 data types", "[abi]") {
    const std::pair<DML_TENSOR_DATA_TYPE, uint32_t> sizes[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, 4}, {DML_TENSOR_DATA_TYPE_FLOAT16, 2},
        {DML_TENSOR_DATA_TYPE_UINT32, 4},  {DML_TENSOR_DATA_TYPE_UINT16, 2},
        {DML_TENSOR_DATA_TYPE_UINT8, 1},   {DML_TENSOR_DATA_TYPE_INT32, 4},
        {DML_TENSOR_DATA_TYPE_INT16, 2},   {DML_TENSOR_DATA_TYPE_INT8, 1},
        {DML_TENSOR_DATA_TYPE_FLOAT64, 8}, {DML_TENSOR_DATA_TYPE_UINT64, 8},
        {DML_TENSOR_DATA_TYPE_INT64, 8},   {DML_TENSOR_DATA_TYPE_UNKNOWN, 0},
    };
    for (const auto& [type, bytes] : sizes) {
        INFO("data type " << static_cast<int>(type));
        CHECK(vkdml::element_size(type) == bytes);
    }
    DML_TENSOR_DATA_TYPE out_of_range{};
    const int value = 12;
    std::memcpy(&out_of_range, &value, sizeof value);
    CHECK(vkdml::element_size(out_of_range) == 0);
}
