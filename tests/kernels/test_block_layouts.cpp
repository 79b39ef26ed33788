// The serial kernels' blocks (src/core/scan_plan.cpp and src/core/reduce_plan.cpp, block_layout): each shape
// below is chosen to take one kind of block — whole vectors along a contiguous line, vectors across
// neighbouring fibers or outputs, narrow fiber groups, whole short rows — with lines short enough for
// one pass and long enough to be split into chunks whose partials hold several lanes. Every case runs
// for every type on a GPU and one type of each element width and kind on lavapipe (block_types) and is
// checked element by element against the CPU reference. The kernel family
// chosen on the test device decides which of them are blocked (the serial family on lavapipe); the GPU
// rows plan them too, with the serial kernels whatever the family (gpu-rows-sg8), and must agree.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "half.hpp"
#include "reduce_sweep.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"

#include <iterator>
#include <vector>

using namespace vkdml_test;

namespace {

struct Shape {
    const char* what;
    std::vector<uint32_t> sizes;
    uint32_t axis;
};

// Scans: the block kind each shape takes (float32; 64-bit types have vectors of 2).
const std::vector<Shape> kScanShapes = {
    {"vectors along the axis, one pass", {3, 64}, 1},
    {"vectors along the axis, split into chunks", {1, 262144}, 1},
    {"vectors across 16 fibers", {40, 16}, 0},
    {"vectors across fibers, split into chunks (lanes of partials)", {20000, 8}, 0},
    {"two fibers side by side", {300, 2}, 0},
    {"two fibers side by side, split into chunks", {50000, 2}, 0},
    {"one fiber per lane of a middle axis", {5, 40, 4}, 1},
    {"whole rows of 3", {64, 3}, 1},
    {"whole rows of 2", {36, 2}, 1},
    {"whole rows of 6", {12, 6}, 1},
    {"whole rows of 8, several per block (one block along a row would hold it whole)", {64, 8}, 1},
    {"rows of 5: element by element", {12, 5}, 1},
};

// Reductions: the block kind each shape takes.
struct ReduceShape {
    const char* what;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> axes;
};
const std::vector<ReduceShape> kReduceShapes = {
    {"vectors along the reduced line, one pass", {5, 64}, {1}},
    {"vectors along the reduced line, split into chunks", {1, 200000}, {1}},
    {"vectors across 16 outputs", {40, 16}, {0}},
    {"vectors across outputs, split into chunks", {30000, 8}, {0}},
    {"vectors across outputs over two reduced axes", {6, 5, 8}, {0, 1}},
    {"whole rows of 3", {64, 3}, {1}},
    {"whole rows of 2", {36, 2}, {1}},
    {"whole rows of 6", {12, 6}, {1}},
    {"whole rows of 8, several per block (one block along a row would hold it whole)", {64, 8}, {1}},
    {"rows of 5: element by element", {12, 5}, {1}},
};

/// The types each shape runs with: on a CPU device (lavapipe) one of each element width and kind, whose
/// vectors make the blocks (the sweeps run every type there); on a GPU every type, as a GPU compiler
/// may fail one type of a width alone (the H200's UINT32 scans, docs/gpu/h100-2026-11-26).
const std::vector<DML_TENSOR_DATA_TYPE>& block_types() {
    return test_device().info().physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU ? width_types() : all_types();
}

/// The REDUCE functions each shape runs with: on a GPU all twelve; on a CPU device one per kind of fold
/// state a block feeds (a compensated sum, AVERAGE's count, a compensated product, a plain value,
/// LOG_SUM_EXP's running maximum) — L1, L2, SUM_SQUARE and LOG_SUM differ from SUM only in the step
/// applied to each element after its block loaded it, and MIN from MAX in the comparison (the sweeps
/// run all twelve there).
std::vector<DML_REDUCE_FUNCTION> block_functions() {
    if (test_device().info().physical.type != VK_PHYSICAL_DEVICE_TYPE_CPU)
        return {std::begin(kReduceFunctions), std::end(kReduceFunctions)};
    return {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_MULTIPLY,
            DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_LOG_SUM_EXP};
}

/// A REDUCE SUM case of `s` with packed input and output (set the function, type and seed after).
ReduceCase packed_reduce_case(const ReduceShape& s) {
    ReduceCase c;
    c.sizes = s.sizes;
    c.axes = s.axes;
    c.in_strides = packed_strides(s.sizes);
    c.out_strides = packed_strides(output_sizes(c));
    return c;
}

}  // namespace

