// Device selection, the feature query, and pipeline reuse across operators.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "os_support.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/testing.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using Catch::Matchers::Contains;

TEST_CASE("enumerate lists the Vulkan devices", "[gpu][device]") {
    auto devices = vkdml::Device::enumerate();
    REQUIRE(devices);
    REQUIRE_FALSE(devices->empty());
    for (uint32_t i = 0; i < devices->size(); ++i) {
        CHECK((*devices)[i].index == i);
        CHECK_FALSE((*devices)[i].name.empty());
    }
}

TEST_CASE("devices are chosen by index, by name, or by VKDML_DEVICE", "[gpu][device]") {
    auto devices = vkdml::Device::enumerate();
    REQUIRE(devices);
    const std::string name = (*devices)[0].name;

    auto by_index = vkdml::Device::create({"0"});
    REQUIRE(by_index);
    CHECK((*by_index)->info().physical.name == name);

    auto by_name = vkdml::Device::create({name.substr(0, 4)});
    REQUIRE(by_name);
    CHECK((*by_name)->info().physical.name.find(name.substr(0, 4)) != std::string::npos);

    auto missing = vkdml::Device::create({"no-such-gpu-xyz"});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == vkdml::ErrorCode::no_device);
    CHECK_THAT(missing.error().message, Contains("no Vulkan device matches \"no-such-gpu-xyz\""));
    CHECK_THAT(missing.error().message, Contains(name));

    auto out_of_range = vkdml::Device::create({"99"});
    REQUIRE_FALSE(out_of_range);
    CHECK(out_of_range.error().code == vkdml::ErrorCode::no_device);
    CHECK_THAT(out_of_range.error().message, Contains("device index 99 is out of range"));

    vkdml_test::set_environment("VKDML_DEVICE", "no-such-gpu-env");
    auto from_env = vkdml::Device::create();
    vkdml_test::set_environment("VKDML_DEVICE", nullptr);
    REQUIRE_FALSE(from_env);
    CHECK_THAT(from_env.error().message, Contains("no-such-gpu-env"));
}

#ifndef _WIN32  // (Wine's Vulkan loader is Windows': it does not read VK_DRIVER_FILES alike)
TEST_CASE("no Vulkan driver at all: create and enumerate give no_device, saying what to install",
          "[gpu][device]") {
    const char* previous = std::getenv("VK_DRIVER_FILES");
    const std::string kept = previous ? previous : "";
    vkdml_test::set_environment("VK_DRIVER_FILES", "/nonexistent");  // the loader finds no driver
    auto device = vkdml::Device::create();
    auto devices = vkdml::Device::enumerate();
    vkdml_test::set_environment("VK_DRIVER_FILES", previous ? kept.c_str() : nullptr);
    const std::string message =
        "no Vulkan driver was found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); install one: "
        "mesa-vulkan-drivers for the lavapipe CPU device, or your GPU's driver (and check VK_DRIVER_FILES or "
        "VK_ICD_FILENAMES, if set)";
    REQUIRE_FALSE(device);
    CHECK(device.error().code == vkdml::ErrorCode::no_device);
    CHECK(device.error().message == message);
    REQUIRE_FALSE(devices);
    CHECK(devices.error().code == vkdml::ErrorCode::no_device);
    CHECK(devices.error().message == message);
    CHECK(vkdml::Device::create());  // the driver is found again
}
#endif

TEST_CASE("the device reports its limits", "[gpu][device]") {
    const vkdml::DeviceInfo& info = vkdml_test::test_device().info();
    CHECK(info.subgroup_size >= 1);
    CHECK(info.subgroup_arithmetic);
    CHECK(info.max_storage_buffer_range >= 1u << 27);
    CHECK(info.max_workgroup_count[0] >= 65535);
    CHECK(info.max_push_constants_bytes >= 128);
    // Vulkan 1.3 minimums (maxBufferSize 2^30) or UINT64_MAX before 1.3; a host-visible heap exists.
    CHECK(info.max_buffer_size >= 1u << 30);
    CHECK(info.host_visible_heap > 0);
}

