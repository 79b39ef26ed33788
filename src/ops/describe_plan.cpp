// describe_plan and CompiledOperator::describe: a plan as text (plan_text.hpp), for a real device or for a
// device class without one (the planner is pure; validation needs only the device's features).
#include "vkdml/profiling.hpp"

#include "core/errors.hpp"
#include "core/plan_text.hpp"
#include "core/policy_tuning.hpp"
#include "front/api_access.hpp"
#include "front/operator_state.hpp"
#include "front/validation.hpp"
#include "ops/op_table.hpp"

#include <bit>
#include <sstream>

namespace vkdml {

namespace {

/// "CUMULATIVE_SUMMATION UINT32 {40,16}: serial-gpu rows, subgroup size 32, 3 passes"; where the
/// subgroup size varies, "subgroup size 32 (8 to 32, full subgroups required)"; a tuned device's rows
/// "cooperative-gpu rows tuned scan.tile_workgroup=512, ...".
std::string header(const OperatorState& op, const detail::PlanTarget& target, const detail::Plan& plan) {
    const TensorCopy& in = *op.inputs[0];
    std::ostringstream s;
    s << to_string(op.desc.Type) << " " << to_string(in.buffer.DataType) << " "
      << detail::list(in.sizes.data(), static_cast<uint32_t>(in.sizes.size())) << ": "
      << detail::select_policy(target).name << " rows";
    if (!target.tuning.empty()) s << " tuned " << detail::tuning_text(target.tuning);
    s << ", subgroup size " << target.info.subgroup_size;
    const DeviceInfo& info = target.info;
    if (info.min_subgroup_size != info.max_subgroup_size)
        s << " (" << info.min_subgroup_size << " to " << info.max_subgroup_size << ", "
          << (info.full_subgroups ? "full subgroups required)"
                                  : "full subgroups not required: serial kernels)");
    s << (target.info.subgroup_arithmetic ? "" : " (no subgroup operations)") << ", " << plan.passes.size()
      << (plan.passes.size() == 1 ? " pass\n" : " passes\n");
    return s.str();
}

/// The DeviceInfo of a PlanDevice: its class, subgroups and limits; 1,024 invocations and 48 KiB of shared
/// memory per workgroup, as every current GPU and lavapipe allow.
DeviceInfo info_of(const PlanDevice& d) {
    DeviceInfo info;
    info.physical.type = d.gpu ? VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU : VK_PHYSICAL_DEVICE_TYPE_CPU;
    info.subgroup_size = info.max_subgroup_size = d.subgroup_size;
    info.min_subgroup_size = d.min_subgroup_size ? d.min_subgroup_size : d.subgroup_size;
    info.full_subgroups = d.full_subgroups;
    info.compute_units = d.compute_units;
    info.subgroup_arithmetic = info.subgroup_shuffle = d.subgroup_operations;
    info.max_storage_buffer_range = d.max_storage_buffer_range;
    for (uint32_t& c : info.max_workgroup_count) c = d.max_workgroup_count;
    info.max_workgroup_invocations = 1024;
    info.max_shared_memory_bytes = 49152;
    info.max_push_constants_bytes = 128;
    info.min_storage_buffer_offset_alignment = d.min_storage_buffer_offset_alignment;
    info.shader_int64 = info.shader_float64 = info.storage_buffer_8bit = info.storage_buffer_16bit = true;
    info.subgroup_extended_types = true;
    return info;
}

Status check_plan_device(const PlanDevice& d) {
    using detail::make_error;
    if (d.subgroup_size < 4 || d.subgroup_size > 128 || !std::has_single_bit(d.subgroup_size))
        return make_error(ErrorCode::invalid_argument, "describe_plan: subgroup size ", d.subgroup_size,
                          " is not a power of two from 4 to 128");
    if (d.min_subgroup_size != 0 && (d.min_subgroup_size < 4 || d.min_subgroup_size > d.subgroup_size ||
                                     !std::has_single_bit(d.min_subgroup_size)))
        return make_error(ErrorCode::invalid_argument, "describe_plan: min_subgroup_size ",
                          d.min_subgroup_size, " is not a power of two from 4 to the subgroup size ",
                          d.subgroup_size);
    if (d.max_storage_buffer_range < 64 + std::max<uint64_t>(16, d.min_storage_buffer_offset_alignment) ||
        d.max_storage_buffer_range > 0xFFFFFFFFull)
        return make_error(ErrorCode::invalid_argument, "describe_plan: max_storage_buffer_range ",
                          d.max_storage_buffer_range, " is outside [64 + alignment, 2^32 - 1]");
    if (d.kernels != KernelChoice::automatic && d.kernels != KernelChoice::serial &&
        d.kernels != KernelChoice::cooperative)
        return make_error(ErrorCode::invalid_argument, "describe_plan: kernels is ",
                          static_cast<int>(d.kernels), ", not a KernelChoice value");
    if (d.max_workgroup_count < 2)
        return make_error(ErrorCode::invalid_argument, "describe_plan: max_workgroup_count ",
                          d.max_workgroup_count, " is below 2");
    if (!std::has_single_bit(d.min_storage_buffer_offset_alignment) ||
        d.min_storage_buffer_offset_alignment > 256)
        return make_error(ErrorCode::invalid_argument, "describe_plan: min_storage_buffer_offset_alignment ",
                          d.min_storage_buffer_offset_alignment, " is not a power of two up to 256");
    return {};
}

}  // namespace

Result<std::string> describe_plan(const DML_OPERATOR_DESC& desc, const PlanDevice& device,
                                  const OperatorOptions& options) {
    if (auto st = check_plan_device(device); !st) return st.error();
    if (!desc.Desc)
        return detail::make_error(ErrorCode::invalid_descriptor, to_string(desc.Type),
                                  ": DML_OPERATOR_DESC.Desc is null");
    detail::DeviceCaps caps;
    caps.info = info_of(device);
    caps.features = {true, true, true, true, true, device.full_subgroups, device.full_subgroups};
    caps.policy.kernels = device.kernels;  // the rows: the class, info_of's device type
    if (auto st = detail::check_tuning(device.tuning, detail::select_policy(caps.plan_target()),
                                       "describe_plan: tuning: ");
        !st)
        return st.error();
    caps.policy.tuning = device.tuning;
    OperatorState op;
    op.desc.Type = desc.Type;
    if (auto st = detail::create_description(caps, desc, options, op); !st) return st.error();
    const detail::PlanTarget target = caps.plan_target();
    detail::Plan plan;
    if (auto st = detail::plan_operator(target, op, plan); !st) return st.error();
    return header(op, target, plan) + detail::plan_text(plan);
}

std::string describe(const CompiledOperator& compiled) {
    const auto& s = detail::ApiAccess::state(compiled);
    if (!s) return {};
    return header(*s->op, s->op->caps->plan_target(), s->plan) + detail::plan_text(s->plan);
}

}  // namespace vkdml
