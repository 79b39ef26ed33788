/* vkdml/directml.h — a mirror of the parts of DirectML's descriptor API that vkdml implements.
 *
 * Names, field order and numeric values are those of Microsoft's DirectML.h, so code written against
 * DirectML descriptors compiles unchanged. Windows types are spelled with their fixed-width
 * equivalents (UINT = uint32_t, UINT64 = uint64_t, BOOL = int32_t), which keeps the struct layouts
 * identical on LP64 and LLP64 platforms. When the real DirectML.h has already been included
 * (it defines DIRECTML_H), this mirror steps aside and the real definitions are used.
 *
 * The file is plain C (C99) and C++ compatible and depends on nothing but <stdint.h>.
 */
#ifndef VKDML_DIRECTML_H
#define VKDML_DIRECTML_H

#include <stdint.h>

#if !defined(DIRECTML_H)
#define VKDML_DIRECTML_MIRROR 1

/* In C++ the enums get a fixed underlying type, int (4 bytes, as compilers lay DirectML's out):
 * then every 32-bit value a caller stores in an enum field is a valid value of it, and the library
 * can read and refuse an out-of-range one (without it, loading 4 from a DML_TENSOR_FLAGS field is
 * undefined behaviour in C++). Layout and values are unchanged. */
#ifdef __cplusplus
#define VKDML_ENUM_BASE : int
#else
#define VKDML_ENUM_BASE
#endif

/** Element type of a tensor. */
typedef enum DML_TENSOR_DATA_TYPE VKDML_ENUM_BASE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DML_TENSOR_DATA_TYPE_UINT32 = 3,
    DML_TENSOR_DATA_TYPE_UINT16 = 4,
    DML_TENSOR_DATA_TYPE_UINT8 = 5,
    DML_TENSOR_DATA_TYPE_INT32 = 6,
    DML_TENSOR_DATA_TYPE_INT16 = 7,
    DML_TENSOR_DATA_TYPE_INT8 = 8,
    DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DML_TENSOR_DATA_TYPE_UINT64 = 10,
    DML_TENSOR_DATA_TYPE_INT64 = 11,
} DML_TENSOR_DATA_TYPE;

/** Kind of tensor description held by DML_TENSOR_DESC::Desc (only buffer tensors exist). */
typedef enum DML_TENSOR_TYPE VKDML_ENUM_BASE {
    DML_TENSOR_TYPE_INVALID = 0,
    DML_TENSOR_TYPE_BUFFER = 1,
} DML_TENSOR_TYPE;

/** Bit flags of a buffer tensor. vkdml rejects OWNED_BY_DML: its operators have no constant inputs. */
typedef enum DML_TENSOR_FLAGS VKDML_ENUM_BASE {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1,
} DML_TENSOR_FLAGS;

/** Operator kinds implemented by vkdml (DirectML's numbers; the others are not defined here). */
typedef enum DML_OPERATOR_TYPE VKDML_ENUM_BASE {
    DML_OPERATOR_INVALID = 0,
    DML_OPERATOR_REDUCE = 55,
    DML_OPERATOR_CUMULATIVE_SUMMATION = 105,
    DML_OPERATOR_ARGMIN = 137,
    DML_OPERATOR_ARGMAX = 138,
    DML_OPERATOR_CUMULATIVE_PRODUCT = 145,
} DML_OPERATOR_TYPE;

/** Direction in which a cumulative operator walks its axis (or which tie an arg operator keeps). */
typedef enum DML_AXIS_DIRECTION VKDML_ENUM_BASE {
    DML_AXIS_DIRECTION_INCREASING = 0,
    DML_AXIS_DIRECTION_DECREASING = 1,
} DML_AXIS_DIRECTION;

/** Fold applied by DML_REDUCE_OPERATOR_DESC. */
typedef enum DML_REDUCE_FUNCTION VKDML_ENUM_BASE {
    DML_REDUCE_FUNCTION_ARGMAX = 0,
    DML_REDUCE_FUNCTION_ARGMIN = 1,
    DML_REDUCE_FUNCTION_AVERAGE = 2,
    DML_REDUCE_FUNCTION_L1 = 3,
    DML_REDUCE_FUNCTION_L2 = 4,
    DML_REDUCE_FUNCTION_LOG_SUM = 5,
    DML_REDUCE_FUNCTION_LOG_SUM_EXP = 6,
    DML_REDUCE_FUNCTION_MAX = 7,
    DML_REDUCE_FUNCTION_MIN = 8,
    DML_REDUCE_FUNCTION_MULTIPLY = 9,
    DML_REDUCE_FUNCTION_SUM = 10,
    DML_REDUCE_FUNCTION_SUM_SQUARE = 11,
} DML_REDUCE_FUNCTION;

