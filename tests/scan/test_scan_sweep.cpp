// test_scan_sweep.cpp — randomized conformance sweeps of DML_CUMULATIVE_SUMMATION and
// DML_CUMULATIVE_PRODUCT against the CPU reference (scan_sweep.hpp says what each case checks).
//
// Each sweep runs once per operation; per operation (about 3,760 executions, 8.3 million elements;
// a few seconds on lavapipe with a warm shader cache, ~15 s cold, on 2 cores):
//  - "ranks, axes, directions" (1,584 cases, all 11 types): rank 1..8 x every axis x both
//    directions x exclusive on/off; random shapes of at most 2,048 elements whose axis length comes
//    from the interesting-length list; random input layouts (packed, padded, Fortran, random
//    permutation with pads, zero-stride broadcast) and output layouts (packed, padded, Fortran,
//    permuted); 1 in 6 cases in place.
//  - "axis lengths" (1,672 cases, all 11 types): every length of kLengths (1 .. 4097), each in four
//    shapes ([L]; many rows [R, L]; outer axis [L, I]; middle axis [2, L, 3]), the four
//    direction/exclusive combinations rotating over them.
//  - "long axes" (14 cases, 8 types): axes of 65,536 .. 262,147 (past lavapipe's 65,535-iteration
//    loop cap): 1-D float32/int32/float16/float64/int64, an outer long axis [70001, 3], a middle
//    one [2, 66000, 2], uint8 [2, 70001], a padded uint16 and an in-place int16 long axis.
//  - "layouts" (396 cases, all 11 types): sizes {5, 33, 7}, every axis, eleven input/output layout
//    pairings (padded either side, Fortran either side, permuted, broadcast, in place three ways),
//    plus broadcast along the scanned axis itself.
//  - "padding untouched" (66 cases, all 11 types): outputs with gaps between elements and rows and
//    extra tail bytes; 1-D outputs with element gaps of 1 and 3 (for 8/16-bit types a kernel that
//    writes whole 32-bit words would clobber them); in place with gaps.
//  - "run to run" (27 executions): float16/32/64 results are bit-identical over three runs.
// Fills alternate between "random" and "small integers" (fill_scan_input): for sums, full-range
// integers (sums wrap) and uniform [-1, 1] floats (tolerance) or small integers (exact); for
// products, odd full-range integers (products wrap on and on) and floats near ±1 (tolerance against
// the long double reference), or {±1, ±3, ±2, 0} integers and {±1, ±2, ±0.5, 0} floats (exact).
// VKDML_TEST_SEED (decimal or 0x-hex) changes the random seed; a failing case prints its seed.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "scan_sweep.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

// Each operation draws its own random cases.
uint64_t salt(ScanOp op, uint64_t sweep) {
    return op == ScanOp::sum ? sweep : 0x100 + sweep;
}

void sweep_ranks_and_axes(ScanOp op, const std::vector<DML_TENSOR_DATA_TYPE>& types = all_types()) {
    std::mt19937_64 rng = sweep_rng(salt(op, 1));
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : types) {
        for (uint32_t rank = 1; rank <= 8; ++rank) {
            for (uint32_t axis = 0; axis < rank; ++axis) {
                for (int combo = 0; combo < 4; ++combo) {
                    ScanCase c;
                    c.type = type;
                    c.sizes = random_shape(rng, rank, axis, 2048);
                    c.spec = scan_spec(op, axis, combo);
                    c.seed = rng();
                    c.fill = (combo + axis) % 2 ? Fill::small_integers : Fill::random;
                    c.in_place = uniform(rng, 0, 5) == 0;
                    const Layout in_layout =
                        pick(rng, std::vector<Layout>{Layout::packed, Layout::padded, Layout::fortran,
                                                      Layout::permuted, Layout::broadcast});
                    const Layout out_layout =
                        pick(rng, std::vector<Layout>{Layout::packed, Layout::padded, Layout::fortran,
                                                      Layout::permuted});
                    if (c.in_place) {
                        c.in_strides = layout_strides(rng, out_layout, c.sizes, axis);
                    } else {
                        c.in_strides = layout_strides(rng, in_layout, c.sizes, axis);
                        c.out_strides = layout_strides(rng, out_layout, c.sizes, axis);
                        c.out_extra_bytes = 4 * uniform(rng, 0, 2);
                    }
                    INFO("layouts: input " << layout_name(c.in_place ? out_layout : in_layout) << ", output "
                                           << (c.in_place ? "in place" : layout_name(out_layout)));
                    run_scan_case(c, stats);
                }
            }
        }
    }
    WARN(to_string(op) << " "
                       << "rank/axis sweep: " << stats.cases << " cases, " << stats.elements << " elements, "
                       << stats.unsupported << " unsupported-type cases");
}

