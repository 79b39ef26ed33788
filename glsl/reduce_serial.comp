#version 460
// Serial chunk fold ("column-wise"): one invocation per (output, chunk), folding at most chunk_len
// elements in index order. Neighbouring invocations take neighbouring outputs, so when the kept
// dimensions are the inner ones in memory (outer-axis reductions) their loads are coalesced; short
// reductions (many tiny outputs), and every shape on CPU devices, run best this way too. With blocks
// (VEC_K > 0, reduce_common.glsl) each position loads VEC_K whole vectors and folds their elements, each
// output's in index order (split into SPLIT interleaved chains where the block holds one output).
// Compiled with CANONICAL_FOLD (reduce_serial_canonical), float sums and products walk the canonical
// association instead (walk_chunk).
#extension GL_EXT_control_flow_attributes : require
#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

const uint BLOCK_VECS = VEC_K == 0u ? 1u : VEC_K;
const uint LANES = VEC_K == 0u ? 1u : VEC_F;       // outputs folded per invocation
const uint STEPS = BLOCK_VECS * VEC_W / LANES;     // reduced elements per output and block
// A block of one output's elements folds them into SPLIT states in turn (element s into state s % SPLIT),
// combined at the end: each step waits for the one before it, and four independent chains keep a CPU's
// pipelines busier (lavapipe: argmax-1d 25.9 -> 20.3 ms, logsumexp-1d 35.5 -> 33, reduce-1d 19.5 ->
// 18.9). Every float sum and product step keeps its rounding error (compensated.glsl): adding a few
// elements plainly before joining them, as this kernel once did, lost s in a sum of L, s and -L.
// Products keep one chain: split, [1e30, 1e-30, 1, 1] three times over would overflow in one chain and
// underflow in another (inf · 0), where in order every step stays near 1.
const uint SPLIT = (LANES == 1u && FUNCTION != F_MULTIPLY) ? (STEPS < 4u ? STEPS : 4u) : 1u;
const uint STATES = LANES * SPLIT;

#if defined(CANONICAL_FOLD)
// The canonical kernel (CANONICAL_FOLD) walks the canonical association instead, one walk per output lane:
// the planner makes a chunk of a line of several chunks 32^n leaves and, where a line holds more than
// one block of 32, positions of a power of two leaves up to 32, so that every block closes at the end of
// a position.
#define WALK_LANES LANES
#define WALK_T State
#define WALK_EMPTY() empty_state()
#define WALK_COMBINE(a, b) combine(a, b)
#define WALK_NORMALIZED(a) state_normalized(a)
#define WALK_NO_PREFIXES
#include "canonical_walk.glsl"
const uint POS_STEPS = VEC_K == 0u ? 1u : STEPS;  // leaves per output and position
// Positions per block of 32 leaves: the position loop climbs after each group of them (lavapipe runs the
// body of every if, taken or not, so a climb tested at every position would cost as much as one taken
// there); 0: the chunk is one block, no climbs.
const uint CLIMB_GROUP = WALK_TOP > 0u ? (POS_STEPS < WALK_ARITY ? WALK_ARITY / POS_STEPS : 1u) : 0u;

// Folds position q (a leaf, or a block of POS_STEPS leaves per lane) into the walks' open blocks; base_x
// is output o's first input element (output_base).
void walk_position(uint o, uint base_x, uint stride, bool one_dim, uint q) {
    if (VEC_K == 0u) {
        w_total[0][0] = one_dim ? fold_element(w_total[0][0], load_element(p.base_in + base_x + q * stride), q)
                                : fold_at(w_total[0][0], o, base_x, q);
        return;
    }
    uint at = p.base_in + base_x + (one_dim ? q * stride : reduced_offset(q));
    WIDE_V v[BLOCK_VECS];
    [[unroll]] for (uint b = 0u; b < BLOCK_VECS; ++b) v[b] = UNPACK_V(srcv[at + b]);
    [[unroll]] for (uint j = 0u; j < BLOCK_VECS * VEC_W; ++j) {
        uint lane = j / STEPS, s = j % STEPS;
        w_total[lane][0] = fold_element(w_total[lane][0], element_value(v[j / VEC_W][j % VEC_W]), q * STEPS + s);
    }
}

// The canonical fold of the chunk [start, end) (trips positions in lockstep), its state per lane stored.
void walk_chunk(bool has_item, uint o, uint chunk, uint start, uint end, uint trips, uvec2 base, uint stride,
                bool one_dim) {
    [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) walk_begin(lane, empty_state());
    uint stop = start + trips;
    // (One loop nest, so that walk_position is inlined once: lavapipe compiles every copy before it
    // drops the ones specialization leaves dead.)
    const uint group = CLIMB_GROUP == 0u ? 0xFFFFFFFFu : CLIMB_GROUP;
    uint g = start;
    do {
        uint group_end = stop - g > group ? g + group : stop;
        uint q = g;
        do {
            if (lockstep_barrier(q, start)) barrier();
            if (LOCKSTEP && q >= end) continue;
            walk_position(o, base.x, stride, one_dim, q);
        } while (++q < group_end);
        uint count = (group_end - start) * POS_STEPS;
        if (CLIMB_GROUP != 0u && (count & (WALK_ARITY - 1u)) == 0u && group_end <= end)
            [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) walk_climb(lane, count);
        g = group_end;
    } while (g < stop);
    if (!has_item) return;
    [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) {
        State st = walk_finish(lane, (end - start) * POS_STEPS);
        if (DST_PARTIALS) write_state((o * LANES + lane) * chunk_count() + chunk, st);
        else store_state(o, chunk, base.y + lane, st);
    }
}
#endif

