// tests/test_cli.cpp — the vkdml tool run as a subprocess: SPEC §6 cumsum, cumprod, reduce and arg examples
// through .npy files for every data type (C and Fortran order), the other reduce functions, --validation,
// `show` output, `info`, and the error paths (exit code, a single "vkdml: error: " line, no output file
// left behind).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu_fixture.hpp"
#include "npy.hpp"
#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"

extern char** environ;

#ifndef VKDML_TOOL_PATH
#error "VKDML_TOOL_PATH (the built vkdml tool) must be defined by the build"
#endif

namespace fs = std::filesystem;
using namespace vkdml_test;

namespace {

// A fresh empty directory for one test, removed with its contents afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path = fs::temp_directory_path() /
               ("vkdml_test_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(std::string_view name) const { return (path / name).string(); }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(path))
            names.push_back(entry.path().filename().string());
        return names;
    }
};

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const std::string& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    REQUIRE(out.good());
}

struct Outcome {
    int exit_code = -1;
    std::string out, err;
};

// Runs the tool with `args`, stdin from /dev/null, stdout and stderr captured through files in `dir`
// (removed again, so the directory afterwards holds only what the tool itself wrote there).
Outcome run_tool(const TempDir& dir, std::vector<std::string> args) {
    const std::string out_path = dir / "stdout.txt", err_path = dir / "stderr.txt";
    posix_spawn_file_actions_t actions;
    REQUIRE(posix_spawn_file_actions_init(&actions) == 0);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string tool = VKDML_TOOL_PATH;
    std::vector<char*> argv{tool.data()};
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    INFO("posix_spawn " << tool << ": " << std::strerror(spawned));
    REQUIRE(spawned == 0);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) REQUIRE(errno == EINTR);
    REQUIRE(WIFEXITED(status));
    Outcome outcome{WEXITSTATUS(status), read_text(out_path), read_text(err_path)};
    fs::remove(out_path);
    fs::remove(err_path);
    return outcome;
}

// ---- .npy inputs -------------------------------------------------------------------------------

const std::vector<uint32_t> kSpecSizes = {1, 1, 3, 4};
const std::vector<double> kSpecInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

std::string_view bytes_view(const TestTensor& t) {
    return {reinterpret_cast<const char*>(t.bytes.data()), t.count() * t.element_size()};
}

// Writes `values` (C-order logical order) as a C-order .npy file through the library's writer.
void write_c_order(const std::string& path, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                   const std::vector<double>& values) {
    TestTensor t = make_packed(type, sizes);
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double(i, values[i]);
    const auto status =
        vkdml::npy::write(path, type, sizes, std::span(t.bytes).first(t.count() * t.element_size()));
    INFO((status ? std::string() : status.error().message));
    REQUIRE(status);
}

// A format 1.0 .npy image with the given header dict (padded as NumPy pads it) followed by `data`.
std::string npy_image(std::string header, std::string_view data) {
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string image("\x93NUMPY\x01\x00", 8);
    image += static_cast<char>(header.size() & 0xff);
    image += static_cast<char>(header.size() >> 8);
    return image + header + std::string(data);
}

std::string descr_of(DML_TENSOR_DATA_TYPE type) {
    const char kind = is_float_type(type) ? 'f' : is_signed_int_type(type) ? 'i' : 'u';
    return std::string(type_size(type) == 1 ? "|" : "<") + kind + std::to_string(type_size(type));
}

std::string shape_text(const std::vector<uint32_t>& sizes) {
    std::string text = "(";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + (sizes.size() == 1 ? ",)" : ")");
}

// Writes `values` (C-order logical order) as a Fortran-order .npy file, built byte by byte.
void write_fortran_order(const std::string& path, DML_TENSOR_DATA_TYPE type,
                         const std::vector<uint32_t>& sizes, const std::vector<double>& values) {
    TestTensor t = make_fortran(type, sizes);
    REQUIRE(t.total_bytes() >= t.count() * t.element_size());
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double_at(unravel(i, sizes), values[i]);
    write_text(path, npy_image("{'descr': '" + descr_of(type) +
                                   "', 'fortran_order': True, 'shape': " + shape_text(sizes) + ", }",
                               bytes_view(t)));
}

