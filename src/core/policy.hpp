// Tuning, in one row per device class (like CUB's agent policies): which kernel family runs which
// shape, workgroup sizes, and how lines are cut into chunks. select_policy is the one place that reads
// the device's type; the planners read the policy it returns. A tuned policy for a GPU vendor is one
// more row.
//
// Serial kernels (scan_serial, reduce_serial) give each invocation one chunk of a line; cooperative
// kernels (scan_chained, reduce_tree) give each workgroup one. Chunks bound the loop trips per invocation
// (lavapipe silently ends a loop after 65,535) and give the device enough items to fill it; splitting
// a line costs another pass over its partials, so CPU devices, which need few items, split less.
#pragma once

#include "core/policy_override.hpp"
#include "vkdml/vkdml.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace vkdml::detail {

/// Which kernels run a shape. serial (scan_serial, reduce_serial): an invocation per chunk, every shape.
/// cooperative (scan_chained, reduce_tree): a workgroup per chunk with subgroup operations, for lines along
/// the innermost axis of some length only; other shapes run serially in either family.
enum class KernelFamily : uint8_t { serial, cooperative };

/// How a planner splits lines of positions into chunks for one kernel: aiming at `target_items` items
/// (chunks over all lines), a chunk length rounded up to a multiple of `quantum` and clamped to
/// [min_len, max_len].
struct ChunkPolicy {
    uint64_t target_items = 1;
    uint64_t min_len = 1, max_len = 1;
    uint64_t quantum = 1;
};

/// The chunk length (positions) for lines of `positions` positions, `lines` of them.
uint64_t chunk_length(const ChunkPolicy& policy, uint64_t positions, uint64_t lines);

struct ScanPolicy {
    KernelFamily inner_lines = KernelFamily::serial;  ///< inner-axis lines of tile_min_length or more
    uint32_t serial_workgroup = 64;
    uint32_t row_block_vectors = 4;  ///< scan_serial: vectors per block of whole short rows, at most
    /// scan_serial: a workgroup of neighbouring fibers walks chunks of at least this many positions
    /// together (LOCKSTEP; 0: never)
    uint64_t lockstep_min_len = 0;
    ChunkPolicy serial;  ///< scan_serial: positions (elements or blocks) per invocation
    // scan_chained, every mode: tiles of ROUNDS vectors per invocation.
    uint32_t tile_workgroup = 256;   ///< at most cooperative_workgroup_limit; less for a short line
    uint32_t tile_bytes = 16384;     ///< about this many bytes of elements per tile (1 to 16 rounds)
    uint32_t tile_min_length = 64;   ///< shorter lines run serially
    uint64_t tile_target_items = 1;  ///< reduce-then-scan: chunks (of whole tiles) worth splitting for
    uint32_t tile_max_tiles = 16;    ///< reduce-then-scan: tiles per chunk, at most
    /// Lines of several tiles run in one chained pass (a chunk per tile, decoupled look-back with a
    /// fallback) where it fits one dispatch; else, and without it, reduce-then-scan over chunks of tiles.
    bool chained = false;
    /// the chained pass: flag reads of a silent predecessor before its tile is reduced here (the fallback)
    uint32_t chained_spin_limit = 64;
    /// scan_canonical_tile: whole tiles through workgroup memory (scan_canonical_tile_staged), for a GPU to
    /// judge; off in both rows until one has
    bool canonical_stage = false;
    /// scan_canonical_tile's lines of several tiles in one pass (scan_canonical_chained: the look-back
    /// over the canonical tree's totals), where it fits one dispatch; for a GPU to judge against
    /// reduce-then-scan; off in both rows until one has
    bool canonical_chained = false;
    /// The index output's marks (scan_serial, MODE_MARK32/64): positions per chunk, at most, under the serial
    /// chunks. 1 puts neighbouring elements of an inner-axis line on neighbouring invocations (coalesced on
    /// a GPU; on lavapipe 3.2x slower than chunks of 8,192); both rows leave it to the serial chunks until a
    /// GPU has judged it
    uint64_t mark_max_len = 32768;
};

struct ReducePolicy {
    KernelFamily inner_lines = KernelFamily::serial;  ///< contiguous folds of tree_min_length or more
    uint32_t serial_workgroup = 64;
    uint32_t row_block_vectors = 4;  ///< reduce_serial: vectors per block of whole short rows, at most
    /// reduce_serial: a workgroup of neighbouring outputs walks chunks of at least this many positions
    /// together (LOCKSTEP; 0: never)
    uint64_t lockstep_min_len = 0;
    ChunkPolicy serial;  ///< reduce_serial: positions (elements, blocks or states) per invocation
    uint32_t tree_max_workgroup = 256;  ///< reduce_tree: about n / 8 invocations per output, up to this
    uint32_t tree_min_workgroup = 32;   ///< and at least this (or a subgroup)
    uint64_t tree_target_items = 1;     ///< reduce_tree: workgroups worth splitting lines for
    /// reduce_tree folding a previous pass's states: workgroups worth splitting them for (1: one
    /// workgroup per output where a chunk holds them all, the tiny second pass of CUB's reduction)
    uint64_t tree_partials_target_items = 1;
    uint32_t tree_max_items = 64;   ///< reduce_tree: elements per invocation and chunk
    uint64_t tree_min_length = 64;  ///< shorter folds run serially
};

/// The tuning of one device class, with the kernel family its inner-axis lines run.
struct Policy {
    std::string_view name;  ///< "<family>-<class>": serial-cpu, cooperative-gpu, ...
    bool cpu_rows = false;  ///< the CPU rows (lavapipe's tuning) rather than the GPU rows
    ScanPolicy scan;
    ReducePolicy reduce;
};

/// What the planners know of a device: its limits and features, and the two overrides of its policy
/// (a test device's DeviceOverrides, or a PlanDevice's kernels; automatic follows the device type).
struct PlanTarget {
    const DeviceInfo& info;
    KernelChoice kernels = KernelChoice::automatic;
    PolicyRows rows = PolicyRows::automatic;
    /// A test device's: the chained scan's flag reads before it falls back (0: always falls back).
    std::optional<uint32_t> chained_spin_limit;
    /// Settings of the rows' knobs (policy_tuning.hpp), applied last; checked where they were given.
    std::span<const Tuning> tuning = {};
};

/// Whether every subgroup of a workgroup is sure to have subgroup_size active invocations: the
/// cooperative pipelines require full subgroups of that size (DeviceInfo::full_subgroups), or the device
/// runs one subgroup size only (and every workgroup size planned is a multiple of it). The cooperative
/// kernels rely on it; where it fails, select_policy plans the serial family whatever was asked.
bool whole_subgroups(const DeviceInfo& info);

/// The most invocations a cooperative kernel's workgroup may have: maxComputeWorkGroupInvocations, and
/// where its pipeline requires a subgroup size (full_subgroups) that size times
/// maxComputeWorkgroupSubgroups (lavapipe at subgroup size 4: 128).
uint32_t cooperative_workgroup_limit(const DeviceInfo& info);

/// The policy a target plans with: the CPU rows on CPU devices (VK_PHYSICAL_DEVICE_TYPE_CPU), the GPU
/// rows on every other, unless `rows` forces a class; each row's kernel family unless `kernels` forces
/// one, and the serial family wherever whole_subgroups fails; then the target's tuning. The only place
/// the device type is read.
Policy select_policy(const PlanTarget& target);

}  // namespace vkdml::detail