// Folds the block at `at` (reduced position q) into st (output lane's states: lane · SPLIT + s % SPLIT).
void fold_block(inout State st[STATES], uint at, uint q) {
    WIDE_V v[BLOCK_VECS];
    [[unroll]] for (uint b = 0u; b < BLOCK_VECS; ++b) v[b] = UNPACK_V(srcv[at + b]);
    // Flat loops (fully unrolled, [[unroll]]: every index below is then a constant, and lavapipe, which
    // ends a loop after 65,535 trips counted over nested loops too, sees only the outer loop).
    [[unroll]] for (uint j = 0u; j < BLOCK_VECS * VEC_W; ++j) {
        uint lane = j / STEPS, s = j % STEPS;
        uint i = lane * SPLIT + s % SPLIT;
        st[i] = fold_element(st[i], element_value(v[j / VEC_W][j % VEC_W]), q * STEPS + s);
    }
}

void main() {
    if (LOCKSTEP && !workgroup_has_items(p.item_begin, p.item_end)) return;  // the whole workgroup
    uint id = serial_item(p.item_begin, p.item_end);
    if (id == NO_ITEM && !LOCKSTEP) return;
    // (Constant true without LOCKSTEP, so that no branch below costs anything there: lavapipe would run
    // a branch on it whether or not any lane takes it.)
    bool has_item = !LOCKSTEP || id != NO_ITEM;
    uint chunk = has_item ? chunk_of_item(id, output_count(), p.n, p.chunk_len) : 0u;
    uint o = has_item ? line_of_item(id, chunk, output_count(), p.n, p.chunk_len) : 0u;
    uint start = chunk * p.chunk_len;
    uint end = has_item ? start + min(p.chunk_len, p.n - start) : start;  // never past 2^32 - 1
    // Trips of the position loop (at least one): the chunk's positions, or in lockstep the longest
    // chunk's (start + chunk_len stays below 2^32: the planner's condition).
    uint trips = LOCKSTEP ? p.chunk_len : end - start;
    uvec2 base = output_base(o);
    // The stride of a single reduced dimension is read once, out of the loops: reduced_offset there
    // re-reads its push word every trip (lavapipe: reduce-1d 19.7 -> 21.5 ms, reduce-outer 10.9 -> 11.8).
    const bool one_dim = !SRC_PARTIALS && reduced_dims() == 1u;
    uint stride = one_dim ? p.dim[REDUCE_D_LINE_STRIDE_IN(kept_dims(), 0u)] : 0u;
#if defined(CANONICAL_FOLD)
    walk_chunk(has_item, o, chunk, start, end, trips, base, stride, one_dim);
#else
    uint in_base = p.base_in + base.x;
    if (VEC_K == 0u) {
        State st = empty_state();
        uint r = start;
        do {
            if (lockstep_barrier(r, start)) barrier();
            if (LOCKSTEP && r >= end) continue;
            st = one_dim ? fold_element(st, load_element(in_base + r * stride), r) : fold_at(st, o, base.x, r);
        } while (++r < start + trips);
        if (has_item) store_state(o, chunk, base.y, st);
        return;
    }

    // Every state starts empty and folds each element alike (fold_element takes an empty state's first
    // element), in one do-while loop whose body runs once per block: lavapipe (Mesa 22) runs the body of
    // every if and loop at least once, lanes masked or not, so a first block folded before a for loop
    // also paid a masked second one (rows of 3 in blocks of 16 rows: 5.8 -> 1.8 ms).
    State st[STATES];
    [[unroll]] for (uint i = 0u; i < STATES; ++i) st[i] = empty_state();
    uint q = start;
    do {
        if (lockstep_barrier(q, start)) barrier();
        if (LOCKSTEP && q >= end) continue;
        fold_block(st, in_base + (one_dim ? q * stride : reduced_offset(q)), q);
    } while (++q < start + trips);
    if (!has_item) return;
    [[unroll]] for (uint k = 1u; k < SPLIT; ++k) st[0] = combine(st[0], st[k]);
    // Item o holds outputs o·VEC_F + lane: consecutive elements of the output, or slots VEC_F·chunks apart.
    [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) {
        if (DST_PARTIALS) write_state((o * LANES + lane) * chunk_count() + chunk, st[lane * SPLIT]);
        else store_state(o, chunk, base.y + lane, st[lane * SPLIT]);
    }
#endif
}
