// SPEC §2 rules 7–8 for the cumulative operators (see scan_op.hpp); rules 1–6 per tensor in
// front/validation.cpp.
#include "core/errors.hpp"
#include "front/validation.hpp"
#include "ops/op_table.hpp"
#include "ops/scan/scan_op.hpp"

namespace vkdml::detail {

namespace {

/// The cumulative maximum's and minimum's OutputIndexTensor: an index type, the input's shape, room for
/// every position along the axis (the 32-bit types hold 2^31 - 1, the last position of 2^31: -1 is "none").
Status validate_index_output(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const DML_BUFFER_TENSOR_DESC& in,
                             uint32_t axis, const DML_TENSOR_DESC* index) {
    const char* name = to_string(op);
    if (auto st = validate_tensor(name, "OutputIndexTensor", index, true); !st) return st;
    const auto& idx = *static_cast<const DML_BUFFER_TENSOR_DESC*>(index->Desc);
    if (!is_index_type(idx.DataType))
        return make_error(ErrorCode::unsupported_type, name, ": OutputIndexTensor.DataType is ",
                          to_string(idx.DataType), " but ", name,
                          " writes indices: INT32, INT64, UINT32 or UINT64 (SPEC §4)");
    if (idx.DimensionCount != in.DimensionCount)
        return make_error(ErrorCode::invalid_descriptor, name, ": OutputIndexTensor.DimensionCount is ",
                          idx.DimensionCount, " but InputTensor.DimensionCount is ", in.DimensionCount,
                          " (rule 7: they must be equal)");
    for (uint32_t i = 0; i < in.DimensionCount; ++i)
        if (in.Sizes[i] != idx.Sizes[i])
            return make_error(ErrorCode::invalid_descriptor, name, ": OutputIndexTensor.Sizes ",
                              list(idx.Sizes, idx.DimensionCount), " differ from InputTensor.Sizes ",
                              list(in.Sizes, in.DimensionCount), " at dimension ", i,
                              " (rule 7: sizes must be equal)");
    const uint32_t bytes = element_size(idx.DataType);
    if (bytes == 4 && in.Sizes[axis] > 0x80000000u)
        return make_error(
            ErrorCode::unsupported_type, name, ": OutputIndexTensor.DataType is ", to_string(idx.DataType),
            " but the axis has ", in.Sizes[axis],
            " elements: 32-bit indices reach 2147483647, the last of 2^31 (use INT64 or UINT64)");
    return validate_type_support(caps, op, "OutputIndexTensor", idx.DataType);
}

}  // namespace

Status validate_cumulative(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const CumulativeDesc& d) {
    const char* name = to_string(op);
    auto fail = [&](const auto&... parts) {
        return make_error(ErrorCode::invalid_descriptor, name, ": ", parts...);
    };
    if (auto st = validate_tensor(name, "InputTensor", d.InputTensor, false); !st) return st;
    if (auto st = validate_tensor(name, "OutputTensor", d.OutputTensor, true); !st) return st;
    const auto& in = *static_cast<const DML_BUFFER_TENSOR_DESC*>(d.InputTensor->Desc);
    const auto& out = *static_cast<const DML_BUFFER_TENSOR_DESC*>(d.OutputTensor->Desc);
    if (in.DimensionCount != out.DimensionCount)
        return fail("OutputTensor.DimensionCount is ", out.DimensionCount,
                    " but InputTensor.DimensionCount is ", in.DimensionCount,
                    " (rule 7: they must be equal)");
    if (in.DataType != out.DataType)
        return fail("OutputTensor.DataType is ", to_string(out.DataType), " but InputTensor.DataType is ",
                    to_string(in.DataType), " (rule 7: cumulative operators keep the data type)");
    for (uint32_t i = 0; i < in.DimensionCount; ++i)
        if (in.Sizes[i] != out.Sizes[i])
            return fail("OutputTensor.Sizes ", list(out.Sizes, out.DimensionCount),
                        " differ from InputTensor.Sizes ", list(in.Sizes, in.DimensionCount),
                        " at dimension ", i, " (rule 7: sizes must be equal)");
    if (d.Axis >= in.DimensionCount)
        return fail("Axis is ", d.Axis, " but the tensors have ", in.DimensionCount,
                    " dimensions (rule 8: Axis < DimensionCount)");
    if (d.AxisDirection != DML_AXIS_DIRECTION_INCREASING && d.AxisDirection != DML_AXIS_DIRECTION_DECREASING)
        return fail("AxisDirection is ", static_cast<int>(d.AxisDirection),
                    " (must be DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1))");
    const OpInfo* row = find_op(op);
    if (row && row->types == kFloatTypeMask && !is_float_type(in.DataType))
        return make_error(ErrorCode::unsupported_type, name, ": InputTensor.DataType is ",
                          to_string(in.DataType), " but ", name,
                          " takes FLOAT16, FLOAT32 or FLOAT64 only (SPEC §4)");
    if (auto st = validate_type_support(caps, op, "InputTensor", in.DataType); !st) return st;
    if (!d.OutputIndexTensor) return {};
    return validate_index_output(caps, op, in, d.Axis, d.OutputIndexTensor);
}

}  // namespace vkdml::detail
