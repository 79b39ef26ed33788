// tools/cli/cmd_reduce.cpp — `vkdml reduce`, `vkdml argmax` and `vkdml argmin`: DML_OPERATOR_REDUCE and the
// standalone DML_OPERATOR_ARGMAX / ARGMIN over a set of axes of a .npy file, built with vkdml::ops and
// written to a .npy file (the builder's output shape, or without the reduced axes: --keepdims false).
#include <algorithm>
#include <charconv>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/host_ops.hpp"

namespace vkdml::cli {
namespace {

template <class T>
struct Named {
    std::string_view name;
    T value;
};

constexpr Named<DML_REDUCE_FUNCTION> kFunctions[] = {
    {"argmax", DML_REDUCE_FUNCTION_ARGMAX},
    {"argmin", DML_REDUCE_FUNCTION_ARGMIN},
    {"average", DML_REDUCE_FUNCTION_AVERAGE},
    {"l1", DML_REDUCE_FUNCTION_L1},
    {"l2", DML_REDUCE_FUNCTION_L2},
    {"log_sum", DML_REDUCE_FUNCTION_LOG_SUM},
    {"log_sum_exp", DML_REDUCE_FUNCTION_LOG_SUM_EXP},
    {"max", DML_REDUCE_FUNCTION_MAX},
    {"min", DML_REDUCE_FUNCTION_MIN},
    {"multiply", DML_REDUCE_FUNCTION_MULTIPLY},
    {"sum", DML_REDUCE_FUNCTION_SUM},
    {"sum_square", DML_REDUCE_FUNCTION_SUM_SQUARE},
    {"variance", VKDML_REDUCE_FUNCTION_VARIANCE},
    {"standard_deviation", VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION},
    {"any", VKDML_REDUCE_FUNCTION_ANY},
    {"all", VKDML_REDUCE_FUNCTION_ALL},
    {"count_nonzero", VKDML_REDUCE_FUNCTION_COUNT_NONZERO},
};

constexpr Named<DML_TENSOR_DATA_TYPE> kIndexTypes[] = {
    {"int32", DML_TENSOR_DATA_TYPE_INT32},
    {"int64", DML_TENSOR_DATA_TYPE_INT64},
    {"uint32", DML_TENSOR_DATA_TYPE_UINT32},
    {"uint64", DML_TENSOR_DATA_TYPE_UINT64},
};

// The entry of `table` called `value`, or a usage error listing the names `option` accepts.
template <class T, size_t N>
T lookup(const Named<T> (&table)[N], std::string_view option, const std::string& value) {
    for (const Named<T>& entry : table)
        if (entry.name == value) return entry.value;
    std::string names;
    std::vector<std::string> candidates;
    for (const Named<T>& entry : table) {
        names += (names.empty() ? "" : ", ") + std::string(entry.name);
        candidates.emplace_back(entry.name);
    }
    usage_error("unknown " + std::string(option) + " '" + value + "'" + did_you_mean(value, candidates) +
                " (one of: " + names + ")");
}

// The options `reduce` and `argmax` / `argmin` share: --axes (as each describes it), --axis, --output-type
// (as each describes it), --device and --validation.
void add_axes_options(CLI::App& app, const std::string& axes_help) {
    add_value(app, "--axes", "A[,B...]", axes_help);
    add_integer(app, "--axis", "N", "the same as --axes N: one axis");
    add_value(app, "--keepdims", "BOOL",
              "true (default): the output keeps the input's rank, size 1 on each reduced axis (DirectML's "
              "shape); false: the reduced axes are left out of OUT.npy, as NumPy's keepdims=False");
}
void add_last_options(CLI::App& app, const std::string& output_type_help, const std::string& nan_help) {
    add_value(app, "--output-type", "T", output_type_help);
    add_value(app, "--nan", "MODE", nan_help);
    add_device_option(app);
    add_validation_option(app);
}

void define_reduce(CLI::App& app) {
    add_value(app, "--function", "F",
              "the fold: argmax, argmin, average, l1, l2, log_sum, log_sum_exp, max, min, multiply, sum, "
              "sum_square, variance, standard_deviation, any, all or count_nonzero (argmax/argmin: the first "
              "index among ties; any and all write bool, count_nonzero int64)")
        .required();
    add_integer(app, "--correction", "N",
                "only with --function variance/standard_deviation: divide by (count - N), NumPy's ddof "
                "(default 0; 1: the sample variance)");
    add_axes_options(
        app,
        "axes to reduce, comma-separated; negative counts from the last (-1: the last axis); 'all' "
        "reduces every axis (NumPy's axis=None); 'none' reduces no axis (AxisCount 0: each output is the "
        "function of its one element, as in DirectML: l1 and l2 give |x|, sum_square x², log_sum ln x; "
        "argmax/argmin: all 0). This or --axis is required");
    add_last_options(
        app,
        "only with --function argmax/argmin/count_nonzero: type of the indices or counts: int32, int64 "
        "(default), uint32 or uint64",
        "'propagate' (default: NaN wins, the index of the first NaN) or 'ignore': min, max, argmax and "
        "argmin "
        "skip NaN elements, as DirectML's max and min do (a slice of NaN only gives -inf for max, +inf for "
        "min, 0 for argmax/argmin); the sums and products read a NaN as 0 (1 for multiply, -inf for "
        "log_sum_exp) and average counts the others, as NumPy's nansum, nanprod and nanmean do; "
        "variance and standard_deviation skip them, as NumPy's nanvar and nanstd");
}

void define_arg(CLI::App& app) {
    add_axes_options(
        app,
        "axes to search, comma-separated; negative counts from the last (-1: the last axis); 'all' "
        "searches every axis (NumPy's axis=None, the index row-major over all of them); 'none' searches "
        "no axis (AxisCount 0: every index is 0). This or --axis is required");
    add_switch(app, "--select-last-index",
               "the last index among ties (DML_AXIS_DIRECTION_DECREASING); by default the first");
    add_last_options(
        app, "type of the indices: int32, int64 (default), uint32 or uint64",
        "'propagate' (default: the index of the first NaN, the last with --select-last-index) or "
        "'ignore' (NaN elements are skipped, as NumPy's nanargmax does; index 0 where all are NaN)");
}

constexpr std::string_view kInOut[] = {"IN.npy", "OUT.npy"};

}  // namespace

WrittenAxes written_axes(const Args& args) {
    const bool has_axes = args.has("--axes"), has_axis = args.has("--axis");
    if (has_axes && has_axis) usage_error("give the axes with --axes or with --axis, not both");
    if (!has_axes && !has_axis) usage_error("give the axes to reduce with --axes A[,B...] (or --axis N)");
    if (has_axis) return {false, {*args.integer("--axis")}};
    const std::string text = args.value("--axes").value_or("");
    if (text == "all") return {true, {}};
    if (text == "none") return {};
    if (text.empty())
        usage_error(
            "option '--axes' is empty (write '--axes all' to reduce every axis, '--axes none' for no "
            "axis)");
    std::vector<int64_t> axes;
    for (size_t start = 0; start <= text.size();) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        int64_t axis = 0;
        const char* first = text.data() + start;
        const char* last = text.data() + comma;
        const auto [stop, error] = std::from_chars(first, last, axis);
        if (first == last || error != std::errc() || stop != last)
            usage_error("option '--axes' expects comma-separated integers, 'all' or 'none', got '" + text +
                        "'");
        axes.push_back(axis);
        start = comma + 1;
    }
    return {false, axes};
}

