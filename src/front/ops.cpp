// vkdml::ops: the builders of vkdml/ops.hpp — input checks, the inferred output tensor (reduced axes become
// size 1) and the owned DML_*_OPERATOR_DESC.
#include "vkdml/ops.hpp"

#include "core/errors.hpp"
#include "front/validation.hpp"
#include "vkdml/checked_math.hpp"

#include <variant>

namespace vkdml::ops {

/// Everything an Operation's descriptor points at. Made once in a shared_ptr and never moved, so the
/// pointers set by link() stay valid for as long as any Operation holds it.
struct Operation::Parts {
    TensorDesc input, output;
    uint64_t input_bytes = 0, output_bytes = 0;
    std::vector<uint32_t> axes;
    DML_BUFFER_TENSOR_DESC input_buffer{}, output_buffer{};
    DML_TENSOR_DESC input_tensor{}, output_tensor{};
    std::variant<DML_REDUCE_OPERATOR_DESC, DML_ARGMIN_OPERATOR_DESC, DML_ARGMAX_OPERATOR_DESC,
                 DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, DML_CUMULATIVE_PRODUCT_OPERATOR_DESC>
        typed;
    DML_OPERATOR_DESC desc{};

    Parts() = default;
    Parts(const Parts&) = delete;
    Parts& operator=(const Parts&) = delete;
};

namespace {

using detail::make_error;
using Parts = Operation::Parts;

DML_BUFFER_TENSOR_DESC buffer_of(const TensorDesc& t, uint64_t bytes) {
    return {t.data_type,
            DML_TENSOR_FLAG_NONE,
            static_cast<uint32_t>(t.sizes.size()),
            t.sizes.data(),
            t.strides.empty() ? nullptr : t.strides.data(),
            bytes,
            t.guaranteed_base_offset_alignment};
}

// The input's TotalTensorSizeInBytes, or its error under the operation's name `op`. The rank (1 to 8) is
// create_operator's to judge, with SPEC §2's other rules.
Result<uint64_t> check_input(const char* op, const TensorDesc& input) {
    auto bytes = input.total_bytes();
    if (!bytes) return make_error(bytes.error().code, op, ": input ", bytes.error().message);
    return bytes;
}

// The parts of an operation over `input` (checked, `input_bytes` long) whose output has `output_sizes` and
// `output_type`, tensors linked; the caller sets `typed` and `desc`. Errors: an output too large to size.
Result<std::shared_ptr<Parts>> make_parts(const char* op, const TensorDesc& input, uint64_t input_bytes,
                                          std::vector<uint32_t> output_sizes,
                                          DML_TENSOR_DATA_TYPE output_type, std::span<const uint32_t> axes) {
    auto p = std::make_shared<Parts>();
    p->input = input;
    p->output = TensorDesc{output_type, std::move(output_sizes), {}, 0};
    auto output_bytes = p->output.total_bytes();
    if (!output_bytes)
        return make_error(output_bytes.error().code, op, ": output ", output_bytes.error().message);
    p->input_bytes = input_bytes;
    p->output_bytes = *output_bytes;
    p->axes.assign(axes.begin(), axes.end());
    p->input_buffer = buffer_of(p->input, p->input_bytes);
    p->output_buffer = buffer_of(p->output, p->output_bytes);
    p->input_tensor = {DML_TENSOR_TYPE_BUFFER, &p->input_buffer};
    p->output_tensor = {DML_TENSOR_TYPE_BUFFER, &p->output_buffer};
    return p;
}

bool is_index_type(DML_TENSOR_DATA_TYPE t) {
    const TypeInfo* info = type_info(t);
    return info && info->index_output;
}

// The output type of an arg function: UINT32 for kAutoType, else one of the four index types.
Result<DML_TENSOR_DATA_TYPE> index_output_type(const char* op, DML_TENSOR_DATA_TYPE requested) {
    if (requested == kAutoType) return DML_TENSOR_DATA_TYPE_UINT32;
    if (!is_index_type(requested))
        return make_error(ErrorCode::unsupported_type, op, ": output type ", to_string(requested), " (",
                          static_cast<int>(requested),
                          ") is not an index type: ARGMAX and ARGMIN write INT32, INT64, UINT32 or UINT64");
    return requested;
}

// The output type of an operator that keeps its input's type: the input's for kAutoType or that type.
Result<DML_TENSOR_DATA_TYPE> kept_output_type(const char* op, const char* what, DML_TENSOR_DATA_TYPE input,
                                              DML_TENSOR_DATA_TYPE requested) {
    if (requested == kAutoType || requested == input) return input;
    return make_error(ErrorCode::unsupported_type, op, ": output type ", to_string(requested), " (",
                      static_cast<int>(requested), ") but ", what, " writes the input's type, ",
                      to_string(input));
}

Status check_direction(const char* op, DML_AXIS_DIRECTION direction) {
    if (direction == DML_AXIS_DIRECTION_INCREASING || direction == DML_AXIS_DIRECTION_DECREASING) return {};
    return make_error(ErrorCode::invalid_argument, op, ": direction ", static_cast<int>(direction),
                      " is neither DML_AXIS_DIRECTION_INCREASING (0) nor DML_AXIS_DIRECTION_DECREASING (1)");
}

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
    p.typed = typed_desc(&p.input_tensor, &p.output_tensor, static_cast<uint32_t>(p.axes.size()), axes_ptr);
    p.desc = {type, std::visit([](const auto& d) -> const void* { return &d; }, p.typed)};
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
    p.typed = CumulativeDesc{&p.input_tensor, &p.output_tensor, axis, direction, exclusive ? 1 : 0};
    p.desc = {type, std::visit([](const auto& d) -> const void* { return &d; }, p.typed)};
    return Operation(std::move(*parts));
}

}  // namespace

