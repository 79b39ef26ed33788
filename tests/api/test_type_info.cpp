// tests/api/test_type_info.cpp — vkdml::kTypeInfo, the one data-type table: every row's values pinned, and
// the functions that read it (element_size, to_string, is_float_type, is_signed_integer_type,
// all_data_types).
#include <catch2/catch.hpp>

#include "vkdml/vkdml.hpp"

#include <string>

TEST_CASE("type_info: one row per DirectML type, in DML_TENSOR_DATA_TYPE order", "[types]") {
    struct Expected {
        DML_TENSOR_DATA_TYPE type;
        uint32_t size;
        std::string name, numpy;
        char kind;
        DML_TENSOR_DATA_TYPE accumulator;
        std::string features;
        bool index_output;
    };
    using T = DML_TENSOR_DATA_TYPE;
    const Expected table[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, 4, "FLOAT32", "float32", 'f', DML_TENSOR_DATA_TYPE_FLOAT32, "", false},
        {DML_TENSOR_DATA_TYPE_FLOAT16, 2, "FLOAT16", "float16", 'f', DML_TENSOR_DATA_TYPE_FLOAT32,
         "storageBuffer16BitAccess", false},
        {DML_TENSOR_DATA_TYPE_UINT32, 4, "UINT32", "uint32", 'u', DML_TENSOR_DATA_TYPE_UINT32, "", true},
        {DML_TENSOR_DATA_TYPE_UINT16, 2, "UINT16", "uint16", 'u', DML_TENSOR_DATA_TYPE_UINT32,
         "storageBuffer16BitAccess", false},
        {DML_TENSOR_DATA_TYPE_UINT8, 1, "UINT8", "uint8", 'u', DML_TENSOR_DATA_TYPE_UINT32,
         "storageBuffer8BitAccess", false},
        {DML_TENSOR_DATA_TYPE_INT32, 4, "INT32", "int32", 'i', DML_TENSOR_DATA_TYPE_UINT32, "", true},
        {DML_TENSOR_DATA_TYPE_INT16, 2, "INT16", "int16", 'i', DML_TENSOR_DATA_TYPE_UINT32,
         "storageBuffer16BitAccess", false},
        {DML_TENSOR_DATA_TYPE_INT8, 1, "INT8", "int8", 'i', DML_TENSOR_DATA_TYPE_UINT32,
         "storageBuffer8BitAccess", false},
        {DML_TENSOR_DATA_TYPE_FLOAT64, 8, "FLOAT64", "float64", 'f', DML_TENSOR_DATA_TYPE_FLOAT64,
         "shaderFloat64", false},
        {DML_TENSOR_DATA_TYPE_UINT64, 8, "UINT64", "uint64", 'u', DML_TENSOR_DATA_TYPE_UINT64,
         "shaderInt64 shaderSubgroupExtendedTypes", true},
        {DML_TENSOR_DATA_TYPE_INT64, 8, "INT64", "int64", 'i', DML_TENSOR_DATA_TYPE_UINT64,
         "shaderInt64 shaderSubgroupExtendedTypes", true},
    };
    REQUIRE(std::size(vkdml::kTypeInfo) == std::size(table));
    REQUIRE(vkdml::all_data_types().size() == std::size(table));
    for (size_t i = 0; i < std::size(table); ++i) {
        const Expected& e = table[i];
        INFO(e.name);
        const vkdml::TypeInfo* info = vkdml::type_info(e.type);
        REQUIRE(info == &vkdml::kTypeInfo[i]);
        CHECK(info->type == static_cast<T>(i + 1));
        CHECK(info->size == e.size);
        CHECK(info->name == e.name);
        CHECK(info->numpy_name == e.numpy);
        CHECK(info->numpy_kind == e.kind);
        CHECK(info->accumulator == e.accumulator);
        std::string features;
        for (const char* f : info->features)
            if (f) features += (features.empty() ? "" : " ") + std::string(f);
        CHECK(features == e.features);
        CHECK(info->index_output == e.index_output);
        // The functions read the row.
        CHECK(vkdml::element_size(e.type) == e.size);
        CHECK(std::string(vkdml::to_string(e.type)) == e.name);
        CHECK(vkdml::is_float_type(e.type) == (e.kind == 'f'));
        CHECK(vkdml::is_signed_integer_type(e.type) == (e.kind == 'i'));
        CHECK(vkdml::all_data_types()[i] == e.type);
        CHECK(info->type_class == (e.kind == 'f'   ? vkdml::TypeClass::floating_point
                                   : e.kind == 'i' ? vkdml::TypeClass::signed_integer
                                                   : vkdml::TypeClass::unsigned_integer));
    }
    for (T bad : {DML_TENSOR_DATA_TYPE_UNKNOWN, static_cast<T>(12), static_cast<T>(-1)}) {
        CHECK(vkdml::type_info(bad) == nullptr);
        CHECK(vkdml::element_size(bad) == 0);
        CHECK(std::string(vkdml::to_string(bad)) == "UNKNOWN");
        CHECK_FALSE(vkdml::is_float_type(bad));
    }
    static_assert(vkdml::type_info(DML_TENSOR_DATA_TYPE_INT16)->size == 2, "the table is constexpr");
}
