// test_large.cpp — tensors past the device's limits (tag [large], CTest label `large`).
//
// On lavapipe: bindings larger than maxStorageBufferRange (128 MiB), so every pass is cut into windows;
// axes longer than 65,535 (the silent loop cap); more chunks than one dispatch row holds. Each case
// runs through the host path against the CPU reference like the sweeps do (every element compared:
// integers exactly, floats exactly where every partial result is exact, else within the reference's
// tolerance; padding and input intact; no validation message) and reports how long it took.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "npy/npy.hpp"
#include "reduce_expect.hpp"
#include "reduce_sweep.hpp"
#include "scan_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <span>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

constexpr auto I32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr uint32_t kMi = 1u << 20;

/// Runs `body` and reports its wall time after `what` (a report for the closing note, never an assertion).
template <class Body>
void timed(const std::string& what, Body body) {
    auto start = std::chrono::steady_clock::now();
    body();
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    WARN(what << ": " << took.count() << " s");
}

struct LargeScan {
    ScanOp op;
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    uint32_t axis;
    int combo;  // scan_spec's (direction, exclusive) choice
    Fill fill;
    bool in_place;
};

void run_large_scan(const LargeScan& l, uint64_t seed) {
    ScanCase c;
    c.type = l.type;
    c.sizes = l.sizes;
    c.spec = scan_spec(l.op, l.axis, l.combo);
    c.fill = l.fill;
    c.seed = seed;
    c.in_place = l.in_place;
    c.in_strides = packed_strides(c.sizes);
    c.out_strides = packed_strides(c.sizes);
    SweepStats stats;
    timed(describe(c) + "\n  run and checked against the reference", [&] { run_scan_case(c, stats); });
}

/// A reduce or arg case (ARGMAX and ARGMIN INCREASING, UINT32 indices) with its fill and seed.
ReduceCase large_reduce(DML_OPERATOR_TYPE op, DML_REDUCE_FUNCTION function, DML_TENSOR_DATA_TYPE type,
                        std::vector<uint32_t> sizes, std::vector<uint32_t> axes, ReduceFill fill,
                        uint64_t seed) {
    const auto index = DML_TENSOR_DATA_TYPE_UINT32;
    ReduceCase c =
        op == DML_OPERATOR_REDUCE
            ? reduce_case(function, type, std::move(sizes), std::move(axes), index)
            : arg_case(op, DML_AXIS_DIRECTION_INCREASING, type, std::move(sizes), std::move(axes), index);
    c.fill = fill;
    c.seed = seed;
    return c;
}

void run_large_reduce(const ReduceCase& c) {
    SweepStats stats;
    timed(describe(c) + "\n  run and checked against the reference", [&] { run_reduce_case(c, stats); });
}

}  // namespace

TEST_CASE("large: cumulative sums and products past maxStorageBufferRange and the loop cap",
          "[gpu][large][cumsum][cumprod]") {
    const std::vector<LargeScan> cases = {
        // 1-D float32, 48 Mi elements (192 MiB): small integers keep every float partial sum exact.
        {ScanOp::sum, F32, {48 * kMi}, 0, 0, Fill::small_integers, false},
        // 1-D float64, 40 Mi elements (320 MiB), decreasing and exclusive: random values, tolerance.
        {ScanOp::sum, F64, {40 * kMi}, 0, 3, Fill::random, false},
        // int32 along a long outer axis and a long inner axis (wrap-around sums, exact).
        {ScanOp::sum, I32, {70000, 3}, 0, 0, Fill::random, false},
        {ScanOp::sum, I32, {3, 70000}, 1, 1, Fill::random, false},
        // Outer-axis product of values near 1 over 100,000 rows.
        {ScanOp::product, F32, {100000, 8}, 0, 0, Fill::random, false},
        // Outer axis across windows: [16 Mi, 3] float32 (192 MiB) along axis 0.
        {ScanOp::sum, F32, {16 * kMi, 3}, 0, 2, Fill::small_integers, false},
        // In place, int32, 40 Mi elements (160 MiB).
        {ScanOp::sum, I32, {40 * kMi}, 0, 1, Fill::random, true},
    };
    uint64_t seed = 0x1a76e;
    for (const LargeScan& l : cases) run_large_scan(l, seed++);
}

