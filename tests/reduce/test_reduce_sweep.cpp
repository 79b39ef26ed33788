// test_reduce_sweep.cpp — randomized conformance sweeps of DML_OPERATOR_REDUCE (all 12 functions) and
// the standalone DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX against the CPU oracle (reduce_sweep.hpp
// says what each case checks: every output element, untouched output padding, unchanged input, no
// validation message).
//
// The sixteen "variants": REDUCE with each of its 12 functions, ARGMIN and ARGMAX with INCREASING and
// DECREASING. Sweeps:
//  - "ranks, axis subsets, layouts" (1,152 cases): every variant on every type it takes (SPEC §4),
//    rank 1..8; axis subsets rotating over one axis, several, non-adjacent, all and none (AxisCount 0),
//    given in a random order; random shapes of at most 2,048 elements whose first reduced axis has a
//    length from the interesting-length list; random input layouts (packed, padded, Fortran, permuted
//    with pads, zero-stride broadcast, on a reduced axis a third of the time) and output layouts
//    (packed, padded, Fortran, permuted, arbitrary strides on the size-1 reduced dimensions); the
//    four index types rotating; fills rotating over random, small integers (many ties) and specials.
//  - "reduced extents" (380 cases): every length of kLengths (1 .. 4097: subgroup sizes 4/8/16/32
//    and their neighbours, 255/256/257, primes, 2^k ± 1) in five shapes ([L]; many rows [R, L] over
//    the last axis; outer axis [L, I]; middle axis [2, L, 3]; both axes of [3, L] given as {1, 0}),
//    the variants and types rotating over them.
//  - "NanMode::ignore" (228 cases): MIN, MAX, REDUCE ARGMAX/ARGMIN and the standalone operators both
//    ways on FLOAT32/16/64 inputs NaN in 3%, 50%, 97% or all of the elements (with ±inf, ties, ±0),
//    every length of kLengths as [L], [R, L] over the last axis and [L, 5] over the first.
//  - "reduced extents longer than 65,535" (19 cases, tag [long]): 1-D 70,001 / 200,003 rows (SUM,
//    ARGMAX with ties, LOG_SUM_EXP, ...), outer-axis [70001, 3], padded inputs, several types.
//  - "many tiny outputs and one huge one" (11 executions, tag [long]): [1,000,000, 3] over axis 1 and
//    [3, 1,000,000] over axis 0; 16,777,259 elements into one output (float32 SUM, int32 and uint8
//    SUM with exact wrap; ARGMAX/ARGMIN with the extremes tied near the end and at the last element,
//    first and last tie rules).
//  - "padding untouched" (132 cases: 11 types x SUM, MAX, REDUCE ARGMIN, ARGMAX DECREASING):
//    outputs with element gaps of 1 and 3 (8/16-bit types written as words would clobber them), row
//    gaps and tail bytes.
//  - "run to run" (24 executions): float SUM/AVERAGE/LOG_SUM_EXP/L2 results are bit-identical over
//    three runs, including a float32 SUM over 2,000,003 random elements.
// VKDML_TEST_SEED (decimal or 0x-hex) changes the random seed; a failing case prints its seed.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reduce_expect.hpp"
#include "reduce_sweep.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

struct Variant {
    DML_OPERATOR_TYPE op;
    DML_REDUCE_FUNCTION function;
    DML_AXIS_DIRECTION direction;
};

std::vector<Variant> all_variants() {
    std::vector<Variant> v;
    for (DML_REDUCE_FUNCTION f : kReduceFunctions)
        v.push_back({DML_OPERATOR_REDUCE, f, DML_AXIS_DIRECTION_INCREASING});
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMIN, DML_OPERATOR_ARGMAX})
        for (DML_AXIS_DIRECTION d : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING})
            v.push_back({op, DML_REDUCE_FUNCTION_ARGMAX, d});
    return v;
}

std::vector<DML_TENSOR_DATA_TYPE> variant_types(const Variant& v) {
    return v.op == DML_OPERATOR_REDUCE ? types_of(v.function) : all_types();
}

