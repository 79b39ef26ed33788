// The cumulative operators' builders of vkdml/ops.hpp (DirectML's and vkdml's): the input checked, the
// output its copy.
#include "front/operation_parts.hpp"

#include <optional>

namespace vkdml::ops {

namespace {

using detail::make_error;
using namespace builder;

/// The checked parts of a cumulative operation; the caller sets its typed description.
Result<std::shared_ptr<Parts>> cumulative_parts(const char* op, const char* what, const TensorDesc& input,
                                                uint32_t axis, DML_AXIS_DIRECTION direction,
                                                DML_TENSOR_DATA_TYPE output_type) {
    auto input_bytes = check_input(op, input);
    if (!input_bytes) return input_bytes.error();
    if (auto st = check_direction(op, direction); !st) return st.error();
    if (axis >= input.sizes.size())
        return make_error(ErrorCode::invalid_argument, op, ": axis ", axis,
                          " is out of range for an input of ", input.sizes.size(),
                          " dimensions (axes count from 0)");
    auto out_type = kept_output_type(op, what, input.data_type, output_type);
    if (!out_type) return out_type.error();
    return make_parts(op, input, *input_bytes, input.sizes, *out_type, {});
}

/// The description of the parts `p` (the selections' with the index output when `p` has one).
template <class CumulativeDesc>
CumulativeDesc description_of(const Parts& p, uint32_t axis, DML_AXIS_DIRECTION direction, bool exclusive) {
    const int32_t flag = exclusive ? 1 : 0;
    if constexpr (requires(CumulativeDesc d) { d.OutputIndexTensor; })
        return {&p.input_tensor,
                &p.output_tensor,
                axis,
                direction,
                flag,
                p.has_index_output ? &p.index_tensor : nullptr};
    else
        return {&p.input_tensor, &p.output_tensor, axis, direction, flag};
}

/// A cumulative operation; `index_type` (the selections) adds the index output of that type (kAutoType:
/// INT64).
template <class CumulativeDesc>
Result<Operation> cumulative(const char* op, DML_OPERATOR_TYPE type, const char* what,
                             const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                             bool exclusive, DML_TENSOR_DATA_TYPE output_type,
                             std::optional<DML_TENSOR_DATA_TYPE> index_type = std::nullopt) {
    auto parts = cumulative_parts(op, what, input, axis, direction, output_type);
    if (!parts) return parts.error();
    Parts& p = **parts;
    if (index_type) {
        auto index = index_output_type(op, *index_type);
        if (!index) return index.error();
        if (auto st = add_index_output(op, p, *index); !st) return st.error();
    }
    set_typed(p, type, description_of<CumulativeDesc>(p, axis, direction, exclusive));
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

Result<Operation> cumulative_maximum_with_indices(const TensorDesc& input, uint32_t axis,
                                                  DML_AXIS_DIRECTION direction, bool exclusive,
                                                  DML_TENSOR_DATA_TYPE index_type) {
    return cumulative<VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC>(
        "vkdml::ops::cumulative_maximum_with_indices", VKDML_OPERATOR_CUMULATIVE_MAXIMUM,
        "CUMULATIVE_MAXIMUM", input, axis, direction, exclusive, kAutoType, index_type);
}

Result<Operation> cumulative_minimum_with_indices(const TensorDesc& input, uint32_t axis,
                                                  DML_AXIS_DIRECTION direction, bool exclusive,
                                                  DML_TENSOR_DATA_TYPE index_type) {
    return cumulative<VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC>(
        "vkdml::ops::cumulative_minimum_with_indices", VKDML_OPERATOR_CUMULATIVE_MINIMUM,
        "CUMULATIVE_MINIMUM", input, axis, direction, exclusive, kAutoType, index_type);
}

Result<Operation> log_cumulative_sum_exp(const TensorDesc& input, uint32_t axis, DML_AXIS_DIRECTION direction,
                                         bool exclusive, DML_TENSOR_DATA_TYPE output_type) {
    return cumulative<VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC>(
        "vkdml::ops::log_cumulative_sum_exp", VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, "LOG_CUMULATIVE_SUM_EXP",
        input, axis, direction, exclusive, output_type);
}

}  // namespace vkdml::ops