// Reads a tool output file, checks its type, shape and C order, and returns its values as doubles.
std::vector<double> read_values(const std::string& path, DML_TENSOR_DATA_TYPE type,
                                const std::vector<uint32_t>& sizes) {
    auto array = vkdml::npy::read(path);
    INFO((array ? std::string() : array.error().message));
    REQUIRE(array);
    CHECK(array->type == type);
    CHECK(array->shape == sizes);
    CHECK_FALSE(array->fortran_order);
    TestTensor t = make_packed(type, sizes);
    REQUIRE(array->data.size() == t.count() * t.element_size());
    std::memcpy(t.bytes.data(), array->data.data(), array->data.size());
    std::vector<double> values;
    for (uint64_t i = 0; i < t.count(); ++i) values.push_back(t.get_double(i));
    return values;
}

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

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
    return text;
}

// Runs `vkdml COMMAND OPTIONS in out` and checks that it succeeded silently.
void run_command(const TempDir& dir, const std::string& command, const std::vector<std::string>& options,
                 const std::string& in, const std::string& out) {
    std::vector<std::string> args{command};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(in);
    args.push_back(out);
    const Outcome outcome = run_tool(dir, args);
    INFO("vkdml " << joined(args) << "\nstderr: " << outcome.err);
    REQUIRE(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    CHECK(outcome.out.empty());
}

// ---- error paths -------------------------------------------------------------------------------

// Checks a failed run: the exit code, nothing on stdout, exactly one stderr line "vkdml: error: ..."
// containing `problem`, and no file created in `dir` (an output or a temporary one).
void check_error(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                 std::string_view problem) {
    const auto before = dir.entries();
    const Outcome outcome = run_tool(dir, args);
    INFO("vkdml " << joined(args) << "\nstdout: " << outcome.out << "\nstderr: " << outcome.err);
    CHECK(outcome.exit_code == exit_code);
    CHECK(outcome.out.empty());
    CHECK(outcome.err.rfind("vkdml: error: ", 0) == 0);
    CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
    CHECK(outcome.err.find(problem) != std::string::npos);
    CHECK(dir.entries() == before);
}

// Runs every SPEC §6 example on the .npy file `in` (holding the SPEC input as `type`) and checks the
// output; removes the output file after each.
void check_spec_examples(const TempDir& dir, const std::string& in, DML_TENSOR_DATA_TYPE type) {
    const std::string out = dir / "out.npy";
    for (const SpecExample& example : kSpecExamples) {
        INFO(example.command << " " << joined(example.options));
        run_command(dir, example.command, example.options, in, out);
        CHECK(read_values(out, type, kSpecSizes) == stored_values(type, example.expected));
        fs::remove(out);
    }
}

// ---- reduce, argmax, argmin --------------------------------------------------------------------

// The SPEC §6 reduce and arg inputs.
struct ReduceInput {
    std::string file;
    std::vector<uint32_t> sizes;
    std::vector<double> values;
};
const ReduceInput kReduceInputs[] = {
    {"sum.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 4, 2}},
    {"arg.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 5, 2}},
    {"ties_max.npy", {5}, {3, 2, 1, 2, 3}},
    {"ties_min.npy", {5}, {1, 2, 3, 2, 1}},
};

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
        fs::remove(out);
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
    std::vector<uint32_t> output_sizes = sizes;
    for (uint32_t axis : axes) output_sizes[axis] = 1;
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

TEST_CASE("cli: vkdml cumsum and cumprod reproduce the SPEC §6 examples for every data type", "[gpu][cli]") {
    TempDir dir;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO("type " << type_name(type));
        const std::string in = dir / "in.npy";
        write_c_order(in, type, kSpecSizes, kSpecInput);
        check_spec_examples(dir, in, type);
    }
    CHECK(dir.entries() == std::vector<std::string>{"in.npy"});
}

TEST_CASE("cli: a Fortran-order input gives the same result as C order", "[gpu][cli]") {
    TempDir dir;
    SECTION("the SPEC §6 examples, every data type") {
        for (DML_TENSOR_DATA_TYPE type : all_types()) {
            INFO("type " << type_name(type));
            const std::string in = dir / "in_f.npy";
            write_fortran_order(in, type, kSpecSizes, kSpecInput);
            check_spec_examples(dir, in, type);
        }
    }
    SECTION("rank 3, every axis, both file orders") {
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
}

TEST_CASE("cli: --validation runs report no validation message", "[gpu][cli]") {
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
    SECTION("--limit") {
        CHECK(run_tool(dir, {"show", "--limit", "5", ints}).out ==
              "INT32 [1,1,3,4]\n"
              "[[[[2, 1, 3, 5],\n"
              "   [3, ...]]]]\n");
        CHECK(run_tool(dir, {"show", "--limit=12", ints}).out == spec_text);
        CHECK(run_tool(dir, {"show", "--limit", "0", ints}).out == "INT32 [1,1,3,4]\n[[[[...]]]]\n");
        check_error(dir, {"show", "--limit", "-1", ints}, 2, "--limit");
        check_error(dir, {"show", "--limit", "many", ints}, 2, "--limit");
    }
    SECTION("a malformed file") {
        const std::string bad = dir / "bad.npy";
        write_text(bad, "PK\x03\x04 not an npy file");
        check_error(dir, {"show", bad}, 1, "magic");
    }
}

TEST_CASE("cli: vkdml info lists the types of every operator", "[gpu][cli]") {
    // Both the tool and test_device() open the default device: the tool must say what the library does.
    TempDir dir;
    const Outcome outcome = run_tool(dir, {"info"});
    INFO("stdout: " << outcome.out << "\nstderr: " << outcome.err);
    REQUIRE(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT,
                                 DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
        const size_t section = outcome.out.find("\n" + std::string(vkdml::to_string(op)) + "\n");
        REQUIRE(section != std::string::npos);
        const size_t end = outcome.out.find("\n\n", section + 1);
        for (DML_TENSOR_DATA_TYPE type : all_types()) {
            const std::string name = type_name(type);
            INFO(vkdml::to_string(op) << " type " << name);
            const size_t line = outcome.out.find("\n  " + name + " ", section);
            REQUIRE(line < end);
            const size_t answer = outcome.out.find_first_not_of(' ', line + 3 + name.size());
            const vkdml::TypeSupport support = test_device().supports(op, type);
            CHECK(outcome.out.compare(answer, 3, support.supported ? "yes" : "no:") == 0);
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
        rejected(npy_image("{'descr': '>f4', 'fortran_order': False, 'shape': (3, 4), }", twelve_floats),
                 "big-endian");
        rejected(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 3, 4), }",
                           twelve_floats),
                 "rank 9");
        rejected(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 0, 4), }", ""),
                 "zero-sized");
    }
    SECTION("output into a nonexistent directory") {
        check_error(dir, {"cumsum", "--axis", "3", in, dir / "no-such-dir/out.npy"}, 1, "no-such-dir");
        CHECK_FALSE(fs::exists(dir / "no-such-dir"));
    }
    SECTION("unknown device") {
        check_error(dir, {"cumsum", "--device", "no-such-gpu", "--axis", "3", in, out}, 1, "no-such-gpu");
    }
}

