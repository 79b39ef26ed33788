// test_canonical_scan.cpp — the serial scans follow the canonical association (canonical_fold.hpp) bit for
// bit: with the CPU rows, the GPU rows and small windows, whatever the chunks, blocks and carry levels
// of the plan, a float cumsum or cumprod is the host definition's.
#include <catch2/catch.hpp>

#include "canonical_fold.hpp"
#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/submission.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <string>

using namespace vkdml_test;

namespace {

using Overrides = vkdml::testing::DeviceOverrides;

/// A row-major [rows, cols] tensor whose rounding shows the association: for sums, normal values scaled by
/// 2^-40 to 2^40 (wider than a compensated pair holds), or with `cancelling` normal values but 2^40 at a
/// quarter of each fiber along `axis` and -2^40 at three quarters, so that the running sum's low word,
/// rounded while 2^40 was in it, shows in the outputs after it (a rank-0 fallback total left unnormalized
/// changes 4,465 of 70,001 outputs of the single pass, which the spread values never showed); for products
/// 1 ± about 2^-7 (no underflow over 100,003).
template <class T>
std::vector<T> fiber_data(uint32_t rows, uint32_t cols, uint32_t axis, CanonicalOp op, uint64_t seed,
                          bool cancelling) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-40, 40);
    std::vector<T> x(size_t(rows) * cols);
    for (T& v : x)
        v = static_cast<T>(op == CanonicalOp::product ? 1.0 + normal(rng) * 0x1p-7
                           : cancelling               ? normal(rng)
                                                      : std::ldexp(normal(rng), exponent(rng)));
    const uint32_t fibers = axis == 0 ? cols : rows, len = axis == 0 ? rows : cols;
    if (op == CanonicalOp::sum && cancelling && len >= 4) {
        for (uint32_t f = 0; f < fibers; ++f) {
            auto at = [&](uint32_t i) { return axis == 0 ? size_t(i) * cols + f : size_t(f) * cols + i; };
            x[at(len / 4)] = T(0x1p40);
            x[at(len / 4 * 3)] = T(-0x1p40);
        }
    }
    return x;
}

/// The canonical scan of every fiber along `axis` of a row-major [rows, cols] tensor.
template <class T>
std::vector<T> expected(const std::vector<T>& x, uint32_t rows, uint32_t cols, uint32_t axis, CanonicalOp op,
                        bool exclusive, bool reverse) {
    std::vector<T> y(x.size());
    const uint32_t fibers = axis == 0 ? cols : rows, len = axis == 0 ? rows : cols;
    for (uint32_t f = 0; f < fibers; ++f) {
        auto at = [&](uint32_t i) { return axis == 0 ? size_t(i) * cols + f : size_t(f) * cols + i; };
        std::vector<T> line(len);
        for (uint32_t i = 0; i < len; ++i) line[i] = x[at(reverse ? len - 1 - i : i)];
        const std::vector<T> out = canonical_scan(op, line, exclusive);
        for (uint32_t i = 0; i < len; ++i) y[at(reverse ? len - 1 - i : i)] = out[i];
    }
    return y;
}

