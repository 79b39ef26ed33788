// CompiledOperator::record: validating the caller's bindings (SPEC §2 rule 9, binding_validation.hpp)
// and recording the plan's dispatches with push descriptors: one per segment of a pass, each binding bound
// through its window (window.hpp), with a barrier between consecutive dispatches (see Recorder).
#include "vkdml/profiling.hpp"

#include "core/errors.hpp"
#include "front/binding_validation.hpp"
#include "front/operator_state.hpp"
#include "vulkan/pipeline_cache.hpp"
#include "vulkan/record_segment.hpp"

#include <algorithm>

namespace vkdml {

namespace {

using detail::make_error;

const char* slot_name(detail::Slot s) {
    switch (s) {
    case detail::Slot::input: return "input";
    case detail::Slot::output: return "output";
    default: return "temporary";
    }
}

/// The caller's range a pass binding refers to: a tensor's bytes, or a region of the temporary buffer.
BufferBinding region_of(const detail::PassBinding& pb, const OperatorState& op, const Bindings& bindings) {
    switch (pb.slot) {
    case detail::Slot::input:
        return {bindings.inputs[pb.index].buffer, bindings.inputs[pb.index].offset,
                op.inputs[pb.index]->buffer.TotalTensorSizeInBytes};
    case detail::Slot::output:
        return {bindings.outputs[pb.index].buffer, bindings.outputs[pb.index].offset,
                op.outputs[pb.index]->buffer.TotalTensorSizeInBytes};
    default: return {bindings.temporary->buffer, bindings.temporary->offset + pb.offset, pb.size};
    }
}

/// One dispatch, ready to record: its descriptors (windows) and push constants.
struct Dispatch {
    std::array<VkDescriptorBufferInfo, detail::kBindingCount> infos{};
    std::array<uint32_t, detail::kPushConstantBytes / 4> push{};
};

/// The descriptor of an unused binding: a few bytes at the start of its region, aligned down to `align`.
VkDescriptorBufferInfo unused_descriptor(const BufferBinding& region, uint64_t align) {
    uint64_t start = region.offset / align * align;
    return {region.buffer, start, region.offset - start + std::min<uint64_t>(region.size, 4)};
}

/// Binding i of a dispatch, seen through the window `window` of its region (in elements from the
/// region's start), its start aligned down to `align` and its end up to a whole 32-bit word where the
/// region has one (ANY and ALL set their byte outputs by word atomics; DMLCalcBufferTensorSize rounds
/// tensors to words, so the word lies in the caller's range); adds the window's shift to the
/// push-constant word the kernel reads it from. Fails when the window exceeds maxStorageBufferRange.
Status bind_window(const OperatorState& op, const detail::PassBinding& pb, const BufferBinding& region,
                   const detail::ElementRange& window, uint64_t align, uint32_t i, Dispatch& dispatch) {
    const DeviceState& d = *op.device;
    const uint64_t esize = pb.element_bytes;
    const uint64_t first = region.offset + uint64_t(window.lo) * esize;
    const uint64_t start = first / align * align;
    const uint64_t exact = region.offset + uint64_t(window.hi + 1) * esize - start;
    const uint64_t max_range = d.caps.info.max_storage_buffer_range;
    // (The region's end; and the buffer's, where the region knows it: a staging buffer holds a window.)
    uint64_t room = region.offset + region.size - start;
    if (region.buffer_size != 0) room = std::min(room, region.buffer_size - start);
    const uint64_t bytes = std::max(exact, std::min({(exact + 3) / 4 * 4, room, max_range}));
    if (exact > max_range)
        return make_error(ErrorCode::unsupported_device, to_string(op.desc.Type), ": the ",
                          slot_name(pb.slot), " window spans ", exact,
                          " bytes, more than maxStorageBufferRange (", d.caps.info.max_storage_buffer_range,
                          ")");
    // The kernel adds this (modulo 2^32) to the offsets it computes from the tensor's start.
    if (pb.base_word >= 0) {
        int64_t shift = (int64_t(region.offset) - int64_t(start)) / int64_t(esize);
        dispatch.push[pb.base_word] += static_cast<uint32_t>(static_cast<uint64_t>(shift));
    }
    dispatch.infos[i] = {region.buffer, start, bytes};
    return {};
}

/// The pipeline each pass runs with these bindings. A caller's in-place execution (input and output
/// bound to one range, the only overlap check_overlaps lets through) runs the passes that read the input
/// and write the output with their in-place pipelines (ScanParams::in_place: every access through binding
/// 1), made on the first such record and kept by the device's pipeline cache.
struct PassPipelines {
    std::vector<VkPipeline> pipeline;
    std::vector<bool> in_place;  ///< binding 0 is not accessed
};

bool reads_input_writes_output(const detail::Pass& p) {
    return detail::is_scan(p.key.kernel) && p.bindings[0].slot == detail::Slot::input &&
           !p.bindings[0].unused && p.bindings[1].slot == detail::Slot::output && p.bindings[1].index == 0 &&
           !p.bindings[1].unused;
}

Result<PassPipelines> pass_pipelines(const CompiledState& s, const Bindings& b) {
    const bool bound_in_place =
        b.inputs.size() == 1 && !b.outputs.empty() && detail::overlaps(b.inputs[0], b.outputs[0]);
    PassPipelines r;
    for (size_t p = 0; p < s.plan.passes.size(); ++p) {
        const detail::Pass& pass = s.plan.passes[p];
        const bool in_place = bound_in_place && reads_input_writes_output(pass);
        VkPipeline pipeline = s.pipelines[p];
        if (in_place) {
            auto made = s.op->device->pipelines->get(
                detail::pipeline_key(pass, detail::in_place_params(pass.params)));
            if (!made) return made.error();
            pipeline = *made;
        }
        r.pipeline.push_back(pipeline);
        r.in_place.push_back(in_place);
    }
    return r;
}

/// The dispatch of one segment of a pass, each binding seen through the window its items touch
/// (window.hpp); fails when a window would exceed maxStorageBufferRange.
Result<Dispatch> make_dispatch(const OperatorState& op, const detail::Pass& pass, bool in_place,
                               const std::array<BufferBinding, detail::kBindingCount>& regions,
                               const detail::Segment& seg) {
    // Window starts are aligned for the descriptor and to whole elements (at most 8 bytes).
    const uint64_t align = std::max<uint64_t>(16, op.device->caps.info.min_storage_buffer_offset_alignment);
    Dispatch dispatch;
    dispatch.push = pass.push;
    dispatch.push[pass.item_begin_word] = seg.item_begin;
    dispatch.push[pass.item_end_word] = seg.item_end;
    for (uint32_t i = 0; i < detail::kBindingCount; ++i) {
        if (pass.bindings[i].unused || (in_place && i == 0))
            dispatch.infos[i] = unused_descriptor(regions[i], align);
        else if (auto st = bind_window(op, pass.bindings[i], regions[i], seg.window[i], align, i, dispatch);
                 !st)
            return st.error();
    }
    return dispatch;
}

/// One dispatch of the plan: its pass, segment and descriptors.
struct PlannedDispatch {
    size_t pass;
    const detail::Segment* segment;
    Dispatch dispatch;
};

/// Every dispatch of the plan in order, each binding's window checked (so that nothing is recorded
/// when one fails).
Result<std::vector<PlannedDispatch>> plan_dispatches(const CompiledState& s, const Bindings& bindings,
                                                     const PassPipelines& pipelines) {
    const OperatorState& op = *s.op;
    std::vector<PlannedDispatch> all;
    for (size_t p = 0; p < s.plan.passes.size(); ++p) {
        const detail::Pass& pass = s.plan.passes[p];
        std::array<BufferBinding, detail::kBindingCount> regions;
        for (uint32_t i = 0; i < detail::kBindingCount; ++i)
            regions[i] = region_of(pass.bindings[i], op, bindings);
        for (const detail::Segment& seg : pass.segments) {
            auto dispatch = make_dispatch(op, pass, pipelines.in_place[p], regions, seg);
            if (!dispatch) return dispatch.error();
            all.push_back({p, &seg, *dispatch});
        }
    }
    return all;
}

/// Records a plan's dispatches, one call per dispatch in order (plan_dispatches): when the pass
/// changes, the previous pass's timestamp and a barrier, then the pass's pipeline; then each dispatch's
/// descriptors, push constants and workgroups. The dispatches of one pass (windows, or more workgroups
/// than one dispatch takes) touch disjoint elements, but their descriptors overlap: a window begins
/// aligned down, the temporary region is bound whole, and a binding the shader could write counts as
/// written. A barrier between them too lets synchronization validation check every plan, and costs a
/// drain per dispatch of passes that large.
class Recorder {
public:
    Recorder(const DeviceState& d, VkCommandBuffer cmd, const PassPipelines& pipelines,
             const PassTimestamps& timestamps)
        : vk_(d.vk),
          cmd_(cmd),
          layout_(d.pipelines->layout()),
          pipelines_(pipelines),
          timestamps_(timestamps) {}