TEST_CASE("policy_rows names the rows the device plans with, as its plans' headers do", "[gpu][device]") {
    using Class = vkdml::testing::DeviceOverrides::PolicyClass;
    using vkdml::KernelChoice;
    const vkdml::DeviceInfo& info = vkdml_test::test_device().info();
    // Without full subgroups of a varying size, every row plans with the serial kernels.
    const bool whole = info.full_subgroups || info.min_subgroup_size == info.max_subgroup_size;
    const std::string own_class = info.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU ? "cpu" : "gpu";
    const std::string own_family = own_class == "cpu" || !whole ? "serial" : "cooperative";
    const struct {
        KernelChoice kernels;
        Class rows;
        std::string name;
    } cases[] = {{KernelChoice::automatic, Class::automatic, own_family + "-" + own_class},
                 {KernelChoice::automatic, Class::cpu, "serial-cpu"},
                 {KernelChoice::cooperative, Class::cpu, whole ? "cooperative-cpu" : "serial-cpu"},
                 {KernelChoice::automatic, Class::gpu, whole ? "cooperative-gpu" : "serial-gpu"},
                 {KernelChoice::serial, Class::gpu, "serial-gpu"}};
    const vkdml::ops::TensorDesc t{DML_TENSOR_DATA_TYPE_FLOAT32, {4, 5}, {}};
    const auto cumsum = vkdml::ops::cumulative_sum(t, 1, DML_AXIS_DIRECTION_INCREASING, false);
    REQUIRE(cumsum);
    for (const auto& c : cases) {
        INFO(c.name);
        const auto dev = vkdml_test::make_test_device(c.kernels, c.rows);
        CHECK(dev->policy_rows() == c.name);
        CHECK_THAT(vkdml_test::compiled_plan(*dev, cumsum->desc()),
                   Contains("CUMULATIVE_SUMMATION FLOAT32 {4,5}: " + c.name + " rows"));
    }
}

TEST_CASE("feature query: every operator supports all 11 types here", "[gpu][device]") {
    vkdml::Device& dev = vkdml_test::test_device();
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT,
                                 DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
        for (DML_TENSOR_DATA_TYPE t : vkdml::all_data_types()) {
            vkdml::TypeSupport s = dev.supports(op, t);
            INFO(vkdml::to_string(op) << " " << vkdml::to_string(t) << ": " << s.reason);
            CHECK(s.supported);
            CHECK(s.reason.empty());
        }
        vkdml::TypeSupport unknown = dev.supports(op, DML_TENSOR_DATA_TYPE_UNKNOWN);
        CHECK_FALSE(unknown.supported);
        CHECK_THAT(unknown.reason, Contains("data type 0"));
    }
    vkdml::TypeSupport other = dev.supports(static_cast<DML_OPERATOR_TYPE>(56), DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK_FALSE(other.supported);
    CHECK_THAT(other.reason, Contains("INVALID (56) is not implemented"));
}

TEST_CASE("pipelines are created once per key and shared by operators", "[gpu][device]") {
    // The CPU policy rows and the serial family on any device, so the pass counts below hold everywhere (the
    // GPU rows cut a row of 200,000 into chunks of at most 512 positions: two carry levels, five passes).
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    overrides.policy_class = vkdml::testing::DeviceOverrides::PolicyClass::cpu;
    overrides.kernels = vkdml::KernelChoice::serial;
    auto dev = vkdml::testing::create_device(options, overrides);
    REQUIRE(dev);
    auto compile = [&](uint32_t rows, uint32_t cols,
                       DML_OPERATOR_TYPE type = DML_OPERATOR_CUMULATIVE_SUMMATION) {
        uint32_t sizes[] = {rows, cols};
        DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_INT16,
                                 DML_TENSOR_FLAG_NONE,
                                 2,
                                 sizes,
                                 nullptr,
                                 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_INT16, 2, sizes, nullptr),
                                 0};
        DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
        const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product{&t, &t, 1, DML_AXIS_DIRECTION_INCREASING, 0};
        auto op = (*dev)->create_operator({type, type == DML_OPERATOR_CUMULATIVE_SUMMATION
                                                     ? static_cast<const void*>(&sum)
                                                     : static_cast<const void*>(&product)});
        REQUIRE(op);
        auto co = (*dev)->compile_operator(*op);
        REQUIRE(co);
        return *co;
    };
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 0);
    auto a = compile(3, 5);  // short rows: one serial pass
    CHECK(vkdml::pass_count(a) == 1);
    CHECK(a.binding_properties().TemporaryResourceSize == 0);
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 1);
    compile(7, 9);  // same kernel, type and constants (rows of odd lengths: element by element): reused
    compile(100, 7);
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 1);
    auto b = compile(2, 200000);  // long rows: reduce, scan of partials, scan with carry
    CHECK(vkdml::pass_count(b) == 3);
    CHECK(b.binding_properties().TemporaryResourceSize > 0);
    CHECK(b.binding_properties().PersistentResourceSize == 0);
    size_t after_long = vkdml::testing::pipeline_count(*(*dev));
    CHECK(after_long > 1);
    compile(2, 200000);  // another operator of the same shape: its pipelines are reused
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == after_long);
    // The product runs the same kernels and plan with the operation as a specialization constant:
    // the same passes, one new pipeline per (kernel, constants) key, none for a repeat.
    auto p = compile(2, 200000, DML_OPERATOR_CUMULATIVE_PRODUCT);
    CHECK(vkdml::pass_count(p) == vkdml::pass_count(b));
    CHECK(p.binding_properties().TemporaryResourceSize == b.binding_properties().TemporaryResourceSize);
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 2 * after_long - 1);
    compile(3, 5, DML_OPERATOR_CUMULATIVE_PRODUCT);
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 2 * after_long);
    compile(2, 200000, DML_OPERATOR_CUMULATIVE_PRODUCT);
    CHECK(vkdml::testing::pipeline_count(*(*dev)) == 2 * after_long);
}

