// tests/tools/test_cli_reduce.cpp — the vkdml tool's reduce, argmax and argmin commands run as a subprocess:
// the SPEC §6 examples through .npy files for every data type (C and Fortran order), the other reduce
// functions, '--axes none', the usage text, and their error paths (exit code, a single "vkdml: error: "
// line, no output file left behind).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "npy/npy.hpp"
#include "npy/platform.hpp"
#include "reference_reduce.hpp"
#include "tensor_data.hpp"

namespace fs = std::filesystem;
using namespace vkdml_test;
using namespace vkdml_test::cli;
// Paths are UTF-8 strings: std::filesystem gets them through path_from_utf8 (not the ANSI code page).
using vkdml::platform::path_from_utf8;

namespace {

// ---- reduce, argmax, argmin --------------------------------------------------------------------

struct ReduceExample {
    std::vector<std::string> args;  // the command and its options
    std::string input;              // a file of kReduceInputs
    bool gives_indices;             // the output has an index type (--output-type), else the input's
    std::vector<uint32_t> sizes;    // of the output
    std::vector<double> expected;
};

// SPEC §6, each through both `reduce --function argmax|argmin` and `argmax|argmin`, with --axes and
// --axis, negative axes and axes in either order.
const ReduceExample kReduceExamples[] = {
    {{"reduce", "--function", "sum", "--axes", "0"}, "sum.npy", false, {1, 3}, {6, 6, 9}},
    {{"reduce", "--function", "sum", "--axis", "0"}, "sum.npy", false, {1, 3}, {6, 6, 9}},
    {{"reduce", "--function", "sum", "--axes", "1"}, "sum.npy", false, {3, 1}, {6, 7, 8}},
    {{"reduce", "--function", "sum", "--axis", "-1"}, "sum.npy", false, {3, 1}, {6, 7, 8}},
    {{"reduce", "--function", "sum", "--axes", "0,1"}, "sum.npy", false, {1, 1}, {21}},
    {{"reduce", "--function", "sum", "--axes=-1,-2"}, "sum.npy", false, {1, 1}, {21}},
    {{"argmax", "--axes", "0"}, "arg.npy", true, {1, 3}, {1, 2, 1}},
    {{"reduce", "--function", "argmax", "--axis", "0"}, "arg.npy", true, {1, 3}, {1, 2, 1}},
    {{"argmax", "--axis", "-1"}, "arg.npy", true, {3, 1}, {2, 2, 1}},
    {{"reduce", "--function", "argmax", "--axes", "1"}, "arg.npy", true, {3, 1}, {2, 2, 1}},
    {{"argmax", "--axes", "0,1"}, "arg.npy", true, {1, 1}, {7}},
    {{"reduce", "--function", "argmax", "--axes", "1,0"}, "arg.npy", true, {1, 1}, {7}},
    {{"argmin", "--axis", "0"}, "arg.npy", true, {1, 3}, {0, 1, 2}},
    {{"reduce", "--function", "argmin", "--axes", "-2"}, "arg.npy", true, {1, 3}, {0, 1, 2}},
    {{"argmin", "--axes", "1"}, "arg.npy", true, {3, 1}, {0, 1, 0}},
    {{"reduce", "--function", "argmin", "--axis", "1"}, "arg.npy", true, {3, 1}, {0, 1, 0}},
    {{"argmin", "--axes", "1,0"}, "arg.npy", true, {1, 1}, {4}},
    {{"reduce", "--function", "argmin", "--axes", "0,-1"}, "arg.npy", true, {1, 1}, {4}},
    {{"argmax", "--axes", "0"}, "ties_max.npy", true, {1}, {0}},
    {{"argmax", "--axes", "0", "--select-last-index"}, "ties_max.npy", true, {1}, {4}},
    {{"reduce", "--function", "argmax", "--axis", "-1"}, "ties_max.npy", true, {1}, {0}},
    {{"argmin", "--axis", "0"}, "ties_min.npy", true, {1}, {0}},
    {{"argmin", "--select-last-index", "--axis", "-1"}, "ties_min.npy", true, {1}, {4}},
    {{"reduce", "--function", "argmin", "--axes", "0"}, "ties_min.npy", true, {1}, {0}},
};

// What --output-type accepts and the type each gives; the last entry leaves the option out.
const std::pair<std::string, DML_TENSOR_DATA_TYPE> kOutputTypes[] = {
    {"int32", DML_TENSOR_DATA_TYPE_INT32},   {"int64", DML_TENSOR_DATA_TYPE_INT64},
    {"uint32", DML_TENSOR_DATA_TYPE_UINT32}, {"uint64", DML_TENSOR_DATA_TYPE_UINT64},
    {"", DML_TENSOR_DATA_TYPE_INT64},
};

// Writes every kReduceInputs file into `dir` as `type`, in C or Fortran order.
void write_reduce_inputs(const TempDir& dir, DML_TENSOR_DATA_TYPE type, bool fortran) {
    for (const ReduceInput& input : kReduceInputs) {
        if (fortran)
            write_fortran_order(dir / input.file, type, input.sizes, input.values);
        else
            write_c_order(dir / input.file, type, input.sizes, input.values);
    }
}

// Runs every kReduceExamples entry on the inputs as written by write_reduce_inputs and checks the output's
// type, shape and values. The arg examples take the entries of kOutputTypes in turn, from
// `first_output_type` on. Removes the output file after each.
void check_reduce_examples(const TempDir& dir, DML_TENSOR_DATA_TYPE type, size_t first_output_type) {
    const std::string out = dir / "out.npy";
    size_t next_output_type = first_output_type;
    for (const ReduceExample& example : kReduceExamples) {
        std::vector<std::string> options(example.args.begin() + 1, example.args.end());
        DML_TENSOR_DATA_TYPE output_type = type;
        if (example.gives_indices) {
            const auto& [name, index_type] = kOutputTypes[next_output_type++ % std::size(kOutputTypes)];
            if (!name.empty()) options.insert(options.end(), {"--output-type", name});
            output_type = index_type;
        }
        INFO(example.args[0] << " " << joined(options) << " on " << example.input);
        run_command(dir, example.args[0], options, dir / example.input, out);
        CHECK(read_values(out, output_type, example.sizes) == example.expected);
        fs::remove(path_from_utf8(out));
    }
}

// write_reduce_inputs and check_reduce_examples for each of `types` in turn (the t-th starting the arg
// examples' output types at kOutputTypes' t-th entry).
void check_reduce_examples_per_type(const TempDir& dir, std::span<const DML_TENSOR_DATA_TYPE> types,
                                    bool fortran) {
    for (size_t t = 0; t < types.size(); ++t) {
        INFO("input type " << type_name(types[t]));
        write_reduce_inputs(dir, types[t], fortran);
        check_reduce_examples(dir, types[t], t);
    }
}

// One `vkdml reduce` run whose result is known exactly.
struct FunctionCase {
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<double> values;
    std::vector<std::string> options;
    std::vector<uint32_t> output_sizes;
    std::vector<double> expected;
};

constexpr auto kF16 = DML_TENSOR_DATA_TYPE_FLOAT16, kF32 = DML_TENSOR_DATA_TYPE_FLOAT32,
               kF64 = DML_TENSOR_DATA_TYPE_FLOAT64;

// The functions beyond SUM and the arg ones, on inputs whose results every type holds exactly (LOG_SUM_EXP:
// far off the rounding boundary, so any faithful ln gives the one nearest value).
const FunctionCase kFunctionCases[] = {
    {kF16, {2, 2}, {1, 2, 3, 6}, {"--function", "average", "--axes", "0,1"}, {1, 1}, {3}},
    {kF32, {2, 2}, {1, 2, 3, 6}, {"--function", "average", "--axes", "0"}, {1, 2}, {2, 4}},
    {kF64, {2, 2}, {1, 2, 3, 6}, {"--function", "average", "--axis", "1"}, {2, 1}, {1.5, 4.5}},
    {kF16, {2}, {3, 4}, {"--function", "l2", "--axes", "0"}, {1}, {5}},
    {kF32, {2}, {3, 4}, {"--function", "l2", "--axes", "0"}, {1}, {5}},
    {kF64, {2, 2}, {3, 4, -6, 8}, {"--function", "l2", "--axes", "-1"}, {2, 1}, {5, 10}},
    {kF32, {2}, {0.25, 0.75}, {"--function", "log_sum", "--axes", "0"}, {1}, {0}},
    {kF64, {2}, {0.25, 0.75}, {"--function", "log_sum", "--axes", "0"}, {1}, {0}},
    {kF64, {2}, {1000, 1000}, {"--function", "log_sum_exp", "--axes", "0"}, {1}, {1000 + std::log(2.0)}},
    {kF32,
     {2},
     {100, 100},
     {"--function", "log_sum_exp", "--axes", "0"},
     {1},
     stored_values(kF32, {100 + std::log(2.0)})},
    {kF32, {1}, {100}, {"--function", "log_sum_exp", "--axes", "0"}, {1}, {100}},
    {DML_TENSOR_DATA_TYPE_INT32, {1, 3}, {-1, 2, -3}, {"--function", "l1", "--axes", "1"}, {1, 1}, {6}},
    {DML_TENSOR_DATA_TYPE_INT16, {3}, {1, -2, 3}, {"--function", "sum_square", "--axes", "0"}, {1}, {14}},
    {DML_TENSOR_DATA_TYPE_INT64, {3}, {2, -3, 4}, {"--function", "multiply", "--axes", "0"}, {1}, {-24}},
    {kF16, {3}, {-1.5, 2.5, 0.5}, {"--function", "max", "--axes", "0"}, {1}, {2.5}},
    {kF16, {3}, {-1.5, 2.5, 0.5}, {"--function", "min", "--axes", "0"}, {1}, {-1.5}},
    {DML_TENSOR_DATA_TYPE_UINT8,
     {2, 2},
     {200, 100, 7, 9},
     {"--function", "max", "--axes", "0"},
     {1, 2},
     {200, 100}},
};

// SPEC §3 on the host for `sum`, `max`, `argmax` and `argmin` (ties: the first index, the last with
// `last_index`): the fold of `values` (C order) over `axes`, in C order.
std::vector<double> host_reduce(const std::vector<uint32_t>& sizes, const std::vector<double>& values,
                                const std::vector<uint32_t>& axes, std::string_view function,
                                bool last_index) {
    const std::vector<uint32_t> output_sizes = reduce_output_sizes(sizes, axes);
    std::vector<double> result(element_count(output_sizes), 0), best(result.size(), 0);
    std::vector<bool> seen(result.size(), false);
    std::vector<uint32_t> index(sizes.size(), 0);
    uint64_t linear = 0;
    do {
        uint64_t out = 0, reduced = 0;  // output position; index over the reduced axes, row-major
        for (size_t d = 0; d < sizes.size(); ++d) {
            const bool is_reduced = output_sizes[d] == 1 && sizes[d] != 1;
            out = out * output_sizes[d] + (is_reduced ? 0 : index[d]);
            if (is_reduced) reduced = reduced * sizes[d] + index[d];
        }
        const double v = values[linear++];
        const bool first = !seen[out];
        seen[out] = true;
        if (function == "sum") {
            result[out] += v;
        } else if (function == "max") {
            result[out] = first ? v : std::max(result[out], v);
        } else {
            const bool better = function == "argmax" ? v > best[out] : v < best[out];
            if (first || better || (last_index && v == best[out])) {
                best[out] = v;
                result[out] = static_cast<double>(reduced);
            }
        }
    } while (next_index(index, sizes));
    return result;
}

}  // namespace

