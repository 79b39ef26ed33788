// Element sizes, names and kernel storage of the DirectML data and operator types.
#include "core/data_types.hpp"

#include <array>

namespace vkdml {

uint32_t element_size(DML_TENSOR_DATA_TYPE type) noexcept {
    const TypeInfo* info = type_info(type);
    return info ? info->size : 0;
}

const char* to_string(DML_TENSOR_DATA_TYPE type) noexcept {
    const TypeInfo* info = type_info(type);
    return info ? info->name : "UNKNOWN";
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
    default: break;
    }
    switch (static_cast<int>(function)) {
    case VKDML_REDUCE_FUNCTION_VARIANCE: return "VARIANCE";
    case VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION: return "STANDARD_DEVIATION";
    case VKDML_REDUCE_FUNCTION_ANY: return "ANY";
    case VKDML_REDUCE_FUNCTION_ALL: return "ALL";
    case VKDML_REDUCE_FUNCTION_COUNT_NONZERO: return "COUNT_NONZERO";
    default: return "UNKNOWN";
    }
}

std::span<const DML_TENSOR_DATA_TYPE> all_data_types() noexcept {
    static constexpr auto types = [] {
        std::array<DML_TENSOR_DATA_TYPE, std::size(kTypeInfo)> all{};
        for (size_t i = 0; i < all.size(); ++i) all[i] = kTypeInfo[i].type;
        return all;
    }();
    return types;
}

static_assert(
    [] {
        for (size_t i = 0; i < std::size(kTypeInfo); ++i)
            if (kTypeInfo[i].type != static_cast<DML_TENSOR_DATA_TYPE>(i + 1)) return false;
        return true;
    }(),
    "kTypeInfo holds the types in DML_TENSOR_DATA_TYPE order, from 1");

namespace detail {

namespace {

/// The storage variant of elements of `size` bytes of a class: floats by their width, integers by
/// theirs (signed and unsigned share one).
Storage storage_of(TypeClass c, uint32_t size) {
    if (c == TypeClass::floating_point)
        return size == 2 ? Storage::f16 : size == 4 ? Storage::f32 : Storage::f64;
    return size == 1 ? Storage::u8 : size == 2 ? Storage::u16 : size == 4 ? Storage::u32 : Storage::u64;
}

}  // namespace

StorageVariant storage_variant(DML_TENSOR_DATA_TYPE t) {
    // (Validation has refused every other type; UINT64's row keeps a stray value in bounds.)
    const TypeInfo& info = type_info(t) ? *type_info(t) : *type_info(DML_TENSOR_DATA_TYPE_UINT64);
    const uint32_t acc = element_size(info.accumulator);
    // A scan's partial: a compensated pair of accumulators for floats, one accumulator otherwise.
    const uint32_t partial = info.type_class == TypeClass::floating_point ? 2 * acc : acc;
    return {storage_of(info.type_class, info.size), info.size, acc, partial};
}

StorageVariant pair_variant(DML_TENSOR_DATA_TYPE t) {
    // Float carries only: FLOAT64's pairs of doubles, else pairs of floats.
    return t == DML_TENSOR_DATA_TYPE_FLOAT64 ? StorageVariant{Storage::f64x2, 16, 8, 16}
                                             : StorageVariant{Storage::f32x2, 8, 4, 8};
}

DML_TENSOR_DATA_TYPE accumulator_type(DML_TENSOR_DATA_TYPE t) {
    const TypeInfo* info = type_info(t);
    return info ? info->accumulator : DML_TENSOR_DATA_TYPE_UINT32;
}

}  // namespace detail

}  // namespace vkdml
