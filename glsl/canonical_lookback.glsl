// The canonical single pass's look-back (scan_canonical_tile.comp with CANONICAL_CHAINED; docs/internals.md,
// "The canonical single pass"). Nodes by rank: rank 0 are the level-2 nodes (32^2 elements, a tile holds
// NODES of them), a rank-(r + 1) node is 32 of rank r. T_r(i), a node's total, is the left fold of its
// children's totals from the empty pair, normalized; P_r(i), its prefix, is its parent's prefix for a
// first child, else P_r(i - 1) combined with T_r(i - 1), normalized. So the prefix of a node follows from
// ANY earlier sibling's prefix and the totals between, with the same bits: a tile climbs from its first
// node to the nearest rank where a sibling (or the ancestor itself) has published its prefix, or to a
// first child of the line, and folds the totals back down. It waits on totals only, never on a prefix:
// a total depends on the local phase of the tiles under it, so no chain runs from tile to tile.
// Each entry has one writer: its total the tile that closes the node (rank 0: the tile holding it), its
// prefix the tile holding its first element (rank 0: every node of a tile, so that the next tile folds
// one total from its predecessor's last node). A total that does not come within SPIN_LIMIT flag reads is
// computed here from its children, published or from the input (Vulkan promises no forward progress; a
// lavapipe loop ends after 65,535 trips): the same bits. Every loop is bounded.
#ifndef CANONICAL_LOOKBACK_GLSL
#define CANONICAL_LOOKBACK_GLSL

#include "tile_states.glsl"  // the states (kernel_abi.h), buffer_barrier, put_acc, get_acc
layout(constant_id = SCAN_SPEC_SPIN_LIMIT) const uint SPIN_LIMIT = 64u;  // 0: tests forcing every fallback

const uint MAX_RANKS = SCAN_CANONICAL_MAX_RANKS;
const uint TOTAL = SCAN_CANONICAL_TOTAL, PREFIX = SCAN_CANONICAL_PREFIX;
const uint SLOT = 2u * ACC_WORDS;  // a pair
// A fallback's trips at most: the nodes under a rank-(MAX_RANKS - 1) node, all ranks.
const uint FALLBACK_TRIPS = ARITY * ARITY * ARITY + ARITY * ARITY + ARITY + 1u;

shared ACC_T got_hi[ARITY], got_lo[ARITY];  // gathered totals
shared uint got_missing[ARITY];
shared uint got_missing_count;
shared uint look_word;                   // a flag or a found sibling, for the whole workgroup
shared ACC_T share_hi, share_lo;         // a pair for the whole workgroup
shared ACC_T spare_hi[ARITY], spare_lo[ARITY];  // a fallback's block totals

// The fiber's entries: per rank, its first entry (fiber-relative) and the ranks with entries.
uint g_entries_all;  // every fiber's entries
uint g_fiber_first;  // this fiber's first entry
uint g_rank_first[MAX_RANKS];
uint g_ranks;
bool g_xs_clobbered = false;  // a fallback loaded blocks into xs

void states_layout(uint fiber, uint fibers) {
    uint n = (p.len - 1u) / SCAN_CANONICAL_RANK0 + 1u, e = 0u;
    g_ranks = 0u;
    [[unroll]] for (uint r = 0u; r < MAX_RANKS; ++r) {
        g_rank_first[r] = e;
        if (n > 1u) {
            e += n;
            g_ranks = r + 1u;
        }
        n = (n - 1u) / ARITY + 1u;
    }
    g_entries_all = e * fibers;
    g_fiber_first = e * fiber;
}
uint entry(uint r, uint i) { return g_fiber_first + g_rank_first[r] + i; }
uint flag_word(uint e) { return p.base_part + SCAN_CANONICAL_FLAG_WORD(e); }
uint total_word(uint e) { return p.base_part + SCAN_CANONICAL_TOTAL_WORD(g_entries_all, SLOT, e); }
uint prefix_word(uint e) { return p.base_part + SCAN_CANONICAL_PREFIX_WORD(g_entries_all, SLOT, e); }

Pair get_value(uint w) { return Pair(get_acc(w), get_acc(w + ACC_WORDS)); }
void put_value(uint w, Pair a) {
    put_acc(w, a.hi);
    put_acc(w + ACC_WORDS, a.lo);
}
// Publishes a value and then its flag bit (one invocation; the slot's only writer).
void publish(uint e, uint word, uint bit, Pair value) {
    put_value(word, value);
    memoryBarrierBuffer();
    atomicOr(states[flag_word(e)], bit);
    memoryBarrierBuffer();
}

void put_got(uint c, Pair a) {
    got_hi[c] = a.hi;
    got_lo[c] = a.lo;
}
Pair get_got(uint c) { return Pair(got_hi[c], got_lo[c]); }
void put_share(Pair a) {
    share_hi = a.hi;
    share_lo = a.lo;
}
Pair get_share() { return Pair(share_hi, share_lo); }

