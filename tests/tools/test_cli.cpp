// tests/tools/test_cli.cpp — the vkdml tool run as a subprocess: SPEC §6 cumsum and cumprod examples through
// .npy files for every data type (C and Fortran order), --validation (cumulative and reduce runs), `show`
// output, `info`, and the generic error paths (exit code, a single "vkdml: error: " line, no output file
// left behind). The reduce, argmax and argmin commands are tested in test_cli_reduce.cpp.
#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "gpu_fixture.hpp"
#include "json_check.hpp"
#include "npy/npy.hpp"
#include "npy/platform.hpp"
#include "os_support.hpp"
#include "tensor_data.hpp"
#include "vkdml/version.hpp"
#include "vkdml/vkdml.hpp"

namespace fs = std::filesystem;
using namespace vkdml_test;
using namespace vkdml_test::cli;
namespace json = vkdml_test::json;
// Paths are UTF-8 strings: std::filesystem gets them through path_from_utf8 (not the ANSI code page).
using vkdml::platform::path_from_utf8;

namespace {

// ---- SPEC §6 cumsum and cumprod ----------------------------------------------------------------

const std::vector<uint32_t> kSpecSizes = {1, 1, 3, 4};
const std::vector<double> kSpecInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

struct SpecExample {
    std::string command;
    std::vector<std::string> options;
    std::vector<double> expected;  // as exact integers; 8-bit types hold them modulo 2^8
};

// SPEC §6, cumsum then cumprod.
const SpecExample kSpecExamples[] = {
    {"cumsum", {"--axis", "3"}, {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21}},
    {"cumsum", {"--axis", "3", "--exclusive"}, {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17}},
    {"cumsum", {"--axis", "3", "--reverse"}, {11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4}},
    {"cumsum", {"--axis", "2"}, {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12}},
    {"cumprod", {"--axis", "3"}, {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432}},
    {"cumprod", {"--axis", "3", "--exclusive"}, {1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108}},
    {"cumprod", {"--axis", "3", "--reverse"}, {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4}},
    {"cumprod", {"--axis", "2"}, {2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60}},
};

// Runs every SPEC §6 example on the .npy file `in` (holding the SPEC input as `type`) and checks the
// output; removes the output file after each.
void check_spec_examples(const TempDir& dir, const std::string& in, DML_TENSOR_DATA_TYPE type) {
    const std::string out = dir / "out.npy";
    for (const SpecExample& example : kSpecExamples) {
        INFO(example.command << " " << joined(example.options));
        run_command(dir, example.command, example.options, in, out);
        CHECK(read_values(out, type, kSpecSizes) == stored_values(type, example.expected));
        fs::remove(path_from_utf8(out));
    }
}

}  // namespace

TEST_CASE("cli: vkdml cumsum and cumprod reproduce the SPEC §6 examples for every data type",
          "[gpu][cli][each-type]") {
    TempDir dir;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO("type " << type_name(type));
        const std::string in = dir / "in.npy";
        write_c_order(in, type, kSpecSizes, kSpecInput);
        check_spec_examples(dir, in, type);
    }
    CHECK(dir.entries() == std::vector<std::string>{"in.npy"});
}

TEST_CASE("cli: vkdml cummax and cummin: the SPEC §6 examples, flags, NaN and bool files",
          "[gpu][cli][selection]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT16, kSpecSizes, kSpecInput);
    run_command(dir, "cummax", {"--axis", "3"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT16, kSpecSizes) ==
          std::vector<double>{2, 2, 3, 5, 3, 8, 8, 8, 9, 9, 9, 9});
    run_command(dir, "cummin", {"--axis", "-1", "--reverse", "--exclusive"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT16, kSpecSizes) ==
          std::vector<double>{1, 3, 5, 32767, 3, 3, 3, 32767, 2, 2, 4, 32767});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {4}, {nan, 2, nan, 1});
    run_command(dir, "cummin", {"--axis", "0", "--nan", "ignore"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {4}) ==
          std::vector<double>{std::numeric_limits<double>::infinity(), 2, 2, 1});
    // A bool file gives a bool file.
    write_text(
        in, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", std::string("\0\1\0", 3)));
    run_command(dir, "cummax", {"--axis", "0"}, in, out);
    CHECK(read_text(out).find("'descr': '|b1'") != std::string::npos);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_UINT8, {3}) == std::vector<double>{0, 1, 1});
}

TEST_CASE("cli: vkdml cummax and cummin --indices: the SPEC §6 index example, exclusive and reversed",
          "[gpu][cli][selection]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy", indices = dir / "indices.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {8}, {2, 5, 1, 5, 3, 5, 7, 7});
    run_command(dir, "cummax", {"--axis", "0", "--indices", indices}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {8}) == std::vector<double>{2, 5, 5, 5, 5, 5, 7, 7});
    CHECK(read_values(indices, DML_TENSOR_DATA_TYPE_INT64, {8}) ==
          std::vector<double>{0, 1, 1, 3, 3, 5, 6, 7});
    run_command(dir, "cummin", {"--axis", "-1", "--reverse", "--exclusive", "--indices", indices}, in, out);
    CHECK(read_values(indices, DML_TENSOR_DATA_TYPE_INT64, {8}) ==
          std::vector<double>{2, 2, 4, 4, 5, 6, 7, -1});
    // Only the selections take it.
    check_error(dir, {"cumsum", "--axis", "0", "--indices", indices, in, out}, 2,
                "unknown option '--indices'");
    check_error(dir, {"cummax", "--axis", "0", "--indices", out, in, out}, 2,
                "is OUT.npy too: give the indices a file of their own");
}

TEST_CASE("cli: vkdml logcumsumexp: the SPEC §6 example, flags, NaN, bool files, integer files refused",
          "[gpu][cli][lse]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT64, kSpecSizes, kSpecInput);
    const auto log_sum_exp = [](std::initializer_list<double> xs) {
        long double s = 0;
        for (double x : xs) s += std::exp(static_cast<long double>(x));
        return static_cast<double>(std::log(s));
    };
    run_command(dir, "logcumsumexp", {"--axis", "3"}, in, out);
    std::vector<double> got = read_values(out, DML_TENSOR_DATA_TYPE_FLOAT64, kSpecSizes);
    CHECK(got[3] == Approx(log_sum_exp({2, 1, 3, 5})).epsilon(1e-15));
    CHECK(got[6] == Approx(log_sum_exp({3, 8, 7})).epsilon(1e-15));
    run_command(dir, "logcumsumexp", {"--axis", "-1", "--reverse", "--exclusive"}, in, out);
    got = read_values(out, DML_TENSOR_DATA_TYPE_FLOAT64, kSpecSizes);
    CHECK(got[3] == -std::numeric_limits<double>::infinity());
    CHECK(got[0] == Approx(log_sum_exp({1, 3, 5})).epsilon(1e-15));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3}, {nan, 2, 2});
    run_command(dir, "logcumsumexp", {"--axis", "0", "--nan", "ignore"}, in, out);
    got = read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {3});
    CHECK(got[0] == -std::numeric_limits<double>::infinity());
    CHECK(got[1] == 2);
    CHECK(got[2] == Approx(2 + std::log(2.0)).epsilon(1e-7));
    // A bool file is computed in FLOAT32.
    write_text(
        in, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\0\1", 2)));
    run_command(dir, "logcumsumexp", {"--axis", "0"}, in, out);
    got = read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {2});
    CHECK(got[0] == 0);
    CHECK(got[1] == Approx(std::log(1 + std::exp(1.0))).epsilon(1e-7));
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT32, {2}, {1, 2});
    check_error(
        dir, {"logcumsumexp", "--axis", "0", in, out}, 1,
        "LOG_CUMULATIVE_SUM_EXP: InputTensor.DataType is INT32 but LOG_CUMULATIVE_SUM_EXP takes FLOAT16, "
        "FLOAT32 or FLOAT64 only (SPEC §4)");
}

