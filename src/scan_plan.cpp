// Scan planning (see scan_plan.hpp).
//
// Every fiber is cut into chunks small enough that no invocation loops more than a few thousand
// times (lavapipe silently ends loops after 65,535 iterations). One chunk per fiber: a single pass.
// Several: reduce each chunk to a partial (pass 1), scan the partials of each fiber exclusively
// (the same planner, recursively, on the scratch buffer), then scan each chunk starting from its
// partial (last pass). On GPUs, inner-axis fibers of some length use scan_tile (a workgroup per chunk);
// outer-axis and short fibers, and every shape on CPU devices, use scan_serial (an invocation per chunk,
// coalesced across fibers). scan_serial loads vectors of elements wherever the layout allows: along the
// axis when it is contiguous, across neighbouring fibers, or over narrow fiber groups and whole short rows
// (block_layout).
#include "scan_plan.hpp"

#include "errors.hpp"
#include "window.hpp"

#include <algorithm>

namespace vkdml::detail {

namespace {

constexpr uint32_t kTileWorkgroup = 256;
constexpr uint32_t kTileItems = 4;          // must match ITEMS in scan_tile.comp
constexpr uint32_t kMaxTilesPerChunk = 16;  // loop trips per invocation stay ~1,200
constexpr uint32_t kSerialWorkgroup = 64;
constexpr uint32_t kSerialMaxChunk = 512;  // positions (elements or blocks): loop trips per invocation
constexpr uint32_t kSerialMinChunk = 32;
constexpr uint32_t kCpuInvocations = 256;  // CPU devices: serial invocations worth splitting lines for
constexpr uint32_t kCpuMaxChunk = 8192;    // CPU devices: positions (elements or blocks) per invocation
constexpr uint32_t kCpuMinChunk = 1024;    // CPU devices: shorter lines are not split (a pass costs 20-60 us)
constexpr uint32_t kTileMinLength = 64;

// Word positions in the push constants (scan_common.glsl's Params).
enum Word : uint32_t {
    kFibers,
    kLen,
    kChunkLen,
    kItemEnd,
    kAxisIn,
    kAxisOut,
    kBaseIn,
    kBaseOut,
    kBasePart,
    kOtherDims,
    kItemBegin,
    kSize,
    kStrideIn = kSize + 7,
    kStrideOut = kStrideIn + 7,
    kWordCount = kStrideOut + 7
};
static_assert(kWordCount * 4 == kPushConstantBytes);

DML_TENSOR_DATA_TYPE accumulator_type(DML_TENSOR_DATA_TYPE t) {
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_FLOAT32: return DML_TENSOR_DATA_TYPE_FLOAT32;
    case DML_TENSOR_DATA_TYPE_FLOAT64: return DML_TENSOR_DATA_TYPE_FLOAT64;
    case DML_TENSOR_DATA_TYPE_INT64:
    case DML_TENSOR_DATA_TYPE_UINT64: return DML_TENSOR_DATA_TYPE_UINT64;
    default: return DML_TENSOR_DATA_TYPE_UINT32;
    }
}

/// How scan_serial sees a layout (scan_common.glsl's VEC_K, VEC_F, VEC_AXIS_INNER): element by element
/// (k = 0), or in blocks of k vectors of w elements holding w·k / f steps of f fibers, with `layout`
/// counting blocks along the axis and vectors in strides.
struct Blocks {
    uint32_t k = 0, f = 1;
    bool axis_inner = true;
    ScanLayout layout;
    uint32_t lanes() const { return k == 0 ? 1 : f; }
};

/// Whether the strides of the first `count` non-axis dimensions are multiples of w.
bool strides_divisible(const ScanLayout& l, size_t count, uint32_t w) {
    return std::all_of(l.others.begin(), l.others.begin() + static_cast<std::ptrdiff_t>(count),
                       [w](const ScanDim& d) { return d.stride_in % w == 0 && d.stride_out % w == 0; });
}

/// The blocks of w-element vectors (at most max_k of them) a layout allows (scan_serial), preferring whole
/// vectors along a contiguous axis, then across neighbouring fibers, then blocks of narrow fiber groups or of
/// whole short rows; k = 0 when none fits.
Blocks block_layout(const ScanLayout& l, uint32_t w, uint32_t max_k) {
    Blocks b;
    b.layout = l;
    const size_t n = l.others.size();
    ScanLayout& v = b.layout;
    auto divide_others = [&](size_t count) {
        for (size_t i = 0; i < count; ++i) {
            v.others[i].stride_in /= w;
            v.others[i].stride_out /= w;
        }
    };
    // Along a contiguous axis: k vectors of consecutive steps.
    if (l.axis_in == 1 && l.axis_out == 1 && strides_divisible(l, n, w)) {
        b.k = largest_k(max_k, false, [&](uint32_t k) { return l.len % (k * w) == 0; });
        if (b.k > 0) {
            v.len = l.len / (b.k * w);
            v.axis_in = v.axis_out = b.k;
            divide_others(n);
            return b;
        }
    }
    if (n == 0 || !strides_divisible(l, n - 1, w)) return b;
    const ScanDim inner = l.others[n - 1];
    // Across neighbouring fibers: k vectors of w·k fibers, one step.
    if (inner.stride_in == 1 && inner.stride_out == 1 && l.axis_in % w == 0 && l.axis_out % w == 0) {
        b.k = largest_k(max_k, false, [&](uint32_t k) { return inner.size % (k * w) == 0; });
        if (b.k > 0) {
            b.f = b.k * w;
            b.axis_inner = false;
            divide_others(n - 1);
            v.others[n - 1] = {inner.size / b.f, b.k, b.k};
            v.axis_in = l.axis_in / w;
            v.axis_out = l.axis_out / w;
            return b;
        }
    }
    // A few fibers side by side (the axis outside them): blocks of w·k / size steps of all of them.
    if (inner.stride_in == 1 && inner.stride_out == 1 && l.axis_in == inner.size &&
        l.axis_out == inner.size) {
        b.k = largest_k(max_k, true, [&](uint32_t k) {
            return (k * w) % inner.size == 0 && l.len % (k * w / inner.size) == 0;
        });
        if (b.k > 0) {
            b.f = inner.size;
            b.axis_inner = false;
            divide_others(n - 1);
            v.others.pop_back();
            v.len = l.len / (b.k * w / b.f);
            v.axis_in = v.axis_out = b.k;
            return b;
        }
    }
    // Short contiguous rows back to back: blocks of w·k / len whole rows.
    if (l.axis_in == 1 && l.axis_out == 1 && inner.stride_in == l.len && inner.stride_out == l.len) {
        b.k = largest_k(max_k, true, [&](uint32_t k) {
            return (k * w) % l.len == 0 && inner.size % (k * w / l.len) == 0;
        });
        if (b.k > 0) {
            b.f = b.k * w / l.len;
            divide_others(n - 1);
            v.others[n - 1] = {inner.size / b.f, b.k, b.k};
            v.len = 1;
            v.axis_in = v.axis_out = b.k;
            return b;
        }
    }
    return b;
}

/// Where the data of one scan level lives: the caller's tensors, or a scratch region (partials).
struct Endpoints {
    PassBinding src, dst;
};

struct Builder {
    DeviceState& device;
    Plan& plan;
    bool cpu = device.info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;

