// The planners without a device (src/core/scan_plan.cpp, src/core/reduce_plan.cpp, src/core/policy.cpp):
// chunk lengths from the policy tables, the kernel per shape and device class, the passes of long lines, and
// for every plan the invariants record() relies on — every item in exactly one dispatch, every window
// within the device's range, chunks within the loop-trip bound. At the GPU subgroup sizes (32: NVIDIA, 64:
// AMD), random shapes: the passes' accesses read and write every element exactly once, and no workgroup
// is smaller than a subgroup.
#include <catch2/catch.hpp>

#include "core/kernel_registry.hpp"
#include "core/policy_tuning.hpp"
#include "core/reduce_plan.hpp"
#include "core/scan_plan.hpp"
#include "core/subgroup_request.hpp"
#include "core/window.hpp"
#include "device_classes.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace vkdml::detail;
using vkdml_unit::cpu_info;
using vkdml_unit::gpu_info;
using Kernels = vkdml::KernelChoice;
constexpr Kernels kAuto = Kernels::automatic, kSerial = Kernels::serial, kCoop = Kernels::cooperative;

namespace {

Problem packed(std::vector<uint32_t> sizes, uint32_t axis, bool reduce) {
    std::vector<uint32_t> in(sizes.size()), out(sizes.size());
    uint32_t s = 1, o = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        in[i] = s;
        out[i] = reduce ? o : s;
        s *= sizes[i];
        if (!reduce || i != axis) o *= sizes[i];
    }
    if (!reduce) return lower_scan(sizes, in, out, axis);
    bool reduced[8] = {};
    reduced[axis] = true;
    return lower_reduce(sizes, in, out, std::span<const bool>(reduced, sizes.size()));
}

/// No two bindings a pass accesses overlap in the scratch buffer: SPIR-V lets a compiler assume that two
/// storage-buffer variables never alias, and on NVIDIA an in-place carry scan read through binding 0 and
/// written through binding 1 came out wrong. A scan over one region runs in place instead: binding 0
/// unused, every access through binding 1 (SCAN_SPEC_IN_PLACE).
void check_no_aliasing(const Pass& pass) {
    for (uint32_t i = 0; i < kBindingCount; ++i)
        for (uint32_t j = i + 1; j < kBindingCount; ++j) {
            const PassBinding &a = pass.bindings[i], &b = pass.bindings[j];
            if (a.unused || b.unused || a.slot != Slot::temporary || b.slot != Slot::temporary) continue;
            INFO("bindings " << i << " and " << j << " of the scratch buffer");
            CHECK((a.offset + a.size <= b.offset || b.offset + b.size <= a.offset));
        }
    if (is_scan(pass.key.kernel) && pass.key.spec[SCAN_SPEC_IN_PLACE]) {
        CHECK(pass.bindings[0].unused);
        // A carry level's partials, or the selections' index output scanned over its marks.
        CHECK((pass.bindings[1].slot == Slot::temporary ||
               (pass.bindings[1].slot == Slot::output && pass.bindings[1].index == 1)));
    }
}

/// What record() relies on, for every pass: dispatches cover the items in order, each within the
/// device's workgroup counts, each binding's window within maxStorageBufferRange; and no invocation
/// loops more than 32,768 positions (serial: lavapipe's loop limit; the policies' chunks are up to 8,192,
/// the canonical association's up to 32,768) or 16 tiles of 16 rounds (scan_chained).
void check_plan(const Plan& plan, const vkdml::DeviceInfo& info) {
    for (const Pass& pass : plan.passes) {
        INFO(name(pass.key.kernel) << " " << name(pass.key.storage));
        uint64_t next = 0;
        for (const Segment& s : pass.segments) {
            CHECK(s.item_begin == next);
            CHECK(s.item_end > s.item_begin);
            next = s.item_end;
            CHECK(s.groups_x <= info.max_workgroup_count[0]);
            CHECK(s.groups_y <= info.max_workgroup_count[1]);
            for (uint32_t b = 0; b < kBindingCount; ++b)
                if (!pass.bindings[b].unused)
                    CHECK(uint64_t(s.window[b].hi - s.window[b].lo + 1) * pass.bindings[b].element_bytes <=
                          window_bytes(info));
        }
        CHECK(next == pass.groups * pass.chunks);
        check_no_aliasing(pass);
        CHECK(pass.chunks == (pass.line_length + pass.chunk_len - 1) / pass.chunk_len);
        if (pass.key.kernel == Kernel::scan_chained) {
            CHECK(pass.key.spec[SCAN_SPEC_ROUNDS] <= 16);
            CHECK(pass.chunk_len <=
                  uint64_t(16) * pass.key.spec[ABI_SPEC_WORKGROUP] * pass.key.spec[SCAN_SPEC_ROUNDS] * 4);
        }
        if (pass.key.kernel == Kernel::scan_serial || pass.key.kernel == Kernel::reduce_serial ||
            pass.key.kernel == Kernel::reduce_serial_canonical)
            CHECK(pass.chunk_len <= 32768);
        if (pass.key.kernel == Kernel::reduce_serial_canonical) {
            // Its loops' trips: a position each, and two per block of 32 leaves (canonical_serial_positions).
            const uint64_t vec_k = pass.key.spec[REDUCE_SPEC_VEC_K];
            const uint64_t steps = vec_k == 0 ? 1
                                              : vec_k * (pass.key.storage == Storage::f64 ? 2 : 4) /
                                                    pass.key.spec[REDUCE_SPEC_VEC_F];
            const uint64_t group = std::max<uint64_t>(1, 32 / steps);
            CHECK(pass.chunk_len + 2 * ((pass.chunk_len + group - 1) / group) <= 65535);
        }
    }
}

Plan scan_plan(const PlanTarget& t, std::vector<uint32_t> sizes, uint32_t axis,
               DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32, uint32_t op = SCAN_OP_SUM) {
    ScanRequest r;
    r.op = op;
    r.type = type;
    r.problem = packed(std::move(sizes), axis, false);
    Plan plan;
    REQUIRE(plan_scan(t, r, plan));
    check_plan(plan, t.info);
    return plan;
}

Plan reduce_plan(const PlanTarget& t, std::vector<uint32_t> sizes, uint32_t axis,
                 uint32_t function = REDUCE_F_SUM, DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32) {
    ReduceRequest r;
    r.function = function;
    r.type = type;
    r.output_type = is_arg_function(function) ? DML_TENSOR_DATA_TYPE_UINT32 : type;
    r.problem = packed(std::move(sizes), axis, true);
    Plan plan;
    REQUIRE(plan_reduce(t, r, plan));
    check_plan(plan, t.info);
    return plan;
}

/// Each pass's LOCKSTEP constant.
using LockstepFlags = std::vector<uint32_t>;
LockstepFlags lockstep(const Plan& plan) {
    LockstepFlags flags;
    for (const Pass& pass : plan.passes) flags.push_back(pass.key.spec[ABI_SPEC_LOCKSTEP]);
    return flags;
}

/// A plan with passes, none of them in lockstep.
bool no_lockstep(const Plan& plan) {
    CHECK(lockstep(plan) == LockstepFlags(plan.passes.size(), 0));
    return !plan.passes.empty();
}

