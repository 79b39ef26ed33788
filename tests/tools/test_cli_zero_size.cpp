// tests/tools/test_cli_zero_size.cpp — the vkdml tool on zero-size arrays (a dimension of 0), run as a
// subprocess: NumPy's answers (an empty scan; a reduction over an axis of 0 filled with the function's value
// for no elements, or refused where NumPy has none), the library's own refusals kept, and `show`.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "npy/npy.hpp"

using namespace vkdml_test::cli;

namespace {

constexpr double kInf = INFINITY;

// Writes a zero-size C-order .npy file of `type` and `sizes` through the library's writer.
void write_empty(const std::string& path, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes) {
    REQUIRE(vkdml::npy::write(path, type, sizes, {}));
}

// Reads OUT.npy: its bool flag, and its type, shape, order and values as read_values checks them (for a
// zero-size shape, which read_values' packed tensor cannot hold, those here, and no values).
std::vector<double> read_output(const std::string& path, DML_TENSOR_DATA_TYPE type,
                                const std::vector<uint32_t>& sizes, bool boolean = false) {
    auto array = vkdml::npy::read(path);
    INFO(path << ": " << (array ? std::string() : array.error().message));
    REQUIRE(array);
    CHECK(array->boolean == boolean);
    if (std::find(sizes.begin(), sizes.end(), 0u) == sizes.end()) return read_values(path, type, sizes);
    CHECK(array->type == type);
    CHECK(array->shape == sizes);
    CHECK_FALSE(array->fortran_order);
    CHECK(array->data.empty());
    return {};
}

// Whether `values` are `count` copies of `value` (NaN equal to NaN).
bool all_equal(const std::vector<double>& values, size_t count, double value) {
    if (values.size() != count) return false;
    for (double v : values)
        if (!(v == value || (std::isnan(v) && std::isnan(value)))) return false;
    return true;
}

}  // namespace

TEST_CASE("cli: a zero-size array scans to an empty array of its shape and type", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy", indices = dir / "indices.npy";
    write_empty(in, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3});
    for (const char* axis : {"0", "1", "-1"}) {
        INFO("axis " << axis);
        for (const char* command : {"cumsum", "cumprod", "logcumsumexp"}) {
            run_command(dir, command, {"--axis", axis, "--exclusive"}, in, out);
            CHECK(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3}).empty());
        }
        run_command(dir, "cummax", {"--axis", axis, "--indices", indices}, in, out);
        CHECK(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3}).empty());
        CHECK(read_output(indices, DML_TENSOR_DATA_TYPE_INT64, {2, 0, 3}).empty());
    }
    // A bool file sums in int64 (NumPy's type), keeps bool in a running minimum; Fortran order, 1-D.
    const std::string bools = dir / "bools.npy";
    write_text(bools, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }", ""));
    run_command(dir, "cumsum", {"--axis", "0"}, bools, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_INT64, {0}).empty());
    run_command(dir, "cummin", {"--axis", "0", "--reverse"}, bools, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_UINT8, {0}, true).empty());
    const std::string fortran = dir / "fortran.npy";
    write_text(fortran, npy_image("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 0), }", ""));
    run_command(dir, "cumsum", {"--axis", "1"}, fortran, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT64, {3, 0}).empty());
    // show prints it as NumPy does, "[]", and --limit adds no statistics of no elements.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"show", in}, std::vector<std::string>{"show", "--limit", "2", in}}) {
        const Outcome shown = run_tool(dir, args);
        CHECK(shown.exit_code == 0);
        CHECK(shown.out == "FLOAT32 [2,0,3]\n[]\n");
        CHECK(shown.err.empty());
    }
}

