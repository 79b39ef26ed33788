// Device::create and Device::enumerate: an instance and device of vkdml's own, step by step.
#include "core/errors.hpp"
#include "core/policy_tuning.hpp"
#include "vulkan/device_info.hpp"
#include "vulkan/device_setup.hpp"
#include "vulkan/pipeline_cache.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace vkdml {

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

/// Lowers the byte limit `device` (named `name` in DeviceOverrides::limits) to `wanted` (0: kept), which
/// must lie in [least, device].
Status lower_bytes(const char* name, uint64_t wanted, uint64_t least, uint64_t& device) {
    if (wanted == 0) return {};
    if (wanted > device || wanted < least)
        return make_error(ErrorCode::invalid_argument, "DeviceOverrides::limits.", name, " is ", wanted,
                          "; it must be 0 or from ", least, " to the device's ", device);
    device = wanted;
    return {};
}

/// Lowers the planning limits to DeviceOverrides::limits.
Status apply_limits(const testing::DeviceOverrides::Limits& limits, DeviceInfo& info) {
    const uint64_t least_range = 64 + std::max<uint64_t>(16, info.min_storage_buffer_offset_alignment);
    if (auto st = lower_bytes("max_storage_buffer_range", limits.max_storage_buffer_range, least_range,
                              info.max_storage_buffer_range);
        !st)
        return st;
    if (uint32_t count = limits.max_workgroup_count; count != 0) {
        uint32_t device_count = std::min(info.max_workgroup_count[0], info.max_workgroup_count[1]);
        if (count > device_count || count < 2)
            return make_error(ErrorCode::invalid_argument, "DeviceOverrides::limits.max_workgroup_count is ",
                              count, "; it must be 0 or from 2 to the device's ", device_count);
        for (uint32_t& c : info.max_workgroup_count) c = std::min(c, count);
    }
    if (uint32_t least = limits.min_subgroup_size; least != 0) {
        if (least > info.min_subgroup_size || !std::has_single_bit(least))
            return make_error(ErrorCode::invalid_argument, "DeviceOverrides::limits.min_subgroup_size is ",
                              least, "; it must be 0 or a power of two up to the device's ",
                              info.min_subgroup_size);
        info.min_subgroup_size = least;
    }
    return lower_bytes("max_memory_allocation_size", limits.max_memory_allocation_size, least_range,
                       info.max_memory_allocation_size);
}

/// The physical devices of an instance, in vkEnumeratePhysicalDevices order.
std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> pds(count);
    vkEnumeratePhysicalDevices(instance, &count, pds.data());
    return pds;
}

/// What detail::describe reports of each physical device, with its index in `pds`.
std::vector<PhysicalDeviceInfo> describe_all(const std::vector<VkPhysicalDevice>& pds) {
    std::vector<PhysicalDeviceInfo> infos;
    for (uint32_t i = 0; i < pds.size(); ++i) infos.push_back(detail::describe(pds[i], i));
    return infos;
}

/// The messenger create() installs with validation: warnings and errors, passed to on_debug_message.
VkDebugUtilsMessengerCreateInfoEXT messenger_info(DeviceState& s) {
    VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    ci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    ci.pfnUserCallback = on_debug_message;
    ci.pUserData = &s;
    return ci;
}

/// Loads the instance functions of s.instance into volk and keeps the destroy functions it needs.
Status load_instance_functions(DeviceState& s, const VkDebugUtilsMessengerCreateInfoEXT* messenger_ci) {
    volkLoadInstanceOnly(s.instance);
    s.get_instance_proc_addr = vkGetInstanceProcAddr;
    s.destroy_instance =
        reinterpret_cast<PFN_vkDestroyInstance>(vkGetInstanceProcAddr(s.instance, "vkDestroyInstance"));
    if (messenger_ci) {
        s.destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(s.instance, "vkDestroyDebugUtilsMessengerEXT"));
        VKDML_VK_TRY(vkCreateDebugUtilsMessengerEXT(s.instance, messenger_ci, s.allocator, &s.messenger));
    }
    return {};
}