TEST_CASE("cli: vkdml reduce, argmax and argmin reproduce the SPEC §6 examples for every data type",
          "[gpu][cli][each-type]") {
    TempDir dir;
    check_reduce_examples_per_type(dir, all_types(), false);
}

TEST_CASE("cli: reduce, argmax and argmin give the SPEC §6 examples for a Fortran-order input",
          "[gpu][cli][each-type]") {
    TempDir dir;
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT8,
                                          DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_FLOAT64,
                                          DML_TENSOR_DATA_TYPE_INT64};
    check_reduce_examples_per_type(dir, types, true);
}

TEST_CASE("cli: reduce, argmax and argmin give the same result for a Fortran-order input: rank 3, axis sets",
          "[gpu][cli]") {
    TempDir dir;
    const std::vector<uint32_t> sizes = {2, 3, 5};
    std::vector<double> values;
    for (int i = 0; i < 30; ++i) values.push_back((i * 7) % 11 - 5);  // with ties
    write_c_order(dir / "in_c.npy", DML_TENSOR_DATA_TYPE_INT32, sizes, values);
    write_fortran_order(dir / "in_f.npy", DML_TENSOR_DATA_TYPE_INT32, sizes, values);
    struct Case {
        std::vector<std::string> args;  // command and options
        std::string function;           // for host_reduce
        std::vector<uint32_t> axes;
        bool last_index;
    };
    const Case cases[] = {
        {{"reduce", "--function", "sum", "--axes", "0,2"}, "sum", {0, 2}, false},
        {{"reduce", "--function", "max", "--axis", "1"}, "max", {1}, false},
        {{"reduce", "--function", "argmax", "--axes", "2,0"}, "argmax", {0, 2}, false},
        {{"reduce", "--function", "argmin", "--axes", "-1,-2"}, "argmin", {1, 2}, false},
        {{"argmax", "--axes", "0,1", "--select-last-index"}, "argmax", {0, 1}, true},
        {{"argmax", "--axes", "0,1,2"}, "argmax", {0, 1, 2}, false},
        {{"argmin", "--axes", "2,0,1", "--select-last-index"}, "argmin", {0, 1, 2}, true},
        {{"argmin", "--axis", "-1"}, "argmin", {2}, false},
    };
    for (const Case& c : cases) {
        INFO(joined(c.args));
        const std::vector<std::string> options(c.args.begin() + 1, c.args.end());
        run_command(dir, c.args[0], options, dir / "in_c.npy", dir / "out_c.npy");
        run_command(dir, c.args[0], options, dir / "in_f.npy", dir / "out_f.npy");
        const std::vector<uint32_t> output_sizes = reduce_output_sizes(sizes, c.axes);
        const auto output_type =
            c.function.starts_with("arg") ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32;
        CHECK(read_values(dir / "out_c.npy", output_type, output_sizes) ==
              host_reduce(sizes, values, c.axes, c.function, c.last_index));
        CHECK(read_text(dir / "out_c.npy") == read_text(dir / "out_f.npy"));
    }
}

