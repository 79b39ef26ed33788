// Subgroup-wide inclusive and exclusive scans of one value per invocation, and the subgroup's total, for
// scan_chained.comp, whose combines are all exact: its values are Pairs whose lo is 0. Floats (the maximum
// and minimum, which order NaNs and signed zeros as scan_common.glsl's select does, where the built-ins
// need not): a Hillis-Steele scan over shuffles (log2 of the subgroup size steps); integers: the subgroup
// arithmetic built-ins. Reads gl_SubgroupSize, never a constant, and relies on full subgroups (pipelines
// that use it are created with REQUIRE_FULL_SUBGROUPS where the device allows, else planned only where
// every subgroup is full). Lanes choose by selects, never branches, so every lane takes part in every
// shuffle.
#ifndef SUBGROUP_SCAN_GLSL
#define SUBGROUP_SCAN_GLSL

struct SubgroupScan {
    Pair inclusive, exclusive, total;
};

#if defined(ACC_IS_FLOAT)
SubgroupScan subgroup_scan_pair(Pair x) {
    uint lane = gl_SubgroupInvocationID;
    ACC_T run = x.hi;
    for (uint d = 1u; d < gl_SubgroupSize; d <<= 1u) {
        ACC_T before = subgroupShuffle(run, max(lane, d) - d);
        ACC_T next = combine_pair(pair_of(before), pair_of(run)).hi;
        run = lane >= d ? next : run;
    }
    SubgroupScan s;
    s.inclusive = pair_of(run);
    ACC_T before = subgroupShuffle(run, max(lane, 1u) - 1u);
    s.exclusive = pair_of(lane == 0u ? identity() : before);
    s.total = pair_of(subgroupShuffle(run, gl_SubgroupSize - 1u));
    return s;
}
#else
// (Signed selections through the signed built-ins; their identity, the 32- or 64-bit extreme, lies
// beyond every value of the type, and each result is combined with a prefix that starts from the type's
// own identity.)
#if defined(STORAGE_U64)
#define SIGNED_T int64_t
#else
#define SIGNED_T int
#endif
SubgroupScan subgroup_scan_pair(Pair x) {
    SubgroupScan s;
    ACC_T v = x.hi;
    SIGNED_T sv = SIGNED_T(v);
    ACC_T inclusive, exclusive, total;
    if (OP == SCAN_OP_MAX) {
        inclusive = SIGNED ? ACC_T(subgroupInclusiveMax(sv)) : subgroupInclusiveMax(v);
        exclusive = SIGNED ? ACC_T(subgroupExclusiveMax(sv)) : subgroupExclusiveMax(v);
        total = SIGNED ? ACC_T(subgroupMax(sv)) : subgroupMax(v);
    } else if (OP == SCAN_OP_MIN) {
        inclusive = SIGNED ? ACC_T(subgroupInclusiveMin(sv)) : subgroupInclusiveMin(v);
        exclusive = SIGNED ? ACC_T(subgroupExclusiveMin(sv)) : subgroupExclusiveMin(v);
        total = SIGNED ? ACC_T(subgroupMin(sv)) : subgroupMin(v);
    } else {
        inclusive = OP == 0u ? subgroupInclusiveAdd(v) : subgroupInclusiveMul(v);
        exclusive = OP == 0u ? subgroupExclusiveAdd(v) : subgroupExclusiveMul(v);
        total = OP == 0u ? subgroupAdd(v) : subgroupMul(v);
    }
    s.inclusive = pair_of(inclusive);
    s.exclusive = pair_of(exclusive);
    s.total = pair_of(total);
    return s;
}
#undef SIGNED_T
#endif

// The scans of one value per invocation.
SubgroupScan subgroup_scan(ACC_T x) { return subgroup_scan_pair(pair_of(x)); }

#endif
