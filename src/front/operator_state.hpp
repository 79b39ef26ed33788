// The deep copy an Operator keeps of its description (all pointers point into it).
#pragma once

#include "core/device_caps.hpp"
#include "core/kernel_abi.hpp"
#include "core/plan.hpp"
#include "vkdml/vkdml.hpp"

#include <memory>
#include <variant>
#include <vector>

namespace vkdml {

/// One tensor of an operator, with its arrays owned here. `strides` is always filled (packed
/// row-major when the caller gave none); `buffer.Strides` keeps the caller's null-or-not choice.
struct TensorCopy {
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC tensor{};
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;
    bool explicit_strides = false;
};

/// The cumulative ops' common shape (CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT share a layout).
struct CumulativeDesc {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;
    DML_AXIS_DIRECTION AxisDirection;
    int32_t HasExclusive;
};

/// Both cumulative descriptions, read through one shape.
inline CumulativeDesc as_cumulative(const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveSum};
}
inline CumulativeDesc as_cumulative(const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveProduct};
}

using detail::is_arg_function;

/// REDUCE, ARGMIN and ARGMAX read through one shape: the standalone arg operators are REDUCE's arg
/// functions with a tie rule.
struct ReductionDesc {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t AxisCount;
    const uint32_t* Axes;
    DML_REDUCE_FUNCTION Function;
    bool standalone;                   ///< ARGMIN or ARGMAX (AxisDirection applies)
    DML_AXIS_DIRECTION AxisDirection;  ///< INCREASING for REDUCE (first index among ties)
};

inline ReductionDesc as_reduction(const DML_REDUCE_OPERATOR_DESC& d) {
    return {
        d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, d.Function, false, DML_AXIS_DIRECTION_INCREASING};
}
inline ReductionDesc as_reduction(const DML_ARGMIN_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, DML_REDUCE_FUNCTION_ARGMIN,
            true,          d.AxisDirection};
}
inline ReductionDesc as_reduction(const DML_ARGMAX_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, DML_REDUCE_FUNCTION_ARGMAX,
            true,          d.AxisDirection};
}

/// What any of the five operators says, in one shape: its type and the fields both families need (a field
/// the type lacks keeps its default). The tensors are the kept copies in OperatorState.
struct NormalizedDesc {
    DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
    const DML_TENSOR_DESC* input = nullptr;
    const DML_TENSOR_DESC* output = nullptr;
    DML_REDUCE_FUNCTION function = DML_REDUCE_FUNCTION_SUM;  ///< REDUCE's; ARGMIN/ARGMAX for those operators
    std::vector<uint32_t> axes;                              ///< REDUCE, ARGMIN, ARGMAX: Axes as given
    uint32_t axis = 0;                                       ///< the cumulative operators' Axis
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;  ///< INCREASING for REDUCE
    int32_t exclusive = 0;  ///< HasExclusiveSum / HasExclusiveProduct as given (nonzero: exclusive)

    bool is_reduction() const {
        return type == DML_OPERATOR_REDUCE || type == DML_OPERATOR_ARGMIN || type == DML_OPERATOR_ARGMAX;
    }
};

/// The typed DirectML description an Operator hands back (Operator::desc), made from the normalized one.
using TypedDesc =
    std::variant<std::monostate, DML_REDUCE_OPERATOR_DESC, DML_ARGMIN_OPERATOR_DESC, DML_ARGMAX_OPERATOR_DESC,
                 DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>;

struct OperatorState {
    /// The device it was created on, opaque here (vulkan/device_state.hpp); null in describe_plan.
    std::shared_ptr<DeviceState> device;
    /// What it was validated and is planned for: its device's capabilities (set by create_description).
    const detail::DeviceCaps* caps = nullptr;
    DML_OPERATOR_DESC desc{};  ///< points at `typed`
    std::vector<std::unique_ptr<TensorCopy>> inputs;
    std::vector<std::unique_ptr<TensorCopy>> outputs;
    NormalizedDesc normalized;  ///< the kept description, whatever the operator type
    TypedDesc typed;            ///< `normalized` as DirectML's struct of its type, for Operator::desc
    OperatorOptions options;    ///< validated against the operator (create_description)

    OperatorState() = default;
    OperatorState(const OperatorState&) = delete;  // desc and typed point into it
    OperatorState& operator=(const OperatorState&) = delete;

    /// The reduction description of REDUCE, ARGMIN or ARGMAX, read from the kept copy.
    ReductionDesc reduction() const;

    /// The cumulative description of either cumulative operator, read from the kept copy.
    CumulativeDesc cumulative() const;
};

/// A compiled operator: its operator, the plan of passes and each pass's pipeline.
struct CompiledState {
    std::shared_ptr<const OperatorState> op;
    detail::Plan plan;
    std::vector<VkPipeline> pipelines;  ///< one per pass, made by the device's pipeline cache
};

}  // namespace vkdml

namespace vkdml::detail {

/// Validates the description of any implemented operator type (SPEC §2, for the device's features) and
/// the options against it, and keeps their deep copy in `s` (operator.cpp), with `caps`, which must outlive
/// `s` (a device's, kept alive by s.device).
Status create_description(const DeviceCaps& caps, const DML_OPERATOR_DESC& desc,
                          const OperatorOptions& options, OperatorState& s);

/// Device::supports for a device of these capabilities (operator.cpp).
TypeSupport type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type);

}  // namespace vkdml::detail
