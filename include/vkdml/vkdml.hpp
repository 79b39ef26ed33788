// vkdml/vkdml.hpp — the C++ API: DirectML's operator lifecycle on a Vulkan device.
//
//   auto dev = vkdml::Device::create();                       // or Device::adopt(...)
//   auto op  = dev.value()->create_operator(desc);            // validates, deep-copies
//   auto co  = dev.value()->compile_operator(*op, flags);     // picks kernels, builds pipelines
//   co->binding_properties();                                 // temporary scratch size
//   co->record(cmd, bindings);                                // into the caller's command buffer
//
// or, for tools and tests, one call with host arrays: vkdml::execute(*dev, desc, inputs, outputs).
//
// Errors are values (vkdml::Result); no exception crosses this API. Vulkan handles are the
// application's: the header needs only <vulkan/vulkan_core.h> types, never Vulkan functions.
#pragma once

#include "vkdml/directml.h"
#include "vkdml/export.hpp"

#include <cstdint>
#include <functional>
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

/// What went wrong, coarsely; Error::message says exactly what.
enum class ErrorCode : int {
    invalid_descriptor = 1,  ///< an operator or tensor description breaks a SPEC §2 rule
    unsupported_type = 2,    ///< the data type is not allowed for this operator (SPEC §4)
    unsupported_device = 3,  ///< the device lacks a Vulkan feature, extension or limit this needs
    invalid_binding = 4,     ///< a buffer binding is missing, too small, misaligned or overlapping
    no_device = 5,           ///< no Vulkan device (or none matching the selection) was found
    out_of_memory = 6,       ///< a host or device allocation failed
    device_lost = 7,         ///< VK_ERROR_DEVICE_LOST
    vulkan_error = 8,        ///< any other failing VkResult (the message names the call)
    invalid_argument = 9,    ///< a bad argument to a vkdml function other than a descriptor
};

/// Stable lower-case name of an error code ("invalid_descriptor", ...).
VKDML_API const char* to_string(ErrorCode code) noexcept;

/// An error: a code and a message naming the operator, tensor, field, rule and offending values.
struct Error {
    ErrorCode code{};
    std::string message;
};

/// Either a value or an Error. Test with `if (r)`, read with `*r` / `r->`, or `r.error()`.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}
    explicit operator bool() const noexcept { return v_.index() == 0; }
    bool has_value() const noexcept { return v_.index() == 0; }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

/// Success or an Error (Result without a value).
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : e_(std::move(error)) {}
    explicit operator bool() const noexcept { return !e_.has_value(); }
    bool ok() const noexcept { return !e_.has_value(); }
    const Error& error() const { return *e_; }

private:
    std::optional<Error> e_;
};

// ----------------------------------------------------------------------------------------------
// Devices

/// One Vulkan physical device as vkdml sees it.
struct PhysicalDeviceInfo {
    uint32_t index = 0;  ///< position in vkEnumeratePhysicalDevices order
    std::string name;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    uint32_t api_version = 0;
    uint32_t vendor_id = 0;
    uint32_t device_id = 0;
    std::string driver_name;  ///< e.g. "llvmpipe", "NVIDIA"
    std::string driver_info;
};

/// Limits and capabilities of the device an operator runs on.
struct DeviceInfo {
    PhysicalDeviceInfo physical;
    uint32_t subgroup_size = 0;
    bool subgroup_arithmetic = false;  ///< compute stage supports subgroup arithmetic
    bool subgroup_shuffle = false;     ///< compute stage supports subgroup shuffles
    uint64_t max_storage_buffer_range = 0;
    uint32_t max_workgroup_count[3] = {};
    uint32_t max_workgroup_invocations = 0;
    uint32_t max_shared_memory_bytes = 0;
    uint32_t max_push_constants_bytes = 0;
    uint64_t min_storage_buffer_offset_alignment = 0;
    uint64_t max_memory_allocation_size = 0;
    uint64_t max_buffer_size = 0;    ///< VkPhysicalDeviceMaintenance4Properties (UINT64_MAX without it)
    uint64_t host_visible_heap = 0;  ///< bytes of the largest heap with host-visible memory
    bool timestamps = false;
    float timestamp_period_ns = 0;
    bool shader_int64 = false, shader_float64 = false;
    bool storage_buffer_8bit = false, storage_buffer_16bit = false;
    bool subgroup_extended_types = false;
};

/// Answer of the feature query: is a data type usable for an operator on this device, and if not,
/// why (the SPEC §4 rule, or the missing Vulkan feature by its VkPhysicalDevice*Features name).
struct TypeSupport {
    bool supported = false;
    std::string reason;  ///< empty when supported
};

/// Receives every message of the Vulkan validation layer (when enabled), on the thread whose Vulkan
/// call raised it, possibly while vkdml holds an internal lock: it must not create, adopt or
/// enumerate devices.
using ValidationCallback = std::function<void(std::string_view message)>;

