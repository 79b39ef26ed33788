// Reduce planning (see reduce_plan.hpp).
//
// Every output's n reduced elements are cut into chunks small enough that no invocation loops more than
// a few hundred times (lavapipe silently ends loops after 65,535 iterations). One chunk per output: a
// single pass writes the results. Several: the pass writes one fold state per (output, chunk) to
// scratch, and the chunk states are folded again, by the same planner, until one remains. Reductions
// whose reduced elements are the inner ones in memory and long use reduce_tree (a workgroup per
// chunk); outer-axis and short reductions use reduce_serial (an invocation per chunk, neighbouring
// invocations on neighbouring outputs).
#include "reduce_plan.hpp"

#include "errors.hpp"
#include "window.hpp"

#include <algorithm>
#include <bit>

namespace vkdml::detail {

namespace {

constexpr uint32_t kTreeWorkgroup = 256;
constexpr uint32_t kTreeMaxItems = 64;  // elements per invocation and chunk
constexpr uint64_t kTreeMinN = 64;      // shorter folds run serially
constexpr uint32_t kTreeMinWorkgroup = 32;
constexpr uint32_t kSerialWorkgroup = 64;
constexpr uint32_t kSerialMinChunk = 64;
constexpr uint32_t kSerialMaxChunk = 256;
constexpr uint32_t kMaxDimWords = 24;

// Word positions in the push constants (reduce_common.glsl's Params).
enum Word : uint32_t {
    kN,
    kChunkLen,
    kItemEnd,
    kBaseIn,
    kBaseOut,
    kItemBegin,
    kDims,
    kNTotal,
    kDim,
    kWordCount = kDim + kMaxDimWords
};
static_assert(kWordCount * 4 == kPushConstantBytes);

struct Builder {
    DeviceState& device;
    Plan& plan;
    const ReduceRequest& r;
    bool cpu = device.info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    StorageVariant v = storage_variant(r.type);
    uint32_t state_words = v.accumulator_bytes / 4 * (r.function == DML_REDUCE_FUNCTION_LOG_SUM_EXP ? 2 : 1) +
                           (is_arg_function(r.function) ? 1 : 0);
    std::array<uint32_t, kWordCount> words = layout_words();

    std::array<uint32_t, kWordCount> layout_words() const {
        std::array<uint32_t, kWordCount> w{};
        const ReduceLayout& l = r.layout;
        w[kDims] = static_cast<uint32_t>(l.kept.size() | (l.reduced.size() << 8));
        w[kNTotal] = static_cast<uint32_t>(l.n());
        uint32_t k = kDim;
        for (const KeptDim& d : l.kept) {
            w[k++] = d.size;
            w[k++] = d.stride_in;
            w[k++] = d.stride_out;
        }
        for (const ReducedDim& d : l.reduced) {
            w[k++] = d.size;
            w[k++] = d.stride_in;
        }
        return w;
    }

    /// Kept dimensions with row-major weights × `scale`: partial state slots (o·chunks + c)·words.
    std::vector<AccessDim> output_weights(uint64_t scale) const {
        std::vector<AccessDim> dims(r.layout.kept.size());
        for (size_t i = dims.size(); i-- > 0;) {
            dims[i] = {r.layout.kept[i].size, int64_t(scale)};
            scale *= r.layout.kept[i].size;
        }
        return dims;
    }

    /// Which elements each item (output, chunk) of a pass folding n elements (or states) reads.
    Access source_access(bool src_partials, uint64_t n) const {
        Access a;
        if (src_partials) {  // states o·n + r, state_words words each
            a.group = output_weights(n * state_words);
            a.line = {{static_cast<uint32_t>(n), int64_t(state_words)}};
            a.extent = state_words;
            return a;
        }
        for (const KeptDim& d : r.layout.kept) a.group.push_back({d.size, d.stride_in});
        for (const ReducedDim& d : r.layout.reduced) a.line.push_back({d.size, d.stride_in});
        return a;
    }

    /// Which elements each item writes: its output element, or its state o·chunks + c.
    Access destination_access(bool dst_partials, uint64_t chunks) const {
        Access a;
        a.per_chunk = true;
        if (dst_partials) {
            a.group = output_weights(chunks * state_words);
            a.line = {{static_cast<uint32_t>(chunks), int64_t(state_words)}};
            a.extent = state_words;
            return a;
        }
        for (const KeptDim& d : r.layout.kept) a.group.push_back({d.size, d.stride_out});
        return a;
    }

