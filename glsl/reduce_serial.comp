#version 460
// Serial chunk fold ("column-wise"): one invocation per (output, chunk), folding at most chunk_len
// elements in index order. Neighbouring invocations take neighbouring outputs, so when the kept
// dimensions are the inner ones in memory (outer-axis reductions) their loads are coalesced; short
// reductions (many tiny outputs) run best this way too.
#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

void main() {
    // Items are numbered chunk-major (id = chunk * outputs + o); no arithmetic below passes 2^32 - 1.
    uint items = p.item_end - p.item_begin;
    uint group = workgroup_index();
    if (group >= items / gl_WorkGroupSize.x + (items % gl_WorkGroupSize.x != 0u ? 1u : 0u)) return;
    uint first = group * gl_WorkGroupSize.x;
    if (gl_LocalInvocationIndex >= items - first) return;
    uint id = p.item_begin + first + gl_LocalInvocationIndex;
    uint outputs = output_count();
    uint chunk = id / outputs;
    uint o = id - chunk * outputs;
    uint start = chunk * p.chunk_len;
    uint end = start + min(p.chunk_len, p.n - start);  // never past 2^32 - 1
    uvec2 base = output_base(o);
    if (FUNCTION == F_COPY) {  // AxisCount 0: the stored bits, NaN payloads and all
        dst[p.base_out + base.y] = src[p.base_in + base.x];
        return;
    }

    State st = load_state(o, base.x, start);
    for (uint r = start + 1u; r < end; ++r) st = combine(st, load_state(o, base.x, r));
    store_state(o, chunk, base.y, st);
}
