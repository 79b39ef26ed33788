// tools/cli/cmd_cumulative.cpp — `vkdml cumsum` and `vkdml cumprod`: a cumulative operator on a .npy file,
// written to a .npy file.
#include "cli/commands.hpp"
#include "cli/host_ops.hpp"

namespace vkdml::cli {
namespace {

void define_cumulative(CLI::App& app) {
    add_integer(app, "--axis", "N", "axis to scan along; negative counts from the last (-1: the last axis)")
        ->required();
    add_switch(
        app, "--exclusive",
        "leave each element's own value out (the first is the identity: 0 for a sum, 1 for a product)");
    add_switch(app, "--reverse", "scan from the end of the axis (DML_AXIS_DIRECTION_DECREASING)");
    add_device_option(app);
    add_validation_option(app);
}
constexpr std::string_view kInOut[] = {"IN.npy", "OUT.npy"};

// DML_CUMULATIVE_SUMMATION_OPERATOR_DESC and DML_CUMULATIVE_PRODUCT_OPERATOR_DESC share one layout.
template <class OperatorDesc, DML_OPERATOR_TYPE kType>
void run_cumulative(const Args& args) {
    const std::string& in_path = args.operands()[0];
    const InputFile file = open_input(in_path);
    const HostTensor& input = file.tensor;
    const uint32_t axis = resolve_axis(*args.integer("--axis"), input.sizes.size(), in_path);
    const HostTensor output = make_output(input.type, input.sizes);
    check_output(args.operands()[1]);
    const auto device = open_device(args);

    const DML_BUFFER_TENSOR_DESC input_buffer = input.desc(), output_buffer = output.desc();
    const DML_TENSOR_DESC input_desc{DML_TENSOR_TYPE_BUFFER, &input_buffer};
    const DML_TENSOR_DESC output_desc{DML_TENSOR_TYPE_BUFFER, &output_buffer};
    const OperatorDesc op_desc{
        &input_desc, &output_desc, axis,
        args.has("--reverse") ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
        args.has("--exclusive")};
    run_one(*device, {kType, &op_desc}, file, output, args.operands()[1]);
}

}  // namespace

extern const Command kCumsumCommand = {
    "cumsum", "Cumulative sum of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative,
    run_cumulative<DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, DML_OPERATOR_CUMULATIVE_SUMMATION>};

extern const Command kCumprodCommand = {
    "cumprod", "Cumulative product of IN.npy along an axis, written to OUT.npy (C order).", kInOut,
    define_cumulative, run_cumulative<DML_CUMULATIVE_PRODUCT_OPERATOR_DESC, DML_OPERATOR_CUMULATIVE_PRODUCT>};

}  // namespace vkdml::cli
