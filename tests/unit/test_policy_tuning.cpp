// The policy rows' knobs (src/core/policy_tuning.cpp): each sets what it names in either class's rows and
// says their values truly; parse_tuning's and check_tuning's refusals, by message; and the plans a tuning
// changes, within the device's limits.
#include <catch2/catch.hpp>

#include "core/policy_tuning.hpp"
#include "core/reduce_plan.hpp"
#include "core/scan_plan.hpp"
#include "device_classes.hpp"
#include "vkdml/profiling.hpp"

#include <regex>
#include <string>
#include <vector>

using namespace vkdml::detail;
using vkdml::Tuning;
using vkdml_unit::cpu_info;
using vkdml_unit::gpu_info;

namespace {

Problem line(uint32_t n) {
    const std::vector<uint32_t> sizes{n}, strides{1};
    return lower_scan(sizes, strides, strides, 0);
}

Plan scan_line(const PlanTarget& t, uint32_t n, DML_TENSOR_DATA_TYPE type) {
    ScanRequest r;
    r.type = type;
    r.problem = line(n);
    Plan plan;
    REQUIRE(plan_scan(t, r, plan));
    return plan;
}

Plan sum_line(const PlanTarget& t, uint32_t n) {
    ReduceRequest r;
    r.function = REDUCE_F_SUM;
    r.type = r.output_type = DML_TENSOR_DATA_TYPE_INT32;
    const std::vector<uint32_t> sizes{n}, in{1}, out{1};
    const bool reduced[1] = {true};
    r.problem = lower_reduce(sizes, in, out, std::span<const bool>(reduced, 1));
    Plan plan;
    REQUIRE(plan_reduce(t, r, plan));
    return plan;
}

std::string error_of(std::string_view text) {
    auto r = vkdml::parse_tuning(text);
    REQUIRE_FALSE(r);
    return r.error().message;
}

}  // namespace

TEST_CASE("tuning: every knob sets its value in either class's rows, whose values its description states",
          "[unit]") {
    const Policy rows[2] = {select_policy({cpu_info()}), select_policy({gpu_info()})};
    const auto knobs = vkdml::tuning_knobs();
    REQUIRE(knobs.size() == 24);
    // "...; CPU rows 8, GPU rows 512" or "...; CPU and GPU rows 256"
    const std::regex both(".*; CPU and GPU rows (\\d+)$"), each(".*; CPU rows (\\d+), GPU rows (\\d+)$");
    for (const vkdml::TuningKnob& k : knobs) {
        INFO(k.name);
        std::smatch m;
        const std::string d(k.description);
        uint64_t stated[2] = {};
        if (std::regex_match(d, m, both)) {
            stated[0] = stated[1] = std::stoull(m[1]);
        } else if (k.name == "reduce.tree_target_items") {  // per compute unit; 2,048 where none is stated
            CHECK(
                d.ends_with("CPU rows 8, GPU rows 8 per compute unit where the device states its count (else "
                            "2048)"));
            stated[0] = 8, stated[1] = 2048;
        } else {
            REQUIRE(std::regex_match(d, m, each));
            stated[0] = std::stoull(m[1]), stated[1] = std::stoull(m[2]);
        }
        for (int c = 0; c < 2; ++c) {
            uint64_t value = 0;
            REQUIRE(tuning_value(rows[c], k.name, value));
            CHECK(value == stated[c]);
            CHECK(value >= k.min);
            CHECK(value <= k.max);
            // Both ends of the range land in the policy (where the other rows allow them).
            for (uint64_t v : {k.min, k.max}) {
                Policy p = rows[c];
                const std::vector<Tuning> t{{std::string(k.name), v}};
                apply_tuning(t, p);
                REQUIRE(tuning_value(p, k.name, value));
                CHECK(value == v);
            }
        }
    }
    uint64_t unused = 0;
    CHECK_FALSE(tuning_value(rows[0], "scan.tile", unused));
}

