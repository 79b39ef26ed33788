// A plan as text (CompiledOperator::describe, describe_plan, `vkdml plan`): one line per pass, as CUB
// prints its tuning policies, so that a plan can be read and compared without a device.
#pragma once

#include "core/plan.hpp"

#include <string>

namespace vkdml::detail {

/// One line per pass: "pass N: kernel/storage mode | blocks | lines × chunks of len | items, workgroup,
/// dispatches | bytes each binding's windows span", then the temporary buffer's size.
std::string plan_text(const Plan& plan);

}  // namespace vkdml::detail
