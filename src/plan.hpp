// A compiled operator's plan: the passes (dispatches) record() emits, each with its pipeline, its
// three buffer bindings and its push constants, plus the temporary scratch the passes share.
// Operator-specific planners (scan_plan.cpp, ...) build these; recording is generic.
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
};

struct Pass {
    PipelineKey key;
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::array<PassBinding, kBindingCount> bindings{};
    std::array<uint32_t, kPushConstantBytes / 4> push{};
    uint32_t groups_x = 1, groups_y = 1;
};

struct Plan {
    std::vector<Pass> passes;
    uint64_t temporary_bytes = 0;
};

/// How elements of a data type are held by the kernels: the storage variant compiled for it (signed
/// and unsigned integers share one), its element size and the size of its accumulator.
struct StorageVariant {
    const char* name;  ///< "f16", "f32", "f64", "u8", "u16", "u32" or "u64"
    uint32_t element_bytes;
    uint32_t accumulator_bytes;
};
StorageVariant storage_variant(DML_TENSOR_DATA_TYPE type);

/// True for INT8, INT16, INT32 and INT64.
bool is_signed_integer(DML_TENSOR_DATA_TYPE type);

constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/// Reserves `bytes` of the plan's temporary buffer, aligned for a storage-buffer descriptor; returns the
/// region's offset.
uint64_t allocate_scratch(const DeviceInfo& info, Plan& plan, uint64_t bytes);

/// Folds a 1-D count of workgroups into an x*y grid within the device limits; returns false if even
/// that does not fit. grid_x receives the row length the kernel needs to unfold its id.
bool fold_groups(const DeviceInfo& info, uint64_t groups, uint32_t& x, uint32_t& y);

}  // namespace vkdml::detail

namespace vkdml {

struct CompiledState {
    std::shared_ptr<const OperatorState> op;
    detail::Plan plan;
};

}  // namespace vkdml