TEST_CASE("cli: a reduction over an axis of size 0 gives NumPy's value for no elements", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", ints = dir / "ints.npy", halves = dir / "halves.npy",
                      out = dir / "out.npy";
    write_empty(in, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3});
    write_empty(ints, DML_TENSOR_DATA_TYPE_INT16, {2, 0, 3});
    write_empty(halves, DML_TENSOR_DATA_TYPE_FLOAT16, {0, 2});
    const double nan = NAN;
    const struct {
        const char* function;
        double value;
    } floats[] = {{"sum", 0},         {"l1", 0},
                  {"l2", 0},          {"sum_square", 0},
                  {"multiply", 1},    {"average", nan},
                  {"variance", nan},  {"standard_deviation", nan},
                  {"log_sum", -kInf}, {"log_sum_exp", -kInf}};
    for (const auto& f : floats) {
        INFO(f.function);
        // Over the axis of 0 alone (kept as 1), and over every axis with the reduced axes left out.
        run_command(dir, "reduce", {"--function", f.function, "--axes", "1"}, in, out);
        CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 1, 3}), 6, f.value));
        run_command(dir, "reduce", {"--function", f.function, "--axes", "all", "--keepdims", "false"}, in,
                    out);
        CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {1}), 1, f.value));  // (0-d: {1})
        run_command(dir, "reduce", {"--function", f.function, "--axes", "0"}, halves, out);
        CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2}), 2, f.value));
    }
    // Integers keep their type: 0 and 1; a count is 0 in its output type; any is False and all True.
    run_command(dir, "reduce", {"--function", "sum", "--axes", "0,1", "--keepdims", "false"}, ints, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_INT16, {3}), 3, 0));
    run_command(dir, "reduce", {"--function", "multiply", "--axes", "1"}, ints, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_INT16, {2, 1, 3}), 6, 1));
    run_command(dir, "reduce", {"--function", "count_nonzero", "--axes", "1", "--output-type", "uint32"},
                ints, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_UINT32, {2, 1, 3}), 6, 0));
    run_command(dir, "reduce", {"--function", "any", "--axes", "1"}, in, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_UINT8, {2, 1, 3}, true), 6, 0));
    run_command(dir, "reduce", {"--function", "all", "--axes", "1"}, in, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_UINT8, {2, 1, 3}, true), 6, 1));
    // An output that keeps the axis of 0 is empty: even max and argmax, which no empty slice feeds.
    run_command(dir, "reduce", {"--function", "max", "--axes", "2"}, in, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 1}).empty());
    run_command(dir, "argmax", {"--axes", "0,2", "--keepdims", "false"}, in, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_INT64, {0}).empty());
    // Bool files, computed as any bool file: a product in int64, a mean in float32, all as bool, max as bool
    // where it keeps the axis of 0.
    const std::string bools = dir / "bools.npy";
    write_text(bools, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (0, 2), }", ""));
    run_command(dir, "reduce", {"--function", "multiply", "--axes", "0"}, bools, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_INT64, {1, 2}), 2, 1));
    run_command(dir, "reduce", {"--function", "average", "--axes", "0"}, bools, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {1, 2}), 2, nan));
    run_command(dir, "reduce", {"--function", "all", "--axes", "all", "--keepdims", "false"}, bools, out);
    CHECK(all_equal(read_output(out, DML_TENSOR_DATA_TYPE_UINT8, {1}, true), 1, 1));
    run_command(dir, "reduce", {"--function", "max", "--axes", "1"}, bools, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_UINT8, {0, 1}, true).empty());
    run_command(dir, "reduce", {"--function", "sum", "--axes", "none"}, in, out);
    CHECK(read_output(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3}).empty());
}

TEST_CASE("cli: zero-size arrays are refused where NumPy or the library refuses them", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", ints = dir / "ints.npy", out = dir / "out.npy";
    write_empty(in, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0, 3});
    write_empty(ints, DML_TENSOR_DATA_TYPE_INT16, {0, 4});
    // A maximum, a minimum and their arg of no elements have no value.
    check_error(dir, {"reduce", "--function", "max", "--axes", "1", in, out}, 1,
                in + ": the max of no elements has no value (NumPy: \"zero-size array to reduction operation "
                     "maximum which has no identity\")");
    check_error(
        dir, {"reduce", "--function", "min", "--axes", "all", in, out}, 1,
        "the min of no elements has no value (NumPy: \"zero-size array to reduction operation minimum "
        "which has no identity\")");
    check_error(dir, {"argmax", "--axis", "1", in, out}, 1,
                in + ": the argmax of no elements has no value (NumPy: \"attempt to get argmax of an empty "
                     "sequence\")");
    check_error(dir, {"reduce", "--function", "argmin", "--axes", "0,1", in, out}, 1,
                "the argmin of no elements has no value");
    // Also where the result has no element either (another axis of 0 is kept), as NumPy refuses it.
    const std::string two_zeros = dir / "two_zeros.npy";
    write_empty(two_zeros, DML_TENSOR_DATA_TYPE_FLOAT32, {0, 0});
    check_error(dir, {"reduce", "--function", "max", "--axes", "0", two_zeros, out}, 1,
                "the max of no elements has no value");
    check_error(dir, {"argmax", "--axis", "1", two_zeros, out}, 1, "the argmax of no elements has no value");
    check_error(dir, {"reduce", "--function", "min", "--axes", "0", "--nan", "ignore", two_zeros, out}, 1,
                "the min of no elements has no value");
    // The library's rules hold as for any file: the types a function takes, the axes, the device.
    check_error(
        dir, {"logcumsumexp", "--axis", "0", ints, out}, 1,
        "LOG_CUMULATIVE_SUM_EXP: InputTensor.DataType is INT16 but LOG_CUMULATIVE_SUM_EXP takes FLOAT16, "
        "FLOAT32 or FLOAT64 only");
    check_error(dir, {"reduce", "--function", "l2", "--axes", "0", ints, out}, 1,
                "REDUCE: InputTensor.DataType is INT16 but L2 takes FLOAT16, FLOAT32 or FLOAT64 only");
    check_error(dir, {"cumsum", "--axis", "2", ints, out}, 1, "axis 2 is out of range for " + ints);
    check_error(dir, {"cumsum", "--axis", "0", "--device", "no such device", ints, out}, 1,
                "no Vulkan device matches \"no such device\"");
    // The operator is built as if each 0 were 1, which DirectML's element limit must allow.
    const std::string wide = dir / "wide.npy";
    write_empty(wide, DML_TENSOR_DATA_TYPE_UINT8, {65536, 0, 65536});
    check_error(dir, {"cumsum", "--axis", "1", wide, out}, 1,
                wide +
                    ": a zero-size array is computed as if each 0 in its shape were 1, and the rest of its "
                    "shape holds more than 4294967295 elements (DirectML's limit)");
}
