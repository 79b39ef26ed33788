// vkdml/testing.hpp — test-only switches: make a device's Vulkan calls fail on purpose.
//
// Vulkan faults (out of device memory, a pipeline the driver cannot build, a lost device) are rare on
// real hardware and never happen on demand. These hooks let a test make the next matching Vulkan call
// of one vkdml::Device return an error instead of calling the driver, so every path that handles a
// failing VkResult can be exercised: the error code and message that reach the caller, the objects
// released on the way out, and (for VK_ERROR_DEVICE_LOST) the device refusing all later work.
// They cost one relaxed atomic load per guarded call when nothing is armed.
#pragma once

#include "vkdml/vkdml.hpp"

namespace vkdml::testing {

/// The Vulkan calls vkdml makes that a test may make fail.
enum class VulkanCall : int {
    create_buffer,             ///< vkCreateBuffer (host path buffers)
    allocate_memory,           ///< vkAllocateMemory (host path buffers)
    bind_buffer_memory,        ///< vkBindBufferMemory (host path buffers)
    map_memory,                ///< vkMapMemory (host path buffers)
    create_shader_module,      ///< vkCreateShaderModule (compile)
    create_compute_pipelines,  ///< vkCreateComputePipelines (compile)
    create_command_pool,       ///< vkCreateCommandPool (host path run)
    allocate_command_buffers,  ///< vkAllocateCommandBuffers (host path run)
    create_fence,              ///< vkCreateFence (host path run)
    begin_command_buffer,      ///< vkBeginCommandBuffer (host path run)
    end_command_buffer,        ///< vkEndCommandBuffer (host path run)
    queue_submit,              ///< vkQueueSubmit (host path run)
    wait_for_fences,           ///< vkWaitForFences (host path run)
};

/// Number of VulkanCall values.
inline constexpr int kVulkanCallCount = static_cast<int>(VulkanCall::wait_for_fences) + 1;

/// Makes one future call of `call` on `device` return `result` (not VK_SUCCESS) without reaching the
/// driver: the first `skip` calls go through, the one after fails, later ones go through again.
/// Arming a call again replaces the earlier arming. VK_ERROR_DEVICE_LOST marks the device lost, as a
/// real loss would. Thread-safe.
VKDML_API void fail_vulkan_call(const Device& device, VulkanCall call, VkResult result, uint32_t skip = 0);

/// Disarms every pending fault of `device`.
VKDML_API void clear_vulkan_faults(const Device& device);

}  // namespace vkdml::testing