TEST_CASE("cli: file names outside ASCII are read, written and reported intact", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir /
                           "donn\xc3\xa9"
                           "es_\xe6\x97\xa5\xe6\x9c\xac.npy";      // données_日本.npy
    const std::string out = dir / "r\xc3\xa9sultat_\xce\xa3.npy";  // résultat_Σ.npy
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT32, kSpecSizes, kSpecInput);
    run_command(dir, "cumsum", {"--axis", "3"}, in, out);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, kSpecSizes) == kSpecExamples[0].expected);
    const Outcome shown = run_tool(dir, {"show", out});
    CHECK(shown.exit_code == 0);
    CHECK(shown.out == "INT32 [1,1,3,4]\n[[[[2, 3, 6, 11],\n   [3, 11, 18, 21],\n   [9, 15, 17, 21]]]]\n");
    const std::string absent = dir / "\xc3\xa9t\xc3\xa9.npy";  // été.npy
    check_error(dir, {"show", absent}, 1, absent + ": cannot open: No such file or directory");
    auto entries = dir.entries();
    std::sort(entries.begin(), entries.end());
    CHECK(entries == std::vector<std::string>{"donn\xc3\xa9"
                                              "es_\xe6\x97\xa5\xe6\x9c\xac.npy",
                                              "r\xc3\xa9sultat_\xce\xa3.npy"});
}

TEST_CASE("cli: a Fortran-order input gives the SPEC §6 examples for every data type",
          "[gpu][cli][each-type]") {
    TempDir dir;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO("type " << type_name(type));
        const std::string in = dir / "in_f.npy";
        write_fortran_order(in, type, kSpecSizes, kSpecInput);
        check_spec_examples(dir, in, type);
    }
}

TEST_CASE("cli: a Fortran-order input gives the same result as C order: rank 3, every axis", "[gpu][cli]") {
    TempDir dir;
    const std::vector<uint32_t> sizes = {2, 3, 5};
    std::vector<double> values;
    for (int i = 0; i < 30; ++i) values.push_back((i * 7) % 11 - 5);
    write_c_order(dir / "in_c.npy", DML_TENSOR_DATA_TYPE_INT32, sizes, values);
    write_fortran_order(dir / "in_f.npy", DML_TENSOR_DATA_TYPE_INT32, sizes, values);
    CHECK(read_text(dir / "in_c.npy") != read_text(dir / "in_f.npy"));
    for (const char* command : {"cumsum", "cumprod"}) {
        for (const char* axis : {"0", "1", "-1"}) {
            INFO(command << " axis " << axis);
            run_command(dir, command, {"--axis", axis, "--reverse"}, dir / "in_c.npy", dir / "out_c.npy");
            run_command(dir, command, {"--axis", axis, "--reverse"}, dir / "in_f.npy", dir / "out_f.npy");
            const auto from_c = read_values(dir / "out_c.npy", DML_TENSOR_DATA_TYPE_INT32, sizes);
            CHECK(read_values(dir / "out_f.npy", DML_TENSOR_DATA_TYPE_INT32, sizes) == from_c);
            CHECK(read_text(dir / "out_c.npy") == read_text(dir / "out_f.npy"));
        }
    }
}

TEST_CASE("cli: bool inputs: counted in int64, compared as 0 and 1, averaged in float32", "[gpu][cli]") {
    // DirectML has no bool: the tool computes a '|b1' array as NumPy would type it — cumsum, sum and the
    // other integer folds in int64 (no wrap at 256), max and min as 0/1 giving bool, the float functions in
    // float32 — and reads any non-zero byte as True.
    TempDir dir;
    const std::string in = dir / "mask.npy";
    write_text(in, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }",
                             std::string("\x01\x00\x07\x01\x01\xff", 6)));
    const std::string out = dir / "out.npy";
    const auto result = [&](const std::vector<std::string>& args) {
        std::vector<std::string> all = args;
        all.insert(all.end(), {in, out});
        const Outcome run = run_tool(dir, all);
        INFO(joined(args) << ": " << run.err);
        REQUIRE(run.exit_code == 0);
        auto array = vkdml::npy::read(out);
        REQUIRE(array);
        return *array;
    };
    const auto values = [](const vkdml::npy::Array& a) {  // INT64, UINT8 or FLOAT32 elements as doubles
        std::vector<double> v;
        const uint32_t size = vkdml::element_size(a.type);
        for (size_t at = 0; at < a.data.size(); at += size) {
            int64_t i = 0;
            float f = 0;
            uint8_t u = 0;
            if (a.type == DML_TENSOR_DATA_TYPE_INT64) std::memcpy(&i, &a.data[at], 8);
            if (a.type == DML_TENSOR_DATA_TYPE_FLOAT32) std::memcpy(&f, &a.data[at], 4);
            if (a.type == DML_TENSOR_DATA_TYPE_UINT8) std::memcpy(&u, &a.data[at], 1);
            v.push_back(a.type == DML_TENSOR_DATA_TYPE_INT64     ? static_cast<double>(i)
                        : a.type == DML_TENSOR_DATA_TYPE_FLOAT32 ? static_cast<double>(f)
                                                                 : static_cast<double>(u));
        }
        return v;
    };
    auto cumsum = result({"cumsum", "--axis", "1"});
    CHECK(cumsum.type == DML_TENSOR_DATA_TYPE_INT64);
    CHECK_FALSE(cumsum.boolean);
    CHECK(values(cumsum) == std::vector<double>{1, 1, 2, 1, 2, 3});
    auto sum = result({"reduce", "--function", "sum", "--axes", "all"});
    CHECK(sum.type == DML_TENSOR_DATA_TYPE_INT64);
    CHECK(values(sum) == std::vector<double>{5});
    auto min = result({"reduce", "--function", "min", "--axes", "1"});
    CHECK(min.type == DML_TENSOR_DATA_TYPE_UINT8);
    CHECK(min.boolean);  // written as '|b1'
    CHECK(values(min) == std::vector<double>{0, 1});
    auto mean = result({"reduce", "--function", "average", "--axes", "1"});
    CHECK(mean.type == DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK(values(mean) == std::vector<double>{static_cast<double>(2.0f / 3.0f), 1});
    auto argmin = result({"argmin", "--axes", "1"});
    CHECK(argmin.type == DML_TENSOR_DATA_TYPE_INT64);
    CHECK(values(argmin) == std::vector<double>{1, 0});
    const Outcome show = run_tool(dir, {"show", in});
    CHECK(show.out == "BOOL [2,3]\n[[1, 0, 1],\n [1, 1, 1]]\n");
    // 300 Trues count to 300: int64, not uint8.
    write_text(in, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (300,), }",
                             std::string(300, '\x01')));
    CHECK(values(result({"cumsum", "--axis", "0"})).back() == 300);
}

