// REDUCE and DirectML's standalone ARGMIN and ARGMAX: what their rows of the operator table
// (ops/op_table.cpp) call — validate and keep a description, give DirectML's struct back, lower and plan —
// and the one shape the three descriptions are read through.
#pragma once

#include "core/plan.hpp"
#include "core/policy.hpp"
#include "front/operator_state.hpp"

namespace vkdml::detail {

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

/// SPEC §2 rules 1–8 and SPEC §4's function/type table for a reduction (reduce_validation.cpp).
Status validate_reduction(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const ReductionDesc& desc);

/// Validates a DML_REDUCE_OPERATOR_DESC (DML_ARGMIN_OPERATOR_DESC, DML_ARGMAX_OPERATOR_DESC) for `caps` and
/// keeps it in `s` (Axes included), normalized.
Status normalize_reduce(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_argmin(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_argmax(const DeviceCaps& caps, const void* desc, OperatorState& s);

/// DirectML's struct of the normalized description.
std::shared_ptr<const void> typed_reduce(const NormalizedDesc& n);
std::shared_ptr<const void> typed_argmin(const NormalizedDesc& n);
std::shared_ptr<const void> typed_argmax(const NormalizedDesc& n);

/// Any of the three lowered to one problem (an output per line, the reduced axes its line) and planned by
/// the reduction planner. AxisCount 0 folds one element per output (SPEC §3).
Status plan_reduction(const PlanTarget& target, const OperatorState& op, Plan& plan);

}  // namespace vkdml::detail
