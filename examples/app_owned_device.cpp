// examples/app_owned_device.cpp — vkdml inside an application that owns its Vulkan instance, device,
// buffers and command buffer, the way DirectML sits inside a D3D12 application.
//
// It computes, for each of 4 rows of 100,000 float32 values, the running sum along the row
// (DML_OPERATOR_CUMULATIVE_SUMMATION) and then the largest running sum of the row (DML_OPERATOR_REDUCE,
// MAX over axis 1), in one command buffer with a barrier between the two operators, and checks both
// against sums computed here. The values are small integers, so float32 holds every sum exactly.
#include <vulkan/vulkan.h>  // the application calls the Vulkan loader itself
#include <vkdml/vkdml.hpp>
#include "vkdml/profiling.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace {

void check(VkResult result, const char* call) {
    if (result == VK_SUCCESS) return;
    std::fprintf(stderr, "%s failed (VkResult %d)\n", call, static_cast<int>(result));
    std::exit(1);
}

template <class T>
T check(vkdml::Result<T> result) {
    if (!result) {
        std::fprintf(stderr, "vkdml: %s\n", result.error().message.c_str());
        std::exit(1);
    }
    return std::move(*result);
}

void check(const vkdml::Status& status) {
    if (status) return;
    std::fprintf(stderr, "vkdml: %s\n", status.error().message.c_str());
    std::exit(1);
}

// The application's Vulkan objects: an instance, the first device with a compute queue and
// VK_KHR_push_descriptor (which vkdml needs), and that queue.
struct Context {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkQueue queue = VK_NULL_HANDLE;
};

bool has_push_descriptor(VkPhysicalDevice physical) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    for (const auto& e : extensions)
        if (std::strcmp(e.extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0) return true;
    return false;
}

Context create_context() {
    Context c;
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "vkdml app_owned_device example";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo instance_info{};
    instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instance_info.pApplicationInfo = &app;
    check(vkCreateInstance(&instance_info, nullptr, &c.instance), "vkCreateInstance");

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(c.instance, &count, nullptr);
    std::vector<VkPhysicalDevice> physicals(count);
    vkEnumeratePhysicalDevices(c.instance, &count, physicals.data());
    for (VkPhysicalDevice physical : physicals) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical, &properties);
        if (properties.apiVersion < VK_API_VERSION_1_2 || !has_push_descriptor(physical)) continue;
        uint32_t family_count = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
        std::vector<VkQueueFamilyProperties> families(family_count);
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
        for (uint32_t f = 0; f < family_count && !c.physical; ++f)
            if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) c.physical = physical, c.family = f;
        if (c.physical) {
            std::printf("device: %s\n", properties.deviceName);
            break;
        }
    }
    if (!c.physical) std::fprintf(stderr, "no Vulkan 1.2 device with VK_KHR_push_descriptor\n"), std::exit(1);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = c.family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &extension;
    check(vkCreateDevice(c.physical, &device_info, nullptr, &c.device), "vkCreateDevice");
    vkGetDeviceQueue(c.device, c.family, 0, &c.queue);
    return c;
}

// A storage buffer with memory of its own: host-visible and mapped (inputs, outputs) or device-local
// (the temporary buffer, which only the GPU touches).
struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr;

    vkdml::BufferBinding binding() const {
        return {buffer, 0, size, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    }
};