TEST_CASE("large: reductions past maxStorageBufferRange", "[gpu][large][reduce][argminmax]") {
    const auto S = ReduceFill::small_integers;
    const auto R = ReduceFill::random;
    const auto SUM = DML_REDUCE_FUNCTION_SUM;
    // Sum and argmax over 48 Mi float32 elements (192 MiB); small integers: exact sums, many ties.
    run_large_reduce(large_reduce(DML_OPERATOR_REDUCE, SUM, F32, {48 * kMi}, {0}, S, 1));
    run_large_reduce(large_reduce(DML_OPERATOR_ARGMAX, SUM, F32, {48 * kMi}, {0}, S, 2));
    // Every axis of [5000, 5000, 2] (200 MB) into one output.
    run_large_reduce(large_reduce(DML_OPERATOR_REDUCE, SUM, F32, {5000, 5000, 2}, {0, 1, 2}, S, 3));
    run_large_reduce(
        large_reduce(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MAX, F32, {5000, 5000, 2}, {2, 0, 1}, R, 4));
    // Two rows 128 MiB apart (256 MiB): one chunk of two elements would not fit a window, so each
    // output folds its rows in separate passes.
    run_large_reduce(large_reduce(DML_OPERATOR_REDUCE, SUM, I32, {2, 32 * kMi}, {0}, R, 5));
    run_large_reduce(large_reduce(DML_OPERATOR_ARGMIN, SUM, I32, {2, 32 * kMi}, {0}, S, 6));
}

namespace {

/// A buffer tensor description with explicit strides (held by the caller's arrays).
struct Desc {
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC tensor{};
    Desc(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
         const std::vector<uint32_t>& strides) {
        buffer.DataType = type;
        buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
        buffer.Sizes = sizes.data();
        buffer.Strides = strides.data();
        buffer.TotalTensorSizeInBytes =
            DMLCalcBufferTensorSize(type, buffer.DimensionCount, sizes.data(), strides.data());
        tensor = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
};

}  // namespace

// DirectML's element limit itself. The input is broadcast (sizes [65537, 65535], 2^32 − 1 elements, with
// one value per row), so it fits any device: every index, chunk and item count is near 2^32.
TEST_CASE("large: reductions over 2^32 - 1 elements", "[gpu][large][reduce][argminmax]") {
    const std::vector<uint32_t> sizes = {65537, 65535}, strides = {1, 0};
    const std::vector<uint32_t> one = {1, 1}, one_strides = {1, 1};
    const uint32_t axes[] = {0, 1};
    std::vector<int32_t> rows(65537);
    for (uint32_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int32_t>(i % 7) - 3;  // -3 .. 3
    rows[65536] = 5;  // the largest value: the last row
    rows[0] = -9;     // the smallest: the first row
    Desc in(DML_TENSOR_DATA_TYPE_INT32, sizes, strides);
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(rows))};

    timed("int32 SUM over 2^32 - 1 broadcast elements", [&] {
        Desc out(DML_TENSOR_DATA_TYPE_INT32, one, one_strides);
        DML_REDUCE_OPERATOR_DESC d{DML_REDUCE_FUNCTION_SUM, &in.tensor, &out.tensor, 2, axes};
        int64_t expected = 0;
        for (int32_t r : rows) expected += int64_t(r) * 65535;
        int32_t result = 0;
        const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(&result, 1))};
        vkdml::Status st = vkdml::execute(test_device(), {DML_OPERATOR_REDUCE, &d}, inputs, outputs);
        require_no_validation_messages();
        INFO((st.ok() ? std::string("ok") : st.error().message));
        REQUIRE(st.ok());
        CHECK(result == static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(expected))));
    });
    // The largest value fills the last row, 65,535 times; the last of those ties is the last element,
    // index 2^32 - 2. (About a minute per pass over 2^32 elements on lavapipe: one arg case only.)
    timed("ARGMAX over 2^32 - 1 broadcast elements, the last of the tied maxima", [&] {
        Desc out(DML_TENSOR_DATA_TYPE_UINT64, one, one_strides);
        DML_ARGMAX_OPERATOR_DESC d{&in.tensor, &out.tensor, 2, axes, DML_AXIS_DIRECTION_DECREASING};
        uint64_t result = 0;
        const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(&result, 1))};
        vkdml::Status st = vkdml::execute(test_device(), {DML_OPERATOR_ARGMAX, &d}, inputs, outputs);
        require_no_validation_messages();
        INFO((st.ok() ? std::string("ok") : st.error().message));
        REQUIRE(st.ok());
        CHECK(result == 4294967294ull);
    });
}

