#version 460
// Single-pass chained scan with decoupled look-back and a fallback (Merrill & Garland's decoupled
// look-back as in CUB's agent_scan; the fallback of Smith, Levien & Owens, "Decoupled Fallback", SPAA
// 2025, as in GPUPrefixSums; docs/internals.md). Each workgroup takes the next tile from a counter, so
// tiles start in order; scans it in registers; publishes its aggregate; finds the combine of every tile
// before it in its fiber by looking back at their states; publishes its inclusive prefix; writes its
// outputs. The elements are read once and written once.
//
// Vulkan promises no forward progress between workgroups, so nothing waits unboundedly: a predecessor
// with no state after SPIN_LIMIT reads is reduced here from its input (the fallback), which gives the
// same aggregate bits as its owner's, and published (in place too: see look_back). Every loop is bounded (lavapipe ends loops after
// 65,535 trips).
//
// Determinism: the look-back only finds where the nearest inclusive prefix is; the prefix is then folded
// forward from it over the aggregates in tile order. By induction every inclusive prefix is the same
// left-to-right fold of the aggregates, whichever states a look-back happened to see, so float results
// are bit-identical run to run.
//
// A tile: each invocation scans ROUNDS vectors of VEC_W neighbouring elements serially (one vector load
// where the fiber is contiguous and aligned); a subgroup scan over the invocations' totals (one per vector,
// not per element); the subgroups' totals in shared memory, scanned by the first subgroup in (round,
// subgroup) order. Floats are compensated pairs throughout (compensated.glsl). MODE_CLEAR (a pass before
// the scan) zeroes the tile states. Lines of a single tile (rows of 1,024, say) skip the states: one
// workgroup per line, one pass, nothing published.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

#extension GL_GOOGLE_include_directive : require
#include "scan_common.glsl"
#include "subgroup_scan.glsl"

const uint ROUNDS = VEC_K + (VEC_K == 0u ? 1u : 0u);  // vectors per invocation per tile (at least 1)
const uint MODE_CLEAR = SCAN_MODE_CLEAR;
const uint FLAG_AGGREGATE = 1u, FLAG_INCLUSIVE = 2u;  // 0: nothing published yet
// Flag reads before a silent predecessor is reduced here instead (the policy's; 0 in tests that force
// the fallback on every predecessor).
layout(constant_id = SCAN_SPEC_SPIN_LIMIT) const uint SPIN_LIMIT = 64u;
#if defined(STORAGE_F64) || defined(STORAGE_U64)
const uint ACC_WORDS = 2u;
#else
const uint ACC_WORDS = 1u;
#endif
#if defined(ACC_IS_FLOAT)
const uint SLOT = 2u * ACC_WORDS;  // words of a published value: a compensated pair
#else
const uint SLOT = ACC_WORDS;
#endif

// The tile states (kernel_abi.h): seen by other workgroups while this one runs, so coherent and volatile.
layout(set = 0, binding = 2) coherent volatile buffer TileStates { uint states[]; };

const uint SEGMENTS = ROUNDS * (gl_WorkGroupSize.x / SCAN_CHAINED_MIN_SUBGROUP);
shared ACC_T segment_hi[SEGMENTS];  // (round, subgroup) totals, then their exclusive scan
#if defined(ACC_IS_FLOAT)
shared ACC_T segment_lo[SEGMENTS];
#endif
shared ACC_T total_hi, total_lo;  // the tile's aggregate, then the prefix before it
shared uint shared_word;          // the tile number, then each look-back step's flag

ACC_T xs[ROUNDS * VEC_W];  // this invocation's elements of the tile
Pair lane_before[ROUNDS];  // per round: the combine of the subgroup's earlier lanes

void put_segment(uint i, Pair a) {
    segment_hi[i] = a.hi;
#if defined(ACC_IS_FLOAT)
    segment_lo[i] = a.lo;
#endif
}
Pair get_segment(uint i) {
#if defined(ACC_IS_FLOAT)
    return Pair(segment_hi[i], segment_lo[i]);
#else
    return pair_of(segment_hi[i]);
#endif
}

// ---- tile states ------------------------------------------------------------------------------
uint items() { return p.item_end; }  // the pass is one dispatch of every item (scan_plan.cpp)
uint state_word(uint w) { return p.base_part + w; }

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
// Values travel as they are (not normalized): a prefix read back has the bits its writer combined.
void put_value(uint w, Pair a) {
    put_acc(w, a.hi);
#if defined(ACC_IS_FLOAT)
    put_acc(w + ACC_WORDS, a.lo);
#endif
}
Pair get_value(uint w) {
#if defined(ACC_IS_FLOAT)
    return Pair(get_acc(w), get_acc(w + ACC_WORDS));
#else
    return pair_of(get_acc(w));
#endif
}
uint aggregate_word(uint item) { return state_word(SCAN_CHAINED_AGGREGATE_WORD(items(), SLOT, item)); }
uint inclusive_word(uint item) { return state_word(SCAN_CHAINED_INCLUSIVE_WORD(items(), SLOT, item)); }
uint flag_word(uint item) { return state_word(SCAN_CHAINED_FLAG_WORD(item)); }

