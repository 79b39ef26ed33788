// tools/cli/cmd_cumulative.cpp — `vkdml cumsum` and `vkdml cumprod`: a cumulative operator on a .npy file,
// written to a .npy file.
#include "cli/commands.hpp"
#include "cli/host_ops.hpp"

namespace vkdml::cli {
namespace {

void define_cumulative(CLI::App& app) {
    add_integer(app, "--axis", "N", "axis to scan along; negative counts from the last (-1: the last axis)")
        .required();
    add_switch(
        app, "--exclusive",
        "leave each element's own value out (the first is the identity: 0 for a sum, 1 for a product)");
    add_switch(app, "--reverse", "scan from the end of the axis (DML_AXIS_DIRECTION_DECREASING)");
    add_value(
        app, "--nan", "MODE",
        "'propagate' (default: a NaN makes every later output NaN) or 'ignore': a NaN element counts as "
        "0 in a sum and 1 in a product, as NumPy's nancumsum and nancumprod");
    add_device_option(app);
    add_validation_option(app);
}
constexpr std::string_view kInOut[] = {"IN.npy", "OUT.npy"};

// CUMULATIVE_PRODUCT (kProduct) or CUMULATIVE_SUMMATION.
template <bool kProduct>
void run_cumulative(const Args& args) {
    const std::string& in_path = args.operands()[0];
    const InputFile file = open_input(in_path, DML_TENSOR_DATA_TYPE_INT64);  // bools counted as NumPy does
    const uint32_t axis = resolve_axis(*args.integer("--axis"), file.tensor.sizes.size(), in_path);
    const DML_AXIS_DIRECTION direction =
        args.has("--reverse") ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    const bool exclusive = args.has("--exclusive");
    const OperatorOptions options = nan_options(args);
    const ops::Operation op = take(kProduct ? ops::cumulative_product(file.tensor, axis, direction, exclusive)
                                            : ops::cumulative_sum(file.tensor, axis, direction, exclusive));
    check_output(args.operands()[1]);
    const auto device = open_device(args);
    run_one(*device, op, file, args.operands()[1], std::nullopt, options);
}

}  // namespace

extern const Command kCumsumCommand = {
    "cumsum", "Cumulative sum of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative, run_cumulative<false>};

extern const Command kCumprodCommand = {
    "cumprod", "Cumulative product of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative, run_cumulative<true>};

}  // namespace vkdml::cli
