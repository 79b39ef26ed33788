// test_cumsum_sweep.cpp — randomized conformance sweep of DML_CUMULATIVE_SUMMATION vs the CPU reference.
//
// Every case runs through the host path vkdml::execute(test_device(), ...) with the validation
// layer on, and checks (1) every output element against reference_scan (integers exactly modulo
// 2^bits; floats exactly when every partial sum is exact in the accumulator, else within the
// log2(L)-growing tolerance of reference_scan.hpp), (2) that no byte of the output buffer outside
// the tensor's elements changed (outputs are uploaded first), (3) that the input array is unchanged,
// (4) that the validation layer said nothing.
//
// What the sweep covers (3,759 executions, about 8.3 million elements; ~3 s on lavapipe with a warm
// shader cache, ~15 s cold, on 2 cores):
//  - "ranks, axes, directions" (1,584 cases, all 11 types): rank 1..8 x every axis x both
//    directions x exclusive on/off; random shapes of at most 2,048 elements whose axis length comes
//    from the interesting-length list; random input layouts (packed, padded, Fortran, random
//    permutation with pads, zero-stride broadcast) and output layouts (packed, padded, Fortran,
//    permuted); 1 in 6 cases in place.
//  - "axis lengths" (1,672 cases, all 11 types): 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
//    63, 64, 65, 97, 127, 128, 129, 251, 255, 256, 257, 509, 511, 512, 513, 1021, 1023, 1024, 1025,
//    2039, 2047, 2049, 4093, 4097, each in four shapes ([L]; many rows [R, L]; outer axis [L, I];
//    middle axis [2, L, 3]), the four direction/exclusive combinations rotating over them.
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
// Float inputs alternate between uniform [-1, 1] values (tolerance) and small integers (exact).
// Integer inputs cover their full range, so sums wrap. VKDML_TEST_SEED (decimal or 0x-hex)
// changes the random seed; the seed of a failing case is printed with it.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reference_scan.hpp"
#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

// ---- one case ----------------------------------------------------------------------------------

enum class Fill { random, small_integers };

struct ScanCase {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    std::vector<uint32_t> sizes;
    ScanSpec spec;
    std::vector<uint32_t> in_strides;
    std::vector<uint32_t> out_strides;  // unused when in_place (the output is the input)
    uint64_t in_extra_bytes = 0;
    uint64_t out_extra_bytes = 0;
    bool in_place = false;
    Fill fill = Fill::random;
    uint64_t seed = 0;
};

std::string describe(const ScanCase& c) {
    std::ostringstream s;
    s << type_name(c.type) << " sizes " << to_string(c.sizes) << " " << to_string(c.spec)
      << "\n  input strides " << to_string(c.in_strides) << " (+" << c.in_extra_bytes << " tail bytes)";
    if (c.in_place)
        s << ", IN PLACE";
    else
        s << ", output strides " << to_string(c.out_strides) << " (+" << c.out_extra_bytes << " tail bytes)";
    s << "\n  fill " << (c.fill == Fill::random ? "random" : "small integers") << ", seed 0x" << std::hex
      << c.seed;
    return s.str();
}

struct SweepStats {
    int cases = 0;
    int failed = 0;
    int unsupported = 0;
    uint64_t elements = 0;
};

constexpr int kMaxFailedCases = 12;  // a broken kernel fails thousands of cases: stop early

DML_OPERATOR_TYPE operator_type(ScanOp op) {
    return op == ScanOp::sum ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT;
}

