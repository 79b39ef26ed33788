// Scan planning (see scan_plan.hpp): the reduce-then-scan of GPUPrefixSums and CUB, by chunks.
//
// Every fiber is cut into chunks (policy.hpp). One chunk per fiber: a single pass scans it. Several:
//   1. reduce: each chunk to a partial (a compensated pair for floats), in scratch;
//   2. scan the partials of each fiber exclusively: the same planner, recursively, on the scratch;
//   3. scan each chunk starting from its partial, the carry.
// Inner-axis fibers of some length use scan_tile (a workgroup per chunk) where the device class is
// cooperative; other shapes use scan_serial (an invocation per chunk, coalesced across fibers), which
// reads vector blocks wherever the layout allows (blocks.hpp).
#include "core/scan_plan.hpp"

#include "core/blocks.hpp"
#include "core/kernel_params.hpp"
#include "core/window.hpp"

#include <algorithm>
#include <bit>

namespace vkdml::detail {

namespace {

/// Where the data of one scan level lives: the caller's tensors, or a scratch region (partials).
struct Endpoints {
    PassBinding src, dst;
};

/// The kernel chosen for one scan level, and how it sees the problem.
struct Shape {
    bool tile = false;
    bool chained = false;  ///< scan_chained: rounds vectors per invocation and tile, state_words of states
    uint32_t rounds = 0;
    uint64_t state_words = 0;
    Blocks blocks;
    StorageVariant v;
    uint32_t workgroup = 0;
    uint64_t chunk_len = 0, chunks = 0;
    const Problem& layout() const { return blocks.layout; }
    const Dim& axis() const { return blocks.layout.line[0]; }
    uint32_t block() const { return std::max(blocks.k, 1u); }  ///< kernel indices per position
};

/// Which elements of the data (src, dst) and of the partials each item (fiber, chunk) touches. `l` is
/// the layout the kernel indexes (blocks of `block` vectors, or elements: block 1); `lanes` partials per
/// item.
std::array<Access, kBindingCount> scan_accesses(const ScanRequest& r, const Problem& l, uint64_t chunks,
                                                uint32_t block, uint32_t lanes) {
    std::array<Access, kBindingCount> a;
    const Dim& axis = l.line[0];
    for (int side = 0; side < 2; ++side) {
        int64_t step = side == 0 ? axis.stride_in : axis.stride_out;
        for (const Dim& d : l.kept) a[side].group.push_back({d.size, side == 0 ? d.stride_in : d.stride_out});
        a[side].line.push_back({axis.size, r.reverse ? -step : step});
        a[side].origin = r.reverse ? int64_t(axis.size - 1) * step : 0;
        a[side].extent = block;
    }
    uint64_t weight = chunks * lanes;  // partials[(fiber * chunks + chunk) * lanes + lane]
    a[2].group.resize(l.kept.size());
    for (size_t i = l.kept.size(); i-- > 0;) {
        a[2].group[i] = {l.kept[i].size, int64_t(weight)};
        weight *= l.kept[i].size;
    }
    a[2].line.push_back({static_cast<uint32_t>(chunks), int64_t(lanes)});
    a[2].per_chunk = true;
    a[2].extent = lanes;
    return a;
}

struct Planner {
    const PlanTarget& target;
    const ScanPolicy policy;
    Plan& plan;