// Publishes a value and then its flag (one invocation). Flags only rise: a fallback's aggregate never
// lowers an inclusive prefix already there, and it has the owner's bits.
void publish(uint item, uint flag, Pair value) {
    put_value(flag == FLAG_INCLUSIVE ? inclusive_word(item) : aggregate_word(item), value);
    memoryBarrierBuffer();
    atomicMax(states[flag_word(item)], flag);
    memoryBarrierBuffer();  // the flag before anything this invocation writes later
}

// ---- one tile ---------------------------------------------------------------------------------
// Whether the tile's elements load and store as whole vectors: contiguous, forward, aligned (uniform).
bool vector_io(uvec2 base, uint start) {
    return !REVERSE && source_axis_stride() == 1u && p.axis_out == 1u && (base.x + start) % VEC_W == 0u &&
           (base.y + start) % VEC_W == 0u;
}

// Position (relative to the tile's start) of element v of this invocation's vector in round r.
uint position(uint r, uint v) {
    return ((r * gl_NumSubgroups + gl_SubgroupID) * gl_SubgroupSize + gl_SubgroupInvocationID) * VEC_W + v;
}

void load_round(uint r, uvec2 base, uint start, uint len, bool vec) {
    uint k0 = position(r, 0u);
    if (vec && k0 + VEC_W <= len) {
        WIDE_V w = UNPACK_V(source_vector((base.x + start + k0) / VEC_W));
        for (uint v = 0u; v < VEC_W; ++v) xs[r * VEC_W + v] = TO_ACC(w[v]);
    } else {
        for (uint v = 0u; v < VEC_W; ++v) {
            uint k = k0 + v;
            xs[r * VEC_W + v] =
                k < len ? source_element(base.x + axis_pos(start + k) * source_axis_stride()) : identity();
        }
    }
}

// Loads the tile of `len` elements at `start` into xs and scans it: lane_before per round, the
// segments' exclusive scan in shared memory. Returns the tile's aggregate. Whole workgroup; it ends at
// a barrier after which shared memory holds this tile's scan.
Pair scan_local(uvec2 base, uint start, uint len) {
    bool vec = vector_io(base, start);
    for (uint r = 0u; r < ROUNDS; ++r) {
        load_round(r, base, start, len, vec);
        Pair own = pair_of(identity());
        for (uint v = 0u; v < VEC_W; ++v) own = combine_value(own, xs[r * VEC_W + v]);
        SubgroupScan s = subgroup_scan_pair(own);
        lane_before[r] = s.exclusive;
        if (gl_SubgroupInvocationID == 0u) put_segment(r * gl_NumSubgroups + gl_SubgroupID, s.total);
    }
    barrier();
    if (gl_SubgroupID == 0u) {
        uint count = ROUNDS * gl_NumSubgroups;
        Pair run = pair_of(identity());
        for (uint b = 0u; b < count; b += gl_SubgroupSize) {
            uint e = b + gl_SubgroupInvocationID;
            SubgroupScan s = subgroup_scan_pair(e < count ? get_segment(e) : pair_of(identity()));
            if (e < count) put_segment(e, combine_pair(run, s.exclusive));
            run = combine_pair(run, s.total);
        }
        if (gl_SubgroupInvocationID == 0u) {
            total_hi = run.hi;
            total_lo = run.lo;
        }
    }
    barrier();
    return Pair(total_hi, total_lo);
}

