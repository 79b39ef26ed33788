// Fault injection (vkdml/testing.hpp; armed by testing_hooks.cpp) and the lost-device state.
#include "core/errors.hpp"
#include "vulkan/device_state.hpp"

namespace vkdml {

namespace detail {

#ifdef VKDML_TESTING_HOOKS
void FaultInjector::arm(testing::VulkanCall call, VkResult result, uint32_t skip) {
    const auto i = static_cast<size_t>(call);
    if (i >= slots_.size() || result == VK_SUCCESS) return;
    std::lock_guard lock(mutex_);
    slots_[i] = {true, skip, result};
    armed_.store(true, std::memory_order_relaxed);
}

void FaultInjector::clear() {
    std::lock_guard lock(mutex_);
    slots_ = {};
    armed_.store(false, std::memory_order_relaxed);
}

VkResult FaultInjector::take_slow(testing::VulkanCall call) {
    std::lock_guard lock(mutex_);
    Slot& slot = slots_[static_cast<size_t>(call)];
    if (!slot.armed) return VK_SUCCESS;
    if (slot.skip > 0) {
        --slot.skip;
        return VK_SUCCESS;
    }
    slot.armed = false;
    return slot.result;
}
#endif

Status check_not_lost(const DeviceState& device) {
    if (device.lost.load(std::memory_order_acquire))
        return make_error(ErrorCode::device_lost, "device \"", device.caps.info.physical.name,
                          "\" was lost (VK_ERROR_DEVICE_LOST) and can run nothing more; create a new "
                          "vkdml::Device");
    return {};
}

Error device_vk_error(DeviceState& device, VkResult result, const char* call) {
    if (result == VK_ERROR_DEVICE_LOST) device.lost.store(true, std::memory_order_release);
    return vk_error(result, call);
}

}  // namespace detail

}  // namespace vkdml