// VKDML_TEST_SWEEP_TYPES=widths: one type of each element width and kind (the runs that repeat the
// per-type kernels in another configuration: gpu-rows-sg4, tests/CMakeLists.txt); unset: every type.
const std::vector<DML_TENSOR_DATA_TYPE>& sweep_types() {
    const char* env = std::getenv("VKDML_TEST_SWEEP_TYPES");
    if (!env || !*env) return all_types();
    if (std::string(env) != "widths")
        FAIL("VKDML_TEST_SWEEP_TYPES is '" << env << "': expected widths or nothing");
    return width_types();
}

void sweep_axis_lengths(ScanOp op, const std::vector<DML_TENSOR_DATA_TYPE>& types) {
    std::mt19937_64 rng = sweep_rng(salt(op, 2));
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : types) {
        for (size_t li = 0; li < kLengths.size(); ++li) {
            const uint32_t L = kLengths[li];
            const uint32_t rows = std::clamp<uint32_t>(4096 / L, 2, 300);
            const uint32_t inner = std::clamp<uint32_t>(2048 / L, 2, 33);
            const std::vector<std::pair<std::vector<uint32_t>, uint32_t>> shapes = {
                {{L}, 0}, {{rows, L}, 1}, {{L, inner}, 0}, {{2, L, 3}, 1}};
            for (size_t si = 0; si < shapes.size(); ++si) {
                ScanCase c;
                c.type = type;
                c.sizes = shapes[si].first;
                c.spec = scan_spec(op, shapes[si].second, static_cast<int>(li + si));
                c.seed = rng();
                c.fill = li % 2 ? Fill::small_integers : Fill::random;
                c.in_strides = packed_strides(c.sizes);
                c.out_strides = packed_strides(c.sizes);
                if ((li + si) % 5 == 0)
                    c.in_strides = padded_strides(c.sizes, random_pads(rng, c.sizes.size()));
                if ((li + si) % 7 == 0)
                    c.out_strides = padded_strides(c.sizes, random_pads(rng, c.sizes.size()));
                run_scan_case(c, stats);
            }
        }
    }
    WARN(to_string(op) << " "
                       << "axis-length sweep: " << stats.cases << " cases, " << stats.elements
                       << " elements");
}

