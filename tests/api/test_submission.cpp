// MappedBuffer and submit() (vkdml/submission.hpp): chains without a wait, in place, lifetimes, refusals.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/submission.hpp"

#include <cstring>
#include <vector>

using Catch::Matchers::Contains;
using namespace vkdml_test;

namespace {

/// `op` compiled on `dev`; REQUIREs success.
vkdml::CompiledOperator compiled(const vkdml::Device& dev, const vkdml::ops::Operation& op) {
    auto o = dev.create_operator(op.desc());
    REQUIRE(o);
    auto c = dev.compile_operator(*o);
    REQUIRE(c);
    return *c;
}

vkdml::ops::Operation built(vkdml::Result<vkdml::ops::Operation> r) {
    REQUIRE(r);
    return *r;
}

vkdml::MappedBuffer buffer(const vkdml::Device& dev, uint64_t bytes) {
    auto b = vkdml::MappedBuffer::create(dev, bytes);
    REQUIRE(b);
    return *b;
}

/// The temporary buffer `c` needs, or an empty one.
vkdml::MappedBuffer temporary_for(const vkdml::Device& dev, const vkdml::CompiledOperator& c) {
    const uint64_t bytes = c.binding_properties().TemporaryResourceSize;
    return bytes ? buffer(dev, bytes) : vkdml::MappedBuffer();
}

}  // namespace

TEST_CASE("submit chains a cumulative sum into a sum on mapped buffers without a wait between",
          "[gpu][host]") {
    vkdml::Device& dev = test_device();
    const uint32_t n = 300001;  // several chunks: the scan's plan has a temporary buffer
    const auto scan = built(vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT64, {n}}, 0));
    const auto sum =
        built(vkdml::ops::reduce({DML_TENSOR_DATA_TYPE_INT64, {n}}, DML_REDUCE_FUNCTION_SUM, {0}));
    const vkdml::CompiledOperator c_scan = compiled(dev, scan), c_sum = compiled(dev, sum);
    vkdml::MappedBuffer a = buffer(dev, scan.input_bytes()), b = buffer(dev, scan.output_bytes()),
                        total = buffer(dev, sum.output_bytes());
    REQUIRE(a.size() == 8ull * n);
    REQUIRE(a.data().size() == 8ull * n);
    if (dev.info().physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU) CHECK(a.device_local());
    std::vector<int64_t> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = i + 1;
    std::memcpy(a.data().data(), values.data(), 8ull * n);

    REQUIRE(c_scan.binding_properties().TemporaryResourceSize > 0);
    const vkdml::MappedBuffer scan_temp = temporary_for(dev, c_scan), sum_temp = temporary_for(dev, c_sum);
    auto first = vkdml::submit(c_scan, {{a}}, {{b}}, scan_temp);
    REQUIRE(first);
    auto second = vkdml::submit(c_sum, {{b}}, {{total}}, sum_temp);
    REQUIRE(second);
    REQUIRE(second->wait());
    CHECK(second->done());
    REQUIRE(first->wait());
    CHECK(first->done());
    CHECK(first->wait());  // again: the first call's status
    int64_t got = 0;
    std::memcpy(&got, total.data().data(), 8);
    const int64_t N = n;
    CHECK(got == N * (N + 1) * (N + 2) / 6);  // the sum of the triangular numbers T(1) .. T(n)
    int64_t last = 0;
    std::memcpy(&last, b.data().data() + 8ull * (n - 1), 8);
    CHECK(last == N * (N + 1) / 2);
    require_no_validation_messages();
}