std::vector<std::string> kernels(const Plan& plan) {
    std::vector<std::string> k;
    for (const Pass& p : plan.passes)
        k.push_back(std::string(name(p.key.kernel)) + "/" + std::string(name(p.key.storage)));
    return k;
}

/// Whether a pass of `plan` runs `kernel`.
bool has_kernel(const Plan& plan, Kernel kernel) {
    return std::ranges::any_of(plan.passes, [&](const Pass& p) { return p.key.kernel == kernel; });
}

}  // namespace

TEST_CASE("chunk lengths follow the policy tables", "[unit]") {
    const auto cpu = cpu_info(), gpu = gpu_info();
    const ChunkPolicy serial_cpu = select_policy({cpu}).scan.serial;
    CHECK(chunk_length(serial_cpu, 1 << 20, 1) == 4096);  // 256 invocations' worth
    CHECK(chunk_length(serial_cpu, 1 << 30, 1) == 8192);  // capped: loop trips per invocation
    CHECK(chunk_length(serial_cpu, 5000, 1) == 1024);     // short lines are split little
    CHECK(chunk_length(serial_cpu, 5000, 1000) == 5000);  // enough fibers: lines stay whole
    // scan_chained's reduce-then-scan on a GPU (the chained pass did not fit): chunks of whole tiles,
    // 512 of them where the line allows, 1 to 16 tiles each.
    const ScanPolicy scan_gpu = select_policy({gpu}).scan;
    CHECK(scan_gpu.tile_target_items == 512);
    CHECK(scan_gpu.tile_max_tiles == 16);
    const uint64_t tile = 4096;  // 256 invocations of 4 vectors of 4 int32
    const Plan cut = scan_plan(PlanTarget{gpu, kCoop}, {1 << 24}, 0, DML_TENSOR_DATA_TYPE_INT32);  // chained
    REQUIRE(cut.passes.size() == 2);
    CHECK(cut.passes[1].chunk_len == tile);
    const ChunkPolicy tiles{scan_gpu.tile_target_items, tile, scan_gpu.tile_max_tiles * tile, tile};
    CHECK(chunk_length(tiles, 1 << 24, 1) == 8 * tile);   // 512 workgroups of 8 tiles
    CHECK(chunk_length(tiles, 1000, 1) == tile);          // at least one tile
    CHECK(chunk_length(tiles, 1 << 30, 1) == 16 * tile);  // at most 16 tiles
    const ChunkPolicy reduce_gpu = select_policy({gpu, kSerial}).reduce.serial;
    CHECK(chunk_length(reduce_gpu, 1 << 24, 1) == 128);
    CHECK(chunk_length(reduce_gpu, 100, 1) == 16);  // at least 16 rows
}

TEST_CASE("select_policy: the device type picks the rows and their family; the options override each",
          "[unit]") {
    using Rows = vkdml::detail::PolicyRows;
    const auto cpu = cpu_info(), gpu = gpu_info();
    struct Row {
        const vkdml::DeviceInfo& info;
        Kernels kernels;
        Rows rows;
        const char* name;
        bool cpu_rows;
        KernelFamily family;
    };
    const Row table[] = {
        {cpu, kAuto, Rows::automatic, "serial-cpu", true, KernelFamily::serial},
        {gpu, kAuto, Rows::automatic, "cooperative-gpu", false, KernelFamily::cooperative},
        {cpu, kCoop, Rows::automatic, "cooperative-cpu", true, KernelFamily::cooperative},
        {gpu, kSerial, Rows::automatic, "serial-gpu", false, KernelFamily::serial},
        {cpu, kAuto, Rows::gpu, "cooperative-gpu", false, KernelFamily::cooperative},
        {gpu, kAuto, Rows::cpu, "serial-cpu", true, KernelFamily::serial},
        {cpu, kSerial, Rows::gpu, "serial-gpu", false, KernelFamily::serial},
        {gpu, kCoop, Rows::cpu, "cooperative-cpu", true, KernelFamily::cooperative},
    };
    for (const Row& row : table) {
        const Policy p = select_policy({row.info, row.kernels, row.rows});
        INFO(row.name);
        CHECK(p.name == row.name);
        CHECK(p.cpu_rows == row.cpu_rows);
        CHECK(p.scan.inner_lines == row.family);
        CHECK(p.reduce.inner_lines == row.family);
        CHECK(p.scan.serial.target_items == (row.cpu_rows ? 256u : 65536u));
        CHECK(p.reduce.lockstep_min_len == (row.cpu_rows ? 1024u : 0u));
        CHECK(p.scan.chained == !row.cpu_rows);
        CHECK(p.reduce.tree_max_items == (row.cpu_rows ? 64u : 256u));
        CHECK(p.reduce.tree_partials_target_items == (row.cpu_rows ? 8u : 1u));
        CHECK(p.scan.chained_spin_limit == 64);
    }
    // A test device that forces the chained scan's fallback (no flag read before it), or another spin limit.
    for (uint32_t spins : {0u, 1u, 4u}) {
        CHECK(select_policy({gpu, kAuto, Rows::automatic, spins}).scan.chained_spin_limit == spins);
        const Plan forced =
            scan_plan({gpu, kAuto, Rows::automatic, spins}, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32);
        REQUIRE(forced.passes.size() == 2);
        CHECK(forced.passes[1].key.spec[SCAN_SPEC_SPIN_LIMIT] == spins);
    }
    CHECK(
        scan_plan({gpu}, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32).passes[1].key.spec[SCAN_SPEC_SPIN_LIMIT] ==
        64);
}

TEST_CASE("the canonical single pass: lines of up to 2^30 elements, 2^24 where every total falls back",
          "[unit]") {
    const auto gpu = gpu_info();
    const std::vector<vkdml::Tuning> on{{"scan.canonical_chained", 1}};
    auto single_pass = [&](std::optional<uint32_t> spins, uint32_t n, DML_TENSOR_DATA_TYPE type) {
        return has_kernel(scan_plan({gpu, kAuto, PolicyRows::automatic, spins, on}, {1, n}, 1, type),
                          Kernel::scan_canonical_chained);
    };
    // Forced fallbacks (a test device): a tile's walks, every total missing, stay within lavapipe's 65,535
    // loop trips up to 2^24 elements (15 rank-2 totals of up to 2,114 trips each, and the ranks below).
    CHECK(single_pass(0u, 1u << 24, DML_TENSOR_DATA_TYPE_FLOAT32));
    CHECK_FALSE(single_pass(0u, (1u << 24) + 1, DML_TENSOR_DATA_TYPE_FLOAT32));
    CHECK(single_pass(std::nullopt, (1u << 24) + 1, DML_TENSOR_DATA_TYPE_FLOAT32));
    CHECK(single_pass(4u, (1u << 24) + 1, DML_TENSOR_DATA_TYPE_FLOAT32));
    // Ranks 0 to 3 in the states: past 2^30 elements, reduce-then-scan.
    CHECK(single_pass(std::nullopt, 1u << 30, DML_TENSOR_DATA_TYPE_FLOAT16));
    CHECK_FALSE(single_pass(std::nullopt, (1u << 30) + 1, DML_TENSOR_DATA_TYPE_FLOAT16));
}