/// How Device::create chooses and sets up a device.
struct DeviceOptions {
    /// Empty: the environment variable VKDML_DEVICE if set, else the best device (discrete, then
    /// integrated, then virtual, then CPU). Otherwise a decimal index into the device list or a
    /// case-insensitive substring of the device name.
    std::string selector;
    /// Enable VK_LAYER_KHRONOS_validation and route its messages to on_validation_message.
    bool validation = false;
    ValidationCallback on_validation_message;
    /// false: plan only kernels that use no subgroup arithmetic or shuffles, as on a device without
    /// them (info() then reports both as unsupported). For drivers whose subgroup operations are
    /// suspect, and to compare the two kernel families; results are exact either way.
    bool subgroup_operations = true;

    /// Which kernel family the planner prefers. automatic: by device type; CPU devices (lavapipe) get
    /// the serial family, GPUs the cooperative one where a shape suits it. serial: an invocation per
    /// chunk of a line, with vector loads where the layout allows (what CPUs run fastest).
    /// cooperative: a workgroup per chunk with subgroup scans and reductions where the shape suits it
    /// (what GPUs run fastest). For testing a family on a device that would not choose it, and for
    /// comparing them; results are exact either way and floats differ only by summation order.
    enum class Kernels { automatic, serial, cooperative };
    Kernels kernels = Kernels::automatic;

    /// The optional Vulkan features vkdml enables where the device has them. false leaves one off, as
    /// on a device without it: info() reports it absent, supports() names it as the reason a type is
    /// unsupported, and create_operator refuses those types (ErrorCode::unsupported_device). For
    /// reproducing a smaller device and testing its refusals on any device.
    struct Features {
        bool shader_int64 = true;             ///< shaderInt64: INT64, UINT64
        bool shader_float64 = true;           ///< shaderFloat64: FLOAT64
        bool storage_buffer_8bit = true;      ///< storageBuffer8BitAccess: INT8, UINT8
        bool storage_buffer_16bit = true;     ///< storageBuffer16BitAccess: FLOAT16, INT16, UINT16
        bool subgroup_extended_types = true;  ///< shaderSubgroupExtendedTypes: INT64, UINT64 as well
    };
    Features features;

    /// Limits to plan with instead of the device's own (0 keeps the device's). Bindings larger than
    /// max_storage_buffer_range bytes are seen through several windows and dispatches beyond
    /// max_workgroup_count workgroups per dimension are cut into several, exactly as on a device with
    /// those limits: for testing the paths of tensors bigger than the device's limits at small sizes,
    /// and for reproducing a smaller device's plans. info() reports the limits in force. A value
    /// above the device's, a range below 64 bytes plus minStorageBufferOffsetAlignment (at least 16)
    /// or a count of 1 is an invalid_argument error.
    struct Limits {
        uint64_t max_storage_buffer_range = 0;
        uint32_t max_workgroup_count = 0;
    } limits;
};

class Operator;
class CompiledOperator;
struct DeviceState;

/// The Vulkan objects behind a Device: for an application that creates its own buffers, command
/// buffers and query pools on a device vkdml created (or adopted). They stay owned by the Device and
/// valid while it lives; the application must not destroy them.
struct VulkanHandles {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family_index = 0;  ///< a family with compute capability
    VkQueue queue = VK_NULL_HANDLE;   ///< externally synchronised: see Device::lock_queue
    /// Resolves instance and device functions for these handles (the loader's, or the adopter's).
    PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
};

/// A Vulkan device with its queue and pipeline cache. Thread-safe: operators may be created,
/// compiled and recorded from several threads at once. Shared by the operators made from it, so it
/// lives until the last of them is gone.
class VKDML_API Device {
public:
    /// Lists the Vulkan physical devices visible to the loader.
    static Result<std::vector<PhysicalDeviceInfo>> enumerate();

    /// Creates an instance and a device of its own (see DeviceOptions for the choice).
    static Result<std::shared_ptr<Device>> create(const DeviceOptions& options = {});

    /// Uses the application's instance, physical device, device and a queue of a compute-capable
    /// family. vkdml never destroys adopted handles. The device must have been created with Vulkan
    /// 1.2 or later and VK_KHR_push_descriptor enabled. `enabled_features` is the feature chain the
    /// application passed to vkCreateDevice (VkPhysicalDeviceFeatures2 with Vulkan11/Vulkan12 or the
    /// per-feature structs in pNext); vkdml reads which of shaderInt64, shaderFloat64,
    /// storageBuffer8BitAccess, storageBuffer16BitAccess and shaderSubgroupExtendedTypes are on, and
    /// supports() answers accordingly. Null means none of them.
    static Result<std::shared_ptr<Device>> adopt(VkInstance instance, VkPhysicalDevice physical_device,
                                                 VkDevice device, uint32_t queue_family_index, VkQueue queue,
                                                 PFN_vkGetInstanceProcAddr get_instance_proc_addr,
                                                 const VkPhysicalDeviceFeatures2* enabled_features);

    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const DeviceInfo& info() const noexcept;

