// What validation and planning need of a device, without the device: its DeviceInfo, the optional Vulkan
// features enabled on it and the overrides of its policy. A DeviceState holds one; describe_plan makes
// one for a device class.
#pragma once

#include "core/policy.hpp"
#include "core/policy_override.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::detail {

/// The Vulkan features vkdml may use, as enabled on the device.
struct EnabledFeatures {
    bool shader_int64 = false;
    bool shader_float64 = false;
    bool storage_buffer_8bit = false;
    bool storage_buffer_16bit = false;
    bool subgroup_extended_types = false;
    bool subgroup_size_control = false;   ///< subgroupSizeControl
    bool compute_full_subgroups = false;  ///< computeFullSubgroups
};

/// Returns the name of the first Vulkan feature a data type needs and the device lacks, or nullptr.
const char* missing_feature(const EnabledFeatures& features, DML_TENSOR_DATA_TYPE type);

/// A device as validation and the planners see it.
struct DeviceCaps {
    DeviceInfo info;
    EnabledFeatures features;
    /// The overrides of the policy the planners take (select_policy): a test device's DeviceOverrides, a
    /// PlanDevice's kernels (automatic on every other device).
    PolicyOverride policy;

    /// What the planners know of this device (refers to `info`).
    PlanTarget plan_target() const {
        return {info, policy.kernels, policy.rows, policy.chained_spin_limit, policy.tuning};
    }
};

}  // namespace vkdml::detail
