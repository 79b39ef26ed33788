// The reductions' builders of vkdml/ops.hpp: the input checked, the output its reduced shape (size 1 on
// each reduced axis), index outputs for the arg functions.
#include "core/kernel_abi.hpp"
#include "front/operation_parts.hpp"

namespace vkdml::ops {

namespace {

using detail::make_error;
using namespace builder;

// A REDUCE, ARGMIN or ARGMAX operation; `typed_desc` makes the typed description from the linked parts.
template <class MakeTyped>
Result<Operation> reduction(const char* op, DML_OPERATOR_TYPE type, const TensorDesc& input,
                            std::span<const uint32_t> axes, DML_TENSOR_DATA_TYPE output_type,
                            MakeTyped typed_desc) {
    auto input_bytes = check_input(op, input);
    if (!input_bytes) return input_bytes.error();
    auto sizes = reduced_sizes(input.sizes, axes);
    if (!sizes) return make_error(sizes.error().code, op, ": ", sizes.error().message);
    auto parts = make_parts(op, input, *input_bytes, std::move(*sizes), output_type, axes);
    if (!parts) return parts.error();
    Parts& p = **parts;
    const uint32_t* axes_ptr = p.axes.empty() ? nullptr : p.axes.data();
    set_typed(p, type,
              typed_desc(&p.input_tensor, &p.output_tensor, static_cast<uint32_t>(p.axes.size()), axes_ptr));
    return Operation(std::move(*parts));
}

template <class ArgDesc>
Result<Operation> arg(const char* op, DML_OPERATOR_TYPE type, const TensorDesc& input,
                      std::span<const uint32_t> axes, DML_AXIS_DIRECTION direction,
                      DML_TENSOR_DATA_TYPE output_type) {
    if (auto st = check_direction(op, direction); !st) return st.error();
    auto out_type = index_output_type(op, output_type);
    if (!out_type) return out_type.error();
    return reduction(
        op, type, input, axes, *out_type,
        [&](const DML_TENSOR_DESC* in, const DML_TENSOR_DESC* out, uint32_t count, const uint32_t* axes_ptr) {
            return ArgDesc{in, out, count, axes_ptr, direction};
        });
}

}  // namespace

Result<Operation> reduce(const TensorDesc& input, DML_REDUCE_FUNCTION function,
                         std::span<const uint32_t> axes, DML_TENSOR_DATA_TYPE output_type) {
    const char* op = "vkdml::ops::reduce";
    if (!detail::is_reduce_function(static_cast<uint32_t>(function)))
        return make_error(ErrorCode::invalid_argument, op, ": function ", static_cast<int>(function),
                          " is not a DML_REDUCE_FUNCTION (ARGMAX (0) to SUM_SQUARE (11), or vkdml's "
                          "VARIANCE (1000) to COUNT_NONZERO (1004))");
    const bool arg_function =
        function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
    Result<DML_TENSOR_DATA_TYPE> out_type = DML_TENSOR_DATA_TYPE_UINT8;
    if (function == VKDML_REDUCE_FUNCTION_COUNT_NONZERO) {
        if (output_type == kAutoType) output_type = DML_TENSOR_DATA_TYPE_INT64;
        const TypeInfo* info = type_info(output_type);
        if (!info || !info->index_output)
            return make_error(ErrorCode::unsupported_type, op, ": output type ", to_string(output_type), " (",
                              static_cast<int>(output_type),
                              ") is not a count type: COUNT_NONZERO writes INT32, INT64, UINT32 or UINT64");
        out_type = output_type;
    } else if (detail::is_logical_function(static_cast<uint32_t>(function))) {
        if (output_type != kAutoType && output_type != DML_TENSOR_DATA_TYPE_UINT8)
            return make_error(ErrorCode::unsupported_type, op, ": output type ", to_string(output_type), " (",
                              static_cast<int>(output_type), ") but ", to_string(function),
                              " writes UINT8 flags, 0 or 1");
    } else {
        out_type = arg_function ? index_output_type(op, output_type)
                                : kept_output_type(op, to_string(function), input.data_type, output_type);
    }
    if (!out_type) return out_type.error();
    return reduction(
        op, DML_OPERATOR_REDUCE, input, axes, *out_type,
        [&](const DML_TENSOR_DESC* in, const DML_TENSOR_DESC* out, uint32_t count, const uint32_t* axes_ptr) {
            return DML_REDUCE_OPERATOR_DESC{function, in, out, count, axes_ptr};
        });
}

Result<Operation> argmin(const TensorDesc& input, std::span<const uint32_t> axes,
                         DML_AXIS_DIRECTION direction, DML_TENSOR_DATA_TYPE output_type) {
    return arg<DML_ARGMIN_OPERATOR_DESC>("vkdml::ops::argmin", DML_OPERATOR_ARGMIN, input, axes, direction,
                                         output_type);
}

Result<Operation> argmax(const TensorDesc& input, std::span<const uint32_t> axes,
                         DML_AXIS_DIRECTION direction, DML_TENSOR_DATA_TYPE output_type) {
    return arg<DML_ARGMAX_OPERATOR_DESC>("vkdml::ops::argmax", DML_OPERATOR_ARGMAX, input, axes, direction,
                                         output_type);
}

}  // namespace vkdml::ops
