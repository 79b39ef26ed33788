// Helpers every planner shares (see plan.hpp).
#include "plan.hpp"

#include <algorithm>

namespace vkdml::detail {

StorageVariant storage_variant(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return {"f16", 2, 4, 8};
    case DML_TENSOR_DATA_TYPE_FLOAT32: return {"f32", 4, 4, 8};
    case DML_TENSOR_DATA_TYPE_FLOAT64: return {"f64", 8, 8, 16};
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8: return {"u8", 1, 4, 4};
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16: return {"u16", 2, 4, 4};
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_UINT32: return {"u32", 4, 4, 4};
    default: return {"u64", 8, 8, 8};
    }
}

StorageVariant pair_variant(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_FLOAT64 ? StorageVariant{"f64x2", 16, 8, 16}
                                             : StorageVariant{"f32x2", 8, 4, 8};
}

bool is_float(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 ||
           t == DML_TENSOR_DATA_TYPE_FLOAT64;
}

uint32_t vector_width(const StorageVariant& v) {
    return v.element_bytes == 8 ? 2 : 4;
}

bool is_signed_integer(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_INT16 ||
           t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

uint64_t allocate_scratch(const DeviceInfo& info, Plan& plan, uint64_t bytes) {
    uint64_t align = std::max<uint64_t>(16, info.min_storage_buffer_offset_alignment);
    uint64_t offset = ceil_div(plan.temporary_bytes, align) * align;
    plan.temporary_bytes = offset + bytes;
    return offset;
}

bool fold_groups(const DeviceInfo& info, uint64_t groups, uint32_t& x, uint32_t& y) {
    uint64_t max_x = std::max<uint32_t>(1, info.max_workgroup_count[0]);
    uint64_t gx = std::min<uint64_t>(std::max<uint64_t>(groups, 1), max_x);
    uint64_t gy = ceil_div(std::max<uint64_t>(groups, 1), gx);
    if (gy > info.max_workgroup_count[1]) return false;
    x = static_cast<uint32_t>(gx);
    y = static_cast<uint32_t>(gy);
    return true;
}

}  // namespace vkdml::detail
