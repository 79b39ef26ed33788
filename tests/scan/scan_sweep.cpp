// scan_sweep.cpp — running one cumulative-operator case against the reference; sweep randomness.
#include "scan_sweep.hpp"

#include "gpu_fixture.hpp"
#include "vkdml/vkdml.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace vkdml_test {

std::string describe(const ScanCase& c) {
    std::ostringstream s;
    s << type_name(c.type) << " sizes " << to_string(c.sizes) << " " << to_string(c.spec)
      << "\n  input strides " << to_string(c.in_strides) << " (+" << c.in_extra_bytes << " tail bytes)";
    if (c.in_place)
        s << ", IN PLACE";
    else
        s << ", output strides " << to_string(c.out_strides) << " (+" << c.out_extra_bytes << " tail bytes)";
    s << "\n  fill " << (c.fill == Fill::random ? "random" : "small integers") << ", seed 0x" << std::hex
      << c.seed << std::dec;
    return s.str();
}

namespace {

constexpr int kMaxFailedCases = 12;  // a broken kernel fails thousands of cases: stop early

// Floats ±e^u, |u| uniform in [lo, hi], walking each fiber along the axis and choosing the sign of u
// (4 times in 5) to pull the running log-product back towards 0: products stay near 1 however long
// the axis, while each factor is far from 1. Elements shared by several fibers (zero strides) end up
// with the values of the last fiber written, which every fiber sharing them then sees.
void fill_near_one_along_fibers(TestTensor& t, uint32_t axis, uint64_t seed, double lo, double hi) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> magnitude(lo, hi);
    std::uniform_int_distribution<int> fifths(0, 4);
    std::vector<uint32_t> fiber_sizes = t.sizes;
    fiber_sizes[axis] = 1;
    std::vector<uint32_t> index(t.rank(), 0);
    do {
        double running = 0;
        for (uint32_t k = 0; k < t.sizes[axis]; ++k) {
            index[axis] = k;
            const double toward_zero = running > 0 ? -1 : 1;
            const double u = (fifths(rng) == 0 ? -toward_zero : toward_zero) * magnitude(rng);
            const uint64_t offset = t.offset_of(index);
            t.set_double(offset, (rng() & 1u) ? -std::exp(u) : std::exp(u));
            running += std::log(std::fabs(t.get_double(offset)));  // what was stored, after rounding
        }
        index[axis] = 0;
    } while (next_index(index, fiber_sizes));
}

}  // namespace

DML_OPERATOR_TYPE operator_type(ScanOp op) {
    return op == ScanOp::sum ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT;
}

vkdml::Status execute_scan(const ScanSpec& spec, TestTensor& input, TestTensor* output,
                           const vkdml::Device* device) {
    const TensorDescView in_view(input);
    const TensorDescView out_view(output ? *output : input);
    const DML_TENSOR_DESC* out_tensor = output ? out_view.get() : in_view.get();
    const DML_AXIS_DIRECTION direction =
        spec.decreasing ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
    // The two descriptions share one layout; each operator gets its own type.
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum_desc{in_view.get(), out_tensor, spec.axis, direction,
                                                          spec.exclusive ? 1 : 0};
    const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product_desc{in_view.get(), out_tensor, spec.axis, direction,
                                                            spec.exclusive ? 1 : 0};
    const DML_OPERATOR_DESC op_desc{operator_type(spec.op), spec.op == ScanOp::sum
                                                                ? static_cast<const void*>(&sum_desc)
                                                                : static_cast<const void*>(&product_desc)};
    const std::span<const std::byte> inputs[] = {input.bytes};
    const std::span<std::byte> outputs[] = {output ? output->bytes : input.bytes};
    return vkdml::execute(device ? *device : test_device(), op_desc, inputs, outputs);
}

