// Physical-device queries shared by device creation, adoption and enumeration.
#include "vulkan/device_info.hpp"

#include "core/errors.hpp"
#include "core/float_controls.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

namespace vkdml::detail {

namespace {

/// Why no device exists when the loader itself is missing, with what to install on each system.
#ifdef _WIN32
constexpr const char* kLoaderMissing =
    "the Vulkan loader (vulkan-1.dll) could not be loaded; install a Vulkan driver (it brings the loader) or "
    "the Vulkan runtime";
#else
constexpr const char* kLoaderMissing =
    "the Vulkan loader (libvulkan.so.1) could not be loaded; install libvulkan1 and a Vulkan driver "
    "(mesa-vulkan-drivers provides the lavapipe CPU device)";
#endif

}  // namespace

Status create_instance(const VkInstanceCreateInfo& info, VkInstance& instance,
                       const VkAllocationCallbacks* allocator) {
    const VkResult result = vkCreateInstance(&info, allocator, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        return make_error(
            ErrorCode::no_device,
            "no Vulkan driver was found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); install "
            "one: mesa-vulkan-drivers for the lavapipe CPU device, or your GPU's driver (and check "
            "VK_DRIVER_FILES or VK_ICD_FILENAMES, if set)");
    if (result != VK_SUCCESS) return vk_error(result, "vkCreateInstance");
    return {};
}

Status load_vulkan_loader() {
    static std::once_flag once;
    static VkResult result = VK_ERROR_INITIALIZATION_FAILED;
    static PFN_vkGetInstanceProcAddr loader_entry = nullptr;
    std::call_once(once, [] {
        result = volkInitialize();
        if (result == VK_SUCCESS) loader_entry = vkGetInstanceProcAddr;
    });
    if (result != VK_SUCCESS) return make_error(ErrorCode::no_device, kLoaderMissing);
    // Device::adopt points volk's global functions at the adopter's vkGetInstanceProcAddr (a layer's,
    // say): an instance of vkdml's own is created through the loader's again.
    volkInitializeCustom(loader_entry);
    return {};
}

PhysicalDeviceInfo describe(VkPhysicalDevice physical_device, uint32_t index) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
    vkGetPhysicalDeviceProperties2(physical_device, &props);
    PhysicalDeviceInfo info;
    info.index = index;
    info.name = props.properties.deviceName;
    info.type = props.properties.deviceType;
    info.api_version = props.properties.apiVersion;
    info.vendor_id = props.properties.vendorID;
    info.device_id = props.properties.deviceID;
    info.driver_name = driver.driverName;
    info.driver_info = driver.driverInfo;
    return info;
}

bool has_device_extension(VkPhysicalDevice physical_device, const char* name) {
    uint32_t count = 0;
    if (vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS)
        return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()) !=
        VK_SUCCESS)
        return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

