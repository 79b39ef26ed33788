// tools/cmd_info.cpp — `vkdml info`: the Vulkan devices, the chosen one's limits, and which data types each
// operator supports on it.
#include <cstdio>

#include "commands.hpp"
#include "host_ops.hpp"

namespace vkdml::cli {
namespace {

// The operators whose type support `info` lists.
constexpr DML_OPERATOR_TYPE kOperators[] = {
    DML_OPERATOR_CUMULATIVE_SUMMATION,
    DML_OPERATOR_CUMULATIVE_PRODUCT,
    DML_OPERATOR_REDUCE,
    DML_OPERATOR_ARGMIN,
    DML_OPERATOR_ARGMAX,
};

const char* device_type_name(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

const char* yes_no(bool value) {
    return value ? "yes" : "no";
}

void print_devices(const std::vector<PhysicalDeviceInfo>& devices, const Device* chosen) {
    std::printf("devices (* = chosen):\n");
    for (const PhysicalDeviceInfo& d : devices) {
        const bool is_chosen = chosen && chosen->info().physical.index == d.index;
        std::printf("%c %2u  %-40s %-10s %s %s\n", is_chosen ? '*' : ' ', d.index, d.name.c_str(),
                    device_type_name(d.type), d.driver_name.c_str(), d.driver_info.c_str());
    }
}

void print_limits(const DeviceInfo& info) {
    const PhysicalDeviceInfo& p = info.physical;
    std::printf("\n%s (Vulkan %u.%u.%u, vendor 0x%04x, device 0x%04x)\n", p.name.c_str(),
                VK_API_VERSION_MAJOR(p.api_version), VK_API_VERSION_MINOR(p.api_version),
                VK_API_VERSION_PATCH(p.api_version), p.vendor_id, p.device_id);
    std::printf("  subgroup size                %u (arithmetic: %s, extended types: %s)\n",
                info.subgroup_size, yes_no(info.subgroup_arithmetic), yes_no(info.subgroup_extended_types));
    std::printf("  max storage buffer range     %llu bytes\n",
                static_cast<unsigned long long>(info.max_storage_buffer_range));
    std::printf("  max memory allocation        %llu bytes\n",
                static_cast<unsigned long long>(info.max_memory_allocation_size));
    std::printf("  max buffer size              %llu bytes\n",
                static_cast<unsigned long long>(info.max_buffer_size));
    std::printf("  host-visible heap            %llu bytes\n",
                static_cast<unsigned long long>(info.host_visible_heap));
    std::printf("  storage offset alignment     %llu bytes\n",
                static_cast<unsigned long long>(info.min_storage_buffer_offset_alignment));
    std::printf("  max workgroup count          %u x %u x %u\n", info.max_workgroup_count[0],
                info.max_workgroup_count[1], info.max_workgroup_count[2]);
    std::printf("  max workgroup invocations    %u\n", info.max_workgroup_invocations);
    std::printf("  shared memory                %u bytes\n", info.max_shared_memory_bytes);
    std::printf("  push constants               %u bytes\n", info.max_push_constants_bytes);
    std::printf("  timestamps                   %s (period %g ns)\n", yes_no(info.timestamps),
                static_cast<double>(info.timestamp_period_ns));
    std::printf(
        "  shaderInt64 %s, shaderFloat64 %s, storageBuffer8BitAccess %s, storageBuffer16BitAccess %s\n",
        yes_no(info.shader_int64), yes_no(info.shader_float64), yes_no(info.storage_buffer_8bit),
        yes_no(info.storage_buffer_16bit));
}

void print_type_support(const Device& device) {
    for (DML_OPERATOR_TYPE op : kOperators) {
        std::printf("\n%s\n", to_string(op));
        for (DML_TENSOR_DATA_TYPE type : all_data_types()) {
            const TypeSupport support = device.supports(op, type);
            std::printf("  %-8s %s%s\n", to_string(type),
                        support.supported ? "yes" : "no: ", support.reason.c_str());
        }
    }
}

void run_info(const Args& args) {
    const auto devices = take(Device::enumerate());
    auto device = Device::create(device_options(args));
    print_devices(devices, device ? device->get() : nullptr);
    if (!device) fail(device.error().message);
    print_limits((*device)->info());
    print_type_support(**device);
}

}  // namespace

extern const Command kInfoCommand = {
    "info",
    "List the Vulkan devices, the chosen one's limits and its types per operator.",
    {},
    add_device_option,
    run_info};

}  // namespace vkdml::cli