    Status add_pass(bool tree, uint32_t wg, bool src_partials, bool dst_partials, PassBinding src,
                    PassBinding dst, uint64_t n, uint64_t chunk_len, uint64_t chunks) {
        Pass pass;
        bool arg = is_arg_function(r.function);
        bool sign_matters = arg || r.function == DML_REDUCE_FUNCTION_MIN ||
                            r.function == DML_REDUCE_FUNCTION_MAX || r.function == DML_REDUCE_FUNCTION_L1;
        bool index64 = arg && !dst_partials && element_size(r.output_type) == 8;
        pass.key = {tree ? "reduce_tree" : "reduce_serial",
                    v.name,
                    {wg, r.function, src_partials, dst_partials, arg && r.tie_last,
                     sign_matters && is_signed_integer(r.type), index64}};
        pass.groups = r.layout.outputs();
        pass.chunks = chunks;
        pass.chunk_len = chunk_len;
        pass.line_length = n;
        pass.chunk_major = !tree;
        pass.items_per_workgroup = tree ? 1 : wg;
        pass.access = {source_access(src_partials, n), destination_access(dst_partials, chunks), Access{}};
        pass.item_begin_word = kItemBegin;
        pass.item_end_word = kItemEnd;
        PassBinding unused = dst;  // never accessed; any valid range will do
        unused.base_word = -1;
        unused.unused = true;
        pass.bindings = {src, dst, unused};
        if (auto st = cut_into_segments(device.info, pass); !st) return st;
        std::array<uint32_t, kWordCount> w = words;
        w[kN] = static_cast<uint32_t>(n);
        w[kChunkLen] = static_cast<uint32_t>(std::min(chunk_len, n));
        auto pipeline = device.pipelines->get(pass.key);
        if (!pipeline) return pipeline.error();
        pass.pipeline = *pipeline;
        std::copy(w.begin(), w.end(), pass.push.begin());
        plan.passes.push_back(std::move(pass));
        return {};
    }

    /// Folds n elements (or chunk states) per output from `src` into the output.
    Status fold(PassBinding src, bool src_partials, uint64_t n) {
        uint64_t outputs = r.layout.outputs();
        bool contiguous = src_partials || r.layout.reduced_innermost();
        // No chunk may span more than a window of the source.
        const Access source = source_access(src_partials, n);
        const uint64_t window_cap =
            max_chunk_in_window(source.line, src.element_bytes, source.extent, window_bytes(device.info));
        // reduce_tree's SPIR-V uses subgroup shuffles; without them every shape runs serially.
        bool tree = device.info.subgroup_shuffle && n >= kTreeMinN && contiguous;
        // A workgroup of about n/8 invocations (a power of two, at least a subgroup) per output.
        uint32_t wg = kSerialWorkgroup;
        if (tree) {
            uint32_t cap = std::min(kTreeWorkgroup, device.info.max_workgroup_invocations);
            uint32_t floor = std::max(kTreeMinWorkgroup, device.info.subgroup_size);
            wg = static_cast<uint32_t>(std::bit_ceil(ceil_div(n, 8)));
            wg = std::clamp(wg, std::min(floor, cap), cap);
            if (window_cap < wg) {  // chunks shorter than a workgroup: fold serially instead
                tree = false;
                wg = kSerialWorkgroup;
            }
        }
        uint64_t chunk_len;
        if (tree) {
            uint64_t want_chunks = ceil_div(cpu ? 8 : 2048, outputs);
            chunk_len = ceil_div(ceil_div(n, want_chunks), wg) * wg;
            chunk_len = std::clamp<uint64_t>(chunk_len, wg, wg * kTreeMaxItems);
        } else {
            uint64_t want_chunks = ceil_div(cpu ? 2048 : 131072, outputs);
            chunk_len = std::clamp<uint64_t>(ceil_div(n, want_chunks), kSerialMinChunk, kSerialMaxChunk);
        }
        chunk_len = std::min(chunk_len, window_cap);
        uint64_t chunks = ceil_div(n, chunk_len);
        if (outputs * chunks > 0xFFFFFFFFull)
            return make_error(ErrorCode::unsupported_device, "the reduction has ", outputs * chunks,
                              " chunks, more than 32-bit indexing allows");
        src.base_word = kBaseIn;
        if (chunks == 1) {
            PassBinding dst{Slot::output, 0};
            dst.element_bytes = is_arg_function(r.function) ? element_size(r.output_type) : v.element_bytes;
            dst.base_word = kBaseOut;
            return add_pass(tree, wg, src_partials, false, src, dst, n, chunk_len, chunks);
        }
        uint64_t bytes = outputs * chunks * state_words * 4;
        PassBinding partials{Slot::temporary, 0, allocate_scratch(device.info, plan, bytes),
                             bytes,           4, kBaseOut};
        if (auto st = add_pass(tree, wg, src_partials, true, src, partials, n, chunk_len, chunks); !st)
            return st;
        return fold(partials, true, chunks);
    }
};

}  // namespace

Status plan_reduce(DeviceState& device, const ReduceRequest& request, Plan& plan) {
    Builder b{device, plan, request};
    PassBinding src{Slot::input, 0};
    src.element_bytes = b.v.element_bytes;
    return b.fold(src, false, request.layout.n());
}

}  // namespace vkdml::detail
