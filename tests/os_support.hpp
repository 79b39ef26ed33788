// os_support.hpp — what the tests need to know of the operating system. Checks that only mean something
// on Linux (/dev/null and /dev/full, FIFOs, /proc and /sys, permission bits, mmap reservations, /proc
// memory peaks) are tagged [linux-only] and open with VKDML_LINUX_ONLY: on Linux it does nothing (they always
// run there); elsewhere the test or section reports itself skipped, with the reason, and stops.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#ifdef __linux__
#define VKDML_LINUX_ONLY(reason) static_cast<void>(0)
#else
#define VKDML_LINUX_ONLY(reason)                          \
    do {                                                  \
        WARN("skipped: Linux only (" << (reason) << ")"); \
        return;                                           \
    } while (false)
#endif

namespace vkdml_test {

/// Whether this is a Linux build (for checks with a Linux-only part).
#ifdef __linux__
inline constexpr bool kLinux = true;
#else
inline constexpr bool kLinux = false;
#endif

/// Creates a FIFO at `path` (Linux only: FAILs elsewhere, behind VKDML_LINUX_ONLY).
void make_fifo(const std::string& path);

/// Sets (or with nullptr removes) an environment variable of this process (setenv / _putenv_s).
void set_environment(const char* name, const char* value);

}  // namespace vkdml_test