/// create(), step 1: the instance (with the validation layer and its messenger when asked for).
Status create_instance(DeviceState& s, bool validation) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkdml";
    app.apiVersion = VK_API_VERSION_1_2;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    const VkDebugUtilsMessengerCreateInfoEXT messenger_ci = messenger_info(s);
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (validation) {
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
    if (auto st = detail::create_instance(ici, s.instance, s.allocator); !st) return st;
    return load_instance_functions(s, validation ? &messenger_ci : nullptr);
}

/// create(), step 2: the physical device the selector (or VKDML_DEVICE) names, or the best, and its info.
Status pick_physical_device(DeviceState& s, const std::string& option_selector) {
    const std::vector<VkPhysicalDevice> pds = physical_devices(s.instance);
    std::string selector = option_selector;
    if (selector.empty())
        if (const char* env = std::getenv("VKDML_DEVICE")) selector = env;
    auto chosen = choose(describe_all(pds), selector);
    if (!chosen) return chosen.error();
    s.physical_device = pds[*chosen];
    s.caps.info = detail::query_device_info(s.physical_device, *chosen);
    return detail::check_api_version(s.caps.info.physical);
}

/// The planners' rows for a test device's DeviceOverrides::policy_class (any value but automatic and cpu:
/// the GPU rows).
detail::PolicyRows policy_rows(testing::DeviceOverrides::PolicyClass c) {
    using Class = testing::DeviceOverrides::PolicyClass;
    if (c == Class::automatic) return detail::PolicyRows::automatic;
    return c == Class::cpu ? detail::PolicyRows::cpu : detail::PolicyRows::gpu;
}

/// create(), step 3: what DeviceOptions turns off (subgroups) or tunes (the rows' knobs) and a test device's
/// overrides force or lower (kernels, policy rows, features, limits).
Status apply_options(DeviceState& s, const DeviceOptions& options, const testing::DeviceOverrides& o) {
    if (!options.subgroup_operations) s.caps.info.subgroup_arithmetic = s.caps.info.subgroup_shuffle = false;
    s.caps.policy.kernels = o.kernels;
    s.caps.policy.rows = policy_rows(o.policy_class);
    s.caps.policy.chained_spin_limit =
        o.chained_scan_always_falls_back ? std::optional<uint32_t>(0) : o.chained_scan_spin_limit;
    s.caps.info.shader_int64 &= o.features.shader_int64;
    s.caps.info.shader_float64 &= o.features.shader_float64;
    s.caps.info.storage_buffer_8bit &= o.features.storage_buffer_8bit;
    s.caps.info.storage_buffer_16bit &= o.features.storage_buffer_16bit;
    s.caps.info.subgroup_extended_types &= o.features.subgroup_extended_types;
    s.caps.info.full_subgroups &= o.features.subgroup_size_control;
    if (auto st = apply_limits(o.limits, s.caps.info); !st) return st;
    // The tuning against the rows this device plans with (those the limits and features above leave).
    if (auto st = detail::check_tuning(options.tuning, detail::select_policy(s.caps.plan_target()),
                                       "DeviceOptions::tuning: ");
        !st)
        return st;
    s.caps.policy.tuning = options.tuning;
    return {};
}

/// create(), step 4: the first queue family with compute capability.
Status pick_queue_family(DeviceState& s) {
    uint32_t qcount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(s.physical_device, &qcount, nullptr);
    std::vector<VkQueueFamilyProperties> families(qcount);
    vkGetPhysicalDeviceQueueFamilyProperties(s.physical_device, &qcount, families.data());
    for (uint32_t i = 0; i < qcount; ++i) {
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            s.queue_family = i;
            return {};
        }
    }
    return make_error(ErrorCode::unsupported_device, "device \"", s.caps.info.physical.name,
                      "\" has no compute queue");
}

