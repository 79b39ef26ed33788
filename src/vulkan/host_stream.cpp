// execute() in windows: one dispatch at a time through staging buffers (host_stream.hpp).
#include "vulkan/host_stream.hpp"

#include "core/errors.hpp"
#include "ops/op_table.hpp"
#include "vulkan/commands.hpp"
#include "vulkan/host_buffer.hpp"
#include "vulkan/host_split.hpp"
#include "vulkan/pipeline_cache.hpp"
#include "vulkan/record_segment.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <vector>

namespace vkdml::detail {

namespace {

/// One tensor of the operator: its bytes on the host and its staging buffer.
struct StagedTensor {
    const char* what;  ///< "input" or "output"
    uint32_t index;
    uint64_t bytes;  ///< TotalTensorSizeInBytes
    const std::byte* read;
    std::byte* write;  ///< outputs only
    std::optional<HostBuffer> staging;
};

/// The bytes [begin, end) of a tensor one dispatch touches, begin aligned for a descriptor.
struct ByteRange {
    uint64_t begin = UINT64_MAX, end = 0;
    bool empty() const { return begin >= end; }
};

/// The bytes one buffer may take: maxBufferSize and maxMemoryAllocationSize, less 64 KiB where that is
/// over 1 MiB, for the driver's rounding of a buffer's memory up to its alignment.
uint64_t allocatable(const DeviceInfo& info) {
    const uint64_t one = std::min(info.max_buffer_size, info.max_memory_allocation_size);
    return one > (uint64_t{1} << 20) ? one - 65536 : one;
}

/// The window size: as large as a binding may be seen through and one allocation holds, with room in
/// the host-visible heap for a staging buffer per tensor and the temporary buffer.
uint64_t choose_window(const DeviceInfo& info, size_t tensors) {
    return std::min(
               {info.max_storage_buffer_range, allocatable(info), info.host_visible_heap / (tensors + 1)}) /
           16 * 16;
}

class Streamer {
public:
    Streamer(const std::shared_ptr<const OperatorState>& op,
             std::span<const std::span<const std::byte>> inputs,
             std::span<const std::span<std::byte>> outputs)
        : op_(op),
          d_(*op->device),
          info_(d_.caps.info),
          name_(to_string(op->desc.Type)),
          inputs_(inputs),
          outputs_(outputs),
          commands_(d_) {
        for (size_t i = 0; i < inputs.size(); ++i)
            tensors_.push_back({"input", static_cast<uint32_t>(i),
                                op->inputs[i]->buffer.TotalTensorSizeInBytes, inputs[i].data(), nullptr,
                                std::nullopt});
        for (size_t i = 0; i < outputs.size(); ++i)
            tensors_.push_back({"output", static_cast<uint32_t>(i),
                                op->outputs[i]->buffer.TotalTensorSizeInBytes, outputs[i].data(),
                                outputs[i].data(), std::nullopt});
    }

    /// Plans the operator in windows and checks that its buffers fit, allocating nothing.
    Status prepare() {
        if (auto st = check_not_lost(d_); !st) return st;
        if (auto st = plan(); !st) return st;
        return check_sizes();
    }

    /// Runs the prepared plan.
    Status run() {
        if (auto st = allocate(); !st) return st;
        if (auto st = keep_overlapping_inputs(); !st) return st;
        for (size_t p = 0; p < state_->plan.passes.size(); ++p)
            for (const Segment& segment : state_->plan.passes[p].segments)
                if (auto st = run_segment(p, segment); !st) return st;
        return {};
    }

private:
    /// Plans the operator with windows no larger than one staging buffer.
    Status plan() {
        window_ = choose_window(info_, tensors_.size());
        const uint64_t align = std::max<uint64_t>(16, info_.min_storage_buffer_offset_alignment);
        if (window_ < 64 + align)
            return make_error(ErrorCode::out_of_memory, "execute: ", name_, ": windows of ", window_,
                              " bytes are too small to run in parts (maxMemoryAllocationSize ",
                              info_.max_memory_allocation_size, ", host-visible heap ",
                              info_.host_visible_heap, ")");
        limited_ = info_;
        limited_.max_storage_buffer_range = window_;
        const PlanTarget device = d_.caps.plan_target();
        const PlanTarget target{limited_, device.kernels, device.rows, device.chained_spin_limit,
                                device.tuning};
        state_ = std::make_shared<CompiledState>();
        state_->op = op_;
        if (auto st = plan_operator(target, *op_, state_->plan); !st) return st;
        auto pipelines = d_.pipelines->materialize(state_->plan);
        if (!pipelines) return pipelines.error();
        state_->pipelines = std::move(*pipelines);
        return {};
    }