TEST_CASE("submit runs a cumulative product in place, and again on its own output", "[gpu][host]") {
    vkdml::Device& dev = test_device();
    const auto scan = built(vkdml::ops::cumulative_product({DML_TENSOR_DATA_TYPE_INT32, {6}}, 0));
    const vkdml::CompiledOperator c = compiled(dev, scan);
    vkdml::MappedBuffer a = buffer(dev, scan.input_bytes());
    const int32_t in[] = {1, 2, 3, 4, 5, -1};
    std::memcpy(a.data().data(), in, sizeof in);
    {
        auto s1 = vkdml::submit(c, {{a}}, {{a}}, temporary_for(dev, c));
        REQUIRE(s1);
        auto s2 = vkdml::submit(c, {{a}}, {{a}}, temporary_for(dev, c));
        REQUIRE(s2);
    }  // destroyed without a wait: each waits for its work first
    const int32_t expected[] = {1, 2, 12, 288, 34560, -4147200};  // 1, 2, 6, 24, 120, -120 scanned again
    int32_t got[6];
    std::memcpy(got, a.data().data(), sizeof got);
    CHECK(std::vector<int32_t>(got, got + 6) == std::vector<int32_t>(expected, expected + 6));
    require_no_validation_messages();
}

TEST_CASE("submit runs vkdml's cumulative maximum and minimum in place, signed", "[gpu][host][selection]") {
    vkdml::Device& dev = test_device();
    const int16_t in[] = {-5, 3, -7, 3, 9, -32768, 2};
    for (const bool maximum : {true, false}) {
        const auto scan =
            built(maximum ? vkdml::ops::cumulative_maximum({DML_TENSOR_DATA_TYPE_INT16, {7}}, 0)
                          : vkdml::ops::cumulative_minimum({DML_TENSOR_DATA_TYPE_INT16, {7}}, 0,
                                                           DML_AXIS_DIRECTION_DECREASING, true));
        const vkdml::CompiledOperator c = compiled(dev, scan);
        vkdml::MappedBuffer a = buffer(dev, scan.input_bytes());
        std::memcpy(a.data().data(), in, sizeof in);
        auto s = vkdml::submit(c, {{a}}, {{a}}, temporary_for(dev, c));
        REQUIRE(s);
        REQUIRE(s->wait());
        int16_t got[7];
        std::memcpy(got, a.data().data(), sizeof got);
        // The running maximum; the reversed exclusive minimum (its first output, the last element's, 32767).
        const std::vector<int16_t> want =
            maximum ? std::vector<int16_t>{-5, 3, 3, 3, 9, 9, 9}
                    : std::vector<int16_t>{-32768, -32768, -32768, -32768, -32768, 2, 32767};
        CHECK(std::vector<int16_t>(got, got + 7) == want);
    }
    require_no_validation_messages();
}

TEST_CASE("a submission keeps its buffers, operator and device alive until it is waited for", "[gpu][host]") {
    std::shared_ptr<vkdml::Device> dev = make_test_device(vkdml::testing::DeviceOverrides{});
    vkdml::MappedBuffer out;
    std::optional<vkdml::Submission> running;
    {
        const auto scan = built(vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_UINT16, {4}}, 0));
        const vkdml::CompiledOperator c = compiled(*dev, scan);
        vkdml::MappedBuffer in = buffer(*dev, scan.input_bytes());
        out = buffer(*dev, scan.output_bytes());
        const uint16_t values[] = {65535, 1, 2, 3};
        std::memcpy(in.data().data(), values, sizeof values);
        auto s = vkdml::submit(c, {{in}}, {{out}}, temporary_for(*dev, c));
        REQUIRE(s);
        running.emplace(std::move(*s));
    }             // the input buffer and the compiled operator: only the submission holds them now
    dev.reset();  // and the device
    REQUIRE(running->wait());
    const uint16_t expected[] = {65535, 0, 2, 5};  // wrapping, as DirectML
    uint16_t got[4];
    std::memcpy(got, out.data().data(), sizeof got);
    CHECK(std::vector<uint16_t>(got, got + 4) == std::vector<uint16_t>(expected, expected + 4));
    vkdml::Submission moved = std::move(*running);
    CHECK(moved.wait());
    auto gone = running->wait();
    REQUIRE_FALSE(gone);
    CHECK(gone.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK_THAT(gone.error().message, Contains("moved-from Submission"));
    CHECK(running->done());
}