    void operator()(size_t pass, const detail::Segment& seg, const Dispatch& dispatch) {
        if (pass != bound_)
            enter_pass(pass);
        else
            barrier();  // (see the class comment)
        push_and_dispatch(seg, dispatch);
    }

    /// The timestamp after the last pass (none when nothing was recorded).
    void finish() const {
        if (bound_ != SIZE_MAX) stamp(bound_);
    }

private:
    void stamp(size_t pass) const {
        if (timestamps_.pool)
            vk_.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, timestamps_.pool,
                                    timestamps_.first_query + static_cast<uint32_t>(pass));
    }

    void barrier() const {
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vk_.vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                 nullptr);
    }

    void enter_pass(size_t pass) {
        if (bound_ != SIZE_MAX) {
            stamp(bound_);
            barrier();
        }
        vk_.vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_.pipeline[pass]);
        bound_ = pass;
    }

    void push_and_dispatch(const detail::Segment& seg, const Dispatch& dispatch) const {
        std::array<VkWriteDescriptorSet, detail::kBindingCount> writes{};
        for (uint32_t i = 0; i < detail::kBindingCount; ++i) {
            writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[i].dstBinding = i;
            writes[i].descriptorCount = 1;
            writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[i].pBufferInfo = &dispatch.infos[i];
        }
        vk_.vkCmdPushDescriptorSetKHR(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, detail::kBindingCount,
                                      writes.data());
        vk_.vkCmdPushConstants(cmd_, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, detail::kPushConstantBytes,
                               dispatch.push.data());
        vk_.vkCmdDispatch(cmd_, seg.groups_x, seg.groups_y, 1);
    }

    const VolkDeviceTable& vk_;
    VkCommandBuffer cmd_;
    VkPipelineLayout layout_;
    const PassPipelines& pipelines_;
    const PassTimestamps& timestamps_;
    size_t bound_ = SIZE_MAX;  ///< the pass whose pipeline is bound (SIZE_MAX: none yet)
};

}  // namespace

