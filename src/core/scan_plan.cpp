// Scan planning (see scan_plan.hpp): one cooperative scan algorithm with modes (scan_chained, like
// CUB's AgentScan) and the serial scan, by chunks.
//
// Every fiber is cut into chunks (policy.hpp). One chunk per fiber: a single pass scans it. Several:
//   1. reduce: each chunk to a partial (a compensated pair for floats), in scratch;
//   2. scan the partials of each fiber exclusively: the same planner, recursively, on the scratch;
//   3. scan each chunk starting from its partial, the carry.
// Inner-axis fibers of some length use scan_chained (a workgroup per chunk of whole tiles) where the
// device class is cooperative, and where the policy asks for it fibers of several tiles run in one
// chained pass instead (a chunk per tile, decoupled look-back); other shapes use scan_serial (an
// invocation per chunk, coalesced across fibers), which reads vector blocks wherever the layout allows
// (blocks.hpp).
#include "core/scan_plan.hpp"

#include "core/blocks.hpp"
#include "core/canonical.hpp"
#include "core/errors.hpp"
#include "core/kernel_params.hpp"
#include "core/window.hpp"
#include "vkdml/checked_math.hpp"

#include <algorithm>
#include <bit>
#include <optional>

namespace vkdml::detail {

namespace {

/// Where the data of one scan level lives: the caller's tensors, or a scratch region (partials).
struct Endpoints {
    PassBinding src, dst;
};

/// The kernel chosen for one scan level, and how it sees the problem.
struct Shape {
    bool tiled = false;           ///< scan_chained or scan_canonical_tile (else scan_serial)
    bool canonical_tile = false;  ///< scan_canonical_tile: float sums, products and log-sum-exps
    uint32_t rounds = 0;          ///< scan_chained: vectors per invocation and tile
    uint64_t state_words = 0;     ///< the chained pass: words of tile states
    Blocks blocks;
    StorageVariant v;
    uint32_t workgroup = 0;
    uint64_t chunk_len = 0, chunks = 0;
    const Problem& layout() const { return blocks.layout; }
    const Dim& axis() const { return blocks.layout.line[0]; }
    uint32_t block() const { return std::max(blocks.k, 1u); }  ///< kernel indices per position
    uint64_t tile_len() const {
        return canonical_tile ? uint64_t(workgroup) * kCanonicalArity
                              : uint64_t(workgroup) * rounds * vector_width(v);
    }
    /// Steps along the line per position (scan_serial's STEPS).
    uint64_t steps() const { return blocks.k == 0 ? 1 : uint64_t(blocks.k) * vector_width(v) / blocks.f; }
    bool canonical = false;  ///< scan_serial of floats: the canonical walk
};

/// Bytes of scan_chained's workgroup memory for `workgroup` invocations of `rounds` vectors, values of
/// `value` bytes (scan_chained.comp: an accumulator, its combines being exact): the (round, subgroup)
/// segments twice (the tile's own and a fallback's, padded by 128), the look-back window's flags, values
/// and list, the block totals.
uint64_t tile_shared_bytes(uint32_t workgroup, uint32_t rounds, uint64_t value) {
    const uint64_t window = SCAN_CHAINED_WINDOW_TILES(workgroup);
    const uint64_t segments = uint64_t(rounds) * (workgroup / SCAN_CHAINED_MIN_SUBGROUP) + 128;
    return 2 * segments * value + window * (value + 8) + window / SCAN_CHAINED_BLOCK_TILES * 16 + 64;
}

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

