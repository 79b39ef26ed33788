// What every builder of vkdml/ops.hpp shares (the family folders' *_builders.cpp use it): the parts an
// Operation's descriptor points at, the checked input, the output tensor and the output-type rules.
#pragma once

#include "core/errors.hpp"
#include "vkdml/ops.hpp"

#include <memory>

namespace vkdml::ops {

/// Everything an Operation's descriptor points at. Made once in a shared_ptr and never moved, so the
/// pointers set by link() stay valid for as long as any Operation holds it.
struct Operation::Parts {
    TensorDesc input, output;
    uint64_t input_bytes = 0, output_bytes = 0;
    std::vector<uint32_t> axes;
    DML_BUFFER_TENSOR_DESC input_buffer{}, output_buffer{};
    DML_TENSOR_DESC input_tensor{}, output_tensor{};
    /// The second output (the selections' indices), when has_index_output.
    bool has_index_output = false;
    TensorDesc index_output;
    uint64_t index_output_bytes = 0;
    DML_BUFFER_TENSOR_DESC index_buffer{};
    DML_TENSOR_DESC index_tensor{};
    std::shared_ptr<const void> typed;  ///< the DML_*_OPERATOR_DESC (a builder's set_typed)
    DML_OPERATOR_DESC desc{};

    Parts() = default;
    Parts(const Parts&) = delete;
    Parts& operator=(const Parts&) = delete;
};

namespace builder {

using Parts = Operation::Parts;

/// The input's TotalTensorSizeInBytes, or its error under the operation's name `op`. The rank (1 to 8) is
/// create_operator's to judge, with SPEC §2's other rules.
Result<uint64_t> check_input(const char* op, const TensorDesc& input);

/// The parts of an operation over `input` (checked, `input_bytes` long) whose output has `output_sizes`
/// and `output_type`, tensors linked; the caller sets the typed description (set_typed). Errors: an output
/// too large to size.
Result<std::shared_ptr<Parts>> make_parts(const char* op, const TensorDesc& input, uint64_t input_bytes,
                                          std::vector<uint32_t> output_sizes,
                                          DML_TENSOR_DATA_TYPE output_type, std::span<const uint32_t> axes);

/// Adds a packed second output of the input's sizes and `type` to the parts. Errors: an output too large
/// to size.
Status add_index_output(const char* op, Parts& p, DML_TENSOR_DATA_TYPE type);

/// Keeps `typed` in the parts and points the operator description of `type` at it.
template <class OpDesc>
void set_typed(Parts& p, DML_OPERATOR_TYPE type, const OpDesc& typed) {
    auto kept = std::make_shared<const OpDesc>(typed);
    p.desc = {type, kept.get()};
    p.typed = std::move(kept);
}

/// The output type of an arg function: INT64 for kAutoType, else one of the four index types.
Result<DML_TENSOR_DATA_TYPE> index_output_type(const char* op, DML_TENSOR_DATA_TYPE requested);

/// The output type of an operator that keeps its input's type: the input's for kAutoType or that type.
Result<DML_TENSOR_DATA_TYPE> kept_output_type(const char* op, const char* what, DML_TENSOR_DATA_TYPE input,
                                              DML_TENSOR_DATA_TYPE requested);

/// invalid_argument unless `direction` is INCREASING or DECREASING.
Status check_direction(const char* op, DML_AXIS_DIRECTION direction);

}  // namespace builder

}  // namespace vkdml::ops