namespace {

Status record_passes(const std::shared_ptr<const CompiledState>& state, VkCommandBuffer cmd,
                     const Bindings& bindings, const PassTimestamps& timestamps) {
    if (!cmd) return make_error(ErrorCode::invalid_argument, "record: the command buffer is null");
    if (!state) return make_error(ErrorCode::invalid_argument, "record: the CompiledOperator was moved from");
    DeviceState& d = *state->op->device;
    if (auto st = detail::check_not_lost(d); !st) return st;
    const auto memory_size = [&d](VkBuffer buffer) {
        VkMemoryRequirements req{};
        d.vk.vkGetBufferMemoryRequirements(d.device, buffer, &req);
        return req.size;
    };
    if (auto st = detail::validate_bindings(*state, bindings, memory_size); !st) return st;
    auto pipelines = pass_pipelines(*state, bindings);
    if (!pipelines) return pipelines.error();
    auto dispatches = plan_dispatches(*state, bindings, *pipelines);
    if (!dispatches) return dispatches.error();
    Recorder recorder(d, cmd, *pipelines, timestamps);
    for (const auto& [pass, segment, dispatch] : *dispatches) recorder(pass, *segment, dispatch);
    recorder.finish();
    return {};
}

}  // namespace

namespace detail {

Status record_segment(const CompiledState& state, VkCommandBuffer cmd, size_t pass, const Segment& segment,
                      const std::array<BufferBinding, kBindingCount>& regions) {
    auto dispatch = make_dispatch(*state.op, state.plan.passes[pass], false, regions, segment);
    if (!dispatch) return dispatch.error();
    const PassPipelines pipelines{state.pipelines, std::vector<bool>(state.pipelines.size(), false)};
    const PassTimestamps none{};  // (the Recorder keeps a reference)
    Recorder recorder(*state.op->device, cmd, pipelines, none);
    recorder(pass, segment, *dispatch);
    return {};
}

}  // namespace detail

Status CompiledOperator::record(VkCommandBuffer cmd, const Bindings& bindings) const {
    return record_passes(s_, cmd, bindings, PassTimestamps{});
}

Status record(const CompiledOperator& compiled, VkCommandBuffer cmd, const Bindings& bindings,
              const PassTimestamps& timestamps) {
    return record_passes(detail::ApiAccess::state(compiled), cmd, bindings, timestamps);
}

}  // namespace vkdml
