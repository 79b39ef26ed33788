// tools/bench/bench_cpu.hpp — the single-threaded CPU reference of `vkdml bench`: the same case as a plain
// loop (std::inclusive_scan, std::accumulate, std::max_element, a two-pass logsumexp; row or column loops for
// 2-D cases; float16 converted to float in the loop), timed on the host.
#pragma once

#include <cstddef>
#include <span>

#include "bench/bench_cases.hpp"

namespace vkdml::cli::bench {

/// Milliseconds the CPU loop takes on `input` (make_input's bytes): the median of 3 runs, or one run if
/// that took more than 0.5 s. NaN for a case the loops do not cover (the host case).
double cpu_time_ms(const Case& c, std::span<const std::byte> input);

}  // namespace vkdml::cli::bench
