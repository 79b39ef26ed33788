// cli_support.hpp — what the CLI tests (tests/tools/test_cli*.cpp) share: the vkdml tool run as a
// subprocess, per-test temporary directories, .npy inputs and outputs, and the error-path check.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "vkdml/directml.h"

namespace vkdml_test::cli {

// A fresh empty directory for one test, removed with its contents afterwards.
struct TempDir {
    std::filesystem::path path;
    TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();
    /// The UTF-8 path of `name` (UTF-8) in the directory.
    std::string operator/(std::string_view name) const;
    std::vector<std::string> entries() const;
};

std::string read_text(const std::string& path);
void write_text(const std::string& path, std::string_view text);

struct Outcome {
    int exit_code = -1;
    std::string out, err;
    uint64_t peak_rss_kib = 0;  ///< the tool's peak resident memory (Linux: VmHWM as last sampled;
                                ///< Windows: its peak working set)
};

// Where the tool's standard output goes.
enum class Stdout {
    capture,      ///< a file in the test directory, returned as Outcome::out
    full_device,  ///< /dev/full: every write fails with ENOSPC (Linux only)
    closed_pipe,  ///< a pipe whose read end is closed: writing raises SIGPIPE unless the tool ignores it
};

// Runs the tool with `args` (UTF-8), stdin from the file `stdin_path` (UTF-8; empty: the null device),
// stdout and stderr captured through files in `dir` (removed again, so the directory afterwards holds only
// what the tool itself wrote there). Fails the test if the tool is killed by a signal or crashes, or runs
// longer than `timeout_s` seconds (then it is killed). POSIX: posix_spawn; Windows: CreateProcessW
// (tool_process.cpp).
Outcome run_tool(const TempDir& dir, std::vector<std::string> args, Stdout out = Stdout::capture,
                 int timeout_s = 600, const std::string& stdin_path = {});

// `args` and "--validation", unless this run goes without the validation layer (gpu_fixture.hpp's
// validation_layer_waived(): Windows under Wine), where the tool could not find it.
std::vector<std::string> with_validation(std::vector<std::string> args);

// ---- .npy inputs and outputs -------------------------------------------------------------------

// Writes `values` (C-order logical order) as a C-order .npy file through the library's writer.
void write_c_order(const std::string& path, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                   const std::vector<double>& values);

// A format 1.0 .npy image with the given header dict (padded as NumPy pads it) followed by `data`.
std::string npy_image(std::string header, std::string_view data);

// Writes `values` (C-order logical order) as a Fortran-order .npy file, built byte by byte.
void write_fortran_order(const std::string& path, DML_TENSOR_DATA_TYPE type,
                         const std::vector<uint32_t>& sizes, const std::vector<double>& values);

// Reads a tool output file, checks its type, shape and C order, and returns its values as doubles.
std::vector<double> read_values(const std::string& path, DML_TENSOR_DATA_TYPE type,
                                const std::vector<uint32_t>& sizes);

// The SPEC §6 reduce and arg inputs.
struct ReduceInput {
    std::string file;
    std::vector<uint32_t> sizes;
    std::vector<double> values;
};
extern const ReduceInput kReduceInputs[4];

// ---- running commands --------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& words);

// Runs `vkdml COMMAND OPTIONS in out` and checks that it succeeded silently.
void run_command(const TempDir& dir, const std::string& command, const std::vector<std::string>& options,
                 const std::string& in, const std::string& out);

// Checks a failed run: the exit code, nothing on stdout, exactly one stderr line "vkdml: error: ..."
// containing `problem`, no file created or removed in `dir` (an output or a temporary one), and all of it
// within 60 seconds.
void check_error(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                 std::string_view problem);
// The same, the line containing every one of `parts` in order.
void check_error_parts(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                       const std::vector<std::string>& parts);

}  // namespace vkdml_test::cli
