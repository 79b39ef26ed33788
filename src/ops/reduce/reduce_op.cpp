// The reductions' rows (see reduce_op.hpp): validate and keep, DirectML's struct back, plan.
#include "ops/reduce/reduce_op.hpp"

#include "core/reduce_plan.hpp"

namespace vkdml::detail {

namespace {

ReductionDesc as_reduction(const DML_REDUCE_OPERATOR_DESC& d) {
    return {
        d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, d.Function, false, DML_AXIS_DIRECTION_INCREASING};
}
ReductionDesc as_reduction(const DML_ARGMIN_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, DML_REDUCE_FUNCTION_ARGMIN,
            true,          d.AxisDirection};
}
ReductionDesc as_reduction(const DML_ARGMAX_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.AxisCount, d.Axes, DML_REDUCE_FUNCTION_ARGMAX,
            true,          d.AxisDirection};
}

template <class OpDesc>
Status normalize(const DeviceCaps& caps, DML_OPERATOR_TYPE type, const void* desc, OperatorState& s) {
    const ReductionDesc d = as_reduction(*static_cast<const OpDesc*>(desc));
    if (auto st = validate_reduction(caps, type, d); !st) return st;
    keep_tensors(s, *d.InputTensor, *d.OutputTensor);
    s.normalized.function = d.Function;
    s.normalized.axes.assign(d.Axes, d.Axes + d.AxisCount);
    s.normalized.direction = d.AxisDirection;
    return {};
}

uint32_t axis_count(const NormalizedDesc& n) {
    return static_cast<uint32_t>(n.axes.size());
}
const uint32_t* axes_of(const NormalizedDesc& n) {
    return n.axes.empty() ? nullptr : n.axes.data();
}

}  // namespace

Status normalize_reduce(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<DML_REDUCE_OPERATOR_DESC>(caps, DML_OPERATOR_REDUCE, desc, s);
}
Status normalize_argmin(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<DML_ARGMIN_OPERATOR_DESC>(caps, DML_OPERATOR_ARGMIN, desc, s);
}
Status normalize_argmax(const DeviceCaps& caps, const void* desc, OperatorState& s) {
    return normalize<DML_ARGMAX_OPERATOR_DESC>(caps, DML_OPERATOR_ARGMAX, desc, s);
}

std::shared_ptr<const void> typed_reduce(const NormalizedDesc& n) {
    return std::make_shared<const DML_REDUCE_OPERATOR_DESC>(
        DML_REDUCE_OPERATOR_DESC{n.function, n.input, n.output, axis_count(n), axes_of(n)});
}
std::shared_ptr<const void> typed_argmin(const NormalizedDesc& n) {
    return std::make_shared<const DML_ARGMIN_OPERATOR_DESC>(
        DML_ARGMIN_OPERATOR_DESC{n.input, n.output, axis_count(n), axes_of(n), n.direction});
}
std::shared_ptr<const void> typed_argmax(const NormalizedDesc& n) {
    return std::make_shared<const DML_ARGMAX_OPERATOR_DESC>(
        DML_ARGMAX_OPERATOR_DESC{n.input, n.output, axis_count(n), axes_of(n), n.direction});
}

Status plan_reduction(const PlanTarget& target, const OperatorState& op, Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    const TensorCopy& out = *op.outputs[0];
    const NormalizedDesc& n = op.normalized;
    bool reduced[8] = {};
    for (uint32_t a : n.axes) reduced[a] = true;
    ReduceRequest r;
    r.function = static_cast<uint32_t>(n.function);
    r.nan_ignore = op.options.nan_mode == NanMode::ignore;
    r.correction = op.options.correction;
    r.type = in.buffer.DataType;
    r.output_type = out.buffer.DataType;
    r.tie_last = n.direction == DML_AXIS_DIRECTION_DECREASING;
    r.problem =
        lower_reduce(in.sizes, in.strides, out.strides, std::span<const bool>(reduced, in.sizes.size()));
    return plan_reduce(target, r, plan);
}

}  // namespace vkdml::detail
