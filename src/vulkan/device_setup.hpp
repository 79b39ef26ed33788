// What Device::create (device_create.cpp) and Device::adopt (device.cpp) share.
#pragma once

#include "vkdml/testing.hpp"
#include "vulkan/device_state.hpp"

#include <mutex>

namespace vkdml::detail {

/// Guards volk's process-wide instance-level function pointers, which create(), adopt() and
/// enumerate() load for their instance and then call: one of them at a time.
std::mutex& instance_functions_mutex();

/// Everything both create() and adopt() do once the handles exist: the device functions, the memory
/// properties, the queue, the pipeline cache. Fails when VK_KHR_push_descriptor is not enabled.
Status finish_setup(DeviceState& s);

/// Device::create with a test device's overrides (testing::create_device; none for Device::create).
Result<std::shared_ptr<Device>> create_device(const DeviceOptions& options,
                                              const testing::DeviceOverrides& overrides);

/// unsupported_device for a device below Vulkan 1.2.
Status check_api_version(const PhysicalDeviceInfo& info);

}  // namespace vkdml::detail