TEST_CASE("cli: a big-endian input gives the same result as little-endian", "[gpu][cli][each-type]") {
    // NumPy's '>' arrays (byte-swapped): the tool reads them in little-endian order; its outputs are
    // little-endian whatever the input's order.
    TempDir dir;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        const uint32_t size = vkdml::element_size(type);
        if (size == 1) continue;  // one byte has no order
        INFO("type " << type_name(type));
        write_c_order(dir / "in_le.npy", type, kSpecSizes, kSpecInput);
        std::string big = read_text(dir / "in_le.npy");
        const size_t descr = big.find("'descr': '<");
        REQUIRE(descr != std::string::npos);
        big[descr + 10] = '>';
        const size_t data = big.size() - 12 * size;  // the 12 elements after the header
        for (size_t at = data; at < big.size(); at += size)
            std::reverse(big.begin() + static_cast<std::ptrdiff_t>(at),
                         big.begin() + static_cast<std::ptrdiff_t>(at + size));
        write_text(dir / "in_be.npy", big);
        const std::vector<std::vector<std::string>> commands = {
            {"cumsum", "--axis", "3"},
            {"reduce", "--function", "sum", "--axes", "2"},
            {"argmax", "--axes", "3"}};
        for (const auto& command : commands) {
            INFO(command[0]);
            std::vector<std::string> args = command;
            args.insert(args.end(), {dir / "in_le.npy", dir / "out_le.npy"});
            REQUIRE(run_tool(dir, args).exit_code == 0);
            args.end()[-2] = dir / "in_be.npy";
            args.end()[-1] = dir / "out_be.npy";
            REQUIRE(run_tool(dir, args).exit_code == 0);
            CHECK(read_text(dir / "out_be.npy") == read_text(dir / "out_le.npy"));
        }
    }
}

TEST_CASE("cli: --validation runs report no validation message", "[gpu][cli]") {
    VKDML_NEEDS_VALIDATION_LAYER();
    TempDir dir;
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT8,
                                      DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT64}) {
        INFO("type " << type_name(type));
        const std::string in = dir / "in.npy", out = dir / "out.npy";
        write_c_order(in, type, kSpecSizes, kSpecInput);
        const Outcome outcome =
            run_tool(dir, {"cumsum", "--validation", "--axis", "-1", "--exclusive", in, out});
        INFO("stderr: " << outcome.err);
        CHECK(outcome.exit_code == 0);
        CHECK(outcome.err.find("vkdml: validation:") == std::string::npos);
        CHECK(read_values(out, type, kSpecSizes) == kSpecExamples[1].expected);
        const ReduceInput& arg = kReduceInputs[1];
        write_c_order(in, type, arg.sizes, arg.values);
        const struct {
            std::vector<std::string> args;
            DML_TENSOR_DATA_TYPE output_type;
            std::vector<uint32_t> sizes;
            std::vector<double> expected;
        } reductions[] = {
            {{"reduce", "--function", "sum", "--axes", "1"}, type, {3, 1}, {6, 7, 9}},
            {{"reduce", "--function", "argmax", "--axes", "1,0"}, DML_TENSOR_DATA_TYPE_INT64, {1, 1}, {7}},
            {{"argmin", "--axes", "0", "--select-last-index", "--output-type", "uint32"},
             DML_TENSOR_DATA_TYPE_UINT32,
             {1, 3},
             {0, 1, 2}},
        };
        for (const auto& reduction : reductions) {
            std::vector<std::string> args = reduction.args;
            args.insert(args.begin() + 1, "--validation");
            args.insert(args.end(), {in, out});
            const Outcome reduced = run_tool(dir, args);
            INFO(joined(args) << "\nstderr: " << reduced.err);
            CHECK(reduced.exit_code == 0);
            CHECK(reduced.err.find("vkdml: validation:") == std::string::npos);
            CHECK(read_values(out, reduction.output_type, reduction.sizes) == reduction.expected);
        }
    }
}

TEST_CASE("cli: vkdml show prints type, shape and values", "[gpu][cli]") {
    TempDir dir;
    const std::string ints = dir / "ints.npy";
    write_c_order(ints, DML_TENSOR_DATA_TYPE_INT32, kSpecSizes, kSpecInput);
    const std::string spec_text =
        "INT32 [1,1,3,4]\n"
        "[[[[2, 1, 3, 5],\n"
        "   [3, 8, 7, 3],\n"
        "   [9, 6, 2, 4]]]]\n";

    SECTION("int32") {
        const Outcome outcome = run_tool(dir, {"show", ints});
        CHECK(outcome.exit_code == 0);
        CHECK(outcome.err.empty());
        CHECK(outcome.out == spec_text);
    }
    SECTION("float32, with round-trip digits") {
        const std::string floats = dir / "floats.npy";
        write_c_order(floats, DML_TENSOR_DATA_TYPE_FLOAT32, {2, 3}, {0.1, 1.5, -2, 1e-8, 16777216, -0.0});
        const Outcome outcome = run_tool(dir, {"show", floats});
        CHECK(outcome.exit_code == 0);
        CHECK(outcome.err.empty());
        CHECK(outcome.out ==
              "FLOAT32 [2,3]\n"
              "[[0.100000001, 1.5, -2],\n"
              " [9.99999994e-09, 16777216, -0]]\n");
    }
    SECTION("rank 3, Fortran order, shown in C order") {
        const std::string fortran = dir / "fortran.npy";
        write_fortran_order(fortran, DML_TENSOR_DATA_TYPE_INT8, {2, 2, 3},
                            {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -11});
        const Outcome outcome = run_tool(dir, {"show", fortran});
        CHECK(outcome.exit_code == 0);
        CHECK(outcome.out ==
              "INT8 [2,2,3]\n"
              "[[[0, 1, 2],\n"
              "  [3, 4, 5]],\n"
              "\n"
              " [[6, 7, 8],\n"
              "  [9, 10, -11]]]\n");
    }
    SECTION("64-bit integers exactly") {
        const std::string big = dir / "big.npy";
        const uint64_t values[] = {18446744073709551615u, 9007199254740993u};
        REQUIRE(vkdml::npy::write(big, DML_TENSOR_DATA_TYPE_UINT64, std::vector<uint32_t>{2},
                                  std::as_bytes(std::span(values))));
        CHECK(run_tool(dir, {"show", big}).out == "UINT64 [2]\n[18446744073709551615, 9007199254740993]\n");
        const int64_t signed_values[] = {INT64_MIN, -1};
        REQUIRE(vkdml::npy::write(big, DML_TENSOR_DATA_TYPE_INT64, std::vector<uint32_t>{2},
                                  std::as_bytes(std::span(signed_values))));
        CHECK(run_tool(dir, {"show", big}).out == "INT64 [2]\n[-9223372036854775808, -1]\n");
    }
    SECTION("--limit: entries per axis, and the summary line") {
        const std::string stats = "min 1, max 9, mean 4.41666667\n";
        CHECK(run_tool(dir, {"show", "--limit", "5", ints}).out == spec_text + stats);
        CHECK(run_tool(dir, {"show", "--limit", "3", ints}).out ==
              "INT32 [1,1,3,4]\n"
              "[[[[2, 1, ..., 5],\n"
              "   [3, 8, ..., 3],\n"
              "   [9, 6, ..., 4]]]]\n" +
                  stats);
        CHECK(run_tool(dir, {"show", "--limit=2", ints}).out ==
              "INT32 [1,1,3,4]\n"
              "[[[[2, ..., 5],\n"
              "   ...,\n"
              "   [9, ..., 4]]]]\n" +
                  stats);
        CHECK(run_tool(dir, {"show", "--limit", "0", ints}).out == "INT32 [1,1,3,4]\n[...]\n" + stats);
        check_error(dir, {"show", "--limit", "-1", ints}, 2, "--limit");
        check_error(dir, {"show", "--limit", "many", ints}, 2, "--limit");
    }
    SECTION("more than 1000 elements: NumPy's summary, 3 entries each side of every long axis") {
        const std::string big = dir / "big.npy";
        std::vector<double> values(100 * 200);
        for (size_t i = 0; i < values.size(); ++i) values[i] = double(i);
        write_c_order(big, DML_TENSOR_DATA_TYPE_INT32, {100, 200}, values);
        CHECK(run_tool(dir, {"show", big}).out ==
              "INT32 [100,200]\n"
              "[[0, 1, 2, ..., 197, 198, 199],\n"
              " [200, 201, 202, ..., 397, 398, 399],\n"
              " [400, 401, 402, ..., 597, 598, 599],\n"
              " ...,\n"
              " [19400, 19401, 19402, ..., 19597, 19598, 19599],\n"
              " [19600, 19601, 19602, ..., 19797, 19798, 19799],\n"
              " [19800, 19801, 19802, ..., 19997, 19998, 19999]]\n"
              "min 0, max 19999, mean 9999.5\n");
        // 1000 elements still print whole; a NaN makes min and max NaN, as in NumPy.
        std::vector<double> thousand(1000, 2.0);
        write_c_order(big, DML_TENSOR_DATA_TYPE_FLOAT32, {1000}, thousand);
        const std::string whole = run_tool(dir, {"show", big}).out;
        CHECK(whole.find("...") == std::string::npos);
        CHECK(whole.find("min") == std::string::npos);
        std::vector<double> with_nan(1001, -1.5);
        with_nan[500] = std::nan("");
        write_c_order(big, DML_TENSOR_DATA_TYPE_FLOAT16, {1001}, with_nan);
        CHECK(run_tool(dir, {"show", big}).out ==
              "FLOAT16 [1001]\n[-1.5, -1.5, -1.5, ..., -1.5, -1.5, -1.5]\nmin nan, max nan, mean nan\n");
        // 64-bit extremes exactly.
        std::vector<int64_t> wide(1200, 5);
        wide[7] = INT64_MIN;
        wide[1100] = INT64_MAX;
        REQUIRE(vkdml::npy::write(big, DML_TENSOR_DATA_TYPE_INT64, std::vector<uint32_t>{1200},
                                  std::as_bytes(std::span(wide))));
        const std::string extremes = run_tool(dir, {"show", big}).out;
        CHECK(extremes.find("min -9223372036854775808, max 9223372036854775807, mean ") != std::string::npos);
    }
    SECTION("a malformed file") {
        const std::string bad = dir / "bad.npy";
        write_text(bad, "PK\x03\x04 not an npy file");
        check_error(dir, {"show", bad}, 1, "magic");
    }
}

