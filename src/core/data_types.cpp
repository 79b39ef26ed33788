// Element sizes, names and kernel storage of the DirectML data and operator types.
#include "core/data_types.hpp"

#include <array>

namespace vkdml {

uint32_t element_size(DML_TENSOR_DATA_TYPE type) noexcept {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64: return 8;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32: return 4;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16: return 2;
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8: return 1;
    default: return 0;
    }
}

const char* to_string(DML_TENSOR_DATA_TYPE type) noexcept {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    default: return "UNKNOWN";
    }
}

const char* to_string(DML_OPERATOR_TYPE type) noexcept {
    switch (type) {
    case DML_OPERATOR_REDUCE: return "REDUCE";
    case DML_OPERATOR_CUMULATIVE_SUMMATION: return "CUMULATIVE_SUMMATION";
    case DML_OPERATOR_ARGMIN: return "ARGMIN";
    case DML_OPERATOR_ARGMAX: return "ARGMAX";
    case DML_OPERATOR_CUMULATIVE_PRODUCT: return "CUMULATIVE_PRODUCT";
    default: return "INVALID";
    }
}

const char* to_string(DML_REDUCE_FUNCTION function) noexcept {
    switch (function) {
    case DML_REDUCE_FUNCTION_ARGMAX: return "ARGMAX";
    case DML_REDUCE_FUNCTION_ARGMIN: return "ARGMIN";
    case DML_REDUCE_FUNCTION_AVERAGE: return "AVERAGE";
    case DML_REDUCE_FUNCTION_L1: return "L1";
    case DML_REDUCE_FUNCTION_L2: return "L2";
    case DML_REDUCE_FUNCTION_LOG_SUM: return "LOG_SUM";
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return "LOG_SUM_EXP";
    case DML_REDUCE_FUNCTION_MAX: return "MAX";
    case DML_REDUCE_FUNCTION_MIN: return "MIN";
    case DML_REDUCE_FUNCTION_MULTIPLY: return "MULTIPLY";
    case DML_REDUCE_FUNCTION_SUM: return "SUM";
    case DML_REDUCE_FUNCTION_SUM_SQUARE: return "SUM_SQUARE";
    default: return "UNKNOWN";
    }
}

std::span<const DML_TENSOR_DATA_TYPE> all_data_types() noexcept {
    static constexpr std::array<DML_TENSOR_DATA_TYPE, 11> types = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64,
        DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT64};
    return types;
}

namespace detail {

StorageVariant storage_variant(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return {Storage::f16, 2, 4, 8};
    case DML_TENSOR_DATA_TYPE_FLOAT32: return {Storage::f32, 4, 4, 8};
    case DML_TENSOR_DATA_TYPE_FLOAT64: return {Storage::f64, 8, 8, 16};
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8: return {Storage::u8, 1, 4, 4};
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16: return {Storage::u16, 2, 4, 4};
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_UINT32: return {Storage::u32, 4, 4, 4};
    default: return {Storage::u64, 8, 8, 8};
    }
}

StorageVariant pair_variant(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_FLOAT64 ? StorageVariant{Storage::f64x2, 16, 8, 16}
                                             : StorageVariant{Storage::f32x2, 8, 4, 8};
}

DML_TENSOR_DATA_TYPE accumulator_type(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_FLOAT32: return DML_TENSOR_DATA_TYPE_FLOAT32;
    case DML_TENSOR_DATA_TYPE_FLOAT64: return DML_TENSOR_DATA_TYPE_FLOAT64;
    case DML_TENSOR_DATA_TYPE_INT64:
    case DML_TENSOR_DATA_TYPE_UINT64: return DML_TENSOR_DATA_TYPE_UINT64;
    default: return DML_TENSOR_DATA_TYPE_UINT32;
    }
}

}  // namespace detail

}  // namespace vkdml
