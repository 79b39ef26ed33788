#version 460
// Canonical tile scan: the cooperative family's float sums, products and log-sum-exps in the canonical
// association (docs/internals.md, "Determinism"), so that a GPU's tiles give the serial walk's bits. A
// workgroup of W invocations (a power of two, 32 or more: whole level-2 nodes, 32 blocks of 32 elements)
// takes one chunk of a line (32^n elements, n >= 3, or the whole line) in tiles of 32·W elements, in order:
//   1. each invocation loads one block of 32 elements (whole vectors where the line is contiguous and
//      aligned) and folds it left from the empty pair;
//   2. NODES = W/32 invocations fold each level-2 node's block totals;
//   3. every invocation walks the tile's node totals as the leaves of the chunk's tree, from the chunk's
//      carry (canonical_walk.glsl over pairs, as a carry level walks chunk totals): the prefix of each
//      node, and the open nodes above it from one tile to the next;
//   4. NODES invocations chain each node's block prefixes (the node's prefix, then each block's total
//      folded in, normalized);
//   5. each invocation scans its block again: its prefix combined with the block's running total.
// MODE_REDUCE stops after 3 and stores the chunk's total. No subgroup operation: their order would follow
// the subgroup size (its pipelines ask for no full subgroups). Every loop but the tiles' is over a
// constant count.
// CANONICAL_STAGED (the kernel scan_canonical_tile_staged, the knob scan.canonical_stage): a whole tile
// that loads and stores as vectors goes through workgroup memory, as CUB's BLOCK_LOAD_WARP_TRANSPOSE: the
// invocations load neighbouring vectors (each warp-wide load contiguous), a barrier, each reads its block
// (33 words a block, so that 32 invocations reading theirs meet no bank twice); its outputs the same way
// back. The same folds in the same order: only where the elements travel differs.
// CANONICAL_CHAINED (the kernel scan_canonical_chained, the knob scan.canonical_chained): MODE_CHAINED,
// a line of several tiles in one pass, a tile per workgroup in the order a counter gives: steps 1 and 2,
// its node totals published (and those of the nodes of rank 1 and up it closes), its first node's prefix
// from the look-back over the canonical tree's totals (canonical_lookback.glsl) in place of step 3, steps
// 4 and 5; MODE_CLEAR zeroes the states before it.
#extension GL_EXT_control_flow_attributes : require
#if defined(CANONICAL_CHAINED)
#extension GL_KHR_memory_scope_semantics : require
#endif
#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"

#if defined(CANONICAL_CHAINED)
const uint WALK_TOP = 0u;  // (no walk: the look-back gives the prefixes)
#else
layout(constant_id = SCAN_SPEC_WALK_TOP) const uint WALK_TOP = 0u;  // the chunk's level over node totals
#endif
#define WALK_LANES 1u
#include "canonical_walk.glsl"

const uint ARITY = WALK_ARITY;  // elements per block, blocks per node
const uint W = gl_WorkGroupSize.x;
const uint NODES = (W + ARITY - 1u) / ARITY;  // level-2 nodes per tile
const uint TILE = W * ARITY;
const uint BLOCK_VECS = ARITY / VEC_W;

shared ACC_T block_hi[W], block_lo[W];        // block totals, then block prefixes
shared ACC_T node_hi[NODES], node_lo[NODES];  // node totals

ACC_T xs[ARITY];  // this invocation's block
#if defined(CANONICAL_STAGED)
const uint STAGE_STRIDE = ARITY + 1u;  // words a block takes in the stage
shared ACC_T stage[W * STAGE_STRIDE];   // a whole tile, block b at b * STAGE_STRIDE
uint staged_index(uint j) { return j + j / ARITY; }  // element j of the tile in the stage
#endif

Pair get_block(uint i) { return Pair(block_hi[i], block_lo[i]); }
void put_block(uint i, Pair a) {
    block_hi[i] = a.hi;
    block_lo[i] = a.lo;
}

