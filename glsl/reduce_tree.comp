#version 460
// Cooperative chunk fold (tree reduction): one workgroup per (output, chunk). Where the chunk is
// contiguous in memory, invocation t folds vectors t, t + WG_SIZE, ... into LANES independent states,
// LANES vector loads in flight at once (16 bytes for 32- and 64-bit types, 8 for 16-bit, 4 for 8-bit:
// narrow types as packed words; fold_contiguous); elsewhere elements start + t, start + t +
// WG_SIZE, ... one at a time. Each subgroup then folds its invocations' states by a
// butterfly of shuffles (every lane takes part: full subgroups, see subgroup_scan.glsl) and invocation 0
// folds the subgroup states from shared memory in subgroup order (MIN, MAX, the arg functions and
// integer folds: exact in any order). Compiled with CANONICAL_FOLD (reduce_tree_canonical) it runs the
// float sums and products instead: compensated states (value and rounding error, compensated.glsl)
// folded in the canonical association, with no subgroup operation (below).
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

// Whether output o's elements are contiguous in memory: one reduced dimension of stride 1, read from
// the input (uniform).
bool contiguous_line() {
    return !SRC_PARTIALS && LINE_DIMS == 1u && p.dim[REDUCE_D_LINE_STRIDE_IN(KEPT_DIMS, 0u)] == 1u;
}

#if !defined(CANONICAL_FOLD)
// One slot per subgroup: sized for subgroups of a single lane.
shared ACC_T folded_v[gl_WorkGroupSize.x];
shared ACC_T folded_s[IS_LSE ? gl_WorkGroupSize.x : 1u];
shared ACC_T folded_c[COMPENSATED ? gl_WorkGroupSize.x : 1u];
shared uint folded_i[HAS_INDEX ? gl_WorkGroupSize.x : 1u];

State subgroup_fold(State st) {
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        State other;
        other.v = subgroupShuffleXor(st.v, mask);
        other.s = IS_LSE ? subgroupShuffleXor(st.s, mask) : st.s;
        other.c = COMPENSATED ? subgroupShuffleXor(st.c, mask) : st.c;
        other.i = HAS_INDEX ? subgroupShuffleXor(st.i, mask) : st.i;
        other.t = st.t;
        other.k = st.k;
        st = combine(st, other);
    }
    return st;
}

// Independent fold states per invocation on contiguous lines: each takes every LANES-th vector, so
// LANES vector loads are in flight at once and no fold waits on the one before it.
const uint LANES = 4u;

// Folds a contiguous chunk: the elements before the first whole vector and after the last one singly,
// the vectors in between by LANES vector loads at a time (neighbouring invocations on neighbouring
// vectors), each into its own state; the states then combine in a fixed order. (Which elements are
// head, body and tail follows the chunk's alignment: fixed for a given binding, so results are
// bit-identical run to run.)
State fold_contiguous(uint in_base, uint start, uint len, uint t) {
    uint e0 = p.base_in + in_base + start;  // the chunk's first element (modulo 2^32, as every offset)
    uint head = min((VEC_W - e0 % VEC_W) % VEC_W, len);
    uint vectors = (len - head) / VEC_W;
    uint body_end = head + vectors * VEC_W;
    uint v0 = (e0 + head) / VEC_W;
    uint step = gl_WorkGroupSize.x;
    State acc[LANES];
    for (uint u = 0u; u < LANES; ++u) acc[u] = empty_state();
    if (t < head) acc[0] = fold_element(acc[0], load_element(e0 + t), start + t);
    uint v = t;
    for (; v + (LANES - 1u) * step < vectors; v += LANES * step) {
        WIDE_V w[LANES];
        for (uint u = 0u; u < LANES; ++u) w[u] = UNPACK_V(srcv[v0 + v + u * step]);
        for (uint u = 0u; u < LANES; ++u) {
            uint r = start + head + (v + u * step) * VEC_W;
            for (uint k = 0u; k < VEC_W; ++k) acc[u] = fold_element(acc[u], element_value(w[u][k]), r + k);
        }
    }
    for (; v < vectors; v += step) {
        WIDE_V w = UNPACK_V(srcv[v0 + v]);
        uint r = start + head + v * VEC_W;
        for (uint k = 0u; k < VEC_W; ++k) acc[0] = fold_element(acc[0], element_value(w[k]), r + k);
    }
    if (body_end + t < len) acc[1] = fold_element(acc[1], load_element(e0 + body_end + t), start + body_end + t);
    State st = acc[0];
    for (uint u = 1u; u < LANES; ++u) st = combine(st, acc[u]);
    return st;
}

