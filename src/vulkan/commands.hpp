// One command buffer with its pool and fence, for the host path and submissions: begin, end, submit
// under the device's queue lock, wait.
#pragma once

#include "vulkan/device_state.hpp"

namespace vkdml::detail {

/// A primary command buffer of its own pool on the device's queue family, and a fence; destroyed
/// with it (the owner waits first: nothing here waits on destruction).
class Commands {
public:
    explicit Commands(DeviceState& device) : d_(device) {}
    Commands(const Commands&) = delete;
    Commands& operator=(const Commands&) = delete;
    ~Commands();

    /// Creates the pool, the command buffer and the fence, and begins recording.
    Status begin();
    /// Resets the pool (the last submit must have completed: wait() first) and begins recording again.
    Status restart();
    /// Ends recording.
    Status end();
    /// Resets the fence and submits the command buffer under the device's queue lock.
    Status submit();
    /// Waits, without a timeout, for the last submit's fence.
    Status wait();
    Status submit_and_wait() {
        if (auto st = submit(); !st) return st;
        return wait();
    }

    VkCommandBuffer buffer() const noexcept { return cmd_; }
    VkFence fence() const noexcept { return fence_; }
    DeviceState& device() const noexcept { return d_; }

private:
    DeviceState& d_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

/// Records a memory barrier from compute-shader writes to `dst_access` at `dst_stage`.
void record_compute_barrier(DeviceState& device, VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                            VkAccessFlags dst_access);

}  // namespace vkdml::detail
