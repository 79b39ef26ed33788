// The cooperative scans beyond the sweeps. The chained pass (glsl/scan_chained.comp, the GPU rows' single
// pass for long inner-axis lines of integers): its plan, exact results over many tiles and fibers, in
// place, and both directions, and all of it again with the fallback forced on every tile
// (DeviceOverrides::chained_scan_always_falls_back). Its other modes, chunks of several tiles (what
// runs where the chained pass does not fit one dispatch): one pass per line, and reduce-then-scan from
// carries. The float sums' and products' tiles (glsl/scan_canonical_tile.comp): exact small integers the
// same ways, and random floats with the serial kernels' bits. Runs on devices planning with the
// cooperative family, whatever the environment asks for; ctest runs it at subgroup sizes 4, 8 and 16.
#include <catch2/catch.hpp>

#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "reference_scan.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/profiling.hpp"

#include <algorithm>
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

/// The plan's text.
std::string plan_of(const vkdml::Device& dev, const ChainedCase& c) {
    TestTensor t = make_packed(c.type, c.sizes);
    const TensorDescView view(t);
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{
        view.get(), view.get(), c.spec.axis,
        c.spec.decreasing ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
        c.spec.exclusive ? 1 : 0};
    return compiled_plan(dev, {DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
}

/// The plan's kernels, one name per pass.
std::vector<std::string> plan_kernels(const vkdml::Device& dev, const ChainedCase& c) {
    std::vector<std::string> names;
    const std::string text = plan_of(dev, c);
    for (size_t at = text.find("scan_"); at != std::string::npos; at = text.find("scan_", at + 1))
        names.push_back(text.substr(at, text.find('/', at) - at));
    return names;
}

/// Runs `c` on `dev` (in place or not) with small integers, against the reference scan, bit for bit.
void check_exact(vkdml::Device& dev, const ChainedCase& c, bool in_place) {
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
    REQUIRE(execute_scan(c.spec, in, in_place ? nullptr : &out, &dev));
    require_no_validation_messages();
    const TestTensor& result = in_place ? in : out;
    const Differences d = find_differences(
        expected.count(), [&](uint64_t i) { return result.get_bits(i) != expected.get_bits(i); });
    INFO(d);
    CHECK(d.count == 0);
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
            // Summation plans; products share the kernel with another combine. Float sums tile in the
            // canonical association instead (tests/kernels/test_canonical_scan.cpp), never chained.
            const std::vector<std::string> kernels = plan_kernels(*dev, c);
            if (vkdml::is_float_type(c.type))
                CHECK(std::count(kernels.begin(), kernels.end(), "scan_canonical_tile") >= 1);
            else
                CHECK(kernels == std::vector<std::string>{"scan_chained", "scan_chained"});
            check_exact(*dev, c, in_place);
        }
    }
}

TEST_CASE("the canonical tiles: float sums and products are the serial kernels' bits, run after run",
          "[gpu][chained]") {
    using P = vkdml::testing::DeviceOverrides::PolicyClass;
    auto dev = make_test_device(vkdml::KernelChoice::cooperative, P::gpu);
    auto serial = make_test_device(vkdml::KernelChoice::serial, P::cpu);
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
        // The CPU rows' serial walk, another association of the same tree.
        TestTensor walked = make_packed(c.type, c.sizes);
        REQUIRE(execute_scan(c.spec, in, &walked, serial.get()));
        CHECK(walked.bytes == first.bytes);
        require_no_validation_messages();
    }
}

