#version 460
// Serial chunk scan: one invocation per (fiber, chunk), walking at most chunk_len elements in order.
// Neighbouring invocations take neighbouring fibers, so when the scanned axis is not the innermost in
// memory (outer-axis scans) their loads are coalesced; short inner rows also run best this way.
// MODE_REDUCE folds the chunk into partials[fiber * chunks + chunk] for reduce-then-scan.
#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"

void main() {
    // Items are numbered chunk-major (id = chunk * fibers + fiber); no arithmetic below passes 2^32 - 1.
    uint items = p.item_end - p.item_begin;
    uint group = workgroup_index();
    if (group >= items / gl_WorkGroupSize.x + (items % gl_WorkGroupSize.x != 0u ? 1u : 0u)) return;
    uint first = group * gl_WorkGroupSize.x;
    if (gl_LocalInvocationIndex >= items - first) return;
    uint id = p.item_begin + first + gl_LocalInvocationIndex;
    uint chunk = id / p.fibers;
    uint fiber = id - chunk * p.fibers;
    uint slot = fiber * chunk_count() + chunk;
    uint start = chunk * p.chunk_len;
    uint end = start + min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);

    ACC_T carry = (MODE == MODE_SCAN && HAS_CARRY) ? partials[p.base_part + slot] : identity();
    for (uint k = start; k < end; ++k) {
        uint pos = axis_pos(k);
        ACC_T x = TO_ACC(src[base.x + pos * p.axis_in]);
        ACC_T next = combine(carry, x);
        if (MODE == MODE_SCAN) dst[base.y + pos * p.axis_out] = FROM_ACC(EXCLUSIVE ? carry : next);
        carry = next;
    }
    if (MODE == MODE_REDUCE) partials[p.base_part + slot] = carry;
}
