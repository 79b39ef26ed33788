// The state behind vkdml::Device: Vulkan handles, function table, capabilities, pipeline cache.
#pragma once

#include "vkdml/vkdml.hpp"

#include "core/device_caps.hpp"
#include "front/api_access.hpp"
#include "vulkan/faults.hpp"

#include "vulkan/volk_private.h"

#include <memory>
#include <mutex>

namespace vkdml::detail {

class PipelineCache;

}  // namespace vkdml::detail

namespace vkdml {

struct DeviceState {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    VkQueue queue = VK_NULL_HANDLE;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;  ///< the loader's, or the adopter's
    /// DeviceOptions::allocation_callbacks (or adopt's): given to every create and destroy call.
    const VkAllocationCallbacks* allocator = nullptr;
    bool owns_handles = false;  ///< created by vkdml (destroyed with it) rather than adopted
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    /// This instance's own destroy functions (volk's globals follow whichever instance loaded last).
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
    PFN_vkDestroyInstance destroy_instance = nullptr;
    ValidationCallback on_validation_message;

    VolkDeviceTable vk{};  ///< device-level functions of this device
    /// What validation and the planners know of this device: its DeviceInfo, enabled features and
    /// policy overrides.
    detail::DeviceCaps caps;
    VkPhysicalDeviceMemoryProperties memory_properties{};

    /// DeviceOptions::pipeline_cache_data where it is this device's (create_device checks its header);
    /// PipelineCache::create seeds the VkPipelineCache with it and releases it.
    std::vector<std::byte> initial_cache_data;
    bool cache_seeded = false;
    std::unique_ptr<detail::PipelineCache> pipelines;
    std::mutex queue_mutex;  ///< serialises vkQueueSubmit of the host path
    /// Set when a call returned VK_ERROR_DEVICE_LOST: every later entry point fails with device_lost.
    std::atomic<bool> lost{false};
    detail::FaultInjector faults;  ///< vkdml/testing.hpp

    DeviceState();
    ~DeviceState();
    DeviceState(const DeviceState&) = delete;
    DeviceState& operator=(const DeviceState&) = delete;
};

}  // namespace vkdml

namespace vkdml::detail {

/// device_lost naming the device once it has been lost, else success.
Status check_not_lost(const DeviceState& device);

/// vk_error for a call on `device`; VK_ERROR_DEVICE_LOST also marks the device lost.
Error device_vk_error(DeviceState& device, VkResult result, const char* call);

}  // namespace vkdml::detail

/// VKDML_VK_TRY for a guarded call on a DeviceState: the call may be failed on purpose
/// (vkdml/testing.hpp), and a lost device is remembered.
#define VKDML_VK_TRY_ON(state, fault, call)                                                     \
    do {                                                                                        \
        ::vkdml::DeviceState& vkdml_state_ = (state);                                           \
        VkResult vkdml_result_ = vkdml_state_.faults.take(::vkdml::testing::VulkanCall::fault); \
        if (vkdml_result_ == VK_SUCCESS) vkdml_result_ = (call);                                \
        if (vkdml_result_ != VK_SUCCESS)                                                        \
            return ::vkdml::detail::device_vk_error(vkdml_state_, vkdml_result_, #call);        \
    } while (0)
