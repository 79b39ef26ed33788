// The host convenience path: HostExecution (own mapped buffers, record, submit, wait) and execute()
// (the same with a copy from and to the caller's arrays).
#include "core/errors.hpp"
#include "front/operator_state.hpp"
#include "vkdml/profiling.hpp"
#include "vulkan/commands.hpp"
#include "vulkan/host_buffer.hpp"
#include "vulkan/host_stream.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace vkdml {

namespace {

using detail::Commands;
using detail::HostBuffer;
using detail::make_error;

/// Host path buffers are whole buffers; their size rounds the tensor up to 16 bytes.
uint64_t buffer_bytes(const TensorCopy& t) {
    return (t.buffer.TotalTensorSizeInBytes + 15) / 16 * 16;
}

/// One buffer the host path allocates: what it is for (in messages) and its size.
struct Need {
    std::string what;
    uint64_t bytes;
};

/// The buffers the host path allocates for an operator: inputs, outputs, then the temporary one.
std::vector<Need> buffer_needs(const OperatorState& o, uint64_t temporary_bytes) {
    std::vector<Need> needs;
    for (size_t i = 0; i < o.inputs.size(); ++i)
        needs.push_back({"input " + std::to_string(i), buffer_bytes(*o.inputs[i])});
    for (size_t i = 0; i < o.outputs.size(); ++i)
        needs.push_back({"output " + std::to_string(i), buffer_bytes(*o.outputs[i])});
    if (temporary_bytes > 0) needs.push_back({"the temporary buffer", temporary_bytes});
    return needs;
}

/// One buffer larger than maxBufferSize or maxMemoryAllocationSize is refused (`op` names the operator).
Status check_buffer_limits(const DeviceInfo& info, const char* op, const Need& n) {
    if (n.bytes > info.max_buffer_size)
        return make_error(ErrorCode::out_of_memory, "execute: ", op, ": ", n.what, " needs a buffer of ",
                          n.bytes, " bytes, more than this device's maxBufferSize (", info.max_buffer_size,
                          "); bind your own buffers with CompiledOperator::record instead");
    if (n.bytes > info.max_memory_allocation_size)
        return make_error(ErrorCode::out_of_memory, "execute: ", op, ": ", n.what, " needs an allocation of ",
                          n.bytes, " bytes, more than this device's maxMemoryAllocationSize (",
                          info.max_memory_allocation_size,
                          "); bind your own buffers with CompiledOperator::record instead");
    return {};
}

/// Refuses, before allocating anything, buffers the device cannot hold: one larger than maxBufferSize
/// or maxMemoryAllocationSize, or all of them together larger than the host-visible heap.
Status check_memory(const DeviceInfo& info, const OperatorState& o, uint64_t temporary_bytes) {
    const char* op = to_string(o.desc.Type);
    uint64_t total = 0;
    std::string list;
    for (const Need& n : buffer_needs(o, temporary_bytes)) {
        if (auto st = check_buffer_limits(info, op, n); !st) return st;
        total += n.bytes;
        list += (list.empty() ? "" : ", ") + n.what + " " + std::to_string(n.bytes);
    }
    if (total > info.host_visible_heap)
        return make_error(ErrorCode::out_of_memory, "execute: ", op, ": the host path needs ", total,
                          " bytes of host-visible device memory (", list,
                          "), more than this device's largest host-visible heap (", info.host_visible_heap,
                          ")");
    return {};
}

/// One host buffer per tensor, each TotalTensorSizeInBytes rounded up to 16; their byte counts in `bytes`.
Status allocate_tensor_buffers(DeviceState& d, const std::vector<std::unique_ptr<TensorCopy>>& tensors,
                               std::vector<HostBuffer>& buffers, std::vector<uint64_t>& bytes) {
    for (const auto& t : tensors) {
        auto b = HostBuffer::create(d, buffer_bytes(*t));
        if (!b) return b.error();
        buffers.push_back(std::move(*b));
        bytes.push_back(t->buffer.TotalTensorSizeInBytes);
    }
    return {};
}

/// The caller gave one array per input and per output of `o`, each at least as long as its tensor.
Status check_arrays(const OperatorState& o, std::span<const std::span<const std::byte>> inputs,
                    std::span<const std::span<std::byte>> outputs) {
    if (inputs.size() != o.inputs.size() || outputs.size() != o.outputs.size())
        return make_error(ErrorCode::invalid_argument, "execute: ", to_string(o.desc.Type), " takes ",
                          o.inputs.size(), " input and ", o.outputs.size(), " output arrays, got ",
                          inputs.size(), " and ", outputs.size());
    const auto check = [](const char* what, size_t i, size_t have, uint64_t need) -> Status {
        if (have >= need) return {};
        return make_error(ErrorCode::invalid_argument, "execute: ", what, " array ", i, " holds ", have,
                          " bytes; its tensor needs ", need, " (TotalTensorSizeInBytes)");
    };
    for (size_t i = 0; i < inputs.size(); ++i)
        if (auto st = check("input", i, inputs[i].size(), o.inputs[i]->buffer.TotalTensorSizeInBytes); !st)
            return st;
    for (size_t i = 0; i < outputs.size(); ++i)
        if (auto st = check("output", i, outputs[i].size(), o.outputs[i]->buffer.TotalTensorSizeInBytes); !st)
            return st;
    return {};
}

}  // namespace

