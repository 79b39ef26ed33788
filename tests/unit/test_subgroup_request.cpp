// Full subgroups (issue 39), without a device: which kernels ask for them (read from their SPIR-V), what
// their pipelines' shader stage carries, and the serial family wherever a subgroup may be partial.
#include <catch2/catch.hpp>

#include "core/kernel_registry.hpp"
#include "core/policy.hpp"
#include "core/subgroup_request.hpp"
#include "device_classes.hpp"

#include <string>

using namespace vkdml::detail;

TEST_CASE("the kernels built on subgroup operations require full subgroups of the planned size",
          "[subgroups]") {
    vkdml::DeviceInfo full = vkdml_unit::gpu_info(32);
    full.min_subgroup_size = 8;  // a device whose size varies (Intel: 8 to 32), able to require one
    vkdml::DeviceInfo partial = full;
    partial.full_subgroups = false;
    size_t cooperative = 0;
    for (size_t i = 0; i < kKernelBinaryCount; ++i) {
        const KernelBinary& k = kKernelBinaries[i];
        INFO(std::string(name(k.kernel)) << " " << std::string(name(k.storage)));
        const bool expected = k.kernel == Kernel::scan_chained || k.kernel == Kernel::reduce_tree;
        CHECK(uses_subgroups(k) == expected);
        const SubgroupRequest r = subgroup_request(k, full);
        CHECK(r.flags == (expected ? VkPipelineShaderStageCreateFlags(
                                         VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT)
                                   : 0u));
        CHECK(r.required_size == (expected ? 32u : 0u));
        const SubgroupRequest none = subgroup_request(k, partial);
        CHECK(none.flags == 0u);
        CHECK(none.required_size == 0u);
        cooperative += expected;
    }
    CHECK(cooperative == 2 * 7);  // two kernels, seven storage variants each
}

TEST_CASE("where subgroups may be partial, every shape is planned with the serial kernels", "[subgroups]") {
    using Kernels = vkdml::KernelChoice;
    vkdml::DeviceInfo info = vkdml_unit::gpu_info(32);
    info.min_subgroup_size = 8;
    for (bool full : {true, false}) {
        info.full_subgroups = full;
        CHECK(whole_subgroups(info) == full);
        for (Kernels k : {Kernels::automatic, Kernels::cooperative, Kernels::serial}) {
            INFO("full " << full << ", kernels " << int(k));
            const Policy p = select_policy({info, k});
            const bool cooperative = full && k != Kernels::serial;
            CHECK(p.name == (cooperative ? "cooperative-gpu" : "serial-gpu"));
            CHECK((p.scan.inner_lines == KernelFamily::cooperative) == cooperative);
            CHECK((p.reduce.inner_lines == KernelFamily::cooperative) == cooperative);
        }
    }
    // A required subgroup size caps the cooperative workgroups at maxComputeWorkgroupSubgroups of it.
    vkdml::DeviceInfo small = vkdml_unit::gpu_info(4);
    small.max_workgroup_subgroups = 32;  // lavapipe at subgroup size 4
    CHECK(cooperative_workgroup_limit(small) == 128);
    small.full_subgroups = false;
    CHECK(cooperative_workgroup_limit(small) == 1024);
    small.full_subgroups = true;
    small.max_workgroup_subgroups = 0;  // not stated
    CHECK(cooperative_workgroup_limit(small) == 1024);
    // One size only (NVIDIA's 32, lavapipe's): whole subgroups without requiring them.
    vkdml::DeviceInfo fixed = vkdml_unit::gpu_info(32);
    fixed.full_subgroups = false;
    CHECK(whole_subgroups(fixed));
    CHECK(select_policy({fixed}).name == "cooperative-gpu");
}
