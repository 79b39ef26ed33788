// Planning a cumulative operator (sum or product) for a device: kernel variant per shape, chunking
// of long fibers into reduce-then-scan passes, and the scratch they need.
#pragma once

#include "plan.hpp"
#include "scan_layout.hpp"

namespace vkdml::detail {

enum class ScanOp : uint32_t { sum = 0, product = 1 };

struct ScanRequest {
    ScanOp op = ScanOp::sum;
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    bool reverse = false;
    bool exclusive = false;
    bool pairs =
        false;  ///< elements are compensated pairs of `type` (how a float scan's partials are scanned)
    ScanLayout layout;
};

/// Appends the passes of the scan of input 0 into output 0 to `plan`, creating the pipelines.
Status plan_scan(DeviceState& device, const ScanRequest& request, Plan& plan);

}  // namespace vkdml::detail