TEST_CASE("scan_chained runs exact combines only: no float sum, product or log-sum-exp plans it", "[unit]") {
    // (Its values are single accumulators: a compensated pair's low word would be lost there.)
    const auto gpu = gpu_info();
    const std::vector<vkdml::Tuning> single_pass{{"scan.canonical_chained", 1}};
    const PlanTarget targets[] = {{gpu, kCoop}, {gpu, kCoop, PolicyRows::automatic, 0u, single_pass}};
    const std::vector<std::vector<uint32_t>> shapes = {{1 << 20}, {3, 70001}, {4, 1024}, {1 << 26}};
    for (const PlanTarget& t : targets)
        for (DML_TENSOR_DATA_TYPE type :
             {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64})
            for (const auto& sizes : shapes) {
                const auto axis = static_cast<uint32_t>(sizes.size() - 1);
                for (uint32_t op : {SCAN_OP_SUM, SCAN_OP_PRODUCT, SCAN_OP_LOG_SUM_EXP})
                    CHECK_FALSE(has_kernel(scan_plan(t, sizes, axis, type, op), Kernel::scan_chained));
                CHECK(has_kernel(scan_plan(t, sizes, axis, type, SCAN_OP_MAX), Kernel::scan_chained));
            }
}

TEST_CASE("GPU reduction grids from the multiprocessor count: 8 workgroups each, one wave, then one",
          "[unit]") {
    auto h100 = gpu_info();
    h100.compute_units = 132;
    CHECK(select_policy({h100}).reduce.tree_target_items == 1056);
    CHECK(select_policy({gpu_info()}).reduce.tree_target_items == 2048);  // not stated: 2,048
    CHECK(select_policy({h100, kAuto, vkdml::detail::PolicyRows::cpu}).reduce.tree_target_items ==
          8);  // the CPU rows ignore it
    // ARGMAX of 2^26 float32: 1,053 even shares of 63,744 elements (at most 256 per invocation), then the
    // 1,053 states in one workgroup.
    const Plan plan = reduce_plan({h100}, {1u << 26}, 0, REDUCE_F_ARGMAX);
    REQUIRE(kernels(plan) == std::vector<std::string>{"reduce_tree/f32", "reduce_tree/f32"});
    CHECK(plan.passes[0].chunks == 1053);
    CHECK(plan.passes[0].chunk_len == 63744);
    CHECK(plan.passes[1].chunks == 1);
    CHECK(plan.passes[1].key.spec[REDUCE_SPEC_SRC_PARTIALS] == 1);
    // A float SUM: chunks of the canonical association, 32^3 elements (the tree's most; the nearest power
    // of 32 to the policy's 63,744), 2,048 of them in 256 invocations of 4 blocks of 32 each, then their
    // states in one chunk of 2,048 (64 invocations, one per block).
    const Plan sum = reduce_plan({h100}, {1u << 26}, 0, REDUCE_F_SUM);
    REQUIRE(kernels(sum) ==
            std::vector<std::string>{"reduce_tree_canonical/f32", "reduce_tree_canonical/f32"});
    CHECK(sum.passes[0].chunks == 2048);
    CHECK(sum.passes[0].chunk_len == 32768);
    CHECK(sum.passes[0].key.spec[ABI_SPEC_WORKGROUP] == 256);
    CHECK(sum.passes[0].key.spec[REDUCE_SPEC_WALK_TOP] == 2);
    CHECK(sum.passes[1].chunks == 1);
    CHECK(sum.passes[1].key.spec[ABI_SPEC_WORKGROUP] == 64);
    CHECK(sum.passes[1].key.spec[REDUCE_SPEC_WALK_TOP] == 2);
}

TEST_CASE("scan plans: kernel per shape and device class, reduce-then-scan for long fibers", "[unit]") {
    const auto cpu = cpu_info(), gpu = gpu_info();
    const PlanTarget serial_cpu{cpu, kSerial}, coop_gpu{gpu, kCoop};
    // Short fibers: one pass; float32 rows of 64 read in blocks of 4 vectors.
    Plan shortp = scan_plan(serial_cpu, {3, 64}, 1);
    REQUIRE(shortp.passes.size() == 1);
    CHECK(shortp.passes[0].key.spec[SCAN_SPEC_VEC_K] == 4);
    CHECK(shortp.temporary_bytes == 0);
    // One fiber of 2^20 on lavapipe: blocks of 16 elements, 2^16 of them. The CPU minimum is chunks of
    // 1,024 (16,384 elements); a float line takes the canonical walk's chunks of 32^n elements instead,
    // 32,768 (2,048 positions: 32 chunks, half as many). The partials are scanned as compensated pairs
    // (f32x2), then the chunks with their carries.
    Plan longp = scan_plan(serial_cpu, {1 << 20}, 0);
    CHECK(kernels(longp) ==
          std::vector<std::string>{"scan_serial/f32", "scan_serial/f32x2", "scan_serial/f32"});
    CHECK(longp.passes[0].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_REDUCE);
    CHECK(longp.passes[2].key.spec[SCAN_SPEC_HAS_CARRY] == 1);
    CHECK(longp.passes[0].chunk_len == 2048);
    CHECK(longp.passes[0].chunks == 32);
    CHECK(longp.temporary_bytes == 32 * 8);
    CHECK(longp.passes[0].key.spec[SCAN_SPEC_WALK_TOP] == 2);  // 32^3 elements a chunk
    // Integers keep the policy's chunks (any order is exact).
    CHECK(scan_plan(serial_cpu, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32).passes[0].chunks == 64);
    // A GPU: long inner-axis fibers of integers take the chained scan with 256 invocations (tiles of 16
    // KiB: 4 vectors of 4 int32 per invocation), after a pass that zeroes its 256 tile states; shorter
    // ones a tile each; outer-axis ones scan_serial.
    Plan tile = scan_plan(coop_gpu, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32);
    REQUIRE(kernels(tile) == std::vector<std::string>{"scan_chained/u32", "scan_chained/u32"});
    CHECK(tile.passes[0].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_CLEAR);
    CHECK(tile.passes[0].line_length == 258);  // the tile and fallback counters and 256 flags
    CHECK(tile.passes[1].key.spec[ABI_SPEC_WORKGROUP] == 256);
    CHECK(tile.passes[1].key.spec[SCAN_SPEC_ROUNDS] == 4);
    CHECK(tile.passes[1].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_CHAINED);
    CHECK(tile.passes[1].chunk_len == 4096);
    CHECK(tile.passes[1].chunks == 256);
    // The two counters, 256 flags, and three slots (owner, fallback, inclusive) of a word per tile.
    CHECK(tile.temporary_bytes == 4 * (2 + 256 + 3 * 256));
    // One tile per line (1,000 elements: 250 vectors, a workgroup of 256): one pass, no tile states.
    Plan one = scan_plan(coop_gpu, {1000}, 0, DML_TENSOR_DATA_TYPE_INT32);
    REQUIRE(kernels(one) == std::vector<std::string>{"scan_chained/u32"});
    CHECK(one.passes[0].key.spec[ABI_SPEC_WORKGROUP] == 256);
    CHECK(one.passes[0].key.spec[SCAN_SPEC_ROUNDS] == 1);
    CHECK(one.passes[0].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_SCAN);
    CHECK(one.passes[0].bindings[2].unused);
    CHECK(one.temporary_bytes == 0);
    CHECK(scan_plan(coop_gpu, {1000, 100}, 0).passes[0].key.kernel == Kernel::scan_serial);
    // Float sums, products and log-sum-exps tile in the canonical association: 256 invocations of a block
    // of 32 (tiles of 8 nodes of 32^2), in chunks of 32^3 (the power of 32 nearest below the policy's 16
    // tiles, which leaves half its chunks or more) whose totals a carry level scans, never chained.
    Plan canonical = scan_plan(coop_gpu, {1 << 20}, 0);
    REQUIRE(kernels(canonical) == std::vector<std::string>{"scan_canonical_tile/f32", "scan_serial/f32x2",
                                                           "scan_canonical_tile/f32"});
    CHECK(canonical.passes[0].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_REDUCE);
    CHECK(canonical.passes[0].key.spec[ABI_SPEC_WORKGROUP] == 256);
    CHECK(canonical.passes[0].chunk_len == 32768);
    CHECK(canonical.passes[0].chunks == 32);
    CHECK(canonical.passes[0].key.spec[SCAN_SPEC_WALK_TOP] == 0);  // 32 node totals a chunk
    CHECK(canonical.passes[2].key.spec[SCAN_SPEC_HAS_CARRY] == 1);
    CHECK(canonical.temporary_bytes == 32 * 8);
    // A line of 1,000 elements: one node, a workgroup of 32 (one block each), one pass.
    const Plan node = scan_plan(coop_gpu, {1000}, 0, DML_TENSOR_DATA_TYPE_FLOAT64);
    REQUIRE(kernels(node) == std::vector<std::string>{"scan_canonical_tile/f64"});
    CHECK(node.passes[0].key.spec[ABI_SPEC_WORKGROUP] == 32);
    CHECK(node.passes[0].bindings[2].unused);
    // A line of 2^20 + 1: 33 chunks; of 30,000: one chunk (no longer than 32^3), 30 nodes of 32^2 at the
    // walk's level 0.
    CHECK(scan_plan(coop_gpu, {(1 << 20) + 1}, 0).passes[0].chunks == 33);
    const Plan whole = scan_plan(coop_gpu, {30000}, 0);
    REQUIRE(kernels(whole) == std::vector<std::string>{"scan_canonical_tile/f32"});
    CHECK(whole.passes[0].key.spec[SCAN_SPEC_WALK_TOP] == 0);
    // Integer partials accumulate in 32 or 64 bits; 8-bit data keeps 32-bit partials.
    Plan bytes = scan_plan(serial_cpu, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT8);
    CHECK(kernels(bytes) == std::vector<std::string>{"scan_serial/u8", "scan_serial/u32", "scan_serial/u8"});
    // Without subgroup operations the cooperative class falls back to serial kernels for integers; the
    // canonical tiles use none.
    auto plain = gpu;
    plain.subgroup_arithmetic = plain.subgroup_shuffle = false;
    CHECK(scan_plan({plain, kCoop}, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32).passes[0].key.kernel ==
          Kernel::scan_serial);
    CHECK(scan_plan({plain, kCoop}, {1 << 20}, 0).passes[0].key.kernel == Kernel::scan_canonical_tile);
}

