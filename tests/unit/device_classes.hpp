// DeviceInfo values for planning without a device: a CPU device like lavapipe and a GPU like the
// NVIDIA H100, at any subgroup size.
#pragma once

#include "vkdml/vkdml.hpp"

namespace vkdml_unit {

inline vkdml::DeviceInfo device_info(VkPhysicalDeviceType type, uint32_t subgroup_size) {
    vkdml::DeviceInfo info;
    info.physical.type = type;
    info.subgroup_size = info.min_subgroup_size = info.max_subgroup_size = subgroup_size;
    info.full_subgroups = true;
    info.subgroup_arithmetic = info.subgroup_shuffle = true;
    info.max_storage_buffer_range = type == VK_PHYSICAL_DEVICE_TYPE_CPU ? (1u << 27) : 0xFFFFFFFFu;
    info.max_workgroup_count[0] = info.max_workgroup_count[1] = info.max_workgroup_count[2] = 65535;
    info.max_workgroup_invocations = 1024;
    info.max_shared_memory_bytes = 32768;
    info.max_push_constants_bytes = 256;
    info.min_storage_buffer_offset_alignment = type == VK_PHYSICAL_DEVICE_TYPE_CPU ? 16 : 64;
    return info;
}

inline vkdml::DeviceInfo cpu_info(uint32_t subgroup_size = 8) {
    return device_info(VK_PHYSICAL_DEVICE_TYPE_CPU, subgroup_size);
}

inline vkdml::DeviceInfo gpu_info(uint32_t subgroup_size = 32) {
    return device_info(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, subgroup_size);
}

}  // namespace vkdml_unit
