/* vkdml/directml.h — a mirror of the parts of DirectML's descriptor API that vkdml implements.
 *
 * Names, field order and numeric values are those of Microsoft's DirectML.h, so code written against
 * DirectML descriptors compiles unchanged. Windows types are spelled with their fixed-width
 * equivalents (UINT = uint32_t, UINT64 = uint64_t, BOOL = int32_t), which keeps the struct layouts
 * identical on LP64 and LLP64 platforms. When the real DirectML.h has already been included
 * (it defines DIRECTML_H), this mirror steps aside and the real definitions are used.
 *
 * The descriptions are plain data that the caller owns. vkdml reads them only during the call they
 * are passed to (Device::create_operator, HostExecution::create, execute), deep-copying what it keeps,
 * so every struct and array may be freed as soon as that call returns. What vkdml accepts is the
 * contract of SPEC §2 (tensor rules, numbered below as "rule N") and §4 (data types); a description
 * that breaks it is refused with an error (provided its pointers are valid), never a crash. SPEC is
 * the operator contract, installed as <prefix>/share/doc/vkdml/SPEC.md.
 *
 * The file is plain C (C99) and C++ compatible and depends on nothing but <stdint.h>.
 */
#ifndef VKDML_DIRECTML_H
#define VKDML_DIRECTML_H

#include <stdint.h>

#if !defined(DIRECTML_H)
/** Defined (to 1) when this mirror's definitions are in use, undefined when the real DirectML.h's are. */
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

/** Element type of a tensor. Integers are two's complement and wrap modulo 2^bits in sums and
 *  products. vkdml accepts all 11 numeric types as any operator's input (REDUCE's AVERAGE, L2, LOG_SUM
 *  and LOG_SUM_EXP: float types only, SPEC §4); all but FLOAT32, INT32 and UINT32 need optional Vulkan
 *  features (vkdml::Device::supports). */
typedef enum DML_TENSOR_DATA_TYPE VKDML_ENUM_BASE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0, /**< no type: refused (ErrorCode::unsupported_type) */
    DML_TENSOR_DATA_TYPE_FLOAT32 = 1, /**< IEEE binary32, 4 bytes */
    DML_TENSOR_DATA_TYPE_FLOAT16 = 2, /**< IEEE binary16, 2 bytes; accumulated in FLOAT32 */
    DML_TENSOR_DATA_TYPE_UINT32 = 3,  /**< 4 bytes */
    DML_TENSOR_DATA_TYPE_UINT16 = 4,  /**< 2 bytes */
    DML_TENSOR_DATA_TYPE_UINT8 = 5,   /**< 1 byte */
    DML_TENSOR_DATA_TYPE_INT32 = 6,   /**< 4 bytes */
    DML_TENSOR_DATA_TYPE_INT16 = 7,   /**< 2 bytes */
    DML_TENSOR_DATA_TYPE_INT8 = 8,    /**< 1 byte */
    DML_TENSOR_DATA_TYPE_FLOAT64 = 9, /**< IEEE binary64, 8 bytes */
    DML_TENSOR_DATA_TYPE_UINT64 = 10, /**< 8 bytes */
    DML_TENSOR_DATA_TYPE_INT64 = 11,  /**< 8 bytes */
} DML_TENSOR_DATA_TYPE;

/** Kind of tensor description held by DML_TENSOR_DESC::Desc (only buffer tensors exist). */
typedef enum DML_TENSOR_TYPE VKDML_ENUM_BASE {
    DML_TENSOR_TYPE_INVALID = 0, /**< refused (rule 1, ErrorCode::invalid_descriptor) */
    DML_TENSOR_TYPE_BUFFER = 1,  /**< Desc points at a DML_BUFFER_TENSOR_DESC */
} DML_TENSOR_TYPE;

/** Bit flags of a buffer tensor. vkdml accepts only NONE (rule 6): any other value is
 *  ErrorCode::invalid_descriptor. */