/// The canonical sum and product of the shape, each plain, exclusive, reverse and both (`all`; else the sum
/// plain and both exclusive and reverse: fewer pipelines to compile), the reverse sums of cancelling data
/// (fiber_data); `in_place`: on the device, the output bound over the input (execute() would read a copy).
template <class T>
void check_shape(const vkdml::Device& dev, const std::string& device_name, uint32_t rows, uint32_t cols,
                 uint32_t axis, bool all = true, bool in_place = false) {
    for (CanonicalOp op : {CanonicalOp::sum, CanonicalOp::product}) {
        for (int variant = 0; variant < 4; ++variant) {
            if (!all && (op == CanonicalOp::product || variant == 1 || variant == 2)) continue;
            const bool exclusive = variant & 1, reverse = variant & 2;
            const std::vector<T> x = fiber_data<T>(rows, cols, axis, op, rows * 31 + cols + variant, reverse);
            const std::vector<T> want = expected(x, rows, cols, axis, op, exclusive, reverse);
            const vkdml::ops::TensorDesc t{float_type_of<T>(), {rows, cols}, {}};
            const auto dir = reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
            auto o = op == CanonicalOp::sum ? vkdml::ops::cumulative_sum(t, axis, dir, exclusive)
                                            : vkdml::ops::cumulative_product(t, axis, dir, exclusive);
            REQUIRE(o);
            std::vector<T> got(x.size());
            if (in_place) {
                auto made = dev.create_operator(o->desc());
                REQUIRE(made);
                auto c = dev.compile_operator(*made);
                REQUIRE(c);
                auto data = vkdml::MappedBuffer::create(dev, x.size() * sizeof(T));
                REQUIRE(data);
                std::memcpy(data->data().data(), x.data(), x.size() * sizeof(T));
                const uint64_t temp_bytes = c->binding_properties().TemporaryResourceSize;
                auto temp = vkdml::MappedBuffer::create(dev, temp_bytes);
                REQUIRE(temp);
                REQUIRE(vkdml::submit(*c, {{*data}}, {{*data}}, *temp));  // (its destructor waits)
                std::memcpy(got.data(), data->data().data(), x.size() * sizeof(T));
            } else {
                const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
                const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(got))};
                REQUIRE(vkdml::execute(dev, o->desc(), in, out));
            }
            const Differences d = find_differences(
                got.size(), [&](uint64_t i) { return std::memcmp(&got[i], &want[i], sizeof(T)) != 0; });
            INFO(device_name << ": " << (sizeof(T) == 4 ? "float32 " : "float64 ")
                             << (op == CanonicalOp::sum ? "cumsum" : "cumprod") << " [" << rows << ", "
                             << cols << "] axis " << axis << (exclusive ? " exclusive" : "")
                             << (reverse ? " reverse" : "") << (in_place ? " in place" : "") << ": " << d
                             << " (" << got[d.first] << " vs " << want[d.first] << ")");
            CHECK(d.count == 0);
        }
    }
}

}  // namespace

TEST_CASE("serial float scans follow the canonical association on every policy row and window",
          "[gpu][canonical]") {
    using P = Overrides::PolicyClass;
    const struct {
        const char* name;
        std::shared_ptr<vkdml::Device> dev;
    } devices[] = {{"CPU rows", make_windowed_test_device(vkdml::KernelChoice::serial, P::cpu, 0)},
                   {"GPU rows", make_windowed_test_device(vkdml::KernelChoice::serial, P::gpu, 0)},
                   {"GPU rows, 64 KiB windows",
                    make_windowed_test_device(vkdml::KernelChoice::serial, P::gpu, 1u << 16)}};
    for (const auto& d : devices) {
        // Around the node boundaries of 32, 1,024 and 32,768 steps along one line, and past the longest
        // chunk (32,768 or 1,024 steps: a carry level); lines of rows along axis 0 (blocks across 8
        // fibers on the GPU rows) and along axis 1 (blocks along the line).
        for (uint32_t n : {1u, 31u, 32u, 33u, 1023u, 1025u, 32769u, 100003u}) {
            check_shape<float>(*d.dev, d.name, 1, n, 1);
            check_shape<double>(*d.dev, d.name, 1, n, 1);
        }
        check_shape<float>(*d.dev, d.name, 2051, 8, 0);
        check_shape<float>(*d.dev, d.name, 3, 4096, 1);
        check_shape<double>(*d.dev, d.name, 1500, 6, 0);
        // Blocks of 6 steps of 2 fibers side by side, which no node of 32 divides: on a line of one chunk
        // nodes close inside a block (102; 6,006 on the CPU rows, where a walk without those climbs
        // fails), and a line of several chunks goes element by element (6,006 on the GPU rows).
        check_shape<float>(*d.dev, d.name, 102, 2, 0);
        check_shape<float>(*d.dev, d.name, 6006, 2, 0);
    }
    require_no_validation_messages();
}

