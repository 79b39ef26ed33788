// tools/npy/platform.cpp — POSIX and Windows implementations of platform.hpp.
#include "npy/platform.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
// (after windows.h, which they need)
#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#else
#include <unistd.h>
#endif

namespace vkdml::platform {

#ifdef _WIN32
namespace {

std::string utf8_from_wide(const wchar_t* wide) {
    const int size = WideCharToMultiByte(CP_UTF8, 0, wide, -1, nullptr, 0, nullptr, nullptr);
    if (size <= 1) return {};
    std::string out(static_cast<size_t>(size - 1), '\0');
    WideCharToMultiByte(CP_UTF8, 0, wide, -1, out.data(), size, nullptr, nullptr);
    return out;
}

// The errno value matching a Win32 error, for messages worded as on POSIX systems.
int errno_from_win32(DWORD error) {
    switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS: return EEXIST;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    default: return EIO;
    }
}

}  // namespace

std::vector<std::string> utf8_arguments(int, char**) {
    int count = 0;
    wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &count);
    std::vector<std::string> args;
    for (int i = 1; wide && i < count; ++i) args.push_back(utf8_from_wide(wide[i]));
    if (wide) LocalFree(wide);
    return args;
}

void prepare_standard_streams() {
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
}

bool standard_input_is_terminal() {
    // A console, not every character device: _isatty is true for NUL too, which reads as empty.
    DWORD mode = 0;
    return GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &mode) != 0;
}

std::FILE* open_file(const std::string& utf8_path, const char* mode) {
    const std::wstring wide_mode(mode, mode + std::strlen(mode));
    return _wfopen(path_from_utf8(utf8_path).c_str(), wide_mode.c_str());
}

unsigned long process_id() {
    return GetCurrentProcessId();
}

std::optional<std::string> replace_file(const std::string& from, const std::string& to) {
    const std::filesystem::path source = path_from_utf8(from), target = path_from_utf8(to);
    if (MoveFileExW(source.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return std::nullopt;
    const DWORD error = GetLastError();  // read before anything else can overwrite it
    return error_text(errno_from_win32(error));
}

std::tm local_time(std::time_t t) {
    std::tm local{};
    localtime_s(&local, &t);
    return local;
}

#else  // POSIX

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    return std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + argc);
}

void prepare_standard_streams() {
    std::signal(SIGPIPE, SIG_IGN);
}

bool standard_input_is_terminal() {
    return ::isatty(STDIN_FILENO) != 0;
}

std::FILE* open_file(const std::string& utf8_path, const char* mode) {
    return std::fopen(utf8_path.c_str(), mode);
}

unsigned long process_id() {
    return static_cast<unsigned long>(::getpid());
}

std::optional<std::string> replace_file(const std::string& from, const std::string& to) {
    if (std::rename(from.c_str(), to.c_str()) == 0) return std::nullopt;
    return error_text(errno);
}

std::tm local_time(std::time_t t) {
    std::tm local{};
    localtime_r(&t, &local);
    return local;
}

#endif

std::filesystem::path path_from_utf8(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

std::string utf8_from_path(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return std::string(text.begin(), text.end());
}

std::string error_text(int errnum) {
    return std::strerror(errnum);
}

std::string temporary_name(const std::string& path) {
    return path + ".tmp." + std::to_string(process_id());
}

// Writes `parts` to `file` in order; false where a write fell short. (An empty part's data() may be null:
// not for fwrite.)
static bool write_parts(std::FILE* file, std::span<const std::span<const std::byte>> parts) {
    bool written = true;
    for (std::span<const std::byte> part : parts)
        written = written && (part.empty() || std::fwrite(part.data(), 1, part.size(), file) == part.size());
    return written;
}

std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::span<const std::span<const std::byte>> parts) {
    const std::string temp = temporary_name(path);
    std::FILE* file = open_file(temp, "wb");
    if (!file) return "cannot create '" + temp + "': " + error_text(errno);
    const bool written = write_parts(file, parts);
    const int write_errno = errno;
    const bool closed = std::fclose(file) == 0;
    const int close_errno = errno;
    std::optional<std::string> problem;
    if (!written || !closed)
        problem = "cannot write '" + temp + "': " + error_text(written ? close_errno : write_errno);
    else if (auto rename_problem = replace_file(temp, path))
        problem = "cannot rename '" + temp + "' to it: " + *rename_problem;
    if (problem) {
        std::error_code ignored;
        std::filesystem::remove(path_from_utf8(temp), ignored);
    }
    return problem;
}

std::optional<std::string> write_standard_output(std::span<const std::span<const std::byte>> parts) {
    const bool written = write_parts(stdout, parts) && std::fflush(stdout) == 0;
    if (!written) return "cannot write to standard output: " + error_text(errno);
    return std::nullopt;
}

}  // namespace vkdml::platform
