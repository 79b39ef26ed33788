#version 460
// The cooperative scan: one tile routine in four modes (CUB's AgentScan, one algorithm with modes).
// A tile: each invocation scans ROUNDS vectors of VEC_W neighbouring elements serially (one vector load
// where the fiber is contiguous and aligned); a subgroup scan over the invocations' totals (one per
// vector, not per element); the subgroups' totals in shared memory, scanned by the first subgroup in
// (round, subgroup) order. Every combine it runs is exact: integers, and the float maximum and minimum
// (float sums, products and log-sum-exps tile in the canonical association, scan_canonical_tile.comp),
// so a running Pair's lo is always 0 and shared memory and the tile states hold its hi alone (the
// partials of reduce-then-scan stay pairs: the carry levels read them). No subgroup operation sits inside
// a divergent branch: lanes choose the values they feed it by selects, and the only branches before one
// are the loads' (vector or element), merged before it.
//
// MODE_SCAN and MODE_REDUCE (a workgroup per (fiber, chunk), a chunk of one or more tiles): the tiles
// in order with a running prefix, from the chunk's carry in the partials with HAS_CARRY (CUB's running
// prefix over a range). Lines of one chunk are one pass; longer ones are reduce-then-scan: MODE_REDUCE
// folds each chunk (the tiles' aggregates, left to right) into its partial, the partials are scanned,
// and MODE_SCAN with HAS_CARRY scans each chunk from its carry.
//
// MODE_CHAINED: a single pass over chunks of one tile with decoupled look-back over a window of tiles
// and a fallback (Merrill & Garland's decoupled look-back as in CUB's agent_scan; the fallback of
// Smith, Levien & Owens, "Decoupled Fallback", SPAA 2025, as in GPUPrefixSums; docs/internals.md). Each
// workgroup takes the next tile from a counter, so tiles start in order; scans it in registers;
// publishes its aggregate; finds the combine of every tile before it in its fiber by looking back at
// their states, a window of as many tiles as it has invocations at a time; publishes its inclusive
// prefix if it ends a block; writes its outputs. The elements are read once and written once. MODE_CLEAR
// (a pass before it) zeroes the counters and the flags.
//
// The chained association is fixed by tile indices alone (a two-level left fold): tiles form blocks of
// BLOCK (32); B(m) is the left fold of block m's aggregates, X(g) = B(0) + ... + B(g-1) folded left, and
// tile c of block g is preceded by X(g) + (the left fold of the aggregates of tiles gB .. c-1). Only the
// last tile of a block publishes an inclusive prefix, X(g+1). A look-back reads a whole window of flags
// at once, finds the nearest published X, and folds forward from it: the blocks in parallel, then the
// block totals. Whichever states it saw, the bits are the same, so float results are bit-identical run
// to run; and the chain from one published X to the next covers up to a window of tiles per look-back,
// not one tile per step.
//
// Vulkan promises no forward progress between workgroups, so nothing waits unboundedly: a predecessor
// with no aggregate after SPIN_LIMIT reads is reduced here from its input (the fallback: reduce_tile,
// scan_local's combines in scan_local's order), which gives its owner's bits. Each value slot has one
// writer: the owner's aggregate, a fallback's (claimed by an atomicOr of the claim bit), the inclusive
// prefix (the owner). Every loop is bounded (lavapipe ends loops after 65,535 trips).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"
#include "subgroup_scan.glsl"

layout(constant_id = SCAN_SPEC_ROUNDS) const uint ROUNDS_SPEC = 1u;  // vectors per invocation and tile
const uint ROUNDS = ROUNDS_SPEC + (ROUNDS_SPEC == 0u ? 1u : 0u);     // (at least 1)
const uint MODE_CLEAR = SCAN_MODE_CLEAR, MODE_CHAINED = SCAN_MODE_CHAINED;
const uint OWNER_AGGREGATE = SCAN_CHAINED_OWNER_AGGREGATE, INCLUSIVE = SCAN_CHAINED_INCLUSIVE;
const uint FALLBACK_CLAIMED = SCAN_CHAINED_FALLBACK_CLAIMED, FALLBACK_AGGREGATE = SCAN_CHAINED_FALLBACK_AGGREGATE;
const uint AGGREGATE = OWNER_AGGREGATE | FALLBACK_AGGREGATE;  // either aggregate is published
const uint HERE = 0x80000000u;  // a window entry whose value this workgroup reduced itself
// Flag reads before a silent predecessor is reduced here instead (the policy's; 0 in tests that force
// the fallback on every predecessor).
layout(constant_id = SCAN_SPEC_SPIN_LIMIT) const uint SPIN_LIMIT = 64u;
#include "tile_states.glsl"  // the tile states (kernel_abi.h), buffer_barrier, put_acc, get_acc
const uint SLOT = ACC_WORDS;  // words of a published value

