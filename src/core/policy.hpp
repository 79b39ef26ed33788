// Tuning, in one table per device class (like CUB's agent policies): which kernel family a device
// runs, workgroup sizes, and how lines are cut into chunks. The planners read these and nothing else
// of the device's type; a tuned policy for a GPU vendor is one more row.
//
// Serial kernels (scan_serial, reduce_serial) give each invocation one chunk of a line; cooperative
// kernels (scan_tile, reduce_tree) give each workgroup one. Chunks bound the loop trips per invocation
// (lavapipe silently ends a loop after 65,535) and give the device enough items to fill it; splitting
// a line costs another pass over its partials, so CPU devices, which need few items, split less.
#pragma once

#include "vkdml/vkdml.hpp"

namespace vkdml::detail {

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
    uint32_t serial_workgroup = 64;
    uint32_t row_block_vectors = 4;  ///< scan_serial: vectors per block of whole short rows, at most
    /// scan_serial: a workgroup of neighbouring fibers walks chunks of at least this many positions
    /// together (LOCKSTEP; 0: never)
    uint64_t lockstep_min_len = 0;
    ChunkPolicy serial;             ///< scan_serial: positions (elements or blocks) per invocation
    uint32_t tile_workgroup = 256;  ///< scan_tile (at most maxComputeWorkGroupInvocations)
    ChunkPolicy tile;               ///< scan_tile: elements per workgroup, whole tiles
    uint32_t tile_min_length = 64;  ///< shorter lines run serially
};

struct ReducePolicy {
    uint32_t serial_workgroup = 64;
    uint32_t row_block_vectors = 4;  ///< reduce_serial: vectors per block of whole short rows, at most
    /// reduce_serial: a workgroup of neighbouring outputs walks chunks of at least this many positions
    /// together (LOCKSTEP; 0: never)
    uint64_t lockstep_min_len = 0;
    ChunkPolicy serial;  ///< reduce_serial: positions (elements, blocks or states) per invocation
    uint32_t tree_max_workgroup = 256;  ///< reduce_tree: about n / 8 invocations per output, up to this
    uint32_t tree_min_workgroup = 32;   ///< and at least this (or a subgroup)
    uint64_t tree_target_items = 1;     ///< reduce_tree: workgroups worth splitting lines for
    uint32_t tree_max_items = 64;       ///< reduce_tree: elements per invocation and chunk
    uint64_t tree_min_length = 64;      ///< shorter folds run serially
};

enum class DeviceClass : uint8_t { serial_cpu, serial_gpu, cooperative_cpu, cooperative_gpu };

struct Policy {
    const char* name;
    bool cooperative;  ///< inner-axis lines of some length use the cooperative kernels
    ScanPolicy scan;
    ReducePolicy reduce;
};

/// Which policy rows a plan uses: the device type's (by_device_type), or a class forced by
/// DeviceOptions::policy_class.
enum class PolicyRows : uint8_t { by_device_type, cpu, gpu };

/// What the planners know of a device: its limits and features, the kernel family it was asked for
/// (DeviceOptions::kernels) and its policy rows.
struct PlanTarget {
    const DeviceInfo& info;
    bool serial_kernels = false;
    PolicyRows rows = PolicyRows::by_device_type;
};

/// CPU devices (VK_PHYSICAL_DEVICE_TYPE_CPU, or rows forced to cpu) are *_cpu; serial_kernels picks the
/// family.
DeviceClass device_class(const PlanTarget& target);

/// The tuning of a device class.
const Policy& policy(DeviceClass c);

}  // namespace vkdml::detail
