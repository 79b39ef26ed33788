// What Device::create_operator and Device::supports run for a device's capabilities: validation, then a
// deep copy of the description.
#include "core/errors.hpp"
#include "front/operator_state.hpp"
#include "front/validation.hpp"

#include <type_traits>
#include <variant>

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

// Keeps deep copies of the two tensors and points the normalized description at them.
void keep_tensors(OperatorState& s, const DML_TENSOR_DESC& input, const DML_TENSOR_DESC& output) {
    s.inputs.push_back(copy_tensor(input));
    s.outputs.push_back(copy_tensor(output));
    s.normalized.input = &s.inputs[0]->tensor;
    s.normalized.output = &s.outputs[0]->tensor;
}

// Validates a cumulative description, then keeps it, normalized.
template <class CumulativeOpDesc>
Status create_cumulative(const detail::DeviceCaps& caps, DML_OPERATOR_TYPE type, const void* desc,
                         OperatorState& s) {
    const CumulativeDesc d = as_cumulative(*static_cast<const CumulativeOpDesc*>(desc));
    if (auto st = detail::validate_cumulative(caps, type, d); !st) return st;
    keep_tensors(s, *d.InputTensor, *d.OutputTensor);
    s.normalized.axis = d.Axis;
    s.normalized.direction = d.AxisDirection;
    s.normalized.exclusive = d.HasExclusive;
    return {};
}

// Validates a REDUCE, ARGMIN or ARGMAX description, then keeps it (Axes included), normalized.
template <class ReductionOpDesc>
Status create_reduction(const detail::DeviceCaps& caps, DML_OPERATOR_TYPE type, const void* desc,
                        OperatorState& s) {
    const ReductionDesc d = as_reduction(*static_cast<const ReductionOpDesc*>(desc));
    if (auto st = detail::validate_reduction(caps, type, d); !st) return st;
    keep_tensors(s, *d.InputTensor, *d.OutputTensor);
    s.normalized.function = d.Function;
    s.normalized.axes.assign(d.Axes, d.Axes + d.AxisCount);
    s.normalized.direction = d.AxisDirection;
    return {};
}

// DirectML's struct of the normalized description's type, its pointers into `s`.
TypedDesc typed_desc(const OperatorState& s) {
    const NormalizedDesc& n = s.normalized;
    const auto count = static_cast<uint32_t>(n.axes.size());
    const uint32_t* axes = n.axes.empty() ? nullptr : n.axes.data();
    switch (n.type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
        return DML_CUMULATIVE_SUMMATION_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive};
    case DML_OPERATOR_CUMULATIVE_PRODUCT:
        return DML_CUMULATIVE_PRODUCT_OPERATOR_DESC{n.input, n.output, n.axis, n.direction, n.exclusive};
    case DML_OPERATOR_REDUCE: return DML_REDUCE_OPERATOR_DESC{n.function, n.input, n.output, count, axes};
    case DML_OPERATOR_ARGMIN: return DML_ARGMIN_OPERATOR_DESC{n.input, n.output, count, axes, n.direction};
    case DML_OPERATOR_ARGMAX: return DML_ARGMAX_OPERATOR_DESC{n.input, n.output, count, axes, n.direction};
    default: return std::monostate{};
    }
}

// The options, checked against a validated description.
Status validate_options(const OperatorState& s, const OperatorOptions& options) {
    using detail::make_error;
    if (options.nan_mode != NanMode::propagate && options.nan_mode != NanMode::ignore)
        return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type), ": OperatorOptions::nan_mode ",
                          static_cast<int>(options.nan_mode),
                          " is neither NanMode::propagate nor NanMode::ignore");
    if (options.nan_mode == NanMode::ignore) {
        const bool reduction = s.normalized.is_reduction();
        const DML_REDUCE_FUNCTION f = s.normalized.function;
        if (!reduction ||
            !(is_arg_function(f) || f == DML_REDUCE_FUNCTION_MIN || f == DML_REDUCE_FUNCTION_MAX))
            return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type),
                              reduction ? detail::cat(" ", to_string(f)) : std::string(),
                              ": NanMode::ignore applies only to MIN, MAX, ARGMIN and ARGMAX (SPEC §3 NaN); "
                              "this operator always propagates NaN");
    }
    return {};
}

