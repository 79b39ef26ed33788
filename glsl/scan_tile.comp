#version 460
// Cooperative chunk scan: one workgroup per (fiber, chunk). The chunk is walked in tiles of
// WG_SIZE * ITEMS elements; each subgroup owns a contiguous segment of the tile, which it scans with
// ITEMS subgroup-wide steps (contiguous loads, subgroup inclusive/exclusive scan, running segment
// total). Segment totals meet in shared memory and are combined in subgroup order into the chunk's
// carry, compensated for floats (compensated.glsl: the carry runs over the whole chunk, a segment's
// ITEMS·subgroup elements do not), so the float summation (or multiplication) order is fixed
// (bit-identical run to run). MODE_REDUCE instead folds the chunk into one value (a pair for floats)
// in partials[fiber * chunks + chunk], the first pass of reduce-then-scan for long fibers.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"

const uint ITEMS = 4u;

shared ACC_T segment_total[gl_WorkGroupSize.x];  // one per subgroup; sized for subgroups of a single lane

ACC_T subgroup_inclusive(ACC_T x) { return OP == 0u ? subgroupInclusiveAdd(x) : subgroupInclusiveMul(x); }
ACC_T subgroup_exclusive(ACC_T x) { return OP == 0u ? subgroupExclusiveAdd(x) : subgroupExclusiveMul(x); }
ACC_T subgroup_total(ACC_T x) { return OP == 0u ? subgroupAdd(x) : subgroupMul(x); }

void main() {
    // Items are numbered fiber-major (id = fiber * chunks + chunk); positions are kept relative to
    // the chunk start, so nothing below passes 2^32 - 1.
    uint group = workgroup_index();
    if (group >= p.item_end - p.item_begin) return;  // uniform across the workgroup
    uint id = p.item_begin + group;
    uint chunks = chunk_count();
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);

    uint segment_len = gl_SubgroupSize * ITEMS;
    uint tile_len = gl_WorkGroupSize.x * ITEMS;
    uint tiles = (len - 1u) / tile_len + 1u;
    // The carry across segments and tiles runs long: it is compensated (float types).
    Pair carry = (MODE == MODE_SCAN && HAS_CARRY && chunk > 0u) ? load_partial(p.base_part + id) : pair_of(identity());

    for (uint tile = 0u; tile < tiles; ++tile) {
        uint seg = tile * tile_len + gl_SubgroupID * segment_len + gl_SubgroupInvocationID;
        ACC_T run = identity();
        ACC_T y[ITEMS];
        for (uint j = 0u; j < ITEMS; ++j) {
            uint k = seg + j * gl_SubgroupSize;  // relative to start
            ACC_T x = k < len ? TO_ACC(src[base.x + axis_pos(start + k) * p.axis_in]) : identity();
            if (MODE == MODE_SCAN) {
                ACC_T s = EXCLUSIVE ? subgroup_exclusive(x) : subgroup_inclusive(x);
                y[j] = combine(run, s);
            }
            run = combine(run, subgroup_total(x));
        }
        if (subgroupElect()) segment_total[gl_SubgroupID] = run;
        barrier();
        Pair before = carry;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            if (s == gl_SubgroupID) before = carry;
            carry = combine_value(carry, segment_total[s]);
        }
        barrier();
        if (MODE == MODE_SCAN) {
            for (uint j = 0u; j < ITEMS; ++j) {
                uint k = seg + j * gl_SubgroupSize;
                Pair value = combine_value(before, y[j]);
                if (EXCLUSIVE) value = exclusive_value(value, start + k);
                if (k < len) dst[base.y + axis_pos(start + k) * p.axis_out] = stored_value(value);
            }
        }
    }
    if (MODE == MODE_REDUCE && gl_LocalInvocationIndex == 0u) store_partial(p.base_part + id, carry);
}
