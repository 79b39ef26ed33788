// execute() in parts along a kept axis, through packed host copies (host_split.hpp).
#include "vulkan/host_split.hpp"

#include "core/errors.hpp"
#include "core/window.hpp"
#include "ops/op_table.hpp"
#include "vulkan/device_state.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <vector>

namespace vkdml::detail {

namespace {

/// A box of a strided tensor: `sizes` from `first` along `axis` (the other axes whole).
struct Box {
    std::span<const uint32_t> sizes, strides;  ///< the tensor's strides; sizes of the box
    uint32_t element = 0;                      ///< bytes
    uint64_t origin = 0;                       ///< element offset of the box's first element
};

/// Calls run(offset, count, stride) for each run of the box's innermost axis, in row-major order: `count`
/// elements from element `offset`, `stride` elements apart.
template <class Run>
void for_each_run(const Box& box, Run run) {
    const size_t rank = box.sizes.size();
    std::vector<uint32_t> index(rank, 0);
    for (;;) {
        uint64_t offset = box.origin;
        for (size_t d = 0; d + 1 < rank; ++d) offset += uint64_t(index[d]) * box.strides[d];
        run(offset, box.sizes[rank - 1], box.strides[rank - 1]);
        size_t d = rank - 1;  // the next index of the outer axes (an odometer)
        while (d-- > 0) {
            if (++index[d] < box.sizes[d]) break;
            index[d] = 0;
        }
        if (d == SIZE_MAX) return;
    }
}

/// The box's elements of the tensor at `tensor`, packed in row-major order into `packed`.
void gather(const Box& box, const std::byte* tensor, std::byte* packed) {
    const uint32_t e = box.element;
    for_each_run(box, [&](uint64_t offset, uint64_t count, uint64_t stride) {
        if (stride == 1) {
            std::memcpy(packed, tensor + offset * e, count * e);
            packed += count * e;
            return;
        }
        for (uint64_t i = 0; i < count; ++i, packed += e)
            std::memcpy(packed, tensor + (offset + i * stride) * e, e);
    });
}

/// The reverse of gather: `packed` into the box's elements of the tensor at `tensor`.
void scatter(const Box& box, const std::byte* packed, std::byte* tensor) {
    const uint32_t e = box.element;
    for_each_run(box, [&](uint64_t offset, uint64_t count, uint64_t stride) {
        if (stride == 1) {
            std::memcpy(tensor + offset * e, packed, count * e);
            packed += count * e;
            return;
        }
        for (uint64_t i = 0; i < count; ++i, packed += e)
            std::memcpy(tensor + (offset + i * stride) * e, packed, e);
    });
}

/// A packed buffer tensor of `type` and `sizes`.
struct PackedTensor {
    std::vector<uint32_t> sizes;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC tensor{};

    PackedTensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
        uint64_t count = 1;
        for (uint32_t n : sizes) count *= n;
        buffer = {type,
                  DML_TENSOR_FLAG_NONE,
                  static_cast<uint32_t>(sizes.size()),
                  sizes.data(),
                  nullptr,
                  (count * element_size(type) + 3) / 4 * 4,
                  0};
        tensor = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    PackedTensor(const PackedTensor&) = delete;
    PackedTensor& operator=(const PackedTensor&) = delete;
};

Error no_host_memory(const OperatorState& op, uint64_t bytes) {
    return make_error(ErrorCode::out_of_memory, "execute: ", to_string(op.desc.Type),
                      ": no host memory was left for a part of ", bytes, " bytes");
}

}  // namespace

bool bytes_overlap(std::span<const std::byte> a, std::span<const std::byte> b) {
    const std::less<const std::byte*> before;
    return !a.empty() && !b.empty() && before(a.data(), b.data() + b.size()) &&
           before(b.data(), a.data() + a.size());
}

std::optional<Status> execute_split(const Device& device, const OperatorState& op,
                                    std::span<const std::span<const std::byte>> inputs,
                                    std::span<const std::span<std::byte>> outputs,
                                    DML_EXECUTION_FLAGS flags) {
    const TensorCopy& in = *op.inputs[0];
    const NormalizedDesc& n = op.normalized;
    const size_t rank = in.sizes.size();
    std::vector<bool> kept(rank, true);
    if (find_op(op.desc.Type)->family == OpFamily::scan)
        kept[n.axis] = false;
    else
        for (uint32_t a : n.axes) kept[a] = false;
    // The kept axis of more than one element whose slabs lie most compactly in the input.
    size_t axis = rank;
    for (size_t d = 0; d < rank; ++d)
        if (kept[d] && in.sizes[d] > 1 && (axis == rank || in.strides[d] > in.strides[axis])) axis = d;
    if (axis == rank) return std::nullopt;

    // Every output (the values; a selection's indices): its element size and the bytes of one index
    // along `axis`, the input's likewise.
    const uint32_t in_element = element_size(in.buffer.DataType);
    uint64_t in_slice = in_element, out_slice = 0;
    for (size_t d = 0; d < rank; ++d)
        if (d != axis) in_slice *= in.sizes[d];
    for (const auto& out : op.outputs) {
        uint64_t slice = element_size(out->buffer.DataType);
        for (size_t d = 0; d < rank; ++d)
            if (d != axis) slice *= out->sizes[d];
        out_slice = std::max(out_slice, slice);
    }
    const DeviceInfo& info = op.device->caps.info;
    const uint64_t budget =
        std::min({info.max_memory_allocation_size, info.max_buffer_size, info.host_visible_heap / 4});
    // As many indices as fit the budget, and as let a line of the packed part (its worked axes) lie within
    // one window, so that its plan cuts no line into chunks and keeps no partial per element; and at most
    // half the axis: the whole did not run, so every part must be smaller (each level at least halves an
    // axis, which bounds the recursion).
    const auto line_span = [&](uint64_t count) {  // bytes from a line's first element to its last
        uint64_t span = in_element, stride = 1;
        for (size_t d = rank; d-- > 0;) {
            const uint64_t size = d == axis ? count : in.sizes[d];
            if (!kept[d]) span += (size - 1) * stride * in_element;
            stride *= size;
        }
        return span;
    };
    uint64_t per_part =
        std::clamp<uint64_t>(budget / std::max(in_slice, out_slice), 1, (in.sizes[axis] + 1) / 2);
    const uint64_t window = window_bytes(info);
    while (per_part > 1 && line_span(per_part) > window) per_part = std::max<uint64_t>(1, per_part / 2);

    // An input that shares memory with an output, other than as output 0's same elements, is read from a
    // copy.
    const std::byte* source = inputs[0].data();
    std::vector<std::byte> source_copy;
    const std::span<const std::byte> in_bytes = inputs[0].first(in.buffer.TotalTensorSizeInBytes);
    bool shared = false;
    for (size_t o = 0; o < op.outputs.size(); ++o) {
        const TensorCopy& out = *op.outputs[o];
        const std::span<const std::byte> out_bytes = outputs[o].first(out.buffer.TotalTensorSizeInBytes);
        shared = shared || (bytes_overlap(in_bytes, out_bytes) &&
                            !(o == 0 && in_bytes.data() == out_bytes.data() && in.strides == out.strides &&
                              in_element == element_size(out.buffer.DataType)));
    }
    if (shared) {
        try {
            source_copy.assign(in_bytes.begin(), in_bytes.end());
        } catch (const std::bad_alloc&) {
            return no_host_memory(op, in_bytes.size());
        }
        source = source_copy.data();
    }

    for (uint32_t first = 0; first < in.sizes[axis];) {
        const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(per_part, in.sizes[axis] - first));
        std::vector<uint32_t> in_sizes = in.sizes;
        in_sizes[axis] = count;
        PackedTensor part_in(in.buffer.DataType, in_sizes);
        std::vector<std::unique_ptr<PackedTensor>> part_out;
        for (const auto& out : op.outputs) {
            std::vector<uint32_t> sizes = out->sizes;
            sizes[axis] = count;
            part_out.push_back(std::make_unique<PackedTensor>(out->buffer.DataType, std::move(sizes)));
        }
        NormalizedDesc part = n;
        part.input = &part_in.tensor;
        part.output = &part_out[0]->tensor;
        if (part_out.size() > 1) part.output_index = &part_out[1]->tensor;
        const std::shared_ptr<const void> typed = find_op(op.desc.Type)->typed(part);
        std::vector<std::byte> packed_in;
        std::vector<std::vector<std::byte>> packed_out(part_out.size());
        uint64_t part_bytes = part_in.buffer.TotalTensorSizeInBytes;
        try {
            packed_in.resize(part_in.buffer.TotalTensorSizeInBytes);
            for (size_t o = 0; o < part_out.size(); ++o) {
                part_bytes += part_out[o]->buffer.TotalTensorSizeInBytes;
                packed_out[o].resize(part_out[o]->buffer.TotalTensorSizeInBytes);
            }
        } catch (const std::bad_alloc&) {
            return no_host_memory(op, part_bytes);
        }
        gather({in_sizes, in.strides, in_element, uint64_t(first) * in.strides[axis]}, source,
               packed_in.data());
        const std::span<const std::byte> part_inputs[] = {packed_in};
        std::vector<std::span<std::byte>> part_outputs(packed_out.begin(), packed_out.end());
        if (auto st =
                execute(device, {op.desc.Type, typed.get()}, part_inputs, part_outputs, flags, op.options);
            !st)
            return make_error(st.error().code, "execute: ", to_string(op.desc.Type), ": in parts along axis ",
                              axis, ": ", st.error().message);
        for (size_t o = 0; o < part_out.size(); ++o) {
            const TensorCopy& out = *op.outputs[o];
            scatter({part_out[o]->sizes, out.strides, element_size(out.buffer.DataType),
                     uint64_t(first) * out.strides[axis]},
                    packed_out[o].data(), outputs[o].data());
        }
        first += count;
    }
    return Status{};
}

}  // namespace vkdml::detail
