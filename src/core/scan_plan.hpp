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
    bool mark = false;        ///< the index output's marks (scan_serial by elements, MODE_MARK32/64)
};

/// The index output of a cumulative maximum or minimum (output 1).
struct IndexRequest {
    /// The selection of input 0, its problem lowered with the index output's strides as the output's.
    ScanRequest values;
    DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_INT64;
    uint64_t index_elements = 0;  ///< the index output's extent: its last element's offset + 1
    Problem index_problem;        ///< the index output lowered with its own strides on both sides
};

/// Appends the passes of the scan of input 0 into output 0 to `plan`.
Status plan_scan(const PlanTarget& target, const ScanRequest& request, Plan& plan);

/// Appends the passes that write a selection's index output (output 1) to `plan`: the values scanned into
/// scratch laid out as the index output, the marks (scan_serial.comp, MODE_MARK32/64), and their scan in
/// place, the maximum (INCREASING) or the unsigned minimum (DECREASING). They read input 0 only, so
/// they go before the values' passes, which may overwrite it (in place).
Status plan_selection_index(const PlanTarget& target, const IndexRequest& request, Plan& plan);

}  // namespace vkdml::detail
