// DeviceOptions::tuning: refused by name where a knob or value is wrong, and where it
// is right every operator gives the bits it gives untuned, on either rows (docs/SPEC.md, "Determinism
// across devices"): the tuning changes plans (their text names it), not results.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "run_operation.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/profiling.hpp"
#include "vkdml/testing.hpp"

#include <string>
#include <vector>

using vkdml::Tuning;
using vkdml_test::TestTensor;
using Class = vkdml::testing::DeviceOverrides::PolicyClass;
namespace ops = vkdml::ops;

namespace {

struct Case {
    const char* name;
    ops::Operation op;
    TestTensor input;
    bool indices = false;  ///< a selection with its index output (run_with_indices)
};

std::vector<Case> cases() {
    std::vector<Case> c;
    bool op_has_indices = false;
    auto add = [&](const char* name, vkdml::Result<ops::Operation> op, DML_TENSOR_DATA_TYPE type,
                   std::vector<uint32_t> sizes, uint64_t seed) {
        TestTensor in = vkdml_test::make_packed(type, sizes);
        if (type == DML_TENSOR_DATA_TYPE_INT32)
            vkdml_test::fill_random_integers(in, seed, -1000, 1000);
        else
            vkdml_test::fill_random(in, seed);
        c.push_back({name, vkdml_test::built(std::move(op)), std::move(in), op_has_indices});
    };
    const auto f32 = DML_TENSOR_DATA_TYPE_FLOAT32, i32 = DML_TENSOR_DATA_TYPE_INT32;
    const auto up = DML_AXIS_DIRECTION_INCREASING;
    // The canonical tiles over several chunks; the chained pass of integers and of a float selection; the
    // serial rows along an outer axis; the canonical tree; an arg tree.
    add("cumsum float32 {2, 70001} axis 1", ops::cumulative_sum({f32, {2, 70001}}, 1, up, false), f32,
        {2, 70001}, 1);
    add("cumsum int32 {1, 100003} axis 1", ops::cumulative_sum({i32, {1, 100003}}, 1, up, false), i32,
        {1, 100003}, 2);
    add("cumsum float32 {4096, 20} axis 0", ops::cumulative_sum({f32, {4096, 20}}, 0, up, true), f32,
        {4096, 20}, 3);
    add("cummax float32 {1, 100003} axis 1", ops::cumulative_maximum({f32, {1, 100003}}, 1, up, false), f32,
        {1, 100003}, 6);
    op_has_indices = true;  // the marks of an exclusive reverse selection (scan.mark_max_len)
    add("cummin with indices float32 {3, 40001} axis 1, exclusive, reverse",
        ops::cumulative_minimum_with_indices({f32, {3, 40001}}, 1, DML_AXIS_DIRECTION_DECREASING, true), f32,
        {3, 40001}, 8);
    op_has_indices = false;
    add("logcumsumexp float32 {2, 70001} axis 1, reverse",
        ops::log_cumulative_sum_exp({f32, {2, 70001}}, 1, DML_AXIS_DIRECTION_DECREASING, false), f32,
        {2, 70001}, 7);
    const uint32_t axis1[] = {1}, axis0[] = {0};
    add("reduce sum float32 {3, 40000} axis 1",
        ops::reduce({f32, {3, 40000}}, DML_REDUCE_FUNCTION_SUM, axis1, ops::kAutoType), f32, {3, 40000}, 4);
    add("argmax float32 {40000}", ops::argmax({f32, {40000}}, axis0, up, DML_TENSOR_DATA_TYPE_UINT32), f32,
        {40000}, 5);
    return c;
}

/// A device with the GPU rows, tuned.
std::shared_ptr<vkdml::Device> tuned_device(std::vector<Tuning> tuning) {
    vkdml::DeviceOptions options;
    options.tuning = std::move(tuning);
    vkdml::testing::DeviceOverrides o;
    o.policy_class = Class::gpu;
    return vkdml_test::make_test_device(options, o);
}

std::string creation_error(Class rows, std::vector<Tuning> tuning) {
    vkdml::DeviceOptions options;
    options.tuning = std::move(tuning);
    vkdml::testing::DeviceOverrides o;
    o.policy_class = rows;
    auto dev =
        rows == Class::automatic ? vkdml::Device::create(options) : vkdml::testing::create_device(options, o);
    REQUIRE_FALSE(dev);
    CHECK(dev.error().code == vkdml::ErrorCode::invalid_argument);
    return dev.error().message;
}

}  // namespace