Buffer create_buffer(const Context& c, VkDeviceSize size, bool host_visible) {
    Buffer b;
    b.size = size;
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    check(vkCreateBuffer(c.device, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(c.device, b.buffer, &requirements);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(c.physical, &memory);
    const VkMemoryPropertyFlags wanted =
        host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = UINT32_MAX;
    for (uint32_t t = 0; t < memory.memoryTypeCount && allocate.memoryTypeIndex == UINT32_MAX; ++t)
        if ((requirements.memoryTypeBits & (1u << t)) &&
            (memory.memoryTypes[t].propertyFlags & wanted) == wanted)
            allocate.memoryTypeIndex = t;
    if (allocate.memoryTypeIndex == UINT32_MAX)
        std::fprintf(stderr, "no suitable memory type\n"), std::exit(1);
    check(vkAllocateMemory(c.device, &allocate, nullptr, &b.memory), "vkAllocateMemory");
    check(vkBindBufferMemory(c.device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    if (host_visible) check(vkMapMemory(c.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    return b;
}

void destroy_buffer(const Context& c, Buffer& b) {
    vkDestroyBuffer(c.device, b.buffer, nullptr);
    vkFreeMemory(c.device, b.memory, nullptr);  // unmaps
}

// Makes the first operator's writes visible to the second one's reads (and orders their use of the
// shared temporary buffer), or the shader's writes to the host's reads after the fence.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    memory.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst_stage, 0, 1, &memory, 0, nullptr, 0,
                         nullptr);
}

}  // namespace

int main() {
    Context c = create_context();
    constexpr uint32_t kRows = 4, kColumns = 100000;
    int failures = 0;
    {
        // vkdml works on the application's device; vkdml never destroys adopted handles. No optional
        // features were enabled, so FLOAT32 (which needs none) is what this device supports.
        auto device = check(vkdml::Device::adopt(c.instance, c.physical, c.device, c.family, c.queue,
                                                 vkGetInstanceProcAddr, nullptr));

        // The DirectML descriptors: X [4, 100000] → cumulative sum along axis 1 → Y [4, 100000]
        // → REDUCE MAX over axis 1 → Z [4, 1].
        uint32_t row_sizes[] = {kRows, kColumns}, out_sizes[] = {kRows, 1};
        const DML_TENSOR_DATA_TYPE f32 = DML_TENSOR_DATA_TYPE_FLOAT32;
        const auto bytes = [&](uint32_t* sizes) { return DMLCalcBufferTensorSize(f32, 2, sizes, nullptr); };
        DML_BUFFER_TENSOR_DESC rows{f32, DML_TENSOR_FLAG_NONE, 2, row_sizes, nullptr, bytes(row_sizes), 0};
        DML_BUFFER_TENSOR_DESC maxima{f32, DML_TENSOR_FLAG_NONE, 2, out_sizes, nullptr, bytes(out_sizes), 0};
        DML_TENSOR_DESC rows_tensor{DML_TENSOR_TYPE_BUFFER, &rows},
            maxima_tensor{DML_TENSOR_TYPE_BUFFER, &maxima};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{&rows_tensor, &rows_tensor, 1,
                                                      DML_AXIS_DIRECTION_INCREASING, false};
        const uint32_t axes[] = {1};
        DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_MAX, &rows_tensor, &maxima_tensor, 1, axes};

        // IDMLDevice::CreateOperator + CompileOperator.
        auto cumsum_op = check(device->compile_operator(
            check(device->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum}))));
        auto reduce_op =
            check(device->compile_operator(check(device->create_operator({DML_OPERATOR_REDUCE, &reduce}))));

        // The application's buffers. One temporary buffer serves both operators (the barrier between
        // them orders its use), as large as the larger TemporaryResourceSize; none if both are 0.
        Buffer x = create_buffer(c, rows.TotalTensorSizeInBytes, true);
        Buffer y = create_buffer(c, rows.TotalTensorSizeInBytes, true);
        Buffer z = create_buffer(c, maxima.TotalTensorSizeInBytes, true);
        const uint64_t temporary_size = std::max(cumsum_op.binding_properties().TemporaryResourceSize,
                                                 reduce_op.binding_properties().TemporaryResourceSize);
        Buffer temporary;
        if (temporary_size > 0) temporary = create_buffer(c, temporary_size, false);
        std::printf("temporary buffer: %llu bytes; passes: cumsum %u, reduce %u\n",
                    static_cast<unsigned long long>(temporary_size), vkdml::pass_count(cumsum_op),
                    vkdml::pass_count(reduce_op));

        auto* input = static_cast<float*>(x.mapped);
        for (uint32_t i = 0; i < kRows * kColumns; ++i)
            input[i] = static_cast<float>((i * 7u + i / kColumns) % 5u);

        // Record both into one command buffer: cumsum, barrier, reduce, barrier for the host.
        VkCommandPool pool;
        VkCommandPoolCreateInfo pool_info{};
        pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        pool_info.queueFamilyIndex = c.family;
        check(vkCreateCommandPool(c.device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
        VkCommandBuffer cmd;
        VkCommandBufferAllocateInfo cmd_info{};
        cmd_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        cmd_info.commandPool = pool;
        cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cmd_info.commandBufferCount = 1;
        check(vkAllocateCommandBuffers(c.device, &cmd_info, &cmd), "vkAllocateCommandBuffers");
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");

        const vkdml::BufferBinding x_binding = x.binding(), y_binding = y.binding(), z_binding = z.binding();
        std::optional<vkdml::BufferBinding> temporary_binding;
        if (temporary_size > 0) temporary_binding = temporary.binding();
        // IDMLCommandRecorder::RecordDispatch: the bindings are checked (sizes, usage, overlap) first.
        check(cumsum_op.record(cmd, {{&x_binding, 1}, {&y_binding, 1}, temporary_binding}));
        barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        check(reduce_op.record(cmd, {{&y_binding, 1}, {&z_binding, 1}, temporary_binding}));
        barrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

        VkFence fence;
        VkFenceCreateInfo fence_info{};
        fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        check(vkCreateFence(c.device, &fence_info, nullptr, &fence), "vkCreateFence");
        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        {
            auto queue_lock = device->lock_queue();  // only needed if other threads use vkdml's queue too
            check(vkQueueSubmit(c.queue, 1, &submit, fence), "vkQueueSubmit");
        }
        check(vkWaitForFences(c.device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

        // Check against sums computed here, in the same order (exact: small integers).
        const auto* prefix = static_cast<const float*>(y.mapped);
        const auto* largest = static_cast<const float*>(z.mapped);
        for (uint32_t r = 0; r < kRows; ++r) {
            float sum = 0;
            for (uint32_t i = r * kColumns; i < (r + 1) * kColumns; ++i) {
                sum += input[i];
                failures += prefix[i] != sum;
            }
            failures += largest[r] != sum;
            std::printf("row %u: sum %.0f, max running sum %.0f\n", r, double(sum), double(largest[r]));
        }

        vkDestroyFence(c.device, fence, nullptr);
        vkDestroyCommandPool(c.device, pool, nullptr);
        for (Buffer* b : {&x, &y, &z, &temporary})
            if (b->buffer) destroy_buffer(c, *b);
    }  // the compiled operators and the vkdml::Device go first: they hold pipelines of c.device

    vkDestroyDevice(c.device, nullptr);
    vkDestroyInstance(c.instance, nullptr);
    std::printf("%s\n", failures == 0 ? "ok" : "MISMATCH");
    return failures == 0 ? 0 : 1;
}