// (round, subgroup) totals, then their exclusive scan; padded so that a subgroup may store a whole
// subgroup's worth past the last segment (no divergent branch before the next subgroup operation).
const uint SEGMENTS = ROUNDS * (gl_WorkGroupSize.x / SCAN_CHAINED_MIN_SUBGROUP) + 128u;
shared ACC_T segment_value[SEGMENTS];
// A predecessor's (round, subgroup) totals, for the fallback (the tile's own stay in segment_value).
shared ACC_T spare_value[SEGMENTS];
shared ACC_T total_value;   // the tile's aggregate
shared ACC_T prefix_value;  // the look-back's result: what precedes the tile
shared uint shared_word;            // the tile number

// The look-back window: WINDOW tiles, BATCH whole blocks, at least one block; entry e is tile
// e % BLOCK of the e / BLOCK-th block below the window's top block.
const uint BLOCK = SCAN_CHAINED_BLOCK_TILES;
const uint WINDOW = SCAN_CHAINED_WINDOW_TILES(gl_WorkGroupSize.x);
const uint BATCH = WINDOW / BLOCK;
shared uint window_flag[WINDOW];  // the flag read (HERE: reduced here), 0 for tiles not wanted
shared ACC_T window_value[WINDOW];
shared ACC_T block_value[BATCH];
shared uint missing[WINDOW];  // entries to reduce here, and their count
shared uint missing_count;

ACC_T xs[ROUNDS * VEC_W];  // this invocation's elements of the tile
Pair lane_before[ROUNDS];  // per round: the combine of the subgroup's earlier lanes

void put_segment(uint i, Pair a) { segment_value[i] = a.hi; }
Pair get_segment(uint i) { return pair_of(segment_value[i]); }
void put_window(uint e, Pair a) { window_value[e] = a.hi; }
Pair get_window(uint e) { return pair_of(window_value[e]); }
void put_spare(uint i, Pair a) { spare_value[i] = a.hi; }
Pair get_spare(uint i) { return pair_of(spare_value[i]); }
// ---- tile states ------------------------------------------------------------------------------
uint items() { return p.item_end; }  // the pass is one dispatch of every item (scan_plan.cpp)
uint state_word(uint w) { return p.base_part + w; }

// Values travel as they are (not normalized): a value read back has the bits its writer combined.
void put_value(uint w, Pair a) { put_acc(w, a.hi); }
Pair get_value(uint w) { return pair_of(get_acc(w)); }
uint owner_word(uint item) { return state_word(SCAN_CHAINED_OWNER_WORD(items(), SLOT, item)); }
uint fallback_word(uint item) { return state_word(SCAN_CHAINED_FALLBACK_WORD(items(), SLOT, item)); }
uint inclusive_word(uint item) { return state_word(SCAN_CHAINED_INCLUSIVE_WORD(items(), SLOT, item)); }
uint flag_word(uint item) { return state_word(SCAN_CHAINED_FLAG_WORD(item)); }

// Publishes a value in its slot and then its flag bit (one invocation; the slot's only writer).
void publish(uint item, uint word, uint bit, Pair value) {
    put_value(word, value);
    memoryBarrierBuffer();
    atomicOr(states[flag_word(item)], bit);
    memoryBarrierBuffer();  // the flag before anything this invocation writes later
}
// A published aggregate, by the flag that says which slot holds it.
Pair aggregate_of(uint item, uint flag) {
    return get_value((flag & OWNER_AGGREGATE) != 0u ? owner_word(item) : fallback_word(item));
}

// ---- one tile ---------------------------------------------------------------------------------

// Position (relative to the tile's start) of element v of this invocation's vector in round r.
uint position(uint r, uint v) {
    return ((r * gl_NumSubgroups + gl_SubgroupID) * gl_SubgroupSize + gl_SubgroupInvocationID) * VEC_W + v;
}

