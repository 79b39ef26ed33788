// MappedBuffer and submit() (vkdml/submission.hpp): the host path's buffers and its submit, apart.
#include "vkdml/submission.hpp"

#include "core/errors.hpp"
#include "front/api_access.hpp"
#include "front/operator_state.hpp"
#include "vulkan/commands.hpp"
#include "vulkan/host_buffer.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vkdml {

namespace detail {

/// A buffer and the device state it lives on (kept alive by it: declared first, destroyed last).
struct MappedBufferState {
    std::shared_ptr<DeviceState> device;
    HostBuffer buffer;
    uint64_t bytes;
};

}  // namespace detail

using detail::ApiAccess;
using detail::make_error;

MappedBuffer::MappedBuffer() noexcept = default;
MappedBuffer::MappedBuffer(const MappedBuffer&) noexcept = default;
MappedBuffer& MappedBuffer::operator=(const MappedBuffer&) noexcept = default;
MappedBuffer::~MappedBuffer() = default;

Result<MappedBuffer> MappedBuffer::create(const Device& device, uint64_t bytes) {
    const std::shared_ptr<DeviceState>& d = ApiAccess::state(device);
    if (bytes == 0) return make_error(ErrorCode::invalid_argument, "MappedBuffer::create: 0 bytes");
    if (auto st = detail::check_not_lost(*d); !st) return st.error();
    const uint64_t rounded = bytes > UINT64_MAX - 15 ? UINT64_MAX : (bytes + 15) / 16 * 16;
    auto b = detail::HostBuffer::create(*d, rounded);  // refuses sizes past the device's limits
    if (!b) return Error{b.error().code, "MappedBuffer::create: " + b.error().message};
    return ApiAccess::make_mapped_buffer(std::make_shared<const detail::MappedBufferState>(
        detail::MappedBufferState{d, std::move(*b), bytes}));
}

uint64_t MappedBuffer::size() const noexcept {
    return s_ ? s_->bytes : 0;
}

std::span<std::byte> MappedBuffer::data() const noexcept {
    if (!s_) return {};
    return {static_cast<std::byte*>(s_->buffer.data()), static_cast<size_t>(s_->bytes)};
}

bool MappedBuffer::device_local() const noexcept {
    return s_ && s_->buffer.device_local();
}

BufferBinding MappedBuffer::binding() const noexcept {
    if (!s_) return {};
    const detail::HostBuffer& b = s_->buffer;
    return BufferBinding{b.buffer(), 0, s_->bytes, b.size(), detail::HostBuffer::kUsage};
}

namespace detail {

/// Submitted work and what it uses, held until it is waited for.
struct SubmissionState {
    CompiledOperator compiled;  // first: destroyed last, it keeps the device alive
    std::vector<MappedBuffer> buffers;
    std::unique_ptr<Commands> commands;
    std::optional<Status> waited;  // the first wait's status
};

Submission ApiAccess::make_submission(std::unique_ptr<SubmissionState> state) noexcept {
    return Submission(std::move(state));
}

}  // namespace detail

Submission::Submission(std::unique_ptr<detail::SubmissionState> s) noexcept : s_(std::move(s)) {}
Submission::Submission(Submission&&) noexcept = default;
Submission& Submission::operator=(Submission&& other) noexcept {
    if (this != &other) {
        if (s_) (void)wait();
        s_ = std::move(other.s_);
    }
    return *this;
}
Submission::~Submission() {
    if (s_) (void)wait();
}

Status Submission::wait() {
    if (!s_) return make_error(ErrorCode::invalid_argument, "Submission::wait: a moved-from Submission");
    if (!s_->waited) s_->waited = s_->commands->wait();
    return *s_->waited;
}

bool Submission::done() const {
    if (!s_ || s_->waited) return true;
    DeviceState& d = s_->commands->device();
    return d.vk.vkGetFenceStatus(d.device, s_->commands->fence()) != VK_NOT_READY;
}

namespace {

/// Each buffer of `list` holds one, of `device`; named by `what` and index in the messages.
Status check_buffers(const DeviceState& device, const char* what, std::span<const MappedBuffer> list,
                     size_t expected) {
    if (list.size() != expected)
        return make_error(ErrorCode::invalid_binding, "submit: the operator takes ", expected, " ", what,
                          " buffer", expected == 1 ? "" : "s", ", got ", list.size());
    for (size_t i = 0; i < list.size(); ++i) {
        const auto& s = ApiAccess::state(list[i]);
        if (!s) return make_error(ErrorCode::invalid_binding, "submit: ", what, " buffer ", i, " is empty");
        if (s->device.get() != &device)
            return make_error(ErrorCode::invalid_binding, "submit: ", what, " buffer ", i,
                              " belongs to another device than the operator's");
    }
    return {};
}

}  // namespace

Result<Submission> submit(const CompiledOperator& compiled, std::span<const MappedBuffer> inputs,
                          std::span<const MappedBuffer> outputs, const MappedBuffer& temporary) {
    const auto& cs = ApiAccess::state(compiled);
    if (!cs) return make_error(ErrorCode::invalid_argument, "submit: a moved-from CompiledOperator");
    DeviceState& d = *cs->op->device;
    if (auto st = check_buffers(d, "input", inputs, cs->op->inputs.size()); !st) return st.error();
    if (auto st = check_buffers(d, "output", outputs, cs->op->outputs.size()); !st) return st.error();
    const bool needs_temporary = compiled.binding_properties().TemporaryResourceSize > 0;
    if (needs_temporary) {
        if (auto st = check_buffers(d, "temporary", std::span(&temporary, 1), 1); !st) return st.error();
    }
    if (auto st = detail::check_not_lost(d); !st) return st.error();

    auto s = std::make_unique<detail::SubmissionState>(
        detail::SubmissionState{compiled, {}, nullptr, std::nullopt});
    std::vector<BufferBinding> in_bindings, out_bindings;
    for (const MappedBuffer& b : inputs) {
        in_bindings.push_back(b.binding());
        s->buffers.push_back(b);
    }
    for (const MappedBuffer& b : outputs) {
        out_bindings.push_back(b.binding());
        s->buffers.push_back(b);
    }
    Bindings bindings{in_bindings, out_bindings, std::nullopt};
    if (needs_temporary) {
        bindings.temporary = temporary.binding();
        s->buffers.push_back(temporary);
    }
    s->commands = std::make_unique<detail::Commands>(d);
    detail::Commands& c = *s->commands;
    if (auto st = c.begin(); !st) return st.error();
    // Earlier submissions' writes (and reads) before this one's reads and writes; its writes before the
    // host's reads.
    detail::record_compute_barrier(d, c.buffer(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (auto st = compiled.record(c.buffer(), bindings); !st)
        return Error{st.error().code, "submit: " + st.error().message};
    detail::record_compute_barrier(d, c.buffer(), VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (auto st = c.end(); !st) return st.error();
    if (auto st = c.submit(); !st) return st.error();
    return ApiAccess::make_submission(std::move(s));
}

}  // namespace vkdml
