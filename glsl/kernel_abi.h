// The kernel ABI: what the planners (src/) and the kernels (glsl/) must agree on — push-constant word
// indices, specialization-constant ids, reduce function codes and the chained scan's tile states.
// Included by both C++ and GLSL, so it holds preprocessor definitions only. The kernels place their
// push-block members with layout(offset = 4 * word) and their constants with these ids;
// tests/unit/test_kernel_abi.cpp reads every embedded SPIR-V module and checks that they sit there.
#ifndef VKDML_KERNEL_ABI_H
#define VKDML_KERNEL_ABI_H

// ---- every kernel ----------------------------------------------------------------------------------
#define ABI_BINDINGS 3         // storage buffers 0 (source), 1 (destination), 2 (partials)
#define ABI_PUSH_WORDS 32      // 128 bytes: the minimum maxPushConstantsSize
#define ABI_SPEC_COUNT 16      // constant ids 0..15
#define ABI_SPEC_WORKGROUP 0   // local_size_x_id
#define ABI_SPEC_LINE_MAJOR 9  // serial kernels: items numbered line-major, else chunk-major (work_items)
#define ABI_SPEC_LOCKSTEP 10   // serial kernels: the workgroup walks its chunks together (barriers)

// ---- scan_serial, scan_chained (scan_common.glsl) ---------------------------------------------------
#define SCAN_SPEC_OP 1              // a SCAN_OP_*
#define SCAN_SPEC_REVERSE 2         // DECREASING direction
#define SCAN_SPEC_EXCLUSIVE 3       // exclusive scan
#define SCAN_SPEC_MODE 4            // a SCAN_MODE_*
#define SCAN_SPEC_HAS_CARRY 5       // scan mode: start each chunk from its carry in the partials
#define SCAN_SPEC_VEC_K 6           // scan_serial blocks: vectors per block (0: elements)
#define SCAN_SPEC_ROUNDS 6          // scan_chained: vectors (of VEC_W elements) per invocation and tile
#define SCAN_SPEC_VEC_F 7           // scan_serial blocks: fibers per block
#define SCAN_SPEC_VEC_AXIS_INNER 8  // scan_serial blocks: steps along the axis are the inner index
#define SCAN_SPEC_OTHER_DIMS 11     // non-axis dimensions (<= 7: push words size, stride_in, stride_out)
#define SCAN_SPEC_IN_PLACE 12       // the source is the destination: read and write through binding 1 only
#define SCAN_SPEC_SPIN_LIMIT 13     // scan_chained: flag reads before a silent predecessor is reduced here
#define SCAN_SPEC_WALK_TOP 13       // scan_serial, floats: a chunk's node level (32^(top+1) steps)
#define SCAN_SPEC_NAN_IGNORE 14     // floats, passes reading the input: a NaN element reads as the identity
#define SCAN_SPEC_SIGNED 15         // SCAN_OP_MAX, SCAN_OP_MIN: integers are signed

#define SCAN_OP_SUM 0
#define SCAN_OP_PRODUCT 1
#define SCAN_OP_MAX 2  // vkdml's cumulative maximum and minimum: selections, exact in any order
#define SCAN_OP_MIN 3
#define SCAN_OP_LOG_SUM_EXP \
    4                        // vkdml's log-cumulative-sum-exp (floats): pairs (running maximum m, Σ e^(x-m))
#define SCAN_MODE_SCAN 0     // scan each chunk (from its carry in the partials with HAS_CARRY)
#define SCAN_MODE_REDUCE 1   // fold each chunk into its partial
#define SCAN_MODE_CLEAR 2    // scan_chained: zero the tile states (words [0, len) of the partials)
#define SCAN_MODE_CHAINED 3  // scan_chained: chunks of one tile in one pass, the look-back over tile states
// scan_serial, SCAN_OP_MAX/MIN (elements, no blocks): the index output's marks, 32- or 64-bit (see there)
#define SCAN_MODE_MARK32 4
#define SCAN_MODE_MARK64 5

#define SCAN_MAX_OTHER_DIMS 7
#define SCAN_W_FIBERS 0
#define SCAN_W_LEN 1
#define SCAN_W_CHUNK_LEN 2
#define SCAN_W_ITEM_END 3
#define SCAN_W_AXIS_IN 4
#define SCAN_W_AXIS_OUT 5
#define SCAN_W_BASE_IN 6
#define SCAN_W_BASE_OUT 7
#define SCAN_W_BASE_PART 8  // word 9 is unused
#define SCAN_W_ITEM_BEGIN 10
#define SCAN_W_SIZE 11                                              // SCAN_MAX_OTHER_DIMS words
#define SCAN_W_STRIDE_IN (SCAN_W_SIZE + SCAN_MAX_OTHER_DIMS)        // 18
#define SCAN_W_STRIDE_OUT (SCAN_W_STRIDE_IN + SCAN_MAX_OTHER_DIMS)  // 25; ends at word 32