// ---- look-back ----------------------------------------------------------------------------------
// The combine of the tiles before `chunk` in its fiber (`first` is the fiber's first item). Whole
// workgroup; sets `reused` when a fallback overwrote this tile's scan in registers and shared memory.
Pair look_back(uvec2 base, uint first, uint chunk, inout bool reused) {
    uint t = gl_LocalInvocationIndex;
    uint j = chunk;
    bool found = false;
    while (j > 0u) {  // at most `chunk` trips
        --j;
        if (t == 0u) {
            uint f = 0u;
            for (uint s = 0u; s < SPIN_LIMIT && f == 0u; ++s) f = atomicOr(states[flag_word(first + j)], 0u);
            shared_word = f;
        }
        barrier();
        uint f = shared_word;
        barrier();  // shared_word is written again on the next trip
        if (f == FLAG_INCLUSIVE) {
            found = true;
            break;
        }
        if (f == 0u) {
            // The fallback: reduce tile j here. Its flag is read again after the loads: still nothing
            // means its owner had not published, so had not yet written its outputs over its input
            // either (in place), and the aggregate is right; else the owner's state is used.
            uint start = j * p.chunk_len;
            Pair aggregate = scan_local(base, start, min(p.chunk_len, p.len - start));
            reused = true;
            memoryBarrierBuffer();  // every invocation's loads of tile j before the flag is read again
            barrier();
            if (t == 0u) {
                memoryBarrierBuffer();
                uint g = atomicOr(states[flag_word(first + j)], 0u);
                if (g == 0u) publish(first + j, FLAG_AGGREGATE, aggregate);
                shared_word = g;
            }
            barrier();
            f = shared_word;
            barrier();  // shared_word and shared memory are reused
            if (f == FLAG_INCLUSIVE) {
                found = true;
                break;
            }
        }
    }
    // Fold forward in tile order from the inclusive prefix found (or from the fiber's start).
    if (t == 0u) {
        memoryBarrierBuffer();
        Pair run = found ? get_value(inclusive_word(first + j)) : pair_of(identity());
        for (uint k = found ? j + 1u : 0u; k < chunk; ++k) run = combine_pair(run, get_value(aggregate_word(first + k)));
        total_hi = run.hi;
        total_lo = run.lo;
    }
    barrier();
    return Pair(total_hi, total_lo);
}

// ---- outputs -------------------------------------------------------------------------------------
void store_round(uint r, uvec2 base, uint start, uint len, bool vec, Pair before) {
    uint k0 = position(r, 0u);
    Pair run = before;
    Pair out_values[VEC_W];
    for (uint v = 0u; v < VEC_W; ++v) {
        Pair next = combine_value(run, xs[r * VEC_W + v]);
        out_values[v] = EXCLUSIVE ? exclusive_value(run, start + k0 + v) : next;
        run = next;
    }
    if (vec && k0 + VEC_W <= len) {
        WIDE_V w;
        for (uint v = 0u; v < VEC_W; ++v) w[v] = FROM_ACC_WIDE(pair_value(out_values[v]));
        dstv[(base.y + start + k0) / VEC_W] = PACK_V(w);
    } else {
        for (uint v = 0u; v < VEC_W; ++v)
            if (k0 + v < len) store_element(base.y + axis_pos(start + k0 + v) * p.axis_out, out_values[v]);
    }
}

// Zeroes words [0, len) of the states: the pass is one dispatch from item 0 (scan_plan.cpp), so the
// workgroup index is the item.
void clear_states() {
    uint w = workgroup_index() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
    if (w < p.len) states[state_word(w)] = 0u;
}

void main() {
    if (MODE == MODE_CLEAR) {
        clear_states();
        return;
    }
    if (workgroup_index() >= p.item_end - p.item_begin) return;  // uniform
    uint t = gl_LocalInvocationIndex;
    uint chunks = chunk_count();
    // Lines of one tile need no states (the partials are not bound): the workgroup's own item.
    uint id = workgroup_item(p.item_begin, p.item_end);
    if (chunks > 1u) {
        if (t == 0u) shared_word = atomicAdd(states[state_word(0u)], 1u);
        barrier();
        id = p.item_begin + shared_word;
        barrier();  // shared_word is reused by the look-back
    }
    uint fiber = id / chunks;
    uint chunk = id - fiber * chunks;
    uint start = chunk * p.chunk_len;
    uint len = min(p.chunk_len, p.len - start);
    uvec2 base = fiber_base(fiber);

    Pair aggregate = scan_local(base, start, len);
    Pair prefix = pair_of(identity());
    if (chunks > 1u && chunk == 0u) {
        if (t == 0u) publish(id, FLAG_INCLUSIVE, combine_pair(prefix, aggregate));
    } else if (chunks > 1u) {
        if (t == 0u) publish(id, FLAG_AGGREGATE, aggregate);
        bool reused = false;
        prefix = look_back(base, id - chunk, chunk, reused);
        if (t == 0u) publish(id, FLAG_INCLUSIVE, combine_pair(prefix, aggregate));
        if (reused) scan_local(base, start, len);  // this tile's scan again
    }
    // In place, no output may overwrite the input before the tile's state is published: a fallback that
    // reads this tile's input relies on it (look_back). (Other tiles published their aggregate before
    // the look-back's barriers; this orders the first tile of a fiber.)
    if (IN_PLACE && chunks > 1u) barrier();
    bool vec = vector_io(base, start);
    for (uint r = 0u; r < ROUNDS; ++r) {
        Pair before = combine_pair(combine_pair(prefix, get_segment(r * gl_NumSubgroups + gl_SubgroupID)),
                                   lane_before[r]);
        store_round(r, base, start, len, vec, before);
    }
}