#else
// ---- the canonical fold (CANONICAL_FOLD: float sums and products) ------------------------------------
// A chunk of up to 32^3 leaves (WALK_TOP up to 2) in rounds of ROUND blocks of 32 leaves: each invocation
// folds whole blocks left from the empty state, vector loads where the chunk is contiguous and aligned,
// into shared memory; ROUND / 32 invocations then fold them in nodes of 32 (level 1), and invocation 0
// folds the level-1 totals (level 2). Every total normalized where made: the tree of canonical_walk.glsl,
// never a subgroup operation, whose order would depend on the subgroup size.
const uint ARITY = 32u;
const uint ROUND = gl_WorkGroupSize.x > ARITY ? gl_WorkGroupSize.x : ARITY;  // blocks per round
const uint NODES = ROUND;
const uint UPPER = ARITY;  // level-1 nodes of a chunk
const bool HAS_S = IS_LSE || IS_VAR;
shared ACC_T node_v[NODES];
shared ACC_T node_s[HAS_S ? NODES : 1u];
shared ACC_T node_c[NODES];
shared ACC_T node_t[IS_VAR ? NODES : 1u];  // the variances: S2's compensation and the shift
shared ACC_T node_k[IS_VAR ? NODES : 1u];
shared ACC_T upper_v[UPPER];
shared ACC_T upper_s[HAS_S ? UPPER : 1u];
shared ACC_T upper_c[UPPER];
shared ACC_T upper_t[IS_VAR ? UPPER : 1u];
shared ACC_T upper_k[IS_VAR ? UPPER : 1u];
shared uint node_i[COUNTED ? NODES : 1u];  // the variances, AVERAGE with NanMode::ignore: the counts
shared uint upper_i[COUNTED ? UPPER : 1u];

void put_node(uint i, State st) {
    node_v[i] = st.v;
    if (HAS_S) node_s[i] = st.s;
    node_c[i] = st.c;
    if (IS_VAR) {
        node_t[i] = st.t;
        node_k[i] = st.k;
    }
    if (COUNTED) node_i[i] = st.i;
}
State get_node(uint i) {
    State st = empty_state();
    st.v = node_v[i];
    if (HAS_S) st.s = node_s[i];
    st.c = node_c[i];
    if (IS_VAR) {
        st.t = node_t[i];
        st.k = node_k[i];
    }
    if (COUNTED) st.i = node_i[i];
    return st;
}
void put_upper(uint i, State st) {
    upper_v[i] = st.v;
    if (HAS_S) upper_s[i] = st.s;
    upper_c[i] = st.c;
    if (IS_VAR) {
        upper_t[i] = st.t;
        upper_k[i] = st.k;
    }
    if (COUNTED) upper_i[i] = st.i;
}
State get_upper(uint i) {
    State st = empty_state();
    st.v = upper_v[i];
    if (HAS_S) st.s = upper_s[i];
    st.c = upper_c[i];
    if (IS_VAR) {
        st.t = upper_t[i];
        st.k = upper_k[i];
    }
    if (COUNTED) st.i = upper_i[i];
    return st;
}

// Block b of the chunk of `len` leaves at `start` of output o (base_x: output_base(o).x), folded left from
// the empty state and normalized. `vec`: the chunk is contiguous and its first element aligned.
State fold_canonical_block(uint o, uint base_x, uint start, uint len, uint b, bool vec) {
    State st = empty_state();
    uint first = b * ARITY;
    if (vec && first + ARITY <= len) {
        const uint VECS = ARITY / VEC_W;
        uint v0 = (p.base_in + base_x + start + first) / VEC_W;
        WIDE_V w[VECS];
        for (uint j = 0u; j < VECS; ++j) w[j] = UNPACK_V(srcv[v0 + j]);
        for (uint j = 0u; j < VECS; ++j)
            for (uint k = 0u; k < VEC_W; ++k)
                st = fold_element(st, element_value(w[j][k]), start + first + j * VEC_W + k);
    } else {
        uint n = min(ARITY, len - first);
        for (uint k = 0u; k < n; ++k) st = fold_at(st, o, base_x, start + first + k);
    }
    return state_normalized(st);
}

