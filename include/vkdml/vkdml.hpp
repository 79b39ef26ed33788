// vkdml/vkdml.hpp — the C++ API: DirectML's operator lifecycle on a Vulkan device.
//
//   auto dev = vkdml::Device::create();                       // or Device::adopt(...)
//   auto op  = dev.value()->create_operator(desc);            // validates, deep-copies
//   auto co  = dev.value()->compile_operator(*op, flags);     // picks kernels, builds pipelines
//   co->binding_properties();                                 // temporary scratch size
//   co->record(cmd, bindings);                                // into the caller's command buffer
//
// or, for tools and tests, one call with host arrays: vkdml::execute(**dev, desc, inputs, outputs).
// Complete programs: examples/host_cumsum.cpp (the host path) and examples/app_owned_device.cpp
// (adopting the application's VkDevice, recording into its command buffer, submitting on its queue).
//
// Errors are values (vkdml::Result, vkdml::Status): vkdml throws no exception of its own (a failing
// host allocation still throws std::bad_alloc, and Result::value() of an error throws
// std::bad_variant_access). Vulkan handles are the application's: the header needs only
// <vulkan/vulkan_core.h> types, never Vulkan functions.
//
// Ownership: a Device, and every Operator, CompiledOperator and HostExecution made from it, share the
// device's internal state (VkDevice if vkdml created it, pipeline cache); that state is destroyed with
// the last of them, without waiting for the GPU. Thread-safety: Device, Operator and CompiledOperator
// may be used from several threads at once; HostExecution, command buffers and the queue need
// external synchronisation (see Device::lock_queue).
//
// "SPEC §N" below is a section of the operator contract, installed with these headers as
// <prefix>/share/doc/vkdml/SPEC.md. Beside this header: vkdml/profiling.hpp (plans as text, per-pass
// timestamps), vkdml/checked_math.hpp (overflow-checked sizes) and, in a test build,
// vkdml/testing.hpp (test devices, fault injection).
#pragma once

// vkdml's interface uses C++20 (std::span, defaulted comparisons). An older standard stops here with one
// error, before the library's own lines would give dozens.
#if defined(_MSVC_LANG)
#define VKDML_CPLUSPLUS_ _MSVC_LANG  // MSVC keeps __cplusplus at 199711L without /Zc:__cplusplus
#else
#define VKDML_CPLUSPLUS_ __cplusplus
#endif
#if VKDML_CPLUSPLUS_ < 202002L
#undef VKDML_CPLUSPLUS_
#error "vkdml needs C++20: compile with -std=c++20 (GCC, Clang) or /std:c++20 (MSVC)"
#else
#undef VKDML_CPLUSPLUS_

#include "vkdml/directml.h"
#include "vkdml/export.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <vulkan/vulkan_core.h>  // handle and struct types only: vkdml calls no Vulkan function here

