// The policy tables (see policy.hpp).
#include "core/policy.hpp"

#include "core/kernel_abi.hpp"
#include "core/policy_tuning.hpp"

#include <algorithm>

namespace vkdml::detail {

namespace {

// Serial chunks. CPU devices: up to 8,192 positions per invocation, lines under 1,024 never split, a
// few hundred (scans) or thousand (reductions) invocations are plenty. GPUs: short chunks, many items
// (reductions across outputs from 16 rows: the H200 ran a [4096, 4096] sum along axis 0 at 0.19x torch
// with chunks of 64, 16,384 invocations in blocks of 16 outputs, too few to cover memory latency;
// chunks of 16 make 65,536, and the 8 MB of states they leave stay in the L2 cache).
constexpr ChunkPolicy kScanSerialCpu{.target_items = 256, .min_len = 1024, .max_len = 8192};
constexpr ChunkPolicy kScanSerialGpu{.target_items = 65536, .min_len = 32, .max_len = 512};
constexpr ChunkPolicy kReduceSerialCpu{.target_items = 2048, .min_len = 1024, .max_len = 8192};
constexpr ChunkPolicy kReduceSerialGpu{.target_items = 131072, .min_len = 16, .max_len = 256};

// Cooperative kernels: scan_chained's reduce-then-scan takes chunks of 1 to 16 tiles (the policy's
// tile_max_tiles: at most 16 x 16 vector trips per invocation); a few workgroups fill a CPU device,
// hundreds or thousands a GPU.
constexpr ScanPolicy scan_policy(KernelFamily family, ChunkPolicy serial, uint64_t tiles_target,
                                 uint32_t row_vectors, uint64_t lockstep_min_len) {
    return {.inner_lines = family,
            .row_block_vectors = row_vectors,
            .lockstep_min_len = lockstep_min_len,
            .serial = serial,
            .tile_target_items = tiles_target};
}
constexpr ReducePolicy reduce_policy(KernelFamily family, ChunkPolicy serial, uint64_t tree_target,
                                     uint32_t row_vectors, uint64_t lockstep_min_len) {
    return {.inner_lines = family,
            .row_block_vectors = row_vectors,
            .lockstep_min_len = lockstep_min_len,
            .serial = serial,
            .tree_target_items = tree_target,
            .tree_partials_target_items = tree_target};
}

// Blocks of whole short rows: on CPU devices up to 16 vectors (an invocation's fixed cost outweighs a
// tiny row's work: [1M, 3] sums ran 2x faster with 16 rows per item than with 4, [1M, 8] 3.6x); GPUs
// keep 4 (each row's state lives in registers).
constexpr uint32_t kCpuRowVectors = 16, kGpuRowVectors = 4;

// Serial scans across neighbouring fibers walk chunks of 4,096 positions or more in lockstep on CPU
// devices (scan_serial's LOCKSTEP: a workgroup sweeps its fibers row by row). On lavapipe, along axis 0:
// [4096, 4096] 37 -> 25 ms, [8192, 2048] 55 -> 37 ms, [4096, 4104] 77 -> 29 ms; chunks of 1,024 ran 10 %
// slower, of 64 rows 20 %. GPUs run a workgroup's invocations together anyway: never.
constexpr uint64_t kCpuLockstepLength = 4096, kGpuLockstepLength = 0;
// Reductions likewise (reduce_serial), from the shortest chunk CPU devices cut: along axis 0 of
// [4096, 4096] (chunks of 1,024 rows) 16.8 -> 10.8 ms.
constexpr uint64_t kCpuReduceLockstepLength = 1024;

// The rows. CPU devices run the serial family everywhere (lavapipe: an invocation's loop beats a
// workgroup's barriers); GPUs run inner-axis lines cooperatively, long ones in one chained pass (the
// elements read once and written once, against three passes over memory for reduce-then-scan).
constexpr Policy kCpuRow{
    "serial-cpu", true,
    scan_policy(KernelFamily::serial, kScanSerialCpu, 8, kCpuRowVectors, kCpuLockstepLength),
    reduce_policy(KernelFamily::serial, kReduceSerialCpu, 8, kCpuRowVectors, kCpuReduceLockstepLength)};
constexpr ScanPolicy chained(ScanPolicy p) {
    p.chained = true;
    return p;
}
// GPU trees fold up to 256 elements per invocation and chunk (64 vector loads, 16 bytes each for
// 32-bit types: 16 trips of 4 in flight): a 2^26-element float32 sum is 2,048 workgroups, about two waves of
// 256 invocations on a 132-multiprocessor GPU at 8 workgroups each, rather than 4,096 short ones.
constexpr ReducePolicy long_trees(ReducePolicy p) {
    p.tree_max_items = 256;
    p.tree_partials_target_items = 1;  // the states of up to 65,536 chunks in one workgroup
    return p;
}
constexpr Policy kGpuRow{
    "cooperative-gpu", false,
    chained(scan_policy(KernelFamily::cooperative, kScanSerialGpu, 512, kGpuRowVectors, kGpuLockstepLength)),
    long_trees(reduce_policy(KernelFamily::cooperative, kReduceSerialGpu, 2048, kGpuRowVectors,
                             kGpuLockstepLength))};

}  // namespace

uint64_t chunk_length(const ChunkPolicy& c, uint64_t positions, uint64_t lines) {
    const uint64_t want_chunks = (c.target_items + lines - 1) / std::max<uint64_t>(lines, 1);
    const uint64_t even = (positions + want_chunks - 1) / want_chunks;
    const uint64_t rounded = (even + c.quantum - 1) / c.quantum * c.quantum;
    return std::clamp(rounded, c.min_len, c.max_len);
}

// GPU reduction grids from the multiprocessor count, where the driver states it: 8 workgroups of 256
// per multiprocessor (2,048 resident invocations, NVIDIA's and AMD's occupancy limit), each folding an
// even share of the line: one full wave, no tail. (CUB's DeviceReduce sizes its grid from the same two
// numbers, times 5, and strides its blocks over tiles; which is better here is for a GPU to say.)
constexpr uint64_t kTreeWorkgroupsPerUnit = 8;

bool whole_subgroups(const DeviceInfo& info) {
    return info.full_subgroups || info.min_subgroup_size == info.max_subgroup_size;
}

uint32_t cooperative_workgroup_limit(const DeviceInfo& info) {
    if (!info.full_subgroups || info.max_workgroup_subgroups == 0) return info.max_workgroup_invocations;
    return static_cast<uint32_t>(std::min<uint64_t>(
        info.max_workgroup_invocations, uint64_t(info.subgroup_size) * info.max_workgroup_subgroups));
}

Policy select_policy(const PlanTarget& t) {
    using Rows = PolicyRows;
    using Kernels = KernelChoice;
    const bool cpu =
        t.rows == Rows::automatic ? t.info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU : t.rows == Rows::cpu;
    Policy p = cpu ? kCpuRow : kGpuRow;
    if (t.chained_spin_limit) p.scan.chained_spin_limit = *t.chained_spin_limit;
    if (!cpu && t.info.compute_units > 0)
        p.reduce.tree_target_items = kTreeWorkgroupsPerUnit * t.info.compute_units;
    if (t.kernels != Kernels::automatic) {
        const KernelFamily f =
            t.kernels == Kernels::serial ? KernelFamily::serial : KernelFamily::cooperative;
        p.scan.inner_lines = p.reduce.inner_lines = f;
    }
    if (!whole_subgroups(t.info)) p.scan.inner_lines = p.reduce.inner_lines = KernelFamily::serial;
    apply_tuning(t.tuning, p);
    static constexpr std::string_view kNames[2][2] = {{"serial-gpu", "cooperative-gpu"},
                                                      {"serial-cpu", "cooperative-cpu"}};
    p.name = kNames[cpu][p.scan.inner_lines == KernelFamily::cooperative];
    return p;
}

}  // namespace vkdml::detail
