// DeviceOptions::allocation_callbacks: the driver's host memory comes from the application's callbacks,
// and all of it is given back when the device state goes.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/ops.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace vkdml_test;

namespace {

/// A counting allocator: each block is malloc'd with room to align it and a header before the aligned
/// address that holds the malloc'd pointer and the size (portable: no aligned_alloc, which MSVC lacks).
struct Counting {
    std::atomic<int64_t> live{0}, allocations{0}, frees{0};

    struct Header {
        void* base;
        size_t size;
    };
    static void* allocate(size_t size, size_t alignment) {
        if (alignment < alignof(Header)) alignment = alignof(Header);
        void* base = std::malloc(size + alignment + sizeof(Header));
        if (!base) return nullptr;
        const auto start = reinterpret_cast<uintptr_t>(base) + sizeof(Header);
        const uintptr_t aligned = (start + alignment - 1) / alignment * alignment;
        reinterpret_cast<Header*>(aligned)[-1] = Header{base, size};
        return reinterpret_cast<void*>(aligned);
    }
    static Header header(void* p) { return static_cast<Header*>(p)[-1]; }

    static VKAPI_ATTR void* VKAPI_CALL on_allocation(void* user, size_t size, size_t alignment,
                                                     VkSystemAllocationScope) {
        void* p = allocate(size, alignment);
        if (p) {
            ++static_cast<Counting*>(user)->live;
            ++static_cast<Counting*>(user)->allocations;
        }
        return p;
    }
    static VKAPI_ATTR void* VKAPI_CALL on_reallocation(void* user, void* original, size_t size,
                                                       size_t alignment, VkSystemAllocationScope scope) {
        if (!original) return on_allocation(user, size, alignment, scope);
        if (size == 0) {
            on_free(user, original);
            return nullptr;
        }
        void* p = allocate(size, alignment);
        if (!p) return nullptr;
        const Header old = header(original);
        std::memcpy(p, original, old.size < size ? old.size : size);
        std::free(old.base);
        return p;
    }
    static VKAPI_ATTR void VKAPI_CALL on_free(void* user, void* memory) {
        if (!memory) return;
        std::free(header(memory).base);
        --static_cast<Counting*>(user)->live;
        ++static_cast<Counting*>(user)->frees;
    }
    VkAllocationCallbacks callbacks() {
        return VkAllocationCallbacks{this, on_allocation, on_reallocation, on_free, nullptr, nullptr};
    }
};

}  // namespace

TEST_CASE("allocation callbacks receive the driver's host allocations, and every one is freed",
          "[gpu][host]") {
    Counting counting;
    const VkAllocationCallbacks callbacks = counting.callbacks();
    {
        vkdml::DeviceOptions options;
        options.allocation_callbacks = &callbacks;
        std::shared_ptr<vkdml::Device> dev = make_test_device(options);
        const int64_t after_create = counting.allocations.load();
#ifdef _WIN32
        // Wine's winevulkan, the Windows build's CI driver, does not pass callbacks on to the host's driver.
        const bool counted = after_create > 0;
        if (!counted) WARN("this Vulkan implementation makes no allocation through the callbacks");
#else
        const bool counted = true;
        CHECK(after_create > 0);  // the instance and device at least
#endif
        auto op = vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT32, {4}}, 0);
        REQUIRE(op);
        auto run = vkdml::HostExecution::create(*dev, op->desc());
        REQUIRE(run);
        if (counted) CHECK(counting.allocations.load() > after_create);  // pipelines, buffers, command pool
        const int32_t in[] = {1, 2, 3, 4}, expected[] = {1, 3, 6, 10};
        std::memcpy(run->input(0).data(), in, sizeof in);
        REQUIRE(run->run());
        CHECK(std::memcmp(run->output(0).data(), expected, sizeof expected) == 0);
    }  // the device state goes with the last of them
    CHECK(counting.live.load() == 0);
    CHECK(counting.frees.load() == counting.allocations.load());
}
