// os_support.hpp — what the tests need to know of the operating system. Checks that only mean something
// on Linux (/dev/null and /dev/full, FIFOs, /proc and /sys, permission bits, mmap reservations, /proc
// memory peaks) open with VKDML_LINUX_ONLY (the test, or the section holding them): on Linux it does
// nothing (they always run there); elsewhere the test or section reports itself skipped, with the reason,
// and stops.
#pragma once

#include <catch2/catch.hpp>
#include <string>

/// Skips the rest of the test or section off Linux, saying why. A run-time test (on_linux()), so the code
/// after it stays reachable for compilers that would warn otherwise (MSVC's C4702).
#define VKDML_LINUX_ONLY(reason)                              \
    do {                                                      \
        if (!::vkdml_test::on_linux()) {                      \
            WARN("skipped: Linux only (" << (reason) << ")"); \
            return;                                           \
        }                                                     \
    } while (false)

namespace vkdml_test {

/// Whether this is a Linux build (what VKDML_LINUX_ONLY asks, and checks with a Linux-only part). A
/// function, not a constant: no constant-condition or unreachable-code warnings where it is tested.
bool on_linux();

/// Creates a FIFO at `path` (Linux only: FAILs elsewhere, behind VKDML_LINUX_ONLY).
void make_fifo(const std::string& path);

/// Sets (or with nullptr removes) an environment variable of this process (setenv / _putenv_s).
void set_environment(const char* name, const char* value);

}  // namespace vkdml_test
