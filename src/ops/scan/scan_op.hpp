// The cumulative operators, CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT, and vkdml's CUMULATIVE_MAXIMUM,
// CUMULATIVE_MINIMUM and LOG_CUMULATIVE_SUM_EXP: what their rows of the operator table (ops/op_table.cpp)
// call — validate and keep a description, give its struct back, lower and plan — and the one shape every
// description is read through.
#pragma once

#include "core/plan.hpp"
#include "core/policy.hpp"
#include "front/operator_state.hpp"

namespace vkdml::detail {

/// The cumulative operators' common shape (every description shares a layout).
struct CumulativeDesc {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    uint32_t Axis;
    DML_AXIS_DIRECTION AxisDirection;
    int32_t HasExclusive;
    /// CUMULATIVE_MAXIMUM and CUMULATIVE_MINIMUM: the optional index output (output 1); else null.
    const DML_TENSOR_DESC* OutputIndexTensor = nullptr;
};

/// SPEC §2 rules 1–8 for a cumulative description (scan_validation.cpp).
Status validate_cumulative(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const CumulativeDesc& desc);

/// Validates a DML_CUMULATIVE_SUMMATION_OPERATOR_DESC (or _PRODUCT_) for `caps` and keeps it in `s`,
/// normalized.
Status normalize_cumulative_sum(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_cumulative_product(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_cumulative_maximum(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_cumulative_minimum(const DeviceCaps& caps, const void* desc, OperatorState& s);
Status normalize_log_cumulative_sum_exp(const DeviceCaps& caps, const void* desc, OperatorState& s);

/// DirectML's struct of the normalized description.
std::shared_ptr<const void> typed_cumulative_sum(const NormalizedDesc& n);
std::shared_ptr<const void> typed_cumulative_product(const NormalizedDesc& n);
std::shared_ptr<const void> typed_cumulative_maximum(const NormalizedDesc& n);
std::shared_ptr<const void> typed_cumulative_minimum(const NormalizedDesc& n);
std::shared_ptr<const void> typed_log_cumulative_sum_exp(const NormalizedDesc& n);

/// Any of them lowered to one problem (its fibers along the axis) and planned by the scan planner.
Status plan_cumulative(const PlanTarget& target, const OperatorState& op, Plan& plan);

}  // namespace vkdml::detail
