// DenormPreserve added to a kernel's SPIR-V (see float_controls.hpp). The module's logical layout puts
// capabilities first, then extensions, imports, the memory model, entry points and execution modes: the
// capability and the extension go at the end of the capabilities, the modes after the last entry point.
#include "core/float_controls.hpp"

#include <cstring>

namespace vkdml::detail {

namespace {
constexpr uint32_t kMagic = 0x07230203u;
constexpr size_t kHeaderWords = 5;
constexpr uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17,
                   kOpTypeFloat = 22;
constexpr uint32_t kCapabilityDenormPreserve = 4464, kExecutionModeDenormPreserve = 4459;
constexpr uint32_t kVersion1_4 = 0x00010400u;
constexpr char kExtension[] = "SPV_KHR_float_controls";

uint32_t instruction(uint32_t opcode, size_t words) {
    return static_cast<uint32_t>(words << 16) | opcode;
}

/// The extension's name as SPIR-V's literal string: UTF-8, NUL-terminated, padded to whole words.
std::vector<uint32_t> literal_string(const char* text) {
    const size_t bytes = std::strlen(text) + 1;
    std::vector<uint32_t> words((bytes + 3) / 4, 0);
    std::memcpy(words.data(), text, bytes);
    return words;
}
}  // namespace

FloatWidths denorm_preserve_widths(const VkPhysicalDeviceFloatControlsProperties& p) {
    const bool f16 = p.shaderDenormPreserveFloat16 == VK_TRUE, f32 = p.shaderDenormPreserveFloat32 == VK_TRUE,
               f64 = p.shaderDenormPreserveFloat64 == VK_TRUE;
    switch (p.denormBehaviorIndependence) {
    case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL: return {f16, f32, f64};
    case VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY: return {f16 && f64, f32, f16 && f64};
    default: return {f16 && f32 && f64, f16 && f32 && f64, f16 && f32 && f64};
    }
}

FloatWidths denorm_preserve_widths(const DeviceInfo& info) {
    return {info.denorm_preserve_float16, info.denorm_preserve_float32, info.denorm_preserve_float64};
}

std::vector<uint32_t> with_denorm_preserve(std::span<const uint32_t> spirv, FloatWidths widths) {
    if (spirv.size() < kHeaderWords || spirv[0] != kMagic) return {};
    // One walk: where the capabilities end, where the last entry point ends, the entry points' ids, and what
    // is there already.
    size_t capabilities_end = kHeaderWords, entry_points_end = 0;
    std::vector<uint32_t> entry_points;
    bool has_capability = false, has_extension = false, has_float = false;
    FloatWidths present;
    const std::vector<uint32_t> extension = literal_string(kExtension);
    for (size_t i = kHeaderWords; i < spirv.size();) {
        const uint32_t opcode = spirv[i] & 0xFFFFu, count = spirv[i] >> 16;
        if (count == 0 || count > spirv.size() - i) return {};
        if (opcode == kOpCapability && count == 2) {
            if (capabilities_end == i) capabilities_end = i + count;
            has_capability |= spirv[i + 1] == kCapabilityDenormPreserve;
        } else if (opcode == kOpExtension && count == 1 + extension.size()) {
            has_extension |= std::memcmp(&spirv[i + 1], extension.data(), extension.size() * 4) == 0;
        } else if (opcode == kOpEntryPoint && count >= 3) {
            entry_points.push_back(spirv[i + 2]);
            entry_points_end = i + count;
        } else if (opcode == kOpExecutionMode && count == 4 && spirv[i + 2] == kExecutionModeDenormPreserve) {
            present.f16 |= spirv[i + 3] == 16;
            present.f32 |= spirv[i + 3] == 32;
            present.f64 |= spirv[i + 3] == 64;
        } else if (opcode == kOpTypeFloat && count >= 3) {
            has_float = true;
        }
        i += count;
    }
    const FloatWidths add{widths.f16 && !present.f16, widths.f32 && !present.f32, widths.f64 && !present.f64};
    if (!has_float || !add.any() || entry_points.empty()) return {spirv.begin(), spirv.end()};

    std::vector<uint32_t> out;
    out.reserve(spirv.size() + 4 + extension.size() + 4 * 3 * entry_points.size());
    out.insert(out.end(), spirv.begin(), spirv.begin() + static_cast<std::ptrdiff_t>(capabilities_end));
    if (!has_capability) out.insert(out.end(), {instruction(kOpCapability, 2), kCapabilityDenormPreserve});
    if (!has_extension && spirv[1] < kVersion1_4) {
        out.push_back(instruction(kOpExtension, 1 + extension.size()));
        out.insert(out.end(), extension.begin(), extension.end());
    }
    out.insert(out.end(), spirv.begin() + static_cast<std::ptrdiff_t>(capabilities_end),
               spirv.begin() + static_cast<std::ptrdiff_t>(entry_points_end));
    for (uint32_t entry : entry_points)
        for (uint32_t width : {16u, 32u, 64u})
            if ((width == 16 && add.f16) || (width == 32 && add.f32) || (width == 64 && add.f64))
                out.insert(out.end(),
                           {instruction(kOpExecutionMode, 4), entry, kExecutionModeDenormPreserve, width});
    out.insert(out.end(), spirv.begin() + static_cast<std::ptrdiff_t>(entry_points_end), spirv.end());
    return out;
}

}  // namespace vkdml::detail