TEST_CASE("cli: vkdml reduce's other functions give exact results", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    for (const FunctionCase& c : kFunctionCases) {
        INFO(type_name(c.type) << " " << to_string(c.sizes) << " reduce " << joined(c.options));
        write_c_order(in, c.type, c.sizes, c.values);
        run_command(dir, "reduce", c.options, in, out);
        CHECK(read_values(out, c.type, c.output_sizes) == c.expected);
        fs::remove(path_from_utf8(out));
    }
}

TEST_CASE("cli: --axes none reduces no axis (AxisCount 0)", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    const std::vector<uint32_t> sizes = {3, 3};
    const std::vector<double>& values = kReduceInputs[1].values;
    const std::vector<double> zeros(9, 0);
    struct Case {
        DML_TENSOR_DATA_TYPE input_type;
        std::vector<std::string> args;
        DML_TENSOR_DATA_TYPE output_type;
        const std::vector<double>& expected;
    };
    const Case cases[] = {
        {DML_TENSOR_DATA_TYPE_INT16, {"reduce", "--function", "sum"}, DML_TENSOR_DATA_TYPE_INT16, values},
        {DML_TENSOR_DATA_TYPE_INT16, {"reduce", "--function", "max"}, DML_TENSOR_DATA_TYPE_INT16, values},
        {DML_TENSOR_DATA_TYPE_FLOAT32,
         {"reduce", "--function", "average"},
         DML_TENSOR_DATA_TYPE_FLOAT32,
         values},
        {DML_TENSOR_DATA_TYPE_FLOAT32, {"reduce", "--function", "argmax"}, DML_TENSOR_DATA_TYPE_INT64, zeros},
        {DML_TENSOR_DATA_TYPE_UINT8,
         {"reduce", "--function", "argmin", "--output-type", "uint32"},
         DML_TENSOR_DATA_TYPE_UINT32,
         zeros},
        {DML_TENSOR_DATA_TYPE_FLOAT64, {"argmax"}, DML_TENSOR_DATA_TYPE_INT64, zeros},
        {DML_TENSOR_DATA_TYPE_INT32,
         {"argmin", "--select-last-index", "--output-type", "int32"},
         DML_TENSOR_DATA_TYPE_INT32,
         zeros},
    };
    for (const Case& c : cases) {
        INFO(type_name(c.input_type) << " " << joined(c.args));
        write_c_order(in, c.input_type, sizes, values);
        std::vector<std::string> options(c.args.begin() + 1, c.args.end());
        options.insert(options.end(), {"--axes", "none"});
        run_command(dir, c.args[0], options, in, out);
        CHECK(read_values(out, c.output_type, sizes) == c.expected);
        fs::remove(path_from_utf8(out));
    }
}

