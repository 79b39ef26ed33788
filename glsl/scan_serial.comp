#version 460
// Serial chunk scan: one invocation per (fiber, chunk), walking at most chunk_len positions in order.
// Neighbouring invocations take neighbouring fibers, so when the scanned axis is not the innermost in
// memory (outer-axis scans) their loads are coalesced; short inner rows also run best this way, and on
// CPU devices every shape does. With blocks (VEC_K > 0, below) each position loads and
// stores VEC_K whole vectors and scans their elements in the same order as element by element.
// Chunk 0 of a fiber starts from the identity, later chunks from their carry in partials. Float sums
// and products are compensated (compensated.glsl); the partials of float scans are pairs, and the
// pass that scans them reads and writes pairs (the f32x2 and f64x2 variants).
// MODE_REDUCE folds the chunk into partials[fiber * chunks + chunk] (VEC_F slots per fiber block) for
// reduce-then-scan.
#extension GL_EXT_control_flow_attributes : require
#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"

// Blocks: VEC_K > 0 makes each position of a chunk one block of VEC_K vectors of VEC_W elements,
// consecutive in memory, holding A = VEC_K·VEC_W / VEC_F steps along the axis of VEC_F
// fibers; VEC_AXIS_INNER: element j of the block is step j % A of fiber j / A (whole short rows, or
// steps along a contiguous axis when VEC_F is 1), else step j / VEC_F of fiber j % VEC_F (neighbouring
// fibers). len, chunk_len, fibers, sizes, strides and bases then count blocks and vectors (the planner's
// block layout), and the partials of a (fiber block, chunk) item are VEC_F consecutive slots.
layout(constant_id = SCAN_SPEC_VEC_K) const uint VEC_K = 0u;
layout(constant_id = SCAN_SPEC_VEC_F) const uint VEC_F = 1u;
layout(constant_id = SCAN_SPEC_VEC_AXIS_INNER) const bool VEC_AXIS_INNER = true;

const uint BLOCK_VECS = VEC_K == 0u ? 1u : VEC_K;
const uint LANES = VEC_K == 0u ? 1u : VEC_F;  // fibers carried per invocation
const uint STEPS = BLOCK_VECS * VEC_W / LANES;  // axis steps per block

// Float scans walk the canonical association (canonical_walk.glsl): the planner makes a chunk of a
// line of several chunks 32^n steps, so every node of the tree closes at the end of a position unless
// a block holds more steps than a node (CLIMB_INSIDE). Integer scans and the selections (the maximum
// and minimum) are exact in any order: a plain running combine, no tree and no climbs.
#if defined(ACC_IS_FLOAT)
const bool CANONICAL = !SELECT;
#else
const bool CANONICAL = false;
#endif
layout(constant_id = SCAN_SPEC_WALK_TOP) const uint WALK_TOP = 0u;
#define WALK_LANES LANES
#include "canonical_walk.glsl"
const bool CLIMB_INSIDE = WALK_ARITY % STEPS != 0u;

// Carry levels (PAIR_STORAGE: chunk totals as leaves) keep a block's total where a node closes inside the
// chunk or the chunk's total is the result.
// (Spelled without CANONICAL: glslang 11 emits an invalid initializer for `false && <specialization
// constant>`.)
const bool KEEP_TOTALS = WALK_TOP > 0u || MODE == MODE_REDUCE;
// A chunk of one block that starts from no carry: its prefix is the identity, and the prefix folded
// with the block's running total is that total's value.
const bool PREFIX_IS_IDENTITY = !HAS_CARRY && WALK_TOP == 0u;

// One leaf of a lane's walk. Float leaves fold into the open block's total, and the scan at the leaf is
// the block's exclusive prefix combined with that total; integers keep a plain running combine. Pairs
// (carry levels) fold into a running prefix normalized at every step, as the tree's prefixes are.
void walk_leaf(uint lane, LEAF_T x) {
#if defined(ACC_IS_FLOAT)
    if (!CANONICAL) {  // (a constant: one path compiles)
        w_run[lane] = combine_leaf(w_run[lane], x);
        return;
    }
#endif
#if defined(PAIR_STORAGE)
    if (MODE == MODE_SCAN) w_run[lane] = run_normalized(combine_leaf(w_run[lane], x));
    if (KEEP_TOTALS) w_total[lane][0] = combine_leaf(w_total[lane][0], x);
#elif defined(ACC_IS_FLOAT)
    w_total[lane][0] = combine_leaf(w_total[lane][0], x);
    if (MODE == MODE_SCAN) {
        if (PREFIX_IS_IDENTITY)
            w_run[lane] = w_total[lane][0];
        else
            w_run[lane] = combine_pair(w_prefix[lane][0], w_total[lane][0]);
    }
#else
    w_run[lane] = combine_leaf(w_run[lane], x);
#endif
}