// scan_chained: a tile is ROUNDS vectors of VEC_W elements per invocation. In MODE_CHAINED, its tile
// states in the partials, in 32-bit words from base_part, for `items` tiles of `slot` words per value:
// the tile counter, the count of fallbacks (predecessor tiles reduced by a later tile from their input:
// vkdml::chained_scan_stats), one flag per tile, then three value slots per tile: the aggregate its owner
// publishes, the aggregate a fallback publishes (each slot has a single writer), and the inclusive
// prefix (published by the last tile of each block of SCAN_CHAINED_BLOCK_TILES tiles only).
#define SCAN_CHAINED_MIN_SUBGROUP 4u  // the smallest subgroup its shared arrays are sized for
#define SCAN_CHAINED_BLOCK_TILES 32u  // tiles per block of the fixed two-level association
// Tiles per look-back window for a workgroup of `wg`: as many as invocations, whole blocks, one at least.
#define SCAN_CHAINED_WINDOW_TILES(wg) \
    (((wg) >= SCAN_CHAINED_BLOCK_TILES ? (wg) / SCAN_CHAINED_BLOCK_TILES : 1u) * SCAN_CHAINED_BLOCK_TILES)
#define SCAN_CHAINED_FALLBACKS_WORD 1u
#define SCAN_CHAINED_FLAG_WORD(item) (2u + (item))
#define SCAN_CHAINED_OWNER_WORD(items, slot, item) (2u + (items) + (slot) * (item))
#define SCAN_CHAINED_FALLBACK_WORD(items, slot, item) (2u + (items) + (slot) * ((items) + (item)))
#define SCAN_CHAINED_INCLUSIVE_WORD(items, slot, item) (2u + (items) + (slot) * (2u * (items) + (item)))
#define SCAN_CHAINED_STATE_WORDS(items, slot) (2u + (items) + 3u * (slot) * (items))
// Flag bits (they only rise, set by atomicOr): the owner's aggregate is published, the inclusive prefix
// is published, a fallback has claimed its slot, the fallback's aggregate is published.
#define SCAN_CHAINED_OWNER_AGGREGATE 1u
#define SCAN_CHAINED_INCLUSIVE 2u
#define SCAN_CHAINED_FALLBACK_CLAIMED 4u
#define SCAN_CHAINED_FALLBACK_AGGREGATE 8u

// scan_canonical_chained (scan_canonical_tile.comp with CANONICAL_CHAINED): a single pass over tiles in
// the canonical association (docs/internals.md, "The canonical single pass"). Its states, in 32-bit words
// from base_part: the tile counter, the count of fallbacks (totals computed by a later tile from its
// input), then per fiber an entry per node of ranks 0 to SCAN_CANONICAL_MAX_RANKS - 1 (rank 0: the
// level-2 nodes of 32^2 elements; rank r + 1: 32 nodes of rank r) while a rank has more than one node:
// every entry's flag, then every entry's total, then every entry's prefix (`slot` words each).
#define SCAN_CANONICAL_MAX_RANKS 4u  // ranks with entries: lines of up to 32^6 = 2^30 elements
#define SCAN_CANONICAL_RANK0 1024u   // elements of a rank-0 node
#define SCAN_CANONICAL_FLAG_WORD(entry) (2u + (entry))
#define SCAN_CANONICAL_TOTAL_WORD(entries, slot, entry) (2u + (entries) + (slot) * (entry))
#define SCAN_CANONICAL_PREFIX_WORD(entries, slot, entry) (2u + (entries) + (slot) * ((entries) + (entry)))
#define SCAN_CANONICAL_STATE_WORDS(entries, slot) (2u + (entries) + 2u * (slot) * (entries))
// Flag bits (set once, by the entry's one writer): its total, its prefix.
#define SCAN_CANONICAL_TOTAL 1u
#define SCAN_CANONICAL_PREFIX 2u

// ---- reduce_serial, reduce_tree (reduce_common.glsl) ----------------------------------------------
#define REDUCE_SPEC_FUNCTION 1      // a REDUCE_F_* code
#define REDUCE_SPEC_SRC_PARTIALS 2  // read fold states of a previous pass
#define REDUCE_SPEC_DST_PARTIALS 3  // write fold states for a next pass
#define REDUCE_SPEC_TIE_LAST 4      // arg functions: the last index among ties
#define REDUCE_SPEC_SIGNED 5        // integer data is two's complement signed
#define REDUCE_SPEC_INDEX64 6       // arg functions: 64-bit output indices
#define REDUCE_SPEC_VEC_K 7         // reduce_serial blocks: vectors per block (0: elements)
#define REDUCE_SPEC_VEC_F 8         // reduce_serial blocks: outputs per block
#define REDUCE_SPEC_KEPT_DIMS 11    // kept dimensions (push words dim[0 .. 3·KEPT_DIMS))
#define REDUCE_SPEC_LINE_DIMS 12    // reduced dimensions (the 2·LINE_DIMS words after them)
#define REDUCE_SPEC_NAN_IGNORE 13   // NanMode::ignore: NaN skipped (MIN, MAX, arg) or read as the identity
#define REDUCE_SPEC_WALK_TOP 14     // float sums and products: a chunk's node level (32^(top+1) leaves)

