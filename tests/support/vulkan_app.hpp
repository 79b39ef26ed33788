// vulkan_app.hpp — an application's own Vulkan instance (validation on, messages collected), device,
// queue and buffers, for the tests of the application-owned path (Device::adopt, record).
#pragma once

#include <vulkan/vulkan.h>

#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/vkdml.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace vkdml_test {

/// The application's side: instance (with validation), device, queue, pool, and helpers.
struct App {
    std::mutex messages_mutex;
    std::vector<std::string> messages;  ///< validation messages (guarded by messages_mutex)
    std::mutex queue_mutex;             ///< submit() may be called from several threads
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT size_control{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};

    static VKAPI_ATTR VkBool32 VKAPI_CALL collect(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                  void* user) {
        auto* app = static_cast<App*>(user);
        std::lock_guard lock(app->messages_mutex);
        app->messages.push_back(data->pMessage);
        return VK_FALSE;
    }

    /// `api_version`: VkApplicationInfo's; below 1.2 the device gets no Vulkan 1.1/1.2 feature structs.
    explicit App(bool rich_features, bool push_descriptor = true, uint32_t api_version = VK_API_VERSION_1_2) {
        VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
        app.apiVersion = api_version;
        if (api_version < VK_API_VERSION_1_2) features.pNext = nullptr;
        const char* layer = "VK_LAYER_KHRONOS_validation";
        const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
        ici.pApplicationInfo = &app;
        // Without the layer (Windows under Wine, VKDML_TEST_WITHOUT_VALIDATION=1): no messenger either.
        const bool validated = !validation_layer_waived();
        ici.enabledLayerCount = validated ? 1 : 0;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = validated ? 1 : 0;
        ici.ppEnabledExtensionNames = &ext;
        REQUIRE(vkCreateInstance(&ici, nullptr, &instance) == VK_SUCCESS);
        if (validated) create_messenger();
        pick_device(rich_features, push_descriptor);
    }

    void create_messenger() {
        VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
        mci.messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        mci.messageType =
            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
        mci.pfnUserCallback = collect;
        mci.pUserData = this;
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        REQUIRE(create);
        REQUIRE(create(instance, &mci, nullptr, &messenger) == VK_SUCCESS);
    }