    /// The kernel, blocks and chunks of one scan level.
    Shape choose(const ScanRequest& r) const {
        Shape s;
        s.v = r.pairs ? pair_variant(r.type) : storage_variant(r.type);
        // scan_tile needs subgroup arithmetic (integers) or shuffles (floats, compensated); pairs
        // (partials) run serially.
        const DeviceInfo& info = target.info;
        const bool subgroup_ops = is_float_type(r.type) ? info.subgroup_shuffle : info.subgroup_arithmetic;
        s.tile = !r.pairs && policy.inner_lines == KernelFamily::cooperative && subgroup_ops &&
                 r.problem.line[0].size >= policy.tile_min_length && r.problem.axis_innermost();
        s.blocks.layout = r.problem;
        // float16 blocks of one vector: the conversion back from float32, unrolled over larger blocks,
        // runs slower (measured on lavapipe).
        if (!s.tile && !r.pairs) {
            const bool f16 = r.type == DML_TENSOR_DATA_TYPE_FLOAT16;
            const BlockRules rules{f16 ? 1u : 4u, f16 ? 1u : policy.row_block_vectors, true, true};
            s.blocks = block_layout(r.problem, vector_width(s.v), rules);
        }
        s.workgroup = s.tile ? std::min(policy.tile_workgroup, cooperative_workgroup_limit(info))
                             : policy.serial_workgroup;
        s.chunk_len = chunk_length(s.tile ? policy.tile : policy.serial, s.axis().size, s.layout().lines());
        // No chunk may span more than a window of either tensor.
        const auto data = scan_accesses(r, s.layout(), 1, s.block(), s.blocks.lanes());
        for (int side = 0; side < 2; ++side)
            s.chunk_len = std::min(s.chunk_len, max_chunk_in_window(data[side].line, element_bytes(s),
                                                                    s.block(), window_bytes(info)));
        s.chunks = ceil_div(s.axis().size, s.chunk_len);
        return s;
    }

    static uint32_t element_bytes(const Shape& s) {
        return s.v.element_bytes * (s.blocks.k == 0 ? 1 : vector_width(s.v));  // per kernel index
    }

    /// One pass of a scan level: MODE (scan or reduce to partials), with or without carries. A scan
    /// whose source is its destination (`in_place`) reads and writes through binding 1 only.
    Status add_pass(const ScanRequest& r, const Shape& s, uint32_t mode, bool has_carry, bool in_place,
                    std::array<PassBinding, kBindingCount> bindings) {
        PassSpec p;
        if (in_place) bindings[0] = unused_binding(bindings[0]);
        const ScanParams params{.workgroup = s.workgroup,
                                .op = r.op,
                                .reverse = r.reverse,
                                .exclusive = r.exclusive,
                                .mode = mode,
                                .has_carry = has_carry,
                                .in_place = in_place,
                                .vec_k = s.chained ? s.rounds : s.blocks.k,
                                .vec_f = s.blocks.f,
                                .vec_axis_inner = s.blocks.axis_inner,
                                .spin_limit = s.chained ? policy.chained_spin_limit : 0,
                                .layout = s.layout()};
        const Kernel kernel = s.chained ? Kernel::scan_chained
                              : s.tile  ? Kernel::scan_tile
                                        : Kernel::scan_serial;
        p.key = {kernel, s.v.storage, params.to_spec()};
        p.cooperative = s.tile;
        p.line_major = s.layout().line_innermost();  // fibers far apart: chunks of one side by side
        p.lockstep_min_len = policy.lockstep_min_len;
        p.lines = s.layout().lines();
        p.chunks = s.chunks;
        p.chunk_len = s.chunk_len;
        p.line_length = s.axis().size;
        p.bindings = bindings;
        p.access = scan_accesses(r, s.layout(), s.chunks, s.block(), s.blocks.lanes());
        if (s.state_words > 0) p.access[2] = {.extent = static_cast<uint32_t>(s.state_words)};  // all states
        p.push = params.to_push();
        p.chunk_len_word = SCAN_W_CHUNK_LEN;
        p.item_begin_word = SCAN_W_ITEM_BEGIN;
        p.item_end_word = SCAN_W_ITEM_END;
        return append_pass(target.info, std::move(p), plan);
    }