    /// A staging buffer per tensor (at most a window) and the temporary buffer fit the device.
    Status check_sizes() const {
        const uint64_t temp = state_->plan.temporary_bytes;
        const uint64_t one = allocatable(info_);
        if (temp > one)
            return make_error(ErrorCode::out_of_memory, "execute: ", name_, ": the temporary buffer needs ",
                              temp, " bytes, more than one allocation on this device holds (", one,
                              "), even with the tensors in windows of ", window_, " bytes");
        uint64_t total = temp;
        for (const StagedTensor& t : tensors_) total += std::min(window_, (t.bytes + 15) / 16 * 16);
        if (total > info_.host_visible_heap)
            return make_error(ErrorCode::out_of_memory, "execute: ", name_, ": windows of ", window_,
                              " bytes and the temporary buffer need ", total,
                              " bytes of host-visible device memory, more than this device's largest "
                              "host-visible heap (",
                              info_.host_visible_heap, ")");
        return {};
    }

    /// The staging buffers and the temporary buffer, and the command buffer.
    Status allocate() {
        const uint64_t temp = state_->plan.temporary_bytes;
        for (StagedTensor& t : tensors_) {
            auto b = HostBuffer::create(d_, std::min(window_, (t.bytes + 15) / 16 * 16));
            if (!b) return b.error();
            t.staging.emplace(std::move(*b));
        }
        if (temp > 0) {
            auto b = HostBuffer::create(d_, temp);
            if (!b) return b.error();
            temporary_.emplace(std::move(*b));
            std::memset(temporary_->data(), 0, temp);
        }
        return commands_.begin();
    }

    /// An input that shares bytes with an output is read from a copy: a later window of it may already
    /// hold results.
    Status keep_overlapping_inputs() {
        for (size_t i = 0; i < inputs_.size(); ++i) {
            const std::span<const std::byte> in = inputs_[i].first(tensors_[i].bytes);
            const bool shared = std::any_of(outputs_.begin(), outputs_.end(),
                                            [&](std::span<std::byte> out) { return bytes_overlap(in, out); });
            if (!shared) continue;
            try {
                copies_.emplace_back(in.begin(), in.end());
            } catch (const std::bad_alloc&) {
                return make_error(
                    ErrorCode::out_of_memory, "execute: ", name_, ": input ", i,
                    " shares memory with an output, and no host memory was left for a copy of its ",
                    in.size(), " bytes");
            }
            tensors_[i].read = copies_.back().data();
        }
        return {};
    }

    size_t tensor_of(const PassBinding& b) const {
        return b.slot == Slot::input ? b.index : op_->inputs.size() + b.index;
    }

