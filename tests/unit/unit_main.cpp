// The device-free unit test program: the planning core (lowering, blocks, policies, planners, windows,
// the kernel ABI) without a Vulkan device. Runs in seconds.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