TEST_CASE("cli: vkdml --version prints the project version of vkdml/version.hpp", "[cli]") {
    TempDir dir;
    const Outcome outcome = run_tool(dir, {"--version"});
    CHECK(outcome.exit_code == 0);
    CHECK(outcome.out == "vkdml " VKDML_VERSION_STRING "\n");
    CHECK(outcome.err.empty());
    STATIC_REQUIRE(VKDML_VERSION_NUMBER ==
                   VKDML_VERSION_MAJOR * 10000 + VKDML_VERSION_MINOR * 100 + VKDML_VERSION_PATCH);
    CHECK(std::string(VKDML_VERSION_STRING) == std::to_string(VKDML_VERSION_MAJOR) + "." +
                                                   std::to_string(VKDML_VERSION_MINOR) + "." +
                                                   std::to_string(VKDML_VERSION_PATCH));
}

TEST_CASE("cli: vkdml --help lists every command, its summary in one column past the longest name", "[cli]") {
    TempDir dir;
    const Outcome outcome = run_tool(dir, {"--help"});
    CHECK(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    const size_t from = outcome.out.find("\ncommands:\n");
    REQUIRE(from != std::string::npos);
    std::istringstream lines(outcome.out.substr(from + 11));
    std::vector<std::string> names;
    std::set<size_t> columns;  // where each summary starts
    for (std::string line; std::getline(lines, line) && !line.empty();) {
        INFO(line);
        REQUIRE(line.rfind("  ", 0) == 0);
        const size_t end = line.find(' ', 2), summary = line.find_first_not_of(' ', end);
        REQUIRE(summary != std::string::npos);
        CHECK(summary - end >= 2);  // at least two spaces between a name and its summary
        names.push_back(line.substr(2, end - 2));
        columns.insert(summary);
    }
    std::vector<std::string> expected;
    for (const vkdml::OperatorInfo& info : vkdml::operators())
        if (std::find(expected.begin(), expected.end(), info.command) == expected.end())
            expected.push_back(info.command);
    for (const char* tool : {"info", "show", "bench", "plan"}) expected.push_back(tool);
    std::sort(expected.begin(), expected.end());
    std::sort(names.begin(), names.end());
    CHECK(names == expected);
    CHECK(columns == std::set<size_t>{2 + std::string("logcumsumexp").size() + 2});  // the longest name's
    CHECK(outcome.out.find("\nIN.npy (or FILE.npy) '-' reads standard input, OUT.npy '-' writes standard "
                           "output, so that commands chain.\n") != std::string::npos);
}

TEST_CASE("cli: every operator of the table is a command of the tool and an --op of vkdml plan", "[cli]") {
    TempDir dir;
    for (const vkdml::OperatorInfo& info : vkdml::operators()) {
        INFO(info.name << ": " << info.command);
        const Outcome help = run_tool(dir, {info.command, "--help"});
        CHECK(help.exit_code == 0);
        CHECK_THAT(help.out, Catch::Matchers::Contains(info.command));
        const bool scan = info.cumulative;
        const Outcome plan =
            run_tool(dir, {"plan", "--op", info.command, "--shape", "8", scan ? "--axis" : "--axes", "0"});
        INFO(plan.err);
        CHECK(plan.exit_code == 0);
        CHECK_THAT(plan.out, Catch::Matchers::StartsWith(std::string(info.name) + " FLOAT32 {8}"));
    }
}

TEST_CASE("cli: vkdml info lists the types of every operator", "[gpu][cli]") {
    // Both the tool and test_device() open the default device: the tool must say what the library does.
    TempDir dir;
    const Outcome outcome = run_tool(dir, {"info"});
    INFO("stdout: " << outcome.out << "\nstderr: " << outcome.err);
    REQUIRE(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    CHECK(outcome.out.find(
              "\n  determinism                  the same bits on every device: integer results, MIN, "
              "MAX, ARGMIN, ARGMAX, ANY, ALL, COUNT_NONZERO, the cumulative maximum and minimum;\n"
              "                               float sums, products and log-sum-exps, cumulative and REDUCE: "
              "the "
              "same bits everywhere, by one fixed association (but where a device flushes subnormals, or 32 "
              "steps of a line span more than its storage buffer range) (docs/SPEC.md)\n") !=
          std::string::npos);
    // The types table: a heading of one column per type (numpy's letter and bits), then one row per
    // operator in the operator table's order, "yes" or "no" in each column.
    const size_t table = outcome.out.find("\ntypes ");
    REQUIRE(table != std::string::npos);
    const auto words = [&](size_t from) {
        const size_t end = outcome.out.find('\n', from + 1);
        std::istringstream line(outcome.out.substr(from + 1, end - from - 1));
        std::vector<std::string> out;
        for (std::string w; line >> w;) out.push_back(w);
        return out;
    };
    std::vector<std::string> heading = {"types"};
    for (DML_TENSOR_DATA_TYPE type : vkdml::all_data_types()) {
        const vkdml::TypeInfo* t = vkdml::type_info(type);
        heading.push_back(t->numpy_kind + std::to_string(8 * t->size));
    }
    CHECK(words(table) == heading);
    CHECK(heading[1] == "f32");  // FLOAT32, DirectML's first type
    size_t row = outcome.out.find('\n', table + 1);
    for (const vkdml::OperatorInfo& info : vkdml::operators()) {  // the operator table, in its order
        INFO(info.name);
        REQUIRE(row != std::string::npos);
        std::vector<std::string> expected = {vkdml::to_string(info.type)};
        for (DML_TENSOR_DATA_TYPE type : vkdml::all_data_types())
            expected.push_back(test_device().supports(info.type, type).supported ? "yes" : "no");
        CHECK(words(row) == expected);
        row = outcome.out.find('\n', row + 1);
    }
    const std::string legend = "\n  (f: float, i: signed, u: unsigned integer; then its bits)\n";
    CHECK(outcome.out.compare(row, legend.size(), legend) == 0);
}

TEST_CASE("cli: vkdml info --json says the same as the library, as one document", "[gpu][cli]") {
    TempDir dir;
    const Outcome outcome = run_tool(dir, {"info", "--json"});
    INFO("stdout: " << outcome.out << "\nstderr: " << outcome.err);
    REQUIRE(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    const json::Value doc = json::parse(outcome.out);
    CHECK(json::keys(doc) == std::vector<std::string>{"vkdml", "devices", "chosen", "support"});
    CHECK(doc.at("vkdml").at("version").get<std::string>() == VKDML_VERSION_STRING);
    // The determinism guarantee (docs/SPEC.md), as the text says it too.
    const json::Value& determinism = doc.at("vkdml").at("determinism");
    CHECK(
        determinism.at("exact").get<std::string>() ==
        "the same bits on every device: integer results, MIN, MAX, ARGMIN, ARGMAX, ANY, ALL, COUNT_NONZERO, "
        "the cumulative maximum and minimum");
    CHECK(
        determinism.at("floats").get<std::string>() ==
        "float sums, products and log-sum-exps, cumulative and REDUCE: the same bits everywhere, by one "
        "fixed association (but where a device flushes subnormals, or 32 steps of a line span more than its "
        "storage buffer range)");
    const vkdml::DeviceInfo& info = test_device().info();
    int chosen = 0;
    for (const json::Value& d : doc.at("devices")) {
        CHECK(json::keys(d) ==
              std::vector<std::string>{"index", "name", "type", "driver", "driver_info", "chosen"});
        chosen += d.at("chosen").get<bool>() ? 1 : 0;
    }
    CHECK(chosen == 1);
    const json::Value& c = doc.at("chosen");
    // The policy rows it plans with (Device::policy_rows): a CPU device's serial rows, a GPU's cooperative
    // ones where its subgroups are whole; untuned. The text says the same, with the tool's tuning.
    bool cpu = false;
    for (const json::Value& d : doc.at("devices"))
        if (d.at("chosen").get<bool>()) cpu = d.at("type").get<std::string>() == "cpu";
    const bool whole = info.full_subgroups || info.min_subgroup_size == info.max_subgroup_size;
    const std::string rows = cpu ? "serial-cpu" : whole ? "cooperative-gpu" : "serial-gpu";
    CHECK(c.at("policy_rows").get<std::string>() == rows);
    CHECK(c.at("tuning").get<std::string>().empty());
    vkdml_test::set_environment("VKDML_TOOL_TUNE", "scan.tile_workgroup=64");
    const Outcome tuned = run_tool(dir, {"info"});
    vkdml_test::set_environment("VKDML_TOOL_TUNE", nullptr);
    CHECK(tuned.out.find("\n  plans with                   " + rows +
                         " rows tuned scan.tile_workgroup=64\n") != std::string::npos);
    CHECK(c.at("index").get<uint32_t>() == info.physical.index);
    CHECK(c.at("name").get<std::string>() == info.physical.name);
    CHECK(c.at("subgroup_size").get<uint32_t>() == info.subgroup_size);
    CHECK(c.at("compute_units").get<uint32_t>() == info.compute_units);
    if (info.physical.driver_name == "llvmpipe") CHECK(info.compute_units == 0);  // no vendor extension
    CHECK(c.at("min_subgroup_size").get<uint32_t>() == info.min_subgroup_size);
    CHECK(c.at("max_subgroup_size").get<uint32_t>() == info.max_subgroup_size);
    CHECK(c.at("full_subgroups").get<bool>() == info.full_subgroups);
    CHECK(c.at("max_workgroup_subgroups").get<uint32_t>() == info.max_workgroup_subgroups);
    CHECK(c.at("max_storage_buffer_range").get<uint64_t>() == info.max_storage_buffer_range);
    CHECK(c.at("host_visible_heap").get<uint64_t>() == info.host_visible_heap);
    CHECK(c.at("max_workgroup_count").at(2).get<uint32_t>() == info.max_workgroup_count[2]);
    CHECK(c.at("shader_float64").get<bool>() == info.shader_float64);
    CHECK(c.at("denorm_preserve_float16").get<bool>() == info.denorm_preserve_float16);
    CHECK(c.at("denorm_preserve_float32").get<bool>() == info.denorm_preserve_float32);
    CHECK(c.at("denorm_preserve_float64").get<bool>() == info.denorm_preserve_float64);
    // Mesa 22.3's lavapipe states no DenormPreserve (it keeps subnormals without saying so).
    if (info.physical.driver_name == "llvmpipe" && info.physical.driver_info.starts_with("Mesa 22."))
        CHECK_FALSE(info.denorm_preserve_float32);
    const json::Value& support = doc.at("support");
    CHECK(support.size() == vkdml::operators().size());
    for (const vkdml::OperatorInfo& row : vkdml::operators()) {
        const DML_OPERATOR_TYPE op = row.type;
        const json::Value& types = support.at(vkdml::to_string(op));
        CHECK(types.size() == 11);
        for (DML_TENSOR_DATA_TYPE type : all_types()) {
            INFO(vkdml::to_string(op) << " " << vkdml::to_string(type));
            const vkdml::TypeSupport expected = test_device().supports(op, type);
            const json::Value& entry = types.at(vkdml::to_string(type));
            CHECK(entry.at("supported").get<bool>() == expected.supported);
            CHECK(entry.contains("reason") == !expected.supported);
            if (!expected.supported) CHECK(entry.at("reason").get<std::string>() == expected.reason);
        }
    }
}

TEST_CASE("cli: errors give one line, the right exit code and no output", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, kSpecSizes, kSpecInput);
    const std::string f4_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
    const std::string twelve_floats(48, '\0');

    SECTION("usage errors exit with 2") {
        check_error(dir, {"frobnicate", in, out}, 2, "unknown command 'frobnicate'");
        check_error(dir, {"cumsum", in, out}, 2, "--axis");
        check_error(dir, {"cumprod", in, out}, 2, "--axis");
        check_error(dir, {"cumprod", "--axis", "3", "--inclusive", in, out}, 2,
                    "unknown option '--inclusive'");
        check_error(dir, {"cumsum", "--axis", "x", in, out}, 2, "expects an integer, got 'x'");
        check_error(dir, {"cumsum", "--axis", "1.5", in, out}, 2, "expects an integer, got '1.5'");
        check_error(dir, {"cumsum", "--axis", "3", in}, 2, "operand");
        check_error(dir, {"cumsum", "--axis", "3", "--bogus", in, out}, 2, "unknown option '--bogus'");
    }
    SECTION("axis out of range") {
        check_error(dir, {"cumsum", "--axis", "4", in, out}, 1, "out of range");
        check_error(dir, {"cumsum", "--axis", "-5", in, out}, 1, "out of range");
        check_error(dir, {"cumprod", "--axis", "4", in, out}, 1, "out of range");
    }
    SECTION("missing input file") {
        check_error(dir, {"cumsum", "--axis", "0", dir / "absent.npy", out}, 1, "absent.npy");
        check_error(dir, {"cumprod", "--axis", "0", dir / "absent.npy", out}, 1, "absent.npy");
    }
    SECTION("malformed .npy files") {
        const std::string bad = dir / "bad.npy";
        const auto rejected = [&](std::string_view contents, std::string_view problem) {
            write_text(bad, contents);
            check_error(dir, {"cumsum", "--axis", "0", bad, out}, 1, problem);
        };
        rejected(npy_image(f4_header, twelve_floats).substr(0, 9), "truncated inside the preamble");
        rejected(npy_image(f4_header, twelve_floats).substr(0, 100), "beyond the end of the file");
        rejected(npy_image(f4_header, twelve_floats.substr(0, 47)), "truncated");
        rejected(std::string("\x93NUMPX\x01\x00", 8) + npy_image(f4_header, twelve_floats).substr(8),
                 "magic");
        rejected(npy_image("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 2), }", twelve_floats),
                 "complex");
        rejected(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 3, 4), }",
                           twelve_floats),
                 "rank 9");
    }
    SECTION("output into a nonexistent directory") {
        check_error(dir, {"cumsum", "--axis", "3", in, dir / "no-such-dir/out.npy"}, 1, "no-such-dir");
        CHECK_FALSE(fs::exists(path_from_utf8(dir / "no-such-dir")));
    }
    SECTION("unknown device") {
        check_error(dir, {"cumsum", "--device", "no-such-gpu", "--axis", "3", in, out}, 1, "no-such-gpu");
    }
}