namespace vkdml {

// ----------------------------------------------------------------------------------------------
// Errors

/// What went wrong, coarsely; Error::message says exactly what. The numeric values are stable.
enum class ErrorCode : int {
    /// An operator or tensor description breaks a SPEC §2 rule (create_operator), or names an operator
    /// type vkdml does not implement.
    invalid_descriptor = 1,
    /// A data type is UNKNOWN or out of range, or the SPEC §4 table does not allow it for the operator or
    /// reduce function (e.g. integer input to AVERAGE, a non-index output of ARGMAX).
    unsupported_type = 2,
    /// The device lacks a Vulkan version (1.2), extension (VK_KHR_push_descriptor), feature, compute
    /// queue, memory type, layer or limit this needs, e.g. a tensor too large for its
    /// maxStorageBufferRange and maxComputeWorkGroupCount.
    unsupported_device = 3,
    /// A BufferBinding passed to CompiledOperator::record breaks SPEC §2 rule 9: missing, too small,
    /// misaligned, outside its buffer, without storage usage, or overlapping another.
    invalid_binding = 4,
    /// The Vulkan loader could not be loaded, no physical device exists, or none matches
    /// DeviceOptions::selector.
    no_device = 5,
    /// A Vulkan call returned VK_ERROR_OUT_OF_HOST_MEMORY or VK_ERROR_OUT_OF_DEVICE_MEMORY, or a host-path
    /// buffer would exceed maxBufferSize, maxMemoryAllocationSize or the host-visible heap (HostExecution;
    /// execute() runs such tensors in windows).
    out_of_memory = 6,
    /// A Vulkan call returned VK_ERROR_DEVICE_LOST, now or earlier (see Device::is_lost).
    device_lost = 7,
    /// Any other failing VkResult; the message names the call and the VkResult.
    vulkan_error = 8,
    /// A bad argument to a vkdml function other than a descriptor (null handle, unknown flag bits, an
    /// operator of another device, wrong array count, a testing::DeviceOverrides::limits value out of range).
    invalid_argument = 9,
};

/// Stable lower-case name of an error code ("invalid_descriptor", ...), or "unknown" for a value not in
/// the enum. The string is static.
VKDML_API const char* to_string(ErrorCode code) noexcept;

/// An error: what vkdml returns instead of a value.
struct Error {
    ErrorCode code{};  ///< the class of error, for programs to branch on
    /// One line of English for people: for a descriptor, the operator, tensor, field, rule and offending
    /// values; for a Vulkan failure, the call and its VkResult. Its wording is not a stable interface.
    std::string message;
};

/// Either a value or an Error. Test with `if (r)`, read with `*r` / `r->`, or `r.error()`. Reading the
/// side it does not hold throws std::bad_variant_access.
template <class T>
class [[nodiscard]] Result {
public:
    /// Success holding `value`.
    Result(T value) : v_(std::move(value)) {}
    /// Failure holding `error`.
    Result(Error error) : v_(std::move(error)) {}
    /// True when it holds a value.
    explicit operator bool() const noexcept { return v_.index() == 0; }
    /// True when it holds a value.
    bool has_value() const noexcept { return v_.index() == 0; }
    /// The value; throws std::bad_variant_access on an error.
    T& value() & { return std::get<0>(v_); }
    /// The value; throws std::bad_variant_access on an error.
    const T& value() const& { return std::get<0>(v_); }
    /// The value, moved out; throws std::bad_variant_access on an error.
    T&& value() && { return std::get<0>(std::move(v_)); }
    /// The value, as value().
    T& operator*() & { return value(); }
    /// The value, as value().
    const T& operator*() const& { return value(); }
    /// Member access to the value, as value().
    T* operator->() { return &value(); }
    /// Member access to the value, as value().
    const T* operator->() const { return &value(); }
    /// The error; throws std::bad_variant_access on success.
    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

/// Success or an Error (Result without a value).
class [[nodiscard]] Status {
public:
    /// Success.
    Status() = default;
    /// Failure holding `error`.
    Status(Error error) : e_(std::move(error)) {}
    /// True on success.
    explicit operator bool() const noexcept { return !e_.has_value(); }
    /// True on success.
    bool ok() const noexcept { return !e_.has_value(); }
    /// The error. Precondition: !ok() (on success the behaviour is undefined).
    const Error& error() const { return *e_; }

private:
    std::optional<Error> e_;
};

// ----------------------------------------------------------------------------------------------
// Devices

/// One Vulkan physical device as vkdml sees it (VkPhysicalDeviceProperties and
/// VkPhysicalDeviceDriverProperties).
struct PhysicalDeviceInfo {
    /// Position in vkEnumeratePhysicalDevices order: what DeviceOptions::selector and VKDML_DEVICE take.
    /// Always 0 for an adopted device (Device::adopt does not look it up).
    uint32_t index = 0;
    std::string name;                                           ///< deviceName
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;  ///< discrete, integrated, virtual, CPU, ...
    /// Highest Vulkan version the device supports, VK_MAKE_API_VERSION-encoded (vkdml needs 1.2).
    uint32_t api_version = 0;
    uint32_t vendor_id = 0;   ///< vendorID (PCI vendor for PCI devices)
    uint32_t device_id = 0;   ///< deviceID, vendor-specific
    std::string driver_name;  ///< driverName, e.g. "llvmpipe", "NVIDIA"
    std::string driver_info;  ///< driverInfo: the driver's version text
};

/// Limits and capabilities of the device operators are planned for. Fixed when the Device is made.
struct DeviceInfo {
    PhysicalDeviceInfo physical;  ///< which device
    uint32_t subgroup_size = 0;   ///< invocations per subgroup (VkPhysicalDeviceVulkan11Properties)
    /// Multiprocessors (NVIDIA SMs, AMD compute units) where the driver says (VK_NV_shader_sm_builtins,
    /// VK_AMD_shader_core_properties2's active units, else VK_AMD_shader_core_properties); 0 when it
    /// does not. The GPU rows size reduction grids from it.
    uint32_t compute_units = 0;
    /// The smallest and largest subgroup sizes the device may run a compute shader with
    /// (VkPhysicalDeviceSubgroupSizeControlProperties; both subgroup_size where the device does not say).
    uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
    /// The kernels built on subgroup operations (the cooperative family) are created with a required
    /// subgroup size of subgroup_size and VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, so
    /// every subgroup of a workgroup has subgroup_size active invocations. True where the device has
    /// subgroupSizeControl and computeFullSubgroups with the compute stage in requiredSubgroupSizeStages
    /// (VK_EXT_subgroup_size_control) and they are enabled: by Device::create, or by the application
    /// of an adopted device. Where it is false and min_subgroup_size differs from max_subgroup_size, a
    /// driver may run a workgroup as subgroups narrower than subgroup_size, so every shape is planned
    /// with the serial kernels.
    bool full_subgroups = false;
    /// Subgroups per workgroup a pipeline with a required subgroup size may have
    /// (maxComputeWorkgroupSubgroups; 0 where the device does not say). With full_subgroups, the
    /// cooperative kernels' workgroups are at most subgroup_size times this.
    uint32_t max_workgroup_subgroups = 0;
    /// The compute stage supports subgroup basic and arithmetic operations (false when
    /// DeviceOptions::subgroup_operations is false).
    bool subgroup_arithmetic = false;
    /// The compute stage supports subgroup shuffles (false when DeviceOptions::subgroup_operations is
    /// false).
    bool subgroup_shuffle = false;
    /// Bytes one storage-buffer descriptor may span (maxStorageBufferRange). Larger bindings are accessed
    /// through several windows.
    uint64_t max_storage_buffer_range = 0;
    /// Workgroups per dispatch in x, y, z (maxComputeWorkGroupCount). Larger grids are cut into several
    /// dispatches.
    uint32_t max_workgroup_count[3] = {};
    uint32_t max_workgroup_invocations = 0;  ///< invocations per workgroup (maxComputeWorkGroupInvocations)
    uint32_t max_shared_memory_bytes = 0;   ///< bytes of workgroup shared memory (maxComputeSharedMemorySize)
    uint32_t max_push_constants_bytes = 0;  ///< bytes of push constants (maxPushConstantsSize)
    uint64_t min_storage_buffer_offset_alignment = 0;  ///< bytes (minStorageBufferOffsetAlignment)
    uint64_t max_memory_allocation_size = 0;           ///< bytes (VkPhysicalDeviceMaintenance3Properties)
    /// Bytes (VkPhysicalDeviceMaintenance4Properties::maxBufferSize); UINT64_MAX on a device below
    /// Vulkan 1.3, which states no limit.
    uint64_t max_buffer_size = 0;
    uint64_t host_visible_heap = 0;  ///< bytes of the largest heap with host-visible memory
    /// timestampComputeAndGraphics: every compute queue supports vkCmdWriteTimestamp (PassTimestamps,
    /// vkdml/profiling.hpp).
    bool timestamps = false;
    float timestamp_period_ns = 0;  ///< nanoseconds per timestamp tick (timestampPeriod)
    /// Optional Vulkan features vkdml uses for some data types: shaderInt64 for INT64 and UINT64,
    /// shaderFloat64 for FLOAT64, storageBuffer8BitAccess for INT8 and UINT8, storageBuffer16BitAccess for
    /// FLOAT16, INT16 and UINT16, and shaderSubgroupExtendedTypes for INT64 and UINT64 as well.
    /// For a created device: those the device supports, all enabled.
    /// For an adopted device: those the physical device supports; which of them the application enabled
    /// is what supports() and create_operator go by, and that may be fewer.
    bool shader_int64 = false, shader_float64 = false;
    bool storage_buffer_8bit = false, storage_buffer_16bit = false;  ///< see shader_int64
    bool subgroup_extended_types = false;                            ///< see shader_int64
    /// Float widths whose subnormal values every kernel keeps: vkdml adds SPIR-V's DenormPreserve execution
    /// mode to its kernels for them (shaderDenormPreserveFloat16/32/64 of
    /// VkPhysicalDeviceFloatControlsProperties, within its denormBehaviorIndependence). Where one is false,
    /// the device may flush subnormal operands and results of that width to zero, and float results that
    /// pass through subnormals may differ from other devices' (docs/SPEC.md, "The same bits").
    bool denorm_preserve_float16 = false, denorm_preserve_float32 = false;
    bool denorm_preserve_float64 = false;  ///< see denorm_preserve_float16
};

/// Answer of the feature query (Device::supports): is a data type usable for an operator on this device,
/// and if not, why.
struct TypeSupport {
    bool supported = false;  ///< the type can be used as the operator's input type on this device
    /// Empty when supported; otherwise why not: an operator vkdml does not implement, an unknown data
    /// type, or the missing Vulkan feature by its VkPhysicalDevice*Features member name.
    std::string reason;
};

/// Receives the Vulkan validation layer's warning and error messages (DeviceOptions::validation), on the
/// thread whose Vulkan call raised them, possibly while vkdml holds an internal lock (the process-wide
/// one of create/adopt/enumerate, the device's pipeline cache or queue lock): it must not call into
/// vkdml. Messages raised during Device::create are delivered too.
using ValidationCallback = std::function<void(std::string_view message)>;

/// How Device::create chooses and sets up a device (Device::adopt takes none of these).
/// One setting of the planners' tuning: a knob of the policy rows (the numbers a device class plans with,
/// like CUB's tuning policies: workgroup sizes, tile and chunk lengths, items, whether long scans chain),
/// by name, and its value (vkdml/profiling.hpp: tuning_knobs() lists the knobs, parse_tuning() reads
/// "knob=value,..."). For running a GPU with the rows found best on it (`tools/gpu_check.sh --tune`):
/// results are the same bits under any tuning (docs/SPEC.md, "Determinism across devices"); only the
/// plans and their speed change.
struct Tuning {
    std::string knob;    ///< a knob's name, e.g. "scan.tile_workgroup"
    uint64_t value = 0;  ///< within the knob's range
};

struct DeviceOptions {
    /// Empty: the environment variable VKDML_DEVICE if set, else the best device (discrete, then
    /// integrated, then virtual, then CPU; the first of equals). Otherwise a decimal index into the
    /// device list (Device::enumerate) or a case-insensitive substring of the device name (the first
    /// match). An index out of range or no match is ErrorCode::no_device.
    std::string selector;
    /// Enable VK_LAYER_KHRONOS_validation and route its warnings and errors to on_validation_message
    /// (ErrorCode::unsupported_device when the layer is not installed).
    bool validation = false;
    /// Receives the validation messages; copied into the device state and called until that is
    /// destroyed (see Device), so what it captures must live that long. Empty: messages are dropped.
    ValidationCallback on_validation_message;
    /// false: plan only kernels that use no subgroup arithmetic or shuffles, as on a device without
    /// them (info() then reports both as unsupported). A workaround for a driver whose subgroup
    /// operations are suspect; results are the same bits either way.
    bool subgroup_operations = true;
    /// The bytes of an earlier run's Device::pipeline_cache_data(), to seed the device's VkPipelineCache:
    /// its pipelines are then built from the driver's cached binaries instead of compiled again. Bytes
    /// that are not a cache of this device and driver (VkPipelineCacheHeaderVersionOne's vendor, device
    /// and pipelineCacheUUID differ, or no such header) are ignored, as a driver update makes them; then
    /// Device::pipeline_cache_seeded() is false. Empty: an empty cache.
    std::vector<std::byte> pipeline_cache_data;
    /// Host memory callbacks for the driver, passed to every Vulkan call of vkdml that creates or
    /// destroys an object on this device (the instance, its messenger, the device, pipelines, shader
    /// modules, layouts, the pipeline cache, the host path's buffers, memory, command pools and fences).
    /// Null: the driver's own allocator. The structure and its functions must stay valid until the
    /// device state is destroyed (see Device).
    const VkAllocationCallbacks* allocation_callbacks = nullptr;
    /// Settings of the policy rows' knobs to plan with (see Tuning), applied after the rows the device's
    /// type picks. An unknown knob, a value out of its range, a knob set twice, or a chunk length's or tree
    /// workgroup's least above its most in those rows is ErrorCode::invalid_argument. Empty: the rows as
    /// they are.
    std::vector<Tuning> tuning;
};

class Operator;
class CompiledOperator;

/// How the operators treat NaN elements of the input (SPEC §3 "NaN").
enum class NanMode {
    /// The default: a NaN wins. MIN and MAX give NaN; ARGMIN and ARGMAX give the index of the first
    /// NaN (the last with DECREASING), as NumPy's min, max, argmin and argmax do; every sum, product and
    /// scan that reads a NaN gives NaN.
    propagate,
    /// NaN elements are ignored. MIN and MAX skip them, as IEEE 754's minNum and maxNum and DirectML do,
    /// ARGMIN and ARGMAX as NumPy's nanargmin and nanargmax do (DirectML's own arg functions differ at
    /// element 0, SPEC §7): a fiber of NaN only gives +inf (MIN) or -inf (MAX), as DirectML does, and
    /// index 0 (ARGMIN, ARGMAX). REDUCE's SUM, L1, SUM_SQUARE, L2, MULTIPLY, LOG_SUM and LOG_SUM_EXP and
    /// the cumulative operators read a NaN element as their identity: 0, 1 for MULTIPLY and the
    /// cumulative product, -inf for LOG_SUM_EXP, as NumPy's nansum, nanprod, nancumsum and nancumprod
    /// do (a NaN that the arithmetic itself makes, inf - inf, still propagates); AVERAGE divides that
    /// sum by the count of the other elements, as NumPy's nanmean (NaN for a fiber of NaN only);
    /// VKDML_REDUCE_FUNCTION_VARIANCE and STANDARD_DEVIATION leave them out, as NumPy's nanvar and nanstd,
    /// and so do ANY, ALL and COUNT_NONZERO (a fiber of NaN only: 0, 1 and 0).
    /// Integer data has no NaN: the results are those of propagate.
    ignore,
};

/// What vkdml adds to a DirectML operator description, given to Device::create_operator (and the
/// host path's HostExecution::create and execute) beside it. The default is DirectML's operator.
struct OperatorOptions {
    /// Both modes apply to every operator and REDUCE function.
    NanMode nan_mode = NanMode::propagate;
    /// REDUCE's VKDML_REDUCE_FUNCTION_VARIANCE and STANDARD_DEVIATION divide the sum of squared
    /// deviations by N - correction (NumPy's ddof, PyTorch's correction): 0 gives the population
    /// variance, 1 the sample variance; N <= correction divides by 0 (+inf, NaN for a sum of 0), as
    /// NumPy does. Every other operator and function needs 0 (else invalid_argument).
    uint32_t correction = 0;
};
/// The implementation's state behind a Device (opaque here: defined in the library's sources).
struct DeviceState;

namespace detail {
/// The implementation's one way into the private parts of Device, Operator and CompiledOperator
/// (opaque here: defined in the library's sources, not installed). Applications never need it.
struct ApiAccess;
}  // namespace detail

/// The Vulkan objects behind a Device: for an application that creates its own buffers, command
/// buffers and query pools on a device vkdml created (or adopted). Plain handles: holding them keeps
/// nothing alive. Those of a created device are vkdml's and stay valid while the Device or any
/// Operator, CompiledOperator or HostExecution made from it lives; the application must not destroy
/// them. Those of an adopted device are the application's own.
struct VulkanHandles {
    VkInstance instance = VK_NULL_HANDLE;               ///< the instance the device belongs to
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;  ///< the physical device
    VkDevice device = VK_NULL_HANDLE;                   ///< the logical device
    uint32_t queue_family_index = 0;                    ///< a family with compute capability
    /// The queue the host path submits to (queue 0 of that family on a created device); externally
    /// synchronised: see Device::lock_queue.
    VkQueue queue = VK_NULL_HANDLE;
    /// Resolves instance and device functions for these handles (the loader's, or the adopter's).
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
};

/// A Vulkan device with its queue and pipeline cache (IDMLDevice). Thread-safe: operators may be
/// created, compiled and recorded from several threads at once. Made by create() or adopt() and held by
/// std::shared_ptr; the state behind it (the VkDevice vkdml created, the pipelines) is shared with every
/// Operator, CompiledOperator and HostExecution made from it and lives until the last of them is gone.
class Device {
public:
    /// Lists the Vulkan physical devices visible to the loader, in vkEnumeratePhysicalDevices order
    /// (an empty list when there are none). Creates and destroys an instance of its own.
    /// Errors: no_device (the Vulkan loader cannot be loaded); out_of_memory or vulkan_error
    /// (vkCreateInstance failed, e.g. VK_ERROR_INCOMPATIBLE_DRIVER).
    /// Thread-safe (serialised with create and adopt on a process-wide lock).
    VKDML_API static Result<std::vector<PhysicalDeviceInfo> > enumerate();

