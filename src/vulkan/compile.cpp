// Device::compile_operator: a validated operator planned for the device (its row of the operator table,
// ops/op_table.hpp), the plan's pipelines made.
#include "vkdml/profiling.hpp"

#include "core/errors.hpp"
#include "front/operator_state.hpp"
#include "ops/op_table.hpp"
#include "vulkan/pipeline_cache.hpp"

#include <cstring>

namespace vkdml {

Result<CompiledOperator> Device::compile_operator(const Operator& op, DML_EXECUTION_FLAGS flags) const {
    if (auto st = detail::check_not_lost(*s_); !st) return st.error();
    constexpr uint32_t known = DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION |
                               DML_EXECUTION_FLAG_DISABLE_META_COMMANDS |
                               DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE;
    if (static_cast<uint32_t>(flags) & ~known)
        return detail::make_error(ErrorCode::invalid_argument, "compile_operator: DML_EXECUTION_FLAGS ",
                                  static_cast<uint32_t>(flags), " has unknown bits (known: 0x7)");
    if (!detail::ApiAccess::state(op) || detail::ApiAccess::state(op)->device != s_)
        return detail::make_error(ErrorCode::invalid_argument,
                                  "compile_operator: the operator was created on another device");
    // ALLOW_HALF_PRECISION_COMPUTATION: float16 still accumulates in float32 (SPEC §3); the other two
    // flags change nothing here (no meta commands; descriptors are pushed at record time).
    auto state = std::make_shared<CompiledState>();
    state->op = detail::ApiAccess::state(op);
    const OperatorState& o = *detail::ApiAccess::state(op);
    if (auto st = detail::plan_operator(s_->caps.plan_target(), o, state->plan); !st) return st.error();
    auto pipelines = s_->pipelines->materialize(state->plan);
    if (!pipelines) return pipelines.error();
    state->pipelines = std::move(*pipelines);
    return detail::ApiAccess::make_compiled(std::move(state));
}

DML_BINDING_PROPERTIES CompiledOperator::binding_properties() const noexcept {
    return {detail::kBindingCount, s_->plan.temporary_bytes, 0};
}

uint32_t pass_count(const CompiledOperator& compiled) noexcept {
    const auto& s = detail::ApiAccess::state(compiled);
    return s ? static_cast<uint32_t>(s->plan.passes.size()) : 0;
}

Result<ChainedScanStats> chained_scan_stats(const CompiledOperator& compiled,
                                            std::span<const std::byte> temporary) {
    const auto& s = detail::ApiAccess::state(compiled);
    if (!s)
        return detail::make_error(ErrorCode::invalid_argument,
                                  "chained_scan_stats: a moved-from CompiledOperator");
    if (temporary.size() < s->plan.temporary_bytes)
        return detail::make_error(ErrorCode::invalid_argument, "chained_scan_stats: the temporary bytes are ",
                                  temporary.size(), ", the operator's temporary buffer ",
                                  s->plan.temporary_bytes);
    ChainedScanStats stats;
    for (const detail::Pass& pass : s->plan.passes) {
        const auto* tile = std::get_if<detail::TileScanParams>(&pass.params);
        if (!tile || tile->scan.mode != SCAN_MODE_CHAINED) continue;
        // The fallback count is a word of the pass's tile states (kernel_abi.h).
        uint32_t fallbacks = 0;
        std::memcpy(&fallbacks, temporary.data() + pass.bindings[2].offset + 4 * SCAN_CHAINED_FALLBACKS_WORD,
                    4);
        stats.tiles += pass.groups * pass.chunks;
        stats.fallbacks += fallbacks;
    }
    return stats;
}

}  // namespace vkdml