/// The features create_logical_device enables, chained for VkDeviceCreateInfo::pNext (features ->
/// f11 -> f12 [-> subgroup size control]): those s.caps.info still lists once apply_options has masked them.
/// Not copyable (the chain points into itself).
struct FeatureChain {
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT size_control{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};

    explicit FeatureChain(const DeviceInfo& info) {
        f12.storageBuffer8BitAccess = info.storage_buffer_8bit;
        f12.shaderSubgroupExtendedTypes = info.subgroup_extended_types;
        f11.storageBuffer16BitAccess = info.storage_buffer_16bit;
        features.features.shaderInt64 = info.shader_int64;
        features.features.shaderFloat64 = info.shader_float64;
        if (info.full_subgroups) {
            size_control.subgroupSizeControl = size_control.computeFullSubgroups = VK_TRUE;
            f12.pNext = &size_control;
        }
    }
    FeatureChain(const FeatureChain&) = delete;
    FeatureChain& operator=(const FeatureChain&) = delete;
};

/// create(), step 5: the logical device, with one queue, VK_KHR_push_descriptor and the features of
/// FeatureChain; records them as s.caps.features.
Status create_logical_device(DeviceState& s) {
    if (!detail::has_device_extension(s.physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return make_error(ErrorCode::unsupported_device, "device \"", s.caps.info.physical.name,
                          "\" lacks VK_KHR_push_descriptor, which vkdml records its bindings with");
    const DeviceInfo& info = s.caps.info;
    const FeatureChain chain(info);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = s.queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    const char* extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME,
                                VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &chain.features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = info.full_subgroups ? 2 : 1;
    dci.ppEnabledExtensionNames = extensions;
    VKDML_VK_TRY(vkCreateDevice(s.physical_device, &dci, s.allocator, &s.device));
    s.caps.features = {info.shader_int64,         info.shader_float64,          info.storage_buffer_8bit,
                       info.storage_buffer_16bit, info.subgroup_extended_types, info.full_subgroups,
                       info.full_subgroups};
    return {};
}

}  // namespace

Result<std::vector<PhysicalDeviceInfo>> Device::enumerate() {
    std::lock_guard lock(detail::instance_functions_mutex());
    if (auto st = detail::load_vulkan_loader(); !st) return st.error();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (auto st = detail::create_instance(ci, instance); !st) return st.error();
    volkLoadInstanceOnly(instance);
    std::vector<PhysicalDeviceInfo> out = describe_all(physical_devices(instance));
    vkDestroyInstance(instance, nullptr);
    return out;
}

namespace detail {

Result<std::shared_ptr<Device>> create_device(const DeviceOptions& options,
                                              const testing::DeviceOverrides& overrides) {
    std::lock_guard lock(detail::instance_functions_mutex());
    if (auto st = detail::load_vulkan_loader(); !st) return st.error();
    auto s = std::make_shared<DeviceState>();
    s->owns_handles = true;
    s->allocator = options.allocation_callbacks;
    s->on_validation_message = options.on_validation_message;
    if (auto st = vkdml::create_instance(*s, options.validation); !st) return st.error();
    if (auto st = vkdml::pick_physical_device(*s, options.selector); !st) return st.error();
    if (auto st = vkdml::apply_options(*s, options, overrides); !st) return st.error();
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(s->physical_device, &properties);
    if (detail::cache_data_fits(options.pipeline_cache_data, properties))
        s->initial_cache_data = options.pipeline_cache_data;
    if (auto st = vkdml::pick_queue_family(*s); !st) return st.error();
    if (auto st = vkdml::create_logical_device(*s); !st) return st.error();
    if (auto st = detail::finish_setup(*s); !st) return st.error();
    return detail::ApiAccess::make_device(std::move(s));
}

}  // namespace detail

Result<std::shared_ptr<Device>> Device::create(const DeviceOptions& options) {
    return detail::create_device(options, {});
}

}  // namespace vkdml
