// tools/bench/bench_report.hpp — what `vkdml bench` measured, and its three renderings: the human table, the
// JSON file and the SVG chart.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_cases.hpp"

namespace vkdml::cli::bench {

/// The outcome of one case. Times in ms, rates in GB/s (1e9 bytes/s); NaN where not measured.
struct Result {
    Case c;
    uint64_t bytes = 0;   ///< useful bytes (useful_bytes)
    std::string skipped;  ///< non-empty: the case did not run, and why
    std::string error;    ///< non-empty: the case failed (a library or Vulkan error)
    double median_ms = 0, min_ms = 0, max_ms = 0, gbps = 0;
    double baseline_gbps = 0;  ///< copy or read baseline (GPU cases)
    double ratio = 0;          ///< gbps / baseline_gbps (GPU cases)
    double submit_ms = 0;      ///< empty submit round trip (host case)
    double cpu_gbps = 0;
    bool gpu_timing = false;
    bool has_passes = false;
    std::vector<double> passes;  ///< median ms per pass (with --passes)
    /// Each pass's kernel and job, as vkdml::describe names them ("scan_chained/f32 chained scan")
    std::vector<std::string> pass_names;
    /// Each pass's bytes: what its bindings' windows span, summed (vkdml::describe's "src ... B, dst ... B,
    /// partials ... B"), from which a pass's GB/s follows
    std::vector<uint64_t> pass_bytes;
    /// With --passes, where the plan has a chained scan: its look-back in the last timed run
    /// (vkdml::chained_scan_stats; tiles 0 otherwise).
    uint64_t chained_tiles = 0, chained_fallbacks = 0;
    bool check_ok = true;
    std::string check_detail;  ///< the first mismatching element
    double max_rel_err = NAN;  ///< float outputs: the largest relative error over the checked elements
};

/// The device the results come from.
struct DeviceSummary {
    std::string name, driver, driver_info, type, vulkan;
    uint32_t subgroup_size = 0;
    std::string
        rows;  ///< the policy rows the device plans with (Device::policy_rows): "cooperative-gpu", ...
    std::string
        tuning;  ///< the knobs set on them (DeviceOptions::tuning, VKDML_TOOL_TUNE), "k=v,..."; empty: none
};

struct Report {
    DeviceSummary device;
    std::string suite;
    uint32_t repeat = 0;
    std::string date;  ///< YYYY-MM-DD, local time
    std::vector<Result> results;
};

/// Lower-case DirectML type name ("float32", "int64", ...), as the JSON "dtype".
std::string dtype_name(DML_TENSOR_DATA_TYPE type);

/// The device line printed first: name, driver, subgroup size and the tuning, if any.
std::string device_line(const Report& report);
/// The result table (one row per case, then notes for the host case, mismatches and errors).
std::string table(const Report& report);
/// The JSON document (see `vkdml bench --help`).
std::string json(const Report& report);
/// An SVG chart: one row per case, its GB/s as a bar and its baseline's as an outline, the ratio as text.
std::string svg(const Report& report);

}  // namespace vkdml::cli::bench