    /// Creates an instance (Vulkan 1.2) and a device of its own with one queue (queue 0 of the first
    /// family with compute capability), VK_KHR_push_descriptor and the optional features of DeviceInfo
    /// the device has; see DeviceOptions for the choice. vkdml destroys them
    /// with the last reference to the device (see Device).
    /// Errors: no_device (no loader, no device, or none matching the selector); unsupported_device
    /// (validation layer missing, device below Vulkan 1.2, no compute queue, no
    /// VK_KHR_push_descriptor); out_of_memory,
    /// device_lost or vulkan_error (vkCreateInstance, vkCreateDebugUtilsMessengerEXT, vkCreateDevice or
    /// creating the pipeline layout and cache failed). Thread-safe (serialised on a process-wide lock).
    VKDML_API static Result<std::shared_ptr<Device> > create(const DeviceOptions& options = {});

    /// Uses the application's instance, physical device, device and a queue of `queue_family_index`,
    /// which must have compute capability. vkdml never destroys adopted handles; the application must
    /// keep them valid, and destroy the VkDevice only after the Device and every Operator,
    /// CompiledOperator and HostExecution made from it are gone (their destruction destroys vkdml's
    /// pipelines and buffers on it) and their GPU work has completed. The device must have been created
    /// with Vulkan 1.2 or later and VK_KHR_push_descriptor enabled. `get_instance_proc_addr` loads every
    /// Vulkan function vkdml calls on these handles (vkGetInstanceProcAddr of the loader, or of a layer).
    /// `enabled_features` is the feature chain the application passed to vkCreateDevice
    /// (VkPhysicalDeviceFeatures2 with VkPhysicalDeviceVulkan11Features/Vulkan12Features, or the
    /// per-feature 8-bit storage, 16-bit storage, subgroup-extended-types and subgroup-size-control
    /// structs, or VkPhysicalDeviceVulkan13Features, in pNext); vkdml reads during the call which of
    /// shaderInt64, shaderFloat64, storageBuffer8BitAccess, storageBuffer16BitAccess and
    /// shaderSubgroupExtendedTypes are on, and supports() answers accordingly; and whether
    /// subgroupSizeControl and computeFullSubgroups both are (DeviceInfo::full_subgroups; the device must
    /// then have VK_EXT_subgroup_size_control enabled, or be created for Vulkan 1.3). Null means none of
    /// them. The queue is used only by the host path
    /// (HostExecution::run, execute, submit), under lock_queue(). `allocation_callbacks` (optional, as
    /// DeviceOptions::allocation_callbacks) are given to every object vkdml creates and destroys on the
    /// device; pass the application's own if its device was created with them.
    /// Errors: invalid_argument (a null handle or get_instance_proc_addr, a queue family that does not
    /// exist or lacks compute); unsupported_device (device below Vulkan 1.2, an instance created for
    /// Vulkan 1.1 or lower — VkApplicationInfo::apiVersion, seen as vkGetDeviceProcAddr giving no 1.2
    /// command —, VK_KHR_push_descriptor not enabled); out_of_memory, device_lost or vulkan_error (creating
    /// the pipeline layout and cache failed). Thread-safe (serialised on a process-wide lock).
    VKDML_API static Result<std::shared_ptr<Device> > adopt(
        VkInstance instance, VkPhysicalDevice physical_device, VkDevice device, uint32_t queue_family_index,
        VkQueue queue, PFN_vkGetInstanceProcAddr get_instance_proc_addr,
        const VkPhysicalDeviceFeatures2* enabled_features,
        const VkAllocationCallbacks* allocation_callbacks = nullptr);