TEST_CASE("pipeline cache data: one device's seeds the next; foreign bytes are ignored", "[gpu][device]") {
    // Compiles a cumsum on `dev`; returns the cache bytes after it.
    const auto compile_cumsum = [](const vkdml::Device& dev) {
        vkdml::PackedTensorDesc t(DML_TENSOR_DATA_TYPE_FLOAT32, {4, 300});
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{t.desc(), t.desc(), 1, DML_AXIS_DIRECTION_INCREASING,
                                                         0};
        auto op = dev.create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &sum});
        REQUIRE(op);
        REQUIRE(dev.compile_operator(*op));
        auto data = dev.pipeline_cache_data();
        REQUIRE(data);
        return *data;
    };
    auto first = vkdml_test::make_test_device(vkdml::DeviceOptions{});
    CHECK_FALSE(first->pipeline_cache_seeded());
    const std::vector<std::byte> saved = compile_cumsum(*first);
    // VkPipelineCacheHeaderVersionOne of this device: its length and version first.
    REQUIRE(saved.size() >= 32);
    uint32_t header[2];
    std::memcpy(header, saved.data(), sizeof header);
    CHECK(header[0] >= 32);
    CHECK(header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE);

    vkdml::DeviceOptions seeded;
    seeded.pipeline_cache_data = saved;
    auto second = vkdml_test::make_test_device(seeded);
    CHECK(second->pipeline_cache_seeded());
    CHECK(compile_cumsum(*second).size() >= 32);

    // Another device's or driver's cache (here: its UUID changed), a header alone cut short, and bytes
    // of no cache at all are ignored: an empty cache, and the device works.
    for (size_t variant = 0; variant < 3; ++variant) {
        INFO("variant " << variant);
        vkdml::DeviceOptions foreign;
        foreign.pipeline_cache_data = saved;
        if (variant == 0) foreign.pipeline_cache_data[16] ^= std::byte{0xff};  // pipelineCacheUUID[0]
        if (variant == 1) foreign.pipeline_cache_data.resize(31);
        if (variant == 2) foreign.pipeline_cache_data.assign(64, std::byte{0x5a});
        auto other = vkdml_test::make_test_device(foreign);
        CHECK_FALSE(other->pipeline_cache_seeded());
        CHECK(compile_cumsum(*other).size() >= 32);
    }
    vkdml_test::require_no_validation_messages();
}

TEST_CASE("compile_operator checks its flags and device", "[gpu][device]") {
    uint32_t sizes[] = {4};
    DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 16, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    vkdml::Device& dev = vkdml_test::test_device();
    auto op = dev.create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
    REQUIRE(op);
    CHECK(dev.compile_operator(*op, DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION));
    DML_EXECUTION_FLAGS unknown_bit;
    const uint32_t raw = 0x9;
    std::memcpy(&unknown_bit, &raw, sizeof raw);
    auto bad = dev.compile_operator(*op, unknown_bit);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK_THAT(bad.error().message, Contains("unknown bits"));
    auto other = vkdml::Device::create();
    REQUIRE(other);
    auto foreign = (*other)->compile_operator(*op);
    REQUIRE_FALSE(foreign);
    CHECK_THAT(foreign.error().message, Contains("another device"));
}

TEST_CASE("a validation device outlives other instances made after it", "[gpu][device]") {
    VKDML_NEEDS_VALIDATION_LAYER();
    vkdml::DeviceOptions options;
    options.validation = true;
    auto first = vkdml::Device::create(options);
    REQUIRE(first);
    REQUIRE(vkdml::Device::enumerate());
    auto second = vkdml::Device::create();
    REQUIRE(second);
    first->reset();  // destroys its debug messenger and instance through its own function pointers
    second->reset();
    SUCCEED("no crash");
}
