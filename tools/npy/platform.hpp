// tools/npy/platform.hpp — the few operating-system services the vkdml tool needs, with one implementation
// for POSIX systems and one for Windows, so that the tool behaves and words its messages the same on both.
// Paths are UTF-8 text everywhere (Windows: converted to wide characters at the system call).
#pragma once

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace vkdml::platform {

/// The program's arguments after the program name, as UTF-8. POSIX: argv as given. Windows: read
/// from the wide-character command line, so names outside the ANSI code page arrive intact.
std::vector<std::string> utf8_arguments(int argc, char** argv);

/// Prepares the process's standard streams: a write to a closed pipe fails with an error instead of
/// killing the process (POSIX: SIGPIPE ignored), and stdin, stdout and stderr are binary (Windows: no
/// "\r\n" and no end at a byte 0x1A).
void prepare_standard_streams();

/// A filesystem path from UTF-8 text, and back.
std::filesystem::path path_from_utf8(const std::string& utf8);
std::string utf8_from_path(const std::filesystem::path& path);

/// std::fopen with a UTF-8 path (Windows: _wfopen). Sets errno on failure like fopen.
std::FILE* open_file(const std::string& utf8_path, const char* mode);

/// The text std::strerror gives for `errnum`.
std::string error_text(int errnum);

/// This process's id (names temporary files).
unsigned long process_id();

/// Renames `from` to `to` in one step that replaces an existing `to` atomically (POSIX rename;
/// Windows MoveFileExW with MOVEFILE_REPLACE_EXISTING). Returns why it failed, in strerror's words.
std::optional<std::string> replace_file(const std::string& from, const std::string& to);

/// Writes `parts` one after the other into "<path>.tmp.<pid>", then replaces `path` with it, so that
/// `path` never holds a partial file; the temporary file is removed on failure. Returns the reason for a
/// failure, naming the temporary file: "cannot create '<temp>': ...", "cannot write '<temp>': ..." or
/// "cannot rename '<temp>' to it: ...".
std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::span<const std::span<const std::byte>> parts);

/// Writes `parts` one after the other to standard output (binary: prepare_standard_streams) and flushes
/// it. Returns the reason for a failure: "cannot write to standard output: ...".
std::optional<std::string> write_standard_output(std::span<const std::span<const std::byte>> parts);

/// Whether standard input is a terminal (POSIX isatty; Windows a console, GetConsoleMode), where no file
/// can come.
bool standard_input_is_terminal();

/// The temporary name write_file_atomically() writes before renaming: "<path>.tmp.<pid>".
std::string temporary_name(const std::string& path);

/// The local time of `t` (thread-safe: localtime_r / localtime_s).
std::tm local_time(std::time_t t);

}  // namespace vkdml::platform
