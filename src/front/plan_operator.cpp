// Lowering and planning an operator: its description becomes one problem (core/problem.hpp), which the
// scan or reduction planner plans for a target. Pure: no Vulkan call, no pipeline made.
#include "front/plan_operator.hpp"

#include "core/errors.hpp"
#include "core/reduce_plan.hpp"
#include "core/scan_plan.hpp"

namespace vkdml {

namespace {

// Both cumulative operators: one plan builder, the operation (sum or product) a parameter of it.
Status plan_cumulative(const detail::PlanTarget& target, const OperatorState& op, detail::Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    const TensorCopy& out = *op.outputs[0];
    const CumulativeDesc d = op.cumulative();
    detail::ScanRequest r;
    r.op = op.desc.Type == DML_OPERATOR_CUMULATIVE_PRODUCT ? SCAN_OP_PRODUCT : SCAN_OP_SUM;
    r.type = in.buffer.DataType;
    r.reverse = d.AxisDirection == DML_AXIS_DIRECTION_DECREASING;
    r.exclusive = d.HasExclusive != 0;
    r.problem = detail::lower_scan(in.sizes, in.strides, out.strides, d.Axis);
    return detail::plan_scan(target, r, plan);
}

// REDUCE, ARGMIN and ARGMAX: one plan builder. AxisCount 0 folds one element per output (SPEC §3).
Status plan_reduction(const detail::PlanTarget& target, const OperatorState& op, detail::Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    const TensorCopy& out = *op.outputs[0];
    const ReductionDesc d = op.reduction();
    bool reduced[8] = {};
    for (uint32_t a : op.normalized.axes) reduced[a] = true;
    detail::ReduceRequest r;
    r.function = static_cast<uint32_t>(d.Function);
    r.nan_ignore = op.options.nan_mode == NanMode::ignore;
    r.type = in.buffer.DataType;
    r.output_type = out.buffer.DataType;
    r.tie_last = d.AxisDirection == DML_AXIS_DIRECTION_DECREASING;
    r.problem = detail::lower_reduce(in.sizes, in.strides, out.strides,
                                     std::span<const bool>(reduced, in.sizes.size()));
    return detail::plan_reduce(target, r, plan);
}

}  // namespace

namespace detail {

Status plan_operator(const PlanTarget& target, const OperatorState& o, Plan& plan) {
    switch (o.desc.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
    case DML_OPERATOR_CUMULATIVE_PRODUCT: return plan_cumulative(target, o, plan);
    case DML_OPERATOR_REDUCE:
    case DML_OPERATOR_ARGMIN:
    case DML_OPERATOR_ARGMAX: return plan_reduction(target, o, plan);
    default: return make_error(ErrorCode::invalid_argument, "compile_operator: unknown operator type");
    }
}

}  // namespace detail

}  // namespace vkdml