// Element offsets past 2^31: a uint8 running sum of a broadcast 1 into 2^31 − 2^20 outputs (2 GiB less
// 1 MiB, within lavapipe's 2 GiB heap with the scratch), checked element by element: y[k] = (k + 1) mod 256.
TEST_CASE("large: a cumulative sum into 2^31 - 2^20 elements", "[gpu][large][cumsum]") {
    const uint32_t n = (1u << 31) - (1u << 20);
    const vkdml::DeviceInfo& info = test_device().info();
    if (info.max_memory_allocation_size < n || info.host_visible_heap < uint64_t(n) + (1u << 20)) {
        WARN("skipped: the device's memory limits cannot hold a " << n << "-byte output");
        return;
    }
    const std::vector<uint32_t> sizes = {n}, zero = {0}, packed = {1};
    Desc in(DML_TENSOR_DATA_TYPE_UINT8, sizes, zero);
    Desc out(DML_TENSOR_DATA_TYPE_UINT8, sizes, packed);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&in.tensor, &out.tensor, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    const uint8_t ones[4] = {1, 1, 1, 1};
    std::vector<uint8_t> result(n);
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(ones))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(result))};
    timed("uint8 cumsum into 2^31 - 2^20 elements", [&] {
        vkdml::Status st =
            vkdml::execute(test_device(), {DML_OPERATOR_CUMULATIVE_SUMMATION, &d}, inputs, outputs);
        require_no_validation_messages();
        INFO((st.ok() ? std::string("ok") : st.error().message));
        REQUIRE(st.ok());
        const Differences wrong =
            find_differences(n, [&](uint64_t k) { return result[k] != static_cast<uint8_t>(k + 1); });
        INFO(wrong << " (it holds " << int(result[wrong.first]) << ")");
        CHECK(wrong.count == 0);
    });
}

// The tool on a 192 MiB .npy file: the file's data goes straight into the mapped device buffer and the
// result straight from it into the output file (HostExecution), so beyond the tool's footprint on a
// tiny file it holds one copy of the input and one of the output, where staging through host arrays
// would hold two of each.
TEST_CASE("large: the vkdml tool on 48 Mi float32 elements, one copy of each tensor", "[gpu][large][cli]") {
    const uint32_t n = 48 * kMi;
    const uint64_t bytes = uint64_t(n) * 4;
    cli::TempDir dir;
    std::vector<float> values(n);
    uint32_t state = 12345;
    for (float& v : values) {
        state = state * 1664525u + 1013904223u;
        const int k = static_cast<int>(state >> 28);
        v = static_cast<float>(k < 8 ? k - 8 : k - 7);  // ±1 .. ±8, mean 0: running sums stay exact
    }
    const std::string in = dir / "in.npy", tiny = dir / "tiny.npy";
    REQUIRE(vkdml::npy::write(in, F32, std::vector<uint32_t>{n}, std::as_bytes(std::span(values))).ok());
    REQUIRE(vkdml::npy::write(tiny, F32, std::vector<uint32_t>{4}, std::as_bytes(std::span(values).first(4)))
                .ok());

    struct Run {
        std::vector<std::string> args;
        uint64_t output_bytes;
    };
    const std::vector<Run> runs = {{{"cumsum", "--axis", "0"}, bytes},
                                   {{"reduce", "--function", "sum", "--axes", "0"}, 4},
                                   {{"argmax", "--axes", "0"}, 4}};
    for (const Run& r : runs) {
        std::vector<std::string> args = r.args, tiny_args = r.args;
        args.insert(args.end(), {in, dir / "out.npy"});
        tiny_args.insert(tiny_args.end(), {tiny, dir / "tiny_out.npy"});
        const cli::Outcome small = cli::run_tool(dir, tiny_args);
        REQUIRE(small.exit_code == 0);
        cli::Outcome big;
        timed("vkdml " + r.args[0] + " on 48 Mi float32 (the tool's run)",
              [&] { big = cli::run_tool(dir, args); });
        INFO(big.err);
        REQUIRE(big.exit_code == 0);
        const uint64_t extra_kib = big.peak_rss_kib - std::min(big.peak_rss_kib, small.peak_rss_kib);
        WARN("vkdml " << r.args[0] << ": peak memory " << big.peak_rss_kib << " KiB, " << extra_kib
                      << " KiB over the tiny run, for " << (bytes + r.output_bytes) / 1024
                      << " KiB of tensors");
        CHECK(extra_kib * 1024 < (bytes + r.output_bytes) * 5 / 4);

        auto out = vkdml::npy::read(dir / "out.npy");
        REQUIRE(out.has_value());
        if (r.args[0] == "cumsum") {
            REQUIRE(out->data.size() == bytes);
            const auto* y = reinterpret_cast<const float*>(out->data.data());
            double sum = 0;
            uint64_t wrong = 0;
            for (uint32_t k = 0; k < n; ++k) wrong += y[k] != static_cast<float>(sum += values[k]);
            CHECK(wrong == 0);
        } else if (r.args[0] == "reduce") {
            double sum = 0;
            for (float v : values) sum += v;
            float got = 0;
            std::memcpy(&got, out->data.data(), 4);
            CHECK(got == static_cast<float>(sum));
        } else {
            uint32_t got = 0;
            std::memcpy(&got, out->data.data(), 4);
            CHECK(got == std::max_element(values.begin(), values.end()) - values.begin());
        }
    }
}