TEST_CASE("cooperative float scans tile in the canonical association", "[gpu][canonical]") {
    using P = Overrides::PolicyClass;
    const auto dev = make_windowed_test_device(vkdml::KernelChoice::cooperative, P::gpu, 0);
    // The plan `on` compiles for a float32 cumsum of one line of n.
    auto line_plan = [](const vkdml::Device& on, uint32_t n) {
        const vkdml::ops::TensorDesc t{DML_TENSOR_DATA_TYPE_FLOAT32, {1, n}, {}};
        const auto o = vkdml::ops::cumulative_sum(t, 1, DML_AXIS_DIRECTION_INCREASING, false);
        REQUIRE(o);
        return compiled_plan(on, o->desc());
    };
    // scan_canonical_tile's lines: one node of blocks (workgroup 32), tiles of 8 nodes, a line of one chunk
    // of 128 tiles, chunks of 32^3 and 32^4 elements with a carry level, and several lines.
    for (uint32_t n : {1000u, 1025u, 8193u, 40000u, 1048576u, 1100007u}) {
        const std::string plan = line_plan(*dev, n);
        INFO(plan);
        CHECK(plan.find("scan_canonical_tile/f32") != std::string::npos);
        CHECK(plan.find("scan_chained") == std::string::npos);
        check_shape<float>(*dev, "cooperative GPU rows", 1, n, 1);
    }
    for (uint32_t n : {1025u, 100003u}) check_shape<double>(*dev, "cooperative GPU rows", 1, n, 1);
    check_shape<float>(*dev, "cooperative GPU rows", 3, 70001, 1);
    // Staged through workgroup memory (scan.canonical_stage): the same bits. Whole tiles of 8,192 go through
    // the stage, a partial last tile, a reverse line and the misaligned lines of 70,001 do not; float64's
    // workgroups of 128 (the stage takes 33 words a block).
    Overrides staged_rows;
    staged_rows.kernels = vkdml::KernelChoice::cooperative;
    staged_rows.policy_class = P::gpu;
    vkdml::DeviceOptions staging;
    staging.tuning = {{"scan.canonical_stage", 1}};
    const auto staged = make_test_device(staging, staged_rows);
    for (uint32_t n : {8192u, 8193u, 40000u, 1048576u}) {
        const std::string plan = line_plan(*staged, n);
        INFO(plan);
        CHECK(plan.find("scan_canonical_tile_staged/f32") != std::string::npos);
        CHECK(plan.find("whole tiles staged | ") != std::string::npos);
        check_shape<float>(*staged, "cooperative GPU rows, staged", 1, n, 1);
    }
    check_shape<double>(*staged, "cooperative GPU rows, staged", 1, 100003, 1);
    check_shape<float>(*staged, "cooperative GPU rows, staged", 3, 70001, 1);
    // Through 1 MiB windows: the chunks' passes in several dispatches.
    const auto windowed = make_windowed_test_device(vkdml::KernelChoice::cooperative, P::gpu, 1u << 20);
    check_shape<float>(*windowed, "cooperative GPU rows, 1 MiB windows", 1, 1100007, 1);
    // The CPU rows keep lines of 8 fibers whole: one chunk of 40 nodes, whose walk climbs after the 32nd.
    const auto cpu = make_windowed_test_device(vkdml::KernelChoice::cooperative, P::cpu, 0);
    const vkdml::ops::TensorDesc rows{DML_TENSOR_DATA_TYPE_FLOAT32, {8, 40000}, {}};
    const auto o = vkdml::ops::cumulative_sum(rows, 1, DML_AXIS_DIRECTION_INCREASING, false);
    REQUIRE(o);
    const std::string plan = compiled_plan(*cpu, o->desc());
    INFO(plan);
    CHECK(
        plan.find("scan_canonical_tile/f32 scan | tiles of blocks of 32 elements, a block per invocation | 8 "
                  "lines x 1 chunk of 40000") != std::string::npos);
    check_shape<float>(*cpu, "cooperative CPU rows", 8, 40000, 1);
    require_no_validation_messages();
}