// This invocation's vector of round r of the tile of `len` elements at `start` (the identity past len).
void load_vector(uint r, uvec2 base, uint start, uint len, bool vec, out ACC_T ys[VEC_W]) {
    uint k0 = position(r, 0u);
    if (vec && k0 + VEC_W <= len) {
        WIDE_V w = UNPACK_V(source_vector((base.x + start + k0) / VEC_W));
        for (uint v = 0u; v < VEC_W; ++v) ys[v] = leaf_value(TO_ACC(w[v]));
    } else {
        for (uint v = 0u; v < VEC_W; ++v) {
            uint k = k0 + v;
            ACC_T x = source_element(base.x + axis_pos(start + min(k, len - 1u)) * source_axis_stride());
            ACC_T none = identity();
            ys[v] = k < len ? x : none;  // a select
        }
    }
}
// The serial combine of a vector's elements, from the identity.
Pair combine_vector(ACC_T ys[VEC_W]) {
    Pair own = pair_of(identity());
    for (uint v = 0u; v < VEC_W; ++v) own = combine_value(own, ys[v]);
    return own;
}

// Loads the tile of `len` elements at `start` into xs and scans it: lane_before per round, the
// segments' exclusive scan in shared memory. Returns the tile's aggregate. Whole workgroup; it ends at
// a barrier after which shared memory holds this tile's scan.
Pair scan_local(uvec2 base, uint start, uint len) {
    bool vec = vector_io(base, start);
    Pair totals[ROUNDS];
    for (uint r = 0u; r < ROUNDS; ++r) {  // every lane of the subgroup reaches each subgroup scan
        ACC_T ys[VEC_W];
        load_vector(r, base, start, len, vec, ys);
        for (uint v = 0u; v < VEC_W; ++v) xs[r * VEC_W + v] = ys[v];
        SubgroupScan s = subgroup_scan_pair(combine_vector(ys));
        lane_before[r] = s.exclusive;
        totals[r] = s.total;
    }
    if (gl_SubgroupInvocationID == 0u)
        for (uint r = 0u; r < ROUNDS; ++r) put_segment(r * gl_NumSubgroups + gl_SubgroupID, totals[r]);
    barrier();
    if (gl_SubgroupID == 0u) {  // uniform per subgroup
        uint count = ROUNDS * gl_NumSubgroups;
        Pair run = pair_of(identity());
        for (uint b = 0u; b < count; b += gl_SubgroupSize) {  // uniform trip count
            uint e = b + gl_SubgroupInvocationID;
            Pair mine = select_pair(e < count, get_segment(min(e, count - 1u)), pair_of(identity()));
            SubgroupScan s = subgroup_scan_pair(mine);
            put_segment(e, combine_pair(run, s.exclusive));  // past count: padding (SEGMENTS)
            run = combine_pair(run, s.total);
        }
        if (gl_SubgroupInvocationID == 0u) total_value = run.hi;
    }
    barrier();
    return pair_of(total_value);
}

// The aggregate scan_local returns for the tile of `len` elements at `start`, the same combines in the
// same order (the bits must agree: a fallback's aggregate stands for its owner's), without touching this
// tile's elements, scans or segments: the fallback. Whole workgroup; ends at a barrier.
Pair reduce_tile(uvec2 base, uint start, uint len) {
    bool vec = vector_io(base, start);
    Pair totals[ROUNDS];
    for (uint r = 0u; r < ROUNDS; ++r) {
        ACC_T ys[VEC_W];
        load_vector(r, base, start, len, vec, ys);
        totals[r] = subgroup_scan_pair(combine_vector(ys)).total;
    }
    if (gl_SubgroupInvocationID == 0u)
        for (uint r = 0u; r < ROUNDS; ++r) put_spare(r * gl_NumSubgroups + gl_SubgroupID, totals[r]);
    barrier();
    if (gl_SubgroupID == 0u) {
        uint count = ROUNDS * gl_NumSubgroups;
        Pair run = pair_of(identity());
        for (uint b = 0u; b < count; b += gl_SubgroupSize) {
            uint e = b + gl_SubgroupInvocationID;
            Pair mine = select_pair(e < count, get_spare(min(e, count - 1u)), pair_of(identity()));
            run = combine_pair(run, subgroup_scan_pair(mine).total);
        }
        if (gl_SubgroupInvocationID == 0u) total_value = run.hi;
    }
    barrier();
    return pair_of(total_value);
}