TEST_CASE("scan plans: lockstep only for long chunks of neighbouring fibers on CPU devices", "[unit]") {
    const auto cpu = cpu_info(), gpu = gpu_info();
    const PlanTarget serial_cpu{cpu, kSerial}, coop_cpu{cpu, kCoop};
    CHECK(select_policy({cpu, kSerial}).scan.lockstep_min_len == 4096);
    CHECK(select_policy({gpu, kSerial}).scan.lockstep_min_len == 0);
    // Chunks of 4,096 positions or more across 64 fibers (items) or more, both kernel families. (The
    // CPU table splits fibers into chunks unless there are 256 items.)
    CHECK(lockstep(scan_plan(serial_cpu, {4096, 4096}, 0)) == LockstepFlags{1});
    CHECK(lockstep(scan_plan(coop_cpu, {4096, 4096}, 0)) == LockstepFlags{1});
    const Plan elements = scan_plan(serial_cpu, {4100, 259}, 0);
    CHECK(elements.passes[0].key.spec[SCAN_SPEC_VEC_K] == 0);
    CHECK(lockstep(elements) == LockstepFlags{1});
    const Plan vectors = scan_plan(serial_cpu, {4096, 1028}, 0);
    CHECK(vectors.passes[0].key.spec[SCAN_SPEC_VEC_K] == 1);
    CHECK(lockstep(vectors) == LockstepFlags{1});
    // Two chunks (8,192 and 1,808 positions of int32; a float line of 10,000 is one canonical chunk): the
    // chunk passes walk in lockstep, the carries' do not.
    const Plan two = scan_plan(serial_cpu, {10000, 257}, 0, DML_TENSOR_DATA_TYPE_INT32);
    CHECK(two.passes[0].chunk_len == 8192);
    CHECK(lockstep(two) == LockstepFlags{1, 0, 1});
    // Not: chunks under 4,096 positions, fewer items than a workgroup, lines along the inner axis, GPUs.
    CHECK(no_lockstep(scan_plan(serial_cpu, {4095, 4096}, 0)));
    CHECK(no_lockstep(scan_plan(serial_cpu, {4100, 75}, 0)));
    CHECK(no_lockstep(scan_plan(serial_cpu, {64, 1024, 1024}, 0)));
    CHECK(no_lockstep(scan_plan(serial_cpu, {4096, 4096}, 1)));
    CHECK(no_lockstep(scan_plan({gpu, kSerial}, {4096, 4096}, 0)));
}

TEST_CASE("reduce plans: lockstep only for long chunks of neighbouring outputs on CPU devices", "[unit]") {
    const auto cpu = cpu_info(), gpu = gpu_info();
    const PlanTarget serial_cpu{cpu, kSerial}, coop_cpu{cpu, kCoop};
    CHECK(select_policy({cpu, kSerial}).reduce.lockstep_min_len == 1024);
    CHECK(select_policy({gpu, kSerial}).reduce.lockstep_min_len == 0);
    // [4096, 4096] along axis 0: blocks across 16 outputs (256 items), chunks of 1,024 rows walk in
    // lockstep; the pass over their fold states does not.
    const Plan outer = reduce_plan(serial_cpu, {4096, 4096}, 0);
    CHECK(outer.passes[0].chunk_len == 1024);
    CHECK(lockstep(outer) == LockstepFlags{1, 0});
    CHECK(lockstep(reduce_plan(coop_cpu, {4096, 4096}, 0)) == LockstepFlags{1, 0});
    // Element by element (259 outputs), and vectors across 4 outputs (257 items): a chunk of 1,024 rows
    // and a shorter one.
    // (MAX: a float SUM cuts 1,100 rows into chunks of 32^n, here one of 32,768.)
    const Plan elements = reduce_plan(serial_cpu, {1100, 259}, 0, REDUCE_F_MAX);
    CHECK(elements.passes[0].key.spec[REDUCE_SPEC_VEC_K] == 0);
    CHECK(lockstep(elements) == LockstepFlags{1, 0});
    const Plan vectors = reduce_plan(serial_cpu, {2000, 1028}, 0, REDUCE_F_ARGMAX);
    CHECK(vectors.passes[0].key.spec[REDUCE_SPEC_VEC_K] == 1);
    CHECK(lockstep(vectors) == LockstepFlags{1, 0});
    // One chunk of all 1,024 rows.
    CHECK(lockstep(reduce_plan(serial_cpu, {1024, 4096}, 0)) == LockstepFlags{1});
    // Not: chunks under 1,024 positions, fewer items than a workgroup, lines along the inner axis, GPUs.
    CHECK(no_lockstep(reduce_plan(serial_cpu, {1023, 4096}, 0)));
    CHECK(no_lockstep(reduce_plan(serial_cpu, {4096, 48}, 0)));
    CHECK(no_lockstep(reduce_plan(serial_cpu, {4096, 4096}, 1)));
    CHECK(no_lockstep(reduce_plan(serial_cpu, {1u << 20, 3}, 1)));
    CHECK(no_lockstep(reduce_plan({gpu, kSerial}, {4096, 4096}, 0)));
}

