// The states of a single-pass scan (scan_chained's tiles, scan_canonical_chained's nodes), binding 2:
// 32-bit words seen by other workgroups while this one runs, so coherent and volatile; an accumulator
// value in ACC_WORDS of them (storage_types.glsl). Include after scan_common.glsl, with
// GL_KHR_memory_scope_semantics enabled.
#ifndef TILE_STATES_GLSL
#define TILE_STATES_GLSL

layout(set = 0, binding = 2) coherent volatile buffer TileStates { uint states[]; };

// A barrier that also orders this workgroup's buffer accesses (the states and, in place, the outputs)
// across it: barrier() orders workgroup memory only.
void buffer_barrier() {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
}

void put_acc(uint w, ACC_T a) {
    uvec2 u = acc_bits(a);
    states[w] = u.x;
    if (ACC_WORDS == 2u) states[w + 1u] = u.y;
}
ACC_T get_acc(uint w) {
    uvec2 u = uvec2(states[w], 0u);
    if (ACC_WORDS == 2u) u.y = states[w + 1u];
    return acc_from_bits(u);
}

#endif
