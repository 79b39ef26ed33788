// What the library needs to know of each DirectML data type, in one place: the storage variant of the
// kernels that hold it and the type its partials are accumulated in. Its size, name and class (float,
// signed integer) are public (vkdml.hpp: element_size, to_string, is_float_type, is_signed_integer_type).
#pragma once

#include "vkdml/vkdml.hpp"

#include "kernel_ids.hpp"

namespace vkdml::detail {

using vkdml::is_float_type;
using vkdml::is_signed_integer_type;

/// How elements of a data type are held by the kernels: the storage variant compiled for it (signed
/// and unsigned integers share one), its element size, the size of its accumulator and of a scan's
/// partial (float types: a compensated pair of accumulators, compensated.glsl).
struct StorageVariant {
    Storage storage;
    uint32_t element_bytes;
    uint32_t accumulator_bytes;
    uint32_t partial_bytes;
};
StorageVariant storage_variant(DML_TENSOR_DATA_TYPE type);

/// The variant whose elements are compensated pairs of `type`'s accumulators (FLOAT32 or FLOAT64):
/// how a float scan's partials are scanned.
StorageVariant pair_variant(DML_TENSOR_DATA_TYPE type);

/// The type a scan's partials are accumulated in: FLOAT32 (FLOAT16, FLOAT32), FLOAT64, UINT64 (64-bit
/// integers) or UINT32 (narrower integers; two's complement makes signed and unsigned sums alike).
DML_TENSOR_DATA_TYPE accumulator_type(DML_TENSOR_DATA_TYPE type);

/// Elements per vector of the serial kernels' blocks (STORE_V in storage_types.glsl): 16 bytes for
/// 64-bit types, 4 elements otherwise.
constexpr uint32_t vector_width(const StorageVariant& v) {
    return v.element_bytes == 8 ? 2 : 4;
}

}  // namespace vkdml::detail