    /// Copies the segment's windows in, runs its dispatch, and copies the output windows back.
    Status run_segment(size_t p, const Segment& segment) {
        const Pass& pass = state_->plan.passes[p];
        const uint64_t align = std::max<uint64_t>(16, info_.min_storage_buffer_offset_alignment);
        std::vector<ByteRange> ranges(tensors_.size());
        for (uint32_t i = 0; i < kBindingCount; ++i) {
            const PassBinding& b = pass.bindings[i];
            if (b.unused || b.slot == Slot::temporary) continue;
            const size_t t = tensor_of(b);
            ByteRange& r = ranges[t];
            r.begin = std::min(r.begin, uint64_t(segment.window[i].lo) * b.element_bytes / align * align);
            r.end = std::max(
                r.end, std::min(uint64_t(segment.window[i].hi + 1) * b.element_bytes, tensors_[t].bytes));
        }
        for (size_t t = 0; t < tensors_.size(); ++t) {
            if (ranges[t].empty()) continue;
            const uint64_t bytes = ranges[t].end - ranges[t].begin;
            if (bytes > tensors_[t].staging->size())
                return make_error(ErrorCode::unsupported_device, "execute: ", name_, ": a dispatch sees ",
                                  bytes, " bytes of ", tensors_[t].what, " ", tensors_[t].index,
                                  ", more than its staging buffer (", tensors_[t].staging->size(), ")");
            std::memcpy(tensors_[t].staging->data(), tensors_[t].read + ranges[t].begin, bytes);
        }
        std::array<BufferBinding, kBindingCount> regions{};
        for (uint32_t i = 0; i < kBindingCount; ++i) {
            const PassBinding& b = pass.bindings[i];
            if (b.slot == Slot::temporary) {
                regions[i] = {temporary_->buffer(), b.offset, b.size, temporary_->size(), HostBuffer::kUsage};
                continue;
            }
            const StagedTensor& t = tensors_[tensor_of(b)];
            const ByteRange& r = ranges[tensor_of(b)];
            // The tensor's start lies r.begin bytes before the staging buffer's (wrapping below zero).
            const uint64_t start = b.unused || r.empty() ? 0 : uint64_t{0} - r.begin;
            regions[i] = {t.staging->buffer(), start, t.bytes, t.staging->size(), HostBuffer::kUsage};
        }
        if (started_) {
            if (auto st = commands_.restart(); !st) return st;
        }
        started_ = true;
        VkCommandBuffer cmd = commands_.buffer();
        // After every earlier dispatch's writes (each an earlier submission), before the host reads.
        record_compute_barrier(d_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        if (auto st = record_segment(*state_, cmd, p, segment, regions); !st) return st;
        record_compute_barrier(d_, cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        if (auto st = commands_.end(); !st) return st;
        if (auto st = commands_.submit_and_wait(); !st) return st;
        for (size_t t = 0; t < tensors_.size(); ++t)
            if (tensors_[t].write && !ranges[t].empty())
                std::memcpy(tensors_[t].write + ranges[t].begin, tensors_[t].staging->data(),
                            ranges[t].end - ranges[t].begin);
        return {};
    }

    std::shared_ptr<const OperatorState> op_;
    DeviceState& d_;
    const DeviceInfo& info_;
    const char* name_;
    std::span<const std::span<const std::byte>> inputs_;  ///< the caller's arrays
    std::span<const std::span<std::byte>> outputs_;
    DeviceInfo limited_;  ///< info_ with maxStorageBufferRange lowered to the window (the plan's target)
    uint64_t window_ = 0;
    std::shared_ptr<CompiledState> state_;
    std::vector<StagedTensor> tensors_;  ///< the inputs, then the outputs
    std::optional<HostBuffer> temporary_;
    std::vector<std::vector<std::byte>> copies_;
    Commands commands_;  ///< after the buffers: destroyed first (its work has completed)
    bool started_ = false;
};

}  // namespace

Status execute_large(const Device& device, const std::shared_ptr<const OperatorState>& op,
                     std::span<const std::span<const std::byte>> inputs,
                     std::span<const std::span<std::byte>> outputs, DML_EXECUTION_FLAGS flags) {
    Streamer streamer(op, inputs, outputs);
    const Status windows = streamer.prepare();
    if (windows) return streamer.run();
    if (windows.error().code == ErrorCode::device_lost) return windows;
    if (auto split = execute_split(device, *op, inputs, outputs, flags)) return *split;
    return windows;
}

}  // namespace vkdml::detail