typedef enum DML_TENSOR_FLAGS VKDML_ENUM_BASE {
    DML_TENSOR_FLAG_NONE = 0x0, /**< the tensor is bound at execution (the only value vkdml accepts) */
    /** In DirectML, a constant input bound once at initialisation and owned by the compiled operator.
     *  Refused: vkdml's operators have no constant inputs. */
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1,
} DML_TENSOR_FLAGS;

/** Operator kinds implemented by vkdml (DirectML's numbers; the others are not defined here, and any
 *  other value is ErrorCode::invalid_descriptor). */
typedef enum DML_OPERATOR_TYPE VKDML_ENUM_BASE {
    DML_OPERATOR_INVALID = 0,                /**< no operator: refused */
    DML_OPERATOR_REDUCE = 55,                /**< Desc: DML_REDUCE_OPERATOR_DESC */
    DML_OPERATOR_CUMULATIVE_SUMMATION = 105, /**< Desc: DML_CUMULATIVE_SUMMATION_OPERATOR_DESC */
    DML_OPERATOR_ARGMIN = 137,               /**< Desc: DML_ARGMIN_OPERATOR_DESC */
    DML_OPERATOR_ARGMAX = 138,               /**< Desc: DML_ARGMAX_OPERATOR_DESC */
    DML_OPERATOR_CUMULATIVE_PRODUCT = 145,   /**< Desc: DML_CUMULATIVE_PRODUCT_OPERATOR_DESC */
} DML_OPERATOR_TYPE;

/** Direction in which a cumulative operator walks its axis, or which of tied elements ARGMIN/ARGMAX
 *  report. Any other value is ErrorCode::invalid_descriptor. */
typedef enum DML_AXIS_DIRECTION VKDML_ENUM_BASE {
    /** Cumulative: from index 0 up (y[k] folds x[0..k]). Arg: the first (lowest) index among ties. */
    DML_AXIS_DIRECTION_INCREASING = 0,
    /** Cumulative: from the last index down (y[k] folds x[k..L-1]). Arg: the last (highest) index. */
    DML_AXIS_DIRECTION_DECREASING = 1,
} DML_AXIS_DIRECTION;

/** Fold applied by DML_REDUCE_OPERATOR_DESC to the N input elements of each output element (SPEC §3).
 *  The output type equals the input type, except for the arg functions. A value above 11 is
 *  ErrorCode::invalid_descriptor. */
typedef enum DML_REDUCE_FUNCTION VKDML_ENUM_BASE {
    /** Index of the largest element (first among ties; first NaN). Output INT32, INT64, UINT32 or UINT64. */
    DML_REDUCE_FUNCTION_ARGMAX = 0,
    /** Index of the smallest element (first among ties; first NaN). Output INT32, INT64, UINT32 or UINT64. */
    DML_REDUCE_FUNCTION_ARGMIN = 1,
    DML_REDUCE_FUNCTION_AVERAGE = 2,     /**< sum / N; float types only (else ErrorCode::unsupported_type) */
    DML_REDUCE_FUNCTION_L1 = 3,          /**< sum of |x| */
    DML_REDUCE_FUNCTION_L2 = 4,          /**< sqrt of the sum of x^2; float types only */
    DML_REDUCE_FUNCTION_LOG_SUM = 5,     /**< natural log of the sum; float types only */
    DML_REDUCE_FUNCTION_LOG_SUM_EXP = 6, /**< ln(sum of exp(x)), overflow-safe; float types only */
    DML_REDUCE_FUNCTION_MAX = 7,         /**< largest element (NaN if any is NaN) */
    DML_REDUCE_FUNCTION_MIN = 8,         /**< smallest element (NaN if any is NaN) */
    DML_REDUCE_FUNCTION_MULTIPLY = 9,    /**< product */
    DML_REDUCE_FUNCTION_SUM = 10,        /**< sum */
    DML_REDUCE_FUNCTION_SUM_SQUARE = 11, /**< sum of x^2 */
} DML_REDUCE_FUNCTION;

/** Bit flags given at compile time (vkdml::Device::compile_operator). vkdml accepts all three and
 *  behaves the same with or without them; any other bit is ErrorCode::invalid_argument. */
