// Planning a cumulative operator (sum, product, maximum or minimum): kernel per shape, chunking of long
// fibers into reduce-then-scan passes, and the scratch they need. Pure: no device calls.
#pragma once

#include "core/plan.hpp"
#include "core/problem.hpp"

namespace vkdml::detail {

struct ScanRequest {
    uint32_t op = SCAN_OP_SUM;  ///< a SCAN_OP_*: sum, product, maximum or minimum
    bool is_signed = false;     ///< the maximum and minimum of a signed integer type
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    bool reverse = false;
    bool exclusive = false;
    bool pairs =
        false;        ///< elements are compensated pairs of `type` (how a float scan's partials are scanned)
    Problem problem;  ///< one line dimension: the axis
    bool nan_ignore = false;  ///< NanMode::ignore, float input: NaN elements read as the identity
};

/// Appends the passes of the scan of input 0 into output 0 to `plan`.
Status plan_scan(const PlanTarget& target, const ScanRequest& request, Plan& plan);

}  // namespace vkdml::detail