TEST_CASE("chained_scan_stats: the look-back's tiles and fallbacks, exact where every tile falls back",
          "[gpu][chained]") {
    using P = vkdml::testing::DeviceOverrides::PolicyClass;
    const bool fallback = GENERATE(false, true);
    auto dev = make_test_device(vkdml::KernelChoice::cooperative, P::gpu, fallback);
    if (!dev->info().subgroup_arithmetic || !dev->info().subgroup_shuffle) {
        WARN("skipped: the device has no subgroup arithmetic and shuffles, so no chained scan");
        return;
    }
    INFO((fallback ? "every tile falls back" : "the policy's spin limit"));
    // 3 fibers of 70,001 int32 along axis 1: several tiles each, one chained pass.
    const TestTensor t = make_packed(DML_TENSOR_DATA_TYPE_INT32, {3, 70001});
    const TensorDescView view(t);
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{view.get(), view.get(), 1, DML_AXIS_DIRECTION_INCREASING,
                                                     0};
    auto run = vkdml::HostExecution::create(*dev, {DML_OPERATOR_CUMULATIVE_SUMMATION, &sum});
    REQUIRE(run);
    auto before = vkdml::chained_scan_stats(*run);  // no run yet: the tiles, no fallbacks
    REQUIRE(before);
    CHECK(before->tiles > 0);
    CHECK(before->fallbacks == 0);
    for (int repeat = 0; repeat < 2; ++repeat) {  // each run clears the states first
        REQUIRE(run->run());
        auto stats = vkdml::chained_scan_stats(*run);
        REQUIRE(stats);
        const uint64_t per_fiber = stats->tiles / 3;
        CHECK(stats->tiles == 3 * per_fiber);
        CHECK(per_fiber >= 2);
        // Forced, each tile reduces every tile of its first look-back window (at least 32 tiles) itself;
        // a fiber within one window: every tile before it in the fiber. Otherwise at most that.
        REQUIRE(per_fiber <= 32);
        const uint64_t every = 3 * per_fiber * (per_fiber - 1) / 2;
        if (fallback)
            CHECK(stats->fallbacks == every);
        else
            CHECK(stats->fallbacks <= every);
        // The output: 1, 2, 3, ... along each fiber of ones.
        if (repeat == 0) {
            auto* x = reinterpret_cast<int32_t*>(run->input(0).data());
            for (uint64_t i = 0; i < 3 * 70001; ++i) x[i] = 1;
        } else {
            const auto* y = reinterpret_cast<const int32_t*>(run->output(0).data());
            CHECK(y[70000] == 70001);
            CHECK(y[3 * 70001 - 1] == 70001);
        }
    }
    // The same through a compiled operator and a copy of its temporary bytes: one byte short is refused.
    auto op = dev->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &sum});
    REQUIRE(op);
    auto compiled = dev->compile_operator(*op);
    REQUIRE(compiled);
    const uint64_t temporary = compiled->binding_properties().TemporaryResourceSize;
    const std::vector<std::byte> zeros(temporary);
    auto none = vkdml::chained_scan_stats(*compiled, zeros);
    REQUIRE(none);
    CHECK(none->fallbacks == 0);
    CHECK(none->tiles > 0);
    auto short_by_one = vkdml::chained_scan_stats(*compiled, std::span(zeros).first(temporary - 1));
    REQUIRE_FALSE(short_by_one);
    CHECK(short_by_one.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(short_by_one.error().message ==
          "chained_scan_stats: the temporary bytes are " + std::to_string(temporary - 1) +
              ", the operator's temporary buffer " + std::to_string(temporary));
    // A plan without a chained pass (a line of one tile): nothing to count.
    const TestTensor short_t = make_packed(DML_TENSOR_DATA_TYPE_INT32, {3, 100});
    const TensorDescView short_view(short_t);
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC short_sum{short_view.get(), short_view.get(), 1,
                                                           DML_AXIS_DIRECTION_INCREASING, 0};
    auto short_run = vkdml::HostExecution::create(*dev, {DML_OPERATOR_CUMULATIVE_SUMMATION, &short_sum});
    REQUIRE(short_run);
    REQUIRE(short_run->run());
    auto short_stats = vkdml::chained_scan_stats(*short_run);
    REQUIRE(short_stats);
    CHECK(short_stats->tiles == 0);
    CHECK(short_stats->fallbacks == 0);
    require_no_validation_messages();
}