    /// Feature query in the spirit of IDMLDevice::CheckFeatureSupport: whether `op` runs on `type`
    /// on this device, and if not why (an operator vkdml does not implement, an unknown type, or the
    /// missing Vulkan feature by name). As input type: for REDUCE this holds for SUM, MULTIPLY, MIN, MAX,
    /// L1, SUM_SQUARE and the arg functions; AVERAGE, L2, LOG_SUM and LOG_SUM_EXP also need a float type
    /// (SPEC §4). Index outputs of ARGMIN/ARGMAX (any of INT32, INT64, UINT32, UINT64) need no feature.
    TypeSupport supports(DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) const;

    /// Validates the description against SPEC §2 and §4 and the device, and deep-copies it.
    /// Implemented: DML_OPERATOR_REDUCE, _CUMULATIVE_SUMMATION, _ARGMIN, _ARGMAX and _CUMULATIVE_PRODUCT;
    /// any other type is ErrorCode::invalid_descriptor. The Axes array of a reduction is copied too.
    Result<Operator> create_operator(const DML_OPERATOR_DESC& desc) const;

    /// Plans the operator for this device and creates (or reuses) its pipelines.
    Result<CompiledOperator> compile_operator(const Operator& op,
                                              DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE) const;

    /// Whether a Vulkan call of vkdml on this device returned VK_ERROR_DEVICE_LOST. From then on every
    /// call that would use the device (create_operator, compile_operator, record, the host path)
    /// fails with ErrorCode::device_lost; the application should create a new Device.
    bool is_lost() const noexcept;

    /// Number of distinct pipelines created so far on this device (the cache's size).
    size_t pipeline_count() const;

    /// The Vulkan handles of this device (see VulkanHandles).
    VulkanHandles vulkan() const noexcept;

    /// The lock vkdml holds while it submits to the queue (HostExecution::run, execute). An application
    /// submitting to vulkan().queue from another thread at the same time must hold it too (Vulkan
    /// requires queue access to be externally synchronised).
    [[nodiscard]] std::unique_lock<std::mutex> lock_queue() const;

    /// Internal state (for the implementation).
    const std::shared_ptr<DeviceState>& state() const noexcept { return s_; }

    explicit Device(std::shared_ptr<DeviceState> s);

private:
    std::shared_ptr<DeviceState> s_;
};

// ----------------------------------------------------------------------------------------------
// Operators

struct OperatorState;
struct CompiledState;

/// A validated, deep-copied operator description (IDMLOperator). Cheap to copy (shared).
class VKDML_API Operator {
public:
    DML_OPERATOR_TYPE type() const noexcept;
    /// The stored description; pointers inside it point into this Operator's own storage.
    const DML_OPERATOR_DESC& desc() const noexcept;
    const std::shared_ptr<const OperatorState>& state() const noexcept { return s_; }
    explicit Operator(std::shared_ptr<const OperatorState> s) : s_(std::move(s)) {}

private:
    std::shared_ptr<const OperatorState> s_;
};

/// A range of a Vulkan buffer (DML_BUFFER_BINDING), with what the buffer was created with. Vulkan
/// cannot be asked a VkBuffer's size or usage, so the caller states both and record() checks the
/// range and the usage against them (SPEC §2 rule 9). A declared buffer_size larger than the
/// buffer's vkGetBufferMemoryRequirements size is caught; one between the real size and that
/// (alignment padding) cannot be told from the truth.
struct BufferBinding {
    VkBuffer buffer = VK_NULL_HANDLE;  ///< a buffer of the device the operator was compiled for
    VkDeviceSize offset = 0;           ///< bytes from the start of the buffer
    VkDeviceSize size = 0;             ///< bytes of the range, at least the tensor's TotalTensorSizeInBytes
    VkDeviceSize buffer_size = 0;      ///< VkBufferCreateInfo::size of the buffer (0 is refused)
    VkBufferUsageFlags usage = 0;      ///< VkBufferCreateInfo::usage; must include STORAGE_BUFFER_BIT
};

/// The buffers of one execution: inputs and outputs in the order of the operator's description,
/// and the temporary buffer when binding_properties().TemporaryResourceSize > 0.
struct Bindings {
    std::span<const BufferBinding> inputs;
    std::span<const BufferBinding> outputs;
    std::optional<BufferBinding> temporary;
};

