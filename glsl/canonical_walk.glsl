// Canonical association walk (docs/internals.md, "Determinism"): a float scan or fold whose rounding
// depends on element indices alone. Leaves (elements, or the totals of a lower level) fold left from
// the empty pair in nodes of 32; a node's total, normalized, folds into its parent's total and into the
// exclusive prefix of the next sibling. A scan's output at an element is its block's exclusive prefix
// combined with the block's running total (both pairs); at a carry level (leaves that are chunk totals)
// it is the running prefix itself. A chunk is one node (32^(top + 1) leaves) or a whole line, so the
// passes of a plan make the same tree as one walk (tests/oracles/canonical_fold.cpp is the definition).
// One walk per lane: `run` is the scan's value at the last leaf, total[k] and prefix[k] those of the
// open node at level k + 1. Include after the combine operation (scan_common.glsl); define WALK_LANES
// and WALK_TOP (the chunk's node level: a constant, so that the climbs unroll) first.
#ifndef CANONICAL_WALK_GLSL
#define CANONICAL_WALK_GLSL

const uint WALK_ARITY = 32u;
const uint WALK_LEVELS = 4u;  // a chunk holds at most 32^4 leaves (the planners keep it so)

Pair w_run[WALK_LANES];
Pair w_total[WALK_LANES][WALK_LEVELS];
Pair w_prefix[WALK_LANES][WALK_LEVELS];

// A lane's walk from `start`: the chunk's exclusive prefix (its carry), or the identity. (Every loop over
// levels is unrolled with constant indices, so that a driver keeps the state in registers.)
void walk_begin(uint lane, Pair start) {
    w_run[lane] = start;
    [[unroll]] for (uint k = 0u; k < WALK_LEVELS; ++k) {
        w_total[lane][k] = pair_of(identity());
        w_prefix[lane][k] = start;
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
            Pair done = pair_normalized(w_total[lane][k]);
            w_total[lane][k] = pair_of(identity());
            w_prefix[lane][k] = pair_normalized(combine_pair(w_prefix[lane][k], done));
            w_total[lane][k + 1u] = combine_pair(w_total[lane][k + 1u], done);
            closed = k + 1u;
        }
        span *= WALK_ARITY;
    }
    [[unroll]] for (uint k = WALK_LEVELS - 1u; k-- > 0u;)
        if (k + 1u < closed) w_prefix[lane][k] = w_prefix[lane][k + 1u];
    if (closed > 0u) w_run[lane] = w_prefix[lane][0];
}

// The total of a chunk of `count` leaves: the open nodes closed upwards.
Pair walk_finish(uint lane, uint count) {
    uint span = WALK_ARITY;
    [[unroll]] for (uint k = 0u; k + 1u < WALK_LEVELS; ++k) {
        if (k < WALK_TOP && count % span != 0u)
            w_total[lane][k + 1u] = combine_pair(w_total[lane][k + 1u], pair_normalized(w_total[lane][k]));
        span *= WALK_ARITY;
    }
    return pair_normalized(w_total[lane][WALK_TOP]);
}

#endif
