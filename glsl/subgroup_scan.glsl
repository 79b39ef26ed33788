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
