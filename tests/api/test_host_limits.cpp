// Limits: DeviceOptions::limits, the host path's memory checks before it allocates, HostExecution, and
// descriptors whose offsets no buffer could hold.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"

#include <cstring>
#include <string>
#include <vector>

using Catch::Matchers::Contains;
using namespace vkdml_test;

namespace {

/// HostExecution::create of a 1-D uint8 cumulative sum of n elements.
vkdml::Result<vkdml::HostExecution> cumsum_u8(uint64_t n) {
    const uint32_t sizes[] = {static_cast<uint32_t>(n)};
    DML_BUFFER_TENSOR_DESC b{
        DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, (n + 3) / 4 * 4, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    return vkdml::HostExecution::create(test_device(), {DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
}

}  // namespace

TEST_CASE("DeviceOptions::limits lowers the planning limits and refuses values it cannot honour",
          "[gpu][device]") {
    const vkdml::DeviceInfo& real = test_device().info();
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    overrides.limits = {1024, 8};
    auto limited = vkdml::testing::create_device(options, overrides);
    REQUIRE(limited);
    CHECK((*limited)->info().max_storage_buffer_range == 1024);
    for (uint32_t c : (*limited)->info().max_workgroup_count) CHECK(c == 8);
    {
        // 64 MiB through 1 KiB windows: more dispatches than a pass may have, refused at compile.
        uint32_t sizes[] = {16777216};
        DML_BUFFER_TENSOR_DESC b{
            DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, uint64_t(64) << 20, 0};
        DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
        auto op = (*limited)->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
        REQUIRE(op);
        auto co = (*limited)->compile_operator(*op);
        REQUIRE_FALSE(co);
        CHECK(co.error().code == vkdml::ErrorCode::unsupported_device);
        CHECK_THAT(co.error().message, Contains("would need more than 16384 dispatches through windows of "));
        CHECK_THAT(co.error().message,
                   Contains("too large for this device's maxStorageBufferRange (1024 bytes)"));
    }

    const auto refused = [](vkdml::testing::DeviceOverrides::Limits limits, const std::string& what) {
        vkdml::DeviceOptions o;
        vkdml::testing::DeviceOverrides forced;
        forced.limits = limits;
        auto d = vkdml::testing::create_device(o, forced);
        REQUIRE_FALSE(d);
        CHECK(d.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK_THAT(d.error().message, Contains(what));
    };
    refused({16, 0}, "limits.max_storage_buffer_range is 16; it must be 0 or from 80 to the device's");
    refused({real.max_storage_buffer_range + 1, 0},
            "limits.max_storage_buffer_range is " + std::to_string(real.max_storage_buffer_range + 1));
    refused({0, 1}, "limits.max_workgroup_count is 1; it must be 0 or from 2");
    refused({0, real.max_workgroup_count[0] + 1}, "limits.max_workgroup_count is ");
}

TEST_CASE("execute refuses a host array shorter than its tensor, naming it, and takes a longer one",
          "[gpu][host]") {
    // A cumulative sum of [3, 1000] float32 (12,000 bytes each way) along axis 1.
    const uint32_t sizes[] = {3, 1000};
    DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 12000, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    const DML_OPERATOR_DESC desc{DML_OPERATOR_CUMULATIVE_SUMMATION, &d};
    const auto run = [&](std::vector<float>& x, std::vector<float>& y) {
        const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
        const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(y))};
        return vkdml::execute(test_device(), desc, in, out);
    };
    const auto refused = [&](size_t in_floats, size_t out_floats, const std::string& message) {
        std::vector<float> x(in_floats, 1.0f), y(out_floats, -7.0f);
        const vkdml::Status st = run(x, y);
        REQUIRE_FALSE(st);
        CHECK(st.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK(st.error().message == message);
        CHECK(y == std::vector<float>(out_floats, -7.0f));  // nothing written
    };
    refused(300, 3000,
            "execute: input array 0 holds 1200 bytes; its tensor needs 12000 (TotalTensorSizeInBytes)");
    refused(3000, 2999,
            "execute: output array 0 holds 11996 bytes; its tensor needs 12000 (TotalTensorSizeInBytes)");
    refused(0, 3000, "execute: input array 0 holds 0 bytes; its tensor needs 12000 (TotalTensorSizeInBytes)");
    // Exactly the tensor's bytes, and more: the bytes past the tensor are neither read nor written.
    std::vector<float> x(3002, 1.0f), y(3002, -7.0f);
    REQUIRE(run(x, y));
    for (size_t i = 0; i < 3000; ++i) CHECK(y[i] == float(i % 1000 + 1));
    CHECK(y[3000] == -7.0f);
    CHECK(y[3001] == -7.0f);
    x.resize(3000);
    y.assign(3000, 0.0f);
    REQUIRE(run(x, y));
    CHECK(y[2999] == 1000.0f);
    // Array counts.
    const std::span<const std::byte> none[] = {std::as_bytes(std::span(x))};
    const vkdml::Status counts = vkdml::execute(test_device(), desc, none, {});
    REQUIRE_FALSE(counts);
    CHECK(counts.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(counts.error().message ==
          "execute: CUMULATIVE_SUMMATION takes 1 input and 1 output arrays, got 1 and 0");
}

TEST_CASE("HostExecution refuses buffers the device cannot hold before allocating anything", "[gpu][host]") {
    // (execute() runs such tensors in windows instead: test_host_stream.cpp.)
    const vkdml::DeviceInfo& info = test_device().info();
    const uint64_t one_too_many = std::min(info.max_memory_allocation_size, info.max_buffer_size) + 16;
    if (one_too_many <= 0xFFFFFFFFull) {
        auto run = cumsum_u8(one_too_many);
        REQUIRE_FALSE(run);
        CHECK(run.error().code == vkdml::ErrorCode::out_of_memory);
        CHECK_THAT(run.error().message, Contains("CUMULATIVE_SUMMATION: input 0 needs"));
        CHECK_THAT(run.error().message,
                   Contains(std::to_string(one_too_many) + " bytes, more than this device's max"));
    } else {
        WARN("skipped the single-buffer check: this device's allocations hold more than 2^32 - 1 bytes");
    }
    // Two buffers that each fit and together overflow the heap.
    const uint64_t half_heap = info.host_visible_heap / 2 + 64;
    if (half_heap <= 0xFFFFFFFFull &&
        half_heap <= std::min(info.max_memory_allocation_size, info.max_buffer_size)) {
        auto run = cumsum_u8(half_heap);
        REQUIRE_FALSE(run);
        CHECK(run.error().code == vkdml::ErrorCode::out_of_memory);
        CHECK_THAT(run.error().message,
                   Contains("bytes of host-visible device memory (input 0 " + std::to_string(half_heap) +
                            ", output 0 " + std::to_string(half_heap) + ", the temporary buffer "));
        CHECK_THAT(run.error().message, Contains("more than this device's largest host-visible heap (" +
                                                 std::to_string(info.host_visible_heap) + ")"));
    } else {
        WARN("skipped the heap check: half this device's heap is more than one tensor can be");
    }
    require_no_validation_messages();
}

TEST_CASE("HostExecution maps the buffers, runs, and runs again", "[gpu][host]") {
    const uint32_t sizes[] = {5};
    DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 20, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    auto run = vkdml::HostExecution::create(test_device(), {DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
    REQUIRE(run);
    CHECK(run->input_count() == 1);
    CHECK(run->output_count() == 1);
    REQUIRE(run->input(0).size() == 20);
    REQUIRE(run->output(0).size() == 20);
    CHECK(run->input(1).empty());
    CHECK(run->output(1).empty());
    const int32_t first[] = {1, 2, 3, 4, 5}, second[] = {-1, 10, -100, 1000, 7};
    const int32_t first_sums[] = {1, 3, 6, 10, 15}, second_sums[] = {-1, 9, -91, 909, 916};
    std::memcpy(run->input(0).data(), first, 20);
    REQUIRE(run->run());
    CHECK(std::memcmp(run->output(0).data(), first_sums, 20) == 0);
    std::memcpy(run->input(0).data(), second, 20);
    REQUIRE(run->run());
    CHECK(std::memcmp(run->output(0).data(), second_sums, 20) == 0);
    vkdml::HostExecution moved = std::move(*run);
    std::memcpy(moved.input(0).data(), first, 20);
    REQUIRE(moved.run());
    CHECK(std::memcmp(moved.output(0).data(), first_sums, 20) == 0);

    auto bad = vkdml::HostExecution::create(test_device(), {DML_OPERATOR_CUMULATIVE_SUMMATION, nullptr});
    REQUIRE_FALSE(bad);
    require_no_validation_messages();
}

TEST_CASE("a tensor whose last element lies beyond byte 2^62 is refused without wrapping",
          "[gpu][validation]") {
    // (2^32 - 2) * (2^32 - 1) elements in: DMLCalcBufferTensorSize's 64-bit arithmetic would wrap.
    const uint32_t sizes[] = {0xFFFFFFFFu}, strides[] = {0xFFFFFFFFu};
    DML_BUFFER_TENSOR_DESC in{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, strides, UINT64_MAX, 0};
    DML_BUFFER_TENSOR_DESC out{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 0x3FFFFFFFCull, 0};
    DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &in}, to{DML_TENSOR_TYPE_BUFFER, &out};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&ti, &to, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    auto op = test_device().create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
    REQUIRE_FALSE(op);
    CHECK(op.error().code == vkdml::ErrorCode::invalid_descriptor);
    CHECK_THAT(op.error().message,
               Contains(".Strides {4294967295} with Sizes {4294967295} put the last element "
                        "beyond byte 2^62 (rule 4: no buffer can hold the tensor)"));
}
