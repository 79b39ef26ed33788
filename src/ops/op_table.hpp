// The operator table: one row per operator vkdml implements, as kTypeInfo is for data types — its names,
// family, types, in-place rule and the functions of its family folder (ops/scan, ops/reduce)
// that validate, keep, give back and plan it. Creating, describing and planning an operator read its row;
// the tool and the Python module list the operators from it (vkdml::operators()). Adding an operator is a
// row here and its family's functions (docs/internals.md, "Adding an operator").
#pragma once

#include "core/plan.hpp"
#include "core/policy.hpp"
#include "front/operator_state.hpp"

#include <span>

namespace vkdml::detail {

/// OpInfo::types of the operators defined on real numbers alone: FLOAT16, FLOAT32, FLOAT64.
inline constexpr uint32_t kFloatTypeMask = 1u << DML_TENSOR_DATA_TYPE_FLOAT16 |
                                           1u << DML_TENSOR_DATA_TYPE_FLOAT32 |
                                           1u << DML_TENSOR_DATA_TYPE_FLOAT64;

/// Which kernels and planner an operator's family uses.
enum class OpFamily : uint8_t { scan, reduce };

struct OpInfo {
    OperatorInfo names;  ///< its DirectML type and name, the tool's command, the Python function
    OpFamily family;
    uint32_t types;  ///< the input data types it takes: bit t for DML_TENSOR_DATA_TYPE t
    bool in_place;   ///< rule 9: its input and output may be bound to one range
    /// Validates `desc` (its DirectML struct) for a device of `caps` and keeps it in `s`, normalized.
    Status (*normalize)(const DeviceCaps& caps, const void* desc, OperatorState& s);
    /// Its DirectML struct, from the normalized description.
    std::shared_ptr<const void> (*typed)(const NormalizedDesc& n);
    /// Lowers the validated operator and plans it for `target`.
    Status (*plan)(const PlanTarget& target, const OperatorState& op, Plan& plan);
};

/// Every row, in vkdml::operators()'s order.
std::span<const OpInfo> op_table();

/// The row of `type`, or nullptr when vkdml does not implement it.
const OpInfo* find_op(DML_OPERATOR_TYPE type);

/// The plan of a validated operator for a target: its row's plan. No Vulkan call.
Status plan_operator(const PlanTarget& target, const OperatorState& op, Plan& plan);

}  // namespace vkdml::detail
