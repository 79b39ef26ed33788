// vkdml::Device: its accessors, adopting the application's device, and the setup create() shares
// (device_create.cpp makes an instance and device of vkdml's own).
#include "core/errors.hpp"
#include "core/policy.hpp"
#include "vulkan/device_info.hpp"
#include "vulkan/device_setup.hpp"
#include "vulkan/pipeline_cache.hpp"

#include <mutex>
#include <vector>

namespace vkdml {

DeviceState::DeviceState() = default;

DeviceState::~DeviceState() {
    pipelines.reset();
    if (!owns_handles) return;
    if (device) vk.vkDestroyDevice(device, allocator);
    if (messenger && destroy_messenger) destroy_messenger(instance, messenger, allocator);
    if (instance && destroy_instance) destroy_instance(instance, allocator);
}

namespace detail {

std::mutex& instance_functions_mutex() {
    static std::mutex m;
    return m;
}

Status finish_setup(DeviceState& s) {
    volkLoadDeviceTable(&s.vk, s.device);
    vkGetPhysicalDeviceMemoryProperties(s.physical_device, &s.memory_properties);
    if (!s.vk.vkCmdPushDescriptorSetKHR)
        return make_error(ErrorCode::unsupported_device, "device \"", s.caps.info.physical.name,
                          "\" was created without VK_KHR_push_descriptor enabled; vkdml records its bindings "
                          "with it (add it to VkDeviceCreateInfo::ppEnabledExtensionNames)");
    if (!s.queue) s.vk.vkGetDeviceQueue(s.device, s.queue_family, 0, &s.queue);
    auto cache = detail::PipelineCache::create(s);
    if (!cache) return cache.error();
    s.pipelines = std::move(*cache);
    return {};
}

Status check_api_version(const PhysicalDeviceInfo& info) {
    if (VK_API_VERSION_MAJOR(info.api_version) == 1 && VK_API_VERSION_MINOR(info.api_version) < 2)
        return make_error(ErrorCode::unsupported_device, "device \"", info.name, "\" supports Vulkan ",
                          VK_API_VERSION_MAJOR(info.api_version), ".", VK_API_VERSION_MINOR(info.api_version),
                          "; vkdml needs Vulkan 1.2");
    return {};
}

}  // namespace detail

namespace {

using detail::make_error;

/// adopt(): the application's queue family must exist and have compute capability.
Status check_adopted_queue_family(VkPhysicalDevice physical_device, uint32_t queue_family_index) {
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families.data());
    if (queue_family_index >= family_count ||
        !(families[queue_family_index].queueFlags & VK_QUEUE_COMPUTE_BIT))
        return make_error(ErrorCode::invalid_argument, "Device::adopt: queue family ", queue_family_index,
                          " does not exist or has no compute capability (", family_count, " families)");
    return {};
}

/// adopt(): subgroup size control as Vulkan 1.3's features or VK_EXT_subgroup_size_control's name it.
template <typename Features>
void read_size_control(const Features& v, detail::EnabledFeatures& f) {
    f.subgroup_size_control |= v.subgroupSizeControl == VK_TRUE;
    f.compute_full_subgroups |= v.computeFullSubgroups == VK_TRUE;
}

/// adopt(): adds what one structure of the enabled-features pNext chain enables (others are ignored).
void read_feature_struct(const VkBaseInStructure& n, detail::EnabledFeatures& f) {
    switch (n.sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
        auto& v = reinterpret_cast<const VkPhysicalDeviceVulkan11Features&>(n);
        f.storage_buffer_16bit |= v.storageBuffer16BitAccess == VK_TRUE;
        break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
        auto& v = reinterpret_cast<const VkPhysicalDeviceVulkan12Features&>(n);
        f.storage_buffer_8bit |= v.storageBuffer8BitAccess == VK_TRUE;
        f.subgroup_extended_types |= v.shaderSubgroupExtendedTypes == VK_TRUE;
        break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
        read_size_control(reinterpret_cast<const VkPhysicalDeviceVulkan13Features&>(n), f);
        break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
        read_size_control(reinterpret_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures&>(n), f);
        break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES: {
        auto& v = reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures&>(n);
        f.storage_buffer_16bit |= v.storageBuffer16BitAccess == VK_TRUE;
        break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES: {
        auto& v = reinterpret_cast<const VkPhysicalDevice8BitStorageFeatures&>(n);
        f.storage_buffer_8bit |= v.storageBuffer8BitAccess == VK_TRUE;
        break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES: {
        auto& v = reinterpret_cast<const VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures&>(n);
        f.subgroup_extended_types |= v.shaderSubgroupExtendedTypes == VK_TRUE;
        break;
    }
    default: break;
    }
}

/// adopt(): the features vkdml may use, as the application says it enabled them.
detail::EnabledFeatures read_enabled_features(const VkPhysicalDeviceFeatures2& enabled) {
    detail::EnabledFeatures f;
    f.shader_int64 = enabled.features.shaderInt64;
    f.shader_float64 = enabled.features.shaderFloat64;
    for (auto* n = static_cast<const VkBaseInStructure*>(enabled.pNext); n; n = n->pNext)
        read_feature_struct(*n, f);
    return f;
}

}  // namespace

Device::Device(std::shared_ptr<DeviceState> s) : s_(std::move(s)) {}
Device::~Device() = default;

const DeviceInfo& Device::info() const noexcept {
    return s_->caps.info;
}

std::string_view Device::policy_rows() const noexcept {
    return detail::select_policy(s_->caps.plan_target()).name;
}

bool Device::is_lost() const noexcept {
    return s_->lost.load(std::memory_order_acquire);
}

VulkanHandles Device::vulkan() const noexcept {
    return {s_->instance,     s_->physical_device, s_->device,
            s_->queue_family, s_->queue,           s_->get_instance_proc_addr};
}

Result<std::vector<std::byte>> Device::pipeline_cache_data() const {
    if (auto st = detail::check_not_lost(*s_); !st) return st.error();
    return s_->pipelines->data();
}

bool Device::pipeline_cache_seeded() const noexcept {
    return s_->cache_seeded;
}

std::unique_lock<std::mutex> Device::lock_queue() const {
    return std::unique_lock(s_->queue_mutex);
}

Result<std::shared_ptr<Device>> Device::adopt(VkInstance instance, VkPhysicalDevice physical_device,
                                              VkDevice device, uint32_t queue_family_index, VkQueue queue,
                                              PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                              const VkPhysicalDeviceFeatures2* enabled_features,
                                              const VkAllocationCallbacks* allocation_callbacks) {
    if (!instance || !physical_device || !device || !queue || !get_instance_proc_addr)
        return make_error(ErrorCode::invalid_argument,
                          "Device::adopt needs a non-null instance, physical device, device, queue and "
                          "vkGetInstanceProcAddr");
    std::lock_guard lock(detail::instance_functions_mutex());
    volkInitializeCustom(get_instance_proc_addr);
    volkLoadInstanceOnly(instance);
    auto s = std::make_shared<DeviceState>();
    s->instance = instance;
    s->get_instance_proc_addr = get_instance_proc_addr;
    s->allocator = allocation_callbacks;
    s->physical_device = physical_device;
    s->device = device;
    s->queue_family = queue_family_index;
    s->queue = queue;
    if (auto st = check_adopted_queue_family(physical_device, queue_family_index); !st) return st.error();
    // The device's version first (a 1.0 query), then the instance's, before any 1.1/1.2 structure is used.
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physical_device, &properties);
    PhysicalDeviceInfo named;
    named.name = properties.deviceName;
    named.api_version = properties.apiVersion;
    if (auto st = detail::check_api_version(named); !st) return st.error();
    // The instance's own version (VkApplicationInfo::apiVersion) has no query; its device commands show it:
    // vkGetDeviceProcAddr gives a core command only of a version the application requested.
    if (!vkGetDeviceProcAddr(device, "vkGetSemaphoreCounterValue"))
        return make_error(
            ErrorCode::unsupported_device,
            "Device::adopt: the device offers no Vulkan 1.2 command (vkGetDeviceProcAddr gives none "
            "for vkGetSemaphoreCounterValue): the application's instance was created for Vulkan "
            "1.1 or lower (VkApplicationInfo::apiVersion); vkdml needs VK_API_VERSION_1_2 or "
            "later there");
    s->caps.info = detail::query_device_info(physical_device, 0);
    if (enabled_features) s->caps.features = read_enabled_features(*enabled_features);
    // Full subgroups only where the application enabled what requiring them takes.
    s->caps.info.full_subgroups &=
        s->caps.features.subgroup_size_control && s->caps.features.compute_full_subgroups;
    if (auto st = detail::finish_setup(*s); !st) return st.error();
    return detail::ApiAccess::make_device(std::move(s));
}

}  // namespace vkdml
