// The deep copy of an operator's tensors (see operator_state.hpp).
#include "front/operator_state.hpp"

#include "front/validation.hpp"

namespace vkdml::detail {

namespace {

std::unique_ptr<TensorCopy> copy_tensor(const DML_TENSOR_DESC& t) {
    const auto& b = *static_cast<const DML_BUFFER_TENSOR_DESC*>(t.Desc);
    auto c = std::make_unique<TensorCopy>();
    c->sizes.assign(b.Sizes, b.Sizes + b.DimensionCount);
    c->explicit_strides = b.Strides != nullptr;
    c->strides =
        b.Strides ? std::vector<uint32_t>(b.Strides, b.Strides + b.DimensionCount) : packed_strides(c->sizes);
    c->buffer = b;
    c->buffer.Sizes = c->sizes.data();
    c->buffer.Strides = c->explicit_strides ? c->strides.data() : nullptr;
    c->tensor = {DML_TENSOR_TYPE_BUFFER, &c->buffer};
    return c;
}

}  // namespace

void keep_tensors(OperatorState& s, const DML_TENSOR_DESC& input, const DML_TENSOR_DESC& output) {
    s.inputs.push_back(copy_tensor(input));
    s.outputs.push_back(copy_tensor(output));
    s.normalized.input = &s.inputs[0]->tensor;
    s.normalized.output = &s.outputs[0]->tensor;
}

void keep_index_output(OperatorState& s, const DML_TENSOR_DESC& index) {
    s.outputs.push_back(copy_tensor(index));
    s.normalized.output_index = &s.outputs[1]->tensor;
}

}  // namespace vkdml::detail
