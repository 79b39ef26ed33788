// SPEC §2 tensor and operator rules (see validation.hpp).
#include "front/validation.hpp"

#include "core/errors.hpp"
#include "vkdml/checked_math.hpp"

#include <algorithm>
#include <numeric>

namespace vkdml::detail {

namespace {

constexpr uint64_t kMaxElements = 0xFFFFFFFFull;
constexpr uint64_t kMaxOffset = uint64_t(1) << 62;  // bytes: beyond any buffer, and signed 64-bit safe
constexpr uint64_t kExactOverlapCheckLimit = uint64_t(1) << 22;

enum class Injective { yes, no, unproven };

/// Whether no two elements of the layout share an address (rule 3 for outputs). Layouts whose strides
/// do not nest are checked exactly up to kExactOverlapCheckLimit elements, beyond that unproven.
Injective layout_is_injective(std::span<const uint32_t> sizes, std::span<const uint32_t> strides,
                              uint64_t count) {
    std::vector<std::pair<uint64_t, uint64_t>> dims;  // (stride, size) of dimensions that vary
    for (size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] > 1) {
            if (strides[i] == 0) return Injective::no;
            dims.emplace_back(strides[i], sizes[i]);
        }
    std::sort(dims.begin(), dims.end());
    bool nested = true;  // each stride clears the whole extent of the smaller ones
    uint64_t extent = 1;
    for (auto [stride, size] : dims) {
        if (stride < extent) nested = false;
        extent = std::max(extent, stride * size);
    }
    if (nested) return Injective::yes;
    if (count > kExactOverlapCheckLimit) return Injective::unproven;
    std::vector<uint64_t> offsets(count);
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t rest = e, off = 0;
        for (size_t i = sizes.size(); i-- > 0;) {
            off += (rest % sizes[i]) * strides[i];
            rest /= sizes[i];
        }
        offsets[e] = off;
    }
    std::sort(offsets.begin(), offsets.end());
    return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end() ? Injective::yes
                                                                               : Injective::no;
}

}  // namespace

std::string list(const uint32_t* values, uint32_t count) {
    std::string s = "{";
    for (uint32_t i = 0; i < count; ++i) s += cat(i ? "," : "", values[i]);
    return s + "}";
}

std::vector<uint32_t> packed_strides(std::span<const uint32_t> sizes) {
    std::vector<uint32_t> strides(sizes.size());
    uint64_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = static_cast<uint32_t>(s);
        s *= sizes[i];
    }
    return strides;
}

