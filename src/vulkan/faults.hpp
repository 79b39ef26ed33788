// Fault injection behind vkdml/testing.hpp, and the lost-device state every entry point checks.
#pragma once

#include "vkdml/testing.hpp"

#include <array>
#include <atomic>
#include <mutex>

namespace vkdml::detail {

#ifdef VKDML_TESTING_HOOKS
/// Per Vulkan call: how many calls to let through, then which VkResult to return once.
class FaultInjector {
public:
    void arm(testing::VulkanCall call, VkResult result, uint32_t skip);
    void clear();
    /// VK_SUCCESS (call the driver), or the armed result when this is the call to fail.
    VkResult take(testing::VulkanCall call) {
        if (!armed_.load(std::memory_order_relaxed)) return VK_SUCCESS;
        return take_slow(call);
    }

private:
    struct Slot {
        bool armed = false;
        uint32_t skip = 0;
        VkResult result = VK_SUCCESS;
    };
    VkResult take_slow(testing::VulkanCall call);
    std::atomic<bool> armed_{false};
    std::mutex mutex_;
    std::array<Slot, testing::kVulkanCallCount> slots_{};
};
#else
/// Without VKDML_TESTING_HOOKS nothing arms a fault: every guarded call goes to the driver.
class FaultInjector {
public:
    static constexpr VkResult take(testing::VulkanCall) { return VK_SUCCESS; }
};
#endif

}  // namespace vkdml::detail