TEST_CASE("the cooperative scan's chunks of several tiles: a pass per line, or reduce-then-scan from carries",
          "[gpu][chained]") {
    // The CPU rows with the cooperative family: no chained pass, chunks of up to 16 tiles (of 16 KiB:
    // 4,096 int32 or float32, 16,384 int8 elements), about 8 of them over all lines.
    auto dev =
        make_test_device(vkdml::KernelChoice::cooperative, vkdml::testing::DeviceOverrides::PolicyClass::cpu);
    if (!dev->info().subgroup_arithmetic || !dev->info().subgroup_shuffle) {
        WARN("skipped: the device has no subgroup arithmetic and shuffles, so no cooperative scan");
        return;
    }
    // (The plan's kernels as one string, and the cases as a vector built case by case: MinGW's GCC 12
    // warns that a brace-initialised array of structs holding vectors "may be used uninitialized".)
    struct Expected {
        ChainedCase c;
        const char* kernels;  ///< the passes' kernels, separated by spaces
        const char* mode;     ///< a pass the plan has: its kernel and mode
        const char* cut;      ///< and its lines and chunks
    };
    const std::vector<Expected> cases{
        // 64 lines of 5 tiles (the last one partial): one pass, each workgroup walking its line's tiles.
        {{DML_TENSOR_DATA_TYPE_INT32, {64, 20003}, {ScanOp::sum, 1, false, false}},
         "scan_chained",
         "scan_chained/u32 scan |",
         "| 64 lines x 1 chunk of 20003"},
        {{DML_TENSOR_DATA_TYPE_UINT16, {16, 9001}, {ScanOp::product, 1, true, true}},
         "scan_chained",
         "scan_chained/u16 scan |",
         "| 16 lines x 1 chunk of 9001"},
        // One line of 74 tiles: 8 chunks of 10 tiles, their partials scanned serially, then the chunks
        // from their carries; in both directions and exclusive.
        {{DML_TENSOR_DATA_TYPE_INT32, {300007}, {ScanOp::sum, 0, false, false}},
         "scan_chained scan_serial scan_chained",
         "scan_chained/u32 reduce to partials |",
         "| 1 lines x 8 chunks of "
         "40960"},
        {{DML_TENSOR_DATA_TYPE_INT8, {3, 200003}, {ScanOp::sum, 1, true, true}},
         "scan_chained scan_serial scan_chained",
         "scan_chained/u8 scan with carries |",
         "| 3 lines x 3 chunks of "},  // tiles of 16 vectors of 4 bytes: 16,384 or (workgroups of 128) 8,192
        {{DML_TENSOR_DATA_TYPE_UINT64, {70001}, {ScanOp::product, 0, true, false}},
         "scan_chained scan_serial scan_chained",
         "scan_chained/u64 reduce to partials |",
         "| 1 lines x 7 chunks of "
         "10240"},
        // Float sums tile in the canonical association: chunks of 32^3 elements.
        {{DML_TENSOR_DATA_TYPE_FLOAT32, {2, 100003}, {ScanOp::sum, 1, false, true}},
         "scan_canonical_tile scan_serial scan_canonical_tile",
         "scan_canonical_tile/f32 scan with carries |",
         "| 2 lines x 4 chunks of "
         "32768"},
    };
    for (const Expected& e : cases) {
        INFO(describe(e.c));
        const std::string plan = plan_of(*dev, e.c);
        INFO(plan);
        std::string kernels;
        for (const std::string& k : plan_kernels(*dev, e.c)) kernels += (kernels.empty() ? "" : " ") + k;
        CHECK(kernels == e.kernels);
        CHECK_THAT(plan, Catch::Matchers::Contains(e.mode) && Catch::Matchers::Contains(e.cut));
        for (bool in_place : {false, true}) {
            INFO((in_place ? "in place" : "out of place"));
            check_exact(*dev, e.c, in_place);
        }
    }
}