    /// Which elements of the data (src, dst) and of the partials each item (fiber, chunk) touches.
    /// `l` is the layout the kernel indexes (blocks of `block` vectors, or elements: block 1); `lanes`
    /// partials per item.
    static std::array<Access, kBindingCount> accesses(const ScanRequest& r, const ScanLayout& l,
                                                      uint64_t chunks, uint32_t block, uint32_t lanes) {
        std::array<Access, kBindingCount> a;
        for (int side = 0; side < 2; ++side) {
            int64_t axis = side == 0 ? l.axis_in : l.axis_out;
            for (const ScanDim& d : l.others)
                a[side].group.push_back({d.size, side == 0 ? d.stride_in : d.stride_out});
            a[side].line.push_back({l.len, r.reverse ? -axis : axis});
            a[side].origin = r.reverse ? int64_t(l.len - 1) * axis : 0;
            a[side].extent = block;
        }
        uint64_t weight = chunks * lanes;  // partials[(fiber * chunks + chunk) * lanes + lane]
        a[2].group.resize(l.others.size());
        for (size_t i = l.others.size(); i-- > 0;) {
            a[2].group[i] = {l.others[i].size, int64_t(weight)};
            weight *= l.others[i].size;
        }
        a[2].line.push_back({static_cast<uint32_t>(chunks), int64_t(lanes)});
        a[2].per_chunk = true;
        a[2].extent = lanes;
        return a;
    }