    /// scan_chained's tile for the inner-axis lines of `s`: the policy's workgroup (a line shorter than
    /// one tile gets a workgroup just large enough, whole subgroups) and about tile_bytes per tile, fewer
    /// rounds where the device's shared memory asks for it. False where the subgroups do not suit it.
    bool choose_tile(Shape& s) const {
        const DeviceInfo& info = target.info;
        const uint32_t sg = info.subgroup_size, width = vector_width(s.v);
        const uint64_t vectors = ceil_div(s.axis().size, width);
        uint32_t wg = std::min(policy.tile_workgroup, cooperative_workgroup_limit(info));
        if (vectors < wg) wg = std::max(sg, static_cast<uint32_t>(std::bit_ceil(vectors)));
        if (sg < SCAN_CHAINED_MIN_SUBGROUP || sg > 128 || wg < sg || wg % sg != 0) return false;
        uint32_t rounds = static_cast<uint32_t>(std::min<uint64_t>(
            std::clamp<uint32_t>(policy.tile_bytes / (wg * width * s.v.element_bytes), 1, 16),
            ceil_div(vectors, wg)));
        while (tile_shared_bytes(wg, rounds, s.v.accumulator_bytes) > info.max_shared_memory_bytes)
            if (--rounds == 0) return false;
        s.workgroup = wg;
        s.rounds = rounds;
        return true;
    }

    /// scan_canonical_tile's workgroup for the inner-axis lines of `s`: the policy's (a short line: just
    /// enough blocks of 32, at least a node of 32 blocks), a power of two, smaller where the device's
    /// shared memory asks for it (a pair per block and per node). False where a node does not fit.
    bool choose_canonical_tile(Shape& s) const {
        const DeviceInfo& info = target.info;
        const uint64_t blocks = ceil_div(s.axis().size, kCanonicalArity);
        const uint32_t limit = cooperative_workgroup_limit(info);
        if (limit < kCanonicalArity) return false;
        uint32_t wg = std::bit_floor(std::min(policy.tile_workgroup, limit));
        if (blocks < wg)
            wg = static_cast<uint32_t>(std::max<uint64_t>(kCanonicalArity, std::bit_ceil(blocks)));
        // (A pair per block and per node; staged, a tile's values too, 33 words a block; chained, a prefix
        // per node, 64 pairs gathered and spare, and a few words. One workgroup for both kernels: a line
        // the single pass does not take runs on the other.)
        const uint64_t stage = policy.canonical_stage ? (kCanonicalArity + 1) * (s.v.partial_bytes / 2) : 0;
        auto shared = [&](uint64_t w) {
            const uint64_t chained =
                policy.canonical_chained
                    ? (w / kCanonicalArity + 2 * kCanonicalArity) * s.v.partial_bytes + 256
                    : 0;
            return (w + w / kCanonicalArity) * s.v.partial_bytes + std::max(w * stage, chained);
        };
        while (wg > kCanonicalArity && shared(wg) > info.max_shared_memory_bytes) wg /= 2;
        if (wg < kCanonicalArity || shared(wg) > info.max_shared_memory_bytes) return false;
        s.workgroup = wg;
        s.canonical_tile = true;
        return true;
    }

    /// scan_canonical_tile's chunks: the whole line where the policy keeps it one chunk, else 32^n
    /// elements (n >= 3: whole tiles of whole nodes, so that the carry level continues the tree); at most
    /// 128 tiles (lavapipe ends a loop after 65,535 trips), 2^20 elements (canonical_walk.glsl's levels) and
    /// a window. False where no chunk fits: the line runs serially.
    bool canonical_tile_chunks(Shape& s, uint64_t window_len) const {
        const uint64_t tile = s.tile_len(), len = s.axis().size;
        const uint64_t most = std::min({window_len, 128 * tile, kCanonicalMaxLeaves});
        if (s.chunk_len >= len && len <= most) return true;
        uint64_t least = kCanonicalArity * kCanonicalArity * kCanonicalArity;
        while (least < tile) least *= kCanonicalArity;
        if (least > most) return false;
        s.chunk_len = std::max(least, canonical_chunk(s.chunk_len, 1, most, kCanonicalMaxLeaves, len,
                                                      ChunkRounding::half_the_chunks));
        return true;
    }