TEST_CASE("reduce plans: tree workgroups by length and subgroup size, state passes", "[unit]") {
    for (uint32_t subgroup : {4u, 8u, 16u, 32u, 64u}) {
        INFO("subgroup " << subgroup);
        const auto gpu = gpu_info(subgroup);
        const PlanTarget coop{gpu, kCoop};
        // About n/8 invocations per output, a power of two, at least 32 and a subgroup, at most 256; a
        // float sum one per block of 32.
        const Plan mid = reduce_plan(coop, {10, 1000}, 1, REDUCE_F_ARGMAX);
        CHECK(mid.passes[0].key.kernel == Kernel::reduce_tree);
        CHECK(mid.passes[0].key.spec[ABI_SPEC_WORKGROUP] == std::max(128u, subgroup));
        const Plan mid_sum = reduce_plan(coop, {10, 1000}, 1);
        CHECK(mid_sum.passes[0].key.kernel == Kernel::reduce_tree_canonical);
        CHECK(mid_sum.passes[0].key.spec[ABI_SPEC_WORKGROUP] == std::max(32u, subgroup));
        CHECK(mid_sum.passes[0].key.spec[REDUCE_SPEC_WALK_TOP] == 1);
        const Plan small = reduce_plan(coop, {10, 100}, 1);
        CHECK(small.passes[0].key.spec[ABI_SPEC_WORKGROUP] == std::max(32u, subgroup));
        const Plan big = reduce_plan(coop, {1u << 24}, 0);
        CHECK(big.passes[0].key.spec[ABI_SPEC_WORKGROUP] == 256);
        CHECK(big.passes.size() >= 2);
        CHECK(big.passes[0].key.spec[REDUCE_SPEC_DST_PARTIALS] == 1);
        CHECK(big.passes.back().key.spec[REDUCE_SPEC_SRC_PARTIALS] == 1);
    }
    // Serial reductions of 2^24 elements on lavapipe: blocks of 16 (float64: 8). The policy's chunks of
    // 1,024 blocks give an arg function and an integer sum 1,024 chunk states; a float sum or product
    // takes the nearest power of 32 elements instead, 32,768 (2,048 blocks of 16, 4,096 of 8): 512
    // states. A float SUM's state is (sum, error), LOG_SUM_EXP's (max, sum, error), an arg function's
    // (value, index), an integer sum's (sum); float64 words count twice.
    const auto cpu = cpu_info();
    const PlanTarget serial{cpu, kSerial};
    const Plan sum = reduce_plan(serial, {1u << 24}, 0);
    CHECK(sum.passes[0].chunk_len == 2048);
    CHECK(sum.passes[0].key.spec[REDUCE_SPEC_WALK_TOP] == 2);
    CHECK(sum.temporary_bytes == 512 * 2 * 4);
    CHECK(reduce_plan(serial, {1u << 24}, 0, REDUCE_F_LOG_SUM_EXP).temporary_bytes == 512 * 3 * 4);
    CHECK(reduce_plan(serial, {1u << 24}, 0, REDUCE_F_ARGMAX).temporary_bytes == 1024 * 2 * 4);
    CHECK(reduce_plan(serial, {1u << 24}, 0, REDUCE_F_SUM, DML_TENSOR_DATA_TYPE_INT32).temporary_bytes ==
          1024 * 4);
    // float64: 512 states of 4 words, folded in one more pass.
    const Plan f64 = reduce_plan(serial, {1u << 24}, 0, REDUCE_F_SUM, DML_TENSOR_DATA_TYPE_FLOAT64);
    CHECK(f64.passes.size() == 2);
    CHECK(f64.passes[0].chunk_len == 4096);
    CHECK(f64.temporary_bytes == 512 * 4 * 4);
    // Outer-axis reductions: blocks across 16 outputs.
    const Plan outer = reduce_plan(serial, {1000, 64}, 0);
    CHECK(outer.passes[0].key.spec[REDUCE_SPEC_VEC_F] == 16);
    // Many tiny rows: a CPU device reads 16 rows of 3 in 12 vectors per item, a GPU 4 rows in 3.
    const Plan rows_cpu = reduce_plan(serial, {1024, 3}, 1);
    CHECK(rows_cpu.passes[0].key.spec[REDUCE_SPEC_VEC_K] == 12);
    CHECK(rows_cpu.passes[0].key.spec[REDUCE_SPEC_VEC_F] == 16);
    const auto gpu = gpu_info();
    const Plan rows_gpu = reduce_plan({gpu, kSerial}, {1024, 3}, 1);
    CHECK(rows_gpu.passes[0].key.spec[REDUCE_SPEC_VEC_K] == 3);
    CHECK(rows_gpu.passes[0].key.spec[REDUCE_SPEC_VEC_F] == 4);
    // Items of serial passes are line-major where lines are far apart: a few long rows and the fold
    // states; chunk-major across neighbouring outputs.
    const Plan few = reduce_plan(serial, {4, 1u << 22}, 1);
    REQUIRE(few.passes.size() >= 2);
    CHECK(few.passes[0].key.spec[ABI_SPEC_LINE_MAJOR] == 1);
    CHECK_FALSE(few.passes[0].chunk_major);
    CHECK(few.passes[1].key.spec[ABI_SPEC_LINE_MAJOR] == 1);
    const Plan across = reduce_plan(serial, {1u << 20, 64}, 0);
    CHECK(across.passes[0].key.spec[ABI_SPEC_LINE_MAJOR] == 0);
    CHECK(across.passes[0].chunk_major);
}

TEST_CASE("plans through small windows: more dispatches, same invariants", "[unit]") {
    for (bool serial : {true, false}) {
        auto info = serial ? cpu_info() : gpu_info();
        info.max_storage_buffer_range = 1 << 16;  // 64 KiB windows
        const PlanTarget t{info, serial ? kSerial : kCoop};
        const Plan scan = scan_plan(t, {300, 700}, 1);
        const Plan outer = scan_plan(t, {700, 300}, 0);
        const Plan reduce = reduce_plan(t, {300, 700}, 1);
        const Plan across = reduce_plan(t, {700, 300}, 0);
        CHECK(scan.passes.back().segments.size() > 1);
        CHECK(reduce.passes.front().segments.size() > 1);
        CHECK(outer.passes.size() >= 1);
        CHECK(across.passes.size() >= 1);
    }
}

