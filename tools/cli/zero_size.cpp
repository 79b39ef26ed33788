// tools/cli/zero_size.cpp — NumPy's answers for a zero-size input (zero_size.hpp).
#include "cli/zero_size.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "npy/npy.hpp"

namespace vkdml::cli {
namespace {

/// What a reduction of no elements gives: its value, or none (NumPy refuses it).
struct EmptyFold {
    std::optional<double> value;
    const char* name = "";   // the function (none has a value)
    const char* numpy = "";  // NumPy's message
};

EmptyFold empty_fold(const DML_OPERATOR_DESC& desc) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
    const EmptyFold argmax{std::nullopt, "argmax", "attempt to get argmax of an empty sequence"};
    const EmptyFold argmin{std::nullopt, "argmin", "attempt to get argmin of an empty sequence"};
    if (desc.Type == DML_OPERATOR_ARGMAX) return argmax;
    if (desc.Type == DML_OPERATOR_ARGMIN) return argmin;
    if (desc.Type != DML_OPERATOR_REDUCE) return {0.0};  // (a scan's output is as empty as its input)
    // (vkdml's functions extend the enumeration: compared, not switched on.)
    const DML_REDUCE_FUNCTION f = static_cast<const DML_REDUCE_OPERATOR_DESC*>(desc.Desc)->Function;
    if (f == DML_REDUCE_FUNCTION_ARGMAX) return argmax;
    if (f == DML_REDUCE_FUNCTION_ARGMIN) return argmin;
    if (f == DML_REDUCE_FUNCTION_MAX)
        return {std::nullopt, "max", "zero-size array to reduction operation maximum which has no identity"};
    if (f == DML_REDUCE_FUNCTION_MIN)
        return {std::nullopt, "min", "zero-size array to reduction operation minimum which has no identity"};
    if (f == DML_REDUCE_FUNCTION_MULTIPLY || f == VKDML_REDUCE_FUNCTION_ALL) return {1.0};
    if (f == DML_REDUCE_FUNCTION_AVERAGE || f == VKDML_REDUCE_FUNCTION_VARIANCE ||
        f == VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION)
        return {nan};
    if (f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_LOG_SUM_EXP) return {minus_infinity};
    return {0.0};  // sum, l1, l2, sum_square, any, count_nonzero
}

/// The axes a reduction or arg operator reduces (none for a scan).
std::span<const uint32_t> reduced_axes(const DML_OPERATOR_DESC& desc) {
    if (desc.Type == DML_OPERATOR_REDUCE) {
        const auto* reduce = static_cast<const DML_REDUCE_OPERATOR_DESC*>(desc.Desc);
        return {reduce->Axes, reduce->AxisCount};
    }
    if (desc.Type == DML_OPERATOR_ARGMAX) {
        const auto* arg = static_cast<const DML_ARGMAX_OPERATOR_DESC*>(desc.Desc);
        return {arg->Axes, arg->AxisCount};
    }
    if (desc.Type == DML_OPERATOR_ARGMIN) {
        const auto* arg = static_cast<const DML_ARGMIN_OPERATOR_DESC*>(desc.Desc);
        return {arg->Axes, arg->AxisCount};
    }
    return {};
}

/// `value` (0, 1, NaN or -inf; the last two for float types alone) as one element of `type`, little-endian.
std::vector<std::byte> element_of(DML_TENSOR_DATA_TYPE type, double value) {
    std::vector<std::byte> bytes(element_size(type));
    if (type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        const auto half = static_cast<uint16_t>(std::isnan(value)   ? 0x7E00
                                                : std::isinf(value) ? 0xFC00
                                                : value == 1        ? 0x3C00
                                                                    : 0);
        std::memcpy(bytes.data(), &half, sizeof half);
    } else if (type == DML_TENSOR_DATA_TYPE_FLOAT32) {
        const auto single = static_cast<float>(value);
        std::memcpy(bytes.data(), &single, sizeof single);
    } else if (type == DML_TENSOR_DATA_TYPE_FLOAT64) {
        std::memcpy(bytes.data(), &value, sizeof value);
    } else {
        const uint64_t integer = value == 1 ? 1 : 0;  // (every integer type's bytes, little-endian)
        for (size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<std::byte>((integer >> (8 * i)) & 0xff);
    }
    return bytes;
}

}  // namespace

void write_zero_size_result(const Device& device, const ops::Operation& op, const InputFile& input,
                            const OperatorOptions& options, const std::string& out_path,
                            std::span<const uint32_t> out_shape, bool bool_output,
                            const std::string& index_path) {
    take(device.create_operator(op.desc(), options));
    // NumPy refuses a maximum, minimum or arg over an axis of 0 even where the result has no element.
    const EmptyFold fold = empty_fold(op.desc());
    const std::span<const uint32_t> axes = reduced_axes(op.desc());
    const bool over_zero =
        std::any_of(axes.begin(), axes.end(), [&](uint32_t a) { return input.header.shape[a] == 0; });
    if (!fold.value && over_zero)
        fail(input.name() + ": the " + fold.name + " of no elements has no value (NumPy: \"" + fold.numpy +
             "\")");
    // (An output with elements reduces an axis of 0: the function's value for no elements.)
    const DML_TENSOR_DATA_TYPE type = op.output().data_type;
    check(
        npy::write_filled(out_path, type, out_shape, element_of(type, fold.value.value_or(0)), bool_output));
    if (const ops::TensorDesc* index = op.index_output(); index && !index_path.empty())
        check(npy::write(index_path, index->data_type, input.header.shape, {}, false));
}

}  // namespace vkdml::cli