    bool has_extension(const char* name) const {
        uint32_t count = 0;
        vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
        std::vector<VkExtensionProperties> all(count);
        vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, all.data());
        for (const VkExtensionProperties& e : all)
            if (std::string(e.extensionName) == name) return true;
        return false;
    }

    void pick_device(bool rich_features, bool push_descriptor) {
        uint32_t count = 1;
        vkEnumeratePhysicalDevices(instance, &count, &physical);
        REQUIRE(count == 1);
        uint32_t qcount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &qcount, nullptr);
        std::vector<VkQueueFamilyProperties> qf(qcount);
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &qcount, qf.data());
        while (!(qf[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
        if (rich_features) {
            f12.storageBuffer8BitAccess = VK_TRUE;
            f12.shaderSubgroupExtendedTypes = VK_TRUE;
            f11.storageBuffer16BitAccess = VK_TRUE;
            features.features.shaderInt64 = VK_TRUE;
            features.features.shaderFloat64 = VK_TRUE;
        }
        // Rich: subgroup size control too, where the device has it (lavapipe does).
        const bool size_control_on =
            rich_features && has_extension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
        if (size_control_on) {
            size_control.subgroupSizeControl = size_control.computeFullSubgroups = VK_TRUE;
            f12.pNext = &size_control;
        }
        float priority = 1;
        VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qci.queueFamilyIndex = family;
        qci.queueCount = 1;
        qci.pQueuePriorities = &priority;
        std::vector<const char*> extensions;
        if (push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
        if (size_control_on) extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
        VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
        dci.queueCreateInfoCount = 1;
        dci.pQueueCreateInfos = &qci;
        dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
        dci.ppEnabledExtensionNames = extensions.data();
        REQUIRE(vkCreateDevice(physical, &dci, nullptr, &device) == VK_SUCCESS);
        vkGetDeviceQueue(device, family, 0, &queue);
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = family;
        REQUIRE(vkCreateCommandPool(device, &pci, nullptr, &pool) == VK_SUCCESS);
    }

    ~App() {
        vkDestroyCommandPool(device, pool, nullptr);
        vkDestroyDevice(device, nullptr);
        if (messenger != VK_NULL_HANDLE) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, messenger, nullptr);
        }
        vkDestroyInstance(instance, nullptr);
    }

    std::shared_ptr<vkdml::Device> adopt(bool pass_features) {
        auto dev = vkdml::Device::adopt(instance, physical, device, family, queue, vkGetInstanceProcAddr,
                                        pass_features ? &features : nullptr);
        INFO((dev ? std::string() : dev.error().message));
        REQUIRE(dev);
        return *dev;
    }

    struct Buffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        void* data = nullptr;
        VkDeviceSize size = 0;
        VkBufferUsageFlags usage = 0;

        /// A binding of [offset, offset + bytes) that declares the buffer's real size and usage.
        vkdml::BufferBinding bind(VkDeviceSize offset, VkDeviceSize bytes) const {
            return {buffer, offset, bytes, size, usage};
        }
    };

    Buffer buffer(VkDeviceSize bytes, VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) {
        Buffer b;
        b.size = bytes;
        b.usage = usage;
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = bytes;
        bci.usage = usage;
        REQUIRE(vkCreateBuffer(device, &bci, nullptr, &b.buffer) == VK_SUCCESS);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, b.buffer, &req);
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(physical, &mp);
        uint32_t type = 0;
        const VkMemoryPropertyFlags want =
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        while (!((req.memoryTypeBits >> type) & 1) || (mp.memoryTypes[type].propertyFlags & want) != want)
            ++type;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        REQUIRE(vkAllocateMemory(device, &mai, nullptr, &b.memory) == VK_SUCCESS);
        REQUIRE(vkBindBufferMemory(device, b.buffer, b.memory, 0) == VK_SUCCESS);
        REQUIRE(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.data) == VK_SUCCESS);
        return b;
    }

    void free(Buffer& b) {
        vkDestroyBuffer(device, b.buffer, nullptr);
        vkFreeMemory(device, b.memory, nullptr);
    }

    /// A command pool for one thread (the app's own `pool` is for the calling thread only).
    VkCommandPool make_pool() {
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = family;
        VkCommandPool p = VK_NULL_HANDLE;
        REQUIRE(vkCreateCommandPool(device, &pci, nullptr, &p) == VK_SUCCESS);
        return p;
    }

    // try_begin / try_submit use no Catch assertion (Catch2 v2's are not thread-safe), so worker
    // threads can call them; begin / submit REQUIRE their success.

    /// A command buffer from `from` (default: the app's pool), begun; null when Vulkan fails.
    VkCommandBuffer try_begin(VkCommandPool from = VK_NULL_HANDLE) {
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = from ? from : pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        if (vkAllocateCommandBuffers(device, &ai, &cmd) != VK_SUCCESS) return VK_NULL_HANDLE;
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        if (vkBeginCommandBuffer(cmd, &bi) != VK_SUCCESS) return VK_NULL_HANDLE;
        return cmd;
    }

    /// Ends `cmd` (with a barrier making the shader writes visible to the host), submits it (one
    /// submit at a time: the queue is shared), waits for the queue and frees it back to `from`
    /// (default: the app's pool). Returns what failed, empty on success.
    std::string try_submit(VkCommandBuffer cmd, VkCommandPool from = VK_NULL_HANDLE) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                             0, nullptr, 0, nullptr);
        if (vkEndCommandBuffer(cmd) != VK_SUCCESS) return "vkEndCommandBuffer failed";
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        {
            std::lock_guard lock(queue_mutex);
            if (vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) != VK_SUCCESS) return "vkQueueSubmit failed";
            if (vkQueueWaitIdle(queue) != VK_SUCCESS) return "vkQueueWaitIdle failed";
        }
        vkFreeCommandBuffers(device, from ? from : pool, 1, &cmd);
        return {};
    }

    VkCommandBuffer begin(VkCommandPool from = VK_NULL_HANDLE) {
        VkCommandBuffer cmd = try_begin(from);
        REQUIRE(cmd != VK_NULL_HANDLE);
        return cmd;
    }

    void submit(VkCommandBuffer cmd, VkCommandPool from = VK_NULL_HANDLE) {
        const std::string failed = try_submit(cmd, from);
        INFO(failed);
        REQUIRE(failed.empty());
    }
};

}  // namespace vkdml_test
