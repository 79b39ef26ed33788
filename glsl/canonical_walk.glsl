// Canonical association walk (docs/internals.md, "Determinism"): a float scan or fold whose rounding
// depends on element indices alone. Leaves (elements, or the totals of a lower level) fold left from
// the empty value in nodes of 32; a node's total, normalized, folds into its parent's total and into the
// exclusive prefix of the next sibling. A scan's output at an element is its block's exclusive prefix
// combined with the block's running total (both pairs); at a carry level (leaves that are chunk totals)
// it is the running prefix itself. A chunk is one node (32^(top + 1) leaves) or a whole line, so the
// passes of a plan make the same tree as one walk (tests/oracles/canonical_fold.cpp is the definition).
// One walk per lane: `run` is the scan's value at the last leaf, total[k] and prefix[k] those of the
// open node at level k + 1. Define WALK_LANES and WALK_TOP (the chunk's node level: a constant, so that
// the climbs unroll) first. The walked values are the scans' compensated pairs (after scan_common.glsl's
// combine operation) unless the includer names its own: WALK_T, WALK_EMPTY(), WALK_COMBINE(a, b) and
// WALK_NORMALIZED(a) (a reduction's fold states); WALK_NO_PREFIXES leaves the prefixes and `run` out (a
// fold).
#ifndef CANONICAL_WALK_GLSL
#define CANONICAL_WALK_GLSL

#ifndef WALK_T
#define WALK_T Pair
#define WALK_EMPTY() pair_of(identity())
#define WALK_COMBINE(a, b) combine_pair(a, b)
#define WALK_NORMALIZED(a) run_normalized(a)
#endif

const uint WALK_ARITY = 32u;
const uint WALK_LEVELS = 4u;  // a chunk holds at most 32^4 leaves (the planners keep it so)

WALK_T w_total[WALK_LANES][WALK_LEVELS];
#ifndef WALK_NO_PREFIXES
WALK_T w_run[WALK_LANES];
WALK_T w_prefix[WALK_LANES][WALK_LEVELS];
#endif

// A lane's walk from `start`: the chunk's exclusive prefix (its carry), or the empty value. (Every loop
// over levels is unrolled with constant indices, so that a driver keeps the state in registers.)
void walk_begin(uint lane, WALK_T start) {
#ifndef WALK_NO_PREFIXES
    w_run[lane] = start;
#endif
    [[unroll]] for (uint k = 0u; k < WALK_LEVELS; ++k) {
        w_total[lane][k] = WALK_EMPTY();
#ifndef WALK_NO_PREFIXES
        w_prefix[lane][k] = start;
#endif
    }
}

// After `count` leaves of the chunk (a multiple of 32): close every node below WALK_TOP that ends there
// (level k + 1's where 32^(k + 1) divides count). Its total joins its parent's and its next sibling's
// prefix; the levels below the highest one closed start from that prefix, and so does the scan.
void walk_climb(uint lane, uint count) {
    uint closed = 0u;
    uint span = WALK_ARITY;
    [[unroll]] for (uint k = 0u; k + 1u < WALK_LEVELS; ++k) {
        if (k < WALK_TOP && count % span == 0u) {
            WALK_T done = WALK_NORMALIZED(w_total[lane][k]);
            w_total[lane][k] = WALK_EMPTY();
#ifndef WALK_NO_PREFIXES
            w_prefix[lane][k] = WALK_NORMALIZED(WALK_COMBINE(w_prefix[lane][k], done));
#endif
            w_total[lane][k + 1u] = WALK_COMBINE(w_total[lane][k + 1u], done);
            closed = k + 1u;
        }
        span *= WALK_ARITY;
    }
#ifndef WALK_NO_PREFIXES
    [[unroll]] for (uint k = WALK_LEVELS - 1u; k-- > 0u;)
        if (k + 1u < closed) w_prefix[lane][k] = w_prefix[lane][k + 1u];
    if (closed > 0u) w_run[lane] = w_prefix[lane][0];
#endif
}

// The total of a chunk of `count` leaves: the open nodes closed upwards.
WALK_T walk_finish(uint lane, uint count) {
    uint span = WALK_ARITY;
    [[unroll]] for (uint k = 0u; k + 1u < WALK_LEVELS; ++k) {
        if (k < WALK_TOP && count % span != 0u)
            w_total[lane][k + 1u] = WALK_COMBINE(w_total[lane][k + 1u], WALK_NORMALIZED(w_total[lane][k]));
        span *= WALK_ARITY;
    }
    return WALK_NORMALIZED(w_total[lane][WALK_TOP]);
}

#endif