// ---- bad input never crashes (issue 6) -------------------------------------------------------------
// Every refusal: the exact exit code, no signal, no hang, nothing on stdout, one stderr line
// "vkdml: error: <file>: <problem>", and no output or temporary file left behind (check_error_parts).

namespace {

// The commands that read an input file and write an output file, each with options valid for a rank-2
// input; `operands` are appended.
std::vector<std::vector<std::string>> file_commands(const std::string& in, const std::string& out) {
    std::vector<std::vector<std::string>> commands = {
        {"cumsum", "--axis", "0"},
        {"cumprod", "--axis", "-1", "--exclusive"},
        {"reduce", "--function", "sum", "--axes", "0,1"},
        {"argmax", "--axis", "1"},
        {"argmin", "--axes", "none"},
    };
    for (auto& command : commands) command.insert(command.end(), {in, out});
    return commands;
}

#ifdef __linux__
// A directory in which no file can be created, and the strerror text creating one gives. Permission bits
// do not stop root, so as root it is sysfs (which refuses new files to everyone) or, failing that, procfs.
std::pair<std::string, std::string> unwritable_directory(const TempDir& dir) {
    if (::geteuid() != 0) {
        const std::string read_only = dir / "read_only";
        fs::create_directory(read_only);
        fs::permissions(read_only, fs::perms::owner_read | fs::perms::owner_exec);
        return {read_only, "Permission denied"};
    }
    const int fd = ::open("/sys/vkdml_write_probe", O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EACCES) return {"/sys", "Permission denied"};
    if (fd >= 0) {
        ::close(fd);
        ::unlink("/sys/vkdml_write_probe");
    }
    return {"/proc", "No such file or directory"};
}
#endif

}  // namespace