typedef enum DML_EXECUTION_FLAGS VKDML_ENUM_BASE {
    DML_EXECUTION_FLAG_NONE = 0, /**< no flag */
    /** DirectML: FLOAT16 data may be computed in half precision. vkdml still accumulates FLOAT16 in
     *  FLOAT32 (SPEC §3). */
    DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
    /** DirectML: do not use D3D12 meta commands. vkdml has none. */
    DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
    /** DirectML: descriptors may change until execution. vkdml pushes the buffer ranges into the command
     *  buffer at record time, so nothing is read from the bindings later. */
    DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
} DML_EXECUTION_FLAGS;

/** DirectML feature levels. Informational: no vkdml function takes or reports one; for its operators
 *  vkdml accepts a superset of what level 5_0 allows (FLOAT64 and 8/16-bit integer math, SPEC §4). */
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

/** A tensor living in a range of a buffer: element i0,...,iN-1 lies at element offset
 *  sum(i_d * Strides[d]) from the start of the range, i.e. at that times the element size in bytes.
 *  Violations of the rules below are ErrorCode::invalid_descriptor (unsupported_type for DataType). */
typedef struct DML_BUFFER_TENSOR_DESC {
    /** Element type; not UNKNOWN, and allowed for the operator (rule 1, SPEC §4). */
    DML_TENSOR_DATA_TYPE DataType;
    /** DML_TENSOR_FLAG_NONE (rule 6). */
    DML_TENSOR_FLAGS Flags;
    /** Number of dimensions, 1 to 8 (rule 2); also the length of Sizes and Strides. */
    uint32_t DimensionCount;
    /** DimensionCount sizes in elements, outermost dimension first; not null, each at least 1, their
     *  product (the element count) at most 2^32 - 1 (rule 2). */
    const uint32_t* Sizes;
    /** DimensionCount strides in elements (not bytes), or null for packed row-major (last dimension
     *  fastest). 0 broadcasts a dimension of an input; an output must not map two elements to one
     *  address (rule 3; an interleaved output layout of more than 2^22 elements, which vkdml cannot
     *  check, is refused too). The last element must lie below byte 2^62. */
    const uint32_t* Strides;
    /** Bytes of the buffer range the tensor occupies: at least DMLCalcBufferTensorSize (rule 4). Each
     *  binding of the tensor must be at least this long. vkdml writes only an output's elements: bytes
     *  of the range between and after them keep their values. */
    uint64_t TotalTensorSizeInBytes;
    /** Bytes: 0, or a power of two at least the element size (rule 5). In DirectML a promise about the
     *  binding offset; vkdml requires every binding offset of the tensor to be a multiple of it when it
     *  exceeds 16 (of 16 otherwise, rule 9) and refuses others (ErrorCode::invalid_binding). */
    uint32_t GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

/** Type-tagged pointer to a tensor description. */
typedef struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type; /**< DML_TENSOR_TYPE_BUFFER (rule 1) */
    const void* Desc;     /**< the DML_BUFFER_TENSOR_DESC; not null (rule 1) */
} DML_TENSOR_DESC;

/** Type-tagged pointer to one of the operator descriptions below. */
typedef struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type; /**< which operator, and so which struct Desc points at */
    const void* Desc;       /**< the operator's description; not null */
} DML_OPERATOR_DESC;

/** Running sum along Axis (DML_OPERATOR_CUMULATIVE_SUMMATION): each output element is the sum of the
 *  input elements up to it in AxisDirection. All 11 data types; integers wrap. */
typedef struct DML_CUMULATIVE_SUMMATION_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< the tensor to sum; not null */
    /** Not null; same DataType, DimensionCount and Sizes as the input, strides may differ (rule 7). It
     *  may be bound to the input's range (in place) when the strides are equal too (rule 9). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;                    /**< index of the dimension summed along, < DimensionCount (rule 8) */
    DML_AXIS_DIRECTION AxisDirection; /**< INCREASING: from index 0 up; DECREASING: from the last down */
    /** BOOL. Nonzero: each output excludes its own element (the first in AxisDirection gets 0). */
    int32_t HasExclusiveSum;
} DML_CUMULATIVE_SUMMATION_OPERATOR_DESC;