TEST_CASE("cli: --axes none applies l1, l2, sum_square and log_sum to each element (DirectML's AxisCount 0)",
          "[gpu][cli][nan]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {2}, {-3, 1});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    struct Case {
        const char* function;
        std::vector<double> expected;
    };
    // The example (DirectML 1.15.4's answers): float32 [-3, 1].
    for (const Case& c : {Case{"l2", {3, 1}}, Case{"l1", {3, 1}}, Case{"sum_square", {9, 1}},
                          Case{"log_sum", {nan, 0}}, Case{"log_sum_exp", {-3, 1}}, Case{"sum", {-3, 1}}}) {
        INFO(c.function);
        run_command(dir, "reduce", {"--function", c.function, "--axes", "none"}, in, out);
        const std::vector<double> got = read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2});
        // (Vulkan's sqrt and log need not round exactly: a few float32 ulps.)
        for (size_t i = 0; i < 2; ++i)
            CHECK((std::isnan(c.expected[i])
                       ? std::isnan(got[i])
                       : std::fabs(got[i] - c.expected[i]) <= 1e-6 * std::max(1.0, c.expected[i])));
    }
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT8, {3}, {-128, -3, 16});
    run_command(dir, "reduce", {"--function", "l1", "--axes", "none"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT8, {3}) == std::vector<double>{-128, 3, 16});
    run_command(dir, "reduce", {"--function", "sum_square", "--axes", "none"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT8, {3}) == std::vector<double>{0, 9, 0});
}