TEST_CASE("plans past 32-bit item indices fail with unsupported_device", "[unit]") {
    const auto cpu = cpu_info();
    ReduceRequest r;
    r.problem.kept = {{0xFFFFFFFFu, 1, 1}, {4, 0xFFFFFFFFu, 0}};
    r.problem.line = {{2, 0, 0}};
    Plan plan;
    const vkdml::Status st = plan_reduce({cpu, kSerial}, r, plan);
    REQUIRE_FALSE(st);
    CHECK(st.error().code == vkdml::ErrorCode::unsupported_device);
    CHECK(st.error().message.find("more than 32-bit indexing allows") != std::string::npos);
}

namespace {

/// How many times each unit (element_bytes bytes) of binding b is touched by pass `pass`, from the
/// pass's access description (what windows are cut from): items (group, chunk), the chunk's positions,
/// `extent` units from each. Empty when some item touches a unit outside [0, units).
std::vector<int> touches(const Pass& pass, uint32_t b, uint64_t units) {
    const Access& a = pass.access[b];
    std::vector<int> count(units, 0);
    uint64_t group_count = 1;
    for (const AccessDim& d : a.group) group_count *= d.size;
    REQUIRE(group_count == pass.groups);
    for (uint64_t g = 0; g < group_count; ++g) {
        int64_t group_offset = a.origin;
        uint64_t rest = g;
        for (size_t i = a.group.size(); i-- > 0;) {
            group_offset += int64_t(rest % a.group[i].size) * a.group[i].stride;
            rest /= a.group[i].size;
        }
        for (uint64_t c = 0; c < pass.chunks; ++c) {
            const uint64_t first = a.per_chunk ? c : c * pass.chunk_len;
            const uint64_t last = a.per_chunk ? c + 1 : std::min((c + 1) * pass.chunk_len, pass.line_length);
            for (uint64_t pos = first; pos < last; ++pos) {
                int64_t offset = group_offset;
                uint64_t r = pos;
                for (size_t i = a.line.size(); i-- > 0;) {
                    offset += int64_t(r % a.line[i].size) * a.line[i].stride;
                    r /= a.line[i].size;
                }
                for (uint32_t e = 0; e < a.extent; ++e) {
                    if (offset + e < 0 || uint64_t(offset + e) >= units) return {};  // outside the tensor
                    ++count[uint64_t(offset + e)];
                }
            }
        }
    }
    return count;
}

bool all_once(const std::vector<int>& count) {
    return !count.empty() && std::all_of(count.begin(), count.end(), [](int n) { return n == 1; });
}

/// The first pass reads every input element once and the last writes every output element once; a scan's
/// last pass also reads every input element once. (A chained scan's first pass only zeroes its tile states.)
void check_elements_once(const Plan& plan, const std::vector<uint32_t>& sizes, uint32_t axis,
                         DML_TENSOR_DATA_TYPE type, bool reduce) {
    uint64_t elements = 1, outputs = 1;
    for (uint32_t d = 0; d < sizes.size(); ++d) {
        elements *= sizes[d];
        if (d != axis) outputs *= sizes[d];
    }
    const uint64_t bytes = elements * vkdml::element_size(type);
    const uint64_t out_bytes = (reduce ? outputs : elements) * vkdml::element_size(type);
    const Pass& first = plan.passes.front().bindings[0].unused ? plan.passes.at(1) : plan.passes.front();
    const Pass& last = plan.passes.back();
    CHECK(all_once(touches(first, 0, bytes / first.bindings[0].element_bytes)));
    CHECK(all_once(touches(last, 1, out_bytes / last.bindings[1].element_bytes)));
    if (!reduce) CHECK(all_once(touches(last, 0, bytes / last.bindings[0].element_bytes)));
}

}  // namespace

TEST_CASE(
    "GPU plans at subgroup sizes 32 and 64: every element read and written once, workgroups of "
    "at least a subgroup",
    "[unit]") {
    std::mt19937 engine(20261125);
    auto rng = [&engine] { return static_cast<uint32_t>(engine()); };
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                          DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT64,
                                          DML_TENSOR_DATA_TYPE_FLOAT64};
    int plans = 0;
    for (uint32_t subgroup : {32u, 64u}) {
        for (bool serial : {false, true}) {
            const auto info = gpu_info(subgroup);
            const PlanTarget t{info, serial ? kSerial : kCoop};
            for (int round = 0; round < 60; ++round) {
                // 1 to 3 dimensions of 1 to 40 elements, or one of up to 40,000 and the others up to 4.
                const uint32_t rank = 1 + rng() % 3;
                const bool one_long = rng() % 2 == 0;
                std::vector<uint32_t> sizes(rank);
                for (uint32_t& s : sizes) s = 1 + rng() % (one_long ? 4 : 40);
                if (one_long) sizes[rng() % rank] = 1 + rng() % 40000;
                const uint32_t axis = rng() % rank;
                const DML_TENSOR_DATA_TYPE type = types[rng() % std::size(types)];
                INFO("subgroup " << subgroup << (serial ? " serial" : " cooperative") << ", type " << type
                                 << ", axis " << axis << " of " << Catch::Detail::stringify(sizes));
                for (bool reduce : {false, true}) {
                    const Plan plan = reduce ? reduce_plan(t, sizes, axis, REDUCE_F_SUM, type)
                                             : scan_plan(t, sizes, axis, type);
                    ++plans;
                    for (const Pass& pass : plan.passes) {
                        INFO(name(pass.key.kernel));
                        CHECK(pass.key.spec[ABI_SPEC_WORKGROUP] >= subgroup);
                        CHECK(pass.key.spec[ABI_SPEC_WORKGROUP] <= info.max_workgroup_invocations);
                        if (pass.items_per_workgroup == 1)  // cooperative: whole subgroups
                            CHECK(pass.key.spec[ABI_SPEC_WORKGROUP] % subgroup == 0);
                    }
                    check_elements_once(plan, sizes, axis, type, reduce);
                }
            }
        }
    }
    CHECK(plans == 480);
}