std::vector<uint32_t> resolve_axes(const WrittenAxes& written_axes, size_t rank, const std::string& path) {
    std::vector<uint32_t> axes;
    if (written_axes.all) {
        for (uint32_t axis = 0; axis < rank; ++axis) axes.push_back(axis);
        return axes;
    }
    const std::vector<int64_t>& written = written_axes.list;
    for (size_t i = 0; i < written.size(); ++i) {
        const uint32_t axis = resolve_axis(written[i], rank, path);
        for (size_t j = 0; j < axes.size(); ++j)
            if (axes[j] == axis)
                fail("--axes names axis " + std::to_string(axis) + " of " + path + " twice (as " +
                     std::to_string(written[j]) + " and " + std::to_string(written[i]) + ")");
        axes.push_back(axis);
    }
    return axes;
}

namespace {

// --keepdims: true (the default) or false.
bool keep_dims(const Args& args) {
    const std::string text = args.value("--keepdims").value_or("true");
    if (text != "true" && text != "false")
        usage_error("option '--keepdims' expects true or false, got '" + text + "'");
    return text == "true";
}

// --output-type, INT64 when absent.
DML_TENSOR_DATA_TYPE index_type(const Args& args) {
    const auto name = args.value("--output-type");
    return name ? lookup(kIndexTypes, "--output-type", *name) : DML_TENSOR_DATA_TYPE_INT64;
}

// Reads IN.npy, resolves the axes against its rank, builds the operator (`build`: vkdml::ops, from the
// input tensor and the axes), runs it and writes OUT.npy.
// A bool input is computed as `bool_as` (host_ops.hpp, open_input); OUT.npy is bool where `bool_output`
// says so: never, for a bool input, or always (ANY and ALL's flags).
enum class BoolOutput { never, if_input, always };
template <class Build>
void reduce_file(const Args& args, const WrittenAxes& written, const OperatorOptions& options, Build build,
                 DML_TENSOR_DATA_TYPE bool_as = DML_TENSOR_DATA_TYPE_UINT8,
                 BoolOutput bool_output = BoolOutput::never) {
    const std::string& in_path = args.operands()[0];
    const bool keep = keep_dims(args);  // (a usage error before IN.npy is read: standard input is read whole)
    const InputFile file = open_input(in_path, bool_as);
    const std::vector<uint32_t> axes = resolve_axes(written, file.tensor.sizes.size(), file.name());
    const ops::Operation op = take(build(file.tensor, std::span<const uint32_t>(axes)));
    // The shape OUT.npy gets: the input's with 1 on each reduced axis (the output's), or without the
    // reduced axes (--keepdims false). (From the file's shape: a zero-size input's tensor is a stand-in.)
    std::vector<uint32_t> file_shape;
    for (size_t d = 0; d < file.header.shape.size(); ++d) {
        const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
        if (keep || !reduced) file_shape.push_back(reduced ? 1 : file.header.shape[d]);
    }
    check_output(args.operands()[1]);
    const auto device = open_device(args);
    run_one(
        *device, op, file, args.operands()[1], file_shape, options,
        bool_output == BoolOutput::always || (bool_output == BoolOutput::if_input && file.header.boolean));
}

void run_reduce(const Args& args) {
    const std::string function_name = args.value("--function").value_or("");
    const DML_REDUCE_FUNCTION function = lookup(kFunctions, "--function", function_name);
    const bool is_arg = function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
    const bool counts = function == VKDML_REDUCE_FUNCTION_COUNT_NONZERO;
    const bool flags = function == VKDML_REDUCE_FUNCTION_ANY || function == VKDML_REDUCE_FUNCTION_ALL;
    if (!is_arg && !counts && args.has("--output-type"))
        usage_error(
            "option '--output-type' is only for --function argmax, argmin and count_nonzero (--function " +
            function_name + (flags ? " gives bool)" : " gives the input's type)"));
    const bool selects = is_arg || flags || function == DML_REDUCE_FUNCTION_MAX ||
                         function == DML_REDUCE_FUNCTION_MIN || counts;
    const bool variance =
        function == VKDML_REDUCE_FUNCTION_VARIANCE || function == VKDML_REDUCE_FUNCTION_STANDARD_DEVIATION;
    OperatorOptions options = nan_options(args);
    if (args.has("--correction")) {
        if (!variance)
            usage_error("option '--correction' is only for --function variance and standard_deviation");
        const int64_t correction = *args.integer("--correction");
        if (correction < 0 || correction > 0xFFFFFFFFll)
            usage_error("option '--correction' expects an integer from 0 to 4294967295, got " +
                        std::to_string(correction));
        options.correction = static_cast<uint32_t>(correction);
    }
    const auto written = written_axes(args);
    const DML_TENSOR_DATA_TYPE output_type = is_arg || counts ? index_type(args) : ops::kAutoType;
    // A bool input: compared as UINT8 (max and min give bool again; any, all and count_nonzero read it so),
    // summed and multiplied as INT64 (NumPy's type for them), and in FLOAT32 for the float functions.
    // any and all write bool.
    const bool real = function == DML_REDUCE_FUNCTION_AVERAGE || function == DML_REDUCE_FUNCTION_L2 ||
                      function == DML_REDUCE_FUNCTION_LOG_SUM ||
                      function == DML_REDUCE_FUNCTION_LOG_SUM_EXP || variance;
    const DML_TENSOR_DATA_TYPE bool_as = selects ? DML_TENSOR_DATA_TYPE_UINT8
                                         : real  ? DML_TENSOR_DATA_TYPE_FLOAT32
                                                 : DML_TENSOR_DATA_TYPE_INT64;
    reduce_file(
        args, written, options,
        [&](const ops::TensorDesc& input, std::span<const uint32_t> axes) {
            return ops::reduce(input, function, axes, output_type);
        },
        bool_as,
        flags                           ? BoolOutput::always
        : selects && !is_arg && !counts ? BoolOutput::if_input
                                        : BoolOutput::never);
}

// ARGMAX (kMax) or ARGMIN.
template <bool kMax>
void run_arg(const Args& args) {
    const auto written = written_axes(args);
    const DML_TENSOR_DATA_TYPE output_type = index_type(args);
    const DML_AXIS_DIRECTION direction =
        args.has("--select-last-index") ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    reduce_file(args, written, nan_options(args),
                [&](const ops::TensorDesc& input, std::span<const uint32_t> axes) {
                    return kMax ? ops::argmax(input, axes, direction, output_type)
                                : ops::argmin(input, axes, direction, output_type);
                });
}

}  // namespace

extern const Command kReduceCommand = {
    "reduce", "Fold IN.npy over the given axes (DML_OPERATOR_REDUCE), written to OUT.npy (C order).", kInOut,
    define_reduce, run_reduce};

extern const Command kArgmaxCommand = {
    "argmax", "Index of the largest element of IN.npy over the given axes (row-major over them), to OUT.npy.",
    kInOut, define_arg, run_arg<true>};

extern const Command kArgminCommand = {
    "argmin",
    "Index of the smallest element of IN.npy over the given axes (row-major over them), to OUT.npy.", kInOut,
    define_arg, run_arg<false>};

}  // namespace vkdml::cli
