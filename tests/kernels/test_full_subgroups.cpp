// Full subgroups (issue 39): the cooperative kernels rely on every subgroup having gl_SubgroupSize active
// invocations. Where the device can require it (subgroup size control with full compute subgroups), their
// pipelines do, at the size planned for, which the validation layer checks when they are created; where it
// cannot and the subgroup size varies, every shape is planned serially. Lavapipe runs one size and has
// subgroup size control, so the other devices are simulated with DeviceOverrides.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reference_scan.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/profiling.hpp"

#include <string>

using namespace vkdml_test;
using Catch::Matchers::Contains;

namespace {}  // namespace

TEST_CASE("full subgroups: lavapipe runs one subgroup size and can require full subgroups",
          "[gpu][subgroups]") {
    const vkdml::DeviceInfo& info = test_device().info();
    CHECK(info.min_subgroup_size <= info.subgroup_size);
    CHECK(info.subgroup_size <= info.max_subgroup_size);
    if (info.physical.driver_name != "llvmpipe") {
        WARN("not lavapipe: full_subgroups " << info.full_subgroups << ", sizes " << info.min_subgroup_size
                                             << " to " << info.max_subgroup_size);
        return;
    }
    CHECK(info.full_subgroups);
    CHECK(info.min_subgroup_size == info.subgroup_size);
    CHECK(info.max_subgroup_size == info.subgroup_size);
}

TEST_CASE("full subgroups: required where the device can, serial plans where subgroups may be partial",
          "[gpu][subgroups]") {
    const uint32_t sg = test_device().info().subgroup_size;
    const bool device_can = test_device().info().full_subgroups;
    const uint32_t narrower = sg / 2;  // a simulated device that may run subgroups of half the size
    struct Case {
        bool size_control;
        uint32_t min_subgroup;  // 0: the device's
        bool cooperative;       // the plans expected
        std::string header;     // after "subgroup size <sg>"
    };
    const std::string range = " (" + std::to_string(narrower) + " to " + std::to_string(sg) + ", ";
    const Case cases[] = {
        {true, 0, true, ","},
        {false, 0, true, ","},  // one size: every subgroup of a whole-subgroup workgroup is full
        {true, narrower, device_can, device_can ? range + "full subgroups required)," : range},
        {false, narrower, false, range + "full subgroups not required: serial kernels),"},
    };
    for (const Case& c : cases) {
        INFO("subgroup size control " << c.size_control << ", smallest subgroup " << c.min_subgroup);
        vkdml::testing::DeviceOverrides o;
        o.policy_class = vkdml::testing::DeviceOverrides::PolicyClass::gpu;
        o.features.subgroup_size_control = c.size_control;
        o.limits.min_subgroup_size = c.min_subgroup;
        auto dev = make_test_device(o);
        const vkdml::DeviceInfo& info = dev->info();
        CHECK(info.full_subgroups == (c.size_control && device_can));
        CHECK(info.min_subgroup_size ==
              (c.min_subgroup ? c.min_subgroup : test_device().info().min_subgroup_size));

        // A long cumsum (the chained scan, or serial passes) and a long sum (reduce_tree, or serial).
        auto scan = vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_UINT32, {3, 70001}, {}}, 1);
        auto sum = vkdml::ops::reduce({DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1 << 20}, {}},
                                      DML_REDUCE_FUNCTION_SUM, {1});
        REQUIRE(scan);
        REQUIRE(sum);
        const std::string scan_plan = compiled_plan(*dev, scan->desc());
        const std::string sum_plan = compiled_plan(*dev, sum->desc());
        INFO(scan_plan << sum_plan);
        const std::string rows = c.cooperative ? "cooperative-gpu" : "serial-gpu";
        CHECK_THAT(scan_plan, Contains(rows + " rows, subgroup size " + std::to_string(sg) + c.header));
        CHECK_THAT(sum_plan, Contains(rows + " rows, subgroup size " + std::to_string(sg) + c.header));
        CHECK((scan_plan.find("scan_chained") != std::string::npos) == c.cooperative);
        CHECK((sum_plan.find("reduce_tree") != std::string::npos) == c.cooperative);

        // Exact either way.
        const std::vector<uint32_t> sizes{3, 70001};
        TestTensor in = make_packed(DML_TENSOR_DATA_TYPE_UINT32, sizes);
        TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_UINT32, sizes);
        const ScanSpec spec{ScanOp::sum, 1, false, false};
        ScanCase sc;
        sc.type = DML_TENSOR_DATA_TYPE_UINT32;
        sc.sizes = sizes;
        sc.spec = spec;
        sc.seed = 0x5B39;
        fill_scan_input(in, sc);
        TestTensor expected = make_packed(DML_TENSOR_DATA_TYPE_UINT32, sizes);
        store_reference(reference_scan(in, spec), expected);
        REQUIRE(execute_scan(spec, in, &out, dev.get()));
        CHECK(out.bytes == expected.bytes);
        require_no_validation_messages();
    }
}

TEST_CASE("full subgroups: a smallest subgroup size out of range is refused", "[gpu][subgroups]") {
    const uint32_t least = test_device().info().min_subgroup_size;
    for (uint32_t bad : {3u, least * 2}) {
        INFO("min_subgroup_size " << bad);
        vkdml::testing::DeviceOverrides o;
        o.limits.min_subgroup_size = bad;
        vkdml::DeviceOptions options;
        options.validation = !validation_layer_waived();
        auto dev = vkdml::testing::create_device(options, o);
        REQUIRE_FALSE(dev);
        CHECK(dev.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK_THAT(dev.error().message,
                   Contains("DeviceOverrides::limits.min_subgroup_size is " + std::to_string(bad)));
    }
}

TEST_CASE("full subgroups: a GPU whose subgroup size varies, planned without a device", "[plan][subgroups]") {
    auto scan = vkdml::ops::cumulative_sum({DML_TENSOR_DATA_TYPE_INT32, {1u << 26}, {}}, 0);
    REQUIRE(scan);
    vkdml::PlanDevice intel;  // reports 32, may run 8 to 32
    intel.min_subgroup_size = 8;
    intel.compute_units = 32;
    auto required = vkdml::describe_plan(scan->desc(), intel);
    REQUIRE(required);
    CHECK_THAT(
        *required,
        Contains("cooperative-gpu rows, subgroup size 32 (8 to 32, full subgroups required), 2 passes"));
    CHECK_THAT(*required, Contains("scan_chained"));
    intel.full_subgroups = false;
    auto partial = vkdml::describe_plan(scan->desc(), intel);
    REQUIRE(partial);
    CHECK_THAT(
        *partial,
        Contains("serial-gpu rows, subgroup size 32 (8 to 32, full subgroups not required: serial kernels)"));
    CHECK(partial->find("scan_chained") == std::string::npos);
    for (uint32_t bad : {2u, 64u, 12u}) {
        INFO("min_subgroup_size " << bad);
        intel.min_subgroup_size = bad;
        auto refused = vkdml::describe_plan(scan->desc(), intel);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK_THAT(refused.error().message, Contains("min_subgroup_size " + std::to_string(bad)));
    }
}