TEST_CASE("cli: malformed .npy files are refused by every command", "[cli]") {
    TempDir dir;
    const std::string bad = dir / "bad.npy", out = dir / "out.npy";
    const std::string f4_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
    const std::string good = npy_image(f4_header, std::string(48, '\0'));  // 128 header bytes + 48 of data
    REQUIRE(good.size() == 176);
    const auto header_with = [](const std::string& descr, const std::string& shape) {
        return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    };
    // Writes `contents` as bad.npy and runs every command on it, and `show`.
    const auto rejected = [&](std::string_view contents, const std::string& problem) {
        write_text(bad, contents);
        for (const auto& args : file_commands(bad, out)) check_error(dir, args, 1, bad + ": " + problem);
        check_error(dir, {"show", bad}, 1, bad + ": " + problem);
    };

    SECTION("truncated files") {
        rejected("", "not a .npy file (the magic string \\x93NUMPY is missing)");
        rejected(good.substr(0, 5), "file is truncated inside the preamble (5 bytes)");
        rejected(good.substr(0, 9), "file is truncated inside the preamble (9 bytes)");
        rejected(good.substr(0, 100),
                 "file is truncated: header length 118 extends beyond the end of the file (100 bytes)");
        rejected(good.substr(0, 128),
                 "data is truncated: shape (3, 4) of <f4 needs 48 bytes, the file holds 0");
        rejected(good.substr(0, 175),
                 "data is truncated: shape (3, 4) of <f4 needs 48 bytes, the file holds 47");
        rejected(good + "tail", "file has 4 bytes after the data (shape (3, 4) of <f4 needs 48)");
    }
    SECTION("wrong magic") {
        rejected("PK\x03\x04 a zip file", "not a .npy file (the magic string \\x93NUMPY is missing)");
        rejected("\x93NUMPX" + good.substr(6), "not a .npy file");
        rejected("NUMPY" + good.substr(6), "not a .npy file");
        rejected(good.substr(0, 6) + "\x04" + good.substr(7), "unsupported .npy format version 4.0");
    }
    SECTION("a header length larger than the file, or absurd") {
        std::string image = good;
        image[8] = image[9] = '\xff';
        rejected(image,
                 "file is truncated: header length 65535 extends beyond the end of the file (176 bytes)");
        rejected(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + f4_header,
                 "file is truncated: header length 4294967295 extends beyond the end of the file (71 bytes)");
        // A version 2.0 file really holding a header of 1 MiB + 1 bytes.
        std::string huge_header = f4_header;
        huge_header.resize((size_t{1} << 20) + 1, ' ');
        std::string v2("\x93NUMPY\x02\x00\x01\x00\x10\x00", 12);
        rejected(v2 + huge_header + std::string(48, '\0'),
                 "header length 1048577 exceeds the limit of 1048576 bytes");
    }
    SECTION("a malformed header dict") {
        rejected(npy_image("{'descr': '<f4', 'fortran_order': maybe, 'shape': (3, 4), }", ""),
                 "malformed header: expected True or False for 'fortran_order'");
        rejected(npy_image("{'descr': '<f4', 'shape': (3, 4), }", ""),
                 "header lacks the key 'fortran_order'");
        rejected(npy_image("not a dict", ""), "header is not a dict: 'not a dict");
    }
    SECTION("unsupported dtypes") {
        const std::pair<const char*, const char*> cases[] = {
            {"<c8", "unsupported dtype '<c8' (complex)"},
            {"<c16", "unsupported dtype '<c16' (complex)"},
            {"|O", "unsupported dtype '|O' (object)"},
            {">c8", "unsupported dtype '>c8' (complex)"},
            {"<U4", "unsupported dtype '<U4' (string)"},
            {"|S3", "unsupported dtype '|S3' (string)"},
            {"|V8", "unsupported dtype '|V8' (void/structured)"},
            {"<M8[ns]", "unsupported dtype '<M8[ns]' (datetime)"},
            {"<f16", "unsupported dtype '<f16'"},
        };
        for (const auto& [descr, problem] : cases) {
            INFO("descr " << descr);
            rejected(npy_image(header_with(descr, "(3, 4)"), std::string(96, '\0')), problem);
        }
    }
    SECTION("shapes: rank 9, counts past DirectML's limit and past 64 bits") {
        rejected(npy_image(header_with("|u1", "(1, 1, 1, 1, 1, 1, 1, 3, 4)"), std::string(12, '\0')),
                 "rank 9 exceeds the maximum of 8");
        rejected(npy_image(header_with("|u1", "(4294967296, 4294967296, 16)"), std::string(12, '\0')),
                 "element count of shape (4294967296, 4294967296, 16) overflows 64 bits");
        rejected(npy_image(header_with("|u1", "(18446744073709551616,)"), ""),
                 "dimension 0 of 'shape', '18446744073709551616', overflows 64 bits");
        rejected(npy_image(header_with("<f4", "(65536, 65536)"), ""),
                 "element count of shape (65536, 65536) exceeds 4294967295 (DirectML's limit)");
        rejected(npy_image(header_with("|u1", "(1099511627776,)"), ""),
                 "dimension 0 of shape (1099511627776,) exceeds 4294967295");
    }
    SECTION("a header claiming 32 GiB in a tiny file is refused before anything is allocated") {
        rejected(npy_image(header_with("<u8", "(4294967295,)"), "12345678"),
                 "data is truncated: shape (4294967295,) of <u8 needs 34359738360 bytes, the file holds 8");
        const Outcome outcome = run_tool(dir, {"show", bad});
        CHECK(outcome.exit_code == 1);
        CHECK(outcome.peak_rss_kib < 256 * 1024);  // 0 if it exited before the first sample
    }
    CHECK(dir.entries() == std::vector<std::string>{"bad.npy"});
}

