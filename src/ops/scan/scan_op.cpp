// The cumulative operators' rows (see scan_op.hpp): validate and keep, DirectML's struct back, plan.
#include "ops/scan/scan_op.hpp"

#include "core/scan_plan.hpp"

namespace vkdml::detail {

namespace {

CumulativeDesc as_cumulative(const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveSum};
}
CumulativeDesc as_cumulative(const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveProduct};
}

template <class OpDesc>
Status normalize(const DeviceCaps& caps, DML_OPERATOR_TYPE type, const void* desc, OperatorState& s) {
    const CumulativeDesc d = as_cumulative(*static_cast<const OpDesc*>(desc));
    if (auto st = validate_cumulative(caps, type, d); !st) return st;
    keep_tensors(s, *d.InputTensor, *d.OutputTensor);
    s.normalized.axis = d.Axis;
    s.normalized.direction = d.AxisDirection;
    s.normalized.exclusive = d.HasExclusive;
    return {};
}

}  // namespace

Status normalize_cumulative_sum(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<DML_CUMULATIVE_SUMMATION_OPERATOR_DESC>(caps, DML_OPERATOR_CUMULATIVE_SUMMATION, desc,
                                                             s);
}
Status normalize_cumulative_product(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>(caps, DML_OPERATOR_CUMULATIVE_PRODUCT, desc, s);
}

std::shared_ptr<const void> typed_cumulative_sum(const NormalizedDesc& n) {
    return std::make_shared<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC>(
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive});
}
std::shared_ptr<const void> typed_cumulative_product(const NormalizedDesc& n) {
    return std::make_shared<const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>(
        DML_CUMULATIVE_PRODUCT_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive});
}

// Both operators: one plan builder, the operation (sum or product) a parameter of it.
Status plan_cumulative(const PlanTarget& target, const OperatorState& op, Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    const TensorCopy& out = *op.outputs[0];
    const NormalizedDesc& n = op.normalized;
    ScanRequest r;
    r.op = n.type == DML_OPERATOR_CUMULATIVE_PRODUCT ? SCAN_OP_PRODUCT : SCAN_OP_SUM;
    r.type = in.buffer.DataType;
    r.reverse = n.direction == DML_AXIS_DIRECTION_DECREASING;
    r.exclusive = n.exclusive != 0;
    r.problem = lower_scan(in.sizes, in.strides, out.strides, n.axis);
    r.nan_ignore = op.options.nan_mode == NanMode::ignore;
    return plan_scan(target, r, plan);
}

}  // namespace vkdml::detail