    /// The kernel, blocks (where `blocks` allows) and chunks of one scan level; `tiles`: the cooperative
    /// kernels where the policy asks for them.
    Shape choose(const ScanRequest& r, bool blocks = true, bool tiles = true) const {
        Shape s;
        s.v = r.pairs ? pair_variant(r.type) : storage_variant(r.type);
        // scan_chained needs subgroup arithmetic (integers) or shuffles (the float maximum and minimum,
        // NaN-aware); pairs (partials) run serially.
        const DeviceInfo& info = target.info;
        const bool subgroup_ops = is_float_type(r.type) ? info.subgroup_shuffle : info.subgroup_arithmetic;
        s.blocks.layout = r.problem;
        // Float sums, products and log-sum-exps tile in the canonical association (no subgroup operation).
        const bool canonical_tile = is_float_type(r.type) && r.op != SCAN_OP_MAX && r.op != SCAN_OP_MIN;
        s.tiled = tiles && !r.pairs && !r.mark && policy.inner_lines == KernelFamily::cooperative &&
                  (subgroup_ops || canonical_tile) && r.problem.line[0].size >= policy.tile_min_length &&
                  r.problem.axis_innermost() && (canonical_tile ? choose_canonical_tile(s) : choose_tile(s));
        if (s.tiled) {
            const uint64_t tile = s.tile_len();
            s.chunk_len = chunk_length({.target_items = policy.tile_target_items,
                                        .min_len = tile,
                                        .max_len = policy.tile_max_tiles * tile,
                                        .quantum = tile},
                                       s.axis().size, s.layout().lines());
        } else {
            // float16 blocks of one vector: the conversion back from float32, unrolled over larger
            // blocks, runs slower (measured on lavapipe).
            if (!r.pairs && !r.mark && blocks) {
                const bool f16 = r.type == DML_TENSOR_DATA_TYPE_FLOAT16;
                const BlockRules rules{f16 ? 1u : 4u, f16 ? 1u : policy.row_block_vectors, true, true};
                s.blocks = block_layout(r.problem, vector_width(s.v), rules);
            }
            s.workgroup = policy.serial_workgroup;
            s.chunk_len = chunk_length(policy.serial, s.axis().size, s.layout().lines());
        }
        // No chunk may span more than a window of either tensor.
        const auto data = scan_accesses(r, s.layout(), 1, s.block(), s.blocks.lanes());
        uint64_t window_len = UINT64_MAX;
        for (int side = 0; side < 2; ++side)
            window_len = std::min(window_len, max_chunk_in_window(data[side].line, element_bytes(s),
                                                                  s.block(), window_bytes(info)));
        if (s.canonical_tile) {
            if (!canonical_tile_chunks(s, window_len)) return choose(r, blocks, false);
            s.chunks = ceil_div(s.axis().size, s.chunk_len);
            return s;
        }
        s.chunk_len = std::min(s.chunk_len, window_len);
        s.canonical = !s.tiled && !r.mark && is_float_type(r.type);
        if (s.canonical && s.chunk_len < s.axis().size) {
            // Several chunks of a float line: chunks of 32^n steps (canonical_walk.glsl), which blocks of a
            // power of two steps, up to 32, divide; other blocks go.
            const uint64_t steps = s.steps();
            if (!std::has_single_bit(steps) || steps > kCanonicalArity) return choose(r, false, tiles);
            s.chunk_len = canonical_chunk(s.chunk_len, steps, std::min(window_len, kMaxSerialTrips),
                                          kCanonicalMaxLeaves, s.axis().size, ChunkRounding::half_the_chunks);
        }
        s.chunks = ceil_div(s.axis().size, s.chunk_len);
        return s;
    }

    /// The node level of a chunk of `s` (or of its whole line).
    static uint32_t walk_top(const Shape& s) {
        const uint64_t leaves = std::min(s.chunk_len, uint64_t(s.axis().size)) * s.steps();
        // scan_canonical_tile walks the level-2 nodes' totals (32^2 elements each).
        return canonical_top(s.canonical_tile ? ceil_div(leaves, kCanonicalArity * kCanonicalArity) : leaves);
    }

    static uint32_t element_bytes(const Shape& s) {
        return s.v.element_bytes * (s.blocks.k == 0 ? 1 : vector_width(s.v));  // per kernel index
    }