TEST_CASE(
    "cli: --nan ignore skips NaN in max, min, argmax and argmin, reads it as the identity in sums, "
    "products and scans; --nan propagate is the default",
    "[gpu][cli][nan]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    const double nan = std::numeric_limits<double>::quiet_NaN(),
                 inf = std::numeric_limits<double>::infinity();
    // Rows: NaN inside, NaN only, NaN first next to -inf.
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4},
                  {1, nan, 3, 2, nan, nan, nan, nan, nan, -inf, 5, nan});
    const auto values = [&](DML_TENSOR_DATA_TYPE type) { return read_values(out, type, {3, 1}); };
    run_command(dir, "reduce", {"--function", "max", "--axes", "1", "--nan", "ignore"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_FLOAT32) == std::vector<double>{3, -inf, 5});
    run_command(dir, "reduce", {"--function", "min", "--axes", "1", "--nan", "ignore"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_FLOAT32) == std::vector<double>{1, inf, -inf});
    run_command(dir, "reduce", {"--function", "argmax", "--axes", "1", "--nan", "ignore"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_INT64) == std::vector<double>{2, 0, 2});
    run_command(dir, "argmin", {"--axis", "1", "--nan", "ignore", "--select-last-index"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_INT64) == std::vector<double>{0, 0, 1});
    run_command(dir, "argmax", {"--axis", "1", "--nan", "propagate"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_INT64) == std::vector<double>{1, 0, 0});
    run_command(dir, "argmax", {"--axis", "1"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_INT64) == std::vector<double>{1, 0, 0});
    run_command(dir, "reduce", {"--function", "max", "--axes", "1"}, in, out);
    const std::vector<double> propagated = values(DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK((std::isnan(propagated[0]) && std::isnan(propagated[1]) && std::isnan(propagated[2])));
    // average counts the numbers, as NumPy's nanmean: (1 + 3 + 2) / 3, NaN only, (-inf + 5) / 2.
    run_command(dir, "reduce", {"--function", "average", "--axes", "1", "--nan", "ignore"}, in, out);
    const std::vector<double> means = values(DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK(means[0] == 2);
    CHECK(std::isnan(means[1]));
    CHECK(means[2] == -inf);
    // The sums and products read NaN as their identity, as NumPy's nansum and nanprod; so do the scans.
    run_command(dir, "reduce", {"--function", "sum", "--axes", "1", "--nan", "ignore"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_FLOAT32) == std::vector<double>{6, 0, -inf});
    run_command(dir, "reduce", {"--function", "multiply", "--axes", "1", "--nan", "ignore"}, in, out);
    CHECK(values(DML_TENSOR_DATA_TYPE_FLOAT32) == std::vector<double>{6, 1, -inf});
    run_command(dir, "cumsum", {"--axis", "1", "--nan", "ignore"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4}) ==
          std::vector<double>{1, 1, 4, 6, 0, 0, 0, 0, 0, -inf, -inf, -inf});
    run_command(dir, "cumprod", {"--axis", "1", "--nan", "ignore", "--exclusive"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4}) ==
          std::vector<double>{1, 1, 1, 3, 1, 1, 1, 1, 1, 1, -inf, -inf * 5});
    check_error(dir, {"cumsum", "--axis", "1", "--nan", "zero", in, out}, 2,
                "option '--nan' expects propagate or ignore, got 'zero'");
    // An unknown mode.
    check_error(dir, {"argmax", "--axis", "1", "--nan", "skip", in, out}, 2,
                "option '--nan' expects propagate or ignore, got 'skip'");
    const Outcome help = run_tool(dir, {"reduce", "--help"});
    CHECK(help.out.find("--nan MODE") != std::string::npos);
}

