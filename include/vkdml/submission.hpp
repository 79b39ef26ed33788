// vkdml/submission.hpp — keeping data on the device between operators: buffers that the host maps,
// and operators submitted without waiting (the host path of vkdml.hpp in two halves). What the Python
// module's arrays and its buffer pool stand on; for C++ applications that chain operators over host
// data without a copy in between and without recording their own command buffers.
//
//     auto a = vkdml::MappedBuffer::create(*device, bytes);        // fill a->data()
//     auto b = vkdml::MappedBuffer::create(*device, bytes);
//     auto s = vkdml::submit(compiled, {{*a}}, {{*b}});            // returns at once
//     s->wait();                                                   // b->data() holds the results
#pragma once

#include "vkdml/vkdml.hpp"

namespace vkdml {

namespace detail {
struct MappedBufferState;
struct SubmissionState;
}  // namespace detail

/// A Vulkan buffer with memory of its own that the host maps for as long as it lives: host-visible and
/// host-coherent memory, device-local as well where the device has such a type (integrated GPUs,
/// lavapipe, discrete GPUs with resizable BAR), as HostExecution's buffers. Usage: storage buffer,
/// transfer source and destination. Copies share one buffer (a reference count); the buffer, its memory
/// and its device's state live until the last copy and the last Submission using it are gone. The host
/// may write data() before a submit() that reads the buffer and read it after that Submission's wait();
/// touching it while work using it is in flight is a data race. A default-constructed MappedBuffer is
/// empty (size 0, no buffer).
class MappedBuffer {
public:
    /// Allocates and maps `bytes` bytes (rounded up to 16 in the buffer; size() is `bytes`). The
    /// contents start undefined.
    /// Errors: invalid_argument (bytes 0); out_of_memory (more than the device's maxBufferSize or
    /// maxMemoryAllocationSize, or vkAllocateMemory failed); unsupported_device (no host-visible,
    /// host-coherent memory type for a storage buffer); device_lost or vulkan_error (vkCreateBuffer,
    /// vkAllocateMemory, vkBindBufferMemory or vkMapMemory failed). Thread-safe.
    VKDML_API static Result<MappedBuffer> create(const Device& device, uint64_t bytes);

    VKDML_API MappedBuffer() noexcept;
    VKDML_API MappedBuffer(const MappedBuffer&) noexcept;
    VKDML_API MappedBuffer& operator=(const MappedBuffer&) noexcept;
    VKDML_API ~MappedBuffer();

    /// Bytes asked for at create() (0 when empty).
    VKDML_API uint64_t size() const noexcept;
    /// The mapped bytes, size() long (empty when empty).
    VKDML_API std::span<std::byte> data() const noexcept;
    /// Whether its memory is device-local (else the device reads it over the bus).
    VKDML_API bool device_local() const noexcept;
    /// The buffer as a binding for CompiledOperator::record: offset 0, size() bytes.
    VKDML_API BufferBinding binding() const noexcept;
    /// Whether it holds a buffer.
    explicit operator bool() const noexcept { return s_ != nullptr; }

private:
    friend struct detail::ApiAccess;
    std::shared_ptr<const detail::MappedBufferState> s_;
};

/// An operator's work submitted to its device's queue by submit(), not yet waited for. Holds the
/// compiled operator, the buffers it binds, its command buffer and fence until it is destroyed; the
/// destructor waits for the work first (a Submission never frees anything the device still uses).
/// Move-only; not for use from several threads at once.
class Submission {
public:
    VKDML_API Submission(Submission&&) noexcept;
    VKDML_API Submission& operator=(Submission&&) noexcept;
    /// Waits for the work (errors ignored; a lost device does not block), then frees it.
    VKDML_API ~Submission();

    /// Waits, without a timeout, until the work has completed: the outputs' data() then holds the
    /// results. Calling it again returns the first call's status at once.
    /// Errors: device_lost (lost during the work); out_of_memory or vulkan_error (vkWaitForFences).
    VKDML_API Status wait();
    /// Whether the work has completed (vkGetFenceStatus; true once wait() has returned, and for a
    /// lost device).
    VKDML_API bool done() const;

private:
    friend struct detail::ApiAccess;
    explicit Submission(std::unique_ptr<detail::SubmissionState> s) noexcept;
    std::unique_ptr<detail::SubmissionState> s_;
};

/// Records `compiled` over whole buffers (one per input and per output of its description, in order;
/// `temporary` when binding_properties().TemporaryResourceSize is not 0, else ignored) into a command
/// buffer of its own, with a barrier before it that orders it after every operator submitted before
/// it on the device (so an output of one submit may be the input of the next without a wait) and one
/// after it to the host, and submits it under Device::lock_queue without waiting. An output may be
/// the same buffer as the input of a cumulative operator (in place).
/// Errors: invalid_argument (a moved-from compiled operator); invalid_binding (wrong number of
/// buffers, an empty buffer, a buffer of another device, a buffer smaller than its tensor's
/// TotalTensorSizeInBytes or the temporary size, and the rest of CompiledOperator::record's binding
/// rules); device_lost; out_of_memory or vulkan_error (creating the command pool, buffer or fence,
/// recording, vkQueueSubmit). Nothing is submitted on error. Thread-safe with respect to other
/// submits and HostExecution runs on the device.
VKDML_API Result<Submission> submit(const CompiledOperator& compiled, std::span<const MappedBuffer> inputs,
                                    std::span<const MappedBuffer> outputs,
                                    const MappedBuffer& temporary = MappedBuffer());

}  // namespace vkdml