    /// The kernel, storage variant and parameters of one pass of `s`'s kernel.
    void set_kernel(PassSpec& p, const Shape& s, const ScanParams& scan) const {
        p.storage = s.v.storage;
        if (s.canonical_tile && (scan.mode == SCAN_MODE_CHAINED || scan.mode == SCAN_MODE_CLEAR)) {
            p.kernel = Kernel::scan_canonical_chained;
            p.params =
                TileScanParams{.scan = scan,
                               .rounds = 1,
                               .spin_limit = scan.mode == SCAN_MODE_CHAINED ? policy.chained_spin_limit : 0};
        } else if (s.canonical_tile) {
            p.kernel =
                policy.canonical_stage ? Kernel::scan_canonical_tile_staged : Kernel::scan_canonical_tile;
            p.params = CanonicalTileParams{.scan = scan, .walk_top = walk_top(s)};
        } else if (s.tiled) {
            const TileScanParams t{
                .scan = scan,
                .rounds = scan.mode == SCAN_MODE_CLEAR ? 1u : s.rounds,
                .spin_limit = scan.mode == SCAN_MODE_CHAINED ? policy.chained_spin_limit : 0};
            p.kernel = Kernel::scan_chained;
            p.params = t;
        } else {
            const SerialScanParams t{.scan = scan,
                                     .vec_k = s.blocks.k,
                                     .vec_f = s.blocks.f,
                                     .vec_axis_inner = s.blocks.axis_inner,
                                     .walk_top = s.canonical ? walk_top(s) : 0};
            p.kernel = Kernel::scan_serial;
            p.params = t;
        }
    }

