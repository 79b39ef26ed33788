// A compiled operator's plan: the passes record() emits, each with its kernel (a pipeline key), its
// three buffer bindings, its push constants and the map of which elements its work items touch, plus
// the temporary scratch the passes share. The planners (scan_plan.cpp, reduce_plan.cpp) build plans
// without a device; append_pass cuts each pass into dispatches that fit the device's limits
// (window.cpp). A plan is plain data: the pipeline cache makes its pipelines, which the compiled
// operator keeps beside it, and record() emits it.
#pragma once

#include "core/data_types.hpp"
#include "core/kernel_abi.hpp"
#include "core/kernel_params.hpp"
#include "core/policy.hpp"

#include <array>
#include <variant>
#include <vector>

namespace vkdml::detail {

/// Which caller buffer a pass binding refers to.
enum class Slot : uint8_t { input, output, temporary };

struct PassBinding {
    Slot slot = Slot::input;
    uint32_t index = 0;          ///< which input or output
    uint64_t offset = 0;         ///< temporary only: byte offset of the region in the scratch buffer
    uint64_t size = 0;           ///< temporary only: bytes of the region
    uint32_t element_bytes = 1;  ///< element size the kernel indexes this binding with
    int32_t base_word = -1;      ///< push-constant word receiving the element offset inside the binding
    bool unused = false;         ///< bound only because the kernel declares it; never accessed
};

/// One dimension of an access map: `size` positions `stride` elements apart (negative: descending).
struct AccessDim {
    uint32_t size = 1;
    int64_t stride = 0;
};

/// Which elements of one binding a pass's work items touch, in units of the binding's element_bytes
/// from the start of its tensor (or scratch region). An item is a pair (group g, chunk c); g is the
/// row-major index over `group`. Chunk c covers the line positions [c·chunk_len, min((c+1)·chunk_len,
/// line_length)) or, with per_chunk, the single position c (`lead` positions more before the first);
/// a line position is the row-major index over `line`. The item touches origin + Σ group offsets + Σ line
/// offsets, and the extent − 1 elements after each.
struct Access {
    int64_t origin = 0;
    std::vector<AccessDim> group;
    std::vector<AccessDim> line;
    bool per_chunk = false;
    uint32_t extent = 1;
    /// Line positions touched before each chunk's first (within the line): an exclusive mark reads the
    /// element before its own (scan_serial.comp, MODE_MARK32/64).
    uint32_t lead = 0;
};

/// Inclusive range of element offsets.
struct ElementRange {
    int64_t lo = 0, hi = 0;
};

/// One dispatch of a pass: the items [item_begin, item_end), the windows of its bindings (element
/// ranges each within maxStorageBufferRange) and its workgroup grid.
struct Segment {
    uint32_t item_begin = 0, item_end = 0;
    uint32_t groups_x = 1, groups_y = 1;
    std::array<ElementRange, kBindingCount> window{};
};

/// A pass's kernel parameters, typed: what its planner chose, which plan_text prints and record reads.
using KernelParams = std::variant<SerialScanParams, TileScanParams, CanonicalTileParams, ReduceParams>;

/// The workgroup size of `params`.
uint32_t workgroup_of(const KernelParams& params);

struct Pass {
    /// The pipeline: the kernel, storage variant and the specialization constants of `params` and of
    /// the work-item words below (pipeline_key); the compiled operator keeps the made ones beside the plan.
    PipelineKey key;
    KernelParams params;
    bool line_major = false;  ///< serial kernels: items numbered line-major (ABI_SPEC_LINE_MAJOR)
    bool lockstep = false;    ///< serial kernels: the workgroup walks its chunks together (ABI_SPEC_LOCKSTEP)
    std::array<PassBinding, kBindingCount> bindings{};
    PushWords push{};
    /// The work: groups × chunks items, numbered g-major (g·chunks + c) or, with chunk_major,
    /// c-major (c·groups + g); a workgroup takes items_per_workgroup consecutive items.
    uint64_t groups = 1, chunks = 1, chunk_len = 1, line_length = 1;
    bool chunk_major = false;
    uint32_t items_per_workgroup = 1;
    std::array<Access, kBindingCount> access{};
    /// Push-constant words receiving each dispatch's first and end item.
    uint32_t item_begin_word = 0, item_end_word = 0;
    std::vector<Segment> segments;  ///< filled by cut_into_segments
};

/// The pipeline of `pass` run with `params`: its own (Pass::key), or a variant of them (record's in-place
/// pipelines).
PipelineKey pipeline_key(const Pass& pass, const KernelParams& params);

/// `params` of a scan reading and writing through binding 1 only (run in place); reductions unchanged.
KernelParams in_place_params(KernelParams params);

/// A pass as a planner describes it; append_pass derives the rest.
struct PassSpec {
    Kernel kernel{};
    Storage storage{};
    /// The key's constants and the push words; append_pass adds the chunk and dispatch words below.
    KernelParams params;
    /// A workgroup per item (scan_chained, reduce_tree), items numbered line-major; else an invocation
    /// per item, chunk-major (neighbouring invocations on neighbouring lines) or, with line_major,
    /// line-major (neighbouring invocations on neighbouring chunks: for lines far apart in memory).
    bool cooperative = false;
    bool line_major = false;
    uint64_t lines = 1, chunks = 1, chunk_len = 1, line_length = 1;
    std::array<PassBinding, kBindingCount> bindings{};
    std::array<Access, kBindingCount> access{};
    uint32_t chunk_len_word = 0, item_begin_word = 0, item_end_word = 0;
    /// Serial kernels: walk chunks of at least this many positions in lockstep (the policy's
    /// lockstep_min_len; 0: never). append_pass applies the rule (ABI_SPEC_LOCKSTEP).
    uint64_t lockstep_min_len = 0;
};

struct Plan {
    std::vector<Pass> passes;
    uint64_t temporary_bytes = 0;
};

constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/// Reserves `bytes` of the plan's temporary buffer, aligned for a storage-buffer descriptor; returns the
/// region's offset.
uint64_t allocate_scratch(const DeviceInfo& info, Plan& plan, uint64_t bytes);

/// A binding the kernel declares but the pass never accesses: `like`'s range, so that any valid range
/// is bound.
PassBinding unused_binding(PassBinding like);

/// Fails with unsupported_device when a pass of `lines` × `lanes` lines in `chunks` chunks has more
/// items than 32-bit kernel indices reach; `what` names the operation ("scan", "reduction").
Status check_item_count(const char* what, uint64_t lines, uint64_t lanes, uint64_t chunks);

/// Builds the pass `spec` describes, cuts it into dispatches that fit the device (cut_into_segments)
/// and appends it to the plan.
Status append_pass(const DeviceInfo& info, PassSpec spec, Plan& plan);

/// The skeleton both planners share, for one level of `lines` × `lanes` lines cut into `chunks` chunks:
/// one pass (`single()`) when there is one chunk; otherwise `split(partials)`, where `partials` is a
/// scratch region of one slot of `slot_bytes` per (line, lane, chunk), indexed by the kernel in
/// `element_bytes` units from push word `base_word` — the planner's passes into and out of the
/// partials, and its recursion on them. `what` names the operation in the item-count error.
template <class Single, class Split>
Status one_pass_or_partials(const DeviceInfo& info, Plan& plan, const char* what, uint64_t lines,
                            uint32_t lanes, uint64_t chunks, uint64_t slot_bytes, uint32_t element_bytes,
                            int32_t base_word, Single single, Split split) {
    if (auto st = check_item_count(what, lines, lanes, chunks); !st) return st;
    if (chunks == 1) return single();
    const uint64_t bytes = lines * lanes * chunks * slot_bytes;
    return split(PassBinding{Slot::temporary, 0, allocate_scratch(info, plan, bytes), bytes, element_bytes,
                             base_word});
}

}  // namespace vkdml::detail