/** Running product along Axis (DML_OPERATOR_CUMULATIVE_PRODUCT): as
 *  DML_CUMULATIVE_SUMMATION_OPERATOR_DESC with multiplication. All 11 data types; integers wrap. */
typedef struct DML_CUMULATIVE_PRODUCT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< the tensor to multiply; not null */
    /** Not null; same DataType, DimensionCount and Sizes as the input, strides may differ (rule 7). It
     *  may be bound to the input's range (in place) when the strides are equal too (rule 9). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis; /**< index of the dimension multiplied along, < DimensionCount (rule 8) */
    DML_AXIS_DIRECTION AxisDirection; /**< INCREASING: from index 0 up; DECREASING: from the last down */
    /** BOOL. Nonzero: each output excludes its own element (the first in AxisDirection gets 1). */
    int32_t HasExclusiveProduct;
} DML_CUMULATIVE_PRODUCT_OPERATOR_DESC;

/** Fold of the input over Axes (DML_OPERATOR_REDUCE): each output element folds the input elements
 *  that share its coordinates on the other axes. */
typedef struct DML_REDUCE_OPERATOR_DESC {
    /** The fold; ARGMAX (0) to SUM_SQUARE (11), or vkdml's VARIANCE (1000) to COUNT_NONZERO (1004). */
    DML_REDUCE_FUNCTION Function;
    const DML_TENSOR_DESC* InputTensor; /**< the tensor to reduce; not null */
    /** Not null; the input's DimensionCount, size 1 on each reduced axis and the input's size elsewhere
     *  (rule 7). DataType: the input's, or for ARGMAX/ARGMIN INT32, INT64, UINT32 or UINT64 (INT32 only
     *  up to 2^31 reduced elements); else ErrorCode::unsupported_type. */
    const DML_TENSOR_DESC* OutputTensor;
    /** Number of entries in Axes, 0 to DimensionCount. 0 reduces nothing: each output is the function
     *  of its one element (|x| for L1 and L2, x² for SUM_SQUARE, ln x for LOG_SUM, index 0 for the arg
     *  functions, x for the others), as DirectML does (SPEC §3 "No axes"). */
    uint32_t AxisCount;
    /** AxisCount distinct dimension indices, each < DimensionCount, in any order (rule 8); may be null
     *  only when AxisCount is 0. Arg indices count over these axes row-major in ascending axis order. */
    const uint32_t* Axes;
} DML_REDUCE_OPERATOR_DESC;

/** Index of the smallest element over Axes (DML_OPERATOR_ARGMIN), counted over the reduced axes
 *  only, row-major in ascending axis order. A NaN counts as the smallest. */
typedef struct DML_ARGMIN_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< the tensor searched, any of the 11 types; not null */
    /** Not null; the input's DimensionCount, size 1 on each reduced axis and the input's size elsewhere
     *  (rule 7); DataType INT32, INT64, UINT32 or UINT64 (INT32 only up to 2^31 reduced elements). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount; /**< number of entries in Axes, 0 to DimensionCount; 0 writes all zeros */
    /** AxisCount distinct dimension indices, each < DimensionCount, in any order (rule 8); may be null
     *  only when AxisCount is 0. */
    const uint32_t* Axes;
    DML_AXIS_DIRECTION
    AxisDirection; /**< which index ties report: INCREASING the first, DECREASING the last */
} DML_ARGMIN_OPERATOR_DESC;

/** Index of the largest element over Axes (DML_OPERATOR_ARGMAX), counted over the reduced axes
 *  only, row-major in ascending axis order. A NaN counts as the largest. */