TEST_CASE("blocks: cumulative sums and products of every block kind, type, direction and exclusivity",
          "[gpu][cumsum][cumprod][blocks]") {
    SweepStats stats;
    uint64_t seed = 1;
    for (const Shape& s : kScanShapes) {
        INFO(s.what);
        // A packed case of this shape; seeds are numbered in the order the cases run.
        const auto packed_case = [&](DML_TENSOR_DATA_TYPE type, const ScanSpec& spec) {
            ScanCase c;
            c.type = type;
            c.sizes = s.sizes;
            c.in_strides = c.out_strides = packed_strides(s.sizes);
            c.spec = spec;
            c.seed = seed++;
            return c;
        };
        for (ScanOp op : {ScanOp::sum, ScanOp::product}) {
            for (DML_TENSOR_DATA_TYPE type : block_types()) {
                for (int combo = 0; combo < 4; ++combo)
                    run_scan_case(packed_case(type, scan_spec(op, s.axis, combo)), stats);
                ScanCase in_place = packed_case(type, scan_spec(op, s.axis, 1));
                in_place.in_place = true;
                run_scan_case(in_place, stats);
            }
        }
    }
    CHECK(stats.failed == 0);
}

// Serial scans whose workgroup walks long chunks of neighbouring fibers together (scan_serial's
// LOCKSTEP, CPU devices: chunks of 4,096 positions or more across 256 items or more): invocations past
// the dispatch's items and past a shorter chunk's end still reach every barrier, and write nothing.
TEST_CASE("blocks: scans walking in lockstep, with a partial workgroup and a shorter last chunk",
          "[gpu][cumsum][cumprod][blocks]") {
    const std::vector<Shape> shapes = {
        {"element by element, 259 fibers (a last workgroup of 3)", {4100, 259}, 0},
        {"vectors across 4 fibers, 257 items (a last workgroup of 1)", {4096, 1028}, 0},
        {"two chunks, the second 1,808 positions", {10000, 257}, 0},
    };
    SweepStats stats;
    uint64_t seed = 5000;
    for (const Shape& s : shapes) {
        INFO(s.what);
        // Every direction and exclusivity, in place too; four types on the smallest shape, two after.
        const bool small = s.sizes[0] * s.sizes[1] < 2000000;
        for (ScanOp op : {ScanOp::sum, ScanOp::product}) {
            for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32,
                                              DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64}) {
                if (!small && (type == DML_TENSOR_DATA_TYPE_FLOAT16 || type == DML_TENSOR_DATA_TYPE_INT64))
                    continue;
                for (int combo = 0; combo < 2; ++combo) {
                    ScanCase c;
                    c.type = type;
                    c.sizes = s.sizes;
                    c.in_strides = c.out_strides = packed_strides(s.sizes);
                    c.spec = scan_spec(op, s.axis, op == ScanOp::sum ? combo : 2 + combo);
                    c.in_place = combo == 1;
                    // Room for a row past each tensor: a position past a chunk's end would show there.
                    c.in_extra_bytes = c.out_extra_bytes = 8ull * s.sizes[1];
                    c.seed = seed++;
                    run_scan_case(c, stats);
                }
            }
        }
    }
    CHECK(stats.cases == 2 * 2 * (4 + 2 + 2));
    CHECK(stats.failed == 0);
}

TEST_CASE("blocks: the reduce functions and the arg operators on every block kind and type",
          "[gpu][reduce][argminmax][blocks]") {
    SweepStats stats;
    uint64_t seed = 1;
    for (const ReduceShape& s : kReduceShapes) {
        INFO(s.what);
        for (DML_REDUCE_FUNCTION f : block_functions()) {
            for (DML_TENSOR_DATA_TYPE type : block_types()) {
                if (is_float_only_function(f) && !vkdml::is_float_type(type)) continue;
                ReduceCase c = packed_reduce_case(s);
                c.function = f;
                c.type = type;
                c.seed = seed++;
                run_reduce_case(c, stats);
            }
        }
        for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
            for (DML_TENSOR_DATA_TYPE type : block_types()) {
                ReduceCase c = packed_reduce_case(s);
                c.op = op;
                c.direction = seed % 2 ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
                c.type = type;
                c.index_type = seed % 3 ? DML_TENSOR_DATA_TYPE_UINT32 : DML_TENSOR_DATA_TYPE_INT64;
                c.fill = ReduceFill::small_integers;
                c.seed = seed++;
                run_reduce_case(c, stats);
            }
        }
    }
    CHECK(stats.failed == 0);
}