TEST_CASE("plans under random tunings of either rows keep every invariant, at subgroup sizes 32 and 64",
          "[unit]") {
    // Each knob's range must keep every plan valid on any device (policy_tuning.cpp): the invariants
    // record() relies on (check_plan), every element read and written once, and a pipeline that uses
    // subgroup operations (and so requires full subgroups) a whole number of them.
    std::mt19937 engine(20261130);
    auto rng = [&engine] { return static_cast<uint64_t>(engine()); };
    const auto knobs = vkdml::tuning_knobs();
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32,
                                          DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT8,
                                          DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT64};
    int plans = 0;
    for (int round = 0; round < 400; ++round) {
        const uint32_t subgroup = round % 2 ? 64 : 32;
        const auto info = gpu_info(subgroup);
        const PolicyRows rows = round % 3 == 0 ? PolicyRows::cpu : PolicyRows::automatic;
        const Kernels kernels = round % 5 == 0 ? kSerial : kAuto;
        // 1 to 4 knobs, each a power of two, an end of its range or a value between (log-uniform).
        std::vector<vkdml::Tuning> tuning;
        for (uint64_t k = 1 + rng() % 4; k-- > 0;) {
            const vkdml::TuningKnob& knob = knobs[rng() % knobs.size()];
            uint64_t v = 0;
            switch (rng() % 3) {
            case 0: v = rng() % 2 ? knob.min : knob.max; break;
            case 1:
                v = std::bit_floor(
                    std::max<uint64_t>(knob.min, std::min(knob.max, uint64_t(1) << (rng() % 33))));
                break;
            default: {  // (one draw per statement: the order of two in one expression is the compiler's)
                const uint64_t cap = uint64_t(1) << (1 + rng() % 25);
                const uint64_t draw = rng();
                v = knob.min + draw % std::min(knob.max - knob.min + 1, cap);
            }
            }
            if (knob.power_of_two) v = std::max(knob.min, std::bit_floor(v));
            if (std::none_of(tuning.begin(), tuning.end(),
                             [&](const auto& t) { return t.knob == knob.name; }))
                tuning.push_back({std::string(knob.name), v});
        }
        if (!check_tuning(tuning, select_policy({info, kernels, rows}), ""))
            continue;  // a chunk's least > most
        const PlanTarget t{info, kernels, rows, std::nullopt, tuning};
        auto below = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
        const uint32_t rank = 1 + below(2);
        std::vector<uint32_t> sizes(rank);
        for (uint32_t& s : sizes) s = 1 + below(5);
        const uint32_t longest = below(rank);
        sizes[longest] = 1 + below(300000);
        const uint32_t axis = below(rank);
        const DML_TENSOR_DATA_TYPE type = types[rng() % std::size(types)];
        INFO("tuned " << tuning_text(tuning) << ", subgroup " << subgroup << ", type " << type << ", axis "
                      << axis << " of " << Catch::Detail::stringify(sizes));
        for (bool reduce : {false, true}) {
            const Plan plan =
                reduce ? reduce_plan(t, sizes, axis, REDUCE_F_SUM, type) : scan_plan(t, sizes, axis, type);
            ++plans;
            for (const Pass& pass : plan.passes) {
                INFO(name(pass.key.kernel));
                const KernelBinary* binary = find_kernel(pass.key.kernel, pass.key.storage);
                REQUIRE(binary);
                if (uses_subgroups(*binary) && pass.items_per_workgroup == 1)
                    CHECK(pass.key.spec[ABI_SPEC_WORKGROUP] % subgroup == 0);
                CHECK(pass.key.spec[ABI_SPEC_WORKGROUP] <= info.max_workgroup_invocations);
            }
            check_elements_once(plan, sizes, axis, type, reduce);
        }
    }
    CHECK(plans == 638);  // 319 of the 400 tunings pass check_tuning (the others: a least above its most)
}

TEST_CASE("scan plans: a selection's index output (the values to scratch, the marks, their scan in place)",
          "[unit]") {
    struct Case {
        DML_TENSOR_DATA_TYPE type, index_type;
        std::vector<uint32_t> sizes;
        uint32_t axis;
        bool reverse, exclusive;
    };
    const Case cases[] = {
        {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64, {1 << 22}, 0, false, false},
        {DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_INT32, {300, 7000}, 1, true, true},
        {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT64, {5000, 3}, 0, false, true}};
    // A cumulative maximum's index output, packed, as plan_cumulative asks for it.
    auto request = [](const Case& c) {
        IndexRequest q;
        q.values.op = SCAN_OP_MAX;
        q.values.type = c.type;
        q.values.reverse = c.reverse;
        q.values.exclusive = c.exclusive;
        q.values.problem = packed(c.sizes, c.axis, false);
        q.index_type = c.index_type;
        q.index_elements = 1;
        for (uint32_t n : c.sizes) q.index_elements *= n;
        q.index_problem = q.values.problem;
        return q;
    };
    for (const PlanTarget& target : {PlanTarget{gpu_info(32), kCoop}, PlanTarget{cpu_info(8), kAuto}})
        for (const Case& c : cases) {
            INFO(vkdml::to_string(c.type) << " -> " << vkdml::to_string(c.index_type) << " axis " << c.axis);
            const IndexRequest q = request(c);
            Plan plan;
            REQUIRE(plan_selection_index(target, q, plan));
            check_plan(plan, target.info);
            // The mark pass: the input, the index output, the running values in scratch; every pass after
            // it reads and writes the index output in place (or its partials).
            size_t mark = plan.passes.size();
            for (size_t i = 0; i < plan.passes.size(); ++i) {
                const uint32_t mode = plan.passes[i].key.spec[SCAN_SPEC_MODE];
                if (mode == SCAN_MODE_MARK32 || mode == SCAN_MODE_MARK64) mark = i;
            }
            REQUIRE(mark < plan.passes.size());
            const Pass& m = plan.passes[mark];
            CHECK(m.key.kernel == Kernel::scan_serial);
            CHECK(m.key.spec[SCAN_SPEC_MODE] ==
                  (vkdml::element_size(c.index_type) == 8 ? SCAN_MODE_MARK64 : SCAN_MODE_MARK32));
            CHECK(m.key.spec[SCAN_SPEC_VEC_K] == 0);
            CHECK(m.key.spec[ABI_SPEC_LOCKSTEP] == 0);
            CHECK((m.bindings[0].slot == Slot::input && m.bindings[1].slot == Slot::output &&
                   m.bindings[1].index == 1 && m.bindings[2].slot == Slot::temporary));
            CHECK(m.bindings[1].element_bytes == vkdml::element_size(c.index_type));
            CHECK(m.access[0].lead == (c.exclusive ? 1u : 0u));
            for (size_t i = 0; i < mark; ++i)  // the values, into scratch
                for (const PassBinding& b : plan.passes[i].bindings)
                    CHECK((b.unused || b.slot != Slot::output));
            for (size_t i = mark + 1; i < plan.passes.size(); ++i) {
                const Pass& p = plan.passes[i];
                CHECK(p.key.spec[SCAN_SPEC_OP] == (c.reverse ? SCAN_OP_MIN : SCAN_OP_MAX));
                CHECK(p.key.spec[SCAN_SPEC_SIGNED] == (c.reverse ? 0u : 1u));
                CHECK(p.key.spec[SCAN_SPEC_EXCLUSIVE] == (p.bindings[1].slot == Slot::output ? 0u : 1u));
                for (const PassBinding& b : p.bindings)
                    CHECK(
                        (b.unused || b.slot == Slot::temporary || (b.slot == Slot::output && b.index == 1)));
            }
        }
    // scan.mark_max_len: the marks in chunks of at most that many positions (1: an element per invocation;
    // an exclusive scan's chunk one shorter than a window allows, then capped).
    for (const auto& [sizes, exclusive, cap] : {std::tuple{std::vector<uint32_t>{4096, 64}, true, 1u},
                                                std::tuple{std::vector<uint32_t>{3, 100000}, false, 1u},
                                                std::tuple{std::vector<uint32_t>{3, 100000}, true, 7u}}) {
        INFO(Catch::Detail::stringify(sizes) << (exclusive ? " exclusive" : "") << ", cap " << cap);
        const std::vector<vkdml::Tuning> tuning{{"scan.mark_max_len", cap}};
        const PlanTarget target{gpu_info(32), kCoop, PolicyRows::automatic, std::nullopt, tuning};
        Plan plan;
        REQUIRE(plan_selection_index(
            target,
            request({DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64, sizes, 1, false, exclusive}),
            plan));
        check_plan(plan, target.info);
        const auto mark = std::find_if(plan.passes.begin(), plan.passes.end(), [](const Pass& p) {
            return p.key.spec[SCAN_SPEC_MODE] == SCAN_MODE_MARK64;
        });
        REQUIRE(mark != plan.passes.end());
        CHECK(mark->chunk_len == cap);
        CHECK(mark->groups * mark->chunks == sizes[0] * ceil_div(sizes[1], cap));
    }
}