TEST_CASE("submit and MappedBuffer::create refuse what they cannot run, naming it", "[gpu][host]") {
    vkdml::Device& dev = test_device();
    const auto scan = built(vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_FLOAT32, {100}}, 0));
    const vkdml::CompiledOperator c = compiled(dev, scan);
    const vkdml::MappedBuffer a = buffer(dev, 400), small = buffer(dev, 396), empty;
    const auto refused = [&](vkdml::Result<vkdml::Submission> r, vkdml::ErrorCode code, const char* text) {
        REQUIRE_FALSE(r);
        CHECK(r.error().code == code);
        CHECK_THAT(r.error().message, Contains(text));
    };
    refused(vkdml::submit(c, {}, {{a}}), vkdml::ErrorCode::invalid_binding,
            "submit: the operator takes 1 input buffer, got 0");
    refused(vkdml::submit(c, {{a}}, {{a, a}}), vkdml::ErrorCode::invalid_binding,
            "submit: the operator takes 1 output buffer, got 2");
    refused(vkdml::submit(c, {{empty}}, {{a}}), vkdml::ErrorCode::invalid_binding,
            "submit: input buffer 0 is empty");
    refused(vkdml::submit(c, {{a}}, {{small}}), vkdml::ErrorCode::invalid_binding,
            "submit: CUMULATIVE_SUMMATION: output binding 0 has size 396 bytes but the tensor needs 400");
    std::shared_ptr<vkdml::Device> other = make_test_device(vkdml::testing::DeviceOverrides{});
    const vkdml::MappedBuffer foreign = buffer(*other, 400);
    refused(vkdml::submit(c, {{a}}, {{foreign}}), vkdml::ErrorCode::invalid_binding,
            "submit: output buffer 0 belongs to another device than the operator's");
    vkdml::CompiledOperator moved_from = c;
    const vkdml::CompiledOperator taker = std::move(moved_from);
    refused(vkdml::submit(moved_from, {{a}}, {{a}}), vkdml::ErrorCode::invalid_argument,
            "submit: a moved-from CompiledOperator");

    auto zero = vkdml::MappedBuffer::create(dev, 0);
    REQUIRE_FALSE(zero);
    CHECK(zero.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK_THAT(zero.error().message, Contains("MappedBuffer::create: 0 bytes"));
    auto huge = vkdml::MappedBuffer::create(dev, dev.info().max_buffer_size + 1);
    REQUIRE_FALSE(huge);
    CHECK(huge.error().code == vkdml::ErrorCode::out_of_memory);
    CHECK_THAT(huge.error().message, Contains("more than this device's maxBufferSize"));
    CHECK(empty.size() == 0);
    CHECK(empty.data().empty());
    CHECK_FALSE(empty.device_local());
    CHECK_FALSE(empty);
    CHECK(a);
    require_no_validation_messages();
}

TEST_CASE("a failed vkQueueSubmit leaves nothing in flight and the next submit runs", "[gpu][host]") {
    std::shared_ptr<vkdml::Device> dev = make_test_device(vkdml::testing::DeviceOverrides{});
    const auto scan = built(vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT8, {3}}, 0));
    const vkdml::CompiledOperator c = compiled(*dev, scan);
    vkdml::MappedBuffer a = buffer(*dev, scan.input_bytes());
    const int8_t in[] = {100, 27, 1};
    std::memcpy(a.data().data(), in, 3);
    vkdml::testing::fail_vulkan_call(*dev, vkdml::testing::VulkanCall::queue_submit,
                                     VK_ERROR_OUT_OF_DEVICE_MEMORY);
    auto failed = vkdml::submit(c, {{a}}, {{a}}, temporary_for(*dev, c));
    REQUIRE_FALSE(failed);
    CHECK(failed.error().code == vkdml::ErrorCode::out_of_memory);
    CHECK_THAT(failed.error().message, Contains("vkQueueSubmit"));
    int8_t got[3];
    std::memcpy(got, a.data().data(), 3);
    CHECK(std::vector<int8_t>(got, got + 3) == std::vector<int8_t>(in, in + 3));  // nothing ran
    auto ran = vkdml::submit(c, {{a}}, {{a}}, temporary_for(*dev, c));
    REQUIRE(ran);
    REQUIRE(ran->wait());
    std::memcpy(got, a.data().data(), 3);
    const int8_t expected[] = {100, 127, -128};
    CHECK(std::vector<int8_t>(got, got + 3) == std::vector<int8_t>(expected, expected + 3));
}
