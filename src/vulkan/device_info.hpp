// Reading what a physical device is and can do (names, limits, subgroup and feature support).
#pragma once

#include "vulkan/device_state.hpp"

namespace vkdml::detail {

/// Makes sure the Vulkan loader is loaded (volkInitialize, once per process) and volk's global functions
/// come from it (not from an adopter's vkGetInstanceProcAddr). Call with instance_functions_mutex held.
Status load_vulkan_loader();
/// vkCreateInstance. VK_ERROR_INCOMPATIBLE_DRIVER, the loader's answer when it finds no driver at all, is
/// no_device with what to install; other failures are vulkan_error.
Status create_instance(const VkInstanceCreateInfo& info, VkInstance& instance,
                       const VkAllocationCallbacks* allocator = nullptr);

/// Whether the physical device offers a device extension.
bool has_device_extension(VkPhysicalDevice physical_device, const char* name);

PhysicalDeviceInfo describe(VkPhysicalDevice physical_device, uint32_t index);

/// Fills limits, subgroup properties and the *available* features of a physical device.
DeviceInfo query_device_info(VkPhysicalDevice physical_device, uint32_t index);

/// Rank used to choose the best device: discrete, integrated, virtual, CPU, other.
int device_type_rank(VkPhysicalDeviceType type);

}  // namespace vkdml::detail
