// A compiled operator's plan: the passes record() emits, each with its pipeline, its three buffer
// bindings, its push constants and the map of which elements its work items touch, plus the temporary
// scratch the passes share. Operator-specific planners (scan_plan.cpp, ...) build these; cutting a pass
// into dispatches that fit the device (window.cpp) and recording are generic.
#pragma once

#include "operator_state.hpp"
#include "pipeline_cache.hpp"

#include <array>
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
/// line_length)) or, with per_chunk, the single position c; a line position is the row-major index
/// over `line`. The item touches origin + Σ group offsets + Σ line offsets, and the extent − 1
/// elements after each.
struct Access {
    int64_t origin = 0;
    std::vector<AccessDim> group;
    std::vector<AccessDim> line;
    bool per_chunk = false;
    uint32_t extent = 1;
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

struct Pass {
    PipelineKey key;
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::array<PassBinding, kBindingCount> bindings{};
    std::array<uint32_t, kPushConstantBytes / 4> push{};
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

struct Plan {
    std::vector<Pass> passes;
    uint64_t temporary_bytes = 0;
};

/// How elements of a data type are held by the kernels: the storage variant compiled for it (signed
/// and unsigned integers share one), its element size, the size of its accumulator and of a scan's
/// partial (float types: a compensated pair of accumulators, compensated.glsl).
struct StorageVariant {
    const char* name;  ///< "f16", "f32", "f64", "u8", "u16", "u32", "u64", "f32x2" or "f64x2"
    uint32_t element_bytes;
    uint32_t accumulator_bytes;
    uint32_t partial_bytes;
};
StorageVariant storage_variant(DML_TENSOR_DATA_TYPE type);

/// The variant whose elements are compensated pairs of `type`'s accumulators (FLOAT32 or FLOAT64):
/// how a float scan's partials are scanned.
StorageVariant pair_variant(DML_TENSOR_DATA_TYPE type);

/// FLOAT16, FLOAT32 or FLOAT64.
bool is_float(DML_TENSOR_DATA_TYPE type);

/// Elements per vector of the serial kernels' blocks (STORE_V in storage_types.glsl): 16 bytes for
/// 64-bit types, 4 elements otherwise.
uint32_t vector_width(const StorageVariant& v);

/// The largest k of {4, 3, 2, 1} up to max_k (3 only with `three`) for which ok(k) holds, 0 if none:
/// how many vectors a serial kernel's block holds.
template <class F>
uint32_t largest_k(uint32_t max_k, bool three, F&& ok) {
    for (uint32_t k : {4u, 3u, 2u, 1u})
        if (k <= max_k && (k != 3 || three) && ok(k)) return k;
    return 0;
}

/// True for INT8, INT16, INT32 and INT64.
bool is_signed_integer(DML_TENSOR_DATA_TYPE type);

constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/// Reserves `bytes` of the plan's temporary buffer, aligned for a storage-buffer descriptor; returns the
/// region's offset.
uint64_t allocate_scratch(const DeviceInfo& info, Plan& plan, uint64_t bytes);

/// Folds a 1-D count of workgroups into an x*y grid within the device limits; returns false if even
/// that does not fit. Kernels unfold it with gl_NumWorkGroups.x.
bool fold_groups(const DeviceInfo& info, uint64_t groups, uint32_t& x, uint32_t& y);

}  // namespace vkdml::detail

namespace vkdml {

struct CompiledState {
    std::shared_ptr<const OperatorState> op;
    detail::Plan plan;
};

}  // namespace vkdml
