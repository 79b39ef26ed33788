// tools/cli/cmd_cumulative.cpp — `vkdml cumsum`, `vkdml cumprod`, `vkdml cummax`, `vkdml cummin` and
// `vkdml logcumsumexp`: a cumulative operator on a .npy file, written to a .npy file.
#include "cli/commands.hpp"
#include "cli/host_ops.hpp"

#include <filesystem>

namespace vkdml::cli {
namespace {

void define_cumulative(CLI::App& app) {
    add_integer(app, "--axis", "N", "axis to scan along; negative counts from the last (-1: the last axis)")
        .required();
    add_switch(app, "--exclusive",
               "leave each element's own value out (the first is the identity: 0 for a sum, 1 for a product, "
               "the type's smallest value for a maximum and its largest for a minimum, -inf for a "
               "log-sum-exp)");
    add_switch(app, "--reverse", "scan from the end of the axis (DML_AXIS_DIRECTION_DECREASING)");
    add_value(
        app, "--nan", "MODE",
        "'propagate' (default: a NaN makes every later output NaN) or 'ignore': a NaN element counts as "
        "0 in a sum and 1 in a product, as NumPy's nancumsum and nancumprod, and is left out of a "
        "maximum, minimum or log-sum-exp, as NumPy's fmax.accumulate and fmin.accumulate");
    add_device_option(app);
    add_validation_option(app);
}
// cummax and cummin: the options of every cumulative command, and the index output.
void define_selection(CLI::App& app) {
    define_cumulative(app);
    add_value(
        app, "--indices", "FILE.npy",
        "also write the index output (int64, as PyTorch's cummax/cummin): the index along the axis of "
        "the last element in scan order equal to each output (the last of ties, the last NaN), -1 where "
        "none contributed");
}
constexpr std::string_view kInOut[] = {"IN.npy", "OUT.npy"};

enum class Combine { sum, product, maximum, minimum, log_sum_exp };

// The cumulative operator of `kCombine`.
template <Combine kCombine>
void run_cumulative(const Args& args) {
    constexpr bool kSelect = kCombine == Combine::maximum || kCombine == Combine::minimum;
    const std::string& in_path = args.operands()[0];
    // The usage errors first, before IN.npy is read (standard input is read whole).
    const OperatorOptions options = nan_options(args);
    const std::string index_path = kSelect ? args.value("--indices").value_or("") : "";
    if (!index_path.empty() && std::filesystem::path(index_path).lexically_normal() ==
                                   std::filesystem::path(args.operands()[1]).lexically_normal())
        usage_error("--indices " + index_path + " is OUT.npy too: give the indices a file of their own");
    // Bools counted as NumPy does (int64); a running maximum or minimum of bools is bool again; a
    // log-sum-exp of bools is FLOAT32.
    const InputFile file =
        open_input(in_path, kSelect                            ? DML_TENSOR_DATA_TYPE_UINT8
                            : kCombine == Combine::log_sum_exp ? DML_TENSOR_DATA_TYPE_FLOAT32
                                                               : DML_TENSOR_DATA_TYPE_INT64);
    const uint32_t axis = resolve_axis(*args.integer("--axis"), file.tensor.sizes.size(), file.name());
    const DML_AXIS_DIRECTION direction =
        args.has("--reverse") ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    const bool exclusive = args.has("--exclusive");
    const auto build = [&] {
        switch (kCombine) {
        case Combine::product: return ops::cumulative_product(file.tensor, axis, direction, exclusive);
        case Combine::maximum:
            return index_path.empty()
                       ? ops::cumulative_maximum(file.tensor, axis, direction, exclusive)
                       : ops::cumulative_maximum_with_indices(file.tensor, axis, direction, exclusive);
        case Combine::minimum:
            return index_path.empty()
                       ? ops::cumulative_minimum(file.tensor, axis, direction, exclusive)
                       : ops::cumulative_minimum_with_indices(file.tensor, axis, direction, exclusive);
        case Combine::log_sum_exp:
            return ops::log_cumulative_sum_exp(file.tensor, axis, direction, exclusive);
        default: return ops::cumulative_sum(file.tensor, axis, direction, exclusive);
        }
    };
    const ops::Operation op = take(build());
    check_output(args.operands()[1]);
    if (!index_path.empty()) check_output(index_path);
    const auto device = open_device(args);
    run_one(*device, op, file, args.operands()[1], std::nullopt, options, kSelect && file.header.boolean,
            index_path);
}

}  // namespace

extern const Command kCumsumCommand = {
    "cumsum", "Cumulative sum of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative, run_cumulative<Combine::sum>};

extern const Command kCumprodCommand = {
    "cumprod", "Cumulative product of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative, run_cumulative<Combine::product>};

extern const Command kCummaxCommand = {
    "cummax",
    "Running maximum of IN.npy along an axis (vkdml's CUMULATIVE_MAXIMUM), written to OUT.npy; with "
    "--indices, where each came from.",
    kInOut, define_selection, run_cumulative<Combine::maximum>};

extern const Command kCumminCommand = {
    "cummin",
    "Running minimum of IN.npy along an axis (vkdml's CUMULATIVE_MINIMUM), written to OUT.npy; with "
    "--indices, where each came from.",
    kInOut, define_selection, run_cumulative<Combine::minimum>};

extern const Command kLogcumsumexpCommand = {
    "logcumsumexp",
    "Running ln(sum of e^x) of IN.npy along an axis (vkdml's LOG_CUMULATIVE_SUM_EXP; float16, float32 or "
    "float64), written to OUT.npy.",
    kInOut, define_cumulative, run_cumulative<Combine::log_sum_exp>};

}  // namespace vkdml::cli
