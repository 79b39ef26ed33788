// The application-owned path: a VkInstance/VkDevice made by the test itself, adopted by vkdml; the
// test's own buffers and command buffer; binding validation (SPEC §2 rule 9) before recording.
#include "vulkan_app.hpp"  // first: it brings Vulkan's prototypes

#include "operator_set.hpp"

#include <catch2/catch.hpp>

#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using Catch::Matchers::Contains;
using vkdml_test::App;

namespace {

/// int32 cumsum or cumprod over [2, 200000] along axis 1: a multi-pass plan that needs a temporary
/// buffer.
struct LongRows {
    explicit LongRows(DML_OPERATOR_TYPE type)
        : od{type, type == DML_OPERATOR_CUMULATIVE_SUMMATION ? static_cast<const void*>(&sum)
                                                             : static_cast<const void*>(&product)} {}
    uint32_t sizes[2] = {2, 200000};
    DML_BUFFER_TENSOR_DESC b{
        DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 2 * 200000 * 4, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_OPERATOR_DESC od;
};

std::atomic<int> adopter_lookups{0};

/// An application's own vkGetInstanceProcAddr (a layer's, say): counts its lookups, forwards to the loader.
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL counting_get_instance_proc_addr(VkInstance instance,
                                                                         const char* name) {
    ++adopter_lookups;
    return vkGetInstanceProcAddr(instance, name);
}

}  // namespace

TEST_CASE("an adopted device records into the application's command buffer", "[gpu][record]") {
    const DML_OPERATOR_TYPE type =
        GENERATE(as<DML_OPERATOR_TYPE>{}, DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT);
    const bool is_sum = type == DML_OPERATOR_CUMULATIVE_SUMMATION;
    INFO(vkdml::to_string(type));
    App app(true);
    {
        auto dev = app.adopt(true);
        LongRows desc(type);
        auto op = dev->create_operator(desc.od);
        REQUIRE(op);
        auto co = dev->compile_operator(*op);
        REQUIRE(co);
        const uint64_t bytes = desc.b.TotalTensorSizeInBytes;
        const uint64_t temp = co->binding_properties().TemporaryResourceSize;
        REQUIRE(temp > 0);
        // input at offset 0, output at offset bytes + 16 (a multiple of 16, not of the tensor size)
        App::Buffer data = app.buffer(2 * bytes + 16);
        App::Buffer scratch = app.buffer(temp + 32);
        auto* x = static_cast<int32_t*>(data.data);
        // sums of -3..3; products of odd -3..5, which wrap modulo 2^32 again and again
        for (uint32_t i = 0; i < 400000; ++i)
            x[i] = is_sum ? static_cast<int32_t>(i % 7) - 3 : 2 * static_cast<int32_t>(i % 5) - 3;
        vkdml::BufferBinding in = data.bind(0, bytes), out = data.bind(bytes + 16, bytes);
        vkdml::BufferBinding tmp = scratch.bind(32, temp);

        VkCommandBuffer cmd = app.begin();
        vkdml::Status st = co->record(cmd, {{&in, 1}, {&out, 1}, tmp});
        INFO((st ? std::string() : st.error().message));
        REQUIRE(st);
        app.submit(cmd);
        const int32_t* y = reinterpret_cast<const int32_t*>(static_cast<const char*>(data.data) + bytes + 16);
        size_t wrong = 0;
        for (uint32_t r = 0; r < 2; ++r) {
            uint32_t acc = is_sum ? 0 : 1;  // unsigned: wraps modulo 2^32 like two's complement
            for (uint32_t k = 0; k < 200000; ++k) {
                const auto xk = static_cast<uint32_t>(x[r * 200000 + k]);
                acc = is_sum ? acc + xk : acc * xk;
                wrong += static_cast<uint32_t>(y[r * 200000 + k]) != acc;
            }
        }
        CHECK(wrong == 0);

        SECTION("the exact in-place binding is allowed, and runs the in-place pipelines") {
            // The pass that reads the input and writes the output switches to its in-place pipeline (every
            // access through one binding: SPIR-V lets a compiler assume that two bindings never alias), made
            // on the first in-place record and reused after.
            const size_t pipelines = vkdml::testing::pipeline_count(*dev);
            VkCommandBuffer c2 = app.begin();
            // A pipeline the driver cannot make: the record fails whole, names the call, records nothing.
            vkdml::testing::fail_vulkan_call(*dev, vkdml::testing::VulkanCall::create_compute_pipelines,
                                             VK_ERROR_OUT_OF_DEVICE_MEMORY);
            const vkdml::Status failed = co->record(c2, {{&in, 1}, {&in, 1}, tmp});
            REQUIRE_FALSE(failed);
            CHECK(failed.error().code == vkdml::ErrorCode::out_of_memory);
            CHECK_THAT(failed.error().message, Contains("vkCreateComputePipelines"));
            CHECK(vkdml::testing::pipeline_count(*dev) == pipelines);
            REQUIRE(co->record(c2, {{&in, 1}, {&in, 1}, tmp}));
            CHECK(vkdml::testing::pipeline_count(*dev) == pipelines + 1);
            app.submit(c2);
            CHECK(std::memcmp(x, y, bytes) == 0);
            VkCommandBuffer c3 = app.begin();
            REQUIRE(co->record(c3, {{&in, 1}, {&in, 1}, tmp}));
            app.submit(c3);
            CHECK(vkdml::testing::pipeline_count(*dev) == pipelines + 1);
        }
        SECTION("bad bindings are refused before anything is recorded (rule 9)") {
            VkCommandBuffer c3 = app.begin();
            auto fails = [&](const vkdml::Bindings& b, const char* text) {
                vkdml::Status s = co->record(c3, b);
                REQUIRE_FALSE(s);
                CHECK(s.error().code == vkdml::ErrorCode::invalid_binding);
                CHECK_THAT(s.error().message, Contains(text));
            };
            fails({{&in, 1}, {&out, 1}, std::nullopt}, "needs a temporary buffer of");
            vkdml::BufferBinding small_tmp = scratch.bind(32, temp - 4);
            fails(
                {{&in, 1}, {&out, 1}, small_tmp},
                ("temporary binding 0 has size " + std::to_string(temp - 4) + " bytes but the tensor needs " +
                 std::to_string(temp) + " (rule 9: size >= TotalTensorSizeInBytes)")
                    .c_str());
            vkdml::BufferBinding small_out = data.bind(bytes + 16, bytes - 4);
            fails({{&in, 1}, {&small_out, 1}, tmp},
                  ("output binding 0 has size " + std::to_string(bytes - 4) + " bytes but the tensor needs " +
                   std::to_string(bytes))
                      .c_str());
            vkdml::BufferBinding tmp_on_in = data.bind(0, temp);
            fails({{&in, 1}, {&out, 1}, tmp_on_in}, "the temporary buffer overlaps input 0");
            vkdml::BufferBinding odd = data.bind(8, bytes);
            fails({{&odd, 1}, {&out, 1}, tmp}, "input binding 0 has offset 8, not a multiple of 16");
            vkdml::BufferBinding shifted = data.bind(16, bytes);
            fails({{&in, 1}, {&shifted, 1}, tmp}, "overlap");
            vkdml::BufferBinding null_buffer{VK_NULL_HANDLE, 0, bytes, bytes,
                                             VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
            fails({{&null_buffer, 1}, {&out, 1}, tmp}, "null VkBuffer");
            fails({{}, {&out, 1}, tmp}, "got 0 input and 1 output bindings");
            fails({{&in, 1}, {}, tmp}, "got 1 input and 0 output bindings, the operator has 1 and 1");
            App::Buffer transfer_only = app.buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            vkdml::BufferBinding no_storage = transfer_only.bind(0, bytes);
            fails({{&no_storage, 1}, {&out, 1}, tmp},
                  "input binding 0 declares usage 0x2 without VK_BUFFER_USAGE_STORAGE_BUFFER_BIT");
            vkdml::BufferBinding undeclared{data.buffer, 0, bytes, 0, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
            fails({{&in, 1}, {&undeclared, 1}, tmp}, "output binding 0 declares buffer_size 0");
            vkdml::BufferBinding oversized{data.buffer, 0, bytes, 1u << 30,
                                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
            fails({{&oversized, 1}, {&out, 1}, tmp},
                  "input binding 0 declares buffer_size 1073741824 but the buffer needs only");
            const std::string past_end =
                "ends past the buffer's " + std::to_string(2 * bytes + 16) + " bytes";
            vkdml::BufferBinding tail = data.bind(bytes + 32, bytes);
            fails({{&in, 1}, {&tail, 1}, tmp},
                  ("output binding 0 range [" + std::to_string(bytes + 32) + ", " +
                   std::to_string(bytes + 32) + " + " + std::to_string(bytes) + ") " + past_end)
                      .c_str());
            vkdml::BufferBinding far = data.bind(uint64_t(1) << 40, bytes);
            fails({{&far, 1}, {&out, 1}, tmp}, past_end.c_str());
            vkdml::BufferBinding wrapping = data.bind(16, UINT64_MAX - 8);
            fails({{&wrapping, 1}, {&out, 1}, tmp}, past_end.c_str());
            app.free(transfer_only);
            vkdml::BufferBinding tmp_on_out = data.bind(bytes + 16, temp);
            fails({{&in, 1}, {&out, 1}, tmp_on_out}, "temporary buffer overlaps output 0");
            vkdml::Status null_cmd = co->record(VK_NULL_HANDLE, {{&in, 1}, {&out, 1}, tmp});
            REQUIRE_FALSE(null_cmd);
            CHECK(null_cmd.error().code == vkdml::ErrorCode::invalid_argument);
            REQUIRE(vkEndCommandBuffer(c3) == VK_SUCCESS);
            vkFreeCommandBuffers(app.device, app.pool, 1, &c3);
        }
        app.free(data);
        app.free(scratch);
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("an adopted device records reductions, split into passes, and refuses in-place bindings",
          "[gpu][record]") {
    App app(true);
    {
        auto dev = app.adopt(true);
        // [2, 200000] int32 over axis 1: chunk states in the temporary buffer, then further passes.
        uint32_t in_sizes[] = {2, 200000}, out_sizes[] = {2, 1};
        const uint32_t axis[] = {1};
        DML_BUFFER_TENSOR_DESC bi{
            DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, in_sizes, nullptr, 1600000, 0};
        DML_BUFFER_TENSOR_DESC bo{
            DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, out_sizes, nullptr, 8, 0};
        DML_BUFFER_TENSOR_DESC bx{
            DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_FLAG_NONE, 2, out_sizes, nullptr, 16, 0};
        DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &bi}, to{DML_TENSOR_TYPE_BUFFER, &bo},
            tx{DML_TENSOR_TYPE_BUFFER, &bx};
        const DML_REDUCE_OPERATOR_DESC sum{DML_REDUCE_FUNCTION_SUM, &ti, &to, 1, axis};
        const DML_ARGMAX_OPERATOR_DESC argmax{&ti, &tx, 1, axis, DML_AXIS_DIRECTION_DECREASING};
        auto sum_op = dev->compile_operator(*dev->create_operator({DML_OPERATOR_REDUCE, &sum}));
        auto arg_op = dev->compile_operator(*dev->create_operator({DML_OPERATOR_ARGMAX, &argmax}));
        REQUIRE(sum_op);
        REQUIRE(arg_op);
        CHECK(vkdml::pass_count(*sum_op) >= 2);
        const uint64_t temp = std::max(sum_op->binding_properties().TemporaryResourceSize,
                                       arg_op->binding_properties().TemporaryResourceSize);
        REQUIRE(sum_op->binding_properties().TemporaryResourceSize > 0);
        App::Buffer data = app.buffer(1600000 + 64);
        const uint64_t second = (temp + 255) / 256 * 256;
        App::Buffer scratch = app.buffer(second + temp);
        auto* x = static_cast<int32_t*>(data.data);
        // Row 0: 0x40000000 * k wraps; row 1: small values whose maximum 7 appears many times.
        uint32_t expected_sum[2] = {0, 0};
        for (uint32_t i = 0; i < 400000; ++i) {
            x[i] = i < 200000 ? static_cast<int32_t>(0x40000000u * (i % 4)) : static_cast<int32_t>(i % 8);
            expected_sum[i / 200000] += static_cast<uint32_t>(x[i]);
        }
        vkdml::BufferBinding in = data.bind(0, 1600000), sums = data.bind(1600000, 16),
                             idx = data.bind(1600016, 16);
        vkdml::BufferBinding tmp = scratch.bind(0, temp), tmp2 = scratch.bind(second, temp);
        VkCommandBuffer cmd = app.begin();
        REQUIRE(sum_op->record(cmd, {{&in, 1}, {&sums, 1}, tmp}));
        // No barrier between the two operators: each has its own scratch region.
        REQUIRE(arg_op->record(cmd, {{&in, 1}, {&idx, 1}, tmp2}));
        app.submit(cmd);
        const auto* base = static_cast<const char*>(data.data);
        int32_t got_sum[2];
        uint64_t got_idx[2];
        std::memcpy(got_sum, base + 1600000, 8);
        std::memcpy(got_idx, base + 1600016, 16);
        CHECK(static_cast<uint32_t>(got_sum[0]) == expected_sum[0]);
        CHECK(static_cast<uint32_t>(got_sum[1]) == expected_sum[1]);
        CHECK(got_idx[0] == 199997);  // the last 0x40000000, the int32 maximum (0xC0000000 is negative)
        CHECK(got_idx[1] == 199999);  // the last 7: 200000 + 199999 has i % 8 == 7
        vkdml::BufferBinding overlapping = data.bind(0, 16);
        VkCommandBuffer c2 = app.begin();
        vkdml::Status st = sum_op->record(c2, {{&in, 1}, {&overlapping, 1}, tmp});
        REQUIRE_FALSE(st);
        CHECK(st.error().code == vkdml::ErrorCode::invalid_binding);
        CHECK_THAT(st.error().message, Contains("overlap"));
        // Even a copy (AxisCount 0, equal strides) on the byte-identical range: only scans run in place.
        DML_REDUCE_OPERATOR_DESC copy{DML_REDUCE_FUNCTION_SUM, &ti, &ti, 0, nullptr};
        auto copy_op = dev->compile_operator(*dev->create_operator({DML_OPERATOR_REDUCE, &copy}));
        REQUIRE(copy_op);
        vkdml::Status same = copy_op->record(c2, {{&in, 1}, {&in, 1}, std::nullopt});
        REQUIRE_FALSE(same);
        CHECK_THAT(same.error().message, Contains("only the cumulative operators run in place"));
        REQUIRE(vkEndCommandBuffer(c2) == VK_SUCCESS);
        vkFreeCommandBuffers(app.device, app.pool, 1, &c2);
        app.free(data);
        app.free(scratch);
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("an adopted device without optional features refuses the types that need them", "[gpu][record]") {
    App app(false);
    {
        auto dev = app.adopt(false);
        struct Case {
            DML_TENSOR_DATA_TYPE type;
            const char* feature;
        };
        for (Case c : {Case{DML_TENSOR_DATA_TYPE_INT8, "storageBuffer8BitAccess"},
                       Case{DML_TENSOR_DATA_TYPE_UINT8, "storageBuffer8BitAccess"},
                       Case{DML_TENSOR_DATA_TYPE_FLOAT16, "storageBuffer16BitAccess"},
                       Case{DML_TENSOR_DATA_TYPE_INT16, "storageBuffer16BitAccess"},
                       Case{DML_TENSOR_DATA_TYPE_FLOAT64, "shaderFloat64"},
                       Case{DML_TENSOR_DATA_TYPE_INT64, "shaderInt64"},
                       Case{DML_TENSOR_DATA_TYPE_UINT64, "shaderInt64"}}) {
            vkdml_test::OperatorSet ops(c.type);
            for (const DML_OPERATOR_DESC& desc : ops.all()) {
                INFO(vkdml::to_string(desc.Type) << " " << vkdml::to_string(c.type));
                vkdml::TypeSupport s = dev->supports(desc.Type, c.type);
                CHECK_FALSE(s.supported);
                CHECK_THAT(s.reason, Contains(c.feature));
                auto op = dev->create_operator(desc);
                REQUIRE_FALSE(op);
                CHECK(op.error().code == vkdml::ErrorCode::unsupported_device);
                CHECK_THAT(op.error().message, Contains(c.feature));
                CHECK_THAT(op.error().message, Contains("InputTensor.DataType"));
                CHECK_THAT(op.error().message, Contains(vkdml::to_string(desc.Type)));
            }
        }
        for (DML_TENSOR_DATA_TYPE t :
             {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32}) {
            for (DML_OPERATOR_TYPE op : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT,
                                         DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX})
                CHECK(dev->supports(op, t).supported);
        }
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE(
    "an adopted device requires full subgroups only where the application enabled subgroup size control",
    "[gpu][record][subgroups]") {
    for (bool rich : {true, false}) {
        INFO((rich ? "subgroupSizeControl and computeFullSubgroups enabled" : "no optional features"));
        App app(rich);
        {
            auto dev = app.adopt(rich);
            const bool offered = app.has_extension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
            CHECK(dev->info().full_subgroups == (rich && offered));
            if (dev->info().physical.driver_name == "llvmpipe") CHECK(offered);
        }
        for (const auto& m : app.messages) UNSCOPED_INFO(m);
        CHECK(app.messages.empty());
    }
}

TEST_CASE("an adopter's vkGetInstanceProcAddr serves only its device: vkdml's own instances use the loader's",
          "[gpu][record]") {
    REQUIRE(vkdml::Device::enumerate());  // the loader is loaded before the adoption, whatever ran first
    App app(true);
    {
        auto adopted = vkdml::Device::adopt(app.instance, app.physical, app.device, app.family, app.queue,
                                            counting_get_instance_proc_addr, &app.features);
        REQUIRE(adopted);
        const int after_adopt = adopter_lookups;
        CHECK(after_adopt > 0);
        auto created = vkdml::Device::create();
        REQUIRE(created);
        REQUIRE(vkdml::Device::enumerate());
        CHECK(adopter_lookups == after_adopt);
        // Both still run an operator.
        uint32_t sizes[] = {4};
        DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
        DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
        const DML_OPERATOR_DESC od{DML_OPERATOR_CUMULATIVE_SUMMATION, &sum};
        for (const auto& dev : {*adopted, *created}) {
            int32_t x[4] = {1, 2, 3, 4}, y[4] = {};
            const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
            const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(y))};
            REQUIRE(vkdml::execute(*dev, od, in, out));
            CHECK(std::vector<int32_t>(y, y + 4) == std::vector<int32_t>{1, 3, 6, 10});
        }
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("adopt refuses null handles", "[gpu][record]") {
    auto r = vkdml::Device::adopt(VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, nullptr,
                                  nullptr);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::invalid_argument);
}

TEST_CASE("adopt refuses a device without VK_KHR_push_descriptor enabled or a bad queue family",
          "[gpu][record]") {
    App app(true, false);
    {
        auto r = vkdml::Device::adopt(app.instance, app.physical, app.device, app.family, app.queue,
                                      vkGetInstanceProcAddr, &app.features);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == vkdml::ErrorCode::unsupported_device);
        CHECK_THAT(r.error().message, Contains("without VK_KHR_push_descriptor enabled"));
        auto bad_family = vkdml::Device::adopt(app.instance, app.physical, app.device, 1000, app.queue,
                                               vkGetInstanceProcAddr, &app.features);
        REQUIRE_FALSE(bad_family);
        CHECK(bad_family.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK_THAT(bad_family.error().message, Contains("queue family 1000"));
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("adopt refuses an instance created for Vulkan 1.1", "[gpu][record]") {
    // The physical device has 1.2 (lavapipe: 1.3); the application asked for 1.1 (VkApplicationInfo), so the
    // 1.2 commands and structures vkdml uses are not available on its handles.
    App app(false, true, VK_API_VERSION_1_1);
    {
        auto r = vkdml::Device::adopt(app.instance, app.physical, app.device, app.family, app.queue,
                                      vkGetInstanceProcAddr, &app.features);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == vkdml::ErrorCode::unsupported_device);
        CHECK(r.error().message ==
              "Device::adopt: the device offers no Vulkan 1.2 command (vkGetDeviceProcAddr gives none for "
              "vkGetSemaphoreCounterValue): the application's instance was created for Vulkan 1.1 or lower "
              "(VkApplicationInfo::apiVersion); vkdml needs VK_API_VERSION_1_2 or later there");
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("a binding larger than maxStorageBufferRange is fine for a small tensor", "[gpu][record]") {
    App app(true);
    {
        auto dev = app.adopt(true);
        const VkDeviceSize big = dev->info().max_storage_buffer_range + 4096;
        uint32_t sizes[] = {5};
        DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 20, 0};
        DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
        auto op = dev->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
        REQUIRE(op);
        auto co = dev->compile_operator(*op);
        REQUIRE(co);
        App::Buffer in_buf = app.buffer(big);
        App::Buffer out_buf = app.buffer(64);
        auto* x = static_cast<uint32_t*>(in_buf.data);
        for (uint32_t i = 0; i < 5; ++i) x[i] = i + 1;
        vkdml::BufferBinding in = in_buf.bind(0, big), out = out_buf.bind(16, 48);
        VkCommandBuffer cmd = app.begin();
        vkdml::Status st = co->record(cmd, {{&in, 1}, {&out, 1}, std::nullopt});
        INFO((st ? std::string() : st.error().message));
        REQUIRE(st);
        app.submit(cmd);
        const auto* y = reinterpret_cast<const uint32_t*>(static_cast<const char*>(out_buf.data) + 16);
        CHECK(std::vector<uint32_t>(y, y + 5) == std::vector<uint32_t>{1, 3, 6, 10, 15});
        app.free(in_buf);
        app.free(out_buf);
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("record refuses in place with different strides and offsets below the declared alignment",
          "[gpu][record]") {
    App app(true);
    {
        auto dev = app.adopt(true);
        uint32_t sizes[] = {2, 3}, column_major[] = {1, 2};
        DML_BUFFER_TENSOR_DESC in{
            DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 24, 64};
        DML_BUFFER_TENSOR_DESC out{
            DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, column_major, 24, 0};
        DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &in}, to{DML_TENSOR_TYPE_BUFFER, &out};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&ti, &to, 1, DML_AXIS_DIRECTION_INCREASING, 0};
        auto op = dev->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
        REQUIRE(op);
        auto co = dev->compile_operator(*op);
        REQUIRE(co);
        App::Buffer data = app.buffer(256);
        VkCommandBuffer cmd = app.begin();
        auto refuses = [&](vkdml::BufferBinding a, vkdml::BufferBinding b, const std::string& text) {
            vkdml::Status st = co->record(cmd, {{&a, 1}, {&b, 1}, std::nullopt});
            REQUIRE_FALSE(st);
            CHECK(st.error().code == vkdml::ErrorCode::invalid_binding);
            CHECK_THAT(st.error().message, Contains(text));
        };
        // Byte-identical ranges, but the output is column-major: not the in-place case.
        refuses(data.bind(0, 24), data.bind(0, 24),
                "CUMULATIVE_SUMMATION: input 0 [0, +24) and output 0 [0, +24) overlap (rule 9: only the "
                "cumulative operators run in place, on byte-identical ranges with equal strides)");
        // The input promises 64-byte alignment (GuaranteedBaseOffsetAlignment), the output the default 16.
        refuses(data.bind(16, 24), data.bind(128, 24),
                "input binding 0 has offset 16, not a multiple of 64 (rule 9");
        refuses(data.bind(64, 24), data.bind(136, 24),
                "output binding 0 has offset 136, not a multiple of 16");
        vkdml::BufferBinding a = data.bind(64, 24), b = data.bind(128, 24);
        CHECK(co->record(cmd, {{&a, 1}, {&b, 1}, std::nullopt}));
        REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
        vkFreeCommandBuffers(app.device, app.pool, 1, &cmd);
        app.free(data);
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}

TEST_CASE("Device::vulkan gives the adopted handles, and record writes a timestamp after each pass",
          "[gpu][record]") {
    App app(true);
    {
        auto dev = app.adopt(true);
        const vkdml::VulkanHandles h = dev->vulkan();
        CHECK(h.instance == app.instance);
        CHECK(h.physical_device == app.physical);
        CHECK(h.device == app.device);
        CHECK(h.queue == app.queue);
        CHECK(h.queue_family_index == app.family);
        CHECK(h.get_instance_proc_addr == vkGetInstanceProcAddr);
        {
            auto lock = dev->lock_queue();
            CHECK(lock.owns_lock());
        }

        // A float32 cumsum of 2 x 300000 along axis 1: several passes (the CPU rows: partials, their scan,
        // the scan; the GPU rows: the tile states zeroed, then one chained pass).
        uint32_t sizes[] = {2, 300000};
        DML_BUFFER_TENSOR_DESC b{
            DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, 2400000, 0};
        DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
        auto op = dev->compile_operator(*dev->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &sum}));
        REQUIRE(op);
        const uint32_t passes = vkdml::pass_count(*op);
        REQUIRE(passes >= 2);
        App::Buffer data = app.buffer(2 * 2400000);
        App::Buffer scratch = app.buffer(op->binding_properties().TemporaryResourceSize);
        auto* x = static_cast<float*>(data.data);
        for (uint32_t i = 0; i < 600000; ++i) x[i] = 1.0f;
        vkdml::BufferBinding in = data.bind(0, 2400000), out = data.bind(2400000, 2400000);
        vkdml::BufferBinding tmp = scratch.bind(0, op->binding_properties().TemporaryResourceSize);

        VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = passes + 2;
        VkQueryPool pool = VK_NULL_HANDLE;
        REQUIRE(vkCreateQueryPool(app.device, &qi, nullptr, &pool) == VK_SUCCESS);
        VkCommandBuffer cmd = app.begin();
        vkCmdResetQueryPool(cmd, pool, 0, passes + 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 1);
        REQUIRE(vkdml::record(*op, cmd, {{&in, 1}, {&out, 1}, tmp}, vkdml::PassTimestamps{pool, 2}));
        app.submit(cmd);
        // Queries 1 .. passes + 1 were written, in order; query 0 never was.
        std::vector<uint64_t> stamps(2 * (passes + 1));
        CHECK(vkGetQueryPoolResults(app.device, pool, 1, passes + 1, stamps.size() * 8, stamps.data(), 16,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ==
              VK_SUCCESS);
        for (uint32_t q = 0; q <= passes; ++q) {
            INFO("query " << q + 1);
            CHECK(stamps[2 * q + 1] == 1);                           // available
            if (q > 0) CHECK(stamps[2 * q] >= stamps[2 * (q - 1)]);  // after the one before
        }
        uint64_t first[2] = {0, 0};
        CHECK(vkGetQueryPoolResults(app.device, pool, 0, 1, sizeof first, first, 16,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ==
              VK_NOT_READY);
        CHECK(first[1] == 0);
        const auto* y = static_cast<const float*>(data.data) + 600000;
        CHECK(y[0] == 1.0f);
        CHECK(y[299999] == 300000.0f);
        CHECK(y[300000] == 1.0f);
        CHECK(y[599999] == 300000.0f);
        vkDestroyQueryPool(app.device, pool, nullptr);
        app.free(data);
        app.free(scratch);
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}
