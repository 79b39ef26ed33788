// scan_sweep.hpp — one randomized cumulative-operator case (sum or product) run against the CPU
// reference, and the randomness, shapes and layouts the sweeps draw cases from.
//
// run_scan_case executes a case through the host path vkdml::execute(test_device(), ...) with the
// validation layer on, and checks (1) every output element against reference_scan (integers exactly
// modulo 2^bits; floats exactly when every partial result is exact in the accumulator, else within
// the tolerance of reference_scan.hpp), (2) that no byte of the output buffer outside the tensor's
// elements changed (outputs are uploaded first), (3) that the input array is unchanged, (4) that the
// validation layer said nothing.
#pragma once

#include "reference_scan.hpp"
#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vkdml_test {

/// How a case's input is filled; what each means depends on the operation (see fill_scan_input).
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

/// Type, sizes, operation, layouts, fill and seed of a case, for failure messages.
std::string describe(const ScanCase& c);

/// Fills the elements of a case's input (padding untouched), from c.seed:
///  sum, random:             integers over their full range (sums wrap); floats uniform in [-1, 1].
///  sum, small_integers:     integers in [-8, 8] (float sums are then mostly exact).
///  product, random:         integers: odd values over the full range (odd numbers never multiply to
///                           0 mod 2^bits, so long products wrap again and again); floats: ±e^u with
///                           |u| in [s/2, s], s = clamp(16 · 2^-23 · (L + 1), 0.1, 0.5) — every factor
///                           further from 1 than the product tolerance — and the sign of u steering
///                           each fiber's running product back towards 1, so it never over/underflows.
///  product, small_integers: floats from {±1, ±2, ±0.5} (every partial product is a power of two,
///                           exact in the accumulator) with the odd zero; integers from {±1, ±3, ±2}
///                           with the odd zero (evens and zeros drive products to 0 mod 2^bits).
void fill_scan_input(TestTensor& input, const ScanCase& c);

struct SweepStats {
    int cases = 0;
    int failed = 0;
    int unsupported = 0;
    uint64_t elements = 0;
};

/// DML_OPERATOR_CUMULATIVE_SUMMATION or DML_OPERATOR_CUMULATIVE_PRODUCT.
DML_OPERATOR_TYPE operator_type(ScanOp op);

/// Executes the cumulative operator `spec` on `device` (null: test_device()) through the host path, from
/// `input` into `output` (null: in place, into `input`).
vkdml::Status execute_scan(const ScanSpec& spec, TestTensor& input, TestTensor* output,
                           const vkdml::Device* device = nullptr);

/// The verdict of one sweep case whose elements were compared (`mismatches` of `elements`, the first
/// few described in `mismatch_detail`): also that no byte of `output` outside its elements changed
/// since `output_before`, and `input_intact`. One CHECK; a sweep FAILs after a dozen failed cases.
void check_case_verdict(const TestTensor& output, const std::vector<std::byte>& output_before,
                        bool input_intact, uint64_t mismatches, uint64_t elements,
                        const std::string& mismatch_detail, SweepStats& stats);

/// Runs one case and records Catch assertions (a sweep stops after a dozen failed cases).
void run_scan_case(const ScanCase& c, SweepStats& stats);

// ---- randomness, shapes, layouts ----------------------------------------------------------------

/// A generator seeded from VKDML_TEST_SEED (decimal or 0x-hex; a fixed default) and a per-sweep salt.
std::mt19937_64 sweep_rng(uint64_t salt);

uint32_t uniform(std::mt19937_64& rng, uint32_t lo, uint32_t hi);

template <class T>
T pick(std::mt19937_64& rng, const std::vector<T>& values) {
    return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}

/// Interesting axis lengths: subgroup sizes (4, 8, 32) and their neighbours, 2^k ± 1, primes.
extern const std::vector<uint32_t> kLengths;

/// A random shape of `rank` dimensions with at most `budget` elements; the axis gets a length from
/// kLengths (short ones half of the time, so that the other dimensions are not all 1).
std::vector<uint32_t> random_shape(std::mt19937_64& rng, uint32_t rank, uint32_t axis, uint32_t budget);

enum class Layout { packed, padded, fortran, permuted, broadcast };

const char* layout_name(Layout l);
/// Random gaps (0..3 elements, not all 0) per dimension.
std::vector<uint32_t> random_pads(std::mt19937_64& rng, size_t rank);
/// Strides of a random instance of `layout` (broadcast: zero strides on a random set of dimensions,
/// the scanned axis among them a third of the time).
std::vector<uint32_t> layout_strides(std::mt19937_64& rng, Layout layout, const std::vector<uint32_t>& sizes,
                                     uint32_t axis);

/// The four (direction, exclusive) combinations, chosen by combo % 4.
ScanSpec scan_spec(ScanOp op, uint32_t axis, int combo);

}  // namespace vkdml_test
