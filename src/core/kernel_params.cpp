// The kernel families' parameters placed at their ABI slots (see kernel_params.hpp).
#include "core/kernel_params.hpp"

namespace vkdml::detail {

SpecConstants ScanParams::to_spec() const {
    SpecConstants s{};
    s[ABI_SPEC_WORKGROUP] = workgroup;
    s[SCAN_SPEC_OP] = op;
    s[SCAN_SPEC_REVERSE] = reverse;
    s[SCAN_SPEC_EXCLUSIVE] = exclusive;
    s[SCAN_SPEC_MODE] = mode;
    s[SCAN_SPEC_HAS_CARRY] = has_carry;
    s[SCAN_SPEC_OTHER_DIMS] = static_cast<uint32_t>(layout.kept.size());
    s[SCAN_SPEC_IN_PLACE] = in_place;
    s[SCAN_SPEC_NAN_IGNORE] = nan_ignore;
    s[SCAN_SPEC_SIGNED] = is_signed;
    return s;
}

SpecConstants SerialScanParams::to_spec() const {
    SpecConstants s = scan.to_spec();
    s[SCAN_SPEC_VEC_K] = vec_k;
    s[SCAN_SPEC_VEC_F] = vec_f;
    s[SCAN_SPEC_VEC_AXIS_INNER] = vec_axis_inner;
    s[SCAN_SPEC_WALK_TOP] = walk_top;
    return s;
}

SpecConstants TileScanParams::to_spec() const {
    SpecConstants s = scan.to_spec();
    s[SCAN_SPEC_ROUNDS] = rounds;
    s[SCAN_SPEC_SPIN_LIMIT] = spin_limit;
    return s;
}

SpecConstants CanonicalTileParams::to_spec() const {
    SpecConstants s = scan.to_spec();
    s[SCAN_SPEC_WALK_TOP] = walk_top;
    return s;
}

PushWords ScanParams::to_push() const {
    PushWords w{};
    w[SCAN_W_FIBERS] = static_cast<uint32_t>(layout.lines());
    w[SCAN_W_LEN] = layout.line[0].size;
    w[SCAN_W_AXIS_IN] = layout.line[0].stride_in;
    w[SCAN_W_AXIS_OUT] = layout.line[0].stride_out;
    for (size_t i = 0; i < layout.kept.size(); ++i) {
        w[SCAN_W_SIZE + i] = layout.kept[i].size;
        w[SCAN_W_STRIDE_IN + i] = layout.kept[i].stride_in;
        w[SCAN_W_STRIDE_OUT + i] = layout.kept[i].stride_out;
    }
    return w;
}

SpecConstants ReduceParams::to_spec() const {
    SpecConstants s{};
    s[ABI_SPEC_WORKGROUP] = workgroup;
    s[REDUCE_SPEC_FUNCTION] = function;
    s[REDUCE_SPEC_SRC_PARTIALS] = src_partials;
    s[REDUCE_SPEC_DST_PARTIALS] = dst_partials;
    s[REDUCE_SPEC_TIE_LAST] = tie_last;
    s[REDUCE_SPEC_SIGNED] = is_signed;
    s[REDUCE_SPEC_INDEX64] = index64;
    s[REDUCE_SPEC_VEC_K] = vec_k;
    s[REDUCE_SPEC_VEC_F] = vec_f;
    s[REDUCE_SPEC_KEPT_DIMS] = static_cast<uint32_t>(layout.kept.size());
    s[REDUCE_SPEC_LINE_DIMS] = static_cast<uint32_t>(layout.line.size());
    s[REDUCE_SPEC_NAN_IGNORE] = nan_ignore;
    s[REDUCE_SPEC_WALK_TOP] = walk_top;
    return s;
}

PushWords ReduceParams::to_push() const {
    PushWords w{};
    w[REDUCE_W_N] = static_cast<uint32_t>(n);
    w[REDUCE_W_N_TOTAL] = static_cast<uint32_t>(n_total);
    w[REDUCE_W_CORRECTION] = correction;
    const auto kept = static_cast<uint32_t>(layout.kept.size());
    for (uint32_t d = 0; d < kept; ++d) {
        w[REDUCE_W_DIM + REDUCE_D_KEPT_SIZE(d)] = layout.kept[d].size;
        w[REDUCE_W_DIM + REDUCE_D_KEPT_STRIDE_IN(d)] = layout.kept[d].stride_in;
        w[REDUCE_W_DIM + REDUCE_D_KEPT_STRIDE_OUT(d)] = layout.kept[d].stride_out;
    }
    for (uint32_t r = 0; r < layout.line.size(); ++r) {
        w[REDUCE_W_DIM + REDUCE_D_LINE_SIZE(kept, r)] = layout.line[r].size;
        w[REDUCE_W_DIM + REDUCE_D_LINE_STRIDE_IN(kept, r)] = layout.line[r].stride_in;
    }
    return w;
}

}  // namespace vkdml::detail
