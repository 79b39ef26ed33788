// vkdml/testing.hpp — the test bench: devices that force a kernel family or policy rows, or simulate a
// smaller device (features off, lower limits); the pipeline cache's size; and Vulkan calls made to fail on
// purpose. Compiled into the library only when it is built with VKDML_TESTING_HOOKS=ON (the dev and CI
// presets; a release build has none of it, and installs this header only with it). The types are
// declared either way; the functions only with VKDML_TESTING_HOOKS defined, which a hooks build exports
// to its users.
//
// Device overrides. DeviceOverrides reproduces another device's plans and refusals on the device at
// hand: CI runs the GPU policy rows on lavapipe, each kernel family on any device, and the paths of
// tensors bigger than the device's limits at small sizes.
//
// Fault injection.
// Vulkan faults (out of device memory, a pipeline the driver cannot build, a lost device) are rare on
// real hardware and never happen on demand. These hooks let a test make the next matching Vulkan call
// of one vkdml::Device return an error, so every path that handles a failing VkResult can be
// exercised: the error code and message that reach the caller, the objects released on the way out,
// and (for VK_ERROR_DEVICE_LOST) the device refusing all later work. The failing call does not reach
// the driver, except vkWaitForFences, which really waits first (so no work is left in flight) and then
// reports the armed result. The ErrorCode the caller sees follows from the VkResult: out_of_memory for
// VK_ERROR_OUT_OF_HOST_MEMORY and VK_ERROR_OUT_OF_DEVICE_MEMORY, device_lost for VK_ERROR_DEVICE_LOST,
// vulkan_error otherwise.
//
// Until the first arming on a device, a guarded call costs one relaxed atomic load; after it, until
// clear_vulkan_faults, a mutex-guarded lookup. Without VKDML_TESTING_HOOKS the guard is compiled out.
#pragma once

#include "vkdml/profiling.hpp"
#include "vkdml/vkdml.hpp"

#include <memory>
#include <optional>

namespace vkdml::testing {

/// What a test device forces or simulates, beside DeviceOptions (testing::create_device).
struct DeviceOverrides {
    /// The kernel family where both could run (see KernelChoice), instead of the policy's. An adopted
    /// device always behaves as automatic.
    KernelChoice kernels = KernelChoice::automatic;

    /// Which device class's tuning the planner uses (chunk lengths, items, blocks, lockstep). automatic:
    /// the CPU rows on CPU devices (VK_PHYSICAL_DEVICE_TYPE_CPU), the GPU rows on every other device. cpu
    /// or gpu: that class's rows on any device, and KernelChoice::automatic then picks that class's
    /// family too — for reproducing a GPU's plans on lavapipe and the reverse. Results are the same bits
    /// either way (docs/SPEC.md, "Determinism across devices").
    enum class PolicyClass { automatic, cpu, gpu };
    PolicyClass policy_class = PolicyClass::automatic;  ///< see PolicyClass

    /// The chained scan (the GPU rows' single pass for long inner-axis lines) reads no flag of its first
    /// look-back window before reducing those predecessors' tiles itself: its fallback, otherwise taken
    /// only when a predecessor is slow, runs for every tile of that window (for a fiber of at most one
    /// window, every predecessor of every tile), so a test can check it. Results are the same.
    bool chained_scan_always_falls_back = false;

    /// The chained scan reads a silent predecessor's flag this many times before reducing its tile itself
    /// (the policy's 64 when unset; chained_scan_always_falls_back makes it 0). Limits of 1 to 4 open the
    /// race between a tile's owner and the fallbacks of its successors, which a stress test wants.
    std::optional<uint32_t> chained_scan_spin_limit;

    /// The optional Vulkan features vkdml enables where the device has them (DeviceInfo). false leaves
    /// one off, as on a device without it: info() reports it absent, supports() names it as the reason a
    /// type is unsupported, and create_operator refuses those input types (ErrorCode::unsupported_device).
    struct Features {
        bool shader_int64 = true;             ///< shaderInt64: INT64, UINT64
        bool shader_float64 = true;           ///< shaderFloat64: FLOAT64
        bool storage_buffer_8bit = true;      ///< storageBuffer8BitAccess: INT8, UINT8
        bool storage_buffer_16bit = true;     ///< storageBuffer16BitAccess: FLOAT16, INT16, UINT16
        bool subgroup_extended_types = true;  ///< shaderSubgroupExtendedTypes: INT64, UINT64 as well
        /// subgroupSizeControl and computeFullSubgroups: false leaves them off, as on a device without
        /// them; DeviceInfo::full_subgroups is then false, and where the subgroup sizes vary (see
        /// Limits::min_subgroup_size) every shape is planned with the serial kernels.
        bool subgroup_size_control = true;
    };
    Features features;  ///< see Features

