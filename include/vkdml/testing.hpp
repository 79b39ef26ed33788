// vkdml/testing.hpp — test-only switches: make a device's Vulkan calls fail on purpose.
//
// Vulkan faults (out of device memory, a pipeline the driver cannot build, a lost device) are rare on
// real hardware and never happen on demand. These hooks let a test make the next matching Vulkan call
// of one vkdml::Device return an error, so every path that handles a failing VkResult can be
// exercised: the error code and message that reach the caller, the objects released on the way out,
// and (for VK_ERROR_DEVICE_LOST) the device refusing all later work. The failing call does not reach
// the driver, except vkWaitForFences, which really waits first (so no work is left in flight) and then
// reports the armed result. The ErrorCode the caller sees follows from the VkResult: out_of_memory for
// VK_ERROR_OUT_OF_HOST_MEMORY and VK_ERROR_OUT_OF_DEVICE_MEMORY, device_lost for VK_ERROR_DEVICE_LOST,
// vulkan_error otherwise.
//
// Until the first arming on a device, a guarded call costs one relaxed atomic load; after it, until
// clear_vulkan_faults, a mutex-guarded lookup. The hooks are part of every build of the library.
#pragma once

#include "vkdml/vkdml.hpp"

namespace vkdml::testing {

/// The Vulkan calls vkdml makes that a test may make fail, with the vkdml functions that make them.
/// Shader modules and pipelines are created only on a pipeline-cache miss, so a compile that reuses
/// cached pipelines makes no guarded call.
enum class VulkanCall : int {
    create_buffer,             ///< vkCreateBuffer (HostExecution::create, execute: each buffer)
    allocate_memory,           ///< vkAllocateMemory (HostExecution::create, execute: each buffer)
    bind_buffer_memory,        ///< vkBindBufferMemory (HostExecution::create, execute: each buffer)
    map_memory,                ///< vkMapMemory (HostExecution::create, execute: each buffer)
    create_shader_module,      ///< vkCreateShaderModule (compile_operator, once per kernel and type)
    create_compute_pipelines,  ///< vkCreateComputePipelines (compile_operator, once per new pipeline; record,
                               ///< its in-place pipelines once)
    create_command_pool,       ///< vkCreateCommandPool (HostExecution::create, execute)
    allocate_command_buffers,  ///< vkAllocateCommandBuffers (HostExecution::create, execute)
    create_fence,              ///< vkCreateFence (HostExecution::create, execute)
    begin_command_buffer,      ///< vkBeginCommandBuffer (HostExecution::create, execute)
    end_command_buffer,        ///< vkEndCommandBuffer (HostExecution::create, execute)
    queue_submit,              ///< vkQueueSubmit (HostExecution::run, execute)
    wait_for_fences,           ///< vkWaitForFences (HostExecution::run, execute; the real wait happens first)
};

/// Number of VulkanCall values.
inline constexpr int kVulkanCallCount = static_cast<int>(VulkanCall::wait_for_fences) + 1;

/// Makes one future call of `call` on `device` return `result` instead of its own result: the first
/// `skip` calls (counted on this device, from all threads) go through, the one after fails, later ones
/// go through again. Arming a call again replaces its earlier arming; each VulkanCall is armed on its
/// own. VK_SUCCESS, or a `call` outside the enum, is ignored. VK_ERROR_DEVICE_LOST marks the device lost,
/// as a real loss would (Device::is_lost). Thread-safe.
VKDML_API void fail_vulkan_call(const Device& device, VulkanCall call, VkResult result, uint32_t skip = 0);

/// Disarms every pending fault of `device` (a lost device stays lost). Thread-safe.
VKDML_API void clear_vulkan_faults(const Device& device);

}  // namespace vkdml::testing