    /// Releases this Device's share of the device state (see Device); it does not wait for the GPU.
    VKDML_API ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    /// The device's limits and capabilities; fixed for its lifetime, valid while this Device lives.
    VKDML_API const DeviceInfo& info() const noexcept;

    /// The policy rows the planners use on this device, as describe_plan's header names them: "<family>-
    /// <class>", the class "cpu" on a VK_PHYSICAL_DEVICE_TYPE_CPU device (lavapipe) and "gpu" on any
    /// other, the family the rows give long inner lines: "cooperative" (workgroup tiles and trees) or
    /// "serial" (an invocation per chunk: the CPU rows, and a GPU whose subgroup size varies without full
    /// subgroups to require). A device without the subgroup operations a cooperative kernel needs
    /// (DeviceInfo::subgroup_arithmetic and subgroup_shuffle, DeviceOptions::subgroup_operations) keeps
    /// its rows' name but plans those shapes serially. DeviceOptions::tuning sets numbers of the rows,
    /// not which rows they are. The text has static storage. Thread-safe.
    VKDML_API std::string_view policy_rows() const noexcept;

    /// Feature query in the spirit of IDMLDevice::CheckFeatureSupport: whether `op` runs on `type`
    /// on this device, and if not why (an operator vkdml does not implement, an unknown type, or the
    /// missing Vulkan feature by name). As input type: for REDUCE this holds for SUM, MULTIPLY, MIN, MAX,
    /// L1, SUM_SQUARE and the arg functions; AVERAGE, L2, LOG_SUM and LOG_SUM_EXP also need a float type
    /// (SPEC §4), which this query does not check. Index outputs of ARGMIN/ARGMAX (any of INT32, INT64,
    /// UINT32, UINT64) need no feature. Thread-safe; answers even after the device is lost.
    VKDML_API TypeSupport supports(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) const;