// The block of `count` (1 to 32) elements at logical position `at` into xs (past count: copies of its
// last element, never folded).
void load_block(uvec2 base, uint at, uint count, bool vec) {
    if (vec && count == ARITY) {
        [[unroll]] for (uint v = 0u; v < BLOCK_VECS; ++v) {
            WIDE_V w = UNPACK_V(source_vector((base.x + at) / VEC_W + v));
            [[unroll]] for (uint e = 0u; e < VEC_W; ++e) xs[v * VEC_W + e] = leaf_value(TO_ACC(w[e]));
        }
    } else {
        [[unroll]] for (uint j = 0u; j < ARITY; ++j)
            xs[j] = source_element(base.x + axis_pos(at + min(j, count - 1u)) * source_axis_stride());
    }
}

#if defined(CANONICAL_STAGED)
// The whole tile at logical position `at` (vectors, forward) through the stage into each invocation's xs:
// invocation b loads the tile's vectors b, b + W, ... Whole workgroup (the stage's next writes, the
// outputs', come after the barriers of steps 1 to 4).
void load_tile_staged(uvec2 base, uint at) {
    uint b = gl_LocalInvocationIndex;
    [[unroll]] for (uint k = 0u; k < BLOCK_VECS; ++k) {
        uint v = k * W + b;
        WIDE_V w = UNPACK_V(source_vector((base.x + at) / VEC_W + v));
        [[unroll]] for (uint e = 0u; e < VEC_W; ++e) stage[staged_index(v * VEC_W + e)] = leaf_value(TO_ACC(w[e]));
    }
    barrier();
    [[unroll]] for (uint j = 0u; j < ARITY; ++j) xs[j] = stage[b * STAGE_STRIDE + j];
}
#endif

// The left fold of the block's first `count` elements from the empty pair, normalized (a node total).
Pair block_total(uint count) {
    Pair t = pair_of(identity());
    [[unroll]] for (uint j = 0u; j < ARITY; ++j) t = select_pair(j < count, combine_value(t, xs[j]), t);
    return run_normalized(t);
}

// The outputs of the block at `at` from its prefix, into ys: the prefix combined with the block's running
// total (an exclusive output: the value before, the prefix itself at the block's first element).
void block_outputs(uint at, Pair prefix, out ACC_T ys[ARITY]) {
    Pair run = pair_of(identity()), before = prefix;
    [[unroll]] for (uint j = 0u; j < ARITY; ++j) {
        run = combine_value(run, xs[j]);
        Pair value = combine_pair(prefix, run);
        ys[j] = scan_value(EXCLUSIVE ? exclusive_value(before, at + j) : value);
        before = value;
    }
}

#if defined(CANONICAL_STAGED)
// The whole tile's outputs at logical position `at` from each invocation's block prefix, through the stage:
// invocation b stores the tile's vectors b, b + W, ... Whole workgroup (the next tile's loads come after
// the tile's last barrier).
void store_tile_staged(uvec2 base, uint at, Pair prefix) {
    uint b = gl_LocalInvocationIndex;
    ACC_T ys[ARITY];
    block_outputs(at + b * ARITY, prefix, ys);
    [[unroll]] for (uint j = 0u; j < ARITY; ++j) stage[b * STAGE_STRIDE + j] = ys[j];
    barrier();
    [[unroll]] for (uint k = 0u; k < BLOCK_VECS; ++k) {
        uint v = k * W + b;
        WIDE_V w;
        [[unroll]] for (uint e = 0u; e < VEC_W; ++e) w[e] = FROM_ACC_WIDE(stage[staged_index(v * VEC_W + e)]);
        dstv[(base.y + at) / VEC_W + v] = PACK_V(w);
    }
}
#endif

// The outputs of the block of `count` elements at `at` from its prefix (block_outputs), stored.
void store_block(uvec2 base, uint at, uint count, bool vec, Pair prefix) {
    ACC_T ys[ARITY];
    block_outputs(at, prefix, ys);
    if (vec && count == ARITY) {
        [[unroll]] for (uint v = 0u; v < BLOCK_VECS; ++v) {
            WIDE_V w;
            [[unroll]] for (uint e = 0u; e < VEC_W; ++e) w[e] = FROM_ACC_WIDE(ys[v * VEC_W + e]);
            dstv[(base.y + at) / VEC_W + v] = PACK_V(w);
        }
    } else {
        [[unroll]] for (uint j = 0u; j < ARITY; ++j)
            if (j < count) dst[base.y + axis_pos(at + j) * p.axis_out] = FROM_ACC(ys[j]);
    }
}

