// tool_process.cpp — run_tool(): the vkdml tool as a subprocess with redirected standard streams, a
// timeout that kills it, and its peak memory. POSIX: posix_spawn and /proc; Windows: CreateProcessW.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "cli_support.hpp"
#include "npy/platform.hpp"

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
// (after windows.h, which it needs)
#include <psapi.h>
#else
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

#ifndef VKDML_TOOL_PATH
#error "VKDML_TOOL_PATH (the built vkdml tool) must be defined by the build"
#endif

namespace fs = std::filesystem;

namespace vkdml_test::cli {

#ifdef _WIN32
namespace {

// The tool, next to this test program (the build puts every program in one folder).
fs::path tool_path() {
    std::wstring self(32768, L'\0');
    self.resize(GetModuleFileNameW(nullptr, self.data(), static_cast<DWORD>(self.size())));
    return fs::path(self).parent_path() / VKDML_TOOL_PATH;
}

// One argument quoted for CommandLineToArgvW: backslashes are literal except before a quote.
std::wstring quoted(const std::wstring& arg) {
    std::wstring out = L"\"";
    size_t backslashes = 0;
    for (wchar_t ch : arg) {
        if (ch == L'\\') {
            ++backslashes;
            continue;
        }
        out.append(ch == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        out += ch;
    }
    out.append(backslashes * 2, L'\\');
    return out + L"\"";
}

struct Handle {
    HANDLE h = INVALID_HANDLE_VALUE;
    ~Handle() {
        if (h != INVALID_HANDLE_VALUE && h != nullptr) CloseHandle(h);
    }
};

HANDLE inheritable_file(const fs::path& path, DWORD access, DWORD disposition) {
    SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
    return CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, disposition,
                       FILE_ATTRIBUTE_NORMAL, nullptr);
}

Outcome run_tool_once(const TempDir& dir, const std::vector<std::string>& args, Stdout out, int timeout_s,
                      const std::string& stdin_path) {
    const std::string out_path = dir / "stdout.txt", err_path = dir / "stderr.txt";
    REQUIRE(out != Stdout::full_device);  // no such device on Windows: those checks are Linux-only
    const fs::path tool = tool_path();
    std::wstring command_line = quoted(tool.wstring());
    for (const std::string& arg : args)
        command_line += L" " + quoted(vkdml::platform::path_from_utf8(arg).wstring());

    Handle in, stdout_handle, err;
    in.h =
        inheritable_file(stdin_path.empty() ? fs::path(L"NUL") : vkdml::platform::path_from_utf8(stdin_path),
                         GENERIC_READ, OPEN_EXISTING);
    if (out == Stdout::capture) {
        stdout_handle.h =
            inheritable_file(vkdml::platform::path_from_utf8(out_path), GENERIC_WRITE, CREATE_ALWAYS);
    } else {
        SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
        HANDLE read_end = nullptr;
        REQUIRE(CreatePipe(&read_end, &stdout_handle.h, &inherit, 0));
        CloseHandle(read_end);  // no reader: the tool's first write to stdout fails
    }
    err.h = inheritable_file(vkdml::platform::path_from_utf8(err_path), GENERIC_WRITE, CREATE_ALWAYS);
    REQUIRE(in.h != INVALID_HANDLE_VALUE);
    REQUIRE(stdout_handle.h != INVALID_HANDLE_VALUE);
    REQUIRE(err.h != INVALID_HANDLE_VALUE);

    STARTUPINFOW startup{};
    startup.cb = sizeof startup;
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = in.h;
    startup.hStdOutput = stdout_handle.h;
    startup.hStdError = err.h;
    PROCESS_INFORMATION process{};
    // Wine reports ERROR_INTERNAL_ERROR (1359) when the new process died before its start-up finished,
    // which happens now and then on a loaded machine (CI saw it once): a fault of the start, not of the
    // tool, so the start is tried again, at most three times.
    BOOL started = FALSE;
    DWORD start_error = 0;
    for (int attempt = 0; attempt < 3 && !started; ++attempt) {
        if (attempt > 0) Sleep(200);
        started = CreateProcessW(tool.c_str(), command_line.data(), nullptr, nullptr, TRUE, 0, nullptr,
                                 nullptr, &startup, &process);
        start_error = started ? 0 : GetLastError();
        if (start_error != ERROR_INTERNAL_ERROR) break;
    }
    INFO("CreateProcessW " << vkdml::platform::utf8_from_path(tool) << ": error " << start_error);
    REQUIRE(started);
    Handle process_handle, thread_handle;
    process_handle.h = process.hProcess;
    thread_handle.h = process.hThread;
    CloseHandle(stdout_handle.h);  // the child holds its own copies
    stdout_handle.h = INVALID_HANDLE_VALUE;
    CloseHandle(err.h);
    err.h = INVALID_HANDLE_VALUE;

    const DWORD waited = WaitForSingleObject(process.hProcess, static_cast<DWORD>(timeout_s) * 1000);
    if (waited == WAIT_TIMEOUT) {
        TerminateProcess(process.hProcess, 1);
        WaitForSingleObject(process.hProcess, INFINITE);
        FAIL("vkdml " << joined(args) << " still ran after " << timeout_s << " s (killed)");
    }
    if (waited != WAIT_OBJECT_0) {  // WAIT_FAILED: do not leave the child running
        const DWORD error = GetLastError();
        TerminateProcess(process.hProcess, 1);
        FAIL("waiting for vkdml " << joined(args) << " failed: error " << error);
    }
    DWORD code = 0;
    REQUIRE(GetExitCodeProcess(process.hProcess, &code));
    PROCESS_MEMORY_COUNTERS memory{};
    memory.cb = sizeof memory;
    const uint64_t peak_kib =
        GetProcessMemoryInfo(process.hProcess, &memory, sizeof memory) ? memory.PeakWorkingSetSize / 1024 : 0;
    // An exit code of 0xC0000000 and above is an unhandled exception's NTSTATUS (a crash), not exit().
    INFO("vkdml " << joined(args) << " crashed with exception code 0x" << std::hex << code);
    REQUIRE(code < 0xC0000000u);
    Outcome outcome{static_cast<int>(code), read_text(out_path), read_text(err_path), peak_kib};
    fs::remove(vkdml::platform::path_from_utf8(out_path));
    fs::remove(vkdml::platform::path_from_utf8(err_path));
    return outcome;
}

// What the tool prints when winevulkan could not create an instance on the host's Vulkan: it happened
// once in a CI run under load (one command of several hundred; its neighbours with the same input ran), a
// fault of Wine's start-up, not of the tool, whose instance-creation code is the same on Linux.
constexpr const char* kWineInstanceFailure =
    "vkdml: error: vkCreateInstance failed with VK_ERROR_INITIALIZATION_FAILED";

}  // namespace

Outcome run_tool(const TempDir& dir, std::vector<std::string> args, Stdout out, int timeout_s,
                 const std::string& stdin_path) {
    // A command that fails that way is run again, at most three times in all, each retry with a warning;
    // a tool that always fails so still fails its test.
    Outcome outcome = run_tool_once(dir, args, out, timeout_s, stdin_path);
    for (int attempt = 1;
         attempt < 3 && outcome.exit_code == 1 && outcome.err.rfind(kWineInstanceFailure, 0) == 0;
         ++attempt) {
        WARN("vkdml " << joined(args) << ": " << outcome.err << "(Wine; run again)");
        Sleep(500);
        outcome = run_tool_once(dir, args, out, timeout_s, stdin_path);
    }
    return outcome;
}

#else  // POSIX

Outcome run_tool(const TempDir& dir, std::vector<std::string> args, Stdout out, int timeout_s,
                 const std::string& stdin_path) {
    const std::string out_path = dir / "stdout.txt", err_path = dir / "stderr.txt";
    posix_spawn_file_actions_t actions;
    REQUIRE(posix_spawn_file_actions_init(&actions) == 0);
    posix_spawn_file_actions_addopen(&actions, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(),
                                     O_RDONLY, 0);
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
    // VKDML_TOOL: the tool of a build carried elsewhere (tools/gpu_check.sh), where the built-in path
    // does not exist.
    const char* moved = std::getenv("VKDML_TOOL");
    std::string tool = moved && *moved ? moved : VKDML_TOOL_PATH;
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
        // (Checked without an assertion per poll, so that a test's assertion count does not depend on
        // how long the tool ran.)
        if (done != 0 && errno != EINTR) FAIL("waitpid " << pid << ": " << std::strerror(errno));
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

#endif

}  // namespace vkdml_test::cli