ReduceCase make_case(const Variant& v, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                     std::vector<uint32_t> axes) {
    ReduceCase c =
        reduce_case(v.function, type, std::move(sizes), std::move(axes), DML_TENSOR_DATA_TYPE_UINT32);
    c.op = v.op;
    c.direction = v.direction;
    return c;
}

// A fill for the k-th case of a variant: specials only for float types.
ReduceFill rotate_fill(size_t k, DML_TENSOR_DATA_TYPE type) {
    const ReduceFill fills[] = {ReduceFill::random, ReduceFill::small_integers, ReduceFill::specials};
    const ReduceFill f = fills[k % 3];
    return f == ReduceFill::specials && !is_float_type(type) ? ReduceFill::random : f;
}

// An axis subset of `rank` dimensions of the given kind (0 one, 1 several, 2 non-adjacent, 3 all,
// 4 none), shuffled (the order of Axes must not matter).
std::vector<uint32_t> axis_subset(std::mt19937_64& rng, uint32_t rank, int kind) {
    std::vector<uint32_t> all(rank);
    std::iota(all.begin(), all.end(), 0u);
    std::vector<uint32_t> axes;
    switch (kind) {
    case 0: axes = {uniform(rng, 0, rank - 1)}; break;
    case 1: {
        std::shuffle(all.begin(), all.end(), rng);
        const uint32_t n = rank <= 2 ? rank : uniform(rng, 2, rank - 1);
        axes.assign(all.begin(), all.begin() + n);
        break;
    }
    case 2: {
        if (rank < 3) {
            axes = {rank - 1};
            break;
        }
        // Every other axis from a random start, at least two of them: gaps between all of them.
        const uint32_t start = uniform(rng, 0, rank - 3);
        for (uint32_t a = start; a < rank; a += 2)
            if (axes.size() < 2 || uniform(rng, 0, 1)) axes.push_back(a);
        break;
    }
    case 3: axes = all; break;
    default: break;
    }
    std::shuffle(axes.begin(), axes.end(), rng);
    return axes;
}

// Strides of a random output layout for the output sizes (size-1 dimensions: any stride is legal).
std::vector<uint32_t> output_layout(std::mt19937_64& rng, const std::vector<uint32_t>& sizes, int kind,
                                    std::string& name) {
    const Layout layouts[] = {Layout::packed, Layout::padded, Layout::fortran, Layout::permuted};
    if (kind < 4) {
        name = layout_name(layouts[kind]);
        return layout_strides(rng, layouts[kind], sizes, 0);
    }
    name = "padded, arbitrary strides on size-1 dimensions";
    std::vector<uint32_t> strides = padded_strides(sizes, random_pads(rng, sizes.size()));
    for (size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] == 1) strides[d] = uniform(rng, 0, 7);
    return strides;
}

// (`only`: the types to keep of each variant's, or every one.)
void sweep_ranks_and_axes(uint64_t salt, const std::vector<Variant>& variants, const char* what,
                          const std::vector<DML_TENSOR_DATA_TYPE>& only = {}) {
    std::mt19937_64 rng = sweep_rng(0x4ed0 + salt);
    SweepStats stats;
    size_t k = 0;
    for (const Variant& v : variants) {
        for (DML_TENSOR_DATA_TYPE type : variant_types(v)) {
            if (!only.empty() && std::find(only.begin(), only.end(), type) == only.end()) continue;
            for (uint32_t rank = 1; rank <= 8; ++rank, ++k) {
                const int kind = static_cast<int>((k + rank) % 5);
                std::vector<uint32_t> axes = axis_subset(rng, rank, kind);
                const uint32_t first = axes.empty() ? uniform(rng, 0, rank - 1) : axes[0];
                ReduceCase c = make_case(v, type, random_shape(rng, rank, first, 2048), axes);
                c.index_type = kIndexTypes[k % 4];
                c.fill = rotate_fill(k / 5, type);
                c.seed = rng();
                const Layout in_layout =
                    pick(rng, std::vector<Layout>{Layout::packed, Layout::padded, Layout::fortran,
                                                  Layout::permuted, Layout::broadcast});
                c.in_strides = layout_strides(rng, in_layout, c.sizes, first);
                c.in_extra_bytes = 4 * uniform(rng, 0, 1);
                std::string out_name;
                c.out_strides =
                    output_layout(rng, output_sizes(c), static_cast<int>(uniform(rng, 0, 4)), out_name);
                c.out_extra_bytes = 4 * uniform(rng, 0, 2);
                INFO("layouts: input " << layout_name(in_layout) << ", output " << out_name);
                run_reduce_case(c, stats);
            }
        }
    }
    WARN(what << " rank/axis sweep: " << stats.cases << " cases, " << stats.elements << " elements, "
              << stats.unsupported << " unsupported-type cases");
}