// One leaf of the chunk's walk: a node total. The running prefix is normalized at every leaf, as the
// tree's prefixes are; the totals climb at every 32nd.
void walk_node(Pair x, uint leaves) {
    w_run[0] = run_normalized(combine_pair(w_run[0], x));
    w_total[0][0] = combine_pair(w_total[0][0], x);
    if (WALK_TOP > 0u && leaves % ARITY == 0u) walk_climb(0u, leaves);
}

// Steps 1 and 2 of the tile of `n` elements at logical position `tile_at` (this invocation's block:
// `count` elements): the block totals (block_*) and the node totals (node_*). Whole workgroup.
void tile_totals(uvec2 base, uint tile_at, uint n, uint count, bool vec, bool staged) {
    uint b = gl_LocalInvocationIndex;
    // 1. This invocation's block and its total.
#if defined(CANONICAL_STAGED)
    if (staged) load_tile_staged(base, tile_at);
#endif
    if (count > 0u) {
        if (!staged) load_block(base, tile_at + b * ARITY, count, vec);
        put_block(b, block_total(count));
    }
    barrier();
    // 2. The nodes' totals.
    uint blocks = (n - 1u) / ARITY + 1u, nodes = (blocks - 1u) / ARITY + 1u;
    if (b < nodes) {
        Pair t = pair_of(identity());
        [[unroll]] for (uint j = 0u; j < ARITY; ++j)
            t = select_pair(b * ARITY + j < blocks, combine_pair(t, get_block(b * ARITY + j)), t);
        t = run_normalized(t);
        node_hi[b] = t.hi;
        node_lo[b] = t.lo;
    }
    barrier();
}

// Steps 4 and 5 of the tile at `tile_at`, from `mine`, the prefix of this invocation's node (invocations
// below the tile's node count). Whole workgroup.
void tile_outputs(uvec2 base, uint tile_at, uint n, uint count, bool vec, bool staged, Pair mine) {
    uint b = gl_LocalInvocationIndex;
    uint blocks = (n - 1u) / ARITY + 1u, nodes = (blocks - 1u) / ARITY + 1u;
    // 4. The block prefixes of each node, in place of the block totals.
    if (b < nodes) {
        Pair prefix = mine;
        [[unroll]] for (uint j = 0u; j < ARITY; ++j) {
            uint i = b * ARITY + j;
            if (i < blocks) {
                Pair t = get_block(i);
                put_block(i, prefix);
                prefix = run_normalized(combine_pair(prefix, t));
            }
        }
    }
    barrier();
    // 5. This invocation's outputs.
#if defined(CANONICAL_STAGED)
    if (staged) store_tile_staged(base, tile_at, get_block(b));
#endif
    if (count > 0u && !staged) store_block(base, tile_at + b * ARITY, count, vec, get_block(b));
    barrier();  // the next tile writes the block totals again
}

void scan_chunk(uint id) {
    uint b = gl_LocalInvocationIndex;
    uint chunks = chunk_count();
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);
    bool vec = vector_io(base, start);
    walk_begin(0u, (MODE == MODE_SCAN && HAS_CARRY && chunk > 0u) ? load_partial(p.base_part + id)
                                                                  : pair_of(identity()));
    uint leaves = 0u;
    for (uint tile = 0u; tile < len; tile += TILE) {  // uniform
        uint n = min(TILE, len - tile);
        uint count = b * ARITY < n ? min(ARITY, n - b * ARITY) : 0u;
#if defined(CANONICAL_STAGED)
        bool staged = vec && n == TILE;  // uniform
#else
        const bool staged = false;
#endif
        uint blocks = (n - 1u) / ARITY + 1u, nodes = (blocks - 1u) / ARITY + 1u;
        tile_totals(base, start + tile, n, count, vec, staged);
        // 3. The walk over them (every invocation the same), keeping this invocation's node's prefix.
        Pair mine = pair_of(identity());
        [[unroll]] for (uint g = 0u; g < NODES; ++g) {
            if (g < nodes) {  // uniform
                if (g == b) mine = w_run[0];
                walk_node(Pair(node_hi[g], node_lo[g]), ++leaves);
            }
        }
        if (MODE == MODE_REDUCE) {
            barrier();  // the next tile writes the block totals again
            continue;
        }
        tile_outputs(base, start + tile, n, count, vec, staged, mine);
    }
    if (MODE == MODE_REDUCE && b == 0u) store_partial(p.base_part + id, walk_finish(0u, leaves));
}