// Steps per position: one element, or a block's.
const uint POS_STEPS = VEC_K == 0u ? 1u : STEPS;
// Positions between climbs where every node closes at the end of a position: the position loop runs in
// groups of them and climbs after each (lavapipe runs the body of every if, taken or not, so a climb
// tested at every position would cost as much as one taken there); 0: no climbs between positions.
#if defined(ACC_IS_FLOAT)
const uint CLIMB_GROUP = (WALK_TOP > 0u && !CLIMB_INSIDE && CANONICAL) ? WALK_ARITY / POS_STEPS : 0u;
#else
const uint CLIMB_GROUP = 0u;
#endif

// Position k of a chunk, element by element (VEC_K = 0).
void scan_element(uint k, uvec2 base) {
    uint pos = axis_pos(k);
    Pair before = w_run[0];
    walk_leaf(0u, source_leaf(base.x + pos * source_axis_stride()));
    if (MODE == MODE_SCAN)
        store_element(base.y + pos * p.axis_out, EXCLUSIVE ? exclusive_value(before, k) : w_run[0]);
}

#if !defined(PAIR_STORAGE)
// Position k of a chunk starting at `start`, a block (VEC_K > 0).
void scan_block(uint k, uint start, uvec2 base) {
    uint pos = axis_pos(k);
    uint at_in = base.x + pos * source_axis_stride();
    uint at_out = base.y + pos * p.axis_out;
    WIDE_V v, y;  // the block's vector in use: its elements in, its outputs
    // One flat loop over the block's elements, backwards when REVERSE, so each fiber's steps come in
    // scan order (fully unrolled, [[unroll]]: every index below is then a constant, and lavapipe, which
    // ends a loop after 65,535 trips counted over nested loops too, sees only the position loops). Each
    // vector is loaded at its first element and stored after its last, so that few are live at once.
    [[unroll]] for (uint t = 0u; t < BLOCK_VECS * VEC_W; ++t) {
        uint j = REVERSE ? BLOCK_VECS * VEC_W - 1u - t : t;
        if (t % VEC_W == 0u) v = UNPACK_V(source_vector(at_in + j / VEC_W));
        uint lane = VEC_AXIS_INNER ? j / STEPS : j % LANES;
        uint step = VEC_AXIS_INNER ? j % STEPS : j / LANES;
        uint s = REVERSE ? STEPS - 1u - step : step;  // steps of this fiber done before
        Pair before = w_run[lane];
        walk_leaf(lane, leaf_value(TO_ACC(v[j % VEC_W])));
        if (MODE == MODE_SCAN) {
            Pair value = EXCLUSIVE ? exclusive_value(before, k * STEPS + s) : w_run[lane];
            y[j % VEC_W] = FROM_ACC_WIDE(scan_value(value));
        }
        uint count = (k - start) * STEPS + s + 1u;
        if (CANONICAL && WALK_TOP > 0u && CLIMB_INSIDE && (count & (WALK_ARITY - 1u)) == 0u)
            walk_climb(lane, count);
        if (MODE == MODE_SCAN && t % VEC_W == VEC_W - 1u) dstv[at_out + j / VEC_W] = PACK_V(y);
    }
}
#endif

#if !defined(PAIR_STORAGE)
// The index output of a selection (MODE_MARK32/64), the pass between two scans: the values scanned into
// the partials binding, laid out as the index output (its strides, the partials' base), then each
// position's mark into the index output: its own index along the axis where the element equals the
// running value there (or is NaN, which wins; never a NaN that NanMode::ignore leaves out), else -1. In
// an exclusive scan position k marks the element before it, whose inclusive value is the exclusive value
// at k. The planner then scans the marks in place, the maximum (INCREASING) or the unsigned minimum
// (DECREASING): each output gets the last element in scan order equal to its value, -1 where none is.
const bool MARK = MODE == SCAN_MODE_MARK32 || MODE == SCAN_MODE_MARK64;
layout(set = 0, binding = 1) buffer DstIndex { uint dst_index[]; };
layout(set = 0, binding = 1) buffer DstIndex64 { uvec2 dst_index64[]; };
layout(set = 0, binding = 2) readonly buffer RunValues { STORE_T run_values[]; };

