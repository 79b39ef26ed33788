// tools/bench/bench_data.hpp — the data of `vkdml bench`: deterministic inputs per case, and the check of a
// few downloaded output elements against a reference computed on the host in double / 64-bit integers.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench/bench_cases.hpp"

namespace vkdml::cli::bench {

/// The input of a case (element_count(c) elements of c.type, packed), filled from a fixed seed: floats
/// uniform in [0,1) (float16: integers -1, 0, 1, so that sums stay exact and finite), products' factors
/// within 2^-13 of 1 (float16: 1 and 1 ± 2^-10), integers 0..3.
std::vector<std::byte> make_input(const Case& c);

/// One output element to check and what it should be.
struct Sample {
    uint64_t index = 0;    ///< element index in the packed output
    bool exact = false;    ///< compare bits (integers, indices) rather than values
    uint64_t bits = 0;     ///< the expected low bits (exact)
    double value = 0;      ///< the expected value (floats)
    double tolerance = 0;  ///< allowed |got - value| (floats)
};

/// The elements to check (the first, middle and last fibers; for scans the first and last positions
/// along each and both sides of every multiple of a power-of-two step, where chunk, tile and block
/// boundaries fall) with their expected values: exact integers, and float references computed in
/// double-double (about 106 bits) from the stored inputs.
std::vector<Sample> reference_samples(const Case& c, std::span<const std::byte> input);

/// What the check of a case found.
struct Check {
    std::string mismatch;      ///< empty when every sample agrees, else the first that does not
    double max_rel_err = NAN;  ///< float outputs: the largest |got - exact| / |exact| over the samples
};

/// Compares the downloaded elements (element_size(output_type(c)) bytes per sample, in order) with the
/// samples: integers and indices exactly, floats within the accuracy contract (1e-6 relative for
/// float32, 1e-14 for float64, half an ulp for float16 outputs).
Check check_samples(const Case& c, const std::vector<Sample>& samples, std::span<const std::byte> got);

}  // namespace vkdml::cli::bench
