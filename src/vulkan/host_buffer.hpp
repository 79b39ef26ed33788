// A host-visible Vulkan buffer with its own memory, for the host convenience path.
#pragma once

#include "vulkan/device_state.hpp"

namespace vkdml::detail {

class HostBuffer {
public:
    /// What the buffers are created for: the operator's storage buffers, and copies either way.
    static constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT;

    static Result<HostBuffer> create(DeviceState& device, uint64_t bytes);
    HostBuffer(HostBuffer&& other) noexcept;
    HostBuffer& operator=(HostBuffer&&) = delete;
    HostBuffer(const HostBuffer&) = delete;
    ~HostBuffer();

    VkBuffer buffer() const noexcept { return buffer_; }
    uint64_t size() const noexcept { return size_; }
    /// Whether its memory type is device-local as well.
    bool device_local() const noexcept { return device_local_; }
    void* data() const noexcept { return mapped_; }

private:
    explicit HostBuffer(DeviceState& device) : d_(&device) {}
    DeviceState* d_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
    uint64_t size_ = 0;
    bool device_local_ = false;
};

}  // namespace vkdml::detail
