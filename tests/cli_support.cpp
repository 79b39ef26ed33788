// cli_support.cpp — the CLI tests' subprocess runner, temporary directories, .npy helpers and error check.
#include "cli_support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>

#include "npy.hpp"
#include "tensor_data.hpp"

extern char** environ;

#ifndef VKDML_TOOL_PATH
#error "VKDML_TOOL_PATH (the built vkdml tool) must be defined by the build"
#endif

namespace fs = std::filesystem;

namespace vkdml_test::cli {

TempDir::TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("vkdml_test_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
}

std::vector<std::string> TempDir::entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename().string());
    return names;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const std::string& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    REQUIRE(out.good());
}

Outcome run_tool(const TempDir& dir, std::vector<std::string> args, Stdout out, int timeout_s) {
    const std::string out_path = dir / "stdout.txt", err_path = dir / "stderr.txt";
    posix_spawn_file_actions_t actions;
    REQUIRE(posix_spawn_file_actions_init(&actions) == 0);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    int pipe_fds[2] = {-1, -1};
    if (out == Stdout::capture) {
        posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    } else if (out == Stdout::full_device) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0);
    } else {
        REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
        ::close(pipe_fds[0]);  // no reader: the tool's first write to stdout gets EPIPE (and SIGPIPE)
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    }
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string tool = VKDML_TOOL_PATH;
    std::vector<char*> argv{tool.data()};
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    // The child starts with SIGPIPE at its default action (killing), whatever this process does with it.
    posix_spawnattr_t attributes;
    REQUIRE(posix_spawnattr_init(&attributes) == 0);
    sigset_t default_signals;
    sigemptyset(&default_signals);
    sigaddset(&default_signals, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &default_signals);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    const int spawned = posix_spawn(&pid, tool.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
    INFO("posix_spawn " << tool << ": " << std::strerror(spawned));
    REQUIRE(spawned == 0);
    // Wait, reading the tool's peak resident memory (VmHWM: its own address space only, unlike
    // ru_maxrss, which counts this process's at the spawn) every few milliseconds while it runs.
    int status = 0;
    uint64_t peak_kib = 0;
    const std::string status_file = "/proc/" + std::to_string(pid) + "/status";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        REQUIRE((done == 0 || errno == EINTR));
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            FAIL("vkdml " << joined(args) << " still ran after " << timeout_s << " s (killed)");
        }
        std::ifstream proc(status_file);
        for (std::string line; std::getline(proc, line);)
            if (line.rfind("VmHWM:", 0) == 0)
                peak_kib = std::max<uint64_t>(peak_kib, std::stoull(line.substr(6)));
        usleep(2000);
    }
    INFO("vkdml " << joined(args) << " was killed by signal "
                  << (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
    REQUIRE(WIFEXITED(status));
    Outcome outcome{WEXITSTATUS(status), read_text(out_path), read_text(err_path), peak_kib};
    fs::remove(out_path);
    fs::remove(err_path);
    return outcome;
}

// ---- .npy inputs and outputs -------------------------------------------------------------------

namespace {

std::string_view bytes_view(const TestTensor& t) {
    return {reinterpret_cast<const char*>(t.bytes.data()), t.count() * t.element_size()};
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

}  // namespace

void write_c_order(const std::string& path, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                   const std::vector<double>& values) {
    TestTensor t = make_packed(type, sizes);
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double(i, values[i]);
    const auto status =
        vkdml::npy::write(path, type, sizes, std::span(t.bytes).first(t.count() * t.element_size()));
    INFO((status ? std::string() : status.error().message));
    REQUIRE(status);
}

std::string npy_image(std::string header, std::string_view data) {
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string image("\x93NUMPY\x01\x00", 8);
    image += static_cast<char>(header.size() & 0xff);
    image += static_cast<char>(header.size() >> 8);
    return image + header + std::string(data);
}

void write_fortran_order(const std::string& path, DML_TENSOR_DATA_TYPE type,
                         const std::vector<uint32_t>& sizes, const std::vector<double>& values) {
    TestTensor t = make_fortran(type, sizes);
    REQUIRE(t.total_bytes() >= t.count() * t.element_size());
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double_at(unravel(i, sizes), values[i]);
    write_text(path, npy_image("{'descr': '" + descr_of(type) +
                                   "', 'fortran_order': True, 'shape': " + shape_text(sizes) + ", }",
                               bytes_view(t)));
}

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

const ReduceInput kReduceInputs[4] = {
    {"sum.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 4, 2}},
    {"arg.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 5, 2}},
    {"ties_max.npy", {5}, {3, 2, 1, 2, 3}},
    {"ties_min.npy", {5}, {1, 2, 3, 2, 1}},
};

// ---- running commands --------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
    return text;
}

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

void check_error(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                 std::string_view problem) {
    check_error_parts(dir, args, exit_code, {std::string(problem)});
}

void check_error_parts(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                       const std::vector<std::string>& parts) {
    auto before = dir.entries();
    std::sort(before.begin(), before.end());
    const Outcome outcome = run_tool(dir, args, Stdout::capture, 60);
    INFO("vkdml " << joined(args) << "\nstdout: " << outcome.out << "\nstderr: " << outcome.err);
    CHECK(outcome.exit_code == exit_code);
    CHECK(outcome.out.empty());
    CHECK(outcome.err.rfind("vkdml: error: ", 0) == 0);
    CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
    size_t at = 0;
    for (const std::string& part : parts) {
        INFO("expected in stderr: " << part);
        at = outcome.err.find(part, at);
        CHECK(at != std::string::npos);
        if (at == std::string::npos) break;
        at += part.size();
    }
    auto after = dir.entries();
    std::sort(after.begin(), after.end());
    CHECK(after == before);
}

}  // namespace vkdml_test::cli