#if defined(CANONICAL_CHAINED)
#include "canonical_lookback.glsl"

shared uint tile_word;                                  // the tile number
shared ACC_T node_prefix_hi[NODES], node_prefix_lo[NODES];  // the tile's nodes' prefixes

// MODE_CHAINED: the next tile of the pass (a counter, so tiles start in order), every fiber's tiles one
// item each: steps 1 and 2; its node totals published, and the totals of the nodes it closes; its first
// node's prefix by the look-back, its other nodes' from it; steps 4 and 5. Reads the input once.
void chained_tile() {
    uint b = gl_LocalInvocationIndex;
    if (b == 0u) tile_word = atomicAdd(states[p.base_part], 1u);
    barrier();
    uint id = p.item_begin + tile_word;
    uint tiles = chunk_count();
    uint fiber = id / tiles, tile = id - fiber * tiles;
    states_layout(fiber, p.item_end / tiles);
    uint start = tile * TILE, n = min(TILE, p.len - start), n0 = tile * NODES;
    uvec2 base = fiber_base(fiber);
    bool vec = vector_io(base, start);
    uint count = b * ARITY < n ? min(ARITY, n - b * ARITY) : 0u;
    uint blocks = (n - 1u) / ARITY + 1u, nodes = (blocks - 1u) / ARITY + 1u;
    tile_totals(base, start, n, count, vec, false);
    if (b < nodes) {
        Pair t = Pair(node_hi[b], node_lo[b]);
        publish(entry(0u, n0 + b), total_word(entry(0u, n0 + b)), TOTAL, t);
    }
    if (n == TILE && tile + 1u < tiles) publish_closed(base, n0 + NODES);
    Pair run = look_back(base, n0);
    if (b == 0u) {  // (the first node's prefix is published; the others' too, for the tiles after)
        [[unroll]] for (uint g = 0u; g < NODES; ++g) {
            node_prefix_hi[g] = run.hi;
            node_prefix_lo[g] = run.lo;
            if (g > 0u && g < nodes) put_value(prefix_word(entry(0u, n0 + g)), run);
            run = run_normalized(combine_pair(run, Pair(node_hi[g], node_lo[g])));
        }
        memoryBarrierBuffer();  // the values before their flags
        [[unroll]] for (uint g = 1u; g < NODES; ++g)
            if (g < nodes) atomicOr(states[flag_word(entry(0u, n0 + g))], PREFIX);
    }
    // Every output store after the published totals, in every invocation (in place, a fallback reading
    // this tile's input relies on it): a barrier ordering buffer memory (and node_prefix_*), then a fence.
    buffer_barrier();
    memoryBarrierBuffer();
    Pair mine = b < nodes ? Pair(node_prefix_hi[b], node_prefix_lo[b]) : pair_of(identity());
    if (g_xs_clobbered && count > 0u) load_block(base, start + b * ARITY, count, vec);  // (uniform test)
    tile_outputs(base, start, n, count, vec, false, mine);
}

// MODE_CLEAR (the pass before): zeroes words [0, len) of the states; one dispatch from item 0, so the
// workgroup index is the item.
void clear_states() {
    uint w = workgroup_index() * W + gl_LocalInvocationIndex;
    if (w < p.len) states[p.base_part + w] = 0u;
}

void main() {
    if (MODE == SCAN_MODE_CLEAR) {
        clear_states();
    } else if (workgroup_index() < p.item_end - p.item_begin) {  // uniform
        chained_tile();
    }
}
#else
void main() {
    uint item = workgroup_item(p.item_begin, p.item_end);
    if (item != NO_ITEM) scan_chunk(item);  // uniform
}
#endif