    /// Validates the description against SPEC §2 rules 1–8, §4 and the device, and deep-copies it
    /// (tensor descriptions, Sizes, Strides and a reduction's Axes): the caller's structures and arrays
    /// may be freed as soon as this returns. Implemented: DML_OPERATOR_REDUCE, _CUMULATIVE_SUMMATION,
    /// _ARGMIN, _ARGMAX and _CUMULATIVE_PRODUCT.
    /// Errors: device_lost (the device was lost); invalid_descriptor (desc.Desc null, another operator
    /// type, a rule broken: null tensor, Type not BUFFER, DimensionCount, sizes, strides, an output
    /// mapping two elements to one address (or an interleaved output layout of more than 2^22 elements,
    /// which vkdml cannot prove free of that), TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment,
    /// Flags, shapes, Axis/Axes, AxisDirection or Function out of range); unsupported_type (DataType
    /// UNKNOWN or out of range, or a data type SPEC §4 does not allow for a REDUCE function or arg
    /// operator, including an INT32 index output for more than 2^31 reduced elements);
    /// unsupported_device (the input type needs a Vulkan feature not enabled, see supports()).
    /// `options` adds what DirectML's description cannot say (OperatorOptions); invalid_argument when
    /// an option is out of range. Thread-safe.
    VKDML_API Result<Operator> create_operator(const DML_OPERATOR_DESC& desc,
                                               const OperatorOptions& options = {}) const;

    /// Plans the operator for this device (kernels, passes, dispatches, temporary size) and creates its
    /// pipelines, or reuses them from the device's cache (IDMLDevice::CompileOperator). All three
    /// DML_EXECUTION_FLAGS are accepted and change nothing (FLOAT16 still accumulates in FLOAT32).
    /// Errors: device_lost; invalid_argument (unknown flag bits, or `op` made by another Device or
    /// moved from); unsupported_device (the tensors are too large for the device's
    /// maxStorageBufferRange, maxComputeWorkGroupCount or 32-bit work indexing, after cutting passes
    /// into several dispatches); out_of_memory, device_lost or vulkan_error (vkCreateShaderModule or
    /// vkCreateComputePipelines failed). Thread-safe.
    VKDML_API Result<CompiledOperator> compile_operator(
        const Operator& op, DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE) const;

    /// Whether a Vulkan call of vkdml on this device returned VK_ERROR_DEVICE_LOST (vkdml does not see
    /// the application's own calls). From then on every call that would use the device
    /// (create_operator, compile_operator, record, HostExecution::run, execute) fails with
    /// ErrorCode::device_lost; the application should create a new Device. Thread-safe.
    VKDML_API bool is_lost() const noexcept;

    /// The Vulkan handles of this device (see VulkanHandles for their ownership). Thread-safe.
    VKDML_API VulkanHandles vulkan() const noexcept;

    /// The device's VkPipelineCache as bytes (vkGetPipelineCacheData): every pipeline compiled so far, for
    /// DeviceOptions::pipeline_cache_data of a later run (save it to a file; it starts with
    /// VkPipelineCacheHeaderVersionOne). Errors: out_of_memory, device_lost or vulkan_error (the query
    /// failed). Thread-safe.
    VKDML_API Result<std::vector<std::byte> > pipeline_cache_data() const;
    /// Whether DeviceOptions::pipeline_cache_data seeded this device's cache (false when it was empty,
    /// ignored as another device's or driver's, or the device was adopted).
    VKDML_API bool pipeline_cache_seeded() const noexcept;

    /// The lock vkdml holds while it submits to the queue (HostExecution::run, execute). An application
    /// submitting to vulkan().queue (or calling vkQueueWaitIdle on it) from another thread at the same
    /// time must hold it too (Vulkan requires queue access to be externally synchronised). Not
    /// recursive: do not call vkdml's host path while holding it on the same thread.
    [[nodiscard]] VKDML_API std::unique_lock<std::mutex> lock_queue() const;

private:
    friend struct detail::ApiAccess;
    /// Wraps a state made by create() or adopt(), the only ways to make a Device.
    explicit Device(std::shared_ptr<DeviceState> s);
    std::shared_ptr<DeviceState> s_;
};

// ----------------------------------------------------------------------------------------------
// Operators

/// The implementation's state behind an Operator and a CompiledOperator (opaque here).
struct OperatorState;
struct CompiledState;

/// A validated, deep-copied operator description (IDMLOperator), made by Device::create_operator.
/// Immutable and cheap to copy (copies share one state); may be used from several threads at once.
/// Keeps its device's state alive (see Device). A moved-from Operator is empty: only destruction,
/// assignment and compile_operator (which refuses it) are allowed on it.
class Operator {
public:
    /// The operator's type (DML_OPERATOR_DESC::Type).
    VKDML_API DML_OPERATOR_TYPE type() const noexcept;
    /// The stored description; every pointer inside it (operator struct, tensor descriptions, Sizes,
    /// Strides (null where the caller gave null), Axes (null when AxisCount is 0)) points into this
    /// Operator's own storage, valid while any copy of it or a CompiledOperator made from it lives.
    VKDML_API const DML_OPERATOR_DESC& desc() const noexcept;
    /// The options the operator was created with.
    VKDML_API OperatorOptions options() const noexcept;

private:
    friend struct detail::ApiAccess;
    /// Wraps a validated state; applications get Operators from Device::create_operator.
    explicit Operator(std::shared_ptr<const OperatorState> s) : s_(std::move(s)) {}
    std::shared_ptr<const OperatorState> s_;
};

/// A range of a Vulkan buffer (DML_BUFFER_BINDING), with what the buffer was created with. Vulkan
/// cannot be asked a VkBuffer's size or usage, so the caller states both and record() checks the
/// range and the usage against them (SPEC §2 rule 9). A declared buffer_size larger than the
/// buffer's vkGetBufferMemoryRequirements size is caught; one between the real size and that
/// (alignment padding) cannot be told from the truth. record() copies what it needs; the buffer and
/// its memory must stay valid until the command buffer has finished executing.
struct BufferBinding {
    /// A buffer of the device the operator was compiled for (not checked), bound to memory.
    VkBuffer buffer = VK_NULL_HANDLE;
    /// Bytes from the start of the buffer; a multiple of 16, or of the tensor's
    /// GuaranteedBaseOffsetAlignment when larger (16 for the temporary buffer).
    VkDeviceSize offset = 0;
    /// Bytes of the range, at least the tensor's TotalTensorSizeInBytes (TemporaryResourceSize for the
    /// temporary buffer).
    VkDeviceSize size = 0;
    VkDeviceSize buffer_size = 0;  ///< VkBufferCreateInfo::size of the buffer, in bytes (0 is refused)
    VkBufferUsageFlags usage = 0;  ///< VkBufferCreateInfo::usage; must include STORAGE_BUFFER_BIT
};

/// The buffers of one execution (the binding table of DirectML). The spans are read during record()
/// only. Ranges are compared only within one VkBuffer: no input range may overlap an output range
/// (except a cumulative operator's in-place input and output with equal offset, size and strides), and
/// the temporary range may overlap neither.
struct Bindings {
    /// One per input tensor of the description (every implemented operator has one: InputTensor).
    std::span<const BufferBinding> inputs;
    /// One per output tensor of the description (every implemented operator has one: OutputTensor).
    std::span<const BufferBinding> outputs;
    /// Required when binding_properties().TemporaryResourceSize > 0, ignored otherwise. It holds
    /// intermediate results of one execution only (vkdml keeps nothing in it between executions), so
    /// it may be shared by operators whose executions are ordered by barriers.
    std::optional<BufferBinding> temporary;
};

/// An operator planned for a device (IDMLCompiledOperator), made by Device::compile_operator. Cheap to
/// copy (copies share one state); immutable, so it may be recorded many times, into many command
/// buffers, from several threads at once (each command buffer, and its pool, externally synchronised
/// as Vulkan requires). Keeps its Operator's description and its device's state alive; its pipelines
/// belong to the device's cache, which outlives it while the device state lives.
class CompiledOperator {
public:
    /// What record() needs bound: TemporaryResourceSize bytes of temporary scratch (0: none),
    /// PersistentResourceSize always 0 (no persistent resource), RequiredDescriptorCount 3 (the
    /// storage-buffer descriptors record() pushes; the application allocates no descriptors).
    VKDML_API DML_BINDING_PROPERTIES binding_properties() const noexcept;