Status validate_tensor(const char* op, const char* field, const DML_TENSOR_DESC* tensor, bool output) {
    auto fail = [&](const auto&... parts) {
        return make_error(ErrorCode::invalid_descriptor, op, ": ", field, parts...);
    };
    if (!tensor) return fail(" is null (rule 1: every tensor of the operator must be given)");
    if (tensor->Type != DML_TENSOR_TYPE_BUFFER)
        return fail(".Type is ", static_cast<int>(tensor->Type),
                    " (rule 1: only DML_TENSOR_TYPE_BUFFER (1) is supported)");
    if (!tensor->Desc) return fail(".Desc is null (rule 1: a buffer tensor needs a DML_BUFFER_TENSOR_DESC)");
    const auto& b = *static_cast<const DML_BUFFER_TENSOR_DESC*>(tensor->Desc);
    if (element_size(b.DataType) == 0)
        return make_error(
            ErrorCode::unsupported_type, op, ": ", field, ".DataType is ", static_cast<int>(b.DataType),
            " (rule 1: must be one of the 11 numeric DML_TENSOR_DATA_TYPE values, not UNKNOWN)");
    if (b.DimensionCount < 1 || b.DimensionCount > 8)
        return fail(".DimensionCount is ", b.DimensionCount, " (rule 2: must be 1 to 8)");
    if (!b.Sizes) return fail(".Sizes is null (rule 2: sizes are required)");
    uint64_t count = 1;
    for (uint32_t i = 0; i < b.DimensionCount; ++i) {
        if (b.Sizes[i] == 0)
            return fail(".Sizes[", i, "] is 0 in ", list(b.Sizes, b.DimensionCount),
                        " (rule 2: every size must be >= 1)");
        count *= b.Sizes[i];
        if (count > kMaxElements)
            return fail(".Sizes ", list(b.Sizes, b.DimensionCount),
                        " has more than 4294967295 elements (rule 2: element count <= 2^32-1)");
    }
    if (b.Flags & DML_TENSOR_FLAG_OWNED_BY_DML)
        return fail(
            ".Flags has DML_TENSOR_FLAG_OWNED_BY_DML (rule 6: these operators have no constant inputs, so "
            "no tensor may be owned by DML)");
    if (b.Flags != DML_TENSOR_FLAG_NONE)
        return fail(".Flags is ", static_cast<uint32_t>(b.Flags),
                    " (rule 6: only DML_TENSOR_FLAG_NONE is allowed)");
    uint32_t esize = element_size(b.DataType);
    if (b.GuaranteedBaseOffsetAlignment != 0 &&
        ((b.GuaranteedBaseOffsetAlignment & (b.GuaranteedBaseOffsetAlignment - 1)) != 0 ||
         b.GuaranteedBaseOffsetAlignment < esize))
        return fail(".GuaranteedBaseOffsetAlignment is ", b.GuaranteedBaseOffsetAlignment,
                    " (rule 5: must be 0 or a power of two >= the element size ", esize, ")");
    std::span<const uint32_t> sizes(b.Sizes, b.DimensionCount);
    std::vector<uint32_t> strides =
        b.Strides ? std::vector<uint32_t>(b.Strides, b.Strides + b.DimensionCount) : packed_strides(sizes);
    if (output) {
        Injective inj = layout_is_injective(sizes, strides, count);
        if (inj == Injective::no)
            return fail(
                ".Strides ", list(strides.data(), b.DimensionCount), " with Sizes ",
                list(b.Sizes, b.DimensionCount),
                " map two elements to one address (rule 3: an output may not broadcast or overlap itself)");
        if (inj == Injective::unproven)
            return fail(
                ".Strides ", list(strides.data(), b.DimensionCount), " with Sizes ",
                list(b.Sizes, b.DimensionCount), " interleave, and with ", count,
                " elements vkdml cannot prove that no two elements share an address (rule 3: outputs must "
                "not overlap; use strides where each dimension's stride clears the smaller ones' extent)");
    }
    // The last element's offset in 64-bit arithmetic that cannot wrap (DMLCalcBufferTensorSize would).
    uint64_t last = 0;
    for (uint32_t i = 0; i < b.DimensionCount; ++i) {
        uint64_t term = 0;
        if (mul_overflows(uint64_t(b.Sizes[i] - 1), uint64_t(strides[i]), &term) ||
            add_overflows(last, term, &last) || last >= kMaxOffset / esize)
            return fail(".Strides ", list(strides.data(), b.DimensionCount), " with Sizes ",
                        list(b.Sizes, b.DimensionCount),
                        " put the last element beyond byte 2^62 (rule 4: ", "no buffer can hold the tensor)");
    }
    uint64_t needed = DMLCalcBufferTensorSize(b.DataType, b.DimensionCount, b.Sizes, b.Strides);
    if (b.TotalTensorSizeInBytes < needed)
        return fail(".TotalTensorSizeInBytes is ", b.TotalTensorSizeInBytes,
                    " but the sizes and strides need ", needed,
                    " bytes (rule 4: must be >= DMLCalcBufferTensorSize)");
    return {};
}

bool is_index_type(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo* info = type_info(type);
    return info && info->index_output;
}

Status validate_type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, const char* field,
                             DML_TENSOR_DATA_TYPE type) {
    if (const char* missing = missing_feature(caps.features, type))
        return make_error(ErrorCode::unsupported_device, to_string(op), ": ", field, ".DataType ",
                          to_string(type), " needs the Vulkan feature ", missing, ", which device \"",
                          caps.info.physical.name, "\" does not have enabled");
    return {};
}

}  // namespace vkdml::detail
