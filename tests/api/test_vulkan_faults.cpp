// Vulkan faults, made on purpose with vkdml/testing.hpp: out of memory at each allocation of the host
// path, a pipeline or shader module the driver refuses, a lost device. Every call returns its error code
// and a message naming the Vulkan call; nothing aborts; a device that recovers runs the next operator
// exactly; and the validation layer, which reports every Vulkan object still alive when its device is
// destroyed, stays silent, so no failure path leaks a buffer, memory, pool, fence or pipeline.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <string>
#include <vector>

using Catch::Matchers::Contains;
using vkdml::ErrorCode;
using vkdml::testing::VulkanCall;

namespace {

/// A fresh validated device whose messages are collected, and an int32 [2, 200000] cumsum along
/// axis 1: a plan with several passes and a temporary buffer, so the host path makes three buffers.
struct FaultyDevice {
    std::vector<std::string> messages;
    std::shared_ptr<vkdml::Device> dev;
    uint32_t sizes[2] = {2, 200000};
    DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 1600000, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    const DML_OPERATOR_DESC desc{DML_OPERATOR_CUMULATIVE_SUMMATION, &sum};
    std::vector<int32_t> x = std::vector<int32_t>(400000, 1), y = std::vector<int32_t>(400000, 0);

    FaultyDevice() {
        vkdml::DeviceOptions options;
        options.validation = !vkdml_test::validation_layer_waived();
        options.on_validation_message = [this](std::string_view m) { messages.emplace_back(m); };
        auto created = vkdml::Device::create(options);
        INFO((created ? std::string() : created.error().message));
        REQUIRE(created);
        dev = *created;
    }

    vkdml::Status execute() {
        const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
        const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(y))};
        return vkdml::execute(*dev, desc, inputs, outputs);
    }

    /// execute() succeeds and gives 1..200000 on both rows.
    void check_runs() {
        std::fill(y.begin(), y.end(), 0);
        vkdml::Status st = execute();
        INFO((st ? std::string() : st.error().message));
        REQUIRE(st);
        CHECK(y[0] == 1);
        CHECK(y[199999] == 200000);
        CHECK(y[200000] == 1);
        CHECK(y[399999] == 200000);
    }

    /// Destroys the device and REQUIREs that the validation layer said nothing (no leaked object).
    void finish() {
        dev.reset();
        for (const auto& m : messages) UNSCOPED_INFO(m);
        CHECK(messages.empty());
    }
};

void check_error(const vkdml::Status& st, ErrorCode code, const std::string& text) {
    REQUIRE_FALSE(st);
    INFO(st.error().message);
    CHECK(st.error().code == code);
    CHECK_THAT(st.error().message, Contains(text));
}

}  // namespace

TEST_CASE("faults: out of memory at each allocation of the host path", "[gpu][faults]") {
    FaultyDevice f;
    // The host path makes the input, output and temporary buffers in that order; fail each in turn.
    const uint32_t skip = GENERATE(0u, 1u, 2u);
    INFO("buffers made before the failure: " << skip);
    vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::allocate_memory, VK_ERROR_OUT_OF_DEVICE_MEMORY,
                                     skip);
    check_error(f.execute(), ErrorCode::out_of_memory,
                "vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)");
    CHECK_FALSE(f.dev->is_lost());
    f.check_runs();  // the fault was one call; the device is fine
    f.finish();
}

TEST_CASE("faults: every guarded call of the host path reports its VkResult", "[gpu][faults]") {
    struct Case {
        VulkanCall call;
        VkResult result;
        ErrorCode code;
        const char* names;
    };
    const Case c = GENERATE(
        Case{VulkanCall::create_buffer, VK_ERROR_OUT_OF_HOST_MEMORY, ErrorCode::out_of_memory,
             "vkCreateBuffer"},
        Case{VulkanCall::bind_buffer_memory, VK_ERROR_OUT_OF_DEVICE_MEMORY, ErrorCode::out_of_memory,
             "vkBindBufferMemory"},
        Case{VulkanCall::map_memory, VK_ERROR_MEMORY_MAP_FAILED, ErrorCode::vulkan_error, "vkMapMemory"},
        Case{VulkanCall::create_command_pool, VK_ERROR_OUT_OF_HOST_MEMORY, ErrorCode::out_of_memory,
             "vkCreateCommandPool"},
        Case{VulkanCall::allocate_command_buffers, VK_ERROR_OUT_OF_DEVICE_MEMORY, ErrorCode::out_of_memory,
             "vkAllocateCommandBuffers"},
        Case{VulkanCall::create_fence, VK_ERROR_OUT_OF_HOST_MEMORY, ErrorCode::out_of_memory,
             "vkCreateFence"},
        Case{VulkanCall::begin_command_buffer, VK_ERROR_OUT_OF_HOST_MEMORY, ErrorCode::out_of_memory,
             "vkBeginCommandBuffer"},
        Case{VulkanCall::end_command_buffer, VK_ERROR_UNKNOWN, ErrorCode::vulkan_error, "vkEndCommandBuffer"},
        Case{VulkanCall::queue_submit, VK_ERROR_OUT_OF_DEVICE_MEMORY, ErrorCode::out_of_memory,
             "vkQueueSubmit"});
    INFO(static_cast<int>(c.call));
    FaultyDevice f;
    vkdml::testing::fail_vulkan_call(*f.dev, c.call, c.result);
    check_error(f.execute(), c.code, c.names);
    CHECK_FALSE(f.dev->is_lost());
    f.check_runs();
    f.finish();
}

