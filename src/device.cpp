// vkdml::Device: creating an instance and device of our own, or adopting the application's.
#include "device_info.hpp"
#include "errors.hpp"
#include "pipeline_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace vkdml {

DeviceState::DeviceState() = default;

DeviceState::~DeviceState() {
    pipelines.reset();
    if (!owns_handles) return;
    if (device) vk.vkDestroyDevice(device, nullptr);
    if (messenger && destroy_messenger) destroy_messenger(instance, messenger, nullptr);
    if (instance && destroy_instance) destroy_instance(instance, nullptr);
}

namespace {

using detail::cat;
using detail::make_error;

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                VkDebugUtilsMessageTypeFlagsEXT,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                void* user) {
    auto* state = static_cast<DeviceState*>(user);
    if (state->on_validation_message && data && data->pMessage) state->on_validation_message(data->pMessage);
    return VK_FALSE;
}

bool has_layer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    return std::any_of(layers.begin(), layers.end(),
                       [&](const auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> exts(count);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, exts.data());
    return std::any_of(exts.begin(), exts.end(),
                       [&](const auto& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// Picks a physical device by selector (index or name substring), or the best by type.
Result<uint32_t> choose(const std::vector<PhysicalDeviceInfo>& devices, const std::string& selector) {
    if (devices.empty()) return make_error(ErrorCode::no_device, "no Vulkan physical device was found");
    if (!selector.empty()) {
        bool numeric =
            std::all_of(selector.begin(), selector.end(), [](unsigned char c) { return std::isdigit(c); });
        if (numeric) {
            unsigned long i = std::strtoul(selector.c_str(), nullptr, 10);
            if (selector.size() > 9 || i >= devices.size())
                return make_error(ErrorCode::no_device, "device index ", selector, " is out of range (",
                                  devices.size(), " Vulkan devices)");
            return static_cast<uint32_t>(i);
        }
        for (const auto& d : devices)
            if (lower(d.name).find(lower(selector)) != std::string::npos) return d.index;
        std::string names;
        for (const auto& d : devices) names += cat(names.empty() ? "" : ", ", d.index, ": ", d.name);
        return make_error(ErrorCode::no_device, "no Vulkan device matches \"", selector,
                          "\" (devices: ", names, ")");
    }
    uint32_t best = 0;
    for (const auto& d : devices)
        if (detail::device_type_rank(d.type) > detail::device_type_rank(devices[best].type)) best = d.index;
    return best;
}

/// Guards volk's process-wide instance-level function pointers, which create(), adopt() and
/// enumerate() load for their instance and then call: one of them at a time.
std::mutex& instance_functions_mutex() {
    static std::mutex m;
    return m;
}

/// Everything both create() and adopt() do once the handles exist.
Status finish_setup(DeviceState& s) {
    volkLoadDeviceTable(&s.vk, s.device);
    vkGetPhysicalDeviceMemoryProperties(s.physical_device, &s.memory_properties);
    if (!s.vk.vkCmdPushDescriptorSetKHR)
        return make_error(ErrorCode::unsupported_device, "device \"", s.info.physical.name,
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

/// Lowers the planning limits to DeviceOptions::limits.
Status apply_limits(const DeviceOptions::Limits& limits, DeviceInfo& info) {
    const uint64_t least_range = 64 + std::max<uint64_t>(16, info.min_storage_buffer_offset_alignment);
    if (uint64_t range = limits.max_storage_buffer_range; range != 0) {
        if (range > info.max_storage_buffer_range || range < least_range)
            return make_error(
                ErrorCode::invalid_argument, "DeviceOptions::limits.max_storage_buffer_range is ", range,
                "; it must be 0 or from ", least_range, " to the device's ", info.max_storage_buffer_range);
        info.max_storage_buffer_range = range;
    }
    if (uint32_t count = limits.max_workgroup_count; count != 0) {
        uint32_t device_count = std::min(info.max_workgroup_count[0], info.max_workgroup_count[1]);
        if (count > device_count || count < 2)
            return make_error(ErrorCode::invalid_argument, "DeviceOptions::limits.max_workgroup_count is ",
                              count, "; it must be 0 or from 2 to the device's ", device_count);
        for (uint32_t& c : info.max_workgroup_count) c = std::min(c, count);
    }
    return {};
}

}  // namespace

Device::Device(std::shared_ptr<DeviceState> s) : s_(std::move(s)) {}
Device::~Device() = default;

const DeviceInfo& Device::info() const noexcept {
    return s_->info;
}

bool Device::is_lost() const noexcept {
    return s_->lost.load(std::memory_order_acquire);
}

VulkanHandles Device::vulkan() const noexcept {
    return {s_->instance,     s_->physical_device, s_->device,
            s_->queue_family, s_->queue,           s_->get_instance_proc_addr};
}

std::unique_lock<std::mutex> Device::lock_queue() const {
    return std::unique_lock(s_->queue_mutex);
}

size_t Device::pipeline_count() const {
    return s_->pipelines->size();
}

Result<std::vector<PhysicalDeviceInfo>> Device::enumerate() {
    std::lock_guard lock(instance_functions_mutex());
    if (auto st = detail::load_vulkan_loader(); !st) return st.error();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    VKDML_VK_TRY(vkCreateInstance(&ci, nullptr, &instance));
    volkLoadInstanceOnly(instance);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> pds(count);
    vkEnumeratePhysicalDevices(instance, &count, pds.data());
    std::vector<PhysicalDeviceInfo> out;
    for (uint32_t i = 0; i < count; ++i) out.push_back(detail::describe(pds[i], i));
    vkDestroyInstance(instance, nullptr);
    return out;
}

Result<std::shared_ptr<Device>> Device::create(const DeviceOptions& options) {
    std::lock_guard lock(instance_functions_mutex());
    if (auto st = detail::load_vulkan_loader(); !st) return st.error();
    auto s = std::make_shared<DeviceState>();
    s->owns_handles = true;
    s->on_validation_message = options.on_validation_message;

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkdml";
    app.apiVersion = VK_API_VERSION_1_2;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT messenger_ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_ci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_ci.pfnUserCallback = on_debug_message;
    messenger_ci.pUserData = s.get();
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (options.validation) {
        if (!has_layer(layer))
            return make_error(ErrorCode::unsupported_device,
                              "validation was requested but VK_LAYER_KHRONOS_validation is not installed "
                              "(Debian package vulkan-validationlayers)");
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = &debug_ext;
        ici.pNext = &messenger_ci;
    }
    VKDML_VK_TRY(vkCreateInstance(&ici, nullptr, &s->instance));
    volkLoadInstanceOnly(s->instance);
    s->get_instance_proc_addr = vkGetInstanceProcAddr;
    s->destroy_instance =
        reinterpret_cast<PFN_vkDestroyInstance>(vkGetInstanceProcAddr(s->instance, "vkDestroyInstance"));
    if (options.validation) {
        s->destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(s->instance, "vkDestroyDebugUtilsMessengerEXT"));
        VKDML_VK_TRY(vkCreateDebugUtilsMessengerEXT(s->instance, &messenger_ci, nullptr, &s->messenger));
    }

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(s->instance, &count, nullptr);
    std::vector<VkPhysicalDevice> pds(count);
    vkEnumeratePhysicalDevices(s->instance, &count, pds.data());
    std::vector<PhysicalDeviceInfo> infos;
    for (uint32_t i = 0; i < count; ++i) infos.push_back(detail::describe(pds[i], i));
    std::string selector = options.selector;
    if (selector.empty())
        if (const char* env = std::getenv("VKDML_DEVICE")) selector = env;
    auto chosen = choose(infos, selector);
    if (!chosen) return chosen.error();
    s->physical_device = pds[*chosen];
    s->info = detail::query_device_info(s->physical_device, *chosen);
    if (auto st = check_api_version(s->info.physical); !st) return st.error();
    if (!options.subgroup_operations) s->info.subgroup_arithmetic = s->info.subgroup_shuffle = false;
    s->serial_kernels = options.kernels == DeviceOptions::Kernels::serial ||
                        (options.kernels == DeviceOptions::Kernels::automatic &&
                         s->info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU);
    s->info.shader_int64 &= options.features.shader_int64;
    s->info.shader_float64 &= options.features.shader_float64;
    s->info.storage_buffer_8bit &= options.features.storage_buffer_8bit;
    s->info.storage_buffer_16bit &= options.features.storage_buffer_16bit;
    s->info.subgroup_extended_types &= options.features.subgroup_extended_types;
    if (auto st = apply_limits(options.limits, s->info); !st) return st.error();

    uint32_t qcount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(s->physical_device, &qcount, nullptr);
    std::vector<VkQueueFamilyProperties> families(qcount);
    vkGetPhysicalDeviceQueueFamilyProperties(s->physical_device, &qcount, families.data());
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < qcount && family == UINT32_MAX; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
    if (family == UINT32_MAX)
        return make_error(ErrorCode::unsupported_device, "device \"", s->info.physical.name,
                          "\" has no compute queue");
    s->queue_family = family;

    if (!has_device_extension(s->physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return make_error(ErrorCode::unsupported_device, "device \"", s->info.physical.name,
                          "\" lacks VK_KHR_push_descriptor, which vkdml records its bindings with");

    const DeviceInfo& info = s->info;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.storageBuffer8BitAccess = info.storage_buffer_8bit;
    f12.shaderSubgroupExtendedTypes = info.subgroup_extended_types;
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    f11.storageBuffer16BitAccess = info.storage_buffer_16bit;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
    features.features.shaderInt64 = info.shader_int64;
    features.features.shaderFloat64 = info.shader_float64;

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    const char* push_ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 1;
    dci.ppEnabledExtensionNames = &push_ext;
    VKDML_VK_TRY(vkCreateDevice(s->physical_device, &dci, nullptr, &s->device));
    s->features = {info.shader_int64, info.shader_float64, info.storage_buffer_8bit,
                   info.storage_buffer_16bit, info.subgroup_extended_types};
    if (auto st = finish_setup(*s); !st) return st.error();
    return detail::ApiAccess::make_device(std::move(s));
}

Result<std::shared_ptr<Device>> Device::adopt(VkInstance instance, VkPhysicalDevice physical_device,
                                              VkDevice device, uint32_t queue_family_index, VkQueue queue,
                                              PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                              const VkPhysicalDeviceFeatures2* enabled_features) {
    if (!instance || !physical_device || !device || !queue || !get_instance_proc_addr)
        return make_error(ErrorCode::invalid_argument,
                          "Device::adopt needs a non-null instance, physical device, device, queue and "
                          "vkGetInstanceProcAddr");
    std::lock_guard lock(instance_functions_mutex());
    volkInitializeCustom(get_instance_proc_addr);
    volkLoadInstanceOnly(instance);
    auto s = std::make_shared<DeviceState>();
    s->instance = instance;
    s->get_instance_proc_addr = get_instance_proc_addr;
    s->physical_device = physical_device;
    s->device = device;
    s->queue_family = queue_family_index;
    s->queue = queue;
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &family_count, families.data());
    if (queue_family_index >= family_count ||
        !(families[queue_family_index].queueFlags & VK_QUEUE_COMPUTE_BIT))
        return make_error(ErrorCode::invalid_argument, "Device::adopt: queue family ", queue_family_index,
                          " does not exist or has no compute capability (", family_count, " families)");
    s->info = detail::query_device_info(physical_device, 0);
    if (auto st = check_api_version(s->info.physical); !st) return st.error();
    s->serial_kernels = s->info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    if (enabled_features) {
        s->features.shader_int64 = enabled_features->features.shaderInt64;
        s->features.shader_float64 = enabled_features->features.shaderFloat64;
        for (auto* n = static_cast<const VkBaseInStructure*>(enabled_features->pNext); n; n = n->pNext) {
            switch (n->sType) {
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan11Features*>(n);
                s->features.storage_buffer_16bit |= f->storageBuffer16BitAccess == VK_TRUE;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(n);
                s->features.storage_buffer_8bit |= f->storageBuffer8BitAccess == VK_TRUE;
                s->features.subgroup_extended_types |= f->shaderSubgroupExtendedTypes == VK_TRUE;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDevice16BitStorageFeatures*>(n);
                s->features.storage_buffer_16bit |= f->storageBuffer16BitAccess == VK_TRUE;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDevice8BitStorageFeatures*>(n);
                s->features.storage_buffer_8bit |= f->storageBuffer8BitAccess == VK_TRUE;
                break;
            }
            case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES: {
                auto* f = reinterpret_cast<const VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures*>(n);
                s->features.subgroup_extended_types |= f->shaderSubgroupExtendedTypes == VK_TRUE;
                break;
            }
            default: break;
            }
        }
    }
    if (auto st = finish_setup(*s); !st) return st.error();
    return detail::ApiAccess::make_device(std::move(s));
}

}  // namespace vkdml
