// The states of a single-pass scan (scan_chained's tiles, scan_canonical_chained's nodes), binding 2:
// 32-bit words seen by other workgroups while this one runs, so coherent and volatile; an accumulator
// value in ACC_WORDS of them. Include after scan_common.glsl, with GL_KHR_memory_scope_semantics enabled.
#ifndef TILE_STATES_GLSL
#define TILE_STATES_GLSL

layout(set = 0, binding = 2) coherent volatile buffer TileStates { uint states[]; };

#if defined(STORAGE_F64) || defined(STORAGE_U64)
const uint ACC_WORDS = 2u;
#else
const uint ACC_WORDS = 1u;
#endif

// A barrier that also orders this workgroup's buffer accesses (the states and, in place, the outputs)
// across it: barrier() orders workgroup memory only.
void buffer_barrier() {
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
}

void put_acc(uint w, ACC_T a) {
#if defined(STORAGE_F64)
    uvec2 u = unpackDouble2x32(a);
    states[w] = u.x;
    states[w + 1u] = u.y;
#elif defined(STORAGE_U64)
    uvec2 u = unpack32(a);
    states[w] = u.x;
    states[w + 1u] = u.y;
#elif defined(ACC_IS_FLOAT)
    states[w] = floatBitsToUint(a);
#else
    states[w] = a;
#endif
}
ACC_T get_acc(uint w) {
#if defined(STORAGE_F64)
    return packDouble2x32(uvec2(states[w], states[w + 1u]));
#elif defined(STORAGE_U64)
    return pack64(uvec2(states[w], states[w + 1u]));
#elif defined(ACC_IS_FLOAT)
    return uintBitsToFloat(states[w]);
#else
    return states[w];
#endif
}

#endif
