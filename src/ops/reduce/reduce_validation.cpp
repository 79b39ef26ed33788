// SPEC §2 rules 7–8 and the §4 function/type table for REDUCE, ARGMIN and ARGMAX (see reduce_op.hpp);
// rules 1–6 per tensor in front/validation.cpp.
#include "core/errors.hpp"
#include "core/kernel_abi.hpp"
#include "front/validation.hpp"
#include "ops/reduce/reduce_op.hpp"

namespace vkdml::detail {

namespace {

bool float_only(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_AVERAGE || f == DML_REDUCE_FUNCTION_L2 ||
           f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_LOG_SUM_EXP ||
           is_variance_function(static_cast<uint32_t>(f));
}

}  // namespace

Status validate_reduction(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const ReductionDesc& d) {
    const char* name = to_string(op);
    auto fail = [&](const auto&... parts) {
        return make_error(ErrorCode::invalid_descriptor, name, ": ", parts...);
    };
    auto fail_type = [&](const auto&... parts) {
        return make_error(ErrorCode::unsupported_type, name, ": ", parts...);
    };
    if (!d.standalone && !is_reduce_function(static_cast<uint32_t>(d.Function)))
        return fail("Function is ", static_cast<int>(d.Function),
                    " (must be a DML_REDUCE_FUNCTION, ARGMAX (0) to SUM_SQUARE (11), or vkdml's VARIANCE "
                    "(1000) to COUNT_NONZERO (1004))");
    if (auto st = validate_tensor(name, "InputTensor", d.InputTensor, false); !st) return st;
    if (auto st = validate_tensor(name, "OutputTensor", d.OutputTensor, true); !st) return st;
    const auto& in = *static_cast<const DML_BUFFER_TENSOR_DESC*>(d.InputTensor->Desc);
    const auto& out = *static_cast<const DML_BUFFER_TENSOR_DESC*>(d.OutputTensor->Desc);
    const uint32_t rank = in.DimensionCount;
    if (out.DimensionCount != rank)
        return fail("OutputTensor.DimensionCount is ", out.DimensionCount,
                    " but InputTensor.DimensionCount is ", rank,
                    " (rule 7: they must be equal; reduced axes keep size 1)");
    if (d.AxisCount > rank)
        return fail("AxisCount is ", d.AxisCount, " but the tensors have ", rank,
                    " dimensions (rule 8: each axis at most once, so AxisCount <= DimensionCount)");
    if (d.AxisCount > 0 && !d.Axes)
        return fail("Axes is null with AxisCount ", d.AxisCount,
                    " (rule 8: Axes may be null only when AxisCount is 0)");
    bool reduced[8] = {};
    for (uint32_t i = 0; i < d.AxisCount; ++i) {
        uint32_t a = d.Axes[i];
        if (a >= rank)
            return fail("Axes ", list(d.Axes, d.AxisCount), " has ", a, " at position ", i,
                        " but the tensors have ", rank, " dimensions (rule 8: every axis < DimensionCount)");
        if (reduced[a])
            return fail("Axes ", list(d.Axes, d.AxisCount), " names axis ", a,
                        " twice (rule 8: duplicate axes are an error)");
        reduced[a] = true;
    }
    for (uint32_t i = 0; i < rank; ++i) {
        uint32_t want = reduced[i] ? 1 : in.Sizes[i];
        if (out.Sizes[i] != want)
            return fail("OutputTensor.Sizes ", list(out.Sizes, rank), " for InputTensor.Sizes ",
                        list(in.Sizes, rank), " and Axes ", list(d.Axes, d.AxisCount), ": dimension ", i,
                        " is ", out.Sizes[i], ", must be ", want,
                        " (rule 7: 1 on reduced axes, the input size elsewhere)");
    }
    if (d.standalone && d.AxisDirection != DML_AXIS_DIRECTION_INCREASING &&
        d.AxisDirection != DML_AXIS_DIRECTION_DECREASING)
        return fail("AxisDirection is ", static_cast<int>(d.AxisDirection),
                    " (must be DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1))");
    const char* function = to_string(d.Function);
    if (float_only(d.Function) && !is_float_type(in.DataType))
        return fail_type("InputTensor.DataType is ", to_string(in.DataType), " but ", function,
                         " takes FLOAT16, FLOAT32 or FLOAT64 only (SPEC §4)");
    bool arg = is_arg_function(d.Function);
    if (arg && !is_index_type(out.DataType))
        return fail_type("OutputTensor.DataType is ", to_string(out.DataType), " but ",
                         d.standalone ? name : function,
                         " writes indices: INT32, INT64, UINT32 or UINT64 (SPEC §4)");
    uint64_t n = 1;
    for (uint32_t i = 0; i < d.AxisCount; ++i) n *= in.Sizes[d.Axes[i]];
    if (arg && out.DataType == DML_TENSOR_DATA_TYPE_INT32 && n > 0x80000000ull)
        return fail_type("OutputTensor.DataType is INT32 but the ", n,
                         " reduced elements have indices up to ", n - 1,
                         ", past INT32's 2147483647 (use INT64, UINT32 or UINT64)");
    const auto f = static_cast<uint32_t>(d.Function);
    if (f == REDUCE_F_COUNT_NONZERO) {
        if (!is_index_type(out.DataType))
            return fail_type("OutputTensor.DataType is ", to_string(out.DataType), " but ", function,
                             " writes counts: INT32, INT64, UINT32 or UINT64 (SPEC §4)");
        if (out.DataType == DML_TENSOR_DATA_TYPE_INT32 && n > 0x7FFFFFFFull)
            return fail_type("OutputTensor.DataType is INT32 but the ", n,
                             " reduced elements may count up to ", n,
                             ", past INT32's 2147483647 (use INT64, UINT32 or UINT64)");
    } else if (is_logical_function(f)) {
        if (out.DataType != DML_TENSOR_DATA_TYPE_UINT8)
            return fail_type("OutputTensor.DataType is ", to_string(out.DataType), " but ", function,
                             " writes UINT8 flags, 0 or 1 (SPEC §4)");
    } else if (!arg && out.DataType != in.DataType)
        return fail_type("OutputTensor.DataType is ", to_string(out.DataType),
                         " but InputTensor.DataType is ", to_string(in.DataType), " (SPEC §4: ", function,
                         " keeps the data type)");
    return validate_type_support(caps, op, "InputTensor", in.DataType);
}

}  // namespace vkdml::detail
