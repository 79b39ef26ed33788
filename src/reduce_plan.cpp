// Reduce planning (see reduce_plan.hpp).
//
// Every output's n reduced elements are cut into chunks small enough that no invocation loops more than
// a few hundred times (lavapipe silently ends loops after 65,535 iterations). One chunk per output: a
// single pass writes the results. Several: the pass writes one fold state per (output, chunk) to
// scratch, and the chunk states are folded again, by the same planner, until one remains. Reductions
// whose reduced elements are the inner ones in memory and long use reduce_tree (a workgroup per
// chunk) on GPUs; outer-axis and short reductions, and every shape on CPU devices, use reduce_serial (an
// invocation per chunk, neighbouring invocations on neighbouring outputs). reduce_serial's first pass
// loads vectors of input elements wherever the layout allows: along the reduced elements when they are
// contiguous, across neighbouring outputs, or over whole short rows (block_layout).
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
constexpr uint32_t kCpuInvocations = 2048;  // CPU devices: serial invocations worth splitting lines for
constexpr uint32_t kCpuMaxChunk = 8192;     // CPU devices: positions (elements or blocks) per invocation
constexpr uint32_t kCpuMinChunk = 1024;  // CPU devices: shorter lines are not split (a pass costs 20-60 us)
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

/// How reduce_serial's first pass sees the input (reduce_common.glsl's VEC_K, VEC_F): element by element
/// (k = 0), or in blocks of k vectors of w elements holding w·k / f consecutive reduced elements of f
/// neighbouring outputs, with `layout` counting blocks along the reduced elements and vectors in input
/// strides (output strides stay in elements; the innermost is f from one item to the next).
struct Blocks {
    uint32_t k = 0, f = 1;
    ReduceLayout layout;
    uint32_t lanes() const { return k == 0 ? 1 : f; }
};

/// The blocks of w-element vectors the input allows, preferring whole vectors along contiguous reduced
/// elements, then across neighbouring outputs, then blocks of whole short rows; k = 0 when none fits.
Blocks block_layout(const ReduceLayout& l, uint32_t w) {
    Blocks b;
    b.layout = l;
    ReduceLayout& v = b.layout;
    const size_t m = l.kept.size();
    auto kept_divisible = [&](size_t count) {
        for (size_t i = 0; i < count; ++i)
            if (l.kept[i].stride_in % w != 0) return false;
        return true;
    };
    auto divide_kept = [&](size_t count) {
        for (size_t i = 0; i < count; ++i) v.kept[i].stride_in /= w;
    };
    if (l.reduced.empty()) return b;  // AxisCount 0: a copy, element by element
    const bool one_line = l.reduced.size() == 1 && l.reduced[0].stride_in == 1;
    // Along contiguous reduced elements: k vectors of one output.
    if (one_line && kept_divisible(m)) {
        b.k = largest_k(4, false, [&](uint32_t k) { return l.reduced[0].size % (k * w) == 0; });
        if (b.k > 0) {
            v.reduced[0] = {l.reduced[0].size / (b.k * w), b.k};
            divide_kept(m);
            return b;
        }
    }
    if (m == 0 || !kept_divisible(m - 1)) return b;
    const KeptDim inner = l.kept[m - 1];
    // Across neighbouring outputs: k vectors of one element of w·k outputs.
    const bool reduced_divisible = std::all_of(l.reduced.begin(), l.reduced.end(),
                                               [w](const ReducedDim& d) { return d.stride_in % w == 0; });
    if (inner.stride_in == 1 && inner.stride_out == 1 && reduced_divisible) {
        b.k = largest_k(4, false, [&](uint32_t k) { return inner.size % (k * w) == 0; });
        if (b.k > 0) {
            b.f = b.k * w;
            divide_kept(m - 1);
            for (ReducedDim& d : v.reduced) d.stride_in /= w;
            v.kept[m - 1] = {inner.size / b.f, b.k, b.f};
            return b;
        }
    }
    // Short contiguous rows back to back: blocks of w·k / n whole rows.
    const uint32_t n = one_line ? l.reduced[0].size : 0;
    if (one_line && inner.stride_in == n && inner.stride_out == 1) {
        b.k =
            largest_k(4, true, [&](uint32_t k) { return (k * w) % n == 0 && inner.size % (k * w / n) == 0; });
        if (b.k > 0) {
            b.f = b.k * w / n;
            divide_kept(m - 1);
            v.kept[m - 1] = {inner.size / b.f, b.k, b.f};
            v.reduced[0] = {1, b.k};
            return b;
        }
    }
    return b;
}