void sweep_long_axes(ScanOp op) {
    std::mt19937_64 rng = sweep_rng(salt(op, 3));
    SweepStats stats;
    struct Long {
        DML_TENSOR_DATA_TYPE type;
        std::vector<uint32_t> sizes;
        uint32_t axis;
        int combo;
        Fill fill;
        bool padded_input;
        bool in_place;
    };
    constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    constexpr auto I32 = DML_TENSOR_DATA_TYPE_INT32;
    const std::vector<Long> cases = {
        {F32, {70001}, 0, 0, Fill::random, false, false},
        {F32, {70001}, 0, 3, Fill::small_integers, false, false},
        {F32, {262147}, 0, 1, Fill::small_integers, false, false},
        {F32, {2, 66000, 2}, 1, 2, Fill::small_integers, false, false},
        {I32, {70001}, 0, 0, Fill::random, false, false},
        {I32, {70001}, 0, 3, Fill::random, false, false},
        {I32, {70001, 3}, 0, 1, Fill::random, false, false},
        {I32, {65536}, 0, 2, Fill::random, true, false},
        {DML_TENSOR_DATA_TYPE_FLOAT16, {70003}, 0, 0, Fill::small_integers, false, false},
        {DML_TENSOR_DATA_TYPE_FLOAT64, {70001}, 0, 2, Fill::random, false, false},
        {DML_TENSOR_DATA_TYPE_INT64, {131073}, 0, 1, Fill::random, false, false},
        {DML_TENSOR_DATA_TYPE_UINT8, {2, 70001}, 1, 2, Fill::random, false, false},
        {DML_TENSOR_DATA_TYPE_UINT16, {70001}, 0, 0, Fill::random, true, false},
        {DML_TENSOR_DATA_TYPE_INT16, {3, 70001}, 1, 3, Fill::random, false, true},
    };
    for (const Long& l : cases) {
        ScanCase c;
        c.type = l.type;
        c.sizes = l.sizes;
        c.spec = scan_spec(op, l.axis, l.combo);
        c.seed = rng();
        c.fill = l.fill;
        c.in_place = l.in_place;
        c.in_strides = l.padded_input ? padded_strides(c.sizes, std::vector<uint32_t>(c.sizes.size(), 1))
                                      : packed_strides(c.sizes);
        c.out_strides = packed_strides(c.sizes);
        run_scan_case(c, stats);
    }
    WARN(to_string(op) << " "
                       << "long-axis cases: " << stats.cases << " cases, " << stats.elements << " elements");
}

void sweep_layouts(ScanOp op, const std::vector<DML_TENSOR_DATA_TYPE>& types = all_types()) {
    std::mt19937_64 rng = sweep_rng(salt(op, 4));
    SweepStats stats;
    const std::vector<uint32_t> sizes = {5, 33, 7};
    const std::vector<uint32_t> pads = {2, 1, 1};
    const std::vector<uint32_t> packed = packed_strides(sizes);
    const std::vector<uint32_t> padded = padded_strides(sizes, pads);
    const std::vector<uint32_t> fortran = ordered_strides(sizes, {2, 1, 0});
    const std::vector<uint32_t> fortran_padded = ordered_strides(sizes, {2, 1, 0}, {1, 3, 0});
    const std::vector<uint32_t> permuted = ordered_strides(sizes, {1, 2, 0});
    struct Pairing {
        const char* name;
        std::vector<uint32_t> in, out;  // out empty: in place
    };
    const std::vector<Pairing> pairings = {
        {"packed -> padded", packed, padded},
        {"padded -> packed", padded, packed},
        {"padded -> padded", padded, ordered_strides(sizes, {0, 1, 2}, {0, 2, 3})},
        {"fortran -> packed", fortran, packed},
        {"packed -> fortran", packed, fortran},
        {"permuted -> fortran padded", permuted, fortran_padded},
        {"broadcast dim 0 -> packed", broadcast_strides(sizes, 0b001), packed},
        {"broadcast dims 1, 2 -> padded", broadcast_strides(sizes, 0b110), padded},
        {"in place packed", packed, {}},
        {"in place padded", padded, {}},
        {"in place fortran padded", fortran_padded, {}},
    };
    for (DML_TENSOR_DATA_TYPE type : types) {
        for (uint32_t axis = 0; axis < 3; ++axis) {
            for (size_t pi = 0; pi < pairings.size(); ++pi) {
                ScanCase c;
                c.type = type;
                c.sizes = sizes;
                c.spec = scan_spec(op, axis, static_cast<int>(pi + axis));
                c.seed = rng();
                c.fill = pi % 2 ? Fill::small_integers : Fill::random;
                c.in_strides = pairings[pi].in;
                c.out_strides = pairings[pi].out;
                c.in_place = pairings[pi].out.empty();
                INFO("layouts: " << pairings[pi].name);
                run_scan_case(c, stats);
            }
        }
    }
    // Broadcast along the scanned axis itself: y[k] = (k + 1) * x (or k * x exclusive).
    for (DML_TENSOR_DATA_TYPE type : types) {
        for (uint32_t axis = 0; axis < 3; ++axis) {
            ScanCase c;
            c.type = type;
            c.sizes = sizes;
            c.spec = scan_spec(op, axis, static_cast<int>(axis) + 1);
            c.seed = rng();
            c.in_strides = broadcast_strides(sizes, 1u << axis);
            c.out_strides = packed;
            INFO("layouts: broadcast along the axis -> packed");
            run_scan_case(c, stats);
        }
    }
    WARN(to_string(op) << " "
                       << "layout cases: " << stats.cases);
}

