// The cumulative operators' builders of vkdml/ops.hpp (DirectML's and vkdml's): the input checked, the
// output its copy.
#include "front/operation_parts.hpp"

namespace vkdml::ops {

namespace {

using detail::make_error;
using namespace builder;

template <class CumulativeDesc>
Result<Operation> cumulative(const char* op, DML_OPERATOR_TYPE type, const char* what,
                             const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                             bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    auto input_bytes = check_input(op, input);
    if (!input_bytes) return input_bytes.error();
    if (auto st = check_direction(op, direction); !st) return st.error();
    if (axis >= input.sizes.size())
        return make_error(ErrorCode::invalid_argument, op, ": axis ", axis,
                          " is out of range for an input of ", input.sizes.size(),
                          " dimensions (axes count from 0)");
    auto out_type = kept_output_type(op, what, input.data_type, output_type);
    if (!out_type) return out_type.error();
    auto parts = make_parts(op, input, *input_bytes, input.sizes, *out_type, {});
    if (!parts) return parts.error();
    Parts& p = **parts;
    set_typed(p, type, CumulativeDesc{&p.input_tensor, &p.output_tensor, axis, direction, exclusive ? 1 : 0});
    return Operation(std::move(*parts));
}

}  // namespace

Result<Operation> cumulative_sum(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                 bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<DML_CUMULATIVE_SUMMATION_OPERATOR_DESC>(
        "vkdml::ops::cumulative_sum", DML_OPERATOR_CUMULATIVE_SUMMATION, "CUMULATIVE_SUMMATION", input, axis,
        direction, exclusive, output_type);
}

Result<Operation> cumulative_product(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                     bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>(
        "vkdml::ops::cumulative_product", DML_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", input, axis,
        direction, exclusive, output_type);
}

Result<Operation> cumulative_maximum(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                     bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC>(
        "vkdml::ops::cumulative_maximum", VKDML_OPERATOR_CUMULATIVE_MAXIMUM, "CUMULATIVE_MAXIMUM", input,
        axis, direction, exclusive, output_type);
}

Result<Operation> cumulative_minimum(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                     bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC>(
        "vkdml::ops::cumulative_minimum", VKDML_OPERATOR_CUMULATIVE_MINIMUM, "CUMULATIVE_MINIMUM", input,
        axis, direction, exclusive, output_type);
}

Result<Operation> log_cumulative_sum_exp(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                         bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC>(
        "vkdml::ops::log_cumulative_sum_exp", VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, "LOG_CUMULATIVE_SUM_EXP",
        input, axis, direction, exclusive, output_type);
}

}  // namespace vkdml::ops
