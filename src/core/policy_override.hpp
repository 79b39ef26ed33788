// What may override the policy select_policy picks for a device: the kernel family, the rows of a device
// class, the chained scan's spin limit and the rows' knobs (a Tuning). Core's own types: a test device's
// DeviceOverrides are translated to them where the device is created.
#pragma once

#include "vkdml/profiling.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vkdml::detail {

/// Which device class's policy rows plan for a device. automatic: the CPU rows on CPU devices
/// (VK_PHYSICAL_DEVICE_TYPE_CPU), the GPU rows on every other; cpu or gpu: that class's rows on any.
enum class PolicyRows : uint8_t { automatic, cpu, gpu };

/// The overrides of one device's policy: a test device's DeviceOverrides (kernels, policy_class, the
/// chained scan's spin limit), a PlanDevice's kernels; automatic on every other device.
struct PolicyOverride {
    KernelChoice kernels = KernelChoice::automatic;
    PolicyRows rows = PolicyRows::automatic;
    /// DeviceOverrides::chained_scan_spin_limit (0 where chained_scan_always_falls_back)
    std::optional<uint32_t> chained_spin_limit;
    /// DeviceOptions::tuning: settings of the rows' knobs (policy_tuning.hpp), checked against them
    std::vector<Tuning> tuning;
};

}  // namespace vkdml::detail