    /// The exclusive scan of the chunk partials of every (fiber, lane), `lanes` apart along the chunks.
    static ScanRequest carry_request(const ScanRequest& r, const Shape& s) {
        const uint64_t fibers = s.layout().lines();
        const uint32_t lanes = s.blocks.lanes();
        ScanRequest carry;
        carry.op = r.op;
        carry.type = accumulator_type(r.type);
        carry.exclusive = true;
        carry.pairs = is_float_type(r.type);
        carry.problem.line = {{static_cast<uint32_t>(s.chunks), lanes, lanes}};
        const auto fiber_stride = static_cast<uint32_t>(s.chunks * lanes);
        if (fibers > 1)
            carry.problem.kept.push_back({static_cast<uint32_t>(fibers), fiber_stride, fiber_stride});
        if (lanes > 1) carry.problem.kept.push_back({lanes, 1, 1});
        return carry;
    }

    /// Whether scan_chained can run the inner-axis lines `s` gives scan_tile: the policy asks for it and
    /// the subgroups fit its shared arrays and its workgroup.
    bool chained_fits(const Shape& s) const {
        const uint32_t sg = target.info.subgroup_size, wg = chained_workgroup();
        return s.tile && policy.chained && sg >= SCAN_CHAINED_MIN_SUBGROUP && sg <= 128 && wg >= sg &&
               wg % sg == 0;
    }
    uint32_t chained_workgroup() const {
        return std::min(policy.chained_workgroup, cooperative_workgroup_limit(target.info));
    }

    /// Plans the chained scan: a pass that zeroes the tile states, then the single scan pass. Returns
    /// false, the plan as it was, when a pass would need more than one dispatch or fits no window (the
    /// look-back and the fallback read other tiles of the fiber, so every tile must sit in one window):
    /// reduce-then-scan instead.
    bool chained(const ScanRequest& r, const Shape& tile, PassBinding src, PassBinding dst) {
        const size_t passes = plan.passes.size();
        const uint64_t scratch = plan.temporary_bytes;
        Shape s = tile;
        // Tiles of about chained_tile_bytes; a line shorter than that is one tile of a workgroup just
        // large enough (whole subgroups) and as few rounds as cover it.
        const uint32_t width = vector_width(s.v);
        const uint64_t vectors = ceil_div(s.axis().size, width);
        s.workgroup = chained_workgroup();
        if (vectors < s.workgroup)
            s.workgroup = std::max(target.info.subgroup_size, static_cast<uint32_t>(std::bit_ceil(vectors)));
        const uint32_t rounds = static_cast<uint32_t>(std::min<uint64_t>(
            std::clamp<uint32_t>(policy.chained_tile_bytes / (s.workgroup * width * s.v.element_bytes), 1,
                                 16),
            ceil_div(vectors, s.workgroup)));
        s.chunk_len = uint64_t(s.workgroup) * rounds * width;
        s.chunks = ceil_div(s.axis().size, s.chunk_len);
        s.chained = true;
        s.rounds = rounds;
        // Its workgroup memory (scan_chained.comp): the (round, subgroup) segments twice (the tile's own
        // and a fallback's, padded by 128), the look-back window's flags, values and list, the block
        // totals. Devices with less than that (Vulkan promises 16 KiB) run reduce-then-scan.
        const uint64_t value = s.v.partial_bytes, block_tiles = SCAN_CHAINED_BLOCK_TILES;
        const uint64_t window = SCAN_CHAINED_WINDOW_TILES(s.workgroup);
        const uint64_t segments = uint64_t(rounds) * (s.workgroup / SCAN_CHAINED_MIN_SUBGROUP) + 128;
        const uint64_t shared_bytes =
            2 * segments * value + window * (value + 8) + window / block_tiles * 16 + 64;
        if (shared_bytes > target.info.max_shared_memory_bytes) return false;
        // Too many tiles: reduce-then-scan's longer chunks may still fit.
        if (!check_item_count("scan", s.layout().lines(), 1, s.chunks)) return false;
        if (s.chunks == 1) {  // one tile per line: one pass, no tile states, windows as any pass
            const bool done =
                bool(add_pass(r, s, SCAN_MODE_SCAN, false, false, {src, dst, unused_binding(dst)}));
            if (!done) plan.passes.resize(passes);
            return done;
        }
        const uint64_t items = s.layout().lines() * s.chunks;
        const uint64_t words = SCAN_CHAINED_STATE_WORDS(items, uint64_t(s.v.partial_bytes / 4));
        const uint64_t clear_words = SCAN_CHAINED_FLAG_WORD(items);
        if (words > 0xFFFFFFFFull) return false;
        PassBinding states{Slot::temporary, 0, allocate_scratch(target.info, plan, words * 4),
                           words * 4,       4, SCAN_W_BASE_PART};
        // Pass 1: zero the counter and the flags (words [0, clear_words)).
        PassSpec clear;
        ScanParams cp{.workgroup = s.workgroup,
                      .op = r.op,
                      .mode = SCAN_MODE_CLEAR,
                      .spin_limit = policy.chained_spin_limit};
        cp.layout.line = {{static_cast<uint32_t>(clear_words), 1, 1}};
        clear.key = {Kernel::scan_chained, s.v.storage, cp.to_spec()};
        clear.cooperative = true;
        clear.chunks = ceil_div(clear_words, s.workgroup);
        clear.chunk_len = s.workgroup;
        clear.line_length = clear_words;
        clear.bindings = {unused_binding(src), unused_binding(dst), states};
        clear.access[2].line = {{static_cast<uint32_t>(clear_words), 1}};
        clear.push = cp.to_push();
        clear.chunk_len_word = SCAN_W_CHUNK_LEN;
        clear.item_begin_word = SCAN_W_ITEM_BEGIN;
        clear.item_end_word = SCAN_W_ITEM_END;
        // Pass 2: the scan, every tile state in view. (A pass that fits no window at all fails to append:
        // the same answer, reduce-then-scan.)
        s.state_words = words;
        const bool done = append_pass(target.info, std::move(clear), plan) &&
                          add_pass(r, s, SCAN_MODE_SCAN, false, false, {src, dst, states}) &&
                          plan.passes[passes].segments.size() == 1 && plan.passes.back().segments.size() == 1;
        if (!done) {
            plan.passes.resize(passes);
            plan.temporary_bytes = scratch;
        }
        return done;
    }