// Runs one case through vkdml::execute and compares; records Catch assertions. Written for both
// cumulative operators (spec.op) so the cumulative-product tests can reuse it.
void run_scan_case(const ScanCase& c, SweepStats& stats) {
    ++stats.cases;
    const std::string what = describe(c);
    INFO("case: " << what);

    TestTensor input = make_tensor(c.type, c.sizes, c.in_strides, c.in_extra_bytes);
    fill_random_bytes(input, c.seed ^ 0x1111);  // garbage in the padding: it must not be read
    if (c.fill == Fill::small_integers && is_float_type(c.type))
        fill_random_integers(input, c.seed, -8, 8);
    else
        fill_random(input, c.seed);
    const std::vector<ScanElement> reference = reference_scan(input, c.spec);

    TestTensor separate_output;
    if (!c.in_place) {
        separate_output = make_tensor(c.type, c.sizes, c.out_strides, c.out_extra_bytes);
        fill_random_bytes(separate_output, c.seed ^ 0x2222);  // sentinel padding, garbage elements
    }
    TestTensor& output = c.in_place ? input : separate_output;
    const std::vector<std::byte> input_before = input.bytes;
    const std::vector<std::byte> output_before = output.bytes;

    const TensorDescView in_view(input);
    const TensorDescView out_view(output);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum_desc{};
    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product_desc{};
    DML_OPERATOR_DESC op_desc{operator_type(c.spec.op), nullptr};
    const DML_TENSOR_DESC* out_tensor = c.in_place ? in_view.get() : out_view.get();
    if (c.spec.op == ScanOp::sum) {
        sum_desc = {in_view.get(), out_tensor, c.spec.axis,
                    c.spec.decreasing ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
                    c.spec.exclusive ? 1 : 0};
        op_desc.Desc = &sum_desc;
    } else {
        product_desc = {in_view.get(), out_tensor, c.spec.axis,
                        c.spec.decreasing ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
                        c.spec.exclusive ? 1 : 0};
        op_desc.Desc = &product_desc;
    }

    vkdml::Device& device = test_device();
    const vkdml::TypeSupport support = device.supports(op_desc.Type, c.type);
    const void* inputs[] = {input.bytes.data()};
    void* outputs[] = {output.bytes.data()};
    const vkdml::Status status = vkdml::execute(device, op_desc, inputs, outputs);
    require_no_validation_messages();
    if (!support.supported) {
        // A device without the type's features must refuse it cleanly (SPEC §4), never compute.
        ++stats.unsupported;
        INFO("device does not support " << type_name(c.type) << ": " << support.reason);
        REQUIRE_FALSE(status.ok());
        CHECK(status.error().code == vkdml::ErrorCode::unsupported_device);
        return;
    }
    INFO("execute: " << (status.ok() ? std::string("ok") : status.error().message));
    REQUIRE(status.ok());
    stats.elements += input.count();

    // Elements.
    uint64_t mismatches = 0;
    std::ostringstream detail;
    std::vector<uint32_t> index(c.sizes.size(), 0);
    uint64_t logical = 0;
    do {
        const ScanElement& e = reference[logical++];
        const uint64_t offset = output.offset_of(index);
        if (!scan_element_matches(c.spec.op, c.type, e, output.get_bits(offset), output.get_double(offset))) {
            if (mismatches < 8)
                detail << "\n  index " << to_string(index) << ": got " << output.format_element(offset)
                       << ", expected " << format_expected(c.spec.op, c.type, e);
            ++mismatches;
        }
    } while (next_index(index, c.sizes));

    // Bytes outside the output's elements (padding, tail) must keep their uploaded values.
    uint64_t clobbered = 0;
    std::ostringstream clobber_detail;
    const std::vector<bool> mask = output.element_byte_mask();
    for (size_t i = 0; i < mask.size(); ++i) {
        if (mask[i] || output.bytes[i] == output_before[i]) continue;
        if (clobbered < 8)
            clobber_detail << "\n  byte " << i << ": was " << static_cast<int>(output_before[i]) << ", now "
                           << static_cast<int>(output.bytes[i]);
        ++clobbered;
    }
    const bool input_intact = c.in_place || input.bytes == input_before;

    INFO(mismatches << " of " << input.count() << " elements differ from the reference" << detail.str());
    INFO(clobbered << " padding bytes of the output were changed" << clobber_detail.str());
    INFO("input array unchanged: " << (input_intact ? "yes" : "NO"));
    const bool ok = mismatches == 0 && clobbered == 0 && input_intact;
    CHECK(ok);
    if (!ok && ++stats.failed >= kMaxFailedCases)
        FAIL("stopping this sweep after " << stats.failed << " failed cases");
}

// ---- randomness --------------------------------------------------------------------------------

uint64_t base_seed() {
    if (const char* env = std::getenv("VKDML_TEST_SEED")) return std::strtoull(env, nullptr, 0);
    return 0x5eedc0de2024ull;
}

std::mt19937_64 sweep_rng(uint64_t salt) {
    return std::mt19937_64(base_seed() * 0x9E3779B97F4A7C15ull + salt);
}

template <class T>
T pick(std::mt19937_64& rng, const std::vector<T>& values) {
    return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}

uint32_t uniform(std::mt19937_64& rng, uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
}

// Interesting axis lengths: subgroup sizes (4, 8, 32) and their neighbours, 2^k ± 1, primes.
const std::vector<uint32_t> kLengths = {
    1,   2,   3,   4,   5,   7,   8,   9,   15,  16,  17,   31,   32,   33,   63,   64,   65,   97,   127,
    128, 129, 251, 255, 256, 257, 509, 511, 512, 513, 1021, 1023, 1024, 1025, 2039, 2047, 2049, 4093, 4097};

