// The operator table (see op_table.hpp): the rows, and what reads them alone.
#include "ops/op_table.hpp"

#include "core/errors.hpp"
#include "ops/reduce/reduce_op.hpp"
#include "ops/scan/scan_op.hpp"

#include <array>

namespace vkdml::detail {

namespace {

// Every data type vkdml knows: the five DirectML operators and the cumulative maximum and minimum take them
// all (SPEC §4).
constexpr uint32_t kAllTypes = [] {
    uint32_t mask = 0;
    for (const TypeInfo& t : kTypeInfo) mask |= 1u << static_cast<uint32_t>(t.type);
    return mask;
}();

constexpr OpInfo kOps[] = {
    {.names = {DML_OPERATOR_CUMULATIVE_SUMMATION, "CUMULATIVE_SUMMATION", "cumsum", "cumulative_sum", true},
     .family = OpFamily::scan,
     .types = kAllTypes,
     .in_place = true,
     .normalize = normalize_cumulative_sum,
     .typed = typed_cumulative_sum,
     .plan = plan_cumulative},
    {.names = {DML_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", "cumprod", "cumulative_product", true},
     .family = OpFamily::scan,
     .types = kAllTypes,
     .in_place = true,
     .normalize = normalize_cumulative_product,
     .typed = typed_cumulative_product,
     .plan = plan_cumulative},
    {.names = {VKDML_OPERATOR_CUMULATIVE_MAXIMUM, "CUMULATIVE_MAXIMUM", "cummax", "cumulative_maximum", true},
     .family = OpFamily::scan,
     .types = kAllTypes,
     .in_place = true,
     .normalize = normalize_cumulative_maximum,
     .typed = typed_cumulative_maximum,
     .plan = plan_cumulative},
    {.names = {VKDML_OPERATOR_CUMULATIVE_MINIMUM, "CUMULATIVE_MINIMUM", "cummin", "cumulative_minimum", true},
     .family = OpFamily::scan,
     .types = kAllTypes,
     .in_place = true,
     .normalize = normalize_cumulative_minimum,
     .typed = typed_cumulative_minimum,
     .plan = plan_cumulative},
    {.names = {VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, "LOG_CUMULATIVE_SUM_EXP", "logcumsumexp",
               "log_cumulative_sum_exp", true},
     .family = OpFamily::scan,
     .types = kFloatTypeMask,
     .in_place = true,
     .normalize = normalize_log_cumulative_sum_exp,
     .typed = typed_log_cumulative_sum_exp,
     .plan = plan_cumulative},
    {.names = {DML_OPERATOR_REDUCE, "REDUCE", "reduce", "reduce", false},
     .family = OpFamily::reduce,
     .types = kAllTypes,
     .in_place = false,
     .normalize = normalize_reduce,
     .typed = typed_reduce,
     .plan = plan_reduction},
    {.names = {DML_OPERATOR_ARGMIN, "ARGMIN", "argmin", "argmin", false},
     .family = OpFamily::reduce,
     .types = kAllTypes,
     .in_place = false,
     .normalize = normalize_argmin,
     .typed = typed_argmin,
     .plan = plan_reduction},
    {.names = {DML_OPERATOR_ARGMAX, "ARGMAX", "argmax", "argmax", false},
     .family = OpFamily::reduce,
     .types = kAllTypes,
     .in_place = false,
     .normalize = normalize_argmax,
     .typed = typed_argmax,
     .plan = plan_reduction},
};

constexpr auto kNames = [] {
    std::array<OperatorInfo, std::size(kOps)> names{};
    for (size_t i = 0; i < names.size(); ++i) names[i] = kOps[i].names;
    return names;
}();

}  // namespace

std::span<const OpInfo> op_table() {
    return kOps;
}

const OpInfo* find_op(DML_OPERATOR_TYPE type) {
    for (const OpInfo& op : kOps)
        if (op.names.type == type) return &op;
    return nullptr;
}

Status plan_operator(const PlanTarget& target, const OperatorState& op, Plan& plan) {
    const OpInfo* row = find_op(op.desc.Type);
    if (!row) return make_error(ErrorCode::invalid_argument, "compile_operator: unknown operator type");
    return row->plan(target, op, plan);
}

}  // namespace vkdml::detail

namespace vkdml {

std::span<const OperatorInfo> operators() noexcept {
    return detail::kNames;
}

const char* to_string(DML_OPERATOR_TYPE type) noexcept {
    const detail::OpInfo* row = detail::find_op(type);
    return row ? row->names.name : "INVALID";
}

}  // namespace vkdml