struct HostExecution::State {
    CompiledOperator compiled;  // first: destroyed last, it keeps the device alive
    std::vector<HostBuffer> inputs, outputs;
    std::optional<HostBuffer> temporary;
    std::vector<uint64_t> input_bytes, output_bytes;  // TotalTensorSizeInBytes of each
    /// The operator and the barrier to the host, recorded once over these buffers: run() only submits.
    std::unique_ptr<Commands> commands;

    /// The buffers of the operator's tensors and, when the plan needs one, the temporary buffer.
    Status allocate(DeviceState& d, const OperatorState& o, uint64_t temp_bytes) {
        if (auto st = allocate_tensor_buffers(d, o.inputs, inputs, input_bytes); !st) return st;
        if (auto st = allocate_tensor_buffers(d, o.outputs, outputs, output_bytes); !st) return st;
        if (temp_bytes > 0) {
            auto b = HostBuffer::create(d, temp_bytes);
            if (!b) return b.error();
            temporary.emplace(std::move(*b));
            std::memset(temporary->data(), 0, temp_bytes);  // chained_scan_stats before a run: nothing
        }
        return {};
    }

    Status record() {
        DeviceState& d = *detail::ApiAccess::state(compiled)->op->device;
        auto whole = [](const HostBuffer& b) {
            return BufferBinding{b.buffer(), 0, b.size(), b.size(), HostBuffer::kUsage};
        };
        std::vector<BufferBinding> in_bindings, out_bindings;
        for (const HostBuffer& b : inputs) in_bindings.push_back(whole(b));
        for (const HostBuffer& b : outputs) out_bindings.push_back(whole(b));
        Bindings bindings{in_bindings, out_bindings, std::nullopt};
        if (temporary) bindings.temporary = whole(*temporary);

        commands = std::make_unique<Commands>(d);
        if (auto st = commands->begin(); !st) return st;
        if (auto st = compiled.record(commands->buffer(), bindings); !st) return st;
        detail::record_compute_barrier(d, commands->buffer(), VK_PIPELINE_STAGE_HOST_BIT,
                                       VK_ACCESS_HOST_READ_BIT);
        return commands->end();
    }
};

Result<ChainedScanStats> chained_scan_stats(const HostExecution& execution) {
    const auto* s = detail::ApiAccess::state(execution);
    if (!s)
        return detail::make_error(ErrorCode::invalid_argument,
                                  "chained_scan_stats: a moved-from HostExecution");
    if (!s->temporary) return chained_scan_stats(s->compiled, {});
    return chained_scan_stats(s->compiled,
                              {static_cast<const std::byte*>(s->temporary->data()), s->temporary->size()});
}

HostExecution::HostExecution(std::unique_ptr<State> s) : s_(std::move(s)) {}
HostExecution::HostExecution(HostExecution&&) noexcept = default;
HostExecution& HostExecution::operator=(HostExecution&&) noexcept = default;
HostExecution::~HostExecution() = default;