    /// Validates the bindings and records the dispatches into `command_buffer`, which must be in the
    /// recording state, belong to a pool of a compute-capable family of the operator's device, and be
    /// used by no other thread meanwhile. Between its own dispatches (its passes, and the dispatches of
    /// a pass too large for one) it records a compute-to-compute memory barrier; none before the first
    /// or after the last: the caller orders the execution against earlier writes of the inputs and
    /// later uses of the outputs (compute-shader stage, shader storage reads and writes), as in
    /// DirectML. It leaves its own compute pipeline, push descriptor set 0 and push constants bound;
    /// the application rebinds its own compute state afterwards.
    /// Errors (nothing is recorded then): invalid_argument (null command buffer); device_lost;
    /// invalid_binding (see Bindings and BufferBinding: wrong count, null buffer, no storage usage,
    /// buffer_size 0 or above the memory requirement, range outside the buffer, too small, offset
    /// misaligned, temporary missing, overlap); unsupported_device (a window would exceed
    /// maxStorageBufferRange, which planning normally rules out); out_of_memory or vulkan_error when the
    /// first in-place record (a cumulative operator's input and output bound to one range) cannot make
    /// the in-place pipelines it runs with (SPIR-V lets a compiler assume two bindings never alias, so an
    /// in-place scan reads and writes through the output's binding alone; made once, then cached).
    VKDML_API Status record(VkCommandBuffer command_buffer, const Bindings& bindings) const;

private:
    friend struct detail::ApiAccess;
    /// Wraps a plan; applications get CompiledOperators from Device::compile_operator.
    explicit CompiledOperator(std::shared_ptr<const CompiledState> s) : s_(std::move(s)) {}
    std::shared_ptr<const CompiledState> s_;
};

// ----------------------------------------------------------------------------------------------
// Host convenience path

/// One operator with host-visible, host-coherent device buffers of its own, mapped into the process:
/// execute() without staging copies. Put the inputs' bytes into input(i) (read a file straight into
/// it), run(), and read the results from output(i). Each buffer holds its tensor's whole range
/// (TotalTensorSizeInBytes bytes, laid out by the tensor's strides). Output bytes the operator does
/// not write (padding) keep whatever was put there; create() initialises nothing. run() may be
/// called again, after changing the inputs. Owns its buffers, command buffer and fence and keeps its
/// device's state alive. Move-only; not for use from several threads at once (distinct HostExecutions
/// may run concurrently). A moved-from HostExecution may only be destroyed or assigned to.
class HostExecution {
public:
    /// Validates and compiles the operator (the description is deep-copied, not kept), allocates its
    /// buffers, and records its command buffer once (run() only submits it). Before allocating, refuses
    /// (ErrorCode::out_of_memory) a buffer larger than the device's maxBufferSize or
    /// maxMemoryAllocationSize, or buffers larger in all than its largest host-visible heap.
    /// Errors: those of Device::create_operator and Device::compile_operator; out_of_memory (as above);
    /// unsupported_device (no host-visible, host-coherent memory type for a storage buffer);
    /// out_of_memory, device_lost or vulkan_error (vkCreateBuffer, vkAllocateMemory, vkBindBufferMemory,
    /// vkMapMemory, vkCreateCommandPool, vkAllocateCommandBuffers, vkCreateFence, vkBeginCommandBuffer
    /// or vkEndCommandBuffer failed). Thread-safe with respect to other calls on `device`.
    VKDML_API static Result<HostExecution> create(const Device& device, const DML_OPERATOR_DESC& desc,
                                                  DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE,
                                                  const OperatorOptions& options = {});
    /// Takes over the buffers; spans from input()/output() stay valid.
    VKDML_API HostExecution(HostExecution&&) noexcept;
    /// Frees this object's buffers and takes over `other`'s.
    VKDML_API HostExecution& operator=(HostExecution&&) noexcept;
    /// Frees the buffers and command buffer (run() has already waited for its work).
    VKDML_API ~HostExecution();

    /// Number of input buffers (1 for every implemented operator).
    VKDML_API size_t input_count() const noexcept;
    /// Number of output buffers (1 for every implemented operator).
    VKDML_API size_t output_count() const noexcept;
    /// The mapped bytes of input i: TotalTensorSizeInBytes long, writable, valid while this
    /// HostExecution (or the one it is moved into) lives. Empty for an index >= input_count().
    VKDML_API std::span<std::byte> input(size_t i) const noexcept;
    /// The mapped bytes of output i, as input(i); results are there after a successful run().
    VKDML_API std::span<std::byte> output(size_t i) const noexcept;