TEST_CASE("cli: --function variance and standard_deviation, --correction, --nan ignore",
          "[gpu][cli][variance]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    const double nan = std::numeric_limits<double>::quiet_NaN();
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT64, {3, 4}, {1, 2, 3, 4, 2, 4, 6, 8, 1, nan, 3, nan});
    const auto values = [&] { return read_values(out, DML_TENSOR_DATA_TYPE_FLOAT64, {3, 1}); };
    run_command(dir, "reduce", {"--function", "variance", "--axes", "1"}, in, out);
    const std::vector<double> var = values();
    CHECK(var[0] == 1.25);
    CHECK(var[1] == 5);
    CHECK(std::isnan(var[2]));
    run_command(dir, "reduce",
                {"--function", "variance", "--axes", "1", "--correction", "1", "--nan", "ignore"}, in, out);
    CHECK(values() == std::vector<double>{5.0 / 3, 20.0 / 3, 2});
    run_command(dir, "reduce", {"--function", "standard_deviation", "--axes", "1", "--nan", "ignore"}, in,
                out);
    CHECK(values() == std::vector<double>{std::sqrt(1.25), std::sqrt(5.0), 1});
    // A bool file is computed in FLOAT32, as average is.
    write_text(in, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }",
                             std::string("\x01\x00\x01\x01", 4)));
    run_command(dir, "reduce", {"--function", "variance", "--axes", "0"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {1}) == std::vector<double>{0.1875});
    check_error(dir, {"reduce", "--function", "sum", "--axes", "0", "--correction", "1", in, out}, 2,
                "option '--correction' is only for --function variance and standard_deviation");
    check_error(dir, {"reduce", "--function", "variance", "--axes", "0", "--correction", "-1", in, out}, 2,
                "option '--correction' expects an integer from 0 to 4294967295, got -1");
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT32, {4}, {1, 0, 1, 1});
    check_error(
        dir, {"reduce", "--function", "standard_deviation", "--axes", "0", in, out}, 1,
        "REDUCE: InputTensor.DataType is INT32 but STANDARD_DEVIATION takes FLOAT16, FLOAT32 or FLOAT64 "
        "only (SPEC §4)");
}

TEST_CASE("cli: --function any, all and count_nonzero: bool flags and int64 counts, --output-type",
          "[gpu][cli][logical]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    const double nan = std::numeric_limits<double>::quiet_NaN();
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 3}, {0, -0.0, 0, nan, 0, 0, 1, 2, 3});
    const auto header_of = [](const std::string& bytes) { return bytes.substr(0, bytes.find('\n') + 1); };
    run_command(dir, "reduce", {"--function", "any", "--axes", "1", "--keepdims", "false"}, in, out);
    CHECK(header_of(read_text(out)).find("'descr': '|b1', 'fortran_order': False, 'shape': (3,), }") !=
          std::string::npos);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_UINT8, {3}) == std::vector<double>{0, 1, 1});
    run_command(dir, "reduce", {"--function", "all", "--axes", "1", "--keepdims", "false"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_UINT8, {3}) == std::vector<double>{0, 0, 1});
    run_command(dir, "reduce", {"--function", "any", "--axes", "1", "--keepdims", "false", "--nan", "ignore"},
                in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_UINT8, {3}) == std::vector<double>{0, 0, 1});
    run_command(dir, "reduce", {"--function", "count_nonzero", "--axes", "all"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT64, {1, 1}) == std::vector<double>{4});
    run_command(dir, "reduce", {"--function", "count_nonzero", "--axes", "0", "--output-type", "uint32"}, in,
                out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_UINT32, {1, 3}) == std::vector<double>{2, 1, 1});
    check_error(
        dir, {"reduce", "--function", "any", "--axes", "0", "--output-type", "int32", in, out}, 2,
        "option '--output-type' is only for --function argmax, argmin and count_nonzero (--function any "
        "gives bool)");
}