struct Builder {
    DeviceState& device;
    Plan& plan;
    const ReduceRequest& r;
    bool cpu = device.info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    StorageVariant v = storage_variant(r.type);
    /// Words of a fold state between passes (reduce_common.glsl's STATE_WORDS): the value, LOG_SUM_EXP's
    /// scaled sum, the compensation of float sums and products, the arg functions' index.
    uint32_t state_words = v.accumulator_bytes / 4 *
                               (1 + (r.function == DML_REDUCE_FUNCTION_LOG_SUM_EXP ? 1 : 0) +
                                (is_float(r.type) && is_compensated(r.function) ? 1 : 0)) +
                           (is_arg_function(r.function) ? 1 : 0);
    std::array<uint32_t, kWordCount> words = layout_words(r.layout);

    std::array<uint32_t, kWordCount> layout_words(const ReduceLayout& l) const {
        std::array<uint32_t, kWordCount> w{};
        w[kDims] = static_cast<uint32_t>(l.kept.size() | (l.reduced.size() << 8));
        w[kNTotal] = static_cast<uint32_t>(r.layout.n());  // N whatever units `l` counts in
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

    /// Kept dimensions of `l` with row-major weights × `scale`: partial state slots (o·chunks + c)·words.
    static std::vector<AccessDim> output_weights(const ReduceLayout& l, uint64_t scale) {
        std::vector<AccessDim> dims(l.kept.size());
        for (size_t i = dims.size(); i-- > 0;) {
            dims[i] = {l.kept[i].size, int64_t(scale)};
            scale *= l.kept[i].size;
        }
        return dims;
    }

    /// Which elements each item (output, chunk) of a pass folding n elements (or states) reads; `l` is the
    /// layout the pass indexes.
    Access source_access(const ReduceLayout& l, bool src_partials, uint64_t n) const {
        Access a;
        if (src_partials) {  // states o·n + r, state_words words each
            a.group = output_weights(l, n * state_words);
            a.line = {{static_cast<uint32_t>(n), int64_t(state_words)}};
            a.extent = state_words;
            return a;
        }
        for (const KeptDim& d : l.kept) a.group.push_back({d.size, d.stride_in});
        for (const ReducedDim& d : l.reduced) a.line.push_back({d.size, d.stride_in});
        return a;
    }

    /// Which elements each item writes: its output element(s), or its state(s) o·chunks + c. With
    /// `lanes` outputs per item (blocks across outputs or rows), those are lanes consecutive elements, or
    /// lanes states `chunks` slots apart.
    Access destination_access(const ReduceLayout& l, bool dst_partials, uint64_t chunks,
                              uint32_t lanes) const {
        Access a;
        a.per_chunk = true;
        if (dst_partials) {
            a.group = output_weights(l, lanes * chunks * state_words);
            a.line = {{static_cast<uint32_t>(chunks), int64_t(state_words)}};
            a.extent = static_cast<uint32_t>(((lanes - 1) * chunks + 1) * state_words);
            return a;
        }
        for (const KeptDim& d : l.kept) a.group.push_back({d.size, d.stride_out});
        a.extent = lanes;
        return a;
    }

    Status add_pass(const Blocks& blocks, bool tree, uint32_t wg, bool src_partials, bool dst_partials,
                    PassBinding src, PassBinding dst, uint64_t n, uint64_t chunk_len, uint64_t chunks) {
        const ReduceLayout& l = blocks.layout;
        Pass pass;
        bool arg = is_arg_function(r.function);
        bool sign_matters = arg || r.function == DML_REDUCE_FUNCTION_MIN ||
                            r.function == DML_REDUCE_FUNCTION_MAX || r.function == DML_REDUCE_FUNCTION_L1;
        bool index64 = arg && !dst_partials && element_size(r.output_type) == 8;
        pass.key = {tree ? "reduce_tree" : "reduce_serial",
                    v.name,
                    {wg, r.function, src_partials, dst_partials, arg && r.tie_last,
                     sign_matters && is_signed_integer(r.type), index64, blocks.k, blocks.f}};
        const uint32_t lanes = blocks.lanes();
        pass.groups = l.outputs();
        pass.chunks = chunks;
        pass.chunk_len = chunk_len;
        pass.line_length = n;
        pass.chunk_major = !tree;
        pass.items_per_workgroup = tree ? 1 : wg;
        pass.access = {source_access(l, src_partials, n), destination_access(l, dst_partials, chunks, lanes),
                       Access{}};
        if (blocks.k > 0) pass.access[0].extent = blocks.k;
        pass.item_begin_word = kItemBegin;
        pass.item_end_word = kItemEnd;
        PassBinding unused = dst;  // never accessed; any valid range will do
        unused.base_word = -1;
        unused.unused = true;
        pass.bindings = {src, dst, unused};
        if (auto st = cut_into_segments(device.info, pass); !st) return st;
        std::array<uint32_t, kWordCount> w = blocks.k == 0 ? words : layout_words(l);
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
        bool contiguous = src_partials || r.layout.reduced_innermost();
        // reduce_tree's SPIR-V uses subgroup shuffles; without them every shape runs serially.
        bool tree = !device.serial_kernels && device.info.subgroup_shuffle && n >= kTreeMinN && contiguous;
        // A workgroup of about n/8 invocations (a power of two, at least a subgroup) per output.
        uint32_t wg = kSerialWorkgroup;
        if (tree) {
            uint32_t cap = std::min(kTreeWorkgroup, device.info.max_workgroup_invocations);
            uint32_t floor = std::max(kTreeMinWorkgroup, device.info.subgroup_size);
            wg = static_cast<uint32_t>(std::bit_ceil(ceil_div(n, 8)));
            wg = std::clamp(wg, std::min(floor, cap), cap);
            // No chunk may span more than a window of the source; chunks shorter than a workgroup: fold
            // serially instead.
            const Access source = source_access(r.layout, src_partials, n);
            if (max_chunk_in_window(source.line, src.element_bytes, source.extent,
                                    window_bytes(device.info)) < wg) {
                tree = false;
                wg = kSerialWorkgroup;
            }
        }
        Blocks blocks;
        blocks.layout = r.layout;
        if (!tree && !src_partials) blocks = block_layout(r.layout, vector_width(v));
        uint64_t chunk_len = 0, chunks = 0;
        for (;;) {
            const ReduceLayout& l = blocks.layout;
            const uint64_t positions = blocks.k > 0 ? l.n() : n;
            const uint32_t element_bytes = src.element_bytes * (blocks.k > 0 ? vector_width(v) : 1);
            const uint64_t outputs = l.outputs();
            const Access source = source_access(l, src_partials, positions);
            const uint64_t window_cap = max_chunk_in_window(
                source.line, element_bytes, std::max(source.extent, blocks.k), window_bytes(device.info));
            if (tree) {
                uint64_t want_chunks = ceil_div(cpu ? 8 : 2048, outputs);
                chunk_len = ceil_div(ceil_div(positions, want_chunks), wg) * wg;
                chunk_len = std::clamp<uint64_t>(chunk_len, wg, wg * kTreeMaxItems);
            } else {
                uint64_t want_chunks = ceil_div(cpu ? kCpuInvocations : 131072, outputs);
                chunk_len = std::clamp<uint64_t>(ceil_div(positions, want_chunks),
                                                 cpu ? kCpuMinChunk : kSerialMinChunk,
                                                 cpu ? kCpuMaxChunk : kSerialMaxChunk);
            }
            chunk_len = std::min(chunk_len, window_cap);
            chunks = ceil_div(positions, chunk_len);
            // Blocks across outputs write their states `chunks` slots apart: all of them must fit a window.
            if (blocks.lanes() > 1 && chunks > 1 &&
                ((blocks.lanes() - 1) * chunks + 1) * state_words * 4 > window_bytes(device.info)) {
                blocks = Blocks{0, 1, r.layout};
                continue;
            }
            n = positions;
            src.element_bytes = element_bytes;
            break;
        }
        const uint32_t lanes = blocks.lanes();
        const uint64_t outputs = blocks.layout.outputs();
        if (outputs * lanes * chunks > 0xFFFFFFFFull)
            return make_error(ErrorCode::unsupported_device, "the reduction has ", outputs * lanes * chunks,
                              " chunks, more than 32-bit indexing allows");
        src.base_word = kBaseIn;
        if (chunks == 1) {
            PassBinding dst{Slot::output, 0};
            dst.element_bytes = is_arg_function(r.function) ? element_size(r.output_type) : v.element_bytes;
            dst.base_word = kBaseOut;
            return add_pass(blocks, tree, wg, src_partials, false, src, dst, n, chunk_len, chunks);
        }
        uint64_t bytes = outputs * lanes * chunks * state_words * 4;
        PassBinding partials{Slot::temporary, 0, allocate_scratch(device.info, plan, bytes),
                             bytes,           4, kBaseOut};
        if (auto st = add_pass(blocks, tree, wg, src_partials, true, src, partials, n, chunk_len, chunks);
            !st)
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
