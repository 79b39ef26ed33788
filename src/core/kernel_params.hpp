// The parameters of each kernel family as one typed struct: to_spec() places its specialization
// constants at the ids of kernel_abi.h, to_push() its push-constant words at the word indices there.
// The planners fill these and never write a slot by index. The words of a dispatch (chunk length, items,
// window bases) are the pass's own, placed by append_pass and record().
#pragma once

#include "core/kernel_abi.hpp"
#include "core/problem.hpp"

namespace vkdml::detail {

/// What every scan kernel takes (scan_common.glsl).
struct ScanParams {
    uint32_t workgroup = 0;
    uint32_t op = SCAN_OP_SUM;  ///< a SCAN_OP_*
    bool is_signed = false;     ///< SCAN_OP_MAX, SCAN_OP_MIN: integers compare signed
    bool reverse = false;
    bool exclusive = false;
    uint32_t mode = SCAN_MODE_SCAN;  ///< a SCAN_MODE_* (scan_serial: SCAN or REDUCE)
    bool has_carry = false;          ///< each chunk starts from its carry in the partials
    bool in_place = false;           ///< read and write through binding 1 only
    bool nan_ignore = false;         ///< floats, passes reading the input: NaN elements read as 0 or 1
    Problem layout;                  ///< what the kernel indexes: its fibers and axis (at most 7 kept dims)

    SpecConstants to_spec() const;
    PushWords to_push() const;
};

/// scan_serial: the scan's parameters and its vector blocks.
struct SerialScanParams {
    ScanParams scan;
    uint32_t vec_k = 0;           ///< vectors per block (0: elements)
    uint32_t vec_f = 1;           ///< fibers per block
    bool vec_axis_inner = false;  ///< steps along the axis are the inner index of a block
    uint32_t walk_top = 0;        ///< floats: the node level of a chunk (canonical_walk.glsl), 0 to 3

    SpecConstants to_spec() const;
    PushWords to_push() const { return scan.to_push(); }
};

/// scan_chained, every mode: the scan's parameters and its tile.
struct TileScanParams {
    ScanParams scan;
    uint32_t rounds = 1;      ///< vectors per invocation and tile
    uint32_t spin_limit = 0;  ///< MODE_CHAINED: flag reads of a silent predecessor before the fallback

    SpecConstants to_spec() const;
    PushWords to_push() const { return scan.to_push(); }
};

/// scan_canonical_tile: the scan's parameters and the chunk's node level over level-2 node totals.
struct CanonicalTileParams {
    ScanParams scan;
    uint32_t walk_top = 0;  ///< canonical_walk.glsl's WALK_TOP over the chunk's node totals (0 to 3; chunks
                            ///< of at most 2^20 elements reach 1)

    SpecConstants to_spec() const;
    PushWords to_push() const { return scan.to_push(); }
};

/// reduce_serial and reduce_tree (reduce_common.glsl).
struct ReduceParams {
    uint32_t workgroup = 0;
    uint32_t function = REDUCE_F_SUM;  ///< a REDUCE_F_* code
    bool src_partials = false;         ///< read fold states of a previous pass
    bool dst_partials = false;         ///< write fold states for a next pass
    bool tie_last = false;             ///< arg functions: the last index among ties
    bool is_signed = false;            ///< integer data is two's complement signed
    bool index64 = false;              ///< arg functions: 64-bit output indices
    bool nan_ignore = false;           ///< NanMode::ignore (floats): NaN skipped or read as the identity
    uint32_t vec_k = 0;                ///< reduce_serial blocks: vectors per block (0: elements)
    uint32_t vec_f = 1;                ///< reduce_serial blocks: outputs per block
    uint32_t walk_top = 0;             ///< float sums and products: a chunk's node level, 0 to 3
    Problem layout;                    ///< what the kernel indexes: its outputs and reduced dimensions
    uint64_t n = 0;                    ///< positions per output (elements, blocks or states)
    uint64_t n_total = 0;              ///< elements per output over all passes (AVERAGE's N)
    uint32_t correction = 0;           ///< the variances: N - correction divides

    SpecConstants to_spec() const;
    PushWords to_push() const;
};

}  // namespace vkdml::detail
