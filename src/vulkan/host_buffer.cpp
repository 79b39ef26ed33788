// Host-visible buffers (see host_buffer.hpp). Prefers memory that is device-local as well.
#include "vulkan/host_buffer.hpp"

#include "core/errors.hpp"

namespace vkdml::detail {

namespace {

uint32_t pick_memory_type(const VkPhysicalDeviceMemoryProperties& props, uint32_t allowed) {
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkMemoryPropertyFlags wanted[] = {
        host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
        host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host};
    for (VkMemoryPropertyFlags w : wanted)
        for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
            if ((allowed & (1u << i)) && (props.memoryTypes[i].propertyFlags & w) == w) return i;
    return UINT32_MAX;
}

}  // namespace

Result<HostBuffer> HostBuffer::create(DeviceState& device, uint64_t bytes) {
    const DeviceInfo& info = device.caps.info;
    if (bytes > info.max_buffer_size)  // refused before vkCreateBuffer, for which it is invalid
        return make_error(ErrorCode::out_of_memory, "a buffer of ", bytes,
                          " bytes is more than this device's maxBufferSize (", info.max_buffer_size, ")");
    if (bytes > info.max_memory_allocation_size)
        return make_error(ErrorCode::out_of_memory, "a buffer of ", bytes,
                          " bytes is more than this device's maxMemoryAllocationSize (",
                          info.max_memory_allocation_size, ")");
    HostBuffer b(device);
    b.size_ = bytes;
    const VolkDeviceTable& vk = device.vk;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = kUsage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VKDML_VK_TRY_ON(device, create_buffer,
                    vk.vkCreateBuffer(device.device, &bci, device.allocator, &b.buffer_));
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(device.device, b.buffer_, &req);
    if (req.size > info.max_memory_allocation_size)  // its memory, rounded up by the driver
        return make_error(ErrorCode::out_of_memory, "a buffer of ", bytes, " bytes needs ", req.size,
                          " bytes of memory, more than this device's maxMemoryAllocationSize (",
                          info.max_memory_allocation_size, ")");
    uint32_t type = pick_memory_type(device.memory_properties, req.memoryTypeBits);
    if (type == UINT32_MAX)
        return make_error(ErrorCode::unsupported_device,
                          "no host-visible memory type can hold a storage buffer");
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    b.device_local_ =
        (device.memory_properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
    VKDML_VK_TRY_ON(device, allocate_memory,
                    vk.vkAllocateMemory(device.device, &mai, device.allocator, &b.memory_));
    VKDML_VK_TRY_ON(device, bind_buffer_memory,
                    vk.vkBindBufferMemory(device.device, b.buffer_, b.memory_, 0));
    VKDML_VK_TRY_ON(device, map_memory,
                    vk.vkMapMemory(device.device, b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_));
    return b;
}

HostBuffer::HostBuffer(HostBuffer&& o) noexcept
    : d_(o.d_),
      buffer_(o.buffer_),
      memory_(o.memory_),
      mapped_(o.mapped_),
      size_(o.size_),
      device_local_(o.device_local_) {
    o.buffer_ = VK_NULL_HANDLE;
    o.memory_ = VK_NULL_HANDLE;
    o.mapped_ = nullptr;
}

HostBuffer::~HostBuffer() {
    if (buffer_) d_->vk.vkDestroyBuffer(d_->device, buffer_, d_->allocator);
    if (memory_) d_->vk.vkFreeMemory(d_->device, memory_, d_->allocator);
}

}  // namespace vkdml::detail