/// Where record() writes a timestamp (vkCmdWriteTimestamp at the compute-shader stage) after each pass
/// p: query first_query + p of `pool`, a VK_QUERY_TYPE_TIMESTAMP pool with at least first_query +
/// pass_count() queries, reset before use. Pass p took the time from the timestamp before it (the
/// application's own, for p = 0) to its own; DeviceInfo::timestamp_period_ns converts ticks to ns.
struct PassTimestamps {
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t first_query = 0;
};

/// An operator planned for a device (IDMLCompiledOperator). Cheap to copy; immutable, so it may be
/// recorded many times, into many command buffers, from several threads at once.
class VKDML_API CompiledOperator {
public:
    /// Temporary scratch the plan needs (TemporaryResourceSize); persistent size is always 0.
    DML_BINDING_PROPERTIES binding_properties() const noexcept;

    /// Number of dispatches record() emits.
    uint32_t pass_count() const noexcept;

    /// Validates the bindings and records the dispatches (with barriers between its own passes,
    /// none before or after) into a command buffer in the recording state.
    Status record(VkCommandBuffer command_buffer, const Bindings& bindings) const;

    /// record(), also writing a GPU timestamp after each pass, for a per-pass time breakdown.
    Status record(VkCommandBuffer command_buffer, const Bindings& bindings,
                  const PassTimestamps& timestamps) const;

    const std::shared_ptr<const CompiledState>& state() const noexcept { return s_; }
    explicit CompiledOperator(std::shared_ptr<const CompiledState> s) : s_(std::move(s)) {}

private:
    std::shared_ptr<const CompiledState> s_;
};

// ----------------------------------------------------------------------------------------------
// Host convenience path

/// One operator with host-visible device buffers of its own, mapped into the process: execute()
/// without staging copies. Put the inputs' bytes into input(i) (read a file straight into it), run(),
/// and read the results from output(i). Each buffer holds its tensor's whole range
/// (TotalTensorSizeInBytes bytes, laid out by the tensor's strides). Output bytes the operator does
/// not write (padding) keep whatever was put there; create() initialises nothing. run() may be
/// called again, after changing the inputs. Move-only; not for use from several threads at once.
class VKDML_API HostExecution {
public:
    /// Validates and compiles the operator and allocates its buffers. Before allocating, refuses
    /// (ErrorCode::out_of_memory) a buffer larger than the device's maxBufferSize or
    /// maxMemoryAllocationSize, or buffers larger in all than its largest host-visible heap.
    static Result<HostExecution> create(const Device& device, const DML_OPERATOR_DESC& desc,
                                        DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE);
    HostExecution(HostExecution&&) noexcept;
    HostExecution& operator=(HostExecution&&) noexcept;
    ~HostExecution();

    size_t input_count() const noexcept;
    size_t output_count() const noexcept;
    /// The mapped bytes of input (output) i: TotalTensorSizeInBytes long. Empty for a bad index.
    std::span<std::byte> input(size_t i) const noexcept;
    std::span<std::byte> output(size_t i) const noexcept;

    /// Records the operator, submits it and waits; the outputs are then readable.
    Status run();

private:
    struct State;
    explicit HostExecution(std::unique_ptr<State> s);
    std::unique_ptr<State> s_;
};

/// Runs one operator on host arrays: allocates device buffers, uploads, records, submits, waits and
/// downloads (HostExecution plus a copy each way). Each array holds the bytes of its tensor's whole
/// buffer range (TotalTensorSizeInBytes bytes, laid out by the tensor's strides). Output arrays are
/// also uploaded first, so bytes the operator does not write (padding) keep their values. An output
/// may be the same array as an input (in place).
VKDML_API Status execute(const Device& device, const DML_OPERATOR_DESC& desc,
                         std::span<const void* const> inputs, std::span<void* const> outputs,
                         DML_EXECUTION_FLAGS flags = DML_EXECUTION_FLAG_NONE);

// ----------------------------------------------------------------------------------------------
// Data type helpers

/// Size in bytes of one element (0 for UNKNOWN or an out-of-range value).
VKDML_API uint32_t element_size(DML_TENSOR_DATA_TYPE type) noexcept;
/// Upper-case DirectML suffix ("FLOAT32", "INT8", ...), or "UNKNOWN".
VKDML_API const char* to_string(DML_TENSOR_DATA_TYPE type) noexcept;
/// DirectML operator name ("CUMULATIVE_SUMMATION", ...), or "INVALID".
VKDML_API const char* to_string(DML_OPERATOR_TYPE type) noexcept;
/// DirectML reduce function suffix ("SUM", "LOG_SUM_EXP", ...), or "UNKNOWN" for an out-of-range value.
VKDML_API const char* to_string(DML_REDUCE_FUNCTION function) noexcept;
/// The 11 data types vkdml knows, in DML_TENSOR_DATA_TYPE order.
VKDML_API std::span<const DML_TENSOR_DATA_TYPE> all_data_types() noexcept;

}  // namespace vkdml