    /// Submits the recorded command buffer under Device::lock_queue and waits, without a timeout, for
    /// it to complete; the outputs are then readable. Errors: device_lost (lost before or during the
    /// run); out_of_memory, device_lost or vulkan_error (vkResetFences, vkQueueSubmit or vkWaitForFences
    /// failed).
    VKDML_API Status run();

private:
    friend struct detail::ApiAccess;
    /// The buffers, command buffer and fence (defined in the library's sources).
    struct State;
    /// Takes over a recorded state; applications get HostExecutions from create().
    explicit HostExecution(std::unique_ptr<State> s);
    std::unique_ptr<State> s_;
};

/// Runs one operator on host arrays: allocates device buffers, uploads, records, submits, waits and
/// downloads (HostExecution plus a copy each way). Each array holds the bytes of its tensor's whole
/// buffer range: at least TotalTensorSizeInBytes bytes, of which exactly that many, from its start, are
/// read from or written to it, laid out by the tensor's strides (make typed arrays bytes with
/// std::as_bytes(std::span(v)) and std::as_writable_bytes(std::span(v))). Output arrays are also
/// uploaded first, so bytes the operator does not write (padding) keep their values. An output may be
/// the same array as an input (in place). The arrays are used only during the call.
/// Tensors larger than one allocation (maxMemoryAllocationSize, maxBufferSize) or together larger than
/// the host-visible heap run in windows: the plan's dispatches one at a time, each dispatch's windows of
/// the arrays copied through staging buffers of at most one allocation (SPEC §5), with one call's
/// results; an input that shares memory with an output is then read from a host copy.
/// Errors: those of HostExecution::create but its size refusals, and of HostExecution::run;
/// out_of_memory when even windows do not fit (the temporary buffer past one allocation, or the
/// staging and temporary buffers past the heap; named with their sizes); invalid_argument when the
/// array counts differ from the operator's inputs and outputs, or an array is shorter than its tensor
/// (both named), before any byte is read or written. Thread-safe: several threads may call it on one
/// Device at once.
VKDML_API Status execute(const Device& device, const DML_OPERATOR_DESC& desc,
                         std::span<const std::span<const std::byte> > inputs,
                         std::span<const std::span<std::byte> > outputs,
                         DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE,
                         const OperatorOptions& options = {});

/// execute() on the device `Device::create` or `Device::adopt` gave (`vkdml::execute(*device, ...)`
/// for a Result<std::shared_ptr<Device>> `device`). Errors: invalid_argument for a null pointer, else
/// those of execute() above.
inline Status execute(const std::shared_ptr<Device>& device, const DML_OPERATOR_DESC& desc,
                      std::span<const std::span<const std::byte> > inputs,
                      std::span<const std::span<std::byte> > outputs,
                      DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE,
                      const OperatorOptions& options = {}) {
    if (!device) return Error{ErrorCode::invalid_argument, "execute: the device is null"};
    return execute(*device, desc, inputs, outputs, flags, options);
}

// ----------------------------------------------------------------------------------------------
// A shorter path to a tensor description

/// A packed buffer tensor (row-major, no padding, no flags) of a data type and sizes, holding its own
/// DML_BUFFER_TENSOR_DESC and DML_TENSOR_DESC: for code that does not start from DirectML's
/// descriptors. Pass desc() wherever an operator description wants a `const DML_TENSOR_DESC*`; it stays
/// valid while this object lives (copies and moves point at their own). bytes() is the tensor's
/// TotalTensorSizeInBytes (DMLCalcBufferTensorSize: the elements' bytes rounded up to a multiple of 4),
/// what a host array for it must hold. Sizes are not checked here: create_operator validates them (rank
/// 1 to 8, no size 0, at most 2^32 - 1 elements) with the operator's other rules.
class PackedTensorDesc {
public:
    /// A tensor of `type` with `sizes` (outermost first).
    PackedTensorDesc(DML_TENSOR_DATA_TYPE type, std::span<const uint32_t> sizes)
        : sizes_(sizes.begin(), sizes.end()), buffer_{type, DML_TENSOR_FLAG_NONE, 0, nullptr, nullptr, 0, 0} {
        link();
    }
    /// A tensor of `type` with `sizes` (outermost first): PackedTensorDesc(DML_TENSOR_DATA_TYPE_FLOAT32, {2,
    /// 3}).
    PackedTensorDesc(DML_TENSOR_DATA_TYPE type, std::initializer_list<uint32_t> sizes)
        : PackedTensorDesc(type, std::span<const uint32_t>(sizes.begin(), sizes.size())) {}
    PackedTensorDesc(const PackedTensorDesc& other) : sizes_(other.sizes_), buffer_(other.buffer_) { link(); }
    PackedTensorDesc& operator=(const PackedTensorDesc& other) {
        sizes_ = other.sizes_;
        buffer_ = other.buffer_;
        link();
        return *this;
    }
    ~PackedTensorDesc() = default;