namespace {

/// Multiprocessors, where one of the vendor extensions that state them is supported (0 otherwise).
uint32_t query_compute_units(VkPhysicalDevice physical_device) {
    auto has = [&](const char* name) { return has_device_extension(physical_device, name); };
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    VkPhysicalDeviceShaderCoreProperties2AMD amd2{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_2_AMD};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    if (has(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
        props.pNext = &nv;
    } else if (has(VK_AMD_SHADER_CORE_PROPERTIES_2_EXTENSION_NAME)) {
        props.pNext = &amd2;  // the active units (harvested parts have fewer than the layout says)
    } else if (has(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
        props.pNext = &amd;
    } else {
        return 0;
    }
    vkGetPhysicalDeviceProperties2(physical_device, &props);
    if (props.pNext == &nv) return nv.shaderSMCount;
    if (props.pNext == &amd2) return amd2.activeComputeUnitCount;
    return amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
}

/// The subgroup sizes compute shaders may run with, and whether a pipeline can require one size and full
/// subgroups (VK_EXT_subgroup_size_control: subgroupSizeControl, computeFullSubgroups, the compute stage
/// in requiredSubgroupSizeStages). Without the extension: the one size the device reports, not required.
void query_subgroup_size_control(VkPhysicalDevice physical_device, DeviceInfo& info) {
    info.min_subgroup_size = info.max_subgroup_size = info.subgroup_size;
    info.full_subgroups = false;
    if (!has_device_extension(physical_device, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME)) return;
    VkPhysicalDeviceSubgroupSizeControlPropertiesEXT props{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
    vkGetPhysicalDeviceProperties2(physical_device, &p2);
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT features{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
    vkGetPhysicalDeviceFeatures2(physical_device, &f2);
    if (props.minSubgroupSize > 0 && props.maxSubgroupSize >= props.minSubgroupSize) {
        info.min_subgroup_size = props.minSubgroupSize;
        info.max_subgroup_size = props.maxSubgroupSize;
    }
    info.max_workgroup_subgroups = props.maxComputeWorkgroupSubgroups;
    info.full_subgroups = features.subgroupSizeControl && features.computeFullSubgroups &&
                          (props.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                          info.subgroup_size >= info.min_subgroup_size &&
                          info.subgroup_size <= info.max_subgroup_size;
}

}  // namespace

DeviceInfo query_device_info(VkPhysicalDevice physical_device, uint32_t index) {
    DeviceInfo info;
    info.compute_units = query_compute_units(physical_device);
    info.physical = describe(physical_device, index);

    VkPhysicalDeviceMaintenance4Properties m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
    m4.maxBufferSize = UINT64_MAX;  // before Vulkan 1.3: no stated limit
    const bool has_m4 = info.physical.api_version >= VK_API_VERSION_1_3;
    VkPhysicalDeviceFloatControlsProperties float_controls{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES, has_m4 ? &m4 : nullptr};
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
                                           &float_controls};
    VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                              &p11};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &m3};
    vkGetPhysicalDeviceProperties2(physical_device, &props);
    const VkPhysicalDeviceLimits& limits = props.properties.limits;
    info.subgroup_size = p11.subgroupSize;
    info.subgroup_arithmetic = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                               (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                               (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
    info.subgroup_shuffle = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                            (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
    info.max_storage_buffer_range = limits.maxStorageBufferRange;
    for (int i = 0; i < 3; ++i) info.max_workgroup_count[i] = limits.maxComputeWorkGroupCount[i];
    info.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
    info.max_shared_memory_bytes = limits.maxComputeSharedMemorySize;
    info.max_push_constants_bytes = limits.maxPushConstantsSize;
    info.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;
    info.max_memory_allocation_size = m3.maxMemoryAllocationSize;
    info.max_buffer_size = m4.maxBufferSize;
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical_device, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        if (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
            info.host_visible_heap =
                std::max(info.host_visible_heap, memory.memoryHeaps[memory.memoryTypes[i].heapIndex].size);
    const FloatWidths kept = denorm_preserve_widths(float_controls);
    info.denorm_preserve_float16 = kept.f16;
    info.denorm_preserve_float32 = kept.f32;
    info.denorm_preserve_float64 = kept.f64;
    info.timestamps = limits.timestampComputeAndGraphics == VK_TRUE;
    info.timestamp_period_ns = limits.timestampPeriod;

    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
    vkGetPhysicalDeviceFeatures2(physical_device, &features);
    info.shader_int64 = features.features.shaderInt64 == VK_TRUE;
    info.shader_float64 = features.features.shaderFloat64 == VK_TRUE;
    info.storage_buffer_16bit = f11.storageBuffer16BitAccess == VK_TRUE;
    info.storage_buffer_8bit = f12.storageBuffer8BitAccess == VK_TRUE;
    info.subgroup_extended_types = f12.shaderSubgroupExtendedTypes == VK_TRUE;
    query_subgroup_size_control(physical_device, info);
    return info;
}

int device_type_rank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

}  // namespace vkdml::detail
