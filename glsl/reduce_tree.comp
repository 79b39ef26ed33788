#version 460
// Cooperative chunk fold (tree reduction): one workgroup per (output, chunk). Invocation t folds
// elements start + t, start + t + WG_SIZE, ... (contiguous loads across the workgroup when the reduced
// dimensions are the inner ones in memory); each subgroup then folds its invocations' states by a
// butterfly of shuffles and invocation 0 folds the subgroup states in subgroup order. The
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
    for (uint k = t; k < len; k += gl_WorkGroupSize.x) st = fold_at(st, o, base.x, start + k);

    st = subgroup_fold(st);
    if (gl_SubgroupInvocationID == 0u) {
        folded_v[gl_SubgroupID] = st.v;
        if (IS_LSE) folded_s[gl_SubgroupID] = st.s;
        if (COMPENSATED) folded_c[gl_SubgroupID] = st.c;
        if (IS_ARG) folded_i[gl_SubgroupID] = st.i;
    }
    barrier();
    if (t == 0u) {
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
