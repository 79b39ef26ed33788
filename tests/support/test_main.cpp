// test_main.cpp — Catch2 runner: synchronization validation on, and the run failed if the validation layer
// ever said anything.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"

#include <cstdio>

int main(int argc, char* argv[]) {
    vkdml_test::enable_synchronization_validation();
    int result = Catch::Session().run(argc, argv);
    // Destroy the device first so that messages emitted at teardown (leaks, ...) are counted.
    vkdml_test::release_test_device();
    const size_t total = vkdml_test::validation_message_total();
    if (total != 0) {
        std::fprintf(stderr, "vkdml_tests: the Vulkan validation layer reported %zu message(s); the first:\n",
                     total);
        for (const std::string& m : vkdml_test::first_validation_messages(8))
            std::fprintf(stderr, "  %s\n", m.c_str());
        if (result == 0) result = 1;
    }
    return result;
}