// Validates the description and keeps it in `s`, normalized.
Status normalize(const detail::DeviceCaps& caps, const DML_OPERATOR_DESC& desc, OperatorState& s) {
    s.normalized.type = desc.Type;
    switch (desc.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
        return create_cumulative<DML_CUMULATIVE_SUMMATION_OPERATOR_DESC>(caps, desc.Type, desc.Desc, s);
    case DML_OPERATOR_CUMULATIVE_PRODUCT:
        return create_cumulative<DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>(caps, desc.Type, desc.Desc, s);
    case DML_OPERATOR_REDUCE:
        return create_reduction<DML_REDUCE_OPERATOR_DESC>(caps, desc.Type, desc.Desc, s);
    case DML_OPERATOR_ARGMIN:
        return create_reduction<DML_ARGMIN_OPERATOR_DESC>(caps, desc.Type, desc.Desc, s);
    case DML_OPERATOR_ARGMAX:
        return create_reduction<DML_ARGMAX_OPERATOR_DESC>(caps, desc.Type, desc.Desc, s);
    default:
        return detail::make_error(
            ErrorCode::invalid_descriptor, "DML_OPERATOR_DESC.Type is ", static_cast<int>(desc.Type), " (",
            to_string(desc.Type),
            "), which this vkdml does not implement (it implements REDUCE (55), "
            "CUMULATIVE_SUMMATION (105), ARGMIN (137), ARGMAX (138) and CUMULATIVE_PRODUCT (145))");
    }
}

// Validates the description, keeps it normalized and points `s.desc` at its typed form.
Status create_operator_state(const detail::DeviceCaps& caps, const DML_OPERATOR_DESC& desc,
                             OperatorState& s) {
    if (auto st = normalize(caps, desc, s); !st) return st;
    s.typed = typed_desc(s);
    s.desc.Desc = std::visit(
        [](const auto& d) -> const void* {
            if constexpr (std::is_same_v<std::decay_t<decltype(d)>, std::monostate>)
                return nullptr;
            else
                return &d;
        },
        s.typed);
    return {};
}

}  // namespace

namespace detail {

Status create_description(const DeviceCaps& caps, const DML_OPERATOR_DESC& desc,
                          const OperatorOptions& options, OperatorState& s) {
    s.caps = &caps;
    if (auto st = create_operator_state(caps, desc, s); !st) return st;
    if (auto st = validate_options(s, options); !st) return st;
    s.options = options;
    return {};
}

TypeSupport type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) {
    if (!implemented(op))
        return {false, cat(to_string(op), " (", static_cast<int>(op), ") is not implemented by this vkdml")};
    if (element_size(type) == 0)
        return {false,
                cat("data type ", static_cast<int>(type), " is not a DML_TENSOR_DATA_TYPE vkdml knows")};
    if (const char* missing = missing_feature(caps.features, type))
        return {false, cat("needs the Vulkan feature ", missing)};
    return {true, {}};
}

}  // namespace detail

CumulativeDesc OperatorState::cumulative() const {
    const NormalizedDesc& n = normalized;
    return {n.input, n.output, n.axis, n.direction, n.exclusive};
}

ReductionDesc OperatorState::reduction() const {
    const NormalizedDesc& n = normalized;
    return {n.input,
            n.output,
            static_cast<uint32_t>(n.axes.size()),
            n.axes.empty() ? nullptr : n.axes.data(),
            n.function,
            n.type != DML_OPERATOR_REDUCE,
            n.direction};
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

}  // namespace vkdml