TEST_CASE("the canonical single pass gives the canonical tiles' bits", "[gpu][canonical]") {
    using P = Overrides::PolicyClass;
    Overrides rows;
    rows.kernels = vkdml::KernelChoice::cooperative;
    rows.policy_class = P::gpu;
    auto chained_device = [&](std::vector<std::pair<std::string, uint64_t>> tuning, bool falls_back) {
        Overrides o = rows;
        o.chained_scan_always_falls_back = falls_back;
        vkdml::DeviceOptions options;
        options.tuning = {{"scan.canonical_chained", 1}};
        for (auto& [knob, value] : tuning) options.tuning.push_back({knob, value});
        return make_test_device(options, o);
    };
    auto line_plan = [](const vkdml::Device& on, uint32_t n) {
        const vkdml::ops::TensorDesc t{DML_TENSOR_DATA_TYPE_FLOAT32, {1, n}, {}};
        const auto o = vkdml::ops::cumulative_sum(t, 1, DML_AXIS_DIRECTION_INCREASING, false);
        REQUIRE(o);
        return compiled_plan(on, o->desc());
    };
    // Tiles of 8 rank-0 nodes (1,024 elements each): two tiles, a partial last one, lines of 1,024 nodes
    // (ranks 0 and 1) and of 1,075 (ranks 0 to 2: the look-back climbs to rank 2), several lines.
    const auto dev = chained_device({}, false);
    for (uint32_t n : {8193u, 40000u, 1048576u, 1100007u}) {
        const std::string plan = line_plan(*dev, n);
        INFO(plan);
        CHECK(plan.find("pass 1: scan_canonical_chained/f32 clear tile states") != std::string::npos);
        CHECK(plan.find(
                  "pass 2: scan_canonical_chained/f32 chained scan (look-back over the canonical tree's "
                  "totals) | tiles of blocks of 32 elements, a block per invocation") != std::string::npos);
    }
    check_shape<float>(*dev, "canonical single pass", 1, 1100007, 1);
    check_shape<float>(*dev, "canonical single pass", 3, 40001, 1, false);
    check_shape<double>(*dev, "canonical single pass", 1, 100003, 1, false);
    check_shape<float>(*dev, "canonical single pass", 1, 300001, 1, false, true);
    // Tiles of 32 nodes (workgroups of 1,024): a tile closes its rank-1 node alone.
    const auto large = chained_device({{"scan.tile_workgroup", 1024}}, false);
    check_shape<float>(*large, "canonical single pass, tiles of 32 nodes", 1, 1100007, 1, false);
    // A line of one tile stays one pass of scan_canonical_tile.
    CHECK(line_plan(*dev, 8192).find("pass 1: scan_canonical_tile/f32 scan | ") != std::string::npos);
    CHECK(line_plan(*dev, 8192).find("scan_canonical_chained") == std::string::npos);
    // Every total computed by the tile that needs it (no spin): from the input at rank 0, under a rank-1
    // node from its children (odd ones published, even ones from the input); in place, the total of a
    // tile that has published it since. Tiles of one node (workgroups of 32).
    const auto fallback = chained_device({{"scan.tile_workgroup", 32}}, true);
    const char* every_total = "canonical single pass, tiles of 1 node, every total a fallback";
    check_shape<float>(*fallback, every_total, 1, 70001, 1, false);
    check_shape<float>(*fallback, every_total, 1, 70001, 1, false, true);
    // Ranks 0 to 2 (2^20 + 70,001): the tile closing rank-2 node 0 folds rank-1 totals, the even ones from
    // their children; each tile after it climbs to rank 2 and walks node 0 down to the input, folding the
    // odd rank-1 totals it reads as children (no walk of a line of 2^20 elements or fewer has either).
    CHECK(line_plan(*fallback, 1118577).find("scan_canonical_chained") != std::string::npos);
    check_shape<float>(*fallback, every_total, 1, 1118577, 1, false);
    require_no_validation_messages();
}
