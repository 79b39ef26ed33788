// Subnormal floats kept by every kernel: SPIR-V's DenormPreserve execution mode (SPV_KHR_float_controls,
// core since SPIR-V 1.4) added to a compiled kernel for the float widths a device can keep. Without it a
// driver may flush subnormals to zero (NVIDIA does for float32), so float results that pass through them
// would differ between devices. Pure (no Vulkan calls), so the unit tests check it without a device.
#pragma once

#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace vkdml::detail {

/// A set of float widths (16, 32 and 64 bits).
struct FloatWidths {
    bool f16 = false, f32 = false, f64 = false;
    bool any() const { return f16 || f32 || f64; }
    bool operator==(const FloatWidths&) const = default;
};

/// The widths every kernel may ask to keep subnormals of: those the device can keep
/// (shaderDenormPreserveFloat16/32/64), within denormBehaviorIndependence, which can tie the widths'
/// modes together (32-bit only: 16 and 64 bits both kept or neither; none: all three or none).
FloatWidths denorm_preserve_widths(const VkPhysicalDeviceFloatControlsProperties& properties);

/// The widths of DeviceInfo's denorm_preserve fields.
FloatWidths denorm_preserve_widths(const DeviceInfo& info);

/// A kernel's SPIR-V with the DenormPreserve capability and one DenormPreserve execution mode per width
/// for each entry point (and the SPV_KHR_float_controls extension before SPIR-V 1.4). The words come back
/// unchanged where `widths` is empty, the module declares no float type, or it has every mode already.
/// Empty where the words are not a well-formed SPIR-V module (no magic number, an instruction of zero
/// words or one that runs past the end).
std::vector<uint32_t> with_denorm_preserve(std::span<const uint32_t> spirv, FloatWidths widths);

}  // namespace vkdml::detail
