#version 460
// Cooperative chunk scan: one workgroup per (fiber, chunk). The chunk is walked in tiles of
// WG_SIZE * ITEMS elements; each subgroup owns a contiguous segment of the tile, which it scans with
// ITEMS subgroup-wide steps (contiguous loads, subgroup inclusive/exclusive scan, running segment
// total). Segment totals meet in shared memory and are combined in subgroup order into the chunk's
// carry, so the float summation (or multiplication) order is fixed (bit-identical run to run).
// Float scans are compensated at every step (compensated.glsl): the subgroup scan is a Hillis-Steele
// scan of (value, error) pairs over shuffles, and segment totals, carry and outputs are pairs rounded
// once; integer scans use the subgroup arithmetic built-ins (exact). MODE_REDUCE instead folds the
// chunk into one value (a pair for floats) in partials[fiber * chunks + chunk], the first pass of
// reduce-then-scan for long fibers.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"
#include "subgroup_scan.glsl"

const uint ITEMS = SCAN_TILE_ITEMS;

// One per subgroup; sized for subgroups of a single lane.
shared ACC_T segment_hi[gl_WorkGroupSize.x];
shared ACC_T segment_lo[gl_WorkGroupSize.x];

void main() {
    // Positions are kept relative to the chunk start, so nothing below passes 2^32 - 1.
    uint id = workgroup_item(p.item_begin, p.item_end);
    if (id == NO_ITEM) return;
    uint chunks = chunk_count();
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);

    uint segment_len = gl_SubgroupSize * ITEMS;
    uint tile_len = gl_WorkGroupSize.x * ITEMS;
    uint tiles = (len - 1u) / tile_len + 1u;
    Pair carry =
        (MODE == MODE_SCAN && HAS_CARRY && chunk > 0u) ? load_partial(p.base_part + id) : pair_of(identity());

    for (uint tile = 0u; tile < tiles; ++tile) {
        uint seg = tile * tile_len + gl_SubgroupID * segment_len + gl_SubgroupInvocationID;
        Pair run = pair_of(identity());
        Pair y[ITEMS];
        for (uint j = 0u; j < ITEMS; ++j) {
            uint k = seg + j * gl_SubgroupSize;  // relative to start
            ACC_T loaded = source_element(base.x + axis_pos(start + min(k, len - 1u)) * source_axis_stride());
            ACC_T none = identity();
            ACC_T x = k < len ? loaded : none;  // a select: every lane reaches the subgroup scan
            SubgroupScan s = subgroup_scan(x);
            if (MODE == MODE_SCAN) y[j] = combine_pair(run, EXCLUSIVE ? s.exclusive : s.inclusive);
            run = combine_pair(run, s.total);
        }
        if (subgroupElect()) {
            segment_hi[gl_SubgroupID] = run.hi;
            segment_lo[gl_SubgroupID] = run.lo;
        }
        barrier();
        Pair before = carry;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            if (s == gl_SubgroupID) before = carry;
            carry = combine_pair(carry, Pair(segment_hi[s], segment_lo[s]));
        }
        barrier();
        if (MODE == MODE_SCAN) {
            for (uint j = 0u; j < ITEMS; ++j) {
                uint k = seg + j * gl_SubgroupSize;
                Pair value = combine_pair(before, y[j]);
                if (EXCLUSIVE) value = exclusive_value(value, start + k);
                if (k < len) store_element(base.y + axis_pos(start + k) * p.axis_out, value);
            }
        }
    }
    if (MODE == MODE_REDUCE && gl_LocalInvocationIndex == 0u) store_partial(p.base_part + id, carry);
}
