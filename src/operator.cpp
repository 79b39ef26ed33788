// Device::create_operator and Device::supports: validation, then a deep copy of the description.
#include "errors.hpp"
#include "operator_state.hpp"
#include "validation.hpp"

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

CumulativeDesc as_cumulative(const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC& d) {
    return {d.InputTensor, d.OutputTensor, d.Axis, d.AxisDirection, d.HasExclusiveSum};
}

}  // namespace

DML_OPERATOR_TYPE Operator::type() const noexcept {
    return s_->desc.Type;
}
const DML_OPERATOR_DESC& Operator::desc() const noexcept {
    return s_->desc;
}

TypeSupport Device::supports(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) const {
    if (op != DML_OPERATOR_CUMULATIVE_SUMMATION)
        return {false,
                detail::cat(to_string(op), " (", static_cast<int>(op), ") is not implemented by this vkdml")};
    if (element_size(type) == 0)
        return {false, detail::cat("data type ", static_cast<int>(type),
                                   " is not a DML_TENSOR_DATA_TYPE vkdml knows")};
    if (const char* missing = detail::missing_feature(s_->features, type))
        return {false, detail::cat("needs the Vulkan feature ", missing)};
    return {true, {}};
}

Result<Operator> Device::create_operator(const DML_OPERATOR_DESC& desc) const {
    using detail::make_error;
    if (!desc.Desc)
        return make_error(ErrorCode::invalid_descriptor, to_string(desc.Type),
                          ": DML_OPERATOR_DESC.Desc is null");
    auto s = std::make_shared<OperatorState>();
    s->device = s_;
    s->desc.Type = desc.Type;
    switch (desc.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION: {
        const auto& d = *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*>(desc.Desc);
        if (auto st = detail::validate_cumulative(*s_, desc.Type, as_cumulative(d)); !st) return st.error();
        s->inputs.push_back(copy_tensor(*d.InputTensor));
        s->outputs.push_back(copy_tensor(*d.OutputTensor));
        s->cumsum = d;
        s->cumsum.InputTensor = &s->inputs[0]->tensor;
        s->cumsum.OutputTensor = &s->outputs[0]->tensor;
        s->desc.Desc = &s->cumsum;
        break;
    }
    default:
        return make_error(ErrorCode::invalid_descriptor, "DML_OPERATOR_DESC.Type is ",
                          static_cast<int>(desc.Type), " (", to_string(desc.Type),
                          "), which this vkdml does not implement (it implements "
                          "DML_OPERATOR_CUMULATIVE_SUMMATION (105))");
    }
    return Operator(std::move(s));
}

}  // namespace vkdml