// Serial reductions whose workgroup walks long chunks of neighbouring outputs together (reduce_serial's
// LOCKSTEP, CPU devices: chunks of 1,024 positions or more across 64 items or more): invocations past
// the dispatch's items and past a shorter chunk's end still reach every barrier, and write nothing.
TEST_CASE("blocks: reductions walking in lockstep, with a partial workgroup and a shorter last chunk",
          "[gpu][reduce][argminmax][blocks]") {
    const std::vector<ReduceShape> shapes = {
        {"element by element, 259 outputs, chunks of 1,024 and 76 rows", {1100, 259}, {0}},
        {"vectors across 4 outputs, 257 items, chunks of 1,024 and 976 rows", {2000, 1028}, {0}},
    };
    SweepStats stats;
    uint64_t seed = 7000;
    for (const ReduceShape& s : shapes) {
        INFO(s.what);
        for (DML_REDUCE_FUNCTION f : kReduceFunctions) {
            for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32}) {
                if (is_float_only_function(f) && !vkdml::is_float_type(type)) continue;
                ReduceCase c = packed_reduce_case(s);
                c.function = f;
                c.type = type;
                c.out_extra_bytes = 8ull * s.sizes[1];  // the tail past the output must stay untouched
                c.seed = seed++;
                run_reduce_case(c, stats);
            }
        }
        for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX}) {
            ReduceCase c = packed_reduce_case(s);
            c.op = op;
            c.direction =
                op == DML_OPERATOR_ARGMAX ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
            c.type = DML_TENSOR_DATA_TYPE_FLOAT16;
            c.index_type = DML_TENSOR_DATA_TYPE_INT64;
            c.fill = ReduceFill::small_integers;
            c.seed = seed++;
            run_reduce_case(c, stats);
        }
    }
    CHECK(stats.cases == 2 * (12 * 2 - 4 + 2));  // AVERAGE, L2, LOG_SUM and LOG_SUM_EXP: float only
    CHECK(stats.failed == 0);
}

TEST_CASE("blocks: float16 converts every one of its 65536 values to float32 and back exactly",
          "[gpu][cumsum][blocks]") {
    // A cumulative sum over an axis of length 1 is x -> float32 (+ -0) -> float16 for every element: the
    // identity for every value but NaNs, which come back as quiet NaNs of unspecified sign and payload
    // (docs/SPEC.md "NaN payloads": a device's arithmetic may return its canonical NaN).
    TestTensor in = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {65536, 1});
    TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {65536, 1});
    for (uint32_t h = 0; h < 65536; ++h) in.set_bits(h, h);
    const vkdml::Status st = execute_scan({ScanOp::sum, 1, false, false}, in, &out);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    uint32_t wrong = 0;
    for (uint32_t h = 0; h < 65536; ++h) {
        const bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
        const bool quiet_nan = (out.get_bits(h) & 0x7e00u) == 0x7e00u;
        if (nan ? quiet_nan : out.get_bits(h) == h) continue;
        if (wrong++ < 8) UNSCOPED_INFO("0x" << std::hex << h << " became 0x" << out.get_bits(h));
    }
    CHECK(wrong == 0);
}

TEST_CASE("blocks: float16 rounds every exact product of two halves once, to nearest even",
          "[gpu][cumprod][blocks]") {
    // Rows [x, y] of a cumulative product along axis 1: y's output is x * y, exact in the float32
    // accumulator (11 + 11 significand bits, far from float32's range limits), so the only rounding is
    // float32 -> float16, here at every kind of result: normal, subnormal, halfway cases (ties to even)
    // in both ranges, carries into the next binade, overflow to inf (65520 is a tie that goes to inf),
    // and underflow to a signed zero. x runs over every finite half of both signs.
    const double ys[] = {1 + 0x1p-10, 0.75, 1.5 + 0x1p-10, 0x1p-11, 3 * 0x1p-12, -(2 - 0x1p-10), 0x1p-24};
    std::vector<uint16_t> xs;
    for (uint32_t h = 0; h < 65536; ++h)
        if ((h & 0x7c00u) != 0x7c00u) xs.push_back(static_cast<uint16_t>(h));
    const uint32_t rows = static_cast<uint32_t>(xs.size() * std::size(ys));
    TestTensor in = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {rows, 2});
    TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {rows, 2});
    uint32_t r = 0;
    for (double y : ys)
        for (uint16_t x : xs) {
            in.set_bits_at({r, 0}, x);
            in.set_double_at({r, 1}, y);
            ++r;
        }
    const vkdml::Status st = execute_scan({ScanOp::product, 1, false, false}, in, &out);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    uint32_t wrong = 0;
    for (r = 0; r < rows; ++r) {
        const uint16_t x = static_cast<uint16_t>(in.get_bits_at({r, 0}));
        const double product =
            half_to_double(x) * half_to_double(static_cast<uint16_t>(in.get_bits_at({r, 1})));
        const uint64_t expected = half_from_double(product);
        if (out.get_bits_at({r, 0}) == x && out.get_bits_at({r, 1}) == expected) continue;
        if (wrong++ < 8)
            UNSCOPED_INFO("row " << r << ": 0x" << std::hex << x << " * " << in.get_bits_at({r, 1})
                                 << " gave 0x" << out.get_bits_at({r, 1}) << ", expected 0x" << expected);
    }
    CHECK(wrong == 0);
}