TEST_CASE("cli: bad flags are usage errors (exit 2), bad values for the input exit 1", "[cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4}, std::vector<double>(12, 1.0));

    SECTION("unknown options") {
        check_error(dir, {"cumsum", "--bogus", "--axis", "0", in, out}, 2,
                    "unknown option '--bogus' for 'vkdml cumsum'");
        check_error(dir, {"reduce", "--function", "sum", "--axis-count", "1", in, out}, 2,
                    "unknown option '--axis-count' for 'vkdml reduce'");
        check_error(dir, {"show", "-x", in}, 2, "unknown option '-x' for 'vkdml show'");
        check_error(dir, {"--frobnicate"}, 2, "unknown option '--frobnicate' (see 'vkdml --help')");
    }
    SECTION("a near miss names what was meant: commands, options, functions, output types") {
        check_error(dir, {"cumsun", "--axis", "0", in, out}, 2,
                    "unknown command 'cumsun' (did you mean 'cumsum'?) (see 'vkdml --help')");
        check_error(dir, {"Reduce", "--axis", "0", in, out}, 2,
                    "unknown command 'Reduce' (did you mean 'reduce'?)");
        check_error(dir, {"argmn", "--axis", "0", in, out}, 2,
                    "unknown command 'argmn' (did you mean 'argmin'?)");
        check_error(dir, {"--verison"}, 2, "unknown option '--verison' (did you mean '--version'?)");
        check_error(dir, {"cumsum", "--axsi", "0", in, out}, 2,
                    "unknown option '--axsi' for 'vkdml cumsum' (did you mean '--axis'?)");
        check_error(dir, {"reduce", "--function", "sum", "--axs", "0", in, out}, 2,
                    "unknown option '--axs' for 'vkdml reduce' (did you mean '--axes'?)");
        check_error(dir, {"reduce", "--function", "logsumexp", "--axes", "0", in, out}, 2,
                    "unknown --function 'logsumexp' (did you mean 'log_sum_exp'?) (one of: argmax,");
        check_error(dir, {"reduce", "--function", "SUM", "--axes", "0", in, out}, 2,
                    "unknown --function 'SUM' (did you mean 'sum'?)");
        check_error(dir, {"argmax", "--axes", "0", "--output-type", "unit32", in, out}, 2,
                    "unknown --output-type 'unit32' (did you mean 'uint32'?) (one of: int32, int64,");
        // Too far from every name: no guess.
        check_error(dir, {"frobnicate", in, out}, 2, "unknown command 'frobnicate' (see 'vkdml --help')");
        check_error(dir, {"reduce", "--function", "xy", "--axes", "0", in, out}, 2,
                    "unknown --function 'xy' (one of: argmax,");
        check_error(dir, {"cumsum", "--reverse=yes", "--axis", "0", in, out}, 2,
                    "option '--reverse' takes no value");
        check_error(dir, {"cumsum", "--axis", "0", "--axis", "1", in, out}, 2,
                    "option '--axis' is given twice");
    }
    SECTION("a missing option value") {
        check_error(dir, {"cumsum", in, out, "--axis"}, 2, "option '--axis' needs a value (--axis N)");
        check_error(dir, {"cumprod", "--axis", "--reverse", in, out}, 2,
                    "option '--axis' needs a value (--axis N)");
        check_error(dir, {"reduce", "--axes", "0", in, out, "--function"}, 2,
                    "option '--function' needs a value (--function F)");
        check_error(dir, {"show", in, "--limit"}, 2, "option '--limit' needs a value (--limit N)");
        check_error(dir, {"cumsum", "--axis", "0", in}, 2,
                    "'vkdml cumsum' takes 2 operand(s) (IN.npy OUT.npy), got 1");
        check_error(dir, {"cumsum", "--axis", "0", in, out, out}, 2,
                    "takes 2 operand(s) (IN.npy OUT.npy), got 3");
    }
    SECTION("bad numeric values") {
        check_error(dir, {"cumsum", "--axis", "abc", in, out}, 2,
                    "option '--axis' expects an integer, got 'abc'");
        check_error(dir, {"cumsum", "--axis=", in, out}, 2, "option '--axis' expects an integer, got ''");
        check_error(dir, {"cumsum", "--axis", "99999999999999999999", in, out}, 2,
                    "option '--axis' expects an integer, got '99999999999999999999'");
        check_error(dir, {"argmax", "--axes", "0,abc", in, out}, 2,
                    "option '--axes' expects comma-separated integers, 'all' or 'none', got '0,abc'");
        check_error(dir, {"cumsum", "--axis", "99", in, out}, 1,
                    "axis 99 is out of range for " + in + " of rank 2 (use 0..1 or -2..-1)");
        check_error(dir, {"cumprod", "--axis", "-9223372036854775808", in, out}, 1,
                    "axis -9223372036854775808 is out of range for " + in + " of rank 2");
        check_error(dir, {"reduce", "--function", "max", "--axes", "1,99", in, out}, 1,
                    "axis 99 is out of range for " + in + " of rank 2");
        check_error(dir, {"show", "--limit", "-5", in}, 2,
                    "option '--limit' expects a non-negative integer, got '-5'");
        check_error(dir, {"show", "--limit", "1e3", in}, 2, "option '--limit' expects an integer, got '1e3'");
    }
    CHECK(dir.entries() == std::vector<std::string>{"in.npy"});
}