TEST_CASE("tuning: parse_tuning reads knob=value lists and refuses each mistake by name", "[unit]") {
    auto ok = vkdml::parse_tuning("scan.tile_workgroup=512,reduce.tree_max_items=64");
    REQUIRE(ok);
    REQUIRE(ok->size() == 2);
    CHECK((*ok)[0].knob == "scan.tile_workgroup");
    CHECK((*ok)[0].value == 512);
    CHECK((*ok)[1].knob == "reduce.tree_max_items");
    CHECK((*ok)[1].value == 64);
    CHECK(tuning_text(*ok) == "scan.tile_workgroup=512,reduce.tree_max_items=64");
    CHECK(vkdml::format_tuning(*ok) == "scan.tile_workgroup=512,reduce.tree_max_items=64");
    auto again = vkdml::parse_tuning(vkdml::format_tuning(*ok));  // read back as written
    REQUIRE(again);
    REQUIRE(again->size() == 2);
    CHECK((*again)[1].knob == "reduce.tree_max_items");
    CHECK((*again)[1].value == 64);
    CHECK(vkdml::format_tuning({}) == "");
    auto none = vkdml::parse_tuning("");
    REQUIRE(none);
    CHECK(none->empty());
    CHECK(error_of("scan.tile_workgroup") ==
          "tuning: 'scan.tile_workgroup' is not knob=value (e.g. scan.tile_workgroup=512)");
    CHECK(error_of("=4") == "tuning: '=4' is not knob=value (e.g. scan.tile_workgroup=512)");
    CHECK(error_of("scan.chained=1,,scan.tile_bytes=4") ==
          "tuning: '' is not knob=value (e.g. scan.tile_workgroup=512)");
    CHECK(error_of("scan.chained=1,") == "tuning: a ',' ends the text");
    CHECK(error_of("scan.chained=") == "tuning: scan.chained's value '' is not a decimal number");
    CHECK(error_of("scan.chained=-1") == "tuning: scan.chained's value '-1' is not a decimal number");
    CHECK(error_of("scan.tile_bytes=4k") == "tuning: scan.tile_bytes's value '4k' is not a decimal number");
    CHECK(error_of("scan.tile_bytes=99999999999999999999") ==
          "tuning: scan.tile_bytes's value '99999999999999999999' is not a decimal number");
    CHECK(
        error_of("scan.workgroup=64")
            .starts_with(
                "tuning: unknown knob 'scan.workgroup' (the knobs: scan.tile_workgroup, scan.tile_bytes, "));
    CHECK(error_of("scan.tile_workgroup=96") ==
          "tuning: scan.tile_workgroup is 96: it takes a power of two from 32 to 1024");
    CHECK(error_of("scan.tile_workgroup=2048") ==
          "tuning: scan.tile_workgroup is 2048: it takes a power of two from 32 to 1024");
    CHECK(error_of("scan.chained=2") == "tuning: scan.chained is 2: it takes a value from 0 to 1");
    CHECK(error_of("scan.serial_max_len=32769") ==
          "tuning: scan.serial_max_len is 32769: it takes a value from 2 to 32768");
    CHECK(error_of("scan.chained_spin_limit=0") ==
          "tuning: scan.chained_spin_limit is 0: it takes a value from 1 to 4096");
    CHECK(error_of("reduce.tree_max_items=0") ==
          "tuning: reduce.tree_max_items is 0: it takes a value from 1 to 4096");
    CHECK(error_of("scan.chained=1,scan.chained=0") == "tuning: scan.chained is set twice");
}

TEST_CASE(
    "tuning: check_tuning holds a chunk's and a tree workgroup's least to its most in the rows it is "
    "applied to",
    "[unit]") {
    const Policy cpu = select_policy({cpu_info()}), gpu = select_policy({gpu_info()});
    const std::vector<Tuning> least{{"scan.serial_min_len", 1000}};
    CHECK(check_tuning(least, cpu, "who: "));  // 1,000 <= 8,192
    const vkdml::Status st = check_tuning(least, gpu, "who: ");
    REQUIRE_FALSE(st);
    CHECK(st.error().code == vkdml::ErrorCode::invalid_argument);
    CHECK(st.error().message ==
          "who: scan.serial_min_len 1000 is above scan.serial_max_len 512 (cooperative-gpu rows)");
    const std::vector<Tuning> both{{"scan.serial_min_len", 1000}, {"scan.serial_max_len", 1000}};
    CHECK(check_tuning(both, gpu, "who: "));
    const std::vector<Tuning> reduce{{"reduce.serial_max_len", 8}};
    CHECK(check_tuning(reduce, gpu, "who: ").error().message ==
          "who: reduce.serial_min_len 16 is above reduce.serial_max_len 8 (cooperative-gpu rows)");
    const std::vector<Tuning> trees{{"reduce.tree_min_workgroup", 512}};
    CHECK(check_tuning(trees, gpu, "who: ").error().message ==
          "who: reduce.tree_min_workgroup 512 is above reduce.tree_max_workgroup 256 (cooperative-gpu rows)");
    const std::vector<Tuning> wide{{"reduce.tree_min_workgroup", 512}, {"reduce.tree_max_workgroup", 512}};
    CHECK(check_tuning(wide, gpu, "who: "));
    const std::vector<Tuning> unknown{{"no.such", 1}};
    CHECK(check_tuning(unknown, gpu, "who: ").error().message.starts_with("who: unknown knob 'no.such'"));
}

