// SPEC §2 rules: each check returns an Error whose message names the operator, the tensor, the
// field, the rule and the offending values.
#pragma once

#include "core/device_caps.hpp"
#include "front/operator_state.hpp"

namespace vkdml::detail {

/// Rules 1–6 for one tensor. `field` is the descriptor field name ("InputTensor"), `output` selects
/// the output-only rule 3 (no two elements at one address).
Status validate_tensor(const char* op, const char* field, const DML_TENSOR_DESC* tensor, bool output);

/// Whether `type` holds indices and counts: INT32, INT64, UINT32 or UINT64 (TypeInfo::index_output).
bool is_index_type(DML_TENSOR_DATA_TYPE type);

/// Rule 1's "allowed for the op" part and SPEC §4's device part: the data type must be usable.
Status validate_type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const char* field,
                             DML_TENSOR_DATA_TYPE type);

/// "{2,3,4}": an array for error messages.
std::string list(const uint32_t* values, uint32_t count);

/// Packed row-major strides of a shape.
std::vector<uint32_t> packed_strides(std::span<const uint32_t> sizes);

}  // namespace vkdml::detail
