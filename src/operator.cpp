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

constexpr DML_OPERATOR_TYPE kImplemented[] = {DML_OPERATOR_CUMULATIVE_SUMMATION,
                                              DML_OPERATOR_CUMULATIVE_PRODUCT};

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

}  // namespace

CumulativeDesc OperatorState::cumulative() const {
    return desc.Type == DML_OPERATOR_CUMULATIVE_PRODUCT ? as_cumulative(cumprod) : as_cumulative(cumsum);
}

DML_OPERATOR_TYPE Operator::type() const noexcept {
    return s_->desc.Type;
}
const DML_OPERATOR_DESC& Operator::desc() const noexcept {
    return s_->desc;
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

Result<Operator> Device::create_operator(const DML_OPERATOR_DESC& desc) const {
    using detail::make_error;
    if (!desc.Desc)
        return make_error(ErrorCode::invalid_descriptor, to_string(desc.Type),
                          ": DML_OPERATOR_DESC.Desc is null");
    auto s = std::make_shared<OperatorState>();
    s->device = s_;
    s->desc.Type = desc.Type;
    Status st;
    switch (desc.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
        st = create_cumulative(*s_, desc.Type, desc.Desc, *s, s->cumsum);
        break;
    case DML_OPERATOR_CUMULATIVE_PRODUCT:
        st = create_cumulative(*s_, desc.Type, desc.Desc, *s, s->cumprod);
        break;
    default:
        return make_error(
            ErrorCode::invalid_descriptor, "DML_OPERATOR_DESC.Type is ", static_cast<int>(desc.Type), " (",
            to_string(desc.Type),
            "), which this vkdml does not implement (it implements "
            "DML_OPERATOR_CUMULATIVE_SUMMATION (105) and DML_OPERATOR_CUMULATIVE_PRODUCT (145))");
    }
    if (!st) return st.error();
    return Operator(std::move(s));
}

}  // namespace vkdml