void mark_position(uint k, uvec2 base) {
    uint pos = axis_pos(k);
    bool first = EXCLUSIVE && k == 0u;
    uint at = EXCLUSIVE ? axis_pos(first ? k : k - 1u) : pos;  // the element marked
    ACC_T raw = TO_ACC(src[base.x + at * p.axis_in]);
    ACC_T x = leaf_value(raw);
    ACC_T y = leaf_value(TO_ACC(run_values[base.y - p.base_out + p.base_part + pos * p.axis_out]));
#if defined(ACC_IS_FLOAT)
    bool match = NAN_IGNORE ? !isnan(raw) && x == y : isnan(x) || x == y;
#else
    bool match = x == y;
#endif
    uint index = (match && !first) ? at : 0xFFFFFFFFu;
    if (MODE == SCAN_MODE_MARK64)
        dst_index64[base.y + pos * p.axis_out] = uvec2(index, index == 0xFFFFFFFFu ? 0xFFFFFFFFu : 0u);
    else
        dst_index[base.y + pos * p.axis_out] = index;
}
#endif

// Trip k of the position loop: in lockstep, the workgroup's barrier every SYNC_STEPS trips, and nothing
// past the chunk's end.
void scan_trip(uint k, uint start, uint end, uvec2 base) {
    if (lockstep_barrier(k, start)) barrier();
    if (LOCKSTEP && k >= end) return;
#if defined(PAIR_STORAGE)
    scan_element(k, base);
#else
    if (VEC_K == 0u) scan_element(k, base);
    else scan_block(k, start, base);
#endif
}

void main() {
    if (LOCKSTEP && !workgroup_has_items(p.item_begin, p.item_end)) return;  // the whole workgroup
    uint id = serial_item(p.item_begin, p.item_end);
    if (id == NO_ITEM && !LOCKSTEP) return;
    // (Constant true without LOCKSTEP, so that no branch below costs anything there: lavapipe would run
    // a branch on it whether or not any lane takes it.)
    bool has_item = !LOCKSTEP || id != NO_ITEM;
    uint chunk = has_item ? chunk_of_item(id, p.fibers, p.len, p.chunk_len) : 0u;
    uint fiber = has_item ? line_of_item(id, chunk, p.fibers, p.len, p.chunk_len) : 0u;
    uint start = chunk * p.chunk_len;
    uint end = has_item ? start + min(p.chunk_len, p.len - start) : start;
    uint slot = (p.chunk_len >= p.len ? fiber : fiber * chunk_count() + chunk) * LANES;
    uvec2 base = fiber_base(fiber);
    // Trips of the position loop: the chunk's positions, or in lockstep the longest chunk's.
    uint stop = start + (LOCKSTEP ? p.chunk_len : end - start);

#if !defined(PAIR_STORAGE)
    if (MARK) {  // (a constant: the scan below compiles away)
        for (uint k = start; k < end; ++k) mark_position(k, base);
        return;
    }
#endif
    // The running combine starts from the chunk's carry and is compensated (float types): each element's
    // rounding error is kept, so a long chunk onto a large carry loses nothing.
    for (uint lane = 0u; lane < LANES; ++lane)
        walk_begin(lane, (MODE == MODE_SCAN && HAS_CARRY && chunk > 0u) ? load_partial(p.base_part + slot + lane)
                                                                        : pair_of(identity()));
    // One loop nest (a single group where there are no climbs between positions), so that scan_trip is
    // inlined once: lavapipe compiles every copy before it drops the ones specialization leaves dead.
    const uint group = CLIMB_GROUP == 0u ? 0xFFFFFFFFu : CLIMB_GROUP;
    for (uint g = start; g < stop;) {
        uint group_end = stop - g > group ? g + group : stop;
        for (uint k = g; k < group_end; ++k) scan_trip(k, start, end, base);
        uint count = (group_end - start) * POS_STEPS;
        if (CLIMB_GROUP != 0u && (count & (WALK_ARITY - 1u)) == 0u && group_end <= end)
            [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) walk_climb(lane, count);
        g = group_end;
    }
    if (MODE == MODE_REDUCE && has_item)
        for (uint lane = 0u; lane < LANES; ++lane)
            store_partial(p.base_part + slot + lane,
                          CANONICAL ? walk_finish(lane, (end - start) * POS_STEPS) : w_run[lane]);
}