// ---- look-back ----------------------------------------------------------------------------------
// The window whose top block is `top` (blocks numbered from the fiber's start): entry e's tile, and
// whether the look-back of tile `chunk` wants it (a tile before `chunk`, in a block above the one
// whose inclusive prefix is used, `used`, or that block's last tile).
uint entry_tile(uint top, uint e) { return (top - e / BLOCK) * BLOCK + e % BLOCK; }
bool entry_exists(uint top, uint chunk, uint e) { return e / BLOCK <= top && entry_tile(top, e) < chunk; }

// Reads the flags of the window whose top block is `top` (up to `spins` reads each where no aggregate is
// there yet) into window_flag, and clears the list of tiles to reduce here. Whole workgroup.
void read_flags(uint first, uint chunk, uint top, uint spins) {
    uint t = gl_LocalInvocationIndex;
    if (t == 0u) missing_count = 0u;
    for (uint e = t; e < WINDOW; e += gl_WorkGroupSize.x) {
        uint f = 0u;
        if (entry_exists(top, chunk, e)) {
            uint item = first + entry_tile(top, e);
            for (uint s = 0u; s < spins && (f & (AGGREGATE | INCLUSIVE)) == 0u; ++s) f = states[flag_word(item)];
        }
        window_flag[e] = f;
    }
    barrier();  // nothing writes window_flag again before the next window's flags
}

// The walk back: reads the window's flags and returns the block offset of the nearest block whose last
// tile published its inclusive prefix (BATCH: none; every invocation reads the same). With SPIN_LIMIT 0
// (tests forcing the fallback) no flag is read, so no inclusive prefix is ever found and the fiber's
// first window reduces each of its tiles here. Whole workgroup.
uint find_window(uint first, uint chunk, uint top) {
    read_flags(first, chunk, top, SPIN_LIMIT);
    uint used = BATCH;
    for (uint o = 0u; o < BATCH && used == BATCH; ++o)
        if ((window_flag[o * BLOCK + BLOCK - 1u] & INCLUSIVE) != 0u) used = o;
    if (used == BATCH && top >= BATCH) barrier();  // uniform: the next window's flags overwrite these
    return used;
}

// Gathers the wanted values of the window whose top block is `top`: the aggregates of the blocks above
// block offset `used` and, where `used` < BATCH, the inclusive prefix of that block's last tile; reduces
// here the wanted tiles that still have no aggregate. The flags are read first unless `flags_read`
// (find_window read them). Whole workgroup; one barrier on the common path (no fallback).
void gather_window(uvec2 base, uint first, uint chunk, uint top, uint used, bool flags_read) {
    uint t = gl_LocalInvocationIndex;
    if (!flags_read) read_flags(first, chunk, top, max(SPIN_LIMIT, 1u));
    // Each invocation reads the values of the flags it read itself (after a fence); a wanted tile with no
    // aggregate goes to the list of those reduced here.
    memoryBarrierBuffer();
    for (uint e = t; e < WINDOW; e += gl_WorkGroupSize.x) {
        uint o = e / BLOCK;
        if (!entry_exists(top, chunk, e) || o > used) continue;
        uint f = window_flag[e];
        uint item = first + entry_tile(top, e);
        if (o == used) {
            if (e % BLOCK == BLOCK - 1u) put_window(e, get_value(inclusive_word(item)));  // has INCLUSIVE
        } else if ((f & AGGREGATE) != 0u) {
            put_window(e, aggregate_of(item, f));
        } else {
            missing[atomicAdd(missing_count, 1u)] = e;
        }
    }
    barrier();
    uint count = missing_count;
    if (t == 0u && count > 0u) atomicAdd(states[state_word(SCAN_CHAINED_FALLBACKS_WORD)], count);
    for (uint i = 0u; i < count; ++i) {  // uniform; rare but for tests that force it
        uint e = missing[i];
        uint j = entry_tile(top, e);
        uint start = j * p.chunk_len;
        Pair aggregate = reduce_tile(base, start, min(p.chunk_len, p.len - start));
        memoryBarrierBuffer();  // every invocation's loads of tile j before its flag is read again
        buffer_barrier();
        if (t == 0u) {
            // Read the flag again after the loads: no owner's aggregate yet means its owner had not
            // published, so (in place) had not yet written its outputs over its input either, and the
            // loads were of its input. Then claim the fallback slot; whoever loses keeps its own bits.
            uint f = states[flag_word(first + j)];
            if ((f & OWNER_AGGREGATE) == 0u) {
                if ((atomicOr(states[flag_word(first + j)], FALLBACK_CLAIMED) & FALLBACK_CLAIMED) == 0u)
                    publish(first + j, fallback_word(first + j), FALLBACK_AGGREGATE, aggregate);
            } else {
                memoryBarrierBuffer();  // the flag before the value, in the invocation that read the flag
                aggregate = get_value(owner_word(first + j));
            }
            put_window(e, aggregate);
        }
        buffer_barrier();  // shared memory is reused by the next one
    }
}

