// Device::create_operator and Device::supports: validation, then a deep copy of the description.
#include "core/errors.hpp"
#include "front/operator_state.hpp"
#include "front/validation.hpp"

namespace vkdml {

namespace {

std::unique_ptr<TensorCopy> copy_tensor(const DML_TENSOR_DESC& t) {
    const auto& b = *static_cast<const DML_BUFFER_TENSOR_DESC*>(t.Desc);
    auto c = std::make_unique<TensorCopy>();
    c->sizes.assign(b.Sizes, b.Sizes + b.DimensionCount);
    c->explicit_strides = b.Strides != nullptr;
    c->strides = b.Strides ? std::vector<uint32_t>(b.Strides, b.Strides + b.DimensionCount)
                           : detail::packed_strides(c->sizes);
    c->buffer = b;
    c->buffer.Sizes = c->sizes.data();
    c->buffer.Strides = c->explicit_strides ? c->strides.data() : nullptr;
    c->tensor = {DML_TENSOR_TYPE_BUFFER, &c->buffer};
    return c;
}

constexpr DML_OPERATOR_TYPE kImplemented[] = {DML_OPERATOR_CUMULATIVE_SUMMATION,
                                              DML_OPERATOR_CUMULATIVE_PRODUCT, DML_OPERATOR_REDUCE,
                                              DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX};

bool implemented(DML_OPERATOR_TYPE op) {
    for (DML_OPERATOR_TYPE t : kImplemented)
        if (t == op) return true;
    return false;
}

// Validates a cumulative description, then keeps a deep copy in `kept` (a member of s).
template <class CumulativeOpDesc>
Status create_cumulative(const DeviceState& device, DML_OPERATOR_TYPE type, const void* desc,
                         OperatorState& s, CumulativeOpDesc& kept) {
    const auto& d = *static_cast<const CumulativeOpDesc*>(desc);
    if (auto st = detail::validate_cumulative(device, type, as_cumulative(d)); !st) return st;
    s.inputs.push_back(copy_tensor(*d.InputTensor));
    s.outputs.push_back(copy_tensor(*d.OutputTensor));
    kept = d;
    kept.InputTensor = &s.inputs[0]->tensor;
    kept.OutputTensor = &s.outputs[0]->tensor;
    s.desc.Desc = &kept;
    return {};
}

// Validates a REDUCE, ARGMIN or ARGMAX description, then keeps a deep copy (Axes included) in `kept`.
template <class ReductionOpDesc>
Status create_reduction(const DeviceState& device, DML_OPERATOR_TYPE type, const void* desc, OperatorState& s,
                        ReductionOpDesc& kept) {
    const auto& d = *static_cast<const ReductionOpDesc*>(desc);
    if (auto st = detail::validate_reduction(device, type, as_reduction(d)); !st) return st;
    s.inputs.push_back(copy_tensor(*d.InputTensor));
    s.outputs.push_back(copy_tensor(*d.OutputTensor));
    s.axes.assign(d.Axes, d.Axes + d.AxisCount);
    kept = d;
    kept.InputTensor = &s.inputs[0]->tensor;
    kept.OutputTensor = &s.outputs[0]->tensor;
    kept.Axes = s.axes.empty() ? nullptr : s.axes.data();
    s.desc.Desc = &kept;
    return {};
}

// The options, checked against a validated description.
Status validate_options(const OperatorState& s, const OperatorOptions& options) {
    using detail::make_error;
    if (options.nan_mode != NanMode::propagate && options.nan_mode != NanMode::ignore)
        return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type), ": OperatorOptions::nan_mode ",
                          static_cast<int>(options.nan_mode),
                          " is neither NanMode::propagate nor NanMode::ignore");
    if (options.nan_mode == NanMode::ignore) {
        const bool reduction = s.desc.Type == DML_OPERATOR_REDUCE || s.desc.Type == DML_OPERATOR_ARGMIN ||
                               s.desc.Type == DML_OPERATOR_ARGMAX;
        const DML_REDUCE_FUNCTION f = reduction ? s.reduction().Function : DML_REDUCE_FUNCTION_SUM;
        if (!reduction ||
            !(is_arg_function(f) || f == DML_REDUCE_FUNCTION_MIN || f == DML_REDUCE_FUNCTION_MAX))
            return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type),
                              reduction ? detail::cat(" ", to_string(f)) : std::string(),
                              ": NanMode::ignore applies only to MIN, MAX, ARGMIN and ARGMAX (SPEC §3 NaN); "
                              "this operator always propagates NaN");
    }
    return {};
}

