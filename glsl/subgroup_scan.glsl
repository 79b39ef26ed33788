// Subgroup-wide inclusive and exclusive scans of one (value, error) pair per invocation, and the
// subgroup's total, for the scan kernels (scan_common.glsl's combine). Floats: a Hillis-Steele scan of
// compensated pairs over shuffles (log2 of the subgroup size steps, in a fixed order, so that the bits
// are the same run to run); integers: the subgroup arithmetic built-ins (exact, any order). Reads
// gl_SubgroupSize, never a constant, and relies on full subgroups (pipelines that use it are created
// with REQUIRE_FULL_SUBGROUPS where the device allows, else planned only where every subgroup is full).
// Lanes choose by selects, never branches, so every lane takes part in every shuffle.
#ifndef SUBGROUP_SCAN_GLSL
#define SUBGROUP_SCAN_GLSL

struct SubgroupScan {
    Pair inclusive, exclusive, total;
};

#if defined(ACC_IS_FLOAT)
Pair shuffle_pair(Pair a, uint lane) {
    return Pair(subgroupShuffle(a.hi, lane), subgroupShuffle(a.lo, lane));
}

SubgroupScan subgroup_scan_pair(Pair x) {
    uint lane = gl_SubgroupInvocationID;
    Pair run = x;
    for (uint d = 1u; d < gl_SubgroupSize; d <<= 1u) {
        Pair before = shuffle_pair(run, max(lane, d) - d);
        Pair next = combine_pair(before, run);
        run = Pair(lane >= d ? next.hi : run.hi, lane >= d ? next.lo : run.lo);
    }
    SubgroupScan s;
    s.inclusive = run;
    Pair before = shuffle_pair(run, max(lane, 1u) - 1u);
    Pair none = pair_of(identity());
    s.exclusive = Pair(lane == 0u ? none.hi : before.hi, lane == 0u ? none.lo : before.lo);
    s.total = shuffle_pair(run, gl_SubgroupSize - 1u);
    return s;
}
#else
SubgroupScan subgroup_scan_pair(Pair x) {
    SubgroupScan s;
    s.inclusive = pair_of(OP == 0u ? subgroupInclusiveAdd(x.hi) : subgroupInclusiveMul(x.hi));
    s.exclusive = pair_of(OP == 0u ? subgroupExclusiveAdd(x.hi) : subgroupExclusiveMul(x.hi));
    s.total = pair_of(OP == 0u ? subgroupAdd(x.hi) : subgroupMul(x.hi));
    return s;
}
#endif

// The scans of one value per invocation.
SubgroupScan subgroup_scan(ACC_T x) { return subgroup_scan_pair(pair_of(x)); }

#endif