    Status scan(const ScanRequest& r, Endpoints ends) {
        const Shape s = choose(r);
        const uint64_t fibers = s.layout().lines();
        const uint32_t lanes = s.blocks.lanes();
        PassBinding src = ends.src, dst = ends.dst;
        src.element_bytes = dst.element_bytes = element_bytes(s);
        src.base_word = SCAN_W_BASE_IN;
        dst.base_word = SCAN_W_BASE_OUT;
        // A carry level scans its partials in place (a caller's tensors are in place only when bound so:
        // record.cpp switches those passes to their in-place pipelines then).
        const bool in_place =
            src.slot == Slot::temporary && dst.slot == Slot::temporary && src.offset == dst.offset;
        if (chained_fits(s) && !in_place && chained(r, s, src, dst)) return {};
        // Several chunks: reduce each to its partial, scan the partials, scan each chunk from its carry.
        return one_pass_or_partials(
            target.info, plan, "scan", fibers, lanes, s.chunks, s.v.partial_bytes, s.v.partial_bytes,
            SCAN_W_BASE_PART,
            [&] {
                return add_pass(r, s, SCAN_MODE_SCAN, false, in_place, {src, dst, unused_binding(dst)});
            },
            [&](const PassBinding& partials) -> Status {
                if (auto st =
                        add_pass(r, s, SCAN_MODE_REDUCE, false, false, {src, unused_binding(dst), partials});
                    !st)
                    return st;
                PassBinding region = partials;
                region.base_word = -1;
                if (auto st = scan(carry_request(r, s), {region, region}); !st) return st;
                return add_pass(r, s, SCAN_MODE_SCAN, true, in_place, {src, dst, partials});
            });
    }
};

}  // namespace

Status plan_scan(const PlanTarget& target, const ScanRequest& request, Plan& plan) {
    Planner p{target, select_policy(target).scan, plan};
    return p.scan(request, {PassBinding{Slot::input, 0}, PassBinding{Slot::output, 0}});
}

}  // namespace vkdml::detail