// Folds the gathered window forward into `run` (invocation 0's): from the inclusive prefix at block
// offset `used` (if any) over the blocks above it, each block the left fold of its aggregates (the
// blocks in parallel), up to but not including the tile's own block g, whose partial left fold (the
// tiles before `chunk`) goes to `own`; in the last window (top == g), the prefix X(g) + own (shared
// prefix_value) and `inclusive` = X(g) + (own + aggregate). Whole workgroup.
void fold_window(uint g, uint chunk, uint top, uint used, inout Pair run, inout Pair own, Pair aggregate,
                 out Pair inclusive) {
    uint t = gl_LocalInvocationIndex;
    if (t < BATCH && t < used && t <= top) {
        uint m = top - t;
        uint n = m == g ? chunk - g * BLOCK : BLOCK;
        Pair b = pair_of(identity());
        for (uint i = 0u; i < n; ++i) b = combine_pair(b, get_window(t * BLOCK + i));
        block_value[t] = b.hi;
    }
    barrier();
    if (t == 0u) {
        if (used < BATCH) run = get_window(used * BLOCK + BLOCK - 1u);
        for (uint o = min(used, min(top + 1u, BATCH)); o > 0u; --o) {  // the deepest block first
            Pair b = pair_of(block_value[o - 1u]);
            if (top - (o - 1u) == g)
                own = b;
            else
                run = combine_pair(run, b);
        }
        if (top == g) {  // the last window: X(g) is complete
            Pair before = combine_pair(run, own);
            inclusive = combine_pair(run, combine_pair(own, aggregate));
            prefix_value = before.hi;
        }
    }
    barrier();
}

// What precedes tile `chunk` (> 0) of its fiber (`first` is the fiber's first item), X(g) + the left fold
// of its block's tiles before it; sets `inclusive` to X(g) + (that fold + `aggregate`), which the last
// tile of a block publishes. Whole workgroup.
Pair look_back(uvec2 base, uint first, uint chunk, Pair aggregate, out Pair inclusive) {
    uint g = chunk / BLOCK;
    // Walk back a window at a time until a block's inclusive prefix is found or the fiber starts.
    uint top = g, used = BATCH;
    for (;;) {  // at most g / BATCH + 1 trips
        used = find_window(first, chunk, top);
        if (used < BATCH || top < BATCH) break;
        top -= BATCH;
    }
    // Fold forward from there, a window at a time; the deepest window's flags are still in shared memory.
    // (One call site of gather_window, whose fallbacks inline reduce_tile: lavapipe runs every tile slower
    // with more.)
    Pair run = pair_of(identity()), own = pair_of(identity());
    uint deepest = top;
    for (;;) {  // as many trips as the walk back
        gather_window(base, first, chunk, top, top == deepest ? used : BATCH, top == deepest);
        fold_window(g, chunk, top, top == deepest ? used : BATCH, run, own, aggregate, inclusive);
        if (top == g) break;
        top += BATCH;
    }
    return pair_of(prefix_value);
}