TEST_CASE("faults: a pipeline or shader module the driver refuses fails compile, which can be retried",
          "[gpu][faults]") {
    FaultyDevice f;
    auto op = f.dev->create_operator(f.desc);
    REQUIRE(op);
    SECTION("vkCreateComputePipelines out of memory") {
        vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::create_compute_pipelines,
                                         VK_ERROR_OUT_OF_HOST_MEMORY);
        auto co = f.dev->compile_operator(*op);
        REQUIRE_FALSE(co);
        CHECK(co.error().code == ErrorCode::out_of_memory);
        CHECK_THAT(co.error().message, Contains("vkCreateComputePipelines"));
        CHECK_THAT(co.error().message, Contains("VK_ERROR_OUT_OF_HOST_MEMORY (-1)"));
    }
    SECTION("vkCreateComputePipelines with another error, after the first pipeline") {
        vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::create_compute_pipelines, VK_ERROR_UNKNOWN, 1);
        auto co = f.dev->compile_operator(*op);
        REQUIRE_FALSE(co);
        CHECK(co.error().code == ErrorCode::vulkan_error);
        CHECK_THAT(co.error().message, Contains("vkCreateComputePipelines"));
        CHECK(vkdml::testing::pipeline_count(*f.dev) ==
              1);  // the one made before the failure is kept for reuse
    }
    SECTION("vkCreateShaderModule") {
        vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::create_shader_module,
                                         VK_ERROR_OUT_OF_DEVICE_MEMORY);
        auto co = f.dev->compile_operator(*op);
        REQUIRE_FALSE(co);
        CHECK(co.error().code == ErrorCode::out_of_memory);
        CHECK_THAT(co.error().message, Contains("vkCreateShaderModule"));
        CHECK(vkdml::testing::pipeline_count(*f.dev) == 0);
    }
    auto again = f.dev->compile_operator(*op);
    REQUIRE(again);
    CHECK(vkdml::testing::pipeline_count(*f.dev) == vkdml::pass_count(*again));
    f.check_runs();
    f.finish();
}

TEST_CASE("faults: a lost device fails every later call with device_lost", "[gpu][faults]") {
    FaultyDevice f;
    auto op = f.dev->create_operator(f.desc);
    REQUIRE(op);
    auto co = f.dev->compile_operator(*op);
    REQUIRE(co);
    auto run = vkdml::HostExecution::create(*f.dev, f.desc);
    REQUIRE(run);
    const VulkanCall where = GENERATE(VulkanCall::queue_submit, VulkanCall::wait_for_fences);
    vkdml::testing::fail_vulkan_call(*f.dev, where, VK_ERROR_DEVICE_LOST);
    check_error(run->run(), ErrorCode::device_lost,
                where == VulkanCall::queue_submit ? "vkQueueSubmit"
                                                  : "vkWaitForFences failed with VK_ERROR_DEVICE_LOST");
    REQUIRE(f.dev->is_lost());
    const std::string lost = "device \"" + f.dev->info().physical.name + "\" was lost (VK_ERROR_DEVICE_LOST)";
    check_error(run->run(), ErrorCode::device_lost, lost);
    check_error(f.execute(), ErrorCode::device_lost, lost);
    auto op2 = f.dev->create_operator(f.desc);
    REQUIRE_FALSE(op2);
    CHECK(op2.error().code == ErrorCode::device_lost);
    auto co2 = f.dev->compile_operator(*op);
    REQUIRE_FALSE(co2);
    CHECK(co2.error().code == ErrorCode::device_lost);
    // record refuses before it looks at the command buffer or the bindings.
    VkCommandBuffer never_used = reinterpret_cast<VkCommandBuffer>(uintptr_t(8));
    check_error(co->record(never_used, {}), ErrorCode::device_lost, lost);
    run = vkdml::Error{};  // release the buffers before the device
    f.finish();
}

TEST_CASE("faults: arming is per device, one call at a time, and can be cleared", "[gpu][faults]") {
    FaultyDevice f, other;
    vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::queue_submit, VK_ERROR_OUT_OF_DEVICE_MEMORY, 1);
    other.check_runs();  // another device is not affected
    f.check_runs();      // skipped
    check_error(f.execute(), ErrorCode::out_of_memory, "vkQueueSubmit");
    f.check_runs();  // once only
    vkdml::testing::fail_vulkan_call(*f.dev, VulkanCall::queue_submit, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    vkdml::testing::clear_vulkan_faults(*f.dev);
    f.check_runs();
    f.finish();
    other.finish();
}