    /// The description, for an operator description's tensor fields.
    const DML_TENSOR_DESC* desc() const noexcept { return &tensor_; }
    /// Bytes of the tensor's buffer range (TotalTensorSizeInBytes).
    uint64_t bytes() const noexcept { return buffer_.TotalTensorSizeInBytes; }
    /// Number of elements (the product of the sizes).
    uint64_t elements() const noexcept {
        uint64_t n = 1;
        for (uint32_t size : sizes_) n *= size;
        return n;
    }
    /// The data type.
    DML_TENSOR_DATA_TYPE type() const noexcept { return buffer_.DataType; }
    /// The sizes, outermost first.
    std::span<const uint32_t> sizes() const noexcept { return sizes_; }

private:
    void link() {
        buffer_.DimensionCount = static_cast<uint32_t>(sizes_.size());
        buffer_.Sizes = sizes_.data();
        buffer_.TotalTensorSizeInBytes =
            DMLCalcBufferTensorSize(buffer_.DataType, buffer_.DimensionCount, sizes_.data(), nullptr);
        tensor_ = {DML_TENSOR_TYPE_BUFFER, &buffer_};
    }
    std::vector<uint32_t> sizes_;
    DML_BUFFER_TENSOR_DESC buffer_;
    DML_TENSOR_DESC tensor_{};
};

// ----------------------------------------------------------------------------------------------
// Data type helpers (all thread-safe; returned strings and spans are static)

/// The class of a data type.
enum class TypeClass { floating_point, signed_integer, unsigned_integer };

/// What vkdml knows of one DirectML data type: one constexpr row per type (kTypeInfo, type_info), which
/// the library, its tool, the Python module and the tests all read. Adding a type is one row here plus
/// its kernels' storage block.
struct TypeInfo {
    DML_TENSOR_DATA_TYPE type;
    uint32_t size;           ///< bytes per element
    const char* name;        ///< DirectML's suffix: "FLOAT32", "INT8", ...
    const char* numpy_name;  ///< NumPy's dtype name: "float32", "int8", ...
    char numpy_kind;         ///< NumPy's dtype.kind: 'f', 'i' or 'u'
    TypeClass type_class;
    /// What sums, products and a scan's partials accumulate in: FLOAT32 for FLOAT16 and FLOAT32, FLOAT64,
    /// UINT64 for 64-bit integers and UINT32 for narrower ones (two's complement makes signed and unsigned
    /// sums alike). Float partials are compensated pairs of it.
    DML_TENSOR_DATA_TYPE accumulator;
    /// The optional Vulkan features (VkPhysicalDevice*Features member names) a device needs for it, in
    /// the order supports() checks them; nullptr after the last.
    const char* features[2];
    bool index_output;  ///< allowed as ARGMIN/ARGMAX's output (INT32, INT64, UINT32, UINT64)
};

/// The 11 rows, in DML_TENSOR_DATA_TYPE order (FLOAT32 = 1 ... INT64 = 11).
inline constexpr TypeInfo kTypeInfo[] = {
    {DML_TENSOR_DATA_TYPE_FLOAT32,
     4,
     "FLOAT32",
     "float32",
     'f',
     TypeClass::floating_point,
     DML_TENSOR_DATA_TYPE_FLOAT32,
     {nullptr, nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_FLOAT16,
     2,
     "FLOAT16",
     "float16",
     'f',
     TypeClass::floating_point,
     DML_TENSOR_DATA_TYPE_FLOAT32,
     {"storageBuffer16BitAccess", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_UINT32,
     4,
     "UINT32",
     "uint32",
     'u',
     TypeClass::unsigned_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {nullptr, nullptr},
     true},
    {DML_TENSOR_DATA_TYPE_UINT16,
     2,
     "UINT16",
     "uint16",
     'u',
     TypeClass::unsigned_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {"storageBuffer16BitAccess", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_UINT8,
     1,
     "UINT8",
     "uint8",
     'u',
     TypeClass::unsigned_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {"storageBuffer8BitAccess", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_INT32,
     4,
     "INT32",
     "int32",
     'i',
     TypeClass::signed_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {nullptr, nullptr},
     true},
    {DML_TENSOR_DATA_TYPE_INT16,
     2,
     "INT16",
     "int16",
     'i',
     TypeClass::signed_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {"storageBuffer16BitAccess", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_INT8,
     1,
     "INT8",
     "int8",
     'i',
     TypeClass::signed_integer,
     DML_TENSOR_DATA_TYPE_UINT32,
     {"storageBuffer8BitAccess", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_FLOAT64,
     8,
     "FLOAT64",
     "float64",
     'f',
     TypeClass::floating_point,
     DML_TENSOR_DATA_TYPE_FLOAT64,
     {"shaderFloat64", nullptr},
     false},
    {DML_TENSOR_DATA_TYPE_UINT64,
     8,
     "UINT64",
     "uint64",
     'u',
     TypeClass::unsigned_integer,
     DML_TENSOR_DATA_TYPE_UINT64,
     {"shaderInt64", "shaderSubgroupExtendedTypes"},
     true},
    {DML_TENSOR_DATA_TYPE_INT64,
     8,
     "INT64",
     "int64",
     'i',
     TypeClass::signed_integer,
     DML_TENSOR_DATA_TYPE_UINT64,
     {"shaderInt64", "shaderSubgroupExtendedTypes"},
     true},
};

/// The row of `type`, or nullptr for UNKNOWN or an out-of-range value.
constexpr const TypeInfo* type_info(DML_TENSOR_DATA_TYPE type) noexcept {
    const int i = static_cast<int>(type) - 1;
    return i >= 0 && i < static_cast<int>(std::size(kTypeInfo)) ? &kTypeInfo[i] : nullptr;
}

/// Size in bytes of one element (0 for UNKNOWN or an out-of-range value).
VKDML_API uint32_t element_size(DML_TENSOR_DATA_TYPE type) noexcept;
/// True for FLOAT16, FLOAT32 and FLOAT64.
constexpr bool is_float_type(DML_TENSOR_DATA_TYPE type) noexcept {
    const TypeInfo* info = type_info(type);
    return info && info->type_class == TypeClass::floating_point;
}
/// True for INT8, INT16, INT32 and INT64 (two's complement).
constexpr bool is_signed_integer_type(DML_TENSOR_DATA_TYPE type) noexcept {
    const TypeInfo* info = type_info(type);
    return info && info->type_class == TypeClass::signed_integer;
}
/// Upper-case DirectML suffix ("FLOAT32", "INT8", ...), or "UNKNOWN" for UNKNOWN or an out-of-range value.
VKDML_API const char* to_string(DML_TENSOR_DATA_TYPE type) noexcept;
/// DirectML operator name ("CUMULATIVE_SUMMATION", ...), or "INVALID" for a type vkdml does not implement.
VKDML_API const char* to_string(DML_OPERATOR_TYPE type) noexcept;
/// DirectML reduce function suffix ("SUM", "LOG_SUM_EXP", ...), or "UNKNOWN" for an out-of-range value.
VKDML_API const char* to_string(DML_REDUCE_FUNCTION function) noexcept;
/// The 11 data types vkdml knows (all but UNKNOWN), in DML_TENSOR_DATA_TYPE order.
VKDML_API std::span<const DML_TENSOR_DATA_TYPE> all_data_types() noexcept;

/// An operator this vkdml implements: its DirectML type and name, the names the `vkdml` tool and the
/// Python module give it, and its kind.
struct OperatorInfo {
    DML_OPERATOR_TYPE type;
    const char* name;     ///< DirectML's, as to_string prints it: "CUMULATIVE_SUMMATION"
    const char* command;  ///< the `vkdml` tool's command: "cumsum"
    const char* python;   ///< the function of the Python module's vkdml.dml: "cumulative_sum"
    /// A cumulative operator (a scan along one Axis, laid out as DML_CUMULATIVE_SUMMATION_OPERATOR_DESC);
    /// else a reduction over Axes (REDUCE, ARGMIN, ARGMAX).
    bool cumulative;
};
/// Every operator this vkdml implements (the operator table), in the order `vkdml info` lists them:
/// CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT, vkdml's CUMULATIVE_MAXIMUM, CUMULATIVE_MINIMUM and
/// LOG_CUMULATIVE_SUM_EXP, then REDUCE, ARGMIN, ARGMAX.
VKDML_API std::span<const OperatorInfo> operators() noexcept;

}  // namespace vkdml

#endif  // C++20