void sweep_untouched_padding(ScanOp op, const std::vector<DML_TENSOR_DATA_TYPE>& types = all_types()) {
    // run_scan_case checks every byte of the output buffer that belongs to no element (gaps between
    // elements and rows, the rounding to 4 bytes, extra tail bytes) against its uploaded value.
    std::mt19937_64 rng = sweep_rng(salt(op, 5));
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : types) {
        const std::vector<uint32_t> sizes = {3, 17, 9};
        for (uint32_t axis = 0; axis < 3; ++axis) {
            ScanCase c;
            c.type = type;
            c.sizes = sizes;
            c.spec = scan_spec(op, axis, static_cast<int>(axis));
            c.seed = rng();
            c.in_strides = packed_strides(sizes);
            c.out_strides = padded_strides(sizes, {1, 2, 1});
            c.out_extra_bytes = 12;
            run_scan_case(c, stats);
        }
        // One-dimensional outputs with an element gap (a stride of 2 or 4 elements): a kernel that
        // writes whole 32-bit words for 8/16-bit types would destroy the gaps.
        for (uint32_t gap : {1u, 3u}) {
            ScanCase c;
            c.type = type;
            c.sizes = {1000};
            c.spec = scan_spec(op, 0, static_cast<int>(gap));
            c.seed = rng();
            c.in_strides = packed_strides(c.sizes);
            c.out_strides = padded_strides(c.sizes, {gap});
            c.out_extra_bytes = 8;
            run_scan_case(c, stats);
        }
        // In place with gaps: the gaps of the shared array must survive too.
        ScanCase c;
        c.type = type;
        c.sizes = {4, 65};
        c.spec = scan_spec(op, 1, 3);
        c.seed = rng();
        c.in_strides = padded_strides(c.sizes, {3, 1});
        c.in_extra_bytes = 16;
        c.in_place = true;
        run_scan_case(c, stats);
    }
    WARN(to_string(op) << " "
                       << "padding cases: " << stats.cases);
}

void check_run_to_run(ScanOp op) {
    // SPEC §3: no atomics-ordered float sums or products. Same device, same inputs -> same bytes, every time.
    std::mt19937_64 rng = sweep_rng(salt(op, 6));
    const std::vector<std::vector<uint32_t>> shapes = {{70001}, {300, 257}, {257, 40}};
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        for (size_t si = 0; si < shapes.size(); ++si) {
            const std::vector<uint32_t>& sizes = shapes[si];
            const uint32_t axis = si == 1 ? 1 : 0;
            ScanCase c;
            c.type = type;
            c.sizes = sizes;
            c.spec = scan_spec(op, axis, 0);
            c.seed = rng();
            TestTensor input = make_packed(type, sizes);
            fill_scan_input(input, c);
            std::vector<std::byte> first;
            for (int run = 0; run < 3; ++run) {
                TestTensor output = make_packed(type, sizes);
                const vkdml::Status status = execute_scan(c.spec, input, &output);
                require_no_validation_messages();
                INFO(input.describe() << " " << to_string(c.spec) << ", run " << run << ": "
                                      << (status.ok() ? std::string("ok") : status.error().message));
                REQUIRE(status.ok());
                if (run == 0)
                    first = output.bytes;
                else
                    CHECK(output.bytes == first);
            }
        }
    }
}

}  // namespace

