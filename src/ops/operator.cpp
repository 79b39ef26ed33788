// What Device::create_operator and Device::supports run for a device's capabilities: the operator's row
// of the operator table validates and keeps its description, then the options are checked against it.
#include "core/errors.hpp"
#include "core/kernel_abi.hpp"
#include "front/operator_state.hpp"
#include "front/validation.hpp"
#include "ops/op_table.hpp"

#include <algorithm>
#include <vector>

namespace vkdml {

namespace {

using detail::OpInfo;

// "REDUCE (55), CUMULATIVE_SUMMATION (105), ... and CUMULATIVE_PRODUCT (145)": the implemented operators
// in DML_OPERATOR_TYPE order.
std::string implemented_list() {
    std::vector<const OpInfo*> rows;
    for (const OpInfo& op : detail::op_table()) rows.push_back(&op);
    std::sort(rows.begin(), rows.end(),
              [](const OpInfo* a, const OpInfo* b) { return a->names.type < b->names.type; });
    std::string s;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i > 0) s += i + 1 == rows.size() ? " and " : ", ";
        s += detail::cat(rows[i]->names.name, " (", static_cast<int>(rows[i]->names.type), ")");
    }
    return s;
}

// The options, checked against a validated description (every operator takes both NaN modes; only the
// variances a correction).
Status validate_options(const OperatorState& s, const OperatorOptions& options) {
    using detail::make_error;
    if (options.nan_mode != NanMode::propagate && options.nan_mode != NanMode::ignore)
        return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type), ": OperatorOptions::nan_mode ",
                          static_cast<int>(options.nan_mode),
                          " is neither NanMode::propagate nor NanMode::ignore");
    const bool variance = s.desc.Type == DML_OPERATOR_REDUCE &&
                          detail::is_variance_function(static_cast<uint32_t>(s.normalized.function));
    if (options.correction != 0 && !variance)
        return make_error(ErrorCode::invalid_argument, to_string(s.desc.Type),
                          ": OperatorOptions::correction is ", options.correction,
                          s.desc.Type == DML_OPERATOR_REDUCE
                              ? detail::cat(" but Function is ", to_string(s.normalized.function))
                              : std::string(),
                          " (only VARIANCE and STANDARD_DEVIATION take a correction; it must be 0 here)");
    return {};
}

}  // namespace

namespace detail {

Status create_description(const DeviceCaps& caps, const DML_OPERATOR_DESC& desc,
                          const OperatorOptions& options, OperatorState& s) {
    s.caps = &caps;
    const OpInfo* row = find_op(desc.Type);
    if (!row)
        return make_error(ErrorCode::invalid_descriptor, "DML_OPERATOR_DESC.Type is ",
                          static_cast<int>(desc.Type), " (", to_string(desc.Type),
                          "), which this vkdml does not implement (it implements ", implemented_list(), ")");
    s.normalized.type = desc.Type;
    if (auto st = row->normalize(caps, desc.Desc, s); !st) return st;
    s.may_run_in_place = row->in_place;
    s.typed = row->typed(s.normalized);
    s.desc.Desc = s.typed.get();
    if (auto st = validate_options(s, options); !st) return st;
    s.options = options;
    return {};
}

TypeSupport type_support(const DeviceCaps& caps, DML_OPERATOR_TYPE op, DML_TENSOR_DATA_TYPE type) {
    const OpInfo* row = find_op(op);
    if (!row)
        return {false, cat(to_string(op), " (", static_cast<int>(op), ") is not implemented by this vkdml")};
    if (element_size(type) == 0)
        return {false,
                cat("data type ", static_cast<int>(type), " is not a DML_TENSOR_DATA_TYPE vkdml knows")};
    if (!(row->types >> static_cast<uint32_t>(type) & 1u))
        return {false, cat(row->names.name, " does not take ", to_string(type))};
    if (const char* missing = missing_feature(caps.features, type))
        return {false, cat("needs the Vulkan feature ", missing)};
    return {true, {}};
}

}  // namespace detail

DML_OPERATOR_TYPE Operator::type() const noexcept {
    return s_->desc.Type;
}
const DML_OPERATOR_DESC& Operator::desc() const noexcept {
    return s_->desc;
}
OperatorOptions Operator::options() const noexcept {
    return s_->options;
}

}  // namespace vkdml
