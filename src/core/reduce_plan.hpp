// Planning a reduction (REDUCE's 12 functions, ARGMIN, ARGMAX): kernel per shape, the split of long
// reductions into chunks folded by further passes, and the scratch they need. Pure: no device calls.
#pragma once

#include "core/plan.hpp"
#include "core/problem.hpp"

namespace vkdml::detail {

struct ReduceRequest {
    uint32_t function = REDUCE_F_SUM;                          ///< a REDUCE_F_* code (kernel_abi.h)
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;  ///< input type
    DML_TENSOR_DATA_TYPE output_type = DML_TENSOR_DATA_TYPE_FLOAT32;
    bool tie_last = false;    ///< arg functions: the last index among equal extremes
    bool nan_ignore = false;  ///< NanMode::ignore: NaN skipped (MIN, MAX, arg, the variances) or the identity
    uint32_t correction = 0;  ///< the variances: N - correction divides (OperatorOptions::correction)
    Problem problem;          ///< lines: the outputs; line dimensions: the reduced axes
};

/// Appends the passes reducing input 0 into output 0 to `plan`.
Status plan_reduce(const PlanTarget& target, const ReduceRequest& request, Plan& plan);

}  // namespace vkdml::detail