    Status add_pass(const ScanRequest& r, const Blocks& blocks, bool tile, const StorageVariant& v,
                    uint32_t mode, bool has_carry, std::array<PassBinding, 3> bindings,
                    std::array<uint32_t, kWordCount> words, uint64_t chunk_len, uint64_t chunks) {
        Pass pass;
        uint32_t wg =
            tile ? std::min(kTileWorkgroup, device.info.max_workgroup_invocations) : kSerialWorkgroup;
        pass.key = {tile ? "scan_tile" : "scan_serial",
                    v.name,
                    {wg, static_cast<uint32_t>(r.op), r.reverse, r.exclusive, mode, has_carry, blocks.k,
                     blocks.f, blocks.axis_inner}};
        const ScanLayout& l = blocks.layout;
        pass.groups = l.fibers();
        pass.chunks = chunks;
        pass.chunk_len = chunk_len;
        pass.line_length = l.len;
        pass.chunk_major = !tile;
        pass.items_per_workgroup = tile ? 1 : wg;
        pass.access = accesses(r, l, chunks, std::max(blocks.k, 1u), blocks.lanes());
        pass.item_begin_word = kItemBegin;
        pass.item_end_word = kItemEnd;
        pass.bindings = bindings;
        if (auto st = cut_into_segments(device.info, pass); !st) return st;
        auto pipeline = device.pipelines->get(pass.key);
        if (!pipeline) return pipeline.error();
        pass.pipeline = *pipeline;
        std::copy(words.begin(), words.end(), pass.push.begin());
        plan.passes.push_back(std::move(pass));
        return {};
    }