TEST_CASE("cli: vkdml reduce, argmax and argmin reproduce the SPEC §6 examples for every data type",
          "[gpu][cli]") {
    TempDir dir;
    const auto& types = all_types();
    for (size_t t = 0; t < types.size(); ++t) {
        INFO("input type " << type_name(types[t]));
        write_reduce_inputs(dir, types[t], false);
        check_reduce_examples(dir, types[t], t);
    }
}

TEST_CASE("cli: reduce, argmax and argmin give the same result for a Fortran-order input", "[gpu][cli]") {
    TempDir dir;
    SECTION("the SPEC §6 examples") {
        const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT8,
                                              DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_FLOAT64,
                                              DML_TENSOR_DATA_TYPE_INT64};
        for (size_t t = 0; t < std::size(types); ++t) {
            INFO("input type " << type_name(types[t]));
            write_reduce_inputs(dir, types[t], true);
            check_reduce_examples(dir, types[t], t);
        }
    }
    SECTION("rank 3, several axis sets, both file orders, against the host") {
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
            std::vector<uint32_t> output_sizes = sizes;
            for (uint32_t axis : c.axes) output_sizes[axis] = 1;
            const auto output_type =
                c.function.starts_with("arg") ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32;
            CHECK(read_values(dir / "out_c.npy", output_type, output_sizes) ==
                  host_reduce(sizes, values, c.axes, c.function, c.last_index));
            CHECK(read_text(dir / "out_c.npy") == read_text(dir / "out_f.npy"));
        }
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
        fs::remove(out);
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
        fs::remove(out);
    }
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
        for (const char* text :
             {"--axes A[,B...]", "--axis N", "'none'", "--output-type T", "int64 (default)"})
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
                    "'--output-type' is only for --function argmax and argmin");
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
        for (const char* bad : {"0,,1", "0,", ",1", "x", "1.5", "0;1", "None", " 1"})
            check_error(
                dir, {"argmax", "--axes", bad, in, out}, 2,
                "'--axes' expects comma-separated integers or 'none', got '" + std::string(bad) + "'");
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
