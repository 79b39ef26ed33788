// tests/tools/test_cli_stdin.cpp — the vkdml tool with '-' as IN, run as a subprocess: standard input read
// whole as a .npy file (every layout the reader takes), chained with '-' as OUT, and its errors named
// "standard input".
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "npy/npy.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <thread>
#endif

using namespace vkdml_test::cli;

namespace {

// Runs `vkdml args...` (with --validation but for show) with standard input from `stdin_path`; checks it
// succeeded silently but for standard output, which it returns.
std::string run_piped(const TempDir& dir, const std::vector<std::string>& args,
                      const std::string& stdin_path) {
    const Outcome tool =
        run_tool(dir, args[0] == "show" ? args : with_validation(args), Stdout::capture, 600, stdin_path);
    INFO("vkdml " << joined(args) << " < " << stdin_path << "\nstderr: " << tool.err);
    REQUIRE(tool.exit_code == 0);
    CHECK(tool.err.empty());
    return tool.out;
}

// Runs `vkdml args...` with standard input from `stdin_path` and checks it failed with exit code 1 and the
// one line "vkdml: error: standard input: <problem>", nothing on standard output.
void check_piped_error(const TempDir& dir, const std::vector<std::string>& args,
                       const std::string& stdin_path, const std::string& problem) {
    const Outcome tool = run_tool(dir, args, Stdout::capture, 600, stdin_path);
    INFO("vkdml " << joined(args) << " < " << stdin_path);
    CHECK(tool.exit_code == 1);
    CHECK(tool.out.empty());
    CHECK(tool.err == "vkdml: error: standard input: " + problem + "\n");
}

}  // namespace

TEST_CASE("cli: '-' as IN reads the .npy file on standard input", "[gpu][cli]") {
    TempDir dir;
    const std::string ints = dir / "ints.npy", out = dir / "out.npy", indices = dir / "indices.npy";
    write_c_order(ints, DML_TENSOR_DATA_TYPE_INT32, {2, 3}, {1, 2, 3, 4, 5, 6});
    run_piped(dir, {"cumsum", "--axis", "1", "-", out}, ints);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {2, 3}) == std::vector<double>{1, 3, 6, 4, 9, 15});
    run_piped(dir, {"cummax", "--axis", "0", "--reverse", "--indices", indices, "-", out}, ints);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {2, 3}) == std::vector<double>{4, 5, 6, 4, 5, 6});
    CHECK(read_values(indices, DML_TENSOR_DATA_TYPE_INT64, {2, 3}) == std::vector<double>{1, 1, 1, 1, 1, 1});
    // Standard input to standard output: a reduction of the file above, as a .npy.
    const std::string text = run_piped(dir, {"reduce", "--function", "sum", "--axes", "0", "-", "-"}, ints);
    auto sums = vkdml::npy::parse(std::as_bytes(std::span(text)), "standard output");
    REQUIRE(sums);
    CHECK(sums->shape == std::vector<uint32_t>{1, 3});
    std::vector<int32_t> got(3);
    REQUIRE(sums->data.size() == 12);
    std::memcpy(got.data(), sums->data.data(), 12);
    CHECK(got == std::vector<int32_t>{5, 7, 9});
    // The reader's layouts: Fortran order, big-endian elements, bools (summed in int64).
    const std::string fortran = dir / "fortran.npy";
    write_fortran_order(fortran, DML_TENSOR_DATA_TYPE_FLOAT64, {2, 3}, {1, 2, 3, 4, 5, 6});
    run_piped(dir, {"cumprod", "--axis", "-1", "-", out}, fortran);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT64, {2, 3}) == std::vector<double>{1, 2, 6, 4, 20, 120});
    const std::string big = dir / "big.npy";
    write_text(big, npy_image("{'descr': '>u2', 'fortran_order': False, 'shape': (3,), }",
                              std::string("\x01\x00\x00\x02\x00\x03", 6)));
    run_piped(dir, {"argmax", "--axis", "0", "-", out}, big);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT64, {1}) == std::vector<double>{0});  // 256, 2, 3
    const std::string bools = dir / "bools.npy";
    write_text(bools, npy_image("{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }",
                                std::string("\x01\x00\x07\x01", 4)));
    run_piped(dir, {"cumsum", "--axis", "0", "-", out}, bools);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT64, {4}) == std::vector<double>{1, 1, 2, 3});
    // show, and a zero-size array.
    CHECK(run_piped(dir, {"show", "-"}, ints) == "INT32 [2,3]\n[[1, 2, 3],\n [4, 5, 6]]\n");
    const std::string empty = dir / "empty.npy";
    REQUIRE(vkdml::npy::write(empty, DML_TENSOR_DATA_TYPE_FLOAT32, std::vector<uint32_t>{0, 2}, {}));
    run_piped(dir, {"reduce", "--function", "multiply", "--axes", "0", "-", out}, empty);
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_FLOAT32, {1, 2}) == std::vector<double>{1, 1});
}