/** Bit flags given at compile time. */
typedef enum DML_EXECUTION_FLAGS VKDML_ENUM_BASE {
    DML_EXECUTION_FLAG_NONE = 0,
    DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
    DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
    DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
} DML_EXECUTION_FLAGS;

/** DirectML feature levels (informational; vkdml implements a superset of 5_0 for its operators). */
typedef enum DML_FEATURE_LEVEL VKDML_ENUM_BASE {
    DML_FEATURE_LEVEL_1_0 = 0x1000,
    DML_FEATURE_LEVEL_2_0 = 0x2000,
    DML_FEATURE_LEVEL_2_1 = 0x2100,
    DML_FEATURE_LEVEL_3_0 = 0x3000,
    DML_FEATURE_LEVEL_3_1 = 0x3100,
    DML_FEATURE_LEVEL_4_0 = 0x4000,
    DML_FEATURE_LEVEL_4_1 = 0x4100,
    DML_FEATURE_LEVEL_5_0 = 0x5000,
} DML_FEATURE_LEVEL;

/** A tensor living in a buffer. Sizes and Strides have DimensionCount entries; Strides are in
 *  elements and may be null (packed row-major). TotalTensorSizeInBytes is the size of the buffer
 *  range the tensor occupies (at least DMLCalcBufferTensorSize). */
typedef struct DML_BUFFER_TENSOR_DESC {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    uint32_t DimensionCount;
    const uint32_t* Sizes;
    const uint32_t* Strides;
    uint64_t TotalTensorSizeInBytes;
    uint32_t GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

/** Type-tagged pointer to a tensor description (Desc points at a DML_BUFFER_TENSOR_DESC). */
typedef struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void* Desc;
} DML_TENSOR_DESC;

/** Type-tagged pointer to one of the operator descriptions below. */
typedef struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type;
    const void* Desc;
} DML_OPERATOR_DESC;

/** Running sum along Axis (DML_OPERATOR_CUMULATIVE_SUMMATION). */
typedef struct DML_CUMULATIVE_SUMMATION_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;
    DML_AXIS_DIRECTION AxisDirection;
    int32_t HasExclusiveSum;
} DML_CUMULATIVE_SUMMATION_OPERATOR_DESC;

/** Running product along Axis (DML_OPERATOR_CUMULATIVE_PRODUCT). */
typedef struct DML_CUMULATIVE_PRODUCT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;
    DML_AXIS_DIRECTION AxisDirection;
    int32_t HasExclusiveProduct;
} DML_CUMULATIVE_PRODUCT_OPERATOR_DESC;

/** Fold of the input over Axes (DML_OPERATOR_REDUCE). */
typedef struct DML_REDUCE_OPERATOR_DESC {
    DML_REDUCE_FUNCTION Function;
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount;
    const uint32_t* Axes;
} DML_REDUCE_OPERATOR_DESC;

/** Index of the smallest element over Axes (DML_OPERATOR_ARGMIN). */
typedef struct DML_ARGMIN_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount;
    const uint32_t* Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMIN_OPERATOR_DESC;

/** Index of the largest element over Axes (DML_OPERATOR_ARGMAX). */
typedef struct DML_ARGMAX_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount;
    const uint32_t* Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMAX_OPERATOR_DESC;

/** What a compiled operator needs bound: descriptors, scratch and persistent bytes. */
typedef struct DML_BINDING_PROPERTIES {
    uint32_t RequiredDescriptorCount;
    uint64_t TemporaryResourceSize;
    uint64_t PersistentResourceSize;
} DML_BINDING_PROPERTIES;

/** Bytes a buffer tensor needs: the offset one past its last element (sizes and strides in
 *  elements, packed row-major strides when strides is null) times the element size, rounded up to
 *  a multiple of 4. Computed in 64-bit. Returns 0 for an unknown data type. */
static inline uint64_t DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE dataType, uint32_t dimensionCount,
                                               const uint32_t* sizes, const uint32_t* strides) {
    uint64_t elementSize = 0;
    switch (dataType) {
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64: elementSize = 8; break;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32: elementSize = 4; break;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16: elementSize = 2; break;
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8: elementSize = 1; break;
    default: return 0;
    }
    uint64_t minimumImpliedSizeInBytes;
    if (!strides) {
        uint64_t count = 1;
        for (uint32_t i = 0; i < dimensionCount; ++i) count *= sizes[i];
        minimumImpliedSizeInBytes = count * elementSize;
    } else {
        uint64_t indexOfLastElement = 0;
        for (uint32_t i = 0; i < dimensionCount; ++i) {
            uint64_t size = sizes[i];
            indexOfLastElement += (size - 1) * strides[i];
        }
        minimumImpliedSizeInBytes = (indexOfLastElement + 1) * elementSize;
    }
    return (minimumImpliedSizeInBytes + 3) / 4 * 4;
}

#endif /* !DIRECTML_H */
#endif /* VKDML_DIRECTML_H */
