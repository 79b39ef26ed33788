// tools/cli/cmd_info.cpp — `vkdml info`: the Vulkan devices, the chosen one's limits, and which data types
// each operator supports on it, as text or (--json) as one JSON document.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/host_ops.hpp"
#include "vkdml/version.hpp"

namespace vkdml::cli {
namespace {

const char* device_type_name(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

// The determinism guarantee as docs/SPEC.md states it ("Determinism across devices"), in two parts.
constexpr const char* kExactEverywhere =
    "the same bits on every device: integer results, MIN, MAX, ARGMIN, ARGMAX, ANY, ALL, COUNT_NONZERO, the "
    "cumulative maximum and minimum";
constexpr const char* kFloatsCanonical =
    "float sums, products and log-sum-exps, cumulative and REDUCE: the same bits everywhere, by one fixed "
    "association (but where a device flushes subnormals, or 32 steps of a line span more than its "
    "storage buffer range)";

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

// "serial-cpu rows", "cooperative-gpu rows tuned scan.tile_workgroup=512" (the tool's VKDML_TOOL_TUNE).
std::string rows_text(const Device& device) {
    const std::string tuning = format_tuning(tool_tuning());
    return std::string(device.policy_rows()) + " rows" + (tuning.empty() ? "" : " tuned " + tuning);
}

void print_limits(const Device& device) {
    const DeviceInfo& info = device.info();
    const PhysicalDeviceInfo& p = info.physical;
    std::printf("\n%s (Vulkan %u.%u.%u, vendor 0x%04x, device 0x%04x)\n", p.name.c_str(),
                VK_API_VERSION_MAJOR(p.api_version), VK_API_VERSION_MINOR(p.api_version),
                VK_API_VERSION_PATCH(p.api_version), p.vendor_id, p.device_id);
    std::printf("  subgroup size                %u (arithmetic: %s, extended types: %s)\n",
                info.subgroup_size, yes_no(info.subgroup_arithmetic), yes_no(info.subgroup_extended_types));
    std::printf("  subgroup sizes               %u to %u; full subgroups %s\n", info.min_subgroup_size,
                info.max_subgroup_size,
                info.full_subgroups                                ? "required (cooperative kernels)"
                : info.min_subgroup_size == info.max_subgroup_size ? "not required (one size only)"
                                                                   : "not available: serial kernels only");
    std::printf("  plans with                   %s\n", rows_text(device).c_str());
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
    if (info.compute_units > 0)
        std::printf("  compute units                %u\n", info.compute_units);
    else
        std::printf("  compute units                not stated by the driver\n");
    std::printf("  shared memory                %u bytes\n", info.max_shared_memory_bytes);
    std::printf("  push constants               %u bytes\n", info.max_push_constants_bytes);
    std::printf("  timestamps                   %s (period %g ns)\n", yes_no(info.timestamps),
                static_cast<double>(info.timestamp_period_ns));
    std::printf(
        "  shaderInt64 %s, shaderFloat64 %s, storageBuffer8BitAccess %s, storageBuffer16BitAccess %s\n",
        yes_no(info.shader_int64), yes_no(info.shader_float64), yes_no(info.storage_buffer_8bit),
        yes_no(info.storage_buffer_16bit));
    std::printf("  subnormals kept              float16 %s, float32 %s, float64 %s (DenormPreserve)\n",
                yes_no(info.denorm_preserve_float16), yes_no(info.denorm_preserve_float32),
                yes_no(info.denorm_preserve_float64));
    std::printf("  determinism                  %s;\n%31s%s (docs/SPEC.md)\n", kExactEverywhere, "",
                kFloatsCanonical);
}

// A type's column heading: numpy's letter and bits (f32 is FLOAT32, u8 UINT8, i64 INT64).
std::string short_type_name(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo* t = type_info(type);
    return t ? t->numpy_kind + std::to_string(8 * t->size) : std::string("?");
}

// One row per operator and one column per type, "yes" or "no"; the reason for each "no" under the table,
// once per reason with the cells it explains.
void print_type_support(const Device& device) {
    const std::span<const DML_TENSOR_DATA_TYPE> types = all_data_types();
    std::printf("\ntypes%21s", "");
    for (size_t i = 0; i < types.size(); ++i)
        std::printf(i + 1 < types.size() ? "%-4s" : "%s\n", short_type_name(types[i]).c_str());
    std::vector<std::pair<std::string, std::string>> reasons;  // (reason, the cells it explains)
    for (const OperatorInfo& info : operators()) {             // the operator table's, in its order
        std::printf("  %-24s", to_string(info.type));
        for (size_t i = 0; i < types.size(); ++i) {
            const TypeSupport support = device.supports(info.type, types[i]);
            std::printf(i + 1 < types.size() ? "%-4s" : "%s", support.supported ? "yes" : "no");
            if (support.supported) continue;
            const std::string cell = short_type_name(types[i]) + " " + to_string(info.type);
            auto it = std::find_if(reasons.begin(), reasons.end(),
                                   [&](const auto& r) { return r.first == support.reason; });
            if (it == reasons.end())
                reasons.emplace_back(support.reason, cell);
            else
                it->second += ", " + cell;
        }
        std::printf("\n");
    }
    std::printf("  (f: float, i: signed, u: unsigned integer; then its bits)\n");
    for (const auto& [reason, cells] : reasons) std::printf("  no (%s): %s\n", cells.c_str(), reason.c_str());
}

using Json = nlohmann::ordered_json;

std::string vulkan_version(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

// The same facts as the text, keyed as DeviceInfo names them.
Json info_json(const std::vector<PhysicalDeviceInfo>& devices, const Device& device) {
    const DeviceInfo& info = device.info();
    Json doc;
    doc["vkdml"] = {{"version", VKDML_VERSION_STRING},
                    {"determinism", {{"exact", kExactEverywhere}, {"floats", kFloatsCanonical}}}};
    Json& list = doc["devices"] = Json::array();
    for (const PhysicalDeviceInfo& d : devices)
        list.push_back({{"index", d.index},
                        {"name", d.name},
                        {"type", device_type_name(d.type)},
                        {"driver", d.driver_name},
                        {"driver_info", d.driver_info},
                        {"chosen", d.index == info.physical.index}});
    const PhysicalDeviceInfo& p = info.physical;
    doc["chosen"] = {
        {"index", p.index},
        {"name", p.name},
        {"vulkan", vulkan_version(p.api_version)},
        {"vendor_id", p.vendor_id},
        {"device_id", p.device_id},
        {"policy_rows", device.policy_rows()},
        {"tuning", format_tuning(tool_tuning())},
        {"subgroup_size", info.subgroup_size},
        {"subgroup_arithmetic", info.subgroup_arithmetic},
        {"min_subgroup_size", info.min_subgroup_size},
        {"max_subgroup_size", info.max_subgroup_size},
        {"full_subgroups", info.full_subgroups},
        {"max_workgroup_subgroups", info.max_workgroup_subgroups},
        {"subgroup_extended_types", info.subgroup_extended_types},
        {"max_storage_buffer_range", info.max_storage_buffer_range},
        {"max_memory_allocation_size", info.max_memory_allocation_size},
        {"max_buffer_size", info.max_buffer_size},
        {"host_visible_heap", info.host_visible_heap},
        {"min_storage_buffer_offset_alignment", info.min_storage_buffer_offset_alignment},
        {"max_workgroup_count",
         {info.max_workgroup_count[0], info.max_workgroup_count[1], info.max_workgroup_count[2]}},
        {"max_workgroup_invocations", info.max_workgroup_invocations},
        {"compute_units", info.compute_units},
        {"max_shared_memory_bytes", info.max_shared_memory_bytes},
        {"max_push_constants_bytes", info.max_push_constants_bytes},
        {"timestamps", info.timestamps},
        {"timestamp_period_ns", info.timestamp_period_ns},
        {"shader_int64", info.shader_int64},
        {"shader_float64", info.shader_float64},
        {"storage_buffer_8bit", info.storage_buffer_8bit},
        {"storage_buffer_16bit", info.storage_buffer_16bit},
        {"denorm_preserve_float16", info.denorm_preserve_float16},
        {"denorm_preserve_float32", info.denorm_preserve_float32},
        {"denorm_preserve_float64", info.denorm_preserve_float64},
    };
    Json& support = doc["support"] = Json::object();
    for (const OperatorInfo& op_info : operators())
        for (DML_TENSOR_DATA_TYPE type : all_data_types()) {
            const DML_OPERATOR_TYPE op = op_info.type;
            const TypeSupport s = device.supports(op, type);
            Json entry = {{"supported", s.supported}};
            if (!s.supported) entry["reason"] = s.reason;
            support[to_string(op)][to_string(type)] = entry;
        }
    return doc;
}

void define_info(CLI::App& app) {
    add_device_option(app);
    add_switch(app, "--json", "print one JSON document instead of the text");
}

void run_info(const Args& args) {
    const auto devices = take(Device::enumerate());
    auto device = Device::create(device_options(args));
    if (args.has("--json")) {
        if (!device) fail(device.error().message);
        std::printf("%s\n",
                    info_json(devices, **device).dump(1, ' ', false, Json::error_handler_t::replace).c_str());
        return;
    }
    print_devices(devices, device ? device->get() : nullptr);
    if (!device) fail(device.error().message);
    print_limits(**device);
    print_type_support(**device);
}

}  // namespace

extern const Command kInfoCommand = {
    "info",
    "List the Vulkan devices, the chosen one's limits and its types per operator.",
    {},
    define_info,
    run_info};

}  // namespace vkdml::cli