typedef struct DML_ARGMAX_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< the tensor searched, any of the 11 types; not null */
    /** Not null; the input's DimensionCount, size 1 on each reduced axis and the input's size elsewhere
     *  (rule 7); DataType INT32, INT64, UINT32 or UINT64 (INT32 only up to 2^31 reduced elements). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount; /**< number of entries in Axes, 0 to DimensionCount; 0 writes all zeros */
    /** AxisCount distinct dimension indices, each < DimensionCount, in any order (rule 8); may be null
     *  only when AxisCount is 0. */
    const uint32_t* Axes;
    DML_AXIS_DIRECTION
    AxisDirection; /**< which index ties report: INCREASING the first, DECREASING the last */
} DML_ARGMAX_OPERATOR_DESC;

/** What a compiled operator needs bound (vkdml::CompiledOperator::binding_properties). */
typedef struct DML_BINDING_PROPERTIES {
    /** DirectML: descriptor-heap entries the binding table needs. vkdml: 3, the descriptors it pushes
     *  into the command buffer itself; the application allocates none. */
    uint32_t RequiredDescriptorCount;
    /** Bytes of scratch each execution needs (0: none); bound as vkdml::Bindings::temporary. */
    uint64_t TemporaryResourceSize;
    /** Bytes of state kept across executions; always 0 in vkdml. */
    uint64_t PersistentResourceSize;
} DML_BINDING_PROPERTIES;

/** Bytes a buffer tensor needs, as DirectML's helper computes them: the element offset one past its
 *  last element (sizes and strides in elements, packed row-major strides when strides is null) times
 *  the element size, rounded up to a multiple of 4. `sizes` (and `strides` unless null) point at
 *  dimensionCount entries. Computed in 64-bit without overflow checks; a size of 0 with strides wraps
 *  (vkdml's validation refuses both cases itself). Returns 0 for an unknown data type. */
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

/* vkdml's own REDUCE functions (SPEC §3 "vkdml's functions"): values of DML_REDUCE_FUNCTION outside
 * DirectML's range, defined beside the real DirectML.h too. DirectML refuses them; vkdml takes them in
 * DML_REDUCE_OPERATOR_DESC::Function like its own. VARIANCE and STANDARD_DEVIATION take float types only
 * (else ErrorCode::unsupported_type) and keep the input's type; ANY, ALL and COUNT_NONZERO take every
 * type and write UINT8 flags or integer counts. */
#ifdef __cplusplus
#define VKDML_REDUCE_FUNCTION_VALUE(v) static_cast<DML_REDUCE_FUNCTION>(v)
#else
#define VKDML_REDUCE_FUNCTION_VALUE(v) ((DML_REDUCE_FUNCTION)(v))
#endif
/** The variance: Σ (x - mean)² / (N - correction), correction from vkdml::OperatorOptions (0: the
 *  population variance, NumPy's ddof=0; 1: the sample variance). */
#define VKDML_REDUCE_FUNCTION_VARIANCE VKDML_REDUCE_FUNCTION_VALUE(1000)
/** The standard deviation: the square root of VKDML_REDUCE_FUNCTION_VARIANCE. */
#define VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION VKDML_REDUCE_FUNCTION_VALUE(1001)
/** 1 where any element is not 0 (a NaN is not 0), else 0; any of the 11 types, output UINT8. */
#define VKDML_REDUCE_FUNCTION_ANY VKDML_REDUCE_FUNCTION_VALUE(1002)
/** 1 where every element is not 0, else 0; any of the 11 types, output UINT8. */
#define VKDML_REDUCE_FUNCTION_ALL VKDML_REDUCE_FUNCTION_VALUE(1003)
/** The count of elements that are not 0; any of the 11 types, output INT32, INT64, UINT32 or UINT64. */
#define VKDML_REDUCE_FUNCTION_COUNT_NONZERO VKDML_REDUCE_FUNCTION_VALUE(1004)

/* vkdml's own operators (SPEC §3 "vkdml's operators"): values of DML_OPERATOR_TYPE outside DirectML's
 * range, and their descriptions, declared beside the real DirectML.h too. DirectML refuses them. */