// DML_REDUCE_FUNCTION's values.
#define REDUCE_F_ARGMAX 0
#define REDUCE_F_ARGMIN 1
#define REDUCE_F_AVERAGE 2
#define REDUCE_F_L1 3
#define REDUCE_F_L2 4
#define REDUCE_F_LOG_SUM 5
#define REDUCE_F_LOG_SUM_EXP 6
#define REDUCE_F_MAX 7
#define REDUCE_F_MIN 8
#define REDUCE_F_MULTIPLY 9
#define REDUCE_F_SUM 10
#define REDUCE_F_SUM_SQUARE 11
// vkdml's own functions (VKDML_REDUCE_FUNCTION_*, outside DirectML's range).
#define REDUCE_F_VARIANCE 1000
#define REDUCE_F_STANDARD_DEVIATION 1001
#define REDUCE_F_ANY 1002
#define REDUCE_F_ALL 1003
#define REDUCE_F_COUNT_NONZERO 1004

#define REDUCE_IS_ARG(f) ((f) == REDUCE_F_ARGMAX || (f) == REDUCE_F_ARGMIN)
#define REDUCE_IS_VARIANCE(f) ((f) == REDUCE_F_VARIANCE || (f) == REDUCE_F_STANDARD_DEVIATION)
// ANY, ALL, COUNT_NONZERO: a fold of "x is not 0" in the state's index word, exact in any order.
#define REDUCE_IS_LOGICAL(f) ((f) >= REDUCE_F_ANY && (f) <= REDUCE_F_COUNT_NONZERO)
// A function whose float fold is a sum or a product, which the kernels compensate (compensated.glsl).
#define REDUCE_IS_COMPENSATED(f) (!REDUCE_IS_ARG(f) && (f) != REDUCE_F_MIN && (f) != REDUCE_F_MAX)
// 32-bit words of a fold state between passes: the value, LOG_SUM_EXP's scaled sum and the compensation
// of a compensated float fold (acc_words each; the variances: the shifted sum and its compensation, the
// shifted sum of squares and its compensation, the shift), and the arg functions' index or (counted:
// the variances, AVERAGE with NanMode::ignore) the count of numbers (the logical functions: their
// flag or count; their value words go unused). (A third || in the count's
// condition made glslang 11 emit a spec constant that reads a phi: `counted` covers the variances.)
#define REDUCE_STATE_WORDS(acc_words, f, compensated, counted)                                 \
    ((acc_words) * (1u + ((f) == REDUCE_F_LOG_SUM_EXP ? 1u : 0u) + ((compensated) ? 1u : 0u) + \
                    (REDUCE_IS_VARIANCE(f) ? 3u : 0u)) +                                       \
     ((REDUCE_IS_ARG(f) || (counted)) ? 1u : 0u))

#define REDUCE_MAX_DIM_WORDS 24
// The dim words (dim[i] is push word REDUCE_W_DIM + i): each kept dimension d (slowest first) as three words,
// then each reduced dimension r (row-major order) as two.
#define REDUCE_KEPT_WORDS 3u
#define REDUCE_LINE_WORDS 2u
#define REDUCE_D_KEPT_SIZE(d) (REDUCE_KEPT_WORDS * (d))
#define REDUCE_D_KEPT_STRIDE_IN(d) (REDUCE_KEPT_WORDS * (d) + 1u)
#define REDUCE_D_KEPT_STRIDE_OUT(d) (REDUCE_KEPT_WORDS * (d) + 2u)
#define REDUCE_D_LINE_SIZE(kept, r) (REDUCE_KEPT_WORDS * (kept) + REDUCE_LINE_WORDS * (r))
#define REDUCE_D_LINE_STRIDE_IN(kept, r) (REDUCE_D_LINE_SIZE(kept, r) + 1u)
#define REDUCE_W_N 0
#define REDUCE_W_CHUNK_LEN 1
#define REDUCE_W_ITEM_END 2
#define REDUCE_W_BASE_IN 3
#define REDUCE_W_BASE_OUT 4
#define REDUCE_W_ITEM_BEGIN 5
#define REDUCE_W_CORRECTION 6  // VARIANCE, STANDARD_DEVIATION: the divisor is N minus this
#define REDUCE_W_N_TOTAL 7     // N over all passes (AVERAGE)
#define REDUCE_W_DIM 8         // REDUCE_MAX_DIM_WORDS words; ends at word 32

#endif
