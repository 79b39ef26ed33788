// detail::ApiAccess: the library's one way into the private parts of the public classes (vkdml.hpp
// declares it their friend). Not installed; tests that need internals include it from src/.
#pragma once

#include "vkdml/submission.hpp"
#include "vkdml/vkdml.hpp"

#include <memory>
#include <utility>

namespace vkdml::detail {

struct ApiAccess {
    /// The state behind a Device (never null).
    static const std::shared_ptr<DeviceState>& state(const Device& device) noexcept { return device.s_; }
    /// The state behind an Operator (null once moved from).
    static const std::shared_ptr<const OperatorState>& state(const Operator& op) noexcept { return op.s_; }
    /// The state behind a CompiledOperator (null once moved from).
    static const std::shared_ptr<const CompiledState>& state(const CompiledOperator& compiled) noexcept {
        return compiled.s_;
    }

    /// A Device over a state made by Device::create or Device::adopt.
    static std::shared_ptr<Device> make_device(std::shared_ptr<DeviceState> state) {
        return std::shared_ptr<Device>(new Device(std::move(state)));
    }
    /// An Operator over a validated, deep-copied description (Device::create_operator).
    static Operator make_operator(std::shared_ptr<const OperatorState> state) {
        return Operator(std::move(state));
    }
    /// The state behind a HostExecution (null once moved from).
    static const HostExecution::State* state(const HostExecution& execution) noexcept {
        return execution.s_.get();
    }
    /// The state behind a MappedBuffer (null when empty).
    static const std::shared_ptr<const MappedBufferState>& state(const MappedBuffer& buffer) noexcept {
        return buffer.s_;
    }
    /// A MappedBuffer over a created buffer (MappedBuffer::create).
    static MappedBuffer make_mapped_buffer(std::shared_ptr<const MappedBufferState> state) {
        MappedBuffer b;
        b.s_ = std::move(state);
        return b;
    }
    /// A Submission over submitted work (submit; defined in vulkan/submission.cpp, where the state is).
    static Submission make_submission(std::unique_ptr<SubmissionState> state) noexcept;
    /// A HostExecution of a compiled operator whose buffers the host path's memory checks let through:
    /// its buffers allocated and its command buffer recorded (defined in vulkan/host_execute.cpp).
    static Result<HostExecution> make_host_execution(DeviceState& device, const OperatorState& op,
                                                     CompiledOperator compiled, uint64_t temporary_bytes);
    /// A CompiledOperator over a plan with its pipelines (Device::compile_operator).
    static CompiledOperator make_compiled(std::shared_ptr<const CompiledState> state) {
        return CompiledOperator(std::move(state));
    }
};

}  // namespace vkdml::detail
