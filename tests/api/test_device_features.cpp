// Device gaps (SPEC §4): a device without 64-bit integers, float64 or 8/16-bit storage, made by
// switching the feature off with testing::DeviceOverrides::features on the test device. The feature query
// names the missing Vulkan feature, operator creation refuses exactly the types that need it, and every other
// type still runs every operator, exactly, without a validation message (so no kernel uses a disabled
// feature).
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "operator_set.hpp"
#include "tensor_data.hpp"
#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <algorithm>
#include <string>
#include <vector>

using Catch::Matchers::Contains;

namespace {

struct Mask {
    const char* feature;  // the Vulkan feature's name, as the messages give it
    void (*switch_off)(vkdml::testing::DeviceOverrides::Features&);
    std::vector<DML_TENSOR_DATA_TYPE> refused;
};

const std::vector<Mask>& masks() {
    static const std::vector<Mask> all = {
        {"shaderInt64",
         [](auto& f) { f.shader_int64 = false; },
         {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}},
        {"shaderFloat64", [](auto& f) { f.shader_float64 = false; }, {DML_TENSOR_DATA_TYPE_FLOAT64}},
        {"storageBuffer8BitAccess",
         [](auto& f) { f.storage_buffer_8bit = false; },
         {DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT8}},
        {"storageBuffer16BitAccess",
         [](auto& f) { f.storage_buffer_16bit = false; },
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_UINT16}},
        {"shaderSubgroupExtendedTypes",
         [](auto& f) { f.subgroup_extended_types = false; },
         {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}},
    };
    return all;
}

bool contains(const std::vector<DML_TENSOR_DATA_TYPE>& v, DML_TENSOR_DATA_TYPE t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}

/// Runs `desc` (one of OperatorSet) on {1, 2, 3, 4} in `type`; returns `count` output elements of `out_type`.
std::vector<double> run_1234(const vkdml::Device& dev, const DML_OPERATOR_DESC& desc,
                             DML_TENSOR_DATA_TYPE type, DML_TENSOR_DATA_TYPE out_type, uint32_t count) {
    vkdml_test::TestTensor in = vkdml_test::make_packed(type, {4});
    vkdml_test::TestTensor out = vkdml_test::make_packed(out_type, {count});
    for (uint64_t i = 0; i < 4; ++i) in.set_double(i, double(i + 1));
    in.bytes.resize(32);  // the TotalTensorSizeInBytes of OperatorSet's tensors
    out.bytes.resize(32);
    const std::span<const std::byte> inputs[] = {in.bytes};
    const std::span<std::byte> outputs[] = {out.bytes};
    vkdml::Status st = vkdml::execute(dev, desc, inputs, outputs);
    INFO(vkdml::to_string(desc.Type) << " on " << vkdml::to_string(type) << ": "
                                     << (st ? std::string() : st.error().message));
    REQUIRE(st);
    std::vector<double> result;
    for (uint64_t i = 0; i < count; ++i) result.push_back(out.get_double(i));
    return result;
}

/// Every operator on {1, 2, 3, 4} in `type` gives its exact answer.
void check_all_run(const vkdml::Device& dev, DML_TENSOR_DATA_TYPE type) {
    vkdml_test::OperatorSet ops(type);
    const auto index = DML_TENSOR_DATA_TYPE_UINT64;
    CHECK(run_1234(dev, {DML_OPERATOR_CUMULATIVE_SUMMATION, &ops.sum}, type, type, 4) ==
          std::vector<double>{1, 3, 6, 10});
    CHECK(run_1234(dev, {DML_OPERATOR_CUMULATIVE_PRODUCT, &ops.product}, type, type, 4) ==
          std::vector<double>{1, 2, 6, 24});
    CHECK(run_1234(dev, {DML_OPERATOR_REDUCE, &ops.reduce}, type, type, 1) == std::vector<double>{4});
    CHECK(run_1234(dev, {DML_OPERATOR_ARGMIN, &ops.argmin}, type, index, 1) == std::vector<double>{0});
    CHECK(run_1234(dev, {DML_OPERATOR_ARGMAX, &ops.argmax}, type, index, 1) == std::vector<double>{3});
}

}  // namespace

TEST_CASE("a device with a feature switched off refuses exactly the types that need it", "[gpu][device]") {
    const size_t which = GENERATE(range<size_t>(0, 5));
    const Mask& mask = masks()[which];
    INFO("switched off: " << mask.feature);
    std::vector<std::string> messages;
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    options.validation = !vkdml_test::validation_layer_waived();
    options.on_validation_message = [&](std::string_view m) { messages.emplace_back(m); };
    mask.switch_off(overrides.features);
    {
        auto created = vkdml::testing::create_device(options, overrides);
        INFO((created ? std::string() : created.error().message));
        REQUIRE(created);
        const vkdml::Device& dev = **created;
        const vkdml::DeviceInfo& info = dev.info();
        CHECK(info.shader_int64 == (which != 0));
        CHECK(info.shader_float64 == (which != 1));
        CHECK(info.storage_buffer_8bit == (which != 2));
        CHECK(info.storage_buffer_16bit == (which != 3));
        CHECK(info.subgroup_extended_types == (which != 4));
        for (DML_TENSOR_DATA_TYPE type : vkdml::all_data_types()) {
            const bool refused = contains(mask.refused, type);
            vkdml_test::OperatorSet ops(type);
            for (const DML_OPERATOR_DESC& desc : ops.all()) {
                INFO(vkdml::to_string(desc.Type) << " on " << vkdml::to_string(type));
                vkdml::TypeSupport s = dev.supports(desc.Type, type);
                CHECK(s.supported == !refused);
                auto op = dev.create_operator(desc);
                if (!refused) {
                    CHECK(s.reason.empty());
                    CHECK(op);
                    continue;
                }
                CHECK_THAT(s.reason, Contains(mask.feature));
                REQUIRE_FALSE(op);
                CHECK(op.error().code == vkdml::ErrorCode::unsupported_device);
                CHECK(op.error().message ==
                      std::string(vkdml::to_string(desc.Type)) + ": InputTensor.DataType " +
                          vkdml::to_string(type) + " needs the Vulkan feature " + mask.feature +
                          ", which device \"" + info.physical.name + "\" does not have enabled");
            }
            if (!refused) check_all_run(dev, type);
        }
    }
    for (const auto& m : messages) UNSCOPED_INFO(m);
    CHECK(messages.empty());
}

TEST_CASE("index outputs need no 64-bit feature: ARGMAX into UINT64 without shaderInt64", "[gpu][device]") {
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    overrides.features.shader_int64 = false;
    overrides.features.subgroup_extended_types = false;
    auto dev = vkdml::testing::create_device(options, overrides);
    REQUIRE(dev);
    vkdml_test::OperatorSet ops(DML_TENSOR_DATA_TYPE_FLOAT32);
    const float x[8] = {3, 9, 1, 9, 0, 0, 0, 0};
    uint64_t index[2] = {77, 77};
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(index))};
    REQUIRE(vkdml::execute(**dev, {DML_OPERATOR_ARGMAX, &ops.argmax}, inputs, outputs));
    CHECK(index[0] == 3);   // DECREASING: the last of the two 9s
    CHECK(index[1] == 77);  // padding of the 16-byte range is left alone
}