void sweep_reduced_extents() {
    std::mt19937_64 rng = sweep_rng(0x4ed1);
    SweepStats stats;
    const std::vector<Variant> variants = all_variants();
    size_t k = 0;
    for (size_t li = 0; li < kLengths.size(); ++li) {
        const uint32_t L = kLengths[li];
        const uint32_t rows = std::clamp<uint32_t>(4096 / L, 2, 300);
        const uint32_t inner = std::clamp<uint32_t>(2048 / L, 2, 33);
        const std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> shapes = {
            {{L}, {0}}, {{rows, L}, {1}}, {{L, inner}, {0}}, {{2, L, 3}, {1}}, {{3, L}, {1, 0}}};
        for (size_t si = 0; si < shapes.size(); ++si) {
            for (int twice = 0; twice < 2; ++twice, ++k) {
                const Variant& v = variants[(k * 7 + li) % variants.size()];
                const std::vector<DML_TENSOR_DATA_TYPE> types = variant_types(v);
                const DML_TENSOR_DATA_TYPE type = types[(k / variants.size() + li + si) % types.size()];
                ReduceCase c = make_case(v, type, shapes[si].first, shapes[si].second);
                c.index_type = kIndexTypes[(k / 3) % 4];
                c.fill = rotate_fill(k, type);
                c.seed = rng();
                if ((li + si) % 5 == 0)
                    c.in_strides = padded_strides(c.sizes, random_pads(rng, c.sizes.size()));
                if ((li + si) % 7 == 0)
                    c.out_strides = padded_strides(output_sizes(c), random_pads(rng, c.sizes.size()));
                run_reduce_case(c, stats);
            }
        }
    }
    WARN("reduce extent sweep: " << stats.cases << " cases, " << stats.elements << " elements");
}

// NanMode::ignore: MIN, MAX, REDUCE's arg functions and the standalone operators both ways, on the three
// float types, over every length of kLengths in three shapes, from NaN-heavy fills (fill_nans: NaN in
// 3%, 50%, 97% or all of the elements, with ±inf, ties and signed zeros).
void sweep_nan_ignored() {
    std::mt19937_64 rng = sweep_rng(0x4a41);
    SweepStats stats;
    const Variant variants[] = {
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MAX, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_ARGMAX, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_ARGMIN, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_ARGMAX, DML_AXIS_DIRECTION_DECREASING},
        {DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_ARGMAX, DML_AXIS_DIRECTION_INCREASING},
        {DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_ARGMAX, DML_AXIS_DIRECTION_DECREASING}};
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                          DML_TENSOR_DATA_TYPE_FLOAT64};
    size_t k = 0;
    for (uint32_t L : kLengths) {
        const uint32_t rows = std::clamp<uint32_t>(4096 / L, 2, 64);
        const std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> shapes = {
            {{L}, {0}}, {{rows, L}, {1}}, {{L, 5}, {0}}};
        for (const auto& [sizes, axes] : shapes) {
            for (int twice = 0; twice < 2; ++twice, ++k) {
                ReduceCase c = make_case(variants[k % 8], types[(k / 8 + k / 32) % 3], sizes, axes);
                c.index_type = kIndexTypes[(k / 3) % 4];
                c.fill = ReduceFill::nans;
                c.nan_mode = vkdml::NanMode::ignore;
                c.seed = (rng() & ~uint64_t{3}) | (k / 8) % 4;  // every variant sees every NaN share
                run_reduce_case(c, stats);
            }
        }
    }
    WARN("NaN-ignoring sweep: " << stats.cases << " cases, " << stats.elements << " elements");
}

constexpr auto I32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr auto I64 = DML_TENSOR_DATA_TYPE_INT64;
constexpr auto U8 = DML_TENSOR_DATA_TYPE_UINT8;

