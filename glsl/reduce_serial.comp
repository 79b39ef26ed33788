#version 460
// Serial chunk fold ("column-wise"): one invocation per (output, chunk), folding at most chunk_len
// elements in index order. Neighbouring invocations take neighbouring outputs, so when the kept
// dimensions are the inner ones in memory (outer-axis reductions) their loads are coalesced; short
// reductions (many tiny outputs) run best this way too.
#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

void main() {
    uint id = (gl_WorkGroupID.y * p.grid_x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    uint outputs = output_count();
    if (id >= outputs * p.chunks) return;
    uint chunk = id / outputs;
    uint o = id - chunk * outputs;
    uint start = chunk * p.chunk_len;
    uint end = min(start + p.chunk_len, p.n);
    uvec2 base = output_base(o);
    if (FUNCTION == F_COPY) {  // AxisCount 0: the stored bits, NaN payloads and all
        dst[p.base_out + base.y] = src[p.base_in + base.x];
        return;
    }

    State st = load_state(o, base.x, start);
    for (uint r = start + 1u; r < end; ++r) st = combine(st, load_state(o, base.x, r));
    store_state(o, chunk, base.y, st);
}
