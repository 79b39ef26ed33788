#version 460
// Serial chunk fold ("column-wise"): one invocation per (output, chunk), folding at most chunk_len
// elements in index order. Neighbouring invocations take neighbouring outputs, so when the kept
// dimensions are the inner ones in memory (outer-axis reductions) their loads are coalesced; short
// reductions (many tiny outputs), and every shape on CPU devices, run best this way too. With blocks
// (VEC_K > 0, reduce_common.glsl) each position loads VEC_K whole vectors and folds their elements in
// the same order as element by element.
#extension GL_EXT_control_flow_attributes : require
#extension GL_GOOGLE_include_directive : require
#include "reduce_common.glsl"

const uint BLOCK_VECS = VEC_K == 0u ? 1u : VEC_K;
const uint LANES = VEC_K == 0u ? 1u : VEC_F;       // outputs folded per invocation
const uint STEPS = BLOCK_VECS * VEC_W / LANES;     // reduced elements per output and block

// Float sums (SUM, AVERAGE, L1, L2, SUM_SQUARE, LOG_SUM) add the up to GROUP consecutive elements an
// output has in a block plainly and join their sum to the compensated state: an error term per element
// made CPU devices, where this kernel runs every shape, compute-bound (measured on lavapipe: 25-50 %
// slower). The rounding within a group is bounded: (GROUP - 1)·u of the group's magnitude. (Blocks
// holding one element per output fold each element compensated: grouping across blocks measured slower.)
const bool GROUPED = COMPENSATED && !IS_LSE && FUNCTION != F_MULTIPLY && STEPS > 1u;
const uint GROUP = 8u;

// Folds the block at `at` (reduced position q) into st.
void fold_block(inout State st[LANES], uint at, uint q) {
    WIDE_V v[BLOCK_VECS];
    [[unroll]] for (uint b = 0u; b < BLOCK_VECS; ++b) v[b] = UNPACK_V(srcv[at + b]);
    // Flat loops (fully unrolled, [[unroll]]: every index below is then a constant, and lavapipe, which
    // ends a loop after 65,535 trips counted over nested loops too, sees only the outer loop).
    if (GROUPED) {
        ACC_T part = ACC_T(0);  // the open group's sum (a lane's elements are consecutive in j)
        [[unroll]] for (uint j = 0u; j < BLOCK_VECS * VEC_W; ++j) {
            uint lane = j / STEPS, s = j % STEPS;
            ACC_T t = element_state(element_value(v[j / VEC_W][j % VEC_W]), 0u).v;  // x, |x| or x²
            part = s % GROUP == 0u ? t : part + t;
            if (s % GROUP == GROUP - 1u || s == STEPS - 1u) {
                Pair folded = pair_add_value(Pair(st[lane].v, st[lane].c), part);
                st[lane].v = folded.hi;
                st[lane].c = folded.lo;
            }
        }
        return;
    }
    [[unroll]] for (uint j = 0u; j < BLOCK_VECS * VEC_W; ++j) {
        uint lane = j / STEPS, s = j % STEPS;
        st[lane] = fold_element(st[lane], element_value(v[j / VEC_W][j % VEC_W]), q * STEPS + s);
    }
}

void main() {
    uint id = serial_item(p.item_begin, p.item_end);
    if (id == NO_ITEM) return;
    uint chunk = chunk_of_item(id, output_count(), p.n, p.chunk_len);
    uint o = line_of_item(id, chunk, output_count(), p.n, p.chunk_len);
    uint start = chunk * p.chunk_len;
    uint end = start + min(p.chunk_len, p.n - start);  // never past 2^32 - 1
    uvec2 base = output_base(o);
    if (FUNCTION == F_COPY) {  // AxisCount 0: the stored bits, NaN payloads and all
        dst[p.base_out + base.y] = src[p.base_in + base.x];
        return;
    }
    const bool one_dim = !SRC_PARTIALS && reduced_dims() == 1u;
    uint stride = one_dim ? p.dim[3u * kept_dims() + 1u] : 0u;
    uint in_base = p.base_in + base.x;
    if (VEC_K == 0u) {
        State st = empty_state();
        uint r = start;
        do {
            st = one_dim ? fold_element(st, load_element(in_base + r * stride), r) : fold_at(st, o, base.x, r);
        } while (++r < end);
        store_state(o, chunk, base.y, st);
        return;
    }

    // Every state starts empty and folds each element alike (fold_element takes an empty state's first
    // element), in one do-while loop whose body runs once per block: lavapipe (Mesa 22) runs the body of
    // every if and loop at least once, lanes masked or not, so a first block folded before a for loop
    // also paid a masked second one (rows of 3 in blocks of 16 rows: 5.8 -> 1.8 ms).
    State st[LANES];
    [[unroll]] for (uint lane = 0u; lane < LANES; ++lane) st[lane] = empty_state();
    uint q = start;
    do {
        fold_block(st, in_base + (one_dim ? q * stride : reduced_offset(q)), q);
    } while (++q < end);
    // Item o holds outputs o·VEC_F + lane: consecutive elements of the output, or slots VEC_F·chunks apart.
    for (uint lane = 0u; lane < LANES; ++lane) {
        if (DST_PARTIALS) write_state((o * LANES + lane) * chunk_count() + chunk, st[lane]);
        else store_state(o, chunk, base.y + lane, st[lane]);
    }
}