TEST_CASE("cli: errors of '-' as IN name standard input", "[gpu][cli]") {
    TempDir dir;
    const std::string ints = dir / "ints.npy", out = dir / "out.npy", truncated = dir / "truncated.npy";
    write_c_order(ints, DML_TENSOR_DATA_TYPE_INT32, {2, 3}, {1, 2, 3, 4, 5, 6});
    // Nothing there (the null device), a file cut short, a refusal of the data and of its shape.
    check_piped_error(dir, {"cumsum", "--axis", "0", "-", out}, "",
                      "is empty (no .npy file was piped or redirected into it)");
    check_piped_error(dir, {"show", "-"}, "", "is empty (no .npy file was piped or redirected into it)");
    const std::string text = dir / "text.npy";
    write_text(text, "[1, 2, 3]\n");
    check_piped_error(dir, {"show", "-"}, text, "not a .npy file (the magic string \\x93NUMPY is missing)");
    write_text(text, std::string("\x93NUMPY\x01\x00\x76", 9));
    check_piped_error(dir, {"show", "-"}, text, "file is truncated inside the preamble (9 bytes)");
    write_text(text, read_text(ints).substr(0, 100));
    check_piped_error(dir, {"show", "-"}, text,
                      "file is truncated: header length 118 extends beyond the end of the file (100 bytes)");
    write_text(text, read_text(ints) + "tail");
    check_piped_error(dir, {"show", "-"}, text,
                      "file has more bytes after the data (shape (2, 3) of <i4 needs 24)");
    write_text(truncated, read_text(ints).substr(0, 130));
    check_piped_error(dir, {"cumsum", "--axis", "0", "-", out}, truncated,
                      "data is truncated: shape (2, 3) of <i4 needs 24 bytes, the file holds 2");
    const std::string empty = dir / "empty.npy";
    REQUIRE(vkdml::npy::write(empty, DML_TENSOR_DATA_TYPE_FLOAT32, std::vector<uint32_t>{0, 2}, {}));
    check_piped_error(dir, {"argmin", "--axis", "0", "-", out}, empty,
                      "the argmin of no elements has no value (NumPy: \"attempt to get argmin of an empty "
                      "sequence\")");
    const Outcome axis = run_tool(dir, {"cumsum", "--axis", "2", "-", out}, Stdout::capture, 600, ints);
    CHECK(axis.exit_code == 1);
    CHECK(axis.err ==
          "vkdml: error: axis 2 is out of range for standard input of rank 2 (use 0..1 or -2..-1)\n");
    std::vector<std::string> left = dir.entries();  // (no output made)
    std::sort(left.begin(), left.end());
    CHECK(left == std::vector<std::string>{"empty.npy", "ints.npy", "text.npy", "truncated.npy"});
}

#ifndef _WIN32
namespace {

// Writes `bytes` into the FIFO `fifo` from a thread of its own, in growing pieces (1, 4, 13, 40 ... bytes)
// with a pause after each, then closes it: a reader sees short reads, and more than a pipe's buffer waits
// on it. The reader may stop early (an error): the write then fails with EPIPE, the signal blocked here.
std::jthread feed_pipe(const std::string& fifo, std::string bytes) {
    return std::jthread([fifo, bytes = std::move(bytes)] {
        sigset_t broken_pipe;
        sigemptyset(&broken_pipe);
        sigaddset(&broken_pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &broken_pipe, nullptr);
        // (Without a reader yet, a non-blocking open fails: tried for up to a minute, never left hanging.)
        int fd = -1;
        for (int tries = 0; fd < 0 && tries < 6000; ++tries) {
            fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (fd < 0) return;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        size_t at = 0;
        for (size_t piece = 1; at < bytes.size(); piece = piece * 3 + 1) {
            const ssize_t wrote = write(fd, bytes.data() + at, std::min(piece, bytes.size() - at));
            if (wrote <= 0) break;
            at += static_cast<size_t>(wrote);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        close(fd);
    });
}

// Runs `vkdml args...` with standard input from a FIFO fed `bytes` in pieces.
Outcome run_on_pipe(const TempDir& dir, const std::vector<std::string>& args, std::string bytes) {
    const std::string fifo = dir / "pipe";
    std::remove(fifo.c_str());
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::jthread writer = feed_pipe(fifo, std::move(bytes));  // (joined on a failed REQUIRE too)
    const Outcome tool = run_tool(dir, args, Stdout::capture, 600, fifo);
    writer.join();
    std::remove(fifo.c_str());
    return tool;
}

}  // namespace

// A real pipe rather than a file (POSIX; Windows reads standard input through the same fread): 800 KB
// arriving in pieces, many times a pipe's buffer; a stream cut short and one running on are named.
TEST_CASE("cli: '-' as IN reads a pipe fed in pieces", "[gpu][cli]") {
    TempDir dir;
    const std::string ones = dir / "ones.npy", out = dir / "out.npy";
    constexpr uint32_t n = 200000;
    write_c_order(ones, DML_TENSOR_DATA_TYPE_INT32, {n}, std::vector<double>(n, 1));
    const std::string image = read_text(ones);
    const Outcome fed = run_on_pipe(dir, {"cumsum", "--axis", "0", "-", out}, image);
    INFO("stderr: " << fed.err);
    REQUIRE(fed.exit_code == 0);
    std::vector<double> counts(n);
    for (uint32_t i = 0; i < n; ++i) counts[i] = i + 1;
    CHECK(read_values(out, DML_TENSOR_DATA_TYPE_INT32, {n}) == counts);
    std::remove(out.c_str());
    const Outcome cut =
        run_on_pipe(dir, {"cumsum", "--axis", "0", "-", out}, image.substr(0, image.size() - 1000));
    CHECK(cut.exit_code == 1);
    CHECK(cut.err ==
          "vkdml: error: standard input: data is truncated: shape (200000,) of <i4 needs 800000 "
          "bytes, the file holds 799000\n");
    const Outcome more =
        run_on_pipe(dir, {"cumsum", "--axis", "0", "-", out}, image + std::string(100000, 'x'));
    CHECK(more.exit_code == 1);
    CHECK(more.err ==
          "vkdml: error: standard input: file has more bytes after the data (shape (200000,) of <i4 "
          "needs 800000)\n");
    CHECK(!std::filesystem::exists(out));
}
#endif