void fill_scan_input(TestTensor& input, const ScanCase& c) {
    const bool product = c.spec.op == ScanOp::product;
    const bool is_float = is_float_type(c.type);
    if (!product) {
        if (c.fill == Fill::small_integers && is_float)
            fill_random_integers(input, c.seed, -8, 8);
        else
            fill_random(input, c.seed);
        return;
    }
    const double length = std::max(1.0, static_cast<double>(c.sizes[c.spec.axis]));
    if (c.fill == Fill::random) {
        if (is_float) {
            // Every factor at least s/2 away from 1 in log terms, s at least 16 times the relative
            // tolerance of the longest product (2^-23 (L + 1)): a lost, doubled or misplaced factor
            // always shows.
            const double s = std::clamp(16 * 0x1p-23 * (length + 1), 0.1, 0.5);
            fill_near_one_along_fibers(input, c.spec.axis, c.seed, s / 2, s);
        } else {
            fill_random_odd(input, c.seed);
        }
        return;
    }
    // Rare factors (powers of two for floats; evens and zeros for integers) keep products in range
    // and keep most integer fibers away from 0 for a while.
    const double rare = std::min(1.0 / 8, 16.0 / length);
    const double zero = std::min(1.0 / 64, 0.5 / length);
    const double common = (1.0 - 2 * rare - zero) / 2;
    if (is_float)
        fill_choice(input, c.seed, {1, -1, 2, -2, 0.5, -0.5, 0},
                    {common, common, rare / 2, rare / 2, rare / 2, rare / 2, zero});
    else
        fill_choice(input, c.seed, {1, -1, 3, -3, 2, -2, 0},
                    {common / 2, common / 2, common / 2, common / 2, rare, rare, zero});
}

void run_scan_case(const ScanCase& c, SweepStats& stats) {
    ++stats.cases;
    const std::string what = describe(c);
    INFO("case: " << what);

    TestTensor input = make_tensor(c.type, c.sizes, c.in_strides, c.in_extra_bytes);
    fill_random_bytes(input, c.seed ^ 0x1111);  // garbage in the padding: it must not be read
    fill_scan_input(input, c);
    const std::vector<ScanElement> reference = reference_scan(input, c.spec);
    const auto ambiguous =
        std::count_if(reference.begin(), reference.end(), [](const ScanElement& e) { return e.ambiguous; });
    if (ambiguous)
        FAIL("test design: the fill gives " << ambiguous
                                            << " products whose overflow or underflow depends "
                                               "on the grouping; change the fill so they cannot occur");

    TestTensor separate_output;
    if (!c.in_place) {
        separate_output = make_tensor(c.type, c.sizes, c.out_strides, c.out_extra_bytes);
        fill_random_bytes(separate_output, c.seed ^ 0x2222);  // sentinel padding, garbage elements
    }
    TestTensor& output = c.in_place ? input : separate_output;
    const std::vector<std::byte> input_before = input.bytes;
    const std::vector<std::byte> output_before = output.bytes;

    vkdml::Device& device = test_device();
    const vkdml::TypeSupport support = device.supports(operator_type(c.spec.op), c.type);
    const vkdml::Status status = execute_scan(c.spec, input, c.in_place ? nullptr : &output);
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

    check_case_verdict(output, output_before, c.in_place || input.bytes == input_before, mismatches,
                       input.count(), detail.str(), stats);
}

void check_case_verdict(const TestTensor& output, const std::vector<std::byte>& output_before,
                        bool input_intact, uint64_t mismatches, uint64_t elements,
                        const std::string& mismatch_detail, SweepStats& stats) {
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
    INFO(mismatches << " of " << elements << " elements differ from the reference" << mismatch_detail);
    INFO(clobbered << " padding bytes of the output were changed" << clobber_detail.str());
    INFO("input array unchanged: " << (input_intact ? "yes" : "NO"));
    const bool ok = mismatches == 0 && clobbered == 0 && input_intact;
    CHECK(ok);
    if (!ok && ++stats.failed >= kMaxFailedCases)
        FAIL("stopping this sweep after " << stats.failed << " failed cases");
}

// ---- randomness --------------------------------------------------------------------------------

namespace {

uint64_t base_seed() {
    if (const char* env = std::getenv("VKDML_TEST_SEED")) return std::strtoull(env, nullptr, 0);
    return 0x5eedc0de2024ull;
}

}  // namespace

std::mt19937_64 sweep_rng(uint64_t salt) {
    return std::mt19937_64(base_seed() * 0x9E3779B97F4A7C15ull + salt);
}

uint32_t uniform(std::mt19937_64& rng, uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
}

const std::vector<uint32_t> kLengths = {
    1,   2,   3,   4,   5,   7,   8,   9,   15,  16,  17,   31,   32,   33,   63,   64,   65,   97,   127,
    128, 129, 251, 255, 256, 257, 509, 511, 512, 513, 1021, 1023, 1024, 1025, 2039, 2047, 2049, 4093, 4097};

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

ScanSpec scan_spec(ScanOp op, uint32_t axis, int combo) {
    constexpr bool kCombos[4][2] = {{false, false}, {false, true}, {true, false}, {true, true}};
    return {op, axis, kCombos[combo % 4][0], kCombos[combo % 4][1]};
}

}  // namespace vkdml_test