TEST_CASE("cumsum sweep: every rank, axis, direction and exclusivity for every type",
          "[gpu][cumsum][sweep]") {
    sweep_ranks_and_axes(ScanOp::sum);
}
TEST_CASE("cumprod sweep: every rank, axis, direction and exclusivity for every type",
          "[gpu][cumprod][sweep]") {
    sweep_ranks_and_axes(ScanOp::product);
}

TEST_CASE("cumsum sweep: axis lengths in four shapes for every type",
          "[gpu][cumsum][sweep][rows][subgroup-sizes]") {
    sweep_axis_lengths(ScanOp::sum, sweep_types());
}
TEST_CASE("cumprod sweep: axis lengths in four shapes for every type", "[gpu][cumprod][sweep][rows]") {
    sweep_axis_lengths(ScanOp::product, sweep_types());
}

TEST_CASE("cumsum: axes longer than 65535 elements", "[gpu][cumsum][long]") {
    sweep_long_axes(ScanOp::sum);
}
TEST_CASE("cumprod: axes longer than 65535 elements", "[gpu][cumprod][long]") {
    sweep_long_axes(ScanOp::product);
}

TEST_CASE("cumsum: padded, permuted, broadcast and in-place layouts for every type", "[gpu][cumsum][rows]") {
    sweep_layouts(ScanOp::sum);
}
TEST_CASE("cumprod: padded, permuted, broadcast and in-place layouts for every type", "[gpu][cumprod]") {
    sweep_layouts(ScanOp::product);
}

TEST_CASE("cumsum: bytes of the output outside its elements are left untouched", "[gpu][cumsum]") {
    sweep_untouched_padding(ScanOp::sum);
}
TEST_CASE("cumprod: bytes of the output outside its elements are left untouched", "[gpu][cumprod]") {
    sweep_untouched_padding(ScanOp::product);
}

TEST_CASE("cumsum: float results are bit-identical from run to run", "[gpu][cumsum]") {
    check_run_to_run(ScanOp::sum);
}
TEST_CASE("cumprod: float results are bit-identical from run to run", "[gpu][cumprod]") {
    check_run_to_run(ScanOp::product);
}

// The paths of tensors bigger than the device's limits, at small sizes: a device planning with
// 1 KiB storage-buffer windows and at most 8 x 8 workgroups per dispatch runs the same sweeps, so
// every binding is seen through many windows, long axes are cut into chunks a window holds, and
// every pass is many dispatches. Windows see bytes and partial states: one type per element width and
// kind (width_types) runs every path they have.
TEST_CASE("cumsum through 1 KiB windows and dispatches of at most 8 x 8 workgroups",
          "[gpu][cumsum][windowed]") {
    UseLimitedDevice limited({1024, 8});
    sweep_ranks_and_axes(ScanOp::sum, width_types());
    sweep_axis_lengths(ScanOp::sum, width_types());
    sweep_layouts(ScanOp::sum, width_types());
    sweep_untouched_padding(ScanOp::sum, width_types());
}
// Products take cumsum's plans and windows (the operation is a specialization constant): through small
// windows, the axis lengths, whose chunks and carries start from the product's identity.
TEST_CASE("cumprod through 1 KiB windows and dispatches of at most 8 x 8 workgroups",
          "[gpu][cumprod][windowed]") {
    UseLimitedDevice limited({1024, 8});
    sweep_axis_lengths(ScanOp::product, width_types());
}
