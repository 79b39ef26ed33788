// test_large.cpp — tensors past the device's limits (tag [large], CTest label `large`).
//
// On lavapipe: bindings larger than maxStorageBufferRange (128 MiB), so every pass is cut into windows;
// axes longer than 65,535 (the silent loop cap); more chunks than one dispatch row holds. Each case
// runs through the host path against the CPU reference like the sweeps do (every element compared:
// integers exactly, floats exactly where every partial result is exact, else within the reference's
// tolerance; padding and input intact; no validation message) and reports how long it took.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reduce_sweep.hpp"
#include "scan_sweep.hpp"

#include <chrono>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr auto F64 = DML_TENSOR_DATA_TYPE_FLOAT64;
constexpr auto I32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr uint32_t kMi = 1u << 20;

/// Runs `body` and reports its wall time with `what` (a report, never an assertion).
template <class Body>
void timed(const std::string& what, Body body) {
    auto start = std::chrono::steady_clock::now();
    body();
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    WARN(what << ": " << took.count() << " s (execution and reference check)");
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
    timed(describe(c), [&] { run_scan_case(c, stats); });
}

ReduceCase large_reduce(DML_OPERATOR_TYPE op, DML_REDUCE_FUNCTION function, DML_TENSOR_DATA_TYPE type,
                        std::vector<uint32_t> sizes, std::vector<uint32_t> axes, ReduceFill fill,
                        uint64_t seed) {
    ReduceCase c;
    c.op = op;
    c.function = function;
    c.type = type;
    c.index_type = DML_TENSOR_DATA_TYPE_UINT32;
    c.sizes = std::move(sizes);
    c.axes = std::move(axes);
    c.in_strides = packed_strides(c.sizes);
    c.out_strides = packed_strides(output_sizes(c));
    c.fill = fill;
    c.seed = seed;
    return c;
}

void run_large_reduce(const ReduceCase& c) {
    SweepStats stats;
    timed(describe(c), [&] { run_reduce_case(c, stats); });
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