// A random shape of `rank` dimensions with at most `budget` elements; the axis gets a length from
// kLengths (short ones half of the time, so that the other dimensions are not all 1).
std::vector<uint32_t> random_shape(std::mt19937_64& rng, uint32_t rank, uint32_t axis, uint32_t budget) {
    const uint32_t axis_cap = uniform(rng, 0, 1) ? budget : std::min<uint32_t>(budget, 40);
    std::vector<uint32_t> fitting;
    for (uint32_t l : kLengths)
        if (l <= axis_cap) fitting.push_back(l);
    std::vector<uint32_t> sizes(rank, 1);
    sizes[axis] = pick(rng, fitting);
    uint32_t remaining = budget / sizes[axis];
    std::vector<uint32_t> others;
    for (uint32_t d = 0; d < rank; ++d)
        if (d != axis) others.push_back(d);
    std::shuffle(others.begin(), others.end(), rng);
    for (size_t k = 0; k < others.size(); ++k) {
        const double left = static_cast<double>(others.size() - k);
        const uint32_t cap =
            std::max<uint32_t>(1, static_cast<uint32_t>(std::pow(remaining, 1.0 / left) * 1.5));
        const uint32_t s = uniform(rng, 1, std::max<uint32_t>(1, std::min(cap, remaining)));
        sizes[others[k]] = s;
        remaining /= s;
    }
    return sizes;
}

enum class Layout { packed, padded, fortran, permuted, broadcast };

const char* layout_name(Layout l) {
    switch (l) {
    case Layout::packed: return "packed";
    case Layout::padded: return "padded";
    case Layout::fortran: return "fortran";
    case Layout::permuted: return "permuted";
    default: return "broadcast";
    }
}

std::vector<uint32_t> random_pads(std::mt19937_64& rng, size_t rank) {
    std::vector<uint32_t> pads(rank);
    for (auto& p : pads) p = uniform(rng, 0, 3);
    if (std::all_of(pads.begin(), pads.end(), [](uint32_t p) { return p == 0; })) pads[rank - 1] = 1;
    return pads;
}

std::vector<uint32_t> layout_strides(std::mt19937_64& rng, Layout layout, const std::vector<uint32_t>& sizes,
                                     uint32_t axis) {
    const size_t rank = sizes.size();
    switch (layout) {
    case Layout::packed: return packed_strides(sizes);
    case Layout::padded: return padded_strides(sizes, random_pads(rng, rank));
    case Layout::fortran: {
        std::vector<uint32_t> order(rank);
        for (size_t k = 0; k < rank; ++k) order[k] = static_cast<uint32_t>(rank - 1 - k);
        return ordered_strides(sizes, order);
    }
    case Layout::permuted: {
        std::vector<uint32_t> order(rank);
        for (size_t k = 0; k < rank; ++k) order[k] = static_cast<uint32_t>(k);
        std::shuffle(order.begin(), order.end(), rng);
        return ordered_strides(sizes, order,
                               uniform(rng, 0, 1) ? random_pads(rng, rank) : std::vector<uint32_t>{});
    }
    case Layout::broadcast: {
        // Zero strides on a random non-empty set of dimensions; the scanned axis a third of the time.
        uint32_t mask = 0;
        while (mask == 0) {
            for (size_t d = 0; d < rank; ++d)
                if (uniform(rng, 0, 2) == 0) mask |= 1u << d;
            if (uniform(rng, 0, 2) == 0) mask |= 1u << axis;
        }
        return broadcast_strides(sizes, mask);
    }
    }
    return packed_strides(sizes);
}

// The four (direction, exclusive) combinations.
constexpr bool kCombos[4][2] = {{false, false}, {false, true}, {true, false}, {true, true}};

ScanSpec sum_spec(uint32_t axis, int combo) {
    return {ScanOp::sum, axis, kCombos[combo % 4][0], kCombos[combo % 4][1]};
}

}  // namespace

// ---- the sweeps --------------------------------------------------------------------------------

