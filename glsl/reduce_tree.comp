#version 460
// Cooperative chunk fold (tree reduction): one workgroup per (output, chunk). Where the chunk is
// contiguous in memory, invocation t folds vectors t, t + WG_SIZE, ... into LANES independent states,
// LANES vector loads in flight at once (16 bytes for 32- and 64-bit types, 8 for 16-bit, 4 for 8-bit:
// narrow types as packed words; fold_contiguous); elsewhere elements start + t, start + t +
// WG_SIZE, ... one at a time. Each subgroup then folds its invocations' states by a
// butterfly of shuffles (every lane takes part: full subgroups, see subgroup_scan.glsl) and invocation 0
// folds the subgroup states from shared memory in subgroup order. The
// order is fixed, so float results are bit-identical run to run; float sums and products fold
// compensated states (value and rounding error, compensated.glsl) at every step.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

// One slot per subgroup: sized for subgroups of a single lane.
shared ACC_T folded_v[gl_WorkGroupSize.x];
shared ACC_T folded_s[IS_LSE ? gl_WorkGroupSize.x : 1u];
shared ACC_T folded_c[COMPENSATED ? gl_WorkGroupSize.x : 1u];
shared uint folded_i[IS_ARG ? gl_WorkGroupSize.x : 1u];

State subgroup_fold(State st) {
    for (uint mask = 1u; mask < gl_SubgroupSize; mask <<= 1u) {
        State other;
        other.v = subgroupShuffleXor(st.v, mask);
        other.s = IS_LSE ? subgroupShuffleXor(st.s, mask) : st.s;
        other.c = COMPENSATED ? subgroupShuffleXor(st.c, mask) : st.c;
        other.i = IS_ARG ? subgroupShuffleXor(st.i, mask) : st.i;
        st = combine(st, other);
    }
    return st;
}

// Independent fold states per invocation on contiguous lines: each takes every LANES-th vector, so
// LANES vector loads are in flight at once and no fold waits on the one before it.
const uint LANES = 4u;

// Whether output o's elements are contiguous in memory: one reduced dimension of stride 1, read from
// the input (uniform).
bool contiguous_line() {
    return !SRC_PARTIALS && LINE_DIMS == 1u && p.dim[REDUCE_D_LINE_STRIDE_IN(KEPT_DIMS, 0u)] == 1u;
}

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
        if (IS_ARG) folded_i[gl_SubgroupID] = st.i;
    }
    barrier();
    if (t == 0u) {
        // From subgroup 0's state in shared memory: invocation 0 need not be lane 0 of subgroup 0.
        st.v = folded_v[0];
        if (IS_LSE) st.s = folded_s[0];
        if (COMPENSATED) st.c = folded_c[0];
        if (IS_ARG) st.i = folded_i[0];
        for (uint k = 1u; k < gl_NumSubgroups; ++k) {
            State other;
            other.v = folded_v[k];
            other.s = IS_LSE ? folded_s[k] : st.s;
            other.c = COMPENSATED ? folded_c[k] : st.c;
            other.i = IS_ARG ? folded_i[k] : st.i;
            st = combine(st, other);
        }
        store_state(o, chunk, base.y, st);
    }
}
