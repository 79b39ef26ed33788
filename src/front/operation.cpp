// The builders' shared parts (operation_parts.hpp), TensorDesc's size, reduced_sizes and Operation's
// accessors.
#include "front/operation_parts.hpp"

#include "front/validation.hpp"
#include "vkdml/checked_math.hpp"

namespace vkdml::ops {

namespace {

using detail::make_error;

DML_BUFFER_TENSOR_DESC buffer_of(const TensorDesc& t, uint64_t bytes) {
    return {t.data_type,
            DML_TENSOR_FLAG_NONE,
            static_cast<uint32_t>(t.sizes.size()),
            t.sizes.data(),
            t.strides.empty() ? nullptr : t.strides.data(),
            bytes,
            t.guaranteed_base_offset_alignment};
}

}  // namespace

namespace builder {

Result<uint64_t> check_input(const char* op, const TensorDesc& input) {
    auto bytes = input.total_bytes();
    if (!bytes) return make_error(bytes.error().code, op, ": input ", bytes.error().message);
    return bytes;
}

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

Status add_index_output(const char* op, Parts& p, DML_TENSOR_DATA_TYPE type) {
    p.index_output = TensorDesc{type, p.input.sizes, {}, 0};
    auto bytes = p.index_output.total_bytes();
    if (!bytes) return make_error(bytes.error().code, op, ": index output ", bytes.error().message);
    p.has_index_output = true;
    p.index_output_bytes = *bytes;
    p.index_buffer = buffer_of(p.index_output, p.index_output_bytes);
    p.index_tensor = {DML_TENSOR_TYPE_BUFFER, &p.index_buffer};
    return {};
}

Result<DML_TENSOR_DATA_TYPE> index_output_type(const char* op, DML_TENSOR_DATA_TYPE requested) {
    if (requested == kAutoType) return DML_TENSOR_DATA_TYPE_INT64;
    if (!detail::is_index_type(requested))
        return make_error(ErrorCode::unsupported_type, op, ": output type ", to_string(requested), " (",
                          static_cast<int>(requested),
                          ") is not an index type: indices are INT32, INT64, UINT32 or UINT64");
    return requested;
}

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

}  // namespace builder

using detail::make_error;

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
const TensorDesc* Operation::index_output() const noexcept {
    return p_->has_index_output ? &p_->index_output : nullptr;
}
uint64_t Operation::index_output_bytes() const noexcept {
    return p_->index_output_bytes;
}

}  // namespace vkdml::ops