Result<uint64_t> TensorDesc::total_bytes() const {
    const uint32_t element = element_size(data_type);
    if (element == 0)
        return make_error(ErrorCode::unsupported_type, "data type ", static_cast<int>(data_type), " (",
                          to_string(data_type), ") is not a DML_TENSOR_DATA_TYPE vkdml knows");
    if (sizes.empty())
        return make_error(ErrorCode::invalid_argument, "sizes are empty (a tensor has 1 to 8)");
    if (!strides.empty() && strides.size() != sizes.size())
        return make_error(ErrorCode::invalid_argument, "has ", strides.size(), " strides for ", sizes.size(),
                          " sizes (give one stride per size, or none for packed row-major)");
    // The offset of the last element: Σ (size − 1) · stride, the packed strides being running products.
    uint64_t last = 0, packed_stride = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        if (sizes[d] == 0)
            return make_error(ErrorCode::invalid_argument, "size ", d, " is 0 (every size is at least 1)");
        const uint64_t stride = strides.empty() ? packed_stride : strides[d];
        uint64_t step = 0;
        if (mul_overflows(sizes[d] - uint64_t{1}, stride, &step) || add_overflows(last, step, &last) ||
            mul_overflows(packed_stride, sizes[d], &packed_stride))
            return make_error(ErrorCode::invalid_argument, "sizes ",
                              detail::list(sizes.data(), static_cast<uint32_t>(sizes.size())),
                              " reach past 2^64 elements");
    }
    uint64_t bytes = 0;
    if (add_overflows(last, 1, &last) || mul_overflows(last, element, &bytes) ||
        add_overflows(bytes, 3, &bytes))
        return make_error(ErrorCode::invalid_argument, "takes more than 2^64 bytes");
    return bytes & ~uint64_t{3};
}

uint64_t TensorDesc::elements() const noexcept {
    uint64_t n = 1;
    for (uint32_t size : sizes) n *= size;
    return n;
}

Result<std::vector<uint32_t>> reduced_sizes(std::span<const uint32_t> sizes, std::span<const uint32_t> axes) {
    std::vector<uint32_t> out(sizes.begin(), sizes.end());
    std::vector<bool> reduced(sizes.size(), false);
    for (uint32_t axis : axes) {
        if (axis >= sizes.size())
            return make_error(ErrorCode::invalid_argument, "axes ",
                              detail::list(axes.data(), static_cast<uint32_t>(axes.size())), " name axis ",
                              axis, ", out of range for an input of ", sizes.size(),
                              " dimensions (axes count from 0)");
        if (reduced[axis])
            return make_error(ErrorCode::invalid_argument, "axes ",
                              detail::list(axes.data(), static_cast<uint32_t>(axes.size())), " name axis ",
                              axis, " twice (each axis at most once)");
        reduced[axis] = true;
        out[axis] = 1;
    }
    return out;
}

const DML_OPERATOR_DESC& Operation::desc() const noexcept {
    return p_->desc;
}
DML_OPERATOR_TYPE Operation::type() const noexcept {
    return p_->desc.Type;
}
const TensorDesc& Operation::input() const noexcept {
    return p_->input;
}
const TensorDesc& Operation::output() const noexcept {
    return p_->output;
}
uint64_t Operation::input_bytes() const noexcept {
    return p_->input_bytes;
}
uint64_t Operation::output_bytes() const noexcept {
    return p_->output_bytes;
}
std::span<const uint32_t> Operation::axes() const noexcept {
    return p_->axes;
}

Result<Operation> reduce(const TensorDesc& input, DML_REDUCE_FUNCTION function,
                         std::span<const uint32_t> axes, DML_TENSOR_DATA_TYPE output_type) {
    const char* op = "vkdml::ops::reduce";
    if (static_cast<uint32_t>(function) > DML_REDUCE_FUNCTION_SUM_SQUARE)
        return make_error(ErrorCode::invalid_argument, op, ": function ", static_cast<int>(function),
                          " is not a DML_REDUCE_FUNCTION (ARGMAX (0) to SUM_SQUARE (11))");
    const bool arg_function =
        function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
    auto out_type = arg_function ? index_output_type(op, output_type)
                                 : kept_output_type(op, to_string(function), input.data_type, output_type);
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

}  // namespace vkdml::ops
