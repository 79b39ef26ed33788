// Device::supports and Device::create_operator: the device's side (a lost device refuses, the operator
// keeps its device) of the validation and deep copy that ops/operator.cpp runs on its capabilities.
#include "core/errors.hpp"
#include "front/api_access.hpp"
#include "front/operator_state.hpp"
#include "vulkan/device_state.hpp"

namespace vkdml {

TypeSupport Device::supports(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) const {
    return detail::type_support(s_->caps, op, type);
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
    if (auto st = detail::create_description(s_->caps, desc, options, *s); !st) return st.error();
    return detail::ApiAccess::make_operator(std::move(s));
}

}  // namespace vkdml