// ---- outputs -------------------------------------------------------------------------------------
void store_round(uint r, uvec2 base, uint start, uint len, bool vec, Pair before) {
    uint k0 = position(r, 0u);
    Pair run = before;
    Pair out_values[VEC_W];
    for (uint v = 0u; v < VEC_W; ++v) {
        Pair next = combine_value(run, xs[r * VEC_W + v]);
        out_values[v] = EXCLUSIVE ? exclusive_value(run, start + k0 + v) : next;
        run = next;
    }
    if (vec && k0 + VEC_W <= len) {
        WIDE_V w;
        for (uint v = 0u; v < VEC_W; ++v) w[v] = FROM_ACC_WIDE(scan_value(out_values[v]));
        dstv[(base.y + start + k0) / VEC_W] = PACK_V(w);
    } else {
        for (uint v = 0u; v < VEC_W; ++v)
            if (k0 + v < len) store_element(base.y + axis_pos(start + k0 + v) * p.axis_out, out_values[v]);
    }
}

// Zeroes words [0, len) of the states: the pass is one dispatch from item 0 (scan_plan.cpp), so the
// workgroup index is the item.
void clear_states() {
    uint w = workgroup_index() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    if (w < p.len) states[state_word(w)] = 0u;
}

// The tiles of the chunk `id` (MODE_SCAN, MODE_REDUCE) in order, from its carry or the identity: each
// scanned and stored from the running prefix, or folded into it and stored as the chunk's partial.
void scan_range(uint id) {
    uint chunks = chunk_count();
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);
    const uint tile_len = gl_WorkGroupSize.x * ROUNDS * VEC_W;
    uint tiles = (len - 1u) / tile_len + 1u;
    Pair prefix =
        (MODE == MODE_SCAN && HAS_CARRY && chunk > 0u) ? load_partial(p.base_part + id) : pair_of(identity());
    for (uint i = 0u; i < tiles; ++i) {  // uniform
        uint tile_start = start + i * tile_len;
        uint n = min(tile_len, len - i * tile_len);
        if (MODE == MODE_REDUCE) {
            prefix = combine_pair(prefix, reduce_tile(base, tile_start, n));
            continue;
        }
        Pair aggregate = scan_local(base, tile_start, n);
        bool vec = vector_io(base, tile_start);
        for (uint r = 0u; r < ROUNDS; ++r) {
            Pair before = combine_pair(combine_pair(prefix, get_segment(r * gl_NumSubgroups + gl_SubgroupID)),
                                       lane_before[r]);
            store_round(r, base, tile_start, n, vec, before);
        }
        prefix = combine_pair(prefix, aggregate);
        barrier();  // the next tile's scan_local writes the segments again
    }
    if (MODE == MODE_REDUCE && gl_LocalInvocationIndex == 0u) store_partial(p.base_part + id, prefix);
}

void main() {
    if (MODE == MODE_CLEAR) {
        clear_states();
        return;
    }
    if (MODE != MODE_CHAINED) {
        uint item = workgroup_item(p.item_begin, p.item_end);
        if (item != NO_ITEM) scan_range(item);  // uniform
        return;
    }
    if (workgroup_index() >= p.item_end - p.item_begin) return;  // uniform
    uint t = gl_LocalInvocationIndex;
    uint chunks = chunk_count();
    if (t == 0u) shared_word = atomicAdd(states[state_word(0u)], 1u);
    barrier();
    uint id = p.item_begin + shared_word;
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);

    Pair aggregate = scan_local(base, start, len);
    Pair prefix = pair_of(identity());
    // The aggregate first (also in place: no output is written before it is published, which a
    // fallback's second flag read relies on).
    if (t == 0u) publish(id, owner_word(id), OWNER_AGGREGATE, aggregate);
    if (chunk > 0u) {
        Pair inclusive;
        prefix = look_back(base, id - chunk, chunk, aggregate, inclusive);
        if (t == 0u && chunk % BLOCK == BLOCK - 1u) publish(id, inclusive_word(id), INCLUSIVE, inclusive);
    }
    // Every output store after the published states, in every invocation (a fallback reading this
    // tile's input in place relies on it): a barrier ordering buffer memory, then a fence.
    buffer_barrier();
    memoryBarrierBuffer();
    bool vec = vector_io(base, start);
    for (uint r = 0u; r < ROUNDS; ++r) {
        Pair before = combine_pair(combine_pair(prefix, get_segment(r * gl_NumSubgroups + gl_SubgroupID)),
                                   lane_before[r]);
        store_round(r, base, start, len, vec, before);
    }
}
