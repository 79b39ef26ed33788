// Command buffers of the host path and of submissions (commands.hpp).
#include "vulkan/commands.hpp"

#include "vkdml/testing.hpp"

#include <mutex>

namespace vkdml::detail {

Commands::~Commands() {
    if (fence_) d_.vk.vkDestroyFence(d_.device, fence_, d_.allocator);
    if (pool_) d_.vk.vkDestroyCommandPool(d_.device, pool_, d_.allocator);
}

Status Commands::begin() {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = d_.queue_family;
    VKDML_VK_TRY_ON(d_, create_command_pool,
                    d_.vk.vkCreateCommandPool(d_.device, &pci, d_.allocator, &pool_));
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VKDML_VK_TRY_ON(d_, allocate_command_buffers, d_.vk.vkAllocateCommandBuffers(d_.device, &ai, &cmd_));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKDML_VK_TRY_ON(d_, create_fence, d_.vk.vkCreateFence(d_.device, &fci, d_.allocator, &fence_));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VKDML_VK_TRY_ON(d_, begin_command_buffer, d_.vk.vkBeginCommandBuffer(cmd_, &bi));
    return {};
}

Status Commands::restart() {
    if (VkResult reset = d_.vk.vkResetCommandPool(d_.device, pool_, 0); reset != VK_SUCCESS)
        return device_vk_error(d_, reset, "vkResetCommandPool");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKDML_VK_TRY_ON(d_, begin_command_buffer, d_.vk.vkBeginCommandBuffer(cmd_, &bi));
    return {};
}

Status Commands::end() {
    VKDML_VK_TRY_ON(d_, end_command_buffer, d_.vk.vkEndCommandBuffer(cmd_));
    return {};
}

Status Commands::submit() {
    if (VkResult reset = d_.vk.vkResetFences(d_.device, 1, &fence_); reset != VK_SUCCESS)
        return device_vk_error(d_, reset, "vkResetFences");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd_;
    std::lock_guard lock(d_.queue_mutex);
    VKDML_VK_TRY_ON(d_, queue_submit, d_.vk.vkQueueSubmit(d_.queue, 1, &si, fence_));
    return {};
}

Status Commands::wait() {
    // The wait really happens first, so an injected failure leaves no work in flight behind it.
    VkResult waited = d_.vk.vkWaitForFences(d_.device, 1, &fence_, VK_TRUE, UINT64_MAX);
    if (VkResult injected = d_.faults.take(testing::VulkanCall::wait_for_fences); injected != VK_SUCCESS)
        waited = injected;
    if (waited != VK_SUCCESS) return device_vk_error(d_, waited, "vkWaitForFences");
    return {};
}

void record_compute_barrier(DeviceState& device, VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                            VkAccessFlags dst_access) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = dst_access;
    device.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage, 0, 1, &barrier, 0,
                                   nullptr, 0, nullptr);
}

}  // namespace vkdml::detail