// The chunk's total (in invocation 0). Whole workgroup.
State fold_canonical_chunk(uint o, uint base_x, uint start, uint len, uint t) {
    bool vec = contiguous_line() && (p.base_in + base_x + start) % VEC_W == 0u;
    // (A chunk of one block too: a node's total of one child is that child, bit for bit, and
    // fold_canonical_block keeps one call site, so that lavapipe compiles one copy of it.)
    uint blocks = (len - 1u) / ARITY + 1u;
    uint rounds = (blocks - 1u) / ROUND + 1u;
    for (uint r = 0u; r < rounds; ++r) {  // uniform
        for (uint i = t; i < ROUND; i += gl_WorkGroupSize.x) {
            uint b = r * ROUND + i;
            if (b < blocks) put_node(i, fold_canonical_block(o, base_x, start, len, b, vec));
        }
        barrier();
        uint first = r * ROUND + t * ARITY;  // this invocation's level-1 node's first block
        if (t < ROUND / ARITY && first < blocks) {
            State st = empty_state();
            uint n = min(ARITY, blocks - first);
            for (uint c = 0u; c < n; ++c) st = combine(st, get_node(t * ARITY + c));
            put_upper(r * (ROUND / ARITY) + t, state_normalized(st));
        }
        barrier();
    }
    if (t != 0u) return empty_state();
    if (WALK_TOP <= 1u) return get_upper(0u);
    State st = empty_state();
    uint n = (blocks - 1u) / ARITY + 1u;
    for (uint c = 0u; c < n; ++c) st = combine(st, get_upper(c));
    return state_normalized(st);
}

#endif

void main() {
    uint id = workgroup_item(p.item_begin, p.item_end);
    if (id == NO_ITEM) return;
    uint chunks = chunk_count();
    uint o = id / chunks;
    uint chunk = id - o * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.n - start);  // never past 2^32 - 1
    uvec2 base = output_base(o);
    uint t = gl_LocalInvocationIndex;

#if defined(CANONICAL_FOLD)
    State root = fold_canonical_chunk(o, base.x, start, len, t);
    if (t == 0u) store_state(o, chunk, base.y, root);
#else
    State st = empty_state();
    if (contiguous_line()) {
        st = fold_contiguous(base.x, start, len, t);
    } else {
        for (uint k = t; k < len; k += gl_WorkGroupSize.x) st = fold_at(st, o, base.x, start + k);
    }

    st = subgroup_fold(st);
    if (gl_SubgroupInvocationID == 0u) {
        folded_v[gl_SubgroupID] = st.v;
        if (IS_LSE) folded_s[gl_SubgroupID] = st.s;
        if (COMPENSATED) folded_c[gl_SubgroupID] = st.c;
        if (HAS_INDEX) folded_i[gl_SubgroupID] = st.i;
    }
    barrier();
    if (t == 0u) {
        // From subgroup 0's state in shared memory: invocation 0 need not be lane 0 of subgroup 0.
        st.v = folded_v[0];
        if (IS_LSE) st.s = folded_s[0];
        if (COMPENSATED) st.c = folded_c[0];
        if (HAS_INDEX) st.i = folded_i[0];
        for (uint k = 1u; k < gl_NumSubgroups; ++k) {
            State other;
            other.v = folded_v[k];
            other.s = IS_LSE ? folded_s[k] : st.s;
            other.c = COMPENSATED ? folded_c[k] : st.c;
            other.i = HAS_INDEX ? folded_i[k] : st.i;
            other.t = st.t;
            other.k = st.k;
            st = combine(st, other);
        }
        store_state(o, chunk, base.y, st);
    }
#endif
}