Variant reduce_variant(DML_REDUCE_FUNCTION f) {
    return {DML_OPERATOR_REDUCE, f, INC};
}
Variant arg_variant(DML_OPERATOR_TYPE op, DML_AXIS_DIRECTION d) {
    return {op, DML_REDUCE_FUNCTION_ARGMAX, d};
}

struct Listed {
    Variant v;
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> axes;
    ReduceFill fill;
    bool padded_input;
};

void run_listed(const std::vector<Listed>& cases, uint64_t salt, const char* what) {
    std::mt19937_64 rng = sweep_rng(salt);
    SweepStats stats;
    size_t k = 0;
    for (const Listed& l : cases) {
        ReduceCase c = make_case(l.v, l.type, l.sizes, l.axes);
        c.index_type = kIndexTypes[k++ % 4];
        c.fill = l.fill;
        c.seed = rng();
        if (l.padded_input) c.in_strides = padded_strides(c.sizes, std::vector<uint32_t>(c.sizes.size(), 1));
        run_reduce_case(c, stats);
    }
    WARN(what << ": " << stats.cases << " cases, " << stats.elements << " elements");
}

}  // namespace

TEST_CASE("reduce sweep: REDUCE, every function and type, ranks 1-8, axis subsets, layouts",
          "[gpu][reduce][sweep]") {
    std::vector<Variant> reduce;
    for (DML_REDUCE_FUNCTION f : kReduceFunctions) reduce.push_back(reduce_variant(f));
    sweep_ranks_and_axes(0, reduce, "REDUCE");
}

TEST_CASE("argminmax sweep: ARGMIN/ARGMAX both directions, every type, ranks 1-8, axis subsets, layouts",
          "[gpu][argminmax][sweep]") {
    sweep_ranks_and_axes(1,
                         {arg_variant(DML_OPERATOR_ARGMIN, INC), arg_variant(DML_OPERATOR_ARGMIN, DEC),
                          arg_variant(DML_OPERATOR_ARGMAX, INC), arg_variant(DML_OPERATOR_ARGMAX, DEC)},
                         "ARGMIN/ARGMAX");
}

TEST_CASE("reduce sweep: reduced extents 1 .. 4097 in five shapes, all functions and types",
          "[gpu][reduce][argminmax][sweep][rows][subgroup-sizes]") {
    sweep_reduced_extents();
}

TEST_CASE("reduce sweep: NanMode::ignore, MIN/MAX/ARGMIN/ARGMAX on NaN-heavy floats, extents 1 .. 4097",
          "[gpu][reduce][argminmax][nan][sweep][rows]") {
    sweep_nan_ignored();
}

TEST_CASE("reduce: reduced extents longer than 65535 elements", "[gpu][reduce][argminmax][long]") {
    const auto S = ReduceFill::small_integers;
    const auto R = ReduceFill::random;
    run_listed(
        {
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {70001}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {200003}, {0}, S, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), I32, {200003}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_ARGMAX), F32, {200003}, {0}, S, false},
            {arg_variant(DML_OPERATOR_ARGMAX, DEC), F32, {200003}, {0}, S, false},
            {arg_variant(DML_OPERATOR_ARGMIN, INC), I32, {70001}, {0}, S, true},
            {reduce_variant(DML_REDUCE_FUNCTION_LOG_SUM_EXP), F32, {70001}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {70001, 3}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_MAX), I32, {70001, 3}, {0}, R, false},
            {arg_variant(DML_OPERATOR_ARGMIN, DEC), DML_TENSOR_DATA_TYPE_INT16, {3, 70001}, {1}, S, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F16, {70003}, {0}, S, false},
            {reduce_variant(DML_REDUCE_FUNCTION_AVERAGE), F64, {70001}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_MULTIPLY), I64, {131073}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_MULTIPLY), F32, {70001}, {0}, S, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), U8, {2, 70001}, {1}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_MIN), DML_TENSOR_DATA_TYPE_UINT16, {70001}, {0}, R, true},
            {reduce_variant(DML_REDUCE_FUNCTION_L2), F32, {66000, 2}, {1, 0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM_SQUARE),
             DML_TENSOR_DATA_TYPE_INT8,
             {2, 66000, 2},
             {0, 2, 1},
             R,
             false},
            {reduce_variant(DML_REDUCE_FUNCTION_L1), I64, {2, 70001, 3}, {1}, R, false},
        },
        0x4ed2, "reduce long-extent cases");
}