Result<HostExecution> detail::ApiAccess::make_host_execution(DeviceState& d, const OperatorState& o,
                                                             CompiledOperator compiled, uint64_t temp_bytes) {
    auto s = std::make_unique<HostExecution::State>(
        HostExecution::State{std::move(compiled), {}, {}, std::nullopt, {}, {}, nullptr});
    if (auto st = s->allocate(d, o, temp_bytes); !st) return st.error();
    if (auto st = s->record(); !st) return st.error();
    return HostExecution(std::move(s));
}

Result<HostExecution> HostExecution::create(const Device& device, const DML_OPERATOR_DESC& desc,
                                            DML_EXECUTION_FLAGS flags, const OperatorOptions& options) {
    auto op = device.create_operator(desc, options);
    if (!op) return op.error();
    auto compiled = device.compile_operator(*op, flags);
    if (!compiled) return compiled.error();
    const OperatorState& o = *detail::ApiAccess::state(*op);
    DeviceState& d = *detail::ApiAccess::state(device);
    const uint64_t temp_bytes = compiled->binding_properties().TemporaryResourceSize;
    if (auto st = check_memory(d.caps.info, o, temp_bytes); !st) return st.error();
    return detail::ApiAccess::make_host_execution(d, o, std::move(*compiled), temp_bytes);
}

size_t HostExecution::input_count() const noexcept {
    return s_->inputs.size();
}

size_t HostExecution::output_count() const noexcept {
    return s_->outputs.size();
}

std::span<std::byte> HostExecution::input(size_t i) const noexcept {
    if (i >= s_->inputs.size()) return {};
    return {static_cast<std::byte*>(s_->inputs[i].data()), s_->input_bytes[i]};
}

std::span<std::byte> HostExecution::output(size_t i) const noexcept {
    if (i >= s_->outputs.size()) return {};
    return {static_cast<std::byte*>(s_->outputs[i].data()), s_->output_bytes[i]};
}

Status HostExecution::run() {
    DeviceState& d = *detail::ApiAccess::state(s_->compiled)->op->device;
    if (auto st = detail::check_not_lost(d); !st) return st;
    // Host writes to the mapped inputs before vkQueueSubmit are visible to the device (the submit's
    // implicit host-write ordering), so the recorded commands need nothing more.
    return s_->commands->submit_and_wait();
}

Status execute(const Device& device, const DML_OPERATOR_DESC& desc,
               std::span<const std::span<const std::byte>> inputs,
               std::span<const std::span<std::byte>> outputs, DML_EXECUTION_FLAGS flags,
               const OperatorOptions& options) {
    auto op = device.create_operator(desc, options);
    if (!op) return op.error();
    const auto& o = detail::ApiAccess::state(*op);
    if (auto st = check_arrays(*o, inputs, outputs); !st) return st;
    DeviceState& d = *detail::ApiAccess::state(device);
    auto compiled = device.compile_operator(*op, flags);
    // A plan of the whole that cannot be made (more dispatches than a pass may have, say) of tensors past
    // the device's buffers: those of windows or parts may.
    if (!compiled && compiled.error().code != ErrorCode::device_lost && !check_memory(d.caps.info, *o, 0))
        return detail::execute_large(device, o, inputs, outputs, flags);
    if (!compiled) return compiled.error();
    const uint64_t temp_bytes = compiled->binding_properties().TemporaryResourceSize;
    // Buffers the device cannot hold whole: in windows through staging buffers, or in parts.
    if (!check_memory(d.caps.info, *o, temp_bytes))
        return detail::execute_large(device, o, inputs, outputs, flags);
    auto run = detail::ApiAccess::make_host_execution(d, *o, std::move(*compiled), temp_bytes);
    if (!run) return run.error();
    for (size_t i = 0; i < inputs.size(); ++i)
        std::memcpy(run->input(i).data(), inputs[i].data(), run->input(i).size());
    for (size_t i = 0; i < outputs.size(); ++i)
        std::memcpy(run->output(i).data(), outputs[i].data(), run->output(i).size());
    if (auto st = run->run(); !st) return st;
    for (size_t i = 0; i < outputs.size(); ++i)
        std::memcpy(outputs[i].data(), run->output(i).data(), run->output(i).size());
    return {};
}

}  // namespace vkdml