// T_0(k) from the input: its blocks folded as a tile's steps 1 and 2 fold them. In place, the flag is read
// again after the loads: no total yet means its owner had not published it, so had not yet written its
// outputs over its input either (it publishes its totals before its stores), and the loads were of its
// input; else its published total (the same bits). Whole workgroup.
Pair node_from_input(uvec2 base, uint k) {
    uint b = gl_LocalInvocationIndex;
    uint start = k * SCAN_CANONICAL_RANK0;
    uint n = min(SCAN_CANONICAL_RANK0, p.len - start);
    g_xs_clobbered = true;
    barrier();  // spare_* and share_* are read until here
    if (b < ARITY && b * ARITY < n) {
        load_block(base, start + b * ARITY, min(ARITY, n - b * ARITY), vector_io(base, 0u));
        Pair t = block_total(min(ARITY, n - b * ARITY));
        spare_hi[b] = t.hi;
        spare_lo[b] = t.lo;
    }
    if (IN_PLACE) {
        memoryBarrierBuffer();  // every invocation's loads before the flag is read again
        buffer_barrier();
    } else {
        barrier();
    }
    if (b == 0u) {
        Pair t = pair_of(identity());
        [[unroll]] for (uint j = 0u; j < ARITY; ++j)
            t = select_pair(j * ARITY < n, combine_pair(t, Pair(spare_hi[j], spare_lo[j])), t);
        t = run_normalized(t);
        if (IN_PLACE && (states[flag_word(entry(0u, k))] & TOTAL) != 0u) {
            memoryBarrierBuffer();  // the flag before the value
            t = get_value(total_word(entry(0u, k)));
        }
        put_share(t);
    }
    barrier();
    return get_share();
}

// Whether T_r(i) is published (invocation 0 reads the flag once, for the whole workgroup). With SPIN_LIMIT
// 0 (tests forcing every fallback) only odd nodes' flags are read, so that a fallback takes both ways:
// published totals, and the walk down to the input. Whole workgroup.
bool total_published(uint r, uint i) {
    if (SPIN_LIMIT == 0u && i % 2u == 0u) return false;
    barrier();
    if (gl_LocalInvocationIndex == 0u) look_word = states[flag_word(entry(r, i))];
    barrier();
    return (look_word & TOTAL) != 0u;
}

// T_q(k) computed here: its descendants' totals, each published or (rank 0) from the input, folded up
// the tree as its closing tiles fold them (a depth-first walk; one call site of node_from_input, which
// lavapipe inlines whole at each). Whole workgroup; the result in every invocation.
Pair fallback_total(uvec2 base, uint q, uint k) {
    Pair acc[MAX_RANKS];  // acc[l]: the open rank-(l + 1) node's children folded
    Pair result = pair_of(identity());
    uint lvl = q, node = k;  // the node whose total comes next
    [[dont_unroll]] for (uint trip = 0u; trip < FALLBACK_TRIPS; ++trip) {  // uniform
        Pair v;
        if (total_published(lvl, node)) {
            if (gl_LocalInvocationIndex == 0u) {
                memoryBarrierBuffer();
                put_share(get_value(total_word(entry(lvl, node))));
            }
            barrier();
            v = get_share();
        } else if (lvl == 0u) {
            v = node_from_input(base, node);
        } else {  // from its children
            acc[lvl - 1u] = pair_of(identity());
            lvl -= 1u;
            node *= ARITY;
            continue;
        }
        // v is T_lvl(node): the result, or into its parent's fold, closing the parents it completes.
        bool done = false;
        [[unroll]] for (uint c = 0u; c <= MAX_RANKS; ++c) {
            if (lvl == q) {
                result = v;
                done = true;
                break;
            }
            acc[lvl] = combine_pair(acc[lvl], v);
            if ((node + 1u) % ARITY != 0u) {
                node += 1u;
                break;
            }
            v = run_normalized(acc[lvl]);
            lvl += 1u;
            node /= ARITY;
        }
        if (done) break;
    }
    return result;
}