TEST_CASE("reduce: a million tiny outputs, and one output over 16 million elements",
          "[gpu][reduce][argminmax][long]") {
    const auto R = ReduceFill::random;
    const auto S = ReduceFill::small_integers;
    constexpr uint32_t kHuge = 16777259;  // 2^24 + 43, prime: no power-of-two split of it is even
    run_listed(
        {
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {1000000, 3}, {1}, R, false},
            {arg_variant(DML_OPERATOR_ARGMAX, DEC), I32, {1000000, 3}, {1}, S, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {3, 1000000}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_MAX), U8, {3, 1000000}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), F32, {kHuge}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), I32, {kHuge}, {0}, R, false},
            {reduce_variant(DML_REDUCE_FUNCTION_SUM), U8, {kHuge}, {0}, R, false},
        },
        0x4ed3, "reduce huge cases");

    // One input of 16,777,259 float32 values in [-1, 1] with its maximum 2 twice near the end (at
    // N - 1000 and N - 2) and its minimum -2 twice (at N - 5000 and at the very last element). The
    // expected indices are exact, so these three runs skip the (slow) oracle.
    TestTensor input = make_packed(F32, {kHuge});
    fill_random(input, 0x16a26a7);
    input.set_double(kHuge - 1000, 2.0);
    input.set_double(kHuge - 2, 2.0);
    input.set_double(kHuge - 5000, -2.0);
    input.set_double(kHuge - 1, -2.0);
    const std::vector<std::byte> before = input.bytes;
    struct Arg {
        Variant v;
        DML_TENSOR_DATA_TYPE index_type;
        uint64_t want;
    };
    for (const Arg& a :
         {Arg{reduce_variant(DML_REDUCE_FUNCTION_ARGMAX), DML_TENSOR_DATA_TYPE_UINT32, kHuge - 1000},
          Arg{arg_variant(DML_OPERATOR_ARGMAX, DEC), DML_TENSOR_DATA_TYPE_INT64, kHuge - 2},
          Arg{arg_variant(DML_OPERATOR_ARGMIN, DEC), DML_TENSOR_DATA_TYPE_UINT64, kHuge - 1},
          Arg{arg_variant(DML_OPERATOR_ARGMIN, INC), DML_TENSOR_DATA_TYPE_INT32, kHuge - 5000}}) {
        ReduceCase c = make_case(a.v, F32, {kHuge}, {0});
        c.index_type = a.index_type;
        INFO("case: " << describe(c) << " (maximum 2 at N-1000 and N-2, minimum -2 at N-5000 and N-1)");
        if (!test_device().supports(c.op, a.index_type).supported) continue;
        TestTensor out = make_packed(a.index_type, {1});
        out.set_bits(0, 0xDEADBEEF);
        const vkdml::Status status = execute_reduce(c.op, c.function, c.direction, c.axes, input, out);
        require_no_validation_messages();
        INFO("execute: " << (status.ok() ? std::string("ok") : status.error().message));
        REQUIRE(status.ok());
        CHECK(out.get_bits(0) == a.want);
    }
    CHECK(input.bytes == before);
}

TEST_CASE("reduce: bytes of the output outside its elements are left untouched", "[gpu][reduce][argminmax]") {
    std::mt19937_64 rng = sweep_rng(0x4ed4);
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        const std::vector<Variant> variants = {
            reduce_variant(DML_REDUCE_FUNCTION_SUM), reduce_variant(DML_REDUCE_FUNCTION_MAX),
            reduce_variant(DML_REDUCE_FUNCTION_ARGMIN), arg_variant(DML_OPERATOR_ARGMAX, DEC)};
        size_t k = 0;
        for (const Variant& v : variants) {
            // 1-D outputs (after the reduced axis) with element gaps of 1 and 3.
            for (uint32_t gap : {1u, 3u}) {
                ReduceCase c = make_case(v, type, {1000, 5}, {1});
                c.out_strides = {1 + gap, 1};
                c.out_extra_bytes = 8;
                c.index_type = kIndexTypes[k++ % 4];
                c.seed = rng();
                run_reduce_case(c, stats);
            }
            // Gaps between elements and rows, and a tail.
            ReduceCase c = make_case(v, type, {3, 17, 9}, {1});
            c.out_strides = padded_strides(output_sizes(c), {1, 2, 1});
            c.out_extra_bytes = 12;
            c.index_type = kIndexTypes[k++ % 4];
            c.seed = rng();
            run_reduce_case(c, stats);
        }
    }
    WARN("reduce padding cases: " << stats.cases);
}