TEST_CASE("cli: --axes all reduces every axis, --keepdims false drops reduced axes, '-' writes to stdout",
          "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    std::vector<double> values(24);
    for (size_t i = 0; i < values.size(); ++i) values[i] = double(i);  // [2, 3, 4]: 0..23
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT32, {2, 3, 4}, values);
    const auto header_of = [](const std::string& bytes) { return bytes.substr(0, bytes.find('\n') + 1); };

    // --axes all (NumPy's axis=None): DirectML's shape [1, 1, 1], or shape () with --keepdims false.
    run_command(dir, "reduce", {"--function", "sum", "--axes", "all"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {1, 1, 1}) == std::vector<double>{276});
    run_command(dir, "reduce", {"--function", "sum", "--axes", "all", "--keepdims", "false"}, in, out);
    CHECK(header_of(read_text(out)).find("'descr': '<i4', 'fortran_order': False, 'shape': (), }") !=
          std::string::npos);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {1}) == std::vector<double>{276});  // 0-d reads as [1]
    run_command(dir, "argmax", {"--axes", "all"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT64, {1, 1, 1}) == std::vector<double>{23});
    run_command(dir, "argmin", {"--axes", "all", "--keepdims", "true"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT64, {1, 1, 1}) == std::vector<double>{0});
    // Two of three axes without keeping them: [3], sum over i and k of 12i + 4j + k = 8·4j + 60.
    run_command(dir, "reduce", {"--function", "sum", "--axes", "0,-1", "--keepdims", "false"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {3}) == std::vector<double>{60, 92, 124});
    run_command(dir, "argmax", {"--axis", "1", "--keepdims", "false", "--output-type", "int32"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {2, 4}) == std::vector<double>(8, 2));
    // --axes none with --keepdims false: nothing is reduced, nothing dropped.
    run_command(dir, "reduce", {"--function", "max", "--axes", "none", "--keepdims", "false"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {2, 3, 4}) == values);
    fs::remove(path_from_utf8(out));

    // '-' as OUT: the .npy on standard output, nothing else there, no file made.
    const auto to_stdout = [&](std::vector<std::string> args) {
        args.insert(args.end(), {in, "-"});
        const Outcome tool = run_tool(dir, with_validation(args));
        INFO(tool.err);
        REQUIRE(tool.exit_code == 0);
        CHECK(tool.err.empty());
        CHECK(dir.entries() == std::vector<std::string>{"in.npy"});
        auto array = vkdml::npy::parse(std::as_bytes(std::span(tool.out)), "standard output");
        REQUIRE(array);
        return *array;
    };
    const vkdml::npy::Array max =
        to_stdout({"reduce", "--function", "max", "--axes", "1", "--keepdims", "false"});
    CHECK(max.type == DML_TENSOR_DATA_TYPE_INT32);
    CHECK(max.shape == std::vector<uint32_t>{2, 4});
    std::vector<int32_t> got(8);
    REQUIRE(max.data.size() == 32);
    std::memcpy(got.data(), max.data.data(), 32);
    CHECK(got == std::vector<int32_t>{8, 9, 10, 11, 20, 21, 22, 23});
    const vkdml::npy::Array sums = to_stdout({"cumsum", "--axis", "2"});
    CHECK(sums.shape == std::vector<uint32_t>{2, 3, 4});
    REQUIRE(sums.data.size() == 96);
    std::vector<int32_t> cumsum(24);
    std::memcpy(cumsum.data(), sums.data.data(), 96);
    CHECK(std::vector<int32_t>(cumsum.begin(), cumsum.begin() + 8) ==
          std::vector<int32_t>{0, 1, 3, 6, 4, 9, 15, 22});
}

TEST_CASE("cli: the usage of reduce, argmax and argmin", "[gpu][cli]") {
    TempDir dir;
    const Outcome tool = run_tool(dir, {"--help"});
    CHECK(tool.exit_code == 0);
    for (const char* command : {"reduce", "argmax", "argmin"}) {
        INFO(command);
        CHECK(tool.out.find("\n  " + std::string(command) + " ") != std::string::npos);
        const Outcome help = run_tool(dir, {command, "--help"});
        CHECK(help.exit_code == 0);
        CHECK(help.err.empty());
        CHECK(help.out.rfind("usage: vkdml " + std::string(command) + " ", 0) == 0);
        for (const char* text : {"--axes A[,B...]", "--axis N", "'all'", "'none'", "--keepdims BOOL",
                                 "--output-type T", "int64 (default)"})
            CHECK(help.out.find(text) != std::string::npos);
        CHECK((help.out.find("--select-last-index") != std::string::npos) == (command[0] == 'a'));
        CHECK((help.out.find("--function F") != std::string::npos) == (command[0] == 'r'));
    }
}