Status create_operator_state(const DeviceState& device, const DML_OPERATOR_DESC& desc, OperatorState& s) {
    switch (desc.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
        return create_cumulative(device, desc.Type, desc.Desc, s, s.cumsum);
    case DML_OPERATOR_CUMULATIVE_PRODUCT:
        return create_cumulative(device, desc.Type, desc.Desc, s, s.cumprod);
    case DML_OPERATOR_REDUCE: return create_reduction(device, desc.Type, desc.Desc, s, s.reduce);
    case DML_OPERATOR_ARGMIN: return create_reduction(device, desc.Type, desc.Desc, s, s.argmin);
    case DML_OPERATOR_ARGMAX: return create_reduction(device, desc.Type, desc.Desc, s, s.argmax);
    default:
        return detail::make_error(
            ErrorCode::invalid_descriptor, "DML_OPERATOR_DESC.Type is ", static_cast<int>(desc.Type), " (",
            to_string(desc.Type),
            "), which this vkdml does not implement (it implements REDUCE (55), "
            "CUMULATIVE_SUMMATION (105), ARGMIN (137), ARGMAX (138) and CUMULATIVE_PRODUCT (145))");
    }
}

}  // namespace

namespace detail {

Status create_description(const DeviceState& device, const DML_OPERATOR_DESC& desc,
                          const OperatorOptions& options, OperatorState& s) {
    if (auto st = create_operator_state(device, desc, s); !st) return st;
    if (auto st = validate_options(s, options); !st) return st;
    s.options = options;
    return {};
}

}  // namespace detail

CumulativeDesc OperatorState::cumulative() const {
    return desc.Type == DML_OPERATOR_CUMULATIVE_PRODUCT ? as_cumulative(cumprod) : as_cumulative(cumsum);
}

ReductionDesc OperatorState::reduction() const {
    switch (desc.Type) {
    case DML_OPERATOR_ARGMIN: return as_reduction(argmin);
    case DML_OPERATOR_ARGMAX: return as_reduction(argmax);
    default: return as_reduction(reduce);
    }
}

DML_OPERATOR_TYPE Operator::type() const noexcept {
    return s_->desc.Type;
}
const DML_OPERATOR_DESC& Operator::desc() const noexcept {
    return s_->desc;
}
OperatorOptions Operator::options() const noexcept {
    return s_->options;
}

TypeSupport Device::supports(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) const {
    if (!implemented(op))
        return {false,
                detail::cat(to_string(op), " (", static_cast<int>(op), ") is not implemented by this vkdml")};
    if (element_size(type) == 0)
        return {false, detail::cat("data type ", static_cast<int>(type),
                                   " is not a DML_TENSOR_DATA_TYPE vkdml knows")};
    if (const char* missing = detail::missing_feature(s_->features, type))
        return {false, detail::cat("needs the Vulkan feature ", missing)};
    return {true, {}};
}

Result<Operator> Device::create_operator(const DML_OPERATOR_DESC& desc,
                                         const OperatorOptions& options) const {
    using detail::make_error;
    if (auto st = detail::check_not_lost(*s_); !st) return st.error();
    if (!desc.Desc)
        return make_error(ErrorCode::invalid_descriptor, to_string(desc.Type),
                          ": DML_OPERATOR_DESC.Desc is null");
    auto s = std::make_shared<OperatorState>();
    s->device = s_;
    s->desc.Type = desc.Type;
    if (auto st = detail::create_description(*s_, desc, options, *s); !st) return st.error();
    return detail::ApiAccess::make_operator(std::move(s));
}

}  // namespace vkdml
