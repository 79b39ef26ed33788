// SPEC §2 rule 9: the caller's bindings of a compiled operator, checked before anything is recorded (see
// binding_validation.hpp).
#include "front/binding_validation.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace vkdml::detail {

namespace {

/// One binding against its tensor: a storage buffer of the declared size, holding the range, which holds
/// `needed` bytes at an offset that is a multiple of `alignment`.
Status check_binding(const BufferMemorySize& memory_size, const char* op, const char* what, uint32_t index,
                     const BufferBinding& b, uint64_t needed, uint64_t alignment) {
    auto fail = [&](const auto&... parts) {
        return make_error(ErrorCode::invalid_binding, op, ": ", what, " binding ", index, parts...);
    };
    if (!b.buffer) return fail(" has a null VkBuffer");
    if (!(b.usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
        return fail(" declares usage 0x", std::hex, b.usage, std::dec,
                    " without VK_BUFFER_USAGE_STORAGE_BUFFER_BIT (rule 9: vkdml binds every buffer as a "
                    "storage buffer; BufferBinding::usage is the VkBufferCreateInfo::usage it was created "
                    "with)");
    if (b.buffer_size == 0)
        return fail(
            " declares buffer_size 0 (rule 9: BufferBinding::buffer_size is the "
            "VkBufferCreateInfo::size the buffer was created with)");
    const VkDeviceSize memory = memory_size(b.buffer);
    if (memory < b.buffer_size)
        return fail(" declares buffer_size ", b.buffer_size, " but the buffer needs only ", memory,
                    " bytes of memory (vkGetBufferMemoryRequirements), so it is smaller than declared");
    if (b.offset > b.buffer_size || b.size > b.buffer_size - b.offset)
        return fail(" range [", b.offset, ", ", b.offset, " + ", b.size, ") ends past the buffer's ",
                    b.buffer_size, " bytes (rule 9: every range lies inside its buffer)");
    if (b.size < needed)
        return fail(" has size ", b.size, " bytes but the tensor needs ", needed,
                    " (rule 9: size >= TotalTensorSizeInBytes)");
    if (b.offset % alignment != 0)
        return fail(" has offset ", b.offset, ", not a multiple of ", alignment,
                    " (rule 9: offsets are multiples of 16 or of GuaranteedBaseOffsetAlignment when larger)");
    return {};
}

uint64_t alignment_of(const TensorCopy& t) {
    return std::max<uint64_t>(16, t.buffer.GuaranteedBaseOffsetAlignment);
}

/// Rule 9, first part: one binding per input and output tensor.
Status check_counts(const OperatorState& op, const char* name, const Bindings& b) {
    if (b.inputs.size() != op.inputs.size() || b.outputs.size() != op.outputs.size())
        return make_error(ErrorCode::invalid_binding, name, ": got ", b.inputs.size(), " input and ",
                          b.outputs.size(), " output bindings, the operator has ", op.inputs.size(), " and ",
                          op.outputs.size());
    return {};
}

/// check_binding for each binding of `bindings` against its tensor in `tensors` (`what`: input or output).
Status check_tensor_bindings(const BufferMemorySize& memory_size, const char* name, const char* what,
                             std::span<const BufferBinding> bindings,
                             const std::vector<std::unique_ptr<TensorCopy>>& tensors) {
    for (uint32_t i = 0; i < bindings.size(); ++i)
        if (auto st = check_binding(memory_size, name, what, i, bindings[i],
                                    tensors[i]->buffer.TotalTensorSizeInBytes, alignment_of(*tensors[i]));
            !st)
            return st;
    return {};
}

/// The temporary binding, when the plan needs `temp` bytes of it.
Status check_temporary(const BufferMemorySize& memory_size, const char* name, const Bindings& b,
                       uint64_t temp) {
    if (temp == 0) return {};
    if (!b.temporary)
        return make_error(ErrorCode::invalid_binding, name, ": the plan needs a temporary buffer of ", temp,
                          " bytes (binding_properties().TemporaryResourceSize) but none was bound");
    return check_binding(memory_size, name, "temporary", 0, *b.temporary, temp, 16);
}

/// No input range overlaps an output range (but a cumulative operator's byte-identical in-place pair of
/// input 0 and output 0 with equal strides), no two outputs overlap, and the temporary range (when
/// `has_temporary`) overlaps none.
Status check_overlaps(const OperatorState& op, const char* name, const Bindings& b, bool has_temporary) {
    const bool may_run_in_place = op.may_run_in_place;  // its row's (ops/op_table.cpp)
    for (uint32_t o = 0; o < b.outputs.size(); ++o) {
        for (uint32_t i = 0; i < b.inputs.size(); ++i) {
            if (!overlaps(b.inputs[i], b.outputs[o])) continue;
            bool in_place = may_run_in_place && o == 0 && b.inputs[i].offset == b.outputs[o].offset &&
                            b.inputs[i].size == b.outputs[o].size &&
                            op.inputs[i]->strides == op.outputs[o]->strides;
            if (!in_place)
                return make_error(ErrorCode::invalid_binding, name, ": input ", i, " [", b.inputs[i].offset,
                                  ", +", b.inputs[i].size, ") and output ", o, " [", b.outputs[o].offset,
                                  ", +", b.outputs[o].size,
                                  ") overlap (rule 9: only the cumulative operators run in place, on "
                                  "byte-identical ranges with equal strides)");
        }
        for (uint32_t e = 0; e < o; ++e)
            if (overlaps(b.outputs[e], b.outputs[o]))
                return make_error(ErrorCode::invalid_binding, name, ": output ", e, " [", b.outputs[e].offset,
                                  ", +", b.outputs[e].size, ") and output ", o, " [", b.outputs[o].offset,
                                  ", +", b.outputs[o].size, ") overlap (rule 9: outputs never share bytes)");
        if (has_temporary && overlaps(*b.temporary, b.outputs[o]))
            return make_error(ErrorCode::invalid_binding, name, ": the temporary buffer overlaps output ", o);
    }
    for (uint32_t i = 0; i < b.inputs.size() && has_temporary; ++i)
        if (overlaps(*b.temporary, b.inputs[i]))
            return make_error(ErrorCode::invalid_binding, name, ": the temporary buffer overlaps input ", i);
    return {};
}

}  // namespace

bool overlaps(const BufferBinding& a, const BufferBinding& b) {
    return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

Status validate_bindings(const CompiledState& s, const Bindings& b, const BufferMemorySize& memory_size) {
    const OperatorState& op = *s.op;
    const char* name = to_string(op.desc.Type);
    const uint64_t temp = s.plan.temporary_bytes;
    if (auto st = check_counts(op, name, b); !st) return st;
    if (auto st = check_tensor_bindings(memory_size, name, "input", b.inputs, op.inputs); !st) return st;
    if (auto st = check_tensor_bindings(memory_size, name, "output", b.outputs, op.outputs); !st) return st;
    if (auto st = check_temporary(memory_size, name, b, temp); !st) return st;
    return check_overlaps(op, name, b, temp > 0);
}

}  // namespace vkdml::detail