    /// Limits to plan with instead of the device's own (0 keeps the device's). Bindings larger than
    /// max_storage_buffer_range bytes are seen through several windows and dispatches beyond
    /// max_workgroup_count workgroups per dimension are cut into several, exactly as on a device with
    /// those limits. info() reports the limits in force. A value above the device's, a range below 64
    /// bytes plus minStorageBufferOffsetAlignment (at least 16), a count of 1 or a subgroup size that is
    /// not a power of two is an invalid_argument error.
    struct Limits {
        /// Bytes; at most the device's maxStorageBufferRange.
        uint64_t max_storage_buffer_range = 0;
        /// Workgroups, applied to all three dimensions; at most the smaller of the device's
        /// maxComputeWorkGroupCount[0] and [1].
        uint32_t max_workgroup_count = 0;
        /// The smallest subgroup size the device may run (DeviceInfo::min_subgroup_size), as on a device
        /// whose subgroup size varies; a power of two, at most the device's.
        uint32_t min_subgroup_size = 0;
        /// Bytes one allocation may take (maxMemoryAllocationSize), at most the device's and at least the
        /// smallest range above: the host path then runs tensors larger than this in parts (execute()),
        /// as on a device with that limit.
        uint64_t max_memory_allocation_size = 0;
    } limits;  ///< see Limits
};

/// The Vulkan calls vkdml makes that a test may make fail, with the vkdml functions that make them.
/// Shader modules and pipelines are created only on a pipeline-cache miss, so a compile that reuses
/// cached pipelines makes no guarded call.
enum class VulkanCall : int {
    create_buffer,             ///< vkCreateBuffer (HostExecution::create, execute: each buffer)
    allocate_memory,           ///< vkAllocateMemory (HostExecution::create, execute: each buffer)
    bind_buffer_memory,        ///< vkBindBufferMemory (HostExecution::create, execute: each buffer)
    map_memory,                ///< vkMapMemory (HostExecution::create, execute: each buffer)
    create_shader_module,      ///< vkCreateShaderModule (compile_operator, once per kernel and type)
    create_compute_pipelines,  ///< vkCreateComputePipelines (compile_operator, once per new pipeline; record,
                               ///< its in-place pipelines once)
    create_command_pool,       ///< vkCreateCommandPool (HostExecution::create, execute)
    allocate_command_buffers,  ///< vkAllocateCommandBuffers (HostExecution::create, execute)
    create_fence,              ///< vkCreateFence (HostExecution::create, execute)
    begin_command_buffer,      ///< vkBeginCommandBuffer (HostExecution::create, execute)
    end_command_buffer,        ///< vkEndCommandBuffer (HostExecution::create, execute)
    queue_submit,              ///< vkQueueSubmit (HostExecution::run, execute)
    wait_for_fences,           ///< vkWaitForFences (HostExecution::run, execute; the real wait happens first)
};

/// Number of VulkanCall values.
inline constexpr int kVulkanCallCount = static_cast<int>(VulkanCall::wait_for_fences) + 1;

#ifdef VKDML_TESTING_HOOKS

/// Device::create with `overrides` applied. The errors of Device::create, and invalid_argument for a
/// limit out of range.
VKDML_API Result<std::shared_ptr<Device> > create_device(const DeviceOptions& options,
                                                         const DeviceOverrides& overrides);

/// Number of distinct pipelines created so far on `device` (its cache's size; pipelines are never
/// evicted). Thread-safe.
VKDML_API size_t pipeline_count(const Device& device);

/// Makes one future call of `call` on `device` return `result` instead of its own result: the first
/// `skip` calls (counted on this device, from all threads) go through, the one after fails, later ones
/// go through again. Arming a call again replaces its earlier arming; each VulkanCall is armed on its
/// own. VK_SUCCESS, or a `call` outside the enum, is ignored. VK_ERROR_DEVICE_LOST marks the device lost,
/// as a real loss would (Device::is_lost). Thread-safe.
VKDML_API void fail_vulkan_call(const Device& device, VulkanCall call, VkResult result, uint32_t skip = 0);

/// Disarms every pending fault of `device` (a lost device stays lost). Thread-safe.
VKDML_API void clear_vulkan_faults(const Device& device);

#endif  // VKDML_TESTING_HOOKS

}  // namespace vkdml::testing