// T_r(first + c) for c < count (<= 32) into got_*: invocation c reads its flag up to SPIN_LIMIT times; the
// missing ones are computed here. Whole workgroup.
void gather_totals(uvec2 base, uint r, uint first, uint count) {
    uint t = gl_LocalInvocationIndex;
    barrier();  // got_* are read until here
    if (t == 0u) got_missing_count = 0u;
    barrier();
    if (t < count) {
        uint e = entry(r, first + t);
        uint f = 0u;
        for (uint s = 0u; s < SPIN_LIMIT && (f & TOTAL) == 0u; ++s) f = states[flag_word(e)];
        if ((f & TOTAL) != 0u) {
            memoryBarrierBuffer();  // the flag before the value
            put_got(t, get_value(total_word(e)));
        } else {
            got_missing[atomicAdd(got_missing_count, 1u)] = t;
        }
    }
    barrier();
    uint missing = got_missing_count;
    if (t == 0u && missing > 0u) atomicAdd(states[p.base_part + SCAN_CHAINED_FALLBACKS_WORD], missing);
    for (uint m = 0u; m < missing; ++m) {  // uniform; rare but for tests that force it
        uint c = got_missing[m];
        Pair v = fallback_total(base, r, first + c);
        if (t == 0u) put_got(c, v);
    }
    barrier();
}

// Publishes the totals of the nodes of rank 1 and up that the tile ending before rank-0 node `end` closes:
// each the fold of its 32 children, the earlier ones gathered, the last this tile's own (rank 1: its
// NODES node totals `own_*`). Only a whole tile that is not its line's last closes a node. Whole workgroup.
void publish_closed(uvec2 base, uint end) {
    uint t = gl_LocalInvocationIndex;
    Pair closed = pair_of(identity());  // T_(r-1) of the last child (invocation 0's)
    uint span = ARITY;
    [[dont_unroll]] for (uint r = 1u; r < MAX_RANKS; ++r) {  // (one call site of gather_totals)
        if (r >= g_ranks || end % span != 0u) break;  // uniform
        uint j = end / span - 1u;
        uint own = r == 1u ? NODES : 1u;
        gather_totals(base, r - 1u, j * ARITY, ARITY - own);
        if (t == 0u) {
            Pair acc = pair_of(identity());
            for (uint c = 0u; c < ARITY - own; ++c) acc = combine_pair(acc, get_got(c));
            if (r == 1u) {
                [[unroll]] for (uint g = 0u; g < NODES; ++g) acc = combine_pair(acc, Pair(node_hi[g], node_lo[g]));
            } else {
                acc = combine_pair(acc, closed);
            }
            closed = run_normalized(acc);
            publish(entry(r, j), total_word(entry(r, j)), TOTAL, closed);
        }
        span *= ARITY;
    }
}

// P_0(n0), the prefix of the tile's first node; publishes it, and the prefix of every node of rank 1 and up
// that begins with this tile. Whole workgroup; the result in invocation 0.
Pair look_back(uvec2 base, uint n0) {
    uint t = gl_LocalInvocationIndex;
    uint idx[MAX_RANKS], from[MAX_RANKS];
    idx[0] = n0;
    [[unroll]] for (uint r = 1u; r < MAX_RANKS; ++r) idx[r] = idx[r - 1u] / ARITY;
    // Climb: the nearest published prefix among a rank's siblings (rank 1 and up: the ancestor's own too),
    // or a first child of the line (prefix: the empty pair).
    uint top = 0u;
    bool found = false;
    [[unroll]] for (uint r = 0u; r < MAX_RANKS; ++r) {
        uint s0 = idx[r] - idx[r] % ARITY;
        uint candidates = idx[r] - s0 + (r > 0u ? 1u : 0u);
        barrier();  // look_word is read until here
        if (t == 0u) look_word = 0u;
        barrier();
        if (SPIN_LIMIT > 0u && t < candidates && (states[flag_word(entry(r, s0 + t))] & PREFIX) != 0u)
            atomicMax(look_word, t + 1u);
        barrier();
        uint nearest = look_word;
        top = r;
        if (nearest > 0u) {
            from[r] = s0 + nearest - 1u;
            if (t == nearest - 1u) {  // the invocation that read the flag reads the value
                memoryBarrierBuffer();
                put_share(get_value(prefix_word(entry(r, from[r]))));
            }
            found = true;
            break;
        }
        from[r] = s0;
        if (s0 == 0u) break;  // P_r(0) is the line's start
    }
    barrier();
    Pair run = found ? get_share() : pair_of(identity());
    // Descend: fold each rank's totals from there to the ancestor, whose prefix is its first child's.
    [[dont_unroll]] for (uint k = 0u; k < MAX_RANKS; ++k) {  // (one call site of gather_totals)
        if (k > top) break;  // uniform
        uint r = top - k;
        uint count = idx[r] - from[r];
        if (count > 0u) gather_totals(base, r, from[r], count);
        if (t == 0u) {
            for (uint c = 0u; c < count; ++c) run = run_normalized(combine_pair(run, get_got(c)));
            bool first_tile = r == 0u || idx[r] * (1u << (5u * r)) == n0;  // ARITY^r
            if (first_tile) publish(entry(r, idx[r]), prefix_word(entry(r, idx[r])), PREFIX, run);
        }
        if (r > 0u) from[r - 1u] = idx[r] * ARITY;
    }
    return run;
}

#endif
