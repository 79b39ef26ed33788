// Scan planning (see scan_plan.hpp).
//
// Every fiber is cut into chunks small enough that no invocation loops more than a few thousand
// times (lavapipe silently ends loops after 65,535 iterations). One chunk per fiber: a single pass.
// Several: reduce each chunk to a partial (pass 1), scan the partials of each fiber exclusively
// (the same planner, recursively, on the scratch buffer), then scan each chunk starting from its
// partial (last pass). Inner-axis fibers of some length use scan_tile (a workgroup per chunk);
// outer-axis and short fibers use scan_serial (an invocation per chunk, coalesced across fibers).
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
constexpr uint32_t kSerialMaxChunk = 512;
constexpr uint32_t kSerialMinChunk = 32;
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

/// Where the data of one scan level lives: the caller's tensors, or a scratch region (partials).
struct Endpoints {
    PassBinding src, dst;
};

struct Builder {
    DeviceState& device;
    Plan& plan;
    bool cpu = device.info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;

    /// Which elements of the data (src, dst) and of the partials each item (fiber, chunk) touches.
    static std::array<Access, kBindingCount> accesses(const ScanRequest& r, uint64_t chunks) {
        const ScanLayout& l = r.layout;
        std::array<Access, kBindingCount> a;
        for (int side = 0; side < 2; ++side) {
            int64_t axis = side == 0 ? l.axis_in : l.axis_out;
            for (const ScanDim& d : l.others)
                a[side].group.push_back({d.size, side == 0 ? d.stride_in : d.stride_out});
            a[side].line.push_back({l.len, r.reverse ? -axis : axis});
            a[side].origin = r.reverse ? int64_t(l.len - 1) * axis : 0;
        }
        uint64_t weight = chunks;  // partials[fiber * chunks + chunk]
        a[2].group.resize(l.others.size());
        for (size_t i = l.others.size(); i-- > 0;) {
            a[2].group[i] = {l.others[i].size, int64_t(weight)};
            weight *= l.others[i].size;
        }
        a[2].line.push_back({static_cast<uint32_t>(chunks), 1});
        a[2].per_chunk = true;
        return a;
    }

    Status add_pass(const ScanRequest& r, bool tile, const StorageVariant& v, uint32_t mode, bool has_carry,
                    std::array<PassBinding, 3> bindings, std::array<uint32_t, kWordCount> words,
                    uint64_t chunk_len, uint64_t chunks) {
        Pass pass;
        uint32_t wg =
            tile ? std::min(kTileWorkgroup, device.info.max_workgroup_invocations) : kSerialWorkgroup;
        pass.key = {tile ? "scan_tile" : "scan_serial",
                    v.name,
                    {wg, static_cast<uint32_t>(r.op), r.reverse, r.exclusive, mode, has_carry}};
        pass.groups = r.layout.fibers();
        pass.chunks = chunks;
        pass.chunk_len = chunk_len;
        pass.line_length = r.layout.len;
        pass.chunk_major = !tile;
        pass.items_per_workgroup = tile ? 1 : wg;
        pass.access = accesses(r, chunks);
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
        const ScanLayout& l = r.layout;
        StorageVariant v = storage_variant(r.type);
        uint64_t fibers = l.fibers();
        // scan_tile needs subgroup arithmetic in compute shaders; without it every shape runs serially.
        bool tile = device.info.subgroup_arithmetic && l.len >= kTileMinLength && l.axis_innermost();
        uint64_t chunk_len;
        if (tile) {
            uint64_t tile_len = uint64_t(kTileWorkgroup) * kTileItems;
            uint64_t target_groups = cpu ? 8 : 512;
            uint64_t want_chunks = ceil_div(target_groups, fibers);
            chunk_len = ceil_div(ceil_div(l.len, want_chunks), tile_len) * tile_len;
            chunk_len = std::clamp<uint64_t>(chunk_len, tile_len, tile_len * kMaxTilesPerChunk);
        } else {
            uint64_t target_invocations = cpu ? 2048 : 65536;
            uint64_t want_chunks = ceil_div(target_invocations, fibers);
            chunk_len = std::clamp<uint64_t>(ceil_div(l.len, want_chunks), kSerialMinChunk, kSerialMaxChunk);
        }
        // No chunk may span more than a window of either tensor.
        const auto data = accesses(r, 1);
        for (int side = 0; side < 2; ++side)
            chunk_len = std::min(chunk_len, max_chunk_in_window(data[side].line, v.element_bytes, 1,
                                                                window_bytes(device.info)));
        uint64_t chunks = ceil_div(l.len, chunk_len);
        if (fibers * chunks > 0xFFFFFFFFull)
            return make_error(ErrorCode::unsupported_device, "the scan has ", fibers * chunks,
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
        src.element_bytes = dst.element_bytes = v.element_bytes;
        src.base_word = kBaseIn;
        dst.base_word = kBaseOut;

        if (chunks == 1) {
            PassBinding unused = dst;  // never accessed; any valid range will do
            unused.base_word = -1;
            unused.unused = true;
            return add_pass(r, tile, v, 0, false, {src, dst, unused}, w, chunk_len, chunks);
        }

        uint64_t partial_bytes = fibers * chunks * v.accumulator_bytes;
        PassBinding partials{
            Slot::temporary,     0,        allocate_scratch(device.info, plan, partial_bytes), partial_bytes,
            v.accumulator_bytes, kBasePart};
        PassBinding unused_dst = dst;
        unused_dst.base_word = -1;
        unused_dst.unused = true;
        if (auto st = add_pass(r, tile, v, 1, false, {src, unused_dst, partials}, w, chunk_len, chunks); !st)
            return st;

        ScanRequest carry;
        carry.op = r.op;
        carry.type = accumulator_type(r.type);
        carry.exclusive = true;
        carry.layout.len = static_cast<uint32_t>(chunks);
        carry.layout.axis_in = carry.layout.axis_out = 1;
        if (fibers > 1)
            carry.layout.others.push_back({static_cast<uint32_t>(fibers), static_cast<uint32_t>(chunks),
                                           static_cast<uint32_t>(chunks)});
        PassBinding region = partials;
        region.base_word = -1;
        if (auto st = scan(carry, {region, region}); !st) return st;

        return add_pass(r, tile, v, 0, true, {src, dst, partials}, w, chunk_len, chunks);
    }
};

}  // namespace

Status plan_scan(DeviceState& device, const ScanRequest& request, Plan& plan) {
    Builder b{device, plan};
    PassBinding src{Slot::input, 0}, dst{Slot::output, 0};
    return b.scan(request, {src, dst});
}

}  // namespace vkdml::detail
