// The test bench of vkdml/testing.hpp, compiled only with VKDML_TESTING_HOOKS: test devices with
// overrides, the pipeline cache's size, and arming the fault injector.
#include "vkdml/testing.hpp"

#include "front/api_access.hpp"
#include "vulkan/device_setup.hpp"
#include "vulkan/pipeline_cache.hpp"

namespace vkdml::testing {

Result<std::shared_ptr<Device> > create_device(const DeviceOptions& options,
                                               const DeviceOverrides& overrides) {
    return detail::create_device(options, overrides);
}

size_t pipeline_count(const Device& device) {
    return detail::ApiAccess::state(device)->pipelines->size();
}

void fail_vulkan_call(const Device& device, VulkanCall call, VkResult result, uint32_t skip) {
    detail::ApiAccess::state(device)->faults.arm(call, result, skip);
}

void clear_vulkan_faults(const Device& device) {
    detail::ApiAccess::state(device)->faults.clear();
}

}  // namespace vkdml::testing