    /// One pass of a scan level in `mode` (scan, reduce to partials or chained), with or without
    /// carries. A scan whose source is its destination (`in_place`) reads and writes through binding 1
    /// only.
    Status add_pass(const ScanRequest& r, const Shape& s, uint32_t mode, bool has_carry, bool in_place,
                    std::array<PassBinding, kBindingCount> bindings) {
        PassSpec p;
        if (in_place) bindings[0] = unused_binding(bindings[0]);
        set_kernel(p, s,
                   {.workgroup = s.workgroup,
                    .op = r.op,
                    .is_signed = r.is_signed,
                    .reverse = r.reverse,
                    .exclusive = r.exclusive,
                    .mode = mode,
                    .has_carry = has_carry,
                    .in_place = in_place,
                    .nan_ignore = r.nan_ignore && is_float_type(r.type),
                    .layout = s.layout()});
        p.cooperative = s.tiled;
        p.line_major = s.layout().line_innermost();  // fibers far apart: chunks of one side by side
        p.lockstep_min_len = r.mark ? 0 : policy.lockstep_min_len;
        p.lines = s.layout().lines();
        p.chunks = s.chunks;
        p.chunk_len = s.chunk_len;
        p.line_length = s.axis().size;
        p.bindings = bindings;
        p.access = scan_accesses(r, s.layout(), s.chunks, s.block(), s.blocks.lanes());
        if (r.mark) {
            p.access[2] = p.access[1];  // the running values, laid out as the index output
            p.access[0].lead = r.exclusive ? 1 : 0;
        }
        if (s.state_words > 0) p.access[2] = {.extent = static_cast<uint32_t>(s.state_words)};  // all states
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
        carry.is_signed = r.is_signed;  // (narrow signed values reach the partials sign-extended)
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

    /// `tiled` in chunks of one tile, as the single passes take it; nothing where its items are too many
    /// for one dispatch's indexing (check_item_count).
    std::optional<Shape> tile_chunks(const Shape& tiled) {
        Shape s = tiled;
        s.chunk_len = s.tile_len();
        s.chunks = ceil_div(s.axis().size, s.chunk_len);
        if (!check_item_count("scan", s.layout().lines(), 1, s.chunks)) return std::nullopt;
        return s;
    }

    /// Plans the chained pass for lines of several tiles: a pass that zeroes the tile states, then the
    /// single scan pass over chunks of one tile. Returns false, the plan as it was, when there are too
    /// many tiles or a pass would need more than one dispatch (the look-back and the fallback read other
    /// tiles of the fiber, so every tile must sit in one window): reduce-then-scan instead.
    bool chained(const ScanRequest& r, const Shape& tiled, PassBinding src, PassBinding dst) {
        const std::optional<Shape> one_tile = tile_chunks(tiled);
        if (!one_tile) return false;
        const Shape& s = *one_tile;
        const uint64_t items = s.layout().lines() * s.chunks;
        const uint64_t words = SCAN_CHAINED_STATE_WORDS(items, uint64_t(s.v.accumulator_bytes / 4));
        return single_pass(r, s, words, SCAN_CHAINED_FLAG_WORD(items), src, dst);
    }

    /// The states' entries of one line of `len` elements for scan_canonical_chained (kernel_abi.h): a node
    /// per entry, ranks 0 to SCAN_CANONICAL_MAX_RANKS - 1 while a rank has more than one; 0 where the line
    /// needs more ranks.
    static uint64_t canonical_entries(uint64_t len) {
        uint64_t n = ceil_div(len, SCAN_CANONICAL_RANK0), entries = 0;
        for (uint32_t r = 0; r < SCAN_CANONICAL_MAX_RANKS; ++r) {
            if (n > 1) entries += n;
            n = ceil_div(n, kCanonicalArity);
        }
        return n == 1 ? entries : 0;
    }

    /// Plans scan_canonical_chained for lines of several canonical tiles: a pass that zeroes the states'
    /// counters and flags, then the single pass over chunks of one tile. False, the plan as it was, where
    /// a line needs more ranks than the kernel keeps or a pass would need more than one dispatch:
    /// reduce-then-scan instead.
    bool canonical_chained(const ScanRequest& r, const Shape& tiled, PassBinding src, PassBinding dst) {
        const std::optional<Shape> one_tile = tile_chunks(tiled);
        if (!one_tile) return false;
        const Shape& s = *one_tile;
        const uint64_t per_line = canonical_entries(s.axis().size);
        if (per_line == 0) return false;
        // With every total a fallback (tests), a tile of a line past 2^24 elements could walk more than
        // lavapipe's 65,535 loop trips (docs/internals.md).
        if (policy.chained_spin_limit == 0 && s.axis().size > (uint64_t(1) << 24)) return false;
        const uint64_t entries = s.layout().lines() * per_line;
        const uint64_t words = SCAN_CANONICAL_STATE_WORDS(entries, uint64_t(s.v.partial_bytes / 4));
        return single_pass(r, s, words, SCAN_CANONICAL_FLAG_WORD(entries), src, dst);
    }

    /// The passes of a single-pass scan of `s` (chunks of one tile): a pass zeroing words [0, clear_words)
    /// of `words` words of states, then the scan, every state in view. False, the plan as it was, where a
    /// pass would need more than one dispatch (the look-back reads other tiles of the fiber, so every tile
    /// must sit in one window) or fits no window at all.
    bool single_pass(const ScanRequest& r, Shape s, uint64_t words, uint64_t clear_words, PassBinding src,
                     PassBinding dst) {
        if (words > 0xFFFFFFFFull) return false;
        const size_t passes = plan.passes.size();
        const uint64_t scratch = plan.temporary_bytes;
        PassBinding states{Slot::temporary, 0, allocate_scratch(target.info, plan, words * 4),
                           words * 4,       4, SCAN_W_BASE_PART};
        PassSpec clear;
        ScanParams cp{.workgroup = s.workgroup, .op = r.op, .mode = SCAN_MODE_CLEAR};
        cp.layout.line = {{static_cast<uint32_t>(clear_words), 1, 1}};
        set_kernel(clear, s, cp);
        clear.cooperative = true;
        clear.chunks = ceil_div(clear_words, s.workgroup);
        clear.chunk_len = s.workgroup;
        clear.line_length = clear_words;
        clear.bindings = {unused_binding(src), unused_binding(dst), states};
        clear.access[2].line = {{static_cast<uint32_t>(clear_words), 1}};
        clear.chunk_len_word = SCAN_W_CHUNK_LEN;
        clear.item_begin_word = SCAN_W_ITEM_BEGIN;
        clear.item_end_word = SCAN_W_ITEM_END;
        s.state_words = words;
        const bool done = append_pass(target.info, std::move(clear), plan) &&
                          add_pass(r, s, SCAN_MODE_CHAINED, false, false, {src, dst, states}) &&
                          plan.passes[passes].segments.size() == 1 && plan.passes.back().segments.size() == 1;
        if (!done) {
            plan.passes.resize(passes);
            plan.temporary_bytes = scratch;
        }
        return done;
    }

    /// plan_selection_index's passes.
    Status index_output(const IndexRequest& q) {
        const ScanRequest& r = q.values;
        const uint32_t value_bytes = element_size(r.type), index_bytes = element_size(q.index_type);
        // 1. The running values, in scratch at the index output's element offsets.
        uint64_t bytes = 0;
        if (mul_overflows(q.index_elements, value_bytes, &bytes) || bytes > UINT64_MAX - 3)
            return make_error(ErrorCode::out_of_memory,
                              "the index output's running values would take more than "
                              "2^64 bytes of temporary buffer");
        bytes = ceil_div(bytes, 4) * 4;
        PassBinding run{Slot::temporary, 0, allocate_scratch(target.info, plan, bytes), bytes};
        if (auto st = scan(r, {PassBinding{Slot::input, 0}, run}); !st) return st;
        // 2. The marks: chunks within a window of the index output too.
        ScanRequest m = r;
        m.mark = true;
        Shape s = choose(m, false);
        const auto data = scan_accesses(m, s.layout(), 1, 1, 1);
        s.chunk_len = std::min(s.chunk_len,
                               max_chunk_in_window(data[1].line, index_bytes, 1, window_bytes(target.info)));
        if (r.exclusive && s.chunk_len > 1 && s.chunk_len < s.axis().size) --s.chunk_len;  // (the lead)
        // The policy's cap (even chunks of 1 number in 32 bits: rule 2 keeps a tensor below 2^32 elements).
        s.chunk_len = std::min(s.chunk_len, policy.mark_max_len);
        // An exclusive mark reads its element's neighbour: the two must share a window of the input.
        const uint64_t neighbours = (uint64_t(s.axis().stride_in) + 1) * value_bytes;
        if (r.exclusive && s.axis().size > 1 && neighbours > window_bytes(target.info))
            return make_error(ErrorCode::unsupported_device,
                              "the index output of an exclusive scan reads each element with its neighbour "
                              "along the axis, ",
                              neighbours, " bytes of the input, more than one window of this device (",
                              window_bytes(target.info), " bytes)");
        s.chunks = ceil_div(s.axis().size, s.chunk_len);
        if (auto st = check_item_count("scan", s.layout().lines(), 1, s.chunks); !st) return st;
        PassBinding src{Slot::input, 0, 0, 0, value_bytes, SCAN_W_BASE_IN};
        PassBinding marks{Slot::output, 1, 0, 0, index_bytes, SCAN_W_BASE_OUT};
        run.element_bytes = value_bytes;
        run.base_word = SCAN_W_BASE_PART;
        if (auto st = add_pass(m, s, index_bytes == 8 ? SCAN_MODE_MARK64 : SCAN_MODE_MARK32, false, false,
                               {src, marks, run});
            !st)
            return st;
        // 3. The marks scanned in place: the last in scan order, -1 (all bits) for none.
        ScanRequest last;
        last.op = r.reverse ? SCAN_OP_MIN : SCAN_OP_MAX;
        last.is_signed = !r.reverse;
        last.type = index_bytes == 8 ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32;
        last.reverse = r.reverse;
        last.problem = q.index_problem;
        return scan(last, {PassBinding{Slot::output, 1}, PassBinding{Slot::output, 1}});
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
        const bool in_place = src.slot == dst.slot && src.index == dst.index &&
                              (src.slot != Slot::temporary || src.offset == dst.offset);
        if (s.tiled && !s.canonical_tile && policy.chained && !in_place && s.axis().size > s.tile_len() &&
            chained(r, s, src, dst))
            return {};
        if (s.canonical_tile && policy.canonical_chained && !in_place && s.axis().size > s.tile_len() &&
            canonical_chained(r, s, src, dst))
            return {};
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

Status plan_selection_index(const PlanTarget& target, const IndexRequest& request, Plan& plan) {
    Planner p{target, select_policy(target).scan, plan};
    return p.index_output(request);
}

Status plan_scan(const PlanTarget& target, const ScanRequest& request, Plan& plan) {
    Planner p{target, select_policy(target).scan, plan};
    return p.scan(request, {PassBinding{Slot::input, 0}, PassBinding{Slot::output, 0}});
}

}  // namespace vkdml::detail