TEST_CASE("reduce: float results are bit-identical from run to run", "[gpu][reduce]") {
    struct Run {
        DML_REDUCE_FUNCTION function;
        DML_TENSOR_DATA_TYPE type;
        std::vector<uint32_t> sizes;
        std::vector<uint32_t> axes;
    };
    const std::vector<Run> runs = {
        {DML_REDUCE_FUNCTION_SUM, F32, {2000003}, {0}},
        {DML_REDUCE_FUNCTION_SUM, F32, {300, 4099}, {1}},
        {DML_REDUCE_FUNCTION_SUM, F32, {4099, 70}, {0}},
        {DML_REDUCE_FUNCTION_SUM, F16, {70001}, {0}},
        {DML_REDUCE_FUNCTION_SUM, F64, {70001}, {0}},
        {DML_REDUCE_FUNCTION_AVERAGE, F32, {257, 1021}, {0, 1}},
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {100003}, {0}},
        {DML_REDUCE_FUNCTION_L2, F16, {64, 4097}, {1}},
    };
    std::mt19937_64 rng = sweep_rng(0x4ed5);
    for (const Run& r : runs) {
        TestTensor input = make_packed(r.type, r.sizes);
        fill_random(input, rng(), r.function == DML_REDUCE_FUNCTION_LOG_SUM_EXP ? -10 : -1, 1);
        std::vector<std::byte> first;
        for (int run = 0; run < 3; ++run) {
            TestTensor output = make_packed(r.type, reduce_output_sizes(r.sizes, r.axes));
            const vkdml::Status status =
                execute_reduce(DML_OPERATOR_REDUCE, r.function, INC, r.axes, input, output);
            require_no_validation_messages();
            INFO(input.describe() << " " << to_string(r.function) << " axes " << to_string(r.axes) << ", run "
                                  << run << ": "
                                  << (status.ok() ? std::string("ok") : status.error().message));
            REQUIRE(status.ok());
            if (run == 0)
                first = output.bytes;
            else
                CHECK(output.bytes == first);
        }
    }
}

// The paths of tensors bigger than the device's limits, at small sizes (see the scan sweep's twin):
// 1 KiB storage-buffer windows and at most 8 x 8 workgroups per dispatch.
TEST_CASE("reduce and argmin/argmax through 1 KiB windows and dispatches of at most 8 x 8 workgroups",
          "[gpu][reduce][argminmax][windowed]") {
    UseLimitedDevice limited({1024, 8});
    // One function per kind of partial state the windows carry between passes: a compensated sum (SUM;
    // L1, L2, SUM_SQUARE and LOG_SUM differ only in their element and finishing steps), AVERAGE (its count
    // over all passes), a compensated product, a plain value (MAX; MIN alike) and LOG_SUM_EXP's three
    // words; the extent sweep below rotates through all twelve.
    std::vector<Variant> reduce;
    for (DML_REDUCE_FUNCTION f :
         {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_MULTIPLY,
          DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_LOG_SUM_EXP})
        reduce.push_back(reduce_variant(f));
    // Windows see bytes and partial states: one type per element width and kind (width_types).
    sweep_ranks_and_axes(0, reduce, "REDUCE", width_types());
    sweep_ranks_and_axes(1,
                         {arg_variant(DML_OPERATOR_ARGMIN, INC), arg_variant(DML_OPERATOR_ARGMIN, DEC),
                          arg_variant(DML_OPERATOR_ARGMAX, INC), arg_variant(DML_OPERATOR_ARGMAX, DEC)},
                         "ARGMIN/ARGMAX", width_types());
    sweep_reduced_extents();
}
