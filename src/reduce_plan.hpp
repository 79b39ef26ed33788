// Planning a reduction (REDUCE's 12 functions, ARGMIN, ARGMAX) for a device: kernel per shape, the
// split of long reductions into chunks folded by further passes, and the scratch they need.
#pragma once

#include "plan.hpp"
#include "reduce_layout.hpp"

namespace vkdml::detail {

/// The kernels' FUNCTION: DML_REDUCE_FUNCTION values, plus a copy for AxisCount 0 (output = input).
constexpr uint32_t kReduceCopy = 12;

struct ReduceRequest {
    uint32_t function = DML_REDUCE_FUNCTION_SUM;               ///< DML_REDUCE_FUNCTION or kReduceCopy
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;  ///< input type
    DML_TENSOR_DATA_TYPE output_type = DML_TENSOR_DATA_TYPE_FLOAT32;
    bool tie_last = false;  ///< arg functions: the last index among equal extremes
    ReduceLayout layout;
};

/// Appends the passes reducing input 0 into output 0 to `plan`, creating the pipelines.
Status plan_reduce(DeviceState& device, const ReduceRequest& request, Plan& plan);

}  // namespace vkdml::detail
