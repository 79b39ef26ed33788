// os_support.cpp — the portable helpers of os_support.hpp.
#include "os_support.hpp"

#include <cstdlib>

#ifdef __linux__
#include <sys/stat.h>
#endif

namespace vkdml_test {

bool on_linux() {
#ifdef __linux__
    return true;
#else
    return false;
#endif
}

void make_fifo(const std::string& path) {
#ifdef __linux__
    REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
#else
    FAIL("make_fifo(" << path << "): FIFOs are Linux-only here");
#endif
}

void set_environment(const char* name, const char* value) {
#ifdef _WIN32
    REQUIRE(_putenv_s(name, value ? value : "") == 0);
#else
    REQUIRE((value ? ::setenv(name, value, 1) : ::unsetenv(name)) == 0);
#endif
}

}  // namespace vkdml_test
