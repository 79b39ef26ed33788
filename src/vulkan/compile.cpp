// Device::compile_operator: a validated operator lowered to its problem, planned for the device, the
// plan's pipelines made.
#include "vkdml/profiling.hpp"

#include "core/errors.hpp"
#include "core/reduce_plan.hpp"
#include "core/scan_plan.hpp"
#include "front/operator_state.hpp"
#include "vulkan/pipeline_cache.hpp"

namespace vkdml {

namespace {

// Both cumulative operators: one plan builder, the operation (sum or product) a parameter of it.
Status compile_cumulative(const detail::PlanTarget& target, const OperatorState& op, detail::Plan& plan) {
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
Status compile_reduction(const detail::PlanTarget& target, const OperatorState& op, detail::Plan& plan) {
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
    case DML_OPERATOR_CUMULATIVE_PRODUCT: return compile_cumulative(target, o, plan);
    case DML_OPERATOR_REDUCE:
    case DML_OPERATOR_ARGMIN:
    case DML_OPERATOR_ARGMAX: return compile_reduction(target, o, plan);
    default: return make_error(ErrorCode::invalid_argument, "compile_operator: unknown operator type");
    }
}

}  // namespace detail

Result<CompiledOperator> Device::compile_operator(const Operator& op, DML_EXECUTION_FLAGS flags) const {
    if (auto st = detail::check_not_lost(*s_); !st) return st.error();
    constexpr uint32_t known = DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION |
                               DML_EXECUTION_FLAG_DISABLE_META_COMMANDS |
                               DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
    if (static_cast<uint32_t>(flags) & ~known)
        return detail::make_error(ErrorCode::invalid_argument, "compile_operator: DML_EXECUTION_FLAGS ",
                                  static_cast<uint32_t>(flags), " has unknown bits (known: 0x7)");
    if (!detail::ApiAccess::state(op) || detail::ApiAccess::state(op)->device != s_)
        return detail::make_error(ErrorCode::invalid_argument,
                                  "compile_operator: the operator was created on another device");
    // ALLOW_HALF_PRECISION_COMPUTATION: float16 still accumulates in float32 (SPEC §3); the other two
    // flags change nothing here (no meta commands; descriptors are pushed at record time).
    auto state = std::make_shared<CompiledState>();
    state->op = detail::ApiAccess::state(op);
    const OperatorState& o = *detail::ApiAccess::state(op);
    if (auto st = detail::plan_operator(s_->caps.plan_target(), o, state->plan); !st) return st.error();
    auto pipelines = s_->pipelines->materialize(state->plan);
    if (!pipelines) return pipelines.error();
    state->pipelines = std::move(*pipelines);
    return detail::ApiAccess::make_compiled(std::move(state));
}

DML_BINDING_PROPERTIES CompiledOperator::binding_properties() const noexcept {
    return {detail::kBindingCount, s_->plan.temporary_bytes, 0};
}

uint32_t pass_count(const CompiledOperator& compiled) noexcept {
    const auto& s = detail::ApiAccess::state(compiled);
    return s ? static_cast<uint32_t>(s->plan.passes.size()) : 0;
}

}  // namespace vkdml
