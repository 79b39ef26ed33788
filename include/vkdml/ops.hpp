// vkdml/ops.hpp — DirectMLX-style builders: an operator description and its output tensor from an input
// tensor and the operator's parameters, owned by one value, ready for Device::create_operator.
#pragma once

#include "vkdml/vkdml.hpp"  // refuses compilers below C++20 with one clear error

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace vkdml::ops {

/// A buffer tensor as a value: what a DML_BUFFER_TENSOR_DESC says, with its arrays held here. Strides
/// count elements; empty strides mean packed row-major order (the last dimension fastest). Flags are
/// always DML_TENSOR_FLAG_NONE.
struct TensorDesc {
    /// An UNKNOWN tensor with no sizes, to fill in field by field.
    TensorDesc() = default;
    /// `{type, sizes}`, `{type, sizes, strides}` or all four fields: constructors rather than aggregate
    /// initialization, so that the short forms compile cleanly under -Wextra's missing-initializer check.
    TensorDesc(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> tensor_sizes,
               std::vector<uint32_t> tensor_strides = {}, uint32_t base_offset_alignment = 0)
        : data_type(type),
          sizes(std::move(tensor_sizes)),
          strides(std::move(tensor_strides)),
          guaranteed_base_offset_alignment(base_offset_alignment) {}

    DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;  ///< the element type
    std::vector<uint32_t> sizes;                                    ///< outermost first
    std::vector<uint32_t> strides;                  ///< in elements, one per size; empty: packed row-major
    uint32_t guaranteed_base_offset_alignment = 0;  ///< DML_BUFFER_TENSOR_DESC's, 0 or a power of two

    /// TotalTensorSizeInBytes: the offset of the last element, Σ (size − 1) · stride, plus one, times the
    /// element size, rounded up to a multiple of 4 (DMLCalcBufferTensorSize), computed without overflow.
    /// No sizes give one element. Errors: unsupported_type for UNKNOWN or an out-of-range type;
    /// invalid_argument for a size of 0, a stride count that is not the size count, or a size past 64 bits.
    VKDML_API Result<uint64_t> total_bytes() const;
    /// The product of the sizes (1 for none; it may exceed what an operator accepts, 2^32 − 1).
    VKDML_API uint64_t elements() const noexcept;

    /// Two descriptions are equal when every field is.
    friend bool operator==(const TensorDesc&, const TensorDesc&) = default;
};

/// The output type an operator infers from its input and function: pass it where a builder takes an
/// `output_type` to let it choose (the input's type for the cumulative operators and REDUCE's value
/// functions; INT64 for the arg functions, as the vkdml tool, Python, NumPy and PyTorch give indices —
/// DirectMLX's builders choose UINT32, which `output_type` still asks for).
inline constexpr DML_TENSOR_DATA_TYPE kAutoType = DML_TENSOR_DATA_TYPE_UNKNOWN;

/// The sizes of a reduction's output: the input's `sizes` with size 1 on every axis in `axes` (the
/// reduced axes keep their place, so the output has the input's rank). Axes may come in any order;
/// sizes of 0 are kept as they are. Errors (invalid_argument): an axis not below the rank, or one axis
/// named twice.
VKDML_API Result<std::vector<uint32_t>> reduced_sizes(std::span<const uint32_t> sizes,
                                                      std::span<const uint32_t> axes);

/// A built operator: its DML_OPERATOR_DESC, the typed operator description it points at, its input and
/// output tensor descriptions and the arrays (sizes, strides, axes) they point at, all owned together
/// and immutable. Every pointer in desc() stays valid while any copy of this value lives; copies share
/// the description, and moving leaves the source a valid copy. The output is packed row-major.
class Operation {
public:
    /// A copy shares the description.
    Operation(const Operation&) = default;
    /// Shares `other`'s description; this one's is released when no other copy holds it.
    Operation& operator=(const Operation&) = default;
    ~Operation() = default;

    /// The operator description, for Device::create_operator, HostExecution::create, execute or
    /// describe_plan.
    VKDML_API const DML_OPERATOR_DESC& desc() const noexcept;
    /// The operator type (REDUCE, CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT, ARGMIN or ARGMAX).
    VKDML_API DML_OPERATOR_TYPE type() const noexcept;
    /// The input tensor, as given.
    VKDML_API const TensorDesc& input() const noexcept;
    /// The inferred output tensor: packed row-major, its sizes and data type as the operator writes them.
    VKDML_API const TensorDesc& output() const noexcept;
    /// The input's TotalTensorSizeInBytes: the bytes its binding (or host array) must hold.
    VKDML_API uint64_t input_bytes() const noexcept;
    /// The output's TotalTensorSizeInBytes: the bytes its binding (or host array) must hold.
    VKDML_API uint64_t output_bytes() const noexcept;
    /// The reduced axes as given (REDUCE, ARGMIN, ARGMAX); empty for the cumulative operators.
    VKDML_API std::span<const uint32_t> axes() const noexcept;
    /// The second output, packed row-major (cumulative_maximum_with_indices and
    /// cumulative_minimum_with_indices); nullptr when the operator has one output.
    VKDML_API const TensorDesc* index_output() const noexcept;
    /// The second output's TotalTensorSizeInBytes; 0 when the operator has one output.
    VKDML_API uint64_t index_output_bytes() const noexcept;

    /// The parts; made by the builders below only.
    struct Parts;
    /// Wraps built parts (the builders' constructor).
    explicit Operation(std::shared_ptr<const Parts> parts) noexcept : p_(std::move(parts)) {}

private:
    std::shared_ptr<const Parts> p_;
};

/// DML_OPERATOR_REDUCE of `input` with `function` over `axes` (any order, each at most once; none
/// reduces nothing and applies the function to each element alone). The output has the input's rank:
/// size 1 on each reduced axis, the input's size elsewhere. `output_type`: kAutoType gives the input's
/// type, or INT64 for ARGMAX and ARGMIN; a value function (SUM to SUM_SQUARE) takes only the input's
/// type, the arg functions INT32, INT64, UINT32 or UINT64.
/// Errors: invalid_argument for a function out of range, an axis not below the rank, or an axis named
/// twice; unsupported_type for an output type the function does not write; and the input's own errors
/// (TensorDesc::total_bytes). The other rules (a rank of 1 to 8, input types per function, element
/// counts, device features) are create_operator's, which validates the result like any description.
VKDML_API Result<Operation> reduce(const TensorDesc& input, DML_REDUCE_FUNCTION function,
                                   std::span<const uint32_t> axes,
                                   DML_TENSOR_DATA_TYPE output_type = kAutoType);
/// reduce() with the axes as a braced list: `reduce(in, DML_REDUCE_FUNCTION_SUM, {0, 2})`.
inline Result<Operation> reduce(const TensorDesc& input, DML_REDUCE_FUNCTION function,
                                std::initializer_list<uint32_t> axes,
                                DML_TENSOR_DATA_TYPE output_type = kAutoType) {
    return reduce(input, function, std::span<const uint32_t>(axes.begin(), axes.size()), output_type);
}

/// DML_OPERATOR_ARGMIN of `input` over `axes`: the index of the smallest element, counted row-major over
/// the reduced axes. `direction`: INCREASING gives the first index among ties, DECREASING the last.
/// Output shape and errors as reduce(); `output_type`: kAutoType (INT64), INT32, INT64, UINT32 or
/// UINT64; an invalid direction is invalid_argument.
VKDML_API Result<Operation> argmin(const TensorDesc& input, std::span<const uint32_t> axes,
                                   DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                   DML_TENSOR_DATA_TYPE output_type = kAutoType);
/// argmin() with the axes as a braced list.
inline Result<Operation> argmin(const TensorDesc& input, std::initializer_list<uint32_t> axes,
                                DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                DML_TENSOR_DATA_TYPE output_type = kAutoType) {
    return argmin(input, std::span<const uint32_t>(axes.begin(), axes.size()), direction, output_type);
}

/// DML_OPERATOR_ARGMAX of `input` over `axes`: the index of the largest element; otherwise as argmin().
VKDML_API Result<Operation> argmax(const TensorDesc& input, std::span<const uint32_t> axes,
                                   DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                   DML_TENSOR_DATA_TYPE output_type = kAutoType);
/// argmax() with the axes as a braced list.
inline Result<Operation> argmax(const TensorDesc& input, std::initializer_list<uint32_t> axes,
                                DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                DML_TENSOR_DATA_TYPE output_type = kAutoType) {
    return argmax(input, std::span<const uint32_t>(axes.begin(), axes.size()), direction, output_type);
}

/// DML_OPERATOR_CUMULATIVE_SUMMATION of `input` along `axis`: each output is the sum of the elements
/// before it in `direction` (INCREASING: from index 0; DECREASING: from the last index), its own
/// included unless `exclusive` (HasExclusiveSum; the first output is then 0). The output has the input's
/// sizes and, for kAutoType, its type; another `output_type` is unsupported_type. Errors: invalid_argument
/// for an axis not below the rank or an invalid direction, and the input's own (as reduce()).
VKDML_API Result<Operation> cumulative_sum(const TensorDesc& input, uint32_t axis,
                                           DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                           bool exclusive = false,
                                           DML_TENSOR_DATA_TYPE output_type = kAutoType);

/// DML_OPERATOR_CUMULATIVE_PRODUCT: as cumulative_sum(), with products (an exclusive first output is 1).
VKDML_API Result<Operation> cumulative_product(const TensorDesc& input, uint32_t axis,
                                               DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                               bool exclusive = false,
                                               DML_TENSOR_DATA_TYPE output_type = kAutoType);

/// vkdml's VKDML_OPERATOR_CUMULATIVE_MAXIMUM: as cumulative_sum(), with the running maximum (NumPy's
/// maximum.accumulate; a NaN makes every later output NaN; an exclusive first output is the type's
/// smallest value, -inf for floats).
VKDML_API Result<Operation> cumulative_maximum(const TensorDesc& input, uint32_t axis,
                                               DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                               bool exclusive = false,
                                               DML_TENSOR_DATA_TYPE output_type = kAutoType);

/// vkdml's VKDML_OPERATOR_CUMULATIVE_MINIMUM: as cumulative_maximum(), with the running minimum (an
/// exclusive first output is the type's largest value, +inf for floats).
VKDML_API Result<Operation> cumulative_minimum(const TensorDesc& input, uint32_t axis,
                                               DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
                                               bool exclusive = false,
                                               DML_TENSOR_DATA_TYPE output_type = kAutoType);

/// cumulative_maximum() with PyTorch's indices as output 1 (OutputIndexTensor, packed, `index_type`:
/// kAutoType gives INT64, else INT32, INT64, UINT32 or UINT64): the index along `axis` of the last
/// element in `direction` equal to each output, -1 (all bits set) where none contributed. Errors: those
/// of cumulative_maximum(), and unsupported_type for another index type; create_operator refuses a 32-bit
/// index type for an axis of more than 2^31 elements (unsupported_type, SPEC §3).
VKDML_API Result<Operation> cumulative_maximum_with_indices(
    const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
    bool exclusive = false, DML_TENSOR_DATA_TYPE index_type = kAutoType);

/// cumulative_minimum() with indices, as cumulative_maximum_with_indices().
VKDML_API Result<Operation> cumulative_minimum_with_indices(
    const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
    bool exclusive = false, DML_TENSOR_DATA_TYPE index_type = kAutoType);

/// vkdml's VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP: as cumulative_sum(), with ln(Σ e^x) of the elements so far
/// (PyTorch's logcumsumexp); FLOAT16, FLOAT32 or FLOAT64 input (else ErrorCode::unsupported_type); an
/// exclusive first output is -inf.
VKDML_API Result<Operation> log_cumulative_sum_exp(
    const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING,
    bool exclusive = false, DML_TENSOR_DATA_TYPE output_type = kAutoType);

}  // namespace vkdml::ops