TEST_CASE("cli: reduce, argmax and argmin errors give one line, the right exit code and no output",
          "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 3}, kReduceInputs[1].values);

    SECTION("usage errors exit with 2") {
        check_error(dir, {"reduce", "--axes", "0", in, out}, 2, "--function");
        check_error(dir, {"reduce", "--function", "frobnicate", "--axes", "0", in, out}, 2,
                    "unknown --function 'frobnicate' (one of: argmax, argmin, average,");
        check_error(dir, {"reduce", "--function", "SUM", "--axes", "0", in, out}, 2,
                    "unknown --function 'SUM'");
        check_error(dir, {"reduce", "--function", "sum", "--output-type", "int32", "--axes", "0", in, out}, 2,
                    "'--output-type' is only for --function argmax, argmin and count_nonzero (--function sum "
                    "gives the input's type)");
        check_error(dir,
                    {"reduce", "--function", "argmax", "--output-type", "float32", "--axes", "0", in, out}, 2,
                    "unknown --output-type 'float32' (one of: int32, int64, uint32, uint64)");
        check_error(dir, {"argmin", "--output-type", "int8", "--axes", "0", in, out}, 2,
                    "unknown --output-type 'int8'");
        check_error(dir, {"reduce", "--function", "sum", in, out}, 2, "--axes A[,B...] (or --axis N)");
        check_error(dir, {"argmax", in, out}, 2, "--axes A[,B...] (or --axis N)");
        check_error(dir, {"argmin", "--select-last-index", in, out}, 2, "--axes A[,B...] (or --axis N)");
        check_error(dir, {"argmin", "--axes", "0", "--axis", "0", in, out}, 2,
                    "--axes or with --axis, not both");
        check_error(dir, {"reduce", "--function", "max", "--axis", "1", "--axes", "0", in, out}, 2,
                    "not both");
        check_error(dir, {"argmax", "--axes", "", in, out}, 2, "'--axes none'");
        check_error(dir, {"argmax", "--axes=", in, out}, 2, "'--axes none'");
        for (const char* bad : {"0,,1", "0,", ",1", "x", "1.5", "0;1", "None", " 1", "ALL", "all,0"})
            check_error(
                dir, {"argmax", "--axes", bad, in, out}, 2,
                "'--axes' expects comma-separated integers, 'all' or 'none', got '" + std::string(bad) + "'");
        for (const char* bad : {"maybe", "True", "0", ""})
            check_error(dir, {"reduce", "--function", "sum", "--axes", "0", "--keepdims", bad, in, out}, 2,
                        "option '--keepdims' expects true or false, got '" + std::string(bad) + "'");
        check_error(dir, {"argmax", "--axis", "0,1", in, out}, 2, "expects an integer, got '0,1'");
        check_error(dir, {"argmin", "--axis", "none", in, out}, 2, "expects an integer, got 'none'");
        check_error(dir, {"reduce", "--function", "argmax", "--select-last-index", "--axes", "0", in, out}, 2,
                    "unknown option '--select-last-index'");
        check_error(dir, {"argmax", "--function", "argmax", "--axes", "0", in, out}, 2,
                    "unknown option '--function'");
        check_error(dir, {"reduce", "--function", "sum", "--axes", "0", in}, 2, "operand");
    }
    SECTION("axes that do not fit the input exit with 1") {
        check_error(dir, {"argmax", "--axes", "2", in, out}, 1, "axis 2 is out of range");
        check_error(dir, {"reduce", "--function", "sum", "--axes=-3", in, out}, 1, "axis -3 is out of range");
        check_error(dir, {"argmin", "--axis", "5", in, out}, 1, "out of range");
        check_error(dir, {"reduce", "--function", "sum", "--axes", "0,1,2", in, out}, 1, "out of range");
        check_error(dir, {"reduce", "--function", "sum", "--axes", "0,0", in, out}, 1,
                    "--axes names axis 0 of " + in + " twice (as 0 and 0)");
        check_error(dir, {"argmax", "--axes", "1,0,-1", in, out}, 1,
                    "--axes names axis 1 of " + in + " twice (as 1 and -1)");
    }
    SECTION("the library's refusals and a missing input exit with 1") {
        const std::string ints = dir / "ints.npy";
        write_c_order(ints, DML_TENSOR_DATA_TYPE_INT32, {3, 3}, kReduceInputs[1].values);
        check_error(dir, {"reduce", "--function", "average", "--axes", "0", ints, out}, 1, "AVERAGE");
        check_error(dir, {"reduce", "--function", "log_sum_exp", "--axes", "0", ints, out}, 1, "LOG_SUM_EXP");
        check_error(dir, {"argmax", "--axes", "0", dir / "absent.npy", out}, 1, "absent.npy");
        check_error(dir, {"reduce", "--function", "min", "--axes", "0", in, dir / "no-such-dir/out.npy"}, 1,
                    "no-such-dir");
    }
}
