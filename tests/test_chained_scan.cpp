// The chained scan (glsl/scan_chained.comp: the GPU rows' single pass for long inner-axis lines) beyond
// the sweeps: its plan, exact integer results over many tiles and fibers, float bits identical run to
// run (the look-back folds forward in tile order whatever states it found), in place, and both
// directions, and all of it again with the fallback forced on every tile
// (DeviceOverrides::chained_scan_always_falls_back). Runs on devices planning with the GPU rows and the
// cooperative family, whatever the environment asks for; ctest runs it at subgroup sizes 4, 8 and 16.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reference_scan.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/profiling.hpp"

#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

struct ChainedCase {
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    ScanSpec spec;
};

std::string describe(const ChainedCase& c) {
    return std::string(type_name(c.type)) + " " + to_string(c.sizes) + " " + to_string(c.spec);
}

/// The plan's kernels, one name per pass.
std::vector<std::string> plan_kernels(const vkdml::Device& dev, const ChainedCase& c) {
    TestTensor t = make_packed(c.type, c.sizes);
    const TensorDescView view(t);
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{
        view.get(), view.get(), c.spec.axis,
        c.spec.decreasing ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
        c.spec.exclusive ? 1 : 0};
    std::vector<std::string> names;
    const std::string text = compiled_plan(dev, {DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
    for (size_t at = text.find("scan_"); at != std::string::npos; at = text.find("scan_", at + 1))
        names.push_back(text.substr(at, text.find('/', at) - at));
    return names;
}

}  // namespace

TEST_CASE(
    "the chained scan: one pass over the data, exact integers over many tiles and fibers, in place, "
    "with and without the fallback",
    "[gpu][chained]") {
    const bool fallback = GENERATE(false, true);  // true: every tile reduces its predecessors itself
    auto dev = make_test_device(vkdml::KernelChoice::cooperative,
                                vkdml::testing::DeviceOverrides::PolicyClass::gpu, fallback);
    if (!dev->info().subgroup_arithmetic || !dev->info().subgroup_shuffle) {
        WARN("skipped: the device has no subgroup arithmetic and shuffles, so no chained scan");
        return;
    }
    // Lengths past one tile (4,096 float32, 16,384 int8 elements) by odd amounts, fibers side by side,
    // both directions, exclusive; sums and products of every integer width wrap exactly.
    const ChainedCase cases[] = {
        {DML_TENSOR_DATA_TYPE_INT32, {300007}, {ScanOp::sum, 0, false, false}},
        {DML_TENSOR_DATA_TYPE_UINT32, {3, 70001}, {ScanOp::sum, 1, true, true}},
        {DML_TENSOR_DATA_TYPE_INT8, {200003}, {ScanOp::sum, 0, false, true}},
        {DML_TENSOR_DATA_TYPE_UINT16, {2, 99999}, {ScanOp::product, 1, false, false}},
        {DML_TENSOR_DATA_TYPE_INT64, {150001}, {ScanOp::sum, 0, true, false}},
        {DML_TENSOR_DATA_TYPE_UINT64, {5, 20011}, {ScanOp::product, 1, true, true}},
        {DML_TENSOR_DATA_TYPE_FLOAT32,
         {1000003},
         {ScanOp::sum, 0, false, false}},  // sums exact: small integers
        {DML_TENSOR_DATA_TYPE_FLOAT16, {4, 30011}, {ScanOp::sum, 1, false, false}},
        {DML_TENSOR_DATA_TYPE_FLOAT64, {123457}, {ScanOp::sum, 0, true, true}},
    };
    for (const ChainedCase& c : cases) {
        // Always falling back costs each tile a reduction of every tile before it: skip the longest line.
        if (fallback && c.sizes.back() > 500000) continue;
        for (bool in_place : {false, true}) {
            INFO(describe(c) << (in_place ? ", in place" : "") << (fallback ? ", always falling back" : ""));
            // Summation plans; products share the kernel with another combine.
            CHECK(plan_kernels(*dev, c) == std::vector<std::string>{"scan_chained", "scan_chained"});
            TestTensor in = make_packed(c.type, c.sizes);
            TestTensor out = make_packed(c.type, c.sizes);
            ScanCase sc;
            sc.type = c.type;
            sc.sizes = c.sizes;
            sc.spec = c.spec;
            sc.fill = Fill::small_integers;  // float sums stay exact (below 2^11 for float16)
            sc.seed = 0xC4A1'0000 + c.sizes.back();
            if (c.type == DML_TENSOR_DATA_TYPE_FLOAT16)
                fill_random_integers(in, sc.seed, -1, 1);
            else
                fill_scan_input(in, sc);
            TestTensor expected = make_packed(c.type, c.sizes);
            store_reference(reference_scan(in, c.spec), expected);
            REQUIRE(execute_scan(c.spec, in, in_place ? nullptr : &out, dev.get()));
            require_no_validation_messages();
            const TestTensor& result = in_place ? in : out;
            uint64_t wrong = 0, first = UINT64_MAX;
            for (uint64_t i = 0; i < expected.count(); ++i)
                if (result.get_bits(i) != expected.get_bits(i) && wrong++ == 0) first = i;
            INFO("first wrong element " << first);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("the chained scan: float sums and products bit-identical run to run, and with the fallback",
          "[gpu][chained]") {
    using P = vkdml::testing::DeviceOverrides::PolicyClass;
    auto dev = make_test_device(vkdml::KernelChoice::cooperative, P::gpu);
    auto falls_back = make_test_device(vkdml::KernelChoice::cooperative, P::gpu, true);
    if (!dev->info().subgroup_shuffle) {
        WARN("skipped: the device has no subgroup shuffles, so no chained float scan");
        return;
    }
    // Random floats: every partial sum rounds, so a fold in another order would show in the low bits.
    for (const ChainedCase& c :
         {ChainedCase{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 400009}, {ScanOp::sum, 1, false, false}},
          ChainedCase{DML_TENSOR_DATA_TYPE_FLOAT32, {300001}, {ScanOp::product, 0, true, false}},
          ChainedCase{DML_TENSOR_DATA_TYPE_FLOAT64, {200003}, {ScanOp::sum, 0, false, true}}}) {
        INFO(describe(c));
        TestTensor in = make_packed(c.type, c.sizes);
        ScanCase sc;
        sc.type = c.type;
        sc.sizes = c.sizes;
        sc.spec = c.spec;
        sc.seed = 0xB175;
        fill_scan_input(in, sc);
        TestTensor first = make_packed(c.type, c.sizes);
        REQUIRE(execute_scan(c.spec, in, &first, dev.get()));
        for (int run = 0; run < 3; ++run) {
            TestTensor again = make_packed(c.type, c.sizes);
            REQUIRE(execute_scan(c.spec, in, &again, dev.get()));
            CHECK(again.bytes == first.bytes);
        }
        // A tile's aggregate reduced by its successor (the fallback) has the owner's bits, so the
        // prefixes, folded forward in tile order either way, are the same.
        TestTensor fell_back = make_packed(c.type, c.sizes);
        REQUIRE(execute_scan(c.spec, in, &fell_back, falls_back.get()));
        CHECK(fell_back.bytes == first.bytes);
        require_no_validation_messages();
    }
}