TEST_CASE("scan plans: carry levels run in place through one binding (the H200's integer scans)", "[unit]") {
    // The cases that came out wrong on an NVIDIA H200 (subgroup size 32): the carry level scanned its
    // partials reading binding 0 and writing binding 1 over the same scratch region, which SPIR-V lets the
    // compiler assume never happens (every integer carry read back as the identity).
    struct Case {
        DML_TENSOR_DATA_TYPE type;
        std::vector<uint32_t> sizes;
        uint32_t axis;
    };
    const Case cases[] = {{DML_TENSOR_DATA_TYPE_UINT32, {40, 16}, 0},
                          {DML_TENSOR_DATA_TYPE_INT32, {4096, 1028}, 0},
                          {DML_TENSOR_DATA_TYPE_UINT32, {4, 65537, 4}, 1},
                          {DML_TENSOR_DATA_TYPE_INT32, {1 << 20}, 0},
                          {DML_TENSOR_DATA_TYPE_FLOAT32, {1 << 20}, 0}};
    const auto gpu = gpu_info(32);
    for (bool serial : {true, false})
        for (const Case& c : cases) {
            INFO(vkdml::to_string(c.type) << " axis " << c.axis << (serial ? " serial" : " cooperative"));
            Plan plan = scan_plan({gpu, serial ? kSerial : kCoop}, c.sizes, c.axis, c.type);
            if (!serial && c.sizes.size() == 1 && c.type == DML_TENSOR_DATA_TYPE_INT32) {  // one chained pass
                CHECK(plan.passes.back().key.kernel == Kernel::scan_chained);
                continue;
            }
            REQUIRE(plan.passes.size() >= 3);
            // The caller's tensors: read through binding 0, written through binding 1 (record() switches
            // to in-place pipelines only when the caller binds them in place).
            CHECK(plan.passes.back().key.spec[SCAN_SPEC_IN_PLACE] == 0);
            CHECK(plan.passes.back().bindings[0].slot == Slot::input);
            size_t in_place = 0;
            for (const Pass& pass : plan.passes) {
                if (!pass.key.spec[SCAN_SPEC_IN_PLACE]) continue;
                ++in_place;
                CHECK(pass.key.spec[SCAN_SPEC_MODE] == SCAN_MODE_SCAN);
                CHECK(pass.bindings[0].unused);
                CHECK(pass.bindings[1].slot == Slot::temporary);
            }
            CHECK(in_place >= 1);
        }
}

TEST_CASE("a required subgroup size of 4 plans cooperative workgroups of 128 where 32 subgroups is the limit",
          "[subgroups]") {
    vkdml::DeviceInfo info = vkdml_unit::gpu_info(4);
    info.max_workgroup_subgroups = 32;  // lavapipe at subgroup size 4
    const PlanTarget t{info, vkdml::KernelChoice::cooperative};
    const Plan scan = scan_plan(t, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_INT32);
    REQUIRE(scan.passes.back().key.kernel == Kernel::scan_chained);
    const Plan tiles = scan_plan(t, {1 << 20}, 0);
    REQUIRE(tiles.passes.back().key.kernel == Kernel::scan_canonical_tile);
    const Plan arg = reduce_plan(t, {1 << 20}, 0, REDUCE_F_ARGMAX);
    REQUIRE(arg.passes.front().key.kernel == Kernel::reduce_tree);
    const Plan sum = reduce_plan(t, {1 << 20}, 0);
    REQUIRE(sum.passes.front().key.kernel == Kernel::reduce_tree_canonical);
    for (const Plan* plan : {&scan, &tiles, &arg, &sum})
        for (const Pass& p : plan->passes) CHECK(p.key.spec[ABI_SPEC_WORKGROUP] <= 128);
    CHECK(scan.passes.back().key.spec[ABI_SPEC_WORKGROUP] == 128);
    CHECK(arg.passes.front().key.spec[ABI_SPEC_WORKGROUP] == 128);
}

TEST_CASE("the cooperative tiles fit the workgroup memory: fewer rounds or invocations, else serial",
          "[subgroups]") {
    vkdml::DeviceInfo info = vkdml_unit::gpu_info(32);
    info.max_shared_memory_bytes = 16384;  // the least Vulkan promises
    auto serial = [](const Plan& plan) {
        return std::all_of(plan.passes.begin(), plan.passes.end(),
                           [](const Pass& p) { return p.key.kernel == Kernel::scan_serial; });
    };
    // scan_chained (integers): 4 rounds of int64 take (256 + 128) segments twice and a window of 256
    // values, about 10.4 KB; in 10,000 bytes 3 rounds (9.4 KB) fit; in 7,000 not even one.
    const auto i64 = DML_TENSOR_DATA_TYPE_INT64;
    const Plan four = scan_plan({info}, {1 << 20}, 0, i64);
    REQUIRE(four.passes.back().key.kernel == Kernel::scan_chained);
    CHECK(four.passes.back().key.spec[SCAN_SPEC_ROUNDS] == 4);
    info.max_shared_memory_bytes = 10000;
    const Plan three = scan_plan({info}, {1 << 20}, 0, i64);
    REQUIRE(three.passes.back().key.kernel == Kernel::scan_chained);
    CHECK(three.passes.back().key.spec[SCAN_SPEC_ROUNDS] == 3);
    info.max_shared_memory_bytes = 7000;
    CHECK(serial(scan_plan({info}, {1 << 20}, 0, i64)));
    // Its float maximum and minimum hold an accumulator per value, as int64 does: float64 the same rounds.
    info.max_shared_memory_bytes = 10000;
    const Plan f64_max = scan_plan({info}, {1 << 20}, 0, DML_TENSOR_DATA_TYPE_FLOAT64, SCAN_OP_MAX);
    REQUIRE(f64_max.passes.back().key.kernel == Kernel::scan_chained);
    CHECK(f64_max.passes.back().key.spec[SCAN_SPEC_ROUNDS] == 3);
    // scan_canonical_tile (floats): a float64 pair per block and per node, (256 + 8) x 16 bytes; in 4,096
    // bytes 128 invocations; in 512 not even a node of 32.
    info.max_shared_memory_bytes = 16384;
    const auto f64 = DML_TENSOR_DATA_TYPE_FLOAT64;
    CHECK(scan_plan({info}, {1 << 20}, 0, f64).passes.back().key.spec[ABI_SPEC_WORKGROUP] == 256);
    info.max_shared_memory_bytes = 4096;
    const Plan half = scan_plan({info}, {1 << 20}, 0, f64);
    REQUIRE(half.passes.back().key.kernel == Kernel::scan_canonical_tile);
    CHECK(half.passes.back().key.spec[ABI_SPEC_WORKGROUP] == 128);
    info.max_shared_memory_bytes = 512;
    CHECK(serial(scan_plan({info}, {1 << 20}, 0, f64)));
    // A device whose workgroups hold fewer than 32 invocations has no node of 32 blocks: serial.
    vkdml::DeviceInfo narrow = vkdml_unit::gpu_info(16);
    narrow.max_workgroup_invocations = 16;
    CHECK(serial(scan_plan({narrow}, {1 << 20}, 0)));
}