TEST_CASE("cumsum sweep: every rank, axis, direction and exclusivity for every type", "[gpu][cumsum]") {
    std::mt19937_64 rng = sweep_rng(1);
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (uint32_t rank = 1; rank <= 8; ++rank) {
            for (uint32_t axis = 0; axis < rank; ++axis) {
                for (int combo = 0; combo < 4; ++combo) {
                    ScanCase c;
                    c.type = type;
                    c.sizes = random_shape(rng, rank, axis, 2048);
                    c.spec = sum_spec(axis, combo);
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
    WARN("rank/axis sweep: " << stats.cases << " cases, " << stats.elements << " elements, "
                             << stats.unsupported << " unsupported-type cases");
}

TEST_CASE("cumsum sweep: axis lengths in four shapes for every type", "[gpu][cumsum]") {
    std::mt19937_64 rng = sweep_rng(2);
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
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
                c.spec = sum_spec(shapes[si].second, static_cast<int>(li + si));
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
    WARN("axis-length sweep: " << stats.cases << " cases, " << stats.elements << " elements");
}

TEST_CASE("cumsum: axes longer than 65535 elements", "[gpu][cumsum][long]") {
    std::mt19937_64 rng = sweep_rng(3);
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
        c.spec = sum_spec(l.axis, l.combo);
        c.seed = rng();
        c.fill = l.fill;
        c.in_place = l.in_place;
        c.in_strides = l.padded_input ? padded_strides(c.sizes, std::vector<uint32_t>(c.sizes.size(), 1))
                                      : packed_strides(c.sizes);
        c.out_strides = packed_strides(c.sizes);
        run_scan_case(c, stats);
    }
    WARN("long-axis cases: " << stats.cases << " cases, " << stats.elements << " elements");
}

TEST_CASE("cumsum: padded, permuted, broadcast and in-place layouts for every type", "[gpu][cumsum]") {
    std::mt19937_64 rng = sweep_rng(4);
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
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (uint32_t axis = 0; axis < 3; ++axis) {
            for (size_t pi = 0; pi < pairings.size(); ++pi) {
                ScanCase c;
                c.type = type;
                c.sizes = sizes;
                c.spec = sum_spec(axis, static_cast<int>(pi + axis));
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
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        for (uint32_t axis = 0; axis < 3; ++axis) {
            ScanCase c;
            c.type = type;
            c.sizes = sizes;
            c.spec = sum_spec(axis, static_cast<int>(axis) + 1);
            c.seed = rng();
            c.in_strides = broadcast_strides(sizes, 1u << axis);
            c.out_strides = packed;
            INFO("layouts: broadcast along the axis -> packed");
            run_scan_case(c, stats);
        }
    }
    WARN("layout cases: " << stats.cases);
}

TEST_CASE("cumsum: bytes of the output outside its elements are left untouched", "[gpu][cumsum]") {
    // run_scan_case checks every byte of the output buffer that belongs to no element (gaps between
    // elements and rows, the rounding to 4 bytes, extra tail bytes) against its uploaded value.
    std::mt19937_64 rng = sweep_rng(5);
    SweepStats stats;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        const std::vector<uint32_t> sizes = {3, 17, 9};
        for (uint32_t axis = 0; axis < 3; ++axis) {
            ScanCase c;
            c.type = type;
            c.sizes = sizes;
            c.spec = sum_spec(axis, static_cast<int>(axis));
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
            c.spec = sum_spec(0, static_cast<int>(gap));
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
        c.spec = sum_spec(1, 3);
        c.seed = rng();
        c.in_strides = padded_strides(c.sizes, {3, 1});
        c.in_extra_bytes = 16;
        c.in_place = true;
        run_scan_case(c, stats);
    }
    WARN("padding cases: " << stats.cases);
}

TEST_CASE("cumsum: float results are bit-identical from run to run", "[gpu][cumsum]") {
    // SPEC §3: no atomics-ordered float sums. Same device, same inputs -> same bytes, every time.
    std::mt19937_64 rng = sweep_rng(6);
    const std::vector<std::vector<uint32_t>> shapes = {{70001}, {300, 257}, {257, 40}};
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
        for (size_t si = 0; si < shapes.size(); ++si) {
            const std::vector<uint32_t>& sizes = shapes[si];
            const uint32_t axis = si == 1 ? 1 : 0;
            TestTensor input = make_packed(type, sizes);
            fill_random(input, rng());
            const TensorDescView in_view(input);
            std::vector<std::byte> first;
            for (int run = 0; run < 3; ++run) {
                TestTensor output = make_packed(type, sizes);
                const TensorDescView out_view(output);
                const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{in_view.get(), out_view.get(), axis,
                                                                  DML_AXIS_DIRECTION_INCREASING, 0};
                const DML_OPERATOR_DESC op{DML_OPERATOR_CUMULATIVE_SUMMATION, &desc};
                const void* inputs[] = {input.bytes.data()};
                void* outputs[] = {output.bytes.data()};
                const vkdml::Status status = vkdml::execute(test_device(), op, inputs, outputs);
                require_no_validation_messages();
                INFO(input.describe() << " axis " << axis << ", run " << run << ": "
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