#ifdef __cplusplus
#define VKDML_OPERATOR_VALUE(v) static_cast<DML_OPERATOR_TYPE>(v)
#else
#define VKDML_OPERATOR_VALUE(v) ((DML_OPERATOR_TYPE)(v))
#endif
/** Desc: VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC. */
#define VKDML_OPERATOR_CUMULATIVE_MAXIMUM VKDML_OPERATOR_VALUE(1000)
/** Desc: VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC. */
#define VKDML_OPERATOR_CUMULATIVE_MINIMUM VKDML_OPERATOR_VALUE(1001)
/** Desc: VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC. */
#define VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP VKDML_OPERATOR_VALUE(1002)

/** Running maximum along one axis (VKDML_OPERATOR_CUMULATIVE_MAXIMUM): NumPy's maximum.accumulate and
 *  PyTorch's cummax (values and, with OutputIndexTensor, indices). Laid out as
 *  DML_CUMULATIVE_SUMMATION_OPERATOR_DESC with an optional second output. */
typedef struct VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< any of the 11 types; not null */
    /** Not null; same DataType, DimensionCount and Sizes as the input, strides may differ (rule 7). It
     *  may be bound to the input's range (in place) when the strides are equal too (rule 9). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;                    /**< index of the dimension scanned, < DimensionCount (rule 8) */
    DML_AXIS_DIRECTION AxisDirection; /**< INCREASING: from index 0 up; DECREASING: from the last down */
    /** BOOL. Nonzero: each output leaves its own element out (the first in AxisDirection gets the type's
     *  smallest value: -inf for floats). */
    int32_t HasExclusiveMaximum;
    /** Optional (null: none). Where each output's value came from: the index along Axis of the last element,
     *  in AxisDirection, equal to the output (the last of ties and the last NaN, as PyTorch's cummax
     *  chooses; -0 and +0 are equal; a NaN that NanMode::ignore leaves out never); -1 (all bits set) where
     *  no element contributed (an exclusive scan's first output; with NanMode::ignore, the outputs before
     *  the line's first number). INT32, INT64, UINT32 or UINT64 (32-bit types need
     *  Sizes[Axis] <= 2^31); the input's DimensionCount and Sizes, its own strides. Output 1 when given;
     *  it overlaps neither the input nor OutputTensor. */
    const DML_TENSOR_DESC* OutputIndexTensor;
} VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC;

/** Running minimum along one axis (VKDML_OPERATOR_CUMULATIVE_MINIMUM): NumPy's minimum.accumulate and
 *  PyTorch's cummin (values and, with OutputIndexTensor, indices); as VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC,
 *  with the type's largest value (+inf for floats) first in an exclusive scan. */
typedef struct VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;
    DML_AXIS_DIRECTION AxisDirection;
    int32_t HasExclusiveMinimum;
    const DML_TENSOR_DESC* OutputIndexTensor; /**< optional, as the maximum's */
} VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC;

/** Running log-sum-exp along one axis (VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP): ln(Σ e^x) over the elements
 *  so far, PyTorch's logcumsumexp and NumPy's logaddexp.accumulate, stable for any magnitudes (a running
 *  maximum and a scaled sum). FLOAT16, FLOAT32 or FLOAT64 only. Laid out as
 *  DML_CUMULATIVE_SUMMATION_OPERATOR_DESC. */
typedef struct VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor; /**< FLOAT16, FLOAT32 or FLOAT64; not null */
    /** Not null; same DataType, DimensionCount and Sizes as the input, strides may differ (rule 7). It
     *  may be bound to the input's range (in place) when the strides are equal too (rule 9). */
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;                    /**< index of the dimension scanned, < DimensionCount (rule 8) */
    DML_AXIS_DIRECTION AxisDirection; /**< INCREASING: from index 0 up; DECREASING: from the last down */
    /** BOOL. Nonzero: each output leaves its own element out (the first in AxisDirection gets -inf, the
     *  logarithm of the empty sum). */
    int32_t HasExclusiveSum;
} VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC;

#endif /* VKDML_DIRECTML_H */
