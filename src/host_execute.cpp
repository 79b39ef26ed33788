// vkdml::execute: the host convenience path (own buffers, upload, record, submit, wait, download).
#include "errors.hpp"
#include "host_buffer.hpp"
#include "plan.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace vkdml {

namespace {

using detail::HostBuffer;
using detail::make_error;

/// A one-shot command buffer with its pool and fence, destroyed on scope exit.
struct OneShot {
    DeviceState& d;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~OneShot() {
        if (fence) d.vk.vkDestroyFence(d.device, fence, nullptr);
        if (pool) d.vk.vkDestroyCommandPool(d.device, pool, nullptr);
    }
    Status begin() {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pci.queueFamilyIndex = d.queue_family;
        VKDML_VK_TRY(d.vk.vkCreateCommandPool(d.device, &pci, nullptr, &pool));
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VKDML_VK_TRY(d.vk.vkAllocateCommandBuffers(d.device, &ai, &cmd));
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VKDML_VK_TRY(d.vk.vkCreateFence(d.device, &fci, nullptr, &fence));
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VKDML_VK_TRY(d.vk.vkBeginCommandBuffer(cmd, &bi));
        return {};
    }
    Status submit_and_wait() {
        VKDML_VK_TRY(d.vk.vkEndCommandBuffer(cmd));
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        {
            std::lock_guard lock(d.queue_mutex);
            VKDML_VK_TRY(d.vk.vkQueueSubmit(d.queue, 1, &si, fence));
        }
        VKDML_VK_TRY(d.vk.vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX));
        return {};
    }
};

/// Host path buffers are whole buffers; their size rounds the tensor up to 16 bytes.
uint64_t buffer_bytes(const TensorCopy& t) {
    return (t.buffer.TotalTensorSizeInBytes + 15) / 16 * 16;
}

/// Refuses, before allocating anything, buffers the device cannot hold: one larger than maxBufferSize
/// or maxMemoryAllocationSize, or all of them together larger than the host-visible heap.
Status check_memory(const DeviceInfo& info, const OperatorState& o, uint64_t temporary_bytes) {
    struct Need {
        std::string what;
        uint64_t bytes;
    };
    std::vector<Need> needs;
    for (size_t i = 0; i < o.inputs.size(); ++i)
        needs.push_back({"input " + std::to_string(i), buffer_bytes(*o.inputs[i])});
    for (size_t i = 0; i < o.outputs.size(); ++i)
        needs.push_back({"output " + std::to_string(i), buffer_bytes(*o.outputs[i])});
    if (temporary_bytes > 0) needs.push_back({"the temporary buffer", temporary_bytes});
    const char* op = to_string(o.desc.Type);
    uint64_t total = 0;
    std::string list;
    for (const Need& n : needs) {
        if (n.bytes > info.max_buffer_size)
            return make_error(ErrorCode::out_of_memory, "execute: ", op, ": ", n.what, " needs a buffer of ",
                              n.bytes, " bytes, more than this device's maxBufferSize (",
                              info.max_buffer_size,
                              "); bind your own buffers with CompiledOperator::record instead");
        if (n.bytes > info.max_memory_allocation_size)
            return make_error(
                ErrorCode::out_of_memory, "execute: ", op, ": ", n.what, " needs an allocation of ", n.bytes,
                " bytes, more than this device's maxMemoryAllocationSize (", info.max_memory_allocation_size,
                "); bind your own buffers with CompiledOperator::record instead");
        total += n.bytes;
        list += (list.empty() ? "" : ", ") + n.what + " " + std::to_string(n.bytes);
    }
    if (total > info.host_visible_heap)
        return make_error(ErrorCode::out_of_memory, "execute: ", op, ": the host path needs ", total,
                          " bytes of host-visible device memory (", list,
                          "), more than this device's largest host-visible heap (", info.host_visible_heap,
                          ")");
    return {};
}

}  // namespace

Status execute(const Device& device, const DML_OPERATOR_DESC& desc, std::span<const void* const> inputs,
               std::span<void* const> outputs, DML_EXECUTION_FLAGS flags) {
    auto op = device.create_operator(desc);
    if (!op) return op.error();
    const OperatorState& o = *op->state();
    if (inputs.size() != o.inputs.size() || outputs.size() != o.outputs.size())
        return make_error(ErrorCode::invalid_argument, "execute: ", to_string(o.desc.Type), " takes ",
                          o.inputs.size(), " input and ", o.outputs.size(), " output arrays, got ",
                          inputs.size(), " and ", outputs.size());
    for (size_t i = 0; i < inputs.size(); ++i)
        if (!inputs[i])
            return make_error(ErrorCode::invalid_argument, "execute: input array ", i, " is null");
    for (size_t i = 0; i < outputs.size(); ++i)
        if (!outputs[i])
            return make_error(ErrorCode::invalid_argument, "execute: output array ", i, " is null");
    auto compiled = device.compile_operator(*op, flags);
    if (!compiled) return compiled.error();
    DeviceState& d = *device.state();
    if (auto st = check_memory(d.info, o, compiled->binding_properties().TemporaryResourceSize); !st)
        return st;

    std::vector<HostBuffer> in_buffers, out_buffers;
    std::vector<BufferBinding> in_bindings, out_bindings;
    for (size_t i = 0; i < inputs.size(); ++i) {
        auto b = HostBuffer::create(d, buffer_bytes(*o.inputs[i]));
        if (!b) return b.error();
        std::memcpy(b->data(), inputs[i], o.inputs[i]->buffer.TotalTensorSizeInBytes);
        in_bindings.push_back({b->buffer(), 0, b->size()});
        in_buffers.push_back(std::move(*b));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        auto b = HostBuffer::create(d, buffer_bytes(*o.outputs[i]));
        if (!b) return b.error();
        std::memcpy(b->data(), outputs[i], o.outputs[i]->buffer.TotalTensorSizeInBytes);
        out_bindings.push_back({b->buffer(), 0, b->size()});
        out_buffers.push_back(std::move(*b));
    }
    std::optional<HostBuffer> temp;
    Bindings bindings{in_bindings, out_bindings, std::nullopt};
    uint64_t temp_bytes = compiled->binding_properties().TemporaryResourceSize;
    if (temp_bytes > 0) {
        auto b = HostBuffer::create(d, temp_bytes);
        if (!b) return b.error();
        temp.emplace(std::move(*b));
        bindings.temporary = BufferBinding{temp->buffer(), 0, temp->size()};
    }

    OneShot shot{d};
    if (auto st = shot.begin(); !st) return st;
    if (auto st = compiled->record(shot.cmd, bindings); !st) return st;
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    d.vk.vkCmdPipelineBarrier(shot.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                              1, &to_host, 0, nullptr, 0, nullptr);
    if (auto st = shot.submit_and_wait(); !st) return st;
    for (size_t i = 0; i < outputs.size(); ++i)
        std::memcpy(outputs[i], out_buffers[i].data(), o.outputs[i]->buffer.TotalTensorSizeInBytes);
    return {};
}

}  // namespace vkdml
