// What a kernel's pipeline asks of the device's subgroups: the kernels built on subgroup operations
// (found in their SPIR-V, not listed by hand) require full subgroups of the planned size where the device
// allows it. Pure (no Vulkan calls), so the unit tests check it without a device.
#pragma once

#include "core/kernel_registry.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::detail {

/// Whether a kernel uses subgroup operations: its SPIR-V declares the GroupNonUniform capability.
bool uses_subgroups(const KernelBinary& kernel);

/// The subgroup fields of a kernel's VkPipelineShaderStageCreateInfo: for a kernel that uses subgroup
/// operations on a device with DeviceInfo::full_subgroups,
/// VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT and a required subgroup size of
/// DeviceInfo::subgroup_size (the size its plan was made for); nothing otherwise.
struct SubgroupRequest {
    VkPipelineShaderStageCreateFlags flags = 0;
    uint32_t required_size = 0;  ///< 0: no VkPipelineShaderStageRequiredSubgroupSizeCreateInfo
};
SubgroupRequest subgroup_request(const KernelBinary& kernel, const DeviceInfo& info);

}  // namespace vkdml::detail
