// The Vulkan features a data type needs, against those a device has enabled (see device_caps.hpp).
#include "core/device_caps.hpp"

#include "core/data_types.hpp"

#include <string_view>
#include <utility>

namespace vkdml::detail {

const char* missing_feature(const EnabledFeatures& f, DML_TENSOR_DATA_TYPE type) {
    const TypeInfo* info = type_info(type);
    if (!info) return nullptr;
    const std::pair<std::string_view, bool> enabled[] = {
        {"shaderInt64", f.shader_int64},
        {"shaderFloat64", f.shader_float64},
        {"storageBuffer8BitAccess", f.storage_buffer_8bit},
        {"storageBuffer16BitAccess", f.storage_buffer_16bit},
        {"shaderSubgroupExtendedTypes", f.subgroup_extended_types}};
    for (const char* feature : info->features) {
        if (!feature) break;
        for (const auto& [name, on] : enabled)
            if (name == feature && !on) return feature;
    }
    return nullptr;
}

}  // namespace vkdml::detail
