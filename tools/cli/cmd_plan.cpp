// tools/cli/cmd_plan.cpp — `vkdml plan`: the passes vkdml plans for an operator and shape on a device class
// (GPU or CPU, kernel family, subgroup size, limits), printed without a device (vkdml::describe_plan), or
// with --device on that device as it compiles it (CompiledOperator::describe).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <span>
#include <string>
#include <vector>
#include "vkdml/profiling.hpp"

#include "cli/commands.hpp"
#include "cli/host_ops.hpp"

namespace vkdml::cli {
namespace {

void define_plan(CLI::App& app) {
    std::string ops;  // the operator table's commands
    for (const OperatorInfo& info : operators()) ops += (ops.empty() ? "" : ", ") + std::string(info.command);
    add_value(app, "--op", "OP", "the operator: " + ops).required();
    add_value(app, "--shape", "N[,N...]", "the input's sizes, 1 to 8 of them, e.g. 40,16").required();
    add_value(app, "--dtype", "T",
              "the input's type (default float32): float16, float32, float64, int8 ... uint64");
    add_integer(app, "--axis", "N",
                "the cumulative operators: the axis to scan; reduce/argmax/argmin: one axis");
    add_value(app, "--axes", "A[,B...]",
              "reduce/argmax/argmin: the axes (or 'all', 'none'); one of --axis/--axes");
    add_value(app, "--function", "F", "reduce: the fold (default sum), as 'vkdml reduce --function'");
    add_switch(app, "--exclusive", "the cumulative operators: exclusive");
    add_switch(app, "--reverse",
               "the cumulative operators: DECREASING; argmax/argmin: the last index among ties");
    add_switch(app, "--indices",
               "cummax/cummin: with the index output (int64), as their --indices writes it");
    add_value(app, "--class", "C", "the device class: gpu (default) or cpu");
    add_value(app, "--kernels", "K", "the kernel family: automatic (default), serial or cooperative");
    add_integer(app, "--subgroup", "N", "the subgroup size (default 32)")
        .check([](int64_t n) { return n >= 4 && n <= 128 && (n & (n - 1)) == 0; },
               "a power of two from 4 to 128");
    add_integer(app, "--max-range", "BYTES", "maxStorageBufferRange (default 4294967295)")
        .check([](int64_t n) { return n >= 96 && n <= 0xFFFFFFFFll; }, "96 to 4294967295");
    add_switch(app, "--no-subgroup-ops", "a device without subgroup arithmetic and shuffles");
    add_integer(app, "--min-subgroup", "N",
                "the smallest subgroup size the device may run (default: the --subgroup size, one size)")
        .check([](int64_t n) { return n >= 4 && n <= 128 && (n & (n - 1)) == 0; },
               "a power of two from 4 to 128");
    add_switch(app, "--no-full-subgroups",
               "pipelines cannot require full subgroups (no subgroupSizeControl/computeFullSubgroups)");
    add_integer(app, "--compute-units", "N",
                "multiprocessors, which size reduction grids (default: not known)")
        .check([](int64_t n) { return n >= 1 && n <= 65536; }, "1 to 65536");
    std::string knobs;
    for (const TuningKnob& k : tuning_knobs()) knobs += (knobs.empty() ? "" : ", ") + std::string(k.name);
    add_value(app, "--tune", "K=V[,K=V...]", "settings of the class's policy rows (knobs: " + knobs + ")");
    add_device_option(app);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

void run_plan(const Args& args) {
    std::vector<std::string> op_names;  // the operator table's commands
    for (const OperatorInfo& info : operators()) op_names.push_back(info.command);
    const OperatorInfo& chosen = operators()[choose("--op", args.value("--op").value_or(""), op_names)];
    const DML_OPERATOR_TYPE op = chosen.type;
    const bool scan = chosen.cumulative;
    const DML_TENSOR_DATA_TYPE type = parse_dtype(args.value("--dtype").value_or("float32"));
    const std::vector<uint32_t> sizes = parse_shape(*args.value("--shape"));
    const std::string shape_name = "the --shape";
    if (scan && !args.has("--axis")) usage_error("--op " + *args.value("--op") + " needs --axis N");
    if (scan && args.has("--axes"))
        usage_error("--axes is for reduce, argmax and argmin (the cumulative operators take --axis)");
    if (!scan && args.has("--exclusive")) usage_error("--exclusive is for the cumulative operators");
    if (op != DML_OPERATOR_REDUCE && args.has("--function")) usage_error("--function is for --op reduce");
    const bool select = op == VKDML_OPERATOR_CUMULATIVE_MAXIMUM || op == VKDML_OPERATOR_CUMULATIVE_MINIMUM;
    if (!select && args.has("--indices")) usage_error("--indices is for --op cummax and cummin");

    if (args.has("--device"))
        for (const char* option : {"--class", "--kernels", "--subgroup", "--max-range", "--no-subgroup-ops",
                                   "--compute-units", "--min-subgroup", "--no-full-subgroups", "--tune"})
            if (args.has(option))
                usage_error(std::string("option '") + option +
                            "' describes a device class; with --device the device's own is used");
    PlanDevice device;
    device.gpu = choose("--class", args.value("--class").value_or("gpu"), {"gpu", "cpu"}) == 0;
    device.kernels = static_cast<KernelChoice>(choose(
        "--kernels", args.value("--kernels").value_or("automatic"), {"automatic", "serial", "cooperative"}));
    device.subgroup_size = static_cast<uint32_t>(args.integer("--subgroup").value_or(32));
    device.max_storage_buffer_range =
        static_cast<uint64_t>(args.integer("--max-range").value_or(0xFFFFFFFFll));
    device.subgroup_operations = !args.has("--no-subgroup-ops");
    device.compute_units = static_cast<uint32_t>(args.integer("--compute-units").value_or(0));
    device.min_subgroup_size = static_cast<uint32_t>(args.integer("--min-subgroup").value_or(0));
    device.full_subgroups = !args.has("--no-full-subgroups");
    if (auto tune = args.value("--tune")) {
        auto tuning = parse_tuning(*tune);
        if (!tuning) usage_error("option '--tune': " + tuning.error().message);
        device.tuning = std::move(*tuning);
    }
    if (device.min_subgroup_size > device.subgroup_size)
        usage_error("--min-subgroup " + std::to_string(device.min_subgroup_size) +
                    " is above the subgroup size " + std::to_string(device.subgroup_size));

    const ops::TensorDesc input{type, sizes};
    const DML_AXIS_DIRECTION direction =
        args.has("--reverse") ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    std::string text;
    auto describe = [&](const DML_OPERATOR_DESC& desc) {
        if (args.has("--device")) {
            const auto dev = open_device(args);
            text = vkdml::describe(take(dev->compile_operator(take(dev->create_operator(desc)))));
        } else {
            text = take(describe_plan(desc, device));
        }
    };
    if (scan) {
        const uint32_t axis = resolve_axis(*args.integer("--axis"), sizes.size(), shape_name);
        const bool exclusive = args.has("--exclusive"), indices = args.has("--indices");
        describe(take(op == DML_OPERATOR_CUMULATIVE_SUMMATION
                          ? ops::cumulative_sum(input, axis, direction, exclusive)
                      : op == DML_OPERATOR_CUMULATIVE_PRODUCT
                          ? ops::cumulative_product(input, axis, direction, exclusive)
                      : op == VKDML_OPERATOR_CUMULATIVE_MAXIMUM
                          ? (indices ? ops::cumulative_maximum_with_indices(input, axis, direction, exclusive)
                                     : ops::cumulative_maximum(input, axis, direction, exclusive))
                      : op == VKDML_OPERATOR_CUMULATIVE_MINIMUM
                          ? (indices ? ops::cumulative_minimum_with_indices(input, axis, direction, exclusive)
                                     : ops::cumulative_minimum(input, axis, direction, exclusive))
                          : ops::log_cumulative_sum_exp(input, axis, direction, exclusive))
                     .desc());
    } else {
        const std::vector<uint32_t> axes = resolve_axes(written_axes(args), sizes.size(), shape_name);
        // DirectML's functions, then vkdml's (VARIANCE 1000 to COUNT_NONZERO 1004).
        std::vector<DML_REDUCE_FUNCTION> functions;
        for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f)
            functions.push_back(static_cast<DML_REDUCE_FUNCTION>(f));
        for (int f = 1000; f <= 1004; ++f) functions.push_back(static_cast<DML_REDUCE_FUNCTION>(f));
        std::vector<std::string> function_names;
        for (DML_REDUCE_FUNCTION f : functions) function_names.push_back(lower(to_string(f)));
        DML_REDUCE_FUNCTION function =
            op == DML_OPERATOR_ARGMAX ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN;
        if (op == DML_OPERATOR_REDUCE)
            function =
                functions[choose("--function", args.value("--function").value_or("sum"), function_names)];
        const bool arg = function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
        const DML_TENSOR_DATA_TYPE out_type = arg ? DML_TENSOR_DATA_TYPE_INT64 : ops::kAutoType;
        const std::span<const uint32_t> axis_span(axes);
        describe(take(op == DML_OPERATOR_REDUCE   ? ops::reduce(input, function, axis_span, out_type)
                      : op == DML_OPERATOR_ARGMAX ? ops::argmax(input, axis_span, direction, out_type)
                                                  : ops::argmin(input, axis_span, direction, out_type))
                     .desc());
    }
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
        fail("cannot write to standard output");
}

}  // namespace

extern const Command kPlanCommand = {
    "plan",
    "Print the passes vkdml plans for an operator and shape on a device class (no device needed).",
    {},
    define_plan,
    run_plan};

}  // namespace vkdml::cli
