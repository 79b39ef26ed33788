// The deep copy an Operator keeps of its description (all pointers point into it).
#pragma once

#include "core/device_caps.hpp"
#include "core/kernel_abi.hpp"
#include "core/plan.hpp"
#include "vkdml/vkdml.hpp"

#include <memory>
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

using detail::is_arg_function;

/// What any operator says, in one shape: its type and the fields its family needs (a field the type lacks
/// keeps its default). The tensors are the kept copies in OperatorState.
struct NormalizedDesc {
    DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
    const DML_TENSOR_DESC* input = nullptr;
    const DML_TENSOR_DESC* output = nullptr;
    DML_REDUCE_FUNCTION function = DML_REDUCE_FUNCTION_SUM;  ///< REDUCE's; ARGMIN/ARGMAX for those operators
    std::vector<uint32_t> axes;                              ///< REDUCE, ARGMIN, ARGMAX: Axes as given
    uint32_t axis = 0;                                       ///< the cumulative operators' Axis
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;  ///< INCREASING for REDUCE
    int32_t exclusive = 0;  ///< HasExclusiveSum / HasExclusiveProduct as given (nonzero: exclusive)
    /// The cumulative maximum's and minimum's OutputIndexTensor (output 1), or null.
    const DML_TENSOR_DESC* output_index = nullptr;
};

struct OperatorState {
    /// The device it was created on, opaque here (vulkan/device_state.hpp); null in describe_plan.
    std::shared_ptr<DeviceState> device;
    /// What it was validated and is planned for: its device's capabilities (set by create_description).
    const detail::DeviceCaps* caps = nullptr;
    DML_OPERATOR_DESC desc{};  ///< points at `typed`
    /// Its row's rule 9: the input and the output may be bound to one range (ops/op_table.cpp).
    bool may_run_in_place = false;
    std::vector<std::unique_ptr<TensorCopy>> inputs;
    std::vector<std::unique_ptr<TensorCopy>> outputs;
    NormalizedDesc normalized;  ///< the kept description, whatever the operator type
    /// `normalized` as DirectML's struct of its type, for Operator::desc (made by its row's `typed`)
    std::shared_ptr<const void> typed;
    OperatorOptions options;  ///< validated against the operator (create_description)

    OperatorState() = default;
    OperatorState(const OperatorState&) = delete;  // desc and typed point into it
    OperatorState& operator=(const OperatorState&) = delete;
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
/// the options against it, and keeps their deep copy in `s` (ops/operator.cpp), with `caps`, which must
/// outlive `s` (a device's, kept alive by s.device).
Status create_description(const DeviceCaps& caps, const DML_OPERATOR_DESC& desc,
                          const OperatorOptions& options, OperatorState& s);

/// Keeps deep copies of a validated operator's two tensors in `s` and points the normalized description
/// at them (operator_state.cpp).
void keep_tensors(OperatorState& s, const DML_TENSOR_DESC& input, const DML_TENSOR_DESC& output);

/// Keeps a deep copy of a validated index output as output 1 and points the normalized description at it.
void keep_index_output(OperatorState& s, const DML_TENSOR_DESC& index);

/// Device::supports for a device of these capabilities (ops/operator.cpp).
TypeSupport type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type);

}  // namespace vkdml::detail
