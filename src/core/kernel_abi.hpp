// The kernel ABI (glsl/kernel_abi.h) seen from C++: the shared word indices, constant ids and function
// codes, and the pipeline key a pass names its kernel by (the generated Kernel and Storage enums).
#pragma once

#include "kernel_abi.h"
#include "kernel_ids.hpp"
#include "vkdml/directml.h"

#include <array>
#include <compare>
#include <cstdint>

namespace vkdml::detail {

constexpr uint32_t kBindingCount = ABI_BINDINGS;
constexpr uint32_t kPushWords = ABI_PUSH_WORDS;
constexpr uint32_t kPushConstantBytes = 4 * kPushWords;
constexpr uint32_t kSpecConstantCount = ABI_SPEC_COUNT;

static_assert(SCAN_W_STRIDE_OUT + SCAN_MAX_OTHER_DIMS == ABI_PUSH_WORDS, "scan push block fills 128 bytes");
static_assert(REDUCE_W_DIM + REDUCE_MAX_DIM_WORDS == ABI_PUSH_WORDS, "reduce push block fills 128 bytes");
static_assert(REDUCE_F_SUM_SQUARE == 11 && REDUCE_F_ARGMAX == 0, "function codes are DML_REDUCE_FUNCTION's");
static_assert(REDUCE_F_VARIANCE == VKDML_REDUCE_FUNCTION_VARIANCE &&
                  REDUCE_F_STANDARD_DEVIATION == VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION &&
                  REDUCE_F_ANY == VKDML_REDUCE_FUNCTION_ANY && REDUCE_F_ALL == VKDML_REDUCE_FUNCTION_ALL &&
                  REDUCE_F_COUNT_NONZERO == VKDML_REDUCE_FUNCTION_COUNT_NONZERO,
              "vkdml's function codes are its VKDML_REDUCE_FUNCTION values");
// The planners lower to at most 8 dimensions, at least one of them reduced: 7 kept and 1 reduced use the
// most dim words of any split.
static_assert(REDUCE_D_LINE_STRIDE_IN(7u, 0u) < REDUCE_MAX_DIM_WORDS, "7 kept and 1 reduced dimension fit");
static_assert(REDUCE_D_LINE_STRIDE_IN(0u, 7u) < REDUCE_MAX_DIM_WORDS, "8 reduced dimensions fit");

/// One pass's push constants, indexed by the *_W_* words of kernel_abi.h.
using PushWords = std::array<uint32_t, kPushWords>;

/// Specialization constants, indexed by the *_SPEC_* ids of kernel_abi.h (id 0, ABI_SPEC_WORKGROUP, is
/// the workgroup size). The planners fill them through ScanParams and ReduceParams (kernel_params.hpp).
using SpecConstants = std::array<uint32_t, kSpecConstantCount>;

/// A compute pipeline: kernel, storage variant and specialization constants.
struct PipelineKey {
    Kernel kernel{};
    Storage storage{};
    SpecConstants spec{};
    auto operator<=>(const PipelineKey&) const = default;
};

/// scan_serial, scan_chained or scan_canonical_tile (staged, chained or neither).
constexpr bool is_scan(Kernel k) {
    return k == Kernel::scan_serial || k == Kernel::scan_chained || k == Kernel::scan_canonical_tile ||
           k == Kernel::scan_canonical_tile_staged || k == Kernel::scan_canonical_chained;
}

/// ARGMAX or ARGMIN (a DML_REDUCE_FUNCTION value, or a kernel function code).
constexpr bool is_arg_function(uint32_t function) {
    return REDUCE_IS_ARG(function);
}

/// VARIANCE or STANDARD_DEVIATION (vkdml's functions).
constexpr bool is_variance_function(uint32_t function) {
    return REDUCE_IS_VARIANCE(function);
}

/// ANY, ALL or COUNT_NONZERO (vkdml's functions): a fold of "x is not 0".
constexpr bool is_logical_function(uint32_t function) {
    return REDUCE_IS_LOGICAL(function);
}

/// A DML_REDUCE_FUNCTION value REDUCE takes: DirectML's ARGMAX (0) to SUM_SQUARE (11), or vkdml's own.
constexpr bool is_reduce_function(uint32_t function) {
    return function <= REDUCE_F_SUM_SQUARE || is_variance_function(function) || is_logical_function(function);
}

/// A function whose float fold is a sum or a product, compensated by the kernels.
constexpr bool is_compensated(uint32_t function) {
    return REDUCE_IS_COMPENSATED(function) && !is_logical_function(function);
}

/// 32-bit words of a fold state between reduce passes (reduce_common.glsl's STATE_WORDS); `nan_ignore`:
/// float AVERAGE then counts its elements in a word of its own, as the variances always do; the logical
/// functions keep their flag or count in that word.
constexpr uint32_t state_words(uint32_t accumulator_bytes, uint32_t function, bool float_type,
                               bool nan_ignore = false) {
    return REDUCE_STATE_WORDS(
        accumulator_bytes / 4, function, float_type && is_compensated(function),
        (float_type && ((nan_ignore && function == REDUCE_F_AVERAGE) || is_variance_function(function))) ||
            is_logical_function(function));
}

}  // namespace vkdml::detail
