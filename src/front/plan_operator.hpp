// Lowering and planning a validated operator for a target (core's planners); pipelines are not made.
#pragma once

#include "core/plan.hpp"
#include "core/policy.hpp"
#include "front/operator_state.hpp"

namespace vkdml::detail {

/// The plan of a validated operator for a target: its description lowered to one problem and planned by
/// the scan or reduction planner (plan_operator.cpp). No Vulkan call.
Status plan_operator(const PlanTarget& target, const OperatorState& op, Plan& plan);

}  // namespace vkdml::detail
