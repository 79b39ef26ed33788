// The state behind vkdml::Device: Vulkan handles, function table, capabilities, pipeline cache.
#pragma once

#include "vkdml/vkdml.hpp"

#include <volk.h>

#include <memory>
#include <mutex>

namespace vkdml::detail {

class PipelineCache;

/// The Vulkan features vkdml may use, as enabled on the device.
struct EnabledFeatures {
    bool shader_int64 = false;
    bool shader_float64 = false;
    bool storage_buffer_8bit = false;
    bool storage_buffer_16bit = false;
    bool subgroup_extended_types = false;
};

/// Returns the name of the first Vulkan feature a data type needs and the device lacks, or nullptr.
const char* missing_feature(const EnabledFeatures& features, DML_TENSOR_DATA_TYPE type);

}  // namespace vkdml::detail

namespace vkdml {

struct DeviceState {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    bool owns_handles = false;  ///< created by vkdml (destroyed with it) rather than adopted
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    /// This instance's own destroy functions (volk's globals follow whichever instance loaded last).
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
    PFN_vkDestroyInstance destroy_instance = nullptr;
    ValidationCallback on_validation_message;

    VolkDeviceTable vk{};  ///< device-level functions of this device
    DeviceInfo info;
    detail::EnabledFeatures features;

    std::unique_ptr<detail::PipelineCache> pipelines;
    std::mutex queue_mutex;  ///< serialises vkQueueSubmit of the host path

    DeviceState();
    ~DeviceState();
    DeviceState(const DeviceState&) = delete;
    DeviceState& operator=(const DeviceState&) = delete;
};

}  // namespace vkdml