TEST_CASE("cli: missing, unreadable and unwritable files", "[cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy", sub = dir / "sub";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4}, std::vector<double>(12, 1.0));
    fs::create_directory(path_from_utf8(sub));
    const std::string fifo = dir / "fifo";

    SECTION("a missing input file") {
        const std::string absent = dir / "absent.npy";
        for (const auto& args : file_commands(absent, out))
            check_error(dir, args, 1, absent + ": cannot open: No such file or directory");
        check_error(dir, {"show", absent}, 1, absent + ": cannot open: No such file or directory");
    }
    SECTION("an input that is a directory") {
        for (const auto& args : file_commands(sub, out))
            check_error(dir, args, 1, sub + ": not a regular file");
        check_error(dir, {"show", sub}, 1, sub + ": not a regular file");
    }
    SECTION("an input that is a device or a pipe (which must not hang the reader)") {
        VKDML_LINUX_ONLY("/dev/null and FIFOs");
        make_fifo(fifo);
        for (const std::string& input : {std::string("/dev/null"), fifo}) {
            for (const auto& args : file_commands(input, out))
                check_error(dir, args, 1, input + ": not a regular file");
            check_error(dir, {"show", input}, 1, input + ": not a regular file");
        }
    }
    SECTION("an output in a nonexistent directory, or under a file") {
        for (const std::string& target : {dir / "no-such-dir/out.npy", in + "/out.npy"}) {
            // The C library's words: Windows reports a path through a file as not found.
            const std::string reason =
                target == in + "/out.npy" && on_linux() ? "Not a directory" : "No such file or directory";
            for (const auto& args : file_commands(in, target))
                check_error_parts(dir, args, 1,
                                  {target + ": cannot create '" + target + ".tmp.", "': " + reason});
        }
        CHECK_FALSE(fs::exists(path_from_utf8(dir / "no-such-dir")));
    }
    SECTION("an output in a directory where nothing can be created") {
        VKDML_LINUX_ONLY("permission bits, /sys and /proc");
#ifdef __linux__
        const auto [directory, reason] = unwritable_directory(dir);
        INFO("unwritable directory " << directory);
        const std::string target = directory + "/vkdml_out.npy";
        for (const auto& args : file_commands(in, target))
            check_error_parts(dir, args, 1,
                              {target + ": cannot create '" + target + ".tmp.", "': " + reason});
        CHECK_FALSE(fs::exists(path_from_utf8(target)));
        if (directory != "/sys" && directory != "/proc") CHECK(fs::is_empty(path_from_utf8(directory)));
#endif
    }
    SECTION("an output that is a directory is left alone") {
        for (const auto& args : file_commands(in, sub))
            check_error(dir, args, 1, sub + ": cannot write: it is a directory");
        CHECK(fs::is_empty(path_from_utf8(sub)));
    }
    SECTION("an output that is a device or a pipe is left alone") {
        VKDML_LINUX_ONLY("/dev/null and FIFOs");
        make_fifo(fifo);
        for (const std::string& target : {std::string("/dev/null"), fifo})
            for (const auto& args : file_commands(in, target))
                check_error(dir, args, 1, target + ": cannot write: it exists and is not a regular file");
        CHECK(fs::is_character_file("/dev/null"));
        CHECK(fs::is_fifo(path_from_utf8(fifo)));
    }
    SECTION("an unwritable output is found before the device is opened") {
        check_error(dir, {"cumsum", "--device", "no-such-gpu", "--axis", "0", in, sub}, 1,
                    sub + ": cannot write: it is a directory");
        check_error(dir, {"argmin", "--device", "no-such-gpu", "--axes", "0", in, dir / "none/out.npy"}, 1,
                    dir / "none/out.npy" + ": cannot create");
    }
    SECTION("a file name with a newline stays on one line") {
        VKDML_LINUX_ONLY("Windows file names cannot hold control characters");
        const std::string odd = dir / "odd\nname.npy";
        check_error(dir, {"show", odd}, 1, dir / "odd\\x0aname.npy: cannot open: No such file or directory");
    }
    fs::remove(path_from_utf8(fifo));
    auto entries = dir.entries();
    std::sort(entries.begin(), entries.end());
    CHECK(entries == std::vector<std::string>{"in.npy", "sub"});
}

TEST_CASE("cli: a failing standard output is an error, never SIGPIPE", "[cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_INT32, {3, 4}, std::vector<double>(12, 7.0));
    std::vector<Stdout> targets = {Stdout::closed_pipe};
    if (on_linux())
        targets.push_back(Stdout::full_device);
    else
        WARN("skipped the /dev/full part: Linux only");
    for (Stdout target : targets) {
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"show", in}, {"--help"}, {"--version"}, {"cumsum", "--help"}}) {
            INFO("vkdml " << joined(args) << (target == Stdout::full_device ? " >/dev/full" : " | (closed)"));
            const Outcome outcome = run_tool(dir, args, target, 60);
            CHECK(outcome.exit_code == 1);
            CHECK(outcome.err == "vkdml: error: cannot write to standard output\n");
        }
    }
    CHECK(dir.entries() == std::vector<std::string>{"in.npy"});
}

#ifndef _WIN32  // (Wine's Vulkan loader is Windows': it does not read VK_DRIVER_FILES alike)
TEST_CASE("cli: with no Vulkan driver every command says what to install, exit 1", "[gpu][cli]") {
    TempDir dir;
    const std::string in = dir / "in.npy", out = dir / "out.npy";
    write_c_order(in, DML_TENSOR_DATA_TYPE_FLOAT32, {3}, {1, 2, 3});
    // Inherited by the tool: its loader finds no driver. Restored however the test ends.
    struct NoDriver {
        const char* previous = std::getenv("VK_DRIVER_FILES");
        std::string kept = previous ? previous : "";
        NoDriver() { set_environment("VK_DRIVER_FILES", "/nonexistent"); }
        ~NoDriver() { set_environment("VK_DRIVER_FILES", previous ? kept.c_str() : nullptr); }
    } no_driver;
    const std::string problem =
        "no Vulkan driver was found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); install one: "
        "mesa-vulkan-drivers for the lavapipe CPU device";
    check_error(dir, {"info"}, 1, problem);
    check_error(dir, {"cumsum", "--axis", "0", in, out}, 1, problem);
    check_error(dir, {"reduce", "--function", "max", "--axes", "0", "--nan", "ignore", in, out}, 1, problem);
}
#endif

TEST_CASE("cli: a file past one allocation runs in windows with the same result", "[gpu][cli]") {
    // VKDML_TOOL_MAX_ALLOCATION (a knob of test builds) makes allocations stop at 4 KiB: an int32 file of
    // 5,000 elements (20,000 bytes) no longer fits one buffer, and the tool runs it through execute().
    TempDir dir;
    const uint32_t n = 5000;
    std::vector<double> x(n), sums(n);
    double running = 0;
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = double(int(i % 11) - 5);
        sums[i] = running += x[i];
    }
    write_c_order(dir / "x.npy", DML_TENSOR_DATA_TYPE_INT32, {n}, x);
    vkdml_test::set_environment("VKDML_TOOL_MAX_ALLOCATION", "4096");
    run_command(dir, "cumsum", {"--axis", "0"}, dir / "x.npy", dir / "sums.npy");
    run_command(dir, "reduce", {"--function", "sum", "--axes", "all"}, dir / "x.npy", dir / "total.npy");
    vkdml_test::set_environment("VKDML_TOOL_MAX_ALLOCATION", nullptr);
    CHECK(read_values(dir / "sums.npy", DML_TENSOR_DATA_TYPE_INT32, {n}) == sums);
    CHECK(read_values(dir / "total.npy", DML_TENSOR_DATA_TYPE_INT32, {1}) ==
          std::vector<double>{sums.back()});
}