    Status scan(const ScanRequest& r, Endpoints ends) {
        StorageVariant v = r.pairs ? pair_variant(r.type) : storage_variant(r.type);
        // scan_tile needs subgroup arithmetic (integers) or shuffles (floats, compensated) in compute
        // shaders; without them every shape runs serially. Pairs (partials) run serially.
        const bool subgroup_ops =
            is_float(r.type) ? device.info.subgroup_shuffle : device.info.subgroup_arithmetic;
        bool tile = !r.pairs && !device.serial_kernels && subgroup_ops && r.layout.len >= kTileMinLength &&
                    r.layout.axis_innermost();
        Blocks blocks;
        blocks.layout = r.layout;
        // float16 blocks of one vector: the conversion back from float32, unrolled over larger blocks,
        // runs slower (measured on lavapipe).
        if (!tile && !r.pairs)
            blocks = block_layout(r.layout, vector_width(v), r.type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 1 : 4);
        const ScanLayout& l = blocks.layout;
        const uint32_t width = blocks.k == 0 ? 1 : vector_width(v);  // elements per kernel index
        const uint32_t block = std::max(blocks.k, 1u);               // kernel indices per position
        const uint32_t lanes = blocks.lanes();
        uint64_t fibers = l.fibers();
        uint64_t chunk_len;
        if (tile) {
            uint64_t tile_len = uint64_t(kTileWorkgroup) * kTileItems;
            uint64_t target_groups = cpu ? 8 : 512;
            uint64_t want_chunks = ceil_div(target_groups, fibers);
            chunk_len = ceil_div(ceil_div(l.len, want_chunks), tile_len) * tile_len;
            chunk_len = std::clamp<uint64_t>(chunk_len, tile_len, tile_len * kMaxTilesPerChunk);
        } else {
            // Splitting a line costs a second read of it (reduce-then-scan), so CPU devices, which need
            // few invocations, split only lines too long for one invocation or too few to share.
            uint64_t target_invocations = cpu ? kCpuInvocations : 65536;
            uint64_t want_chunks = ceil_div(target_invocations, fibers);
            chunk_len =
                std::clamp<uint64_t>(ceil_div(l.len, want_chunks), cpu ? kCpuMinChunk : kSerialMinChunk,
                                     cpu ? kCpuMaxChunk : kSerialMaxChunk);
        }
        // No chunk may span more than a window of either tensor.
        const auto data = accesses(r, l, 1, block, lanes);
        for (int side = 0; side < 2; ++side)
            chunk_len = std::min(chunk_len, max_chunk_in_window(data[side].line, v.element_bytes * width,
                                                                block, window_bytes(device.info)));
        uint64_t chunks = ceil_div(l.len, chunk_len);
        if (fibers * lanes * chunks > 0xFFFFFFFFull)
            return make_error(ErrorCode::unsupported_device, "the scan has ", fibers * lanes * chunks,
                              " chunks, more than 32-bit indexing allows");

        std::array<uint32_t, kWordCount> w{};
        w[kFibers] = static_cast<uint32_t>(fibers);
        w[kLen] = l.len;
        w[kChunkLen] = static_cast<uint32_t>(std::min<uint64_t>(chunk_len, l.len));
        w[kAxisIn] = l.axis_in;
        w[kAxisOut] = l.axis_out;
        w[kOtherDims] = static_cast<uint32_t>(l.others.size());
        for (size_t i = 0; i < l.others.size(); ++i) {
            w[kSize + i] = l.others[i].size;
            w[kStrideIn + i] = l.others[i].stride_in;
            w[kStrideOut + i] = l.others[i].stride_out;
        }
        PassBinding src = ends.src, dst = ends.dst;
        src.element_bytes = dst.element_bytes = v.element_bytes * width;
        src.base_word = kBaseIn;
        dst.base_word = kBaseOut;

        if (chunks == 1) {
            PassBinding unused = dst;  // never accessed; any valid range will do
            unused.base_word = -1;
            unused.unused = true;
            return add_pass(r, blocks, tile, v, 0, false, {src, dst, unused}, w, chunk_len, chunks);
        }

        uint64_t partial_bytes = fibers * lanes * chunks * v.partial_bytes;
        PassBinding partials{
            Slot::temporary, 0,        allocate_scratch(device.info, plan, partial_bytes), partial_bytes,
            v.partial_bytes, kBasePart};
        PassBinding unused_dst = dst;
        unused_dst.base_word = -1;
        unused_dst.unused = true;
        if (auto st =
                add_pass(r, blocks, tile, v, 1, false, {src, unused_dst, partials}, w, chunk_len, chunks);
            !st)
            return st;

        // The partials of (fiber, lane) lie `lanes` apart along the chunks.
        ScanRequest carry;
        carry.op = r.op;
        carry.type = accumulator_type(r.type);
        carry.exclusive = true;
        carry.pairs = is_float(r.type);
        carry.layout.len = static_cast<uint32_t>(chunks);
        carry.layout.axis_in = carry.layout.axis_out = lanes;
        const auto fiber_stride = static_cast<uint32_t>(chunks * lanes);
        if (fibers > 1)
            carry.layout.others.push_back({static_cast<uint32_t>(fibers), fiber_stride, fiber_stride});
        if (lanes > 1) carry.layout.others.push_back({lanes, 1, 1});
        PassBinding region = partials;
        region.base_word = -1;
        if (auto st = scan(carry, {region, region}); !st) return st;

        return add_pass(r, blocks, tile, v, 0, true, {src, dst, partials}, w, chunk_len, chunks);
    }
};

}  // namespace

Status plan_scan(DeviceState& device, const ScanRequest& request, Plan& plan) {
    Builder b{device, plan};
    PassBinding src{Slot::input, 0}, dst{Slot::output, 0};
    return b.scan(request, {src, dst});
}

}  // namespace vkdml::detail