TEST_CASE("tuning: select_policy applies it last, and the plans follow within the device's limits",
          "[unit]") {
    auto gpu = gpu_info();
    gpu.compute_units = 132;
    using Rows = PolicyRows;
    const auto kAuto = vkdml::KernelChoice::automatic;
    // Applied after the per-unit grid and a test device's spin limit.
    const std::vector<Tuning> grid{{"reduce.tree_target_items", 64}, {"scan.chained_spin_limit", 9}};
    const Policy p = select_policy({gpu, kAuto, Rows::automatic, 3u, grid});
    CHECK(p.reduce.tree_target_items == 64);
    CHECK(p.scan.chained_spin_limit == 9);
    CHECK(p.name == "cooperative-gpu");  // the rows keep their name; describe_plan names the tuning

    // The canonical tiles' workgroup: the knob's, within the device's invocations.
    const uint32_t n = 1u << 22;
    auto workgroup = [&](const vkdml::DeviceInfo& info, uint64_t w) {
        const std::vector<Tuning> t{{"scan.tile_workgroup", w}};
        const Plan plan =
            scan_line({info, kAuto, Rows::automatic, std::nullopt, t}, n, DML_TENSOR_DATA_TYPE_FLOAT32);
        CHECK(plan.passes[0].key.kernel == Kernel::scan_canonical_tile);
        return plan.passes[0].key.spec[ABI_SPEC_WORKGROUP];
    };
    CHECK(workgroup(gpu, 256) == 256);
    CHECK(workgroup(gpu, 64) == 64);
    CHECK(workgroup(gpu, 1024) == 1024);
    auto small = gpu;
    small.max_workgroup_invocations = 128;
    CHECK(workgroup(small, 1024) == 128);

    // scan.chained=0: a long int32 line reduce-then-scan instead of the chained pass.
    const Plan chained = scan_line({gpu}, n, DML_TENSOR_DATA_TYPE_INT32);
    CHECK(chained.passes.size() == 2);  // the states cleared, the chained pass
    CHECK(chained.passes[1].key.spec[SCAN_SPEC_MODE] == SCAN_MODE_CHAINED);
    const std::vector<Tuning> unchained{{"scan.chained", 0}};
    const Plan split =
        scan_line({gpu, kAuto, Rows::automatic, std::nullopt, unchained}, n, DML_TENSOR_DATA_TYPE_INT32);
    REQUIRE(split.passes.size() >= 3);
    for (const Pass& pass : split.passes) CHECK(pass.key.spec[SCAN_SPEC_MODE] != SCAN_MODE_CHAINED);

    // reduce.tree_max_items: chunks of at most a workgroup's worth of that many elements each.
    const std::vector<Tuning> items{{"reduce.tree_max_items", 16}, {"reduce.tree_target_items", 1}};
    const Plan sum = sum_line({gpu, kAuto, Rows::automatic, std::nullopt, items}, n);
    CHECK(sum.passes[0].key.kernel == Kernel::reduce_tree);
    CHECK(sum.passes[0].chunk_len == 256 * 16);

    // The serial rows: chunks of the tuned length.
    const std::vector<Tuning> serial{{"scan.serial_min_len", 100}, {"scan.serial_max_len", 100}};
    const Plan rows = scan_line({cpu_info(), kAuto, Rows::automatic, std::nullopt, serial}, 100000,
                                DML_TENSOR_DATA_TYPE_INT32);
    CHECK(rows.passes[0].key.kernel == Kernel::scan_serial);
    CHECK(rows.passes[0].chunk_len == 100);
}
