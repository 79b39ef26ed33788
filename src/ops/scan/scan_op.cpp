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
CumulativeDesc as_cumulative(const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC& d) {
    return {d.InputTensor,   d.OutputTensor,        d.Axis,
            d.AxisDirection, d.HasExclusiveMaximum, d.OutputIndexTensor};
}
CumulativeDesc as_cumulative(const VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC& d) {
    return {d.InputTensor,   d.OutputTensor,        d.Axis,
            d.AxisDirection, d.HasExclusiveMinimum, d.OutputIndexTensor};
}
CumulativeDesc as_cumulative(const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveSum};
}

// The kernels' combine of an operator.
uint32_t scan_op_of(DML_OPERATOR_TYPE type) {
    if (type == DML_OPERATOR_CUMULATIVE_PRODUCT) return SCAN_OP_PRODUCT;
    if (type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM) return SCAN_OP_MAX;
    if (type == VKDML_OPERATOR_CUMULATIVE_MINIMUM) return SCAN_OP_MIN;
    if (type == VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP) return SCAN_OP_LOG_SUM_EXP;
    return SCAN_OP_SUM;
}

template <class OpDesc>
Status normalize(const DeviceCaps& caps, DML_OPERATOR_TYPE type, const void* desc, OperatorState& s) {
    const CumulativeDesc d = as_cumulative(*static_cast<const OpDesc*>(desc));
    if (auto st = validate_cumulative(caps, type, d); !st) return st;
    keep_tensors(s, *d.InputTensor, *d.OutputTensor);
    if (d.OutputIndexTensor) keep_index_output(s, *d.OutputIndexTensor);
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
Status normalize_cumulative_maximum(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC>(caps, VKDML_OPERATOR_CUMULATIVE_MAXIMUM, desc,
                                                             s);
}
Status normalize_cumulative_minimum(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC>(caps, VKDML_OPERATOR_CUMULATIVE_MINIMUM, desc,
                                                             s);
}
Status normalize_log_cumulative_sum_exp(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC>(caps, VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP,
                                                                 desc, s);
}

std::shared_ptr<const void> typed_cumulative_sum(const NormalizedDesc& n) {
    return std::make_shared<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC>(
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive});
}
std::shared_ptr<const void> typed_cumulative_product(const NormalizedDesc& n) {
    return std::make_shared<const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>(
        DML_CUMULATIVE_PRODUCT_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive});
}
std::shared_ptr<const void> typed_cumulative_maximum(const NormalizedDesc& n) {
    return std::make_shared<const VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC>(
        VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive,
                                               n.output_index});
}
std::shared_ptr<const void> typed_cumulative_minimum(const NormalizedDesc& n) {
    return std::make_shared<const VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC>(
        VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive,
                                               n.output_index});
}
std::shared_ptr<const void> typed_log_cumulative_sum_exp(const NormalizedDesc& n) {
    return std::make_shared<const VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC>(
        VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive});
}

// Every cumulative operator: one plan builder, the combine a parameter of it.
Status plan_cumulative(const PlanTarget& target, const OperatorState& op, Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    const TensorCopy& out = *op.outputs[0];
    const NormalizedDesc& n = op.normalized;
    ScanRequest r;
    r.op = scan_op_of(n.type);
    r.type = in.buffer.DataType;
    r.is_signed = (r.op == SCAN_OP_MAX || r.op == SCAN_OP_MIN) && is_signed_integer_type(r.type);
    r.reverse = n.direction == DML_AXIS_DIRECTION_DECREASING;
    r.exclusive = n.exclusive != 0;
    r.problem = lower_scan(in.sizes, in.strides, out.strides, n.axis);
    r.nan_ignore = op.options.nan_mode == NanMode::ignore;
    if (op.outputs.size() > 1) {  // the index output first: its passes read the input, which may be in place
        const TensorCopy& index = *op.outputs[1];
        IndexRequest q{.values = r, .index_type = index.buffer.DataType};
        q.values.problem = lower_scan(in.sizes, in.strides, index.strides, n.axis);
        q.index_elements = 1;  // its extent: the last element's offset, plus one (validated: no overflow)
        for (size_t d = 0; d < index.sizes.size(); ++d)
            q.index_elements += uint64_t(index.sizes[d] - 1) * index.strides[d];
        q.index_problem = lower_scan(index.sizes, index.strides, index.strides, n.axis);
        if (auto st = plan_selection_index(target, q, plan); !st) return st;
    }
    return plan_scan(target, r, plan);
}

}  // namespace vkdml::detail