TEST_CASE("tuning: the test device refuses an unknown knob, a value out of range and a least above its most",
          "[gpu][tuning]") {
    CHECK(creation_error(Class::gpu, {{"scan.tile_workgroup", 96}}) ==
          "DeviceOptions::tuning: scan.tile_workgroup is 96: it takes a power of two from 32 to 1024");
    CHECK(creation_error(Class::gpu, {{"scan.tiles", 1}})
              .starts_with(
                  "DeviceOptions::tuning: unknown knob 'scan.tiles' (the knobs: scan.tile_workgroup, "));
    CHECK(creation_error(Class::automatic, {{"reduce.tree_max_items", 5000}}) ==
          "DeviceOptions::tuning: reduce.tree_max_items is 5000: it takes a value from 1 to 4096");
    CHECK(creation_error(Class::gpu, {{"scan.chained", 1}, {"scan.chained", 1}}) ==
          "DeviceOptions::tuning: scan.chained is set twice");
    // Against the rows the device plans with: the CPU rows' most is 8,192, the GPU rows' 512.
    CHECK(creation_error(Class::cpu, {{"scan.serial_min_len", 9000}}) ==
          "DeviceOptions::tuning: scan.serial_min_len 9000 is above scan.serial_max_len 8192 (serial-cpu "
          "rows)");
    CHECK(creation_error(Class::gpu, {{"reduce.serial_min_len", 300}}) ==
          "DeviceOptions::tuning: reduce.serial_min_len 300 is above reduce.serial_max_len 256 "
          "(cooperative-gpu rows)");
    CHECK(creation_error(Class::gpu, {{"reduce.tree_min_workgroup", 512}}) ==
          "DeviceOptions::tuning: reduce.tree_min_workgroup 512 is above reduce.tree_max_workgroup 256 "
          "(cooperative-gpu rows)");
    CHECK(creation_error(Class::gpu, {{"scan.chained_spin_limit", 0}}) ==
          "DeviceOptions::tuning: scan.chained_spin_limit is 0: it takes a value from 1 to 4096");
}

TEST_CASE(
    "tuning: scans and reductions on every kernel give the untuned bits under tunings that change their "
    "plans",
    "[gpu][tuning]") {
    const auto reference = vkdml_test::make_test_device(vkdml::KernelChoice::automatic, Class::cpu);
    const auto untuned = tuned_device({});
    const std::vector<std::vector<Tuning>> tunings = {
        // One node per canonical tile, one vector per invocation and chained tile, small trees.
        {{"scan.tile_workgroup", 32},
         {"scan.tile_bytes", 512},
         {"reduce.tree_max_workgroup", 32},
         {"reduce.tree_max_items", 4},
         {"scan.serial_min_len", 64},
         {"scan.serial_max_len", 64},
         {"scan.mark_max_len", 1}},
        // Reduce-then-scan of one-tile chunks instead of the chained pass; trees of 128, 3 workgroups; few
        // serial chunks.
        {{"scan.tile_workgroup", 128},
         {"scan.chained", 0},
         {"scan.tile_max_tiles", 1},
         {"reduce.tree_min_workgroup", 128},
         {"reduce.tree_max_workgroup", 128},
         {"reduce.tree_target_items", 3},
         {"scan.serial_target_items", 8}},
        // The chained pass's fallback after one flag read, and the canonical single pass's; reductions
        // serial, in short chunks; serial scans in chunks of 128 and single-vector blocks.
        {{"scan.chained_spin_limit", 1},
         {"scan.canonical_chained", 1},
         {"scan.tile_workgroup", 64},
         {"reduce.tree_min_length", 200000},
         {"reduce.serial_min_len", 16},
         {"reduce.serial_max_len", 16},
         {"scan.serial_min_len", 128},
         {"scan.serial_max_len", 128},
         {"scan.row_block_vectors", 1},
         {"scan.mark_max_len", 7}},
    };
    for (Case& c : cases()) {
        INFO(c.name);
        const auto run = [&](const vkdml::Device& device) {
            if (!c.indices) return vkdml_test::run_operation(device, c.op, c.input);
            vkdml_test::WithIndices both = vkdml_test::run_with_indices(device, c.op, c.input);
            both.values.bytes.insert(both.values.bytes.end(), both.indices.bytes.begin(),
                                     both.indices.bytes.end());
            return both.values;  // (the values' bytes, then the indices')
        };
        const TestTensor want = run(*reference);
        const std::string plain = vkdml_test::compiled_plan(*untuned, c.op.desc());
        for (const auto& tuning : tunings) {
            const auto dev = tuned_device(tuning);
            const std::string text = vkdml::format_tuning(tuning);
            INFO("tuned " << text);
            const std::string plan = vkdml_test::compiled_plan(*dev, c.op.desc());
            CHECK(plan.find("rows tuned " + text + ", subgroup size") != std::string::npos);
            const TestTensor got = run(*dev);
            REQUIRE(got.bytes.size() == want.bytes.size());
            CHECK(got.bytes == want.bytes);
            // The plan itself changed, not only its header.
            CHECK(plan.substr(plan.find('\n')) != plain.substr(plain.find('\n')));
        }
    }
}
