// tests/tools/test_cli_bench.cpp — `vkdml bench` run as a subprocess: a few quick cases with --json and
// --plot (the JSON's exact layout and values, the SVG), its argument errors, and ([bench-quick], run by the
// CTest test bench-quick only) the whole quick suite under the validation layer.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "gpu_fixture.hpp"
#include "json_check.hpp"
#include "npy/platform.hpp"
#include "os_support.hpp"
#include "vkdml/version.hpp"

namespace fs = std::filesystem;
using namespace vkdml_test::cli;
// Paths are UTF-8 strings: std::filesystem gets them through path_from_utf8 (not the ANSI code page).
using vkdml::platform::path_from_utf8;
namespace json = vkdml_test::json;

namespace {

using Keys = std::vector<std::string>;

const Keys kGpuKeys = {"case",      "op",       "dtype",  "shape", "axes",      "bytes",
                       "median_ms", "min_ms",   "max_ms", "gbps",  "copy_gbps", "ratio_to_copy",
                       "cpu_gbps",  "baseline", "timing", "check"};
const Keys kHostKeys = {"case",      "op",       "dtype",  "shape", "axes",      "bytes",
                        "median_ms", "min_ms",   "max_ms", "gbps",  "submit_ms", "ratio_to_submit",
                        "cpu_gbps",  "baseline", "timing", "check"};

/// The keys of a case with a float output: the same, then its measured error.
Keys with_rel_err(Keys keys) {
    keys.push_back("max_rel_err");
    return keys;
}

// The quick suite's cases, in order.
const Keys kQuickCases = {
    "scan-1d",       "scan-rows-short", "scan-rows-medium",  "scan-outer",       "scan-outer-narrow",
    "cumprod-1d",    "cummax-1d",       "cummax-indices-1d", "logcumsumexp-1d",  "reduce-1d",
    "reduce-inner",  "reduce-outer",    "reduce-few-huge",   "reduce-many-tiny", "argmax-1d",
    "logsumexp-1d",  "variance-1d",     "variance-outer",    "any-1d",           "count-nonzero-1d",
    "scan-1d-f16",   "scan-1d-i32",     "scan-1d-i64",       "scan-1d-f64",      "reduce-1d-f16",
    "reduce-1d-i32", "reduce-1d-i64",   "reduce-1d-f64",     "host-cumsum-1k"};

std::vector<double> numbers(const json::Value& array) {
    std::vector<double> values;
    for (const json::Value& item : array) values.push_back(item.get<double>());
    return values;
}

void check_device(const json::Value& doc) {
    CHECK(json::keys(doc) == Keys{"vkdml", "date", "device", "suite", "repeat", "results"});
    // What ran, and when: this build's version, the commit it was built from, the local date.
    const json::Value& vkdml = doc.at("vkdml");
    CHECK(json::keys(vkdml) == Keys{"version", "commit"});
    CHECK(vkdml.at("version").get<std::string>() == VKDML_VERSION_STRING);
    const std::string commit = vkdml.at("commit").get<std::string>();
    CHECK((commit == "unknown" || commit.size() >= 12));  // a hash (and "-dirty"), "unknown" outside git
    CHECK(std::regex_match(doc.at("date").get<std::string>(), std::regex(R"(20\d\d-[01]\d-[0-3]\d)")));
    const json::Value& device = doc.at("device");
    CHECK(json::keys(device) ==
          Keys{"name", "driver", "driver_info", "type", "subgroup_size", "vulkan", "rows", "tuning"});
    CHECK_FALSE(device.at("name").get<std::string>().empty());
    const std::string rows = device.at("rows").get<std::string>();
    CHECK((rows == "serial-cpu" || rows == "cooperative-cpu" || rows == "serial-gpu" ||
           rows == "cooperative-gpu"));
    CHECK(device.at("subgroup_size").get<double>() >= 1);
}

// The accuracy contract the bench checks float cases against (relative to the exact result).
double rel_err_bound(const std::string& dtype) {
    return dtype == "float16" ? 0x1p-11 : dtype == "float64" ? 1e-14 : 1e-6;
}

// The timing fields of a case that ran: positive, ordered, finite; its output check passed.
void check_times(const json::Value& r) {
    INFO("case " << r.at("case").get<std::string>());
    CHECK(r.at("median_ms").get<double>() > 0);
    CHECK(r.at("min_ms").get<double>() <= r.at("median_ms").get<double>());
    CHECK(r.at("median_ms").get<double>() <= r.at("max_ms").get<double>());
    CHECK(r.at("gbps").get<double>() > 0);
    CHECK(r.at("cpu_gbps").get<double>() > 0);
    CHECK(r.at("check").get<std::string>() == "ok");
    const std::string op = r.at("op").get<std::string>();
    if (r.at("dtype").get<std::string>().rfind("float", 0) == 0 && op != "argmax" && op != "any" &&
        op != "count-nonzero" && op != "cummax-indices") {
        // float results: the measured error, within the contract (indices, flags and counts: exact)
        REQUIRE(r.contains("max_rel_err"));
        CHECK(r.at("max_rel_err").get<double>() >= 0);
        CHECK(r.at("max_rel_err").get<double>() <= rel_err_bound(r.at("dtype").get<std::string>()));
    } else {
        CHECK_FALSE(r.contains("max_rel_err"));
    }
    if (r.contains("copy_gbps")) {
        CHECK(r.at("copy_gbps").get<double>() > 0);
        CHECK(r.at("ratio_to_copy").get<double>() > 0);
        CHECK((r.at("timing").get<std::string>() == "gpu" || r.at("timing").get<std::string>() == "wall"));
    } else {
        CHECK(r.at("submit_ms").get<double>() > 0);
        CHECK(r.at("ratio_to_submit").get<double>() > 0);
        CHECK(r.at("timing").get<std::string>() == "wall");
    }
}

// No line of the validation layer in the tool's stderr.
void check_no_validation_message(const std::string& err) {
    INFO(err);
    CHECK(err.find("vkdml: validation:") == std::string::npos);
}

}  // namespace

TEST_CASE("cli: vkdml bench writes the table, the JSON and the SVG of the cases asked for", "[gpu][cli]") {
    TempDir dir;
    const std::string json_path = dir / "bench.json", svg_path = dir / "bench.svg";
    const Outcome run = run_tool(
        dir,
        with_validation({"bench", "--suite", "quick", "--case", "scan-1d", "--case", "reduce-1d", "--case",
                         "host-cumsum-1k", "--repeat", "2", "--json", json_path, "--plot", svg_path}));
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    check_no_validation_message(run.err);
    CHECK(run.out.rfind("device: ", 0) == 0);
    CHECK(run.out.find("subgroup size") != std::string::npos);
    CHECK(run.err.find("[1/3] scan-1d ...\n[2/3] reduce-1d ...\n[3/3] host-cumsum-1k ...\n") !=
          std::string::npos);
    for (const char* name : {"scan-1d ", "reduce-1d ", "host-cumsum-1k "})
        CHECK(run.out.find(name) != std::string::npos);

    const json::Value doc = json::parse(read_text(json_path));
    check_device(doc);
    // The rows the device planned with, in the device line too: a CPU device's are its serial ones.
    const std::string rows = doc.at("device").at("rows").get<std::string>();
    if (doc.at("device").at("type").get<std::string>() == "cpu") CHECK(rows == "serial-cpu");
    CHECK(run.out.find(", " + rows + " rows\n") == run.out.find('\n') - rows.size() - 7);
    CHECK(doc.at("suite").get<std::string>() == "quick");
    CHECK(doc.at("repeat").get<double>() == 2);
    const json::Value& results = doc.at("results");
    REQUIRE(results.size() == 3);

    const json::Value& scan = results[0];
    CHECK(json::keys(scan) == with_rel_err(kGpuKeys));
    CHECK(scan.at("case").get<std::string>() == "scan-1d");
    CHECK(scan.at("op").get<std::string>() == "cumsum");
    CHECK(scan.at("dtype").get<std::string>() == "float32");
    CHECK(numbers(scan.at("shape")) == std::vector<double>{4194304});
    CHECK(numbers(scan.at("axes")) == std::vector<double>{0});
    CHECK(scan.at("bytes").get<double>() == 4194304.0 * 4 * 2);
    CHECK(scan.at("baseline").get<std::string>() == "copy");

    const json::Value& reduce = results[1];
    CHECK(json::keys(reduce) == with_rel_err(kGpuKeys));
    CHECK(reduce.at("case").get<std::string>() == "reduce-1d");
    CHECK(reduce.at("op").get<std::string>() == "reduce-sum");
    CHECK(reduce.at("dtype").get<std::string>() == "float32");
    CHECK(numbers(reduce.at("shape")) == std::vector<double>{4194304});
    CHECK(numbers(reduce.at("axes")) == std::vector<double>{0});
    CHECK(reduce.at("bytes").get<double>() == 4194304.0 * 4);
    CHECK(reduce.at("baseline").get<std::string>() == "read");

    const json::Value& host = results[2];
    CHECK(json::keys(host) == with_rel_err(kHostKeys));
    CHECK(host.at("case").get<std::string>() == "host-cumsum-1k");
    CHECK(host.at("op").get<std::string>() == "host-cumsum");
    CHECK(numbers(host.at("shape")) == std::vector<double>{1024});
    CHECK(host.at("bytes").get<double>() == 1024.0 * 4 * 2);
    CHECK(host.at("baseline").get<std::string>() == "submit");
    for (const json::Value& r : results) check_times(r);

    const std::string svg = read_text(svg_path);
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK(svg.find("</svg>") != std::string::npos);
    for (const char* name : {"scan-1d", "reduce-1d", "host-cumsum-1k"})
        CHECK(svg.find(name) != std::string::npos);
}

TEST_CASE("cli: vkdml bench --passes lists a time per pass", "[gpu][cli]") {
    TempDir dir;
    const std::string json_path = dir / "bench.json";
    const Outcome run = run_tool(dir, {"bench", "--suite", "quick", "--case", "reduce-many-tiny", "--repeat",
                                       "1", "--passes", "--json", json_path});
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const json::Value doc = json::parse(read_text(json_path));
    REQUIRE(doc.at("results").size() == 1);
    const json::Value& r = doc.at("results")[0];
    CHECK(numbers(r.at("shape")) == std::vector<double>{65536, 3});
    CHECK(numbers(r.at("axes")) == std::vector<double>{1});
    CHECK(r.at("bytes").get<double>() == 65536.0 * 3 * 4);
    if (r.at("timing").get<std::string>() == "gpu") {
        CHECK_FALSE(r.at("passes").empty());
        for (double ms : numbers(r.at("passes"))) CHECK(ms >= 0);
    }
    // Each pass named by its kernel and job, as `vkdml plan` and describe() name it.
    std::vector<std::string> names;
    for (const json::Value& name : r.at("pass_names")) names.push_back(name.get<std::string>());
    CHECK(names.size() == r.at("passes").size());
    CHECK(r.at("pass_bytes").size() == names.size());
    CHECK(run.out.find("reduce-many-tiny passes (ms): ") != std::string::npos);
    if (vkdml_test::test_device().info().physical.type ==
        VK_PHYSICAL_DEVICE_TYPE_CPU) {  // the CPU rows' one pass
        CHECK(names == std::vector<std::string>{"reduce_serial_canonical/f32 fold to the output"});
        // Its bytes: the input's 786,432 and the output's 262,144 (`vkdml plan --device 0`'s spans).
        CHECK(numbers(r.at("pass_bytes")) == std::vector<double>{786432 + 262144});
        CHECK(run.out.find(" reduce_serial_canonical/f32 fold to the output\n") != std::string::npos);
    }
    for (const std::string& name : names) CHECK(run.out.find(" " + name) != std::string::npos);
}

TEST_CASE("cli: vkdml bench --json - writes the JSON alone to standard output, the text to standard error",
          "[gpu][cli]") {
    TempDir dir;
    const Outcome run = run_tool(
        dir, {"bench", "--suite", "quick", "--case", "reduce-many-tiny", "--repeat", "1", "--json", "-"});
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const json::Value doc = json::parse(run.out);  // nothing but the document
    check_device(doc);
    REQUIRE(doc.at("results").size() == 1);
    CHECK(doc.at("results")[0].at("case").get<std::string>() == "reduce-many-tiny");
    CHECK(run.err.find("reduce-many-tiny") != std::string::npos);  // the progress line and the table
    CHECK(run.err.find("GB/s") != std::string::npos);
    CHECK(dir.entries().empty());  // no file named '-'
}

TEST_CASE("cli: vkdml bench --op, --shape, --dtype and --axis time a case of one's own", "[gpu][cli]") {
    TempDir dir;
    const Outcome run = run_tool(dir, {"bench", "--op", "cumprod", "--shape", "1000,7", "--dtype", "int16",
                                       "--axis", "-2", "--repeat", "1", "--json", "-"});
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const json::Value doc = json::parse(run.out);
    REQUIRE(doc.at("results").size() == 1);
    const json::Value& r = doc.at("results")[0];
    CHECK(r.at("case").get<std::string>() == "cumprod-i16-1000x7-axis0");
    CHECK(r.at("op").get<std::string>() == "cumprod");
    CHECK(r.at("dtype").get<std::string>() == "int16");
    CHECK(numbers(r.at("shape")) == std::vector<double>{1000, 7});
    CHECK(numbers(r.at("axes")) == std::vector<double>{0});
    CHECK(r.at("bytes").get<double>() == 2.0 * 1000 * 7 * 2);  // read and written
    CHECK(r.at("check").get<std::string>() == "ok");
    // The default type and axis: float32 along the last.
    const Outcome last =
        run_tool(dir, {"bench", "--op", "argmax", "--shape", "5,300", "--repeat", "1", "--json", "-"});
    INFO("stdout: " << last.out << "\nstderr: " << last.err);
    REQUIRE(last.exit_code == 0);
    const json::Value last_doc = json::parse(last.out);
    const json::Value& a = last_doc.at("results")[0];
    CHECK(a.at("case").get<std::string>() == "argmax-f32-5x300-axis1");
    CHECK(a.at("check").get<std::string>() == "ok");
    // The index output: its indices checked (the last of ties) and counted in the bytes.
    const Outcome indexed = run_tool(dir, {"bench", "--op", "cummax-indices", "--shape", "3,5000", "--dtype",
                                           "int8", "--repeat", "1", "--json", "-"});
    INFO("stdout: " << indexed.out << "\nstderr: " << indexed.err);
    REQUIRE(indexed.exit_code == 0);
    const json::Value indexed_doc = json::parse(indexed.out);
    const json::Value& c = indexed_doc.at("results")[0];
    CHECK(c.at("case").get<std::string>() == "cummax-indices-i8-3x5000-axis1");
    CHECK(c.at("bytes").get<double>() == 3.0 * 5000 * (1 + 1 + 8));
    CHECK(c.at("check").get<std::string>() == "ok");
}

TEST_CASE("cli: vkdml bench --passes gives the chained scan's look-back fallbacks and tiles", "[gpu][cli]") {
    // The GPU rows (VKDML_TOOL_POLICY, a knob of test builds) plan scan-1d-i32 as one chained pass (float
    // sums tile in the canonical association, never chained).
    TempDir dir;
    const std::string json_path = dir / "bench.json";
    vkdml_test::set_environment("VKDML_TOOL_POLICY", "gpu");
    const Outcome run = run_tool(dir, {"bench", "--suite", "quick", "--case", "scan-1d-i32", "--case",
                                       "reduce-1d", "--repeat", "1", "--passes", "--json", json_path});
    vkdml_test::set_environment("VKDML_TOOL_POLICY", nullptr);
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const json::Value doc = json::parse(read_text(json_path));
    REQUIRE(doc.at("results").size() == 2);
    const json::Value& scan = doc.at("results")[0];
    REQUIRE(scan.at("timing").get<std::string>() == "gpu");
    const json::Value& chained = scan.at("chained_scan");
    CHECK(json::keys(chained) == Keys{"tiles", "fallbacks"});
    // 4,194,304 elements in tiles of a power of two: at most one tile per 256 elements, at least two.
    const double tiles = chained.at("tiles").get<double>(), fallbacks = chained.at("fallbacks").get<double>();
    CHECK(tiles >= 2);
    CHECK(tiles <= 4194304 / 256);
    CHECK(fallbacks <= tiles * (tiles - 1) / 2);
    CHECK(run.out.find("scan-1d-i32 passes (ms): ") != std::string::npos);
    std::vector<std::string> names;
    for (const json::Value& name : scan.at("pass_names")) names.push_back(name.get<std::string>());
    CHECK(names ==
          std::vector<std::string>{"scan_chained/u32 clear tile states", "scan_chained/u32 chained scan"});
    CHECK(run.out.find(" scan_chained/u32 clear tile states, ") != std::string::npos);
    std::ostringstream line;
    line << " scan_chained/u32 chained scan; look-back fallbacks " << uint64_t(fallbacks) << " over "
         << uint64_t(tiles) << " tiles\n";
    CHECK(run.out.find(line.str()) != std::string::npos);
    // A reduction has no chained scan: no such field or note.
    CHECK_FALSE(doc.at("results")[1].contains("chained_scan"));
    CHECK(run.out.find("reduce-1d passes (ms):") != std::string::npos);
    CHECK(run.out.find("look-back fallbacks", run.out.find("reduce-1d passes (ms):")) == std::string::npos);
    // A value the knob does not know is refused by name.
    vkdml_test::set_environment("VKDML_TOOL_POLICY", "tpu");
    const Outcome bad =
        run_tool(dir, {"bench", "--suite", "quick", "--case", "reduce-many-tiny", "--repeat", "1"});
    vkdml_test::set_environment("VKDML_TOOL_POLICY", nullptr);
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("VKDML_TOOL_POLICY is 'tpu': expected gpu or cpu") != std::string::npos);
}

TEST_CASE("cli: VKDML_TOOL_TUNE tunes the tool's device; the device line and the JSON name the tuning",
          "[gpu][cli]") {
    TempDir dir;
    const std::string json_path = dir / "bench.json";
    vkdml_test::set_environment("VKDML_TOOL_POLICY", "gpu");
    vkdml_test::set_environment("VKDML_TOOL_TUNE", "scan.tile_workgroup=32,scan.chained=0");
    const Outcome run = run_tool(dir, {"bench", "--suite", "quick", "--case", "scan-1d-i32", "--repeat", "1",
                                       "--passes", "--json", json_path});
    vkdml_test::set_environment("VKDML_TOOL_TUNE", "scan.tile_workgroup=2");
    const Outcome bad =
        run_tool(dir, {"bench", "--suite", "quick", "--case", "scan-1d-i32", "--repeat", "1"});
    vkdml_test::set_environment("VKDML_TOOL_TUNE", nullptr);
    vkdml_test::set_environment("VKDML_TOOL_POLICY", nullptr);
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    // The GPU rows' family: cooperative where the device's subgroups are whole (lavapipe's are).
    const vkdml::DeviceInfo& info = vkdml_test::test_device().info();
    const bool whole = info.full_subgroups || info.min_subgroup_size == info.max_subgroup_size;
    const std::string rows = whole ? "cooperative-gpu" : "serial-gpu";
    CHECK(run.out.find(", " + rows + " rows tuned scan.tile_workgroup=32,scan.chained=0\n") !=
          std::string::npos);
    const json::Value doc = json::parse(read_text(json_path));
    check_device(doc);
    CHECK(doc.at("device").at("rows").get<std::string>() == rows);
    CHECK(doc.at("device").at("tuning").get<std::string>() == "scan.tile_workgroup=32,scan.chained=0");
    // Reduce-then-scan instead of the chained pass (scan.chained=0), its check passed.
    const json::Value& scan = doc.at("results")[0];
    CHECK(scan.at("check").get<std::string>() == "ok");
    CHECK_FALSE(scan.contains("chained_scan"));
    std::vector<std::string> names;
    for (const json::Value& name : scan.at("pass_names")) names.push_back(name.get<std::string>());
    CHECK(std::find(names.begin(), names.end(), "scan_chained/u32 reduce to partials") != names.end());
    CHECK(bad.exit_code == 1);
    CHECK(
        bad.err.find("VKDML_TOOL_TUNE: tuning: scan.tile_workgroup is 2: it takes a power of two from 32 to "
                     "1024") != std::string::npos);
}

TEST_CASE("cli: vkdml bench argument errors", "[cli]") {
    TempDir dir;
    const std::string sub = dir / "sub";
    fs::create_directory(path_from_utf8(sub));
    check_error(dir, {"bench", "--suite", "huge"}, 2, "unknown suite 'huge' (use quick, default or full)");
    check_error(dir, {"bench", "--case", "scan-1d", "--case", "scan-2d"}, 2,
                "unknown case 'scan-2d' (did you mean 'scan-1d'?); the cases are: scan-1d, scan-rows-short, "
                "scan-rows-medium, ");
    check_error(dir, {"bench", "--suite", "qiuck"}, 2,
                "unknown suite 'qiuck' (did you mean 'quick'?) (use quick,");
    check_error(dir, {"bench", "--case", "nope"}, 2, ", cumprod-1d-f16, argmax-1d-f16, host-cumsum-1k");
    check_error(dir, {"bench", "--repeat", "0"}, 2,
                "option '--repeat' expects an integer from 1 to 100000, got '0'");
    check_error(dir, {"bench", "--repeat", "-3"}, 2,
                "option '--repeat' expects an integer from 1 to 100000, got '-3'");
    check_error(dir, {"bench", "--repeat", "ten"}, 2, "option '--repeat' expects an integer, got 'ten'");
    check_error(dir, {"bench", "--repeat", "2", "--repeat", "3"}, 2, "option '--repeat' is given twice");
    check_error(dir, {"bench", "--passes=yes"}, 2, "option '--passes' takes no value");
    check_error(dir, {"bench", "extra"}, 2, "'vkdml bench' takes 0 operand(s), got 1");
    // A case of one's own: --op with --shape, and --dtype and --axis only with --op.
    check_error(dir, {"bench", "--op", "cumsum"}, 2, "--op needs --shape N[,N...]");
    check_error(dir, {"bench", "--op", "cumsun", "--shape", "8"}, 2,
                "unknown --op 'cumsun' (did you mean 'cumsum'?) (one of: cumsum, cumprod, cummax, "
                "cummax-indices, logcumsumexp, reduce-sum, argmax, logsumexp, variance, any, count-nonzero)");
    check_error(dir, {"bench", "--op", "cumsum", "--shape", "8", "--case", "scan-1d"}, 2,
                "--op describes a case of its own; give it or --case, not both");
    check_error(dir, {"bench", "--shape", "8"}, 2, "--shape describes the case of --op, which is missing");
    check_error(dir, {"bench", "--axis", "0"}, 2, "--axis describes the case of --op, which is missing");
    check_error(dir, {"bench", "--op", "cumsum", "--shape", "8,0"}, 2,
                "option '--shape' expects comma-separated sizes of 1 or more, got '8,0'");
    check_error(dir, {"bench", "--op", "argmax", "--shape", "8,3", "--axis", "2"}, 2,
                "--axis 2 is outside the --shape's 2 axes (-2 to 1)");
    check_error(dir, {"bench", "--op", "logsumexp", "--shape", "8", "--dtype", "int32"}, 2,
                "--op logsumexp needs a float --dtype (float16, float32 or float64), got 'int32'");
    check_error(dir, {"bench", "--op", "variance", "--shape", "8", "--dtype", "uint8"}, 2,
                "--op variance needs a float --dtype (float16, float32 or float64), got 'uint8'");
    check_error(dir, {"bench", "--op", "logcumsumexp", "--shape", "8", "--dtype", "int32"}, 2,
                "--op logcumsumexp needs a float --dtype (float16, float32 or float64), got 'int32'");
    check_error(dir, {"bench", "--op", "cumsum", "--shape", "8", "--dtype", "float31"}, 2,
                "unknown --dtype 'float31' (did you mean 'float32'?)");
    check_error(dir, {"bench", "--plot", dir / "chart.png"}, 2,
                "--plot writes SVG only and needs a file name ending in .svg, got '" + dir / "chart.png" +
                    "' (PNG is not supported)");
    // Unwritable outputs are refused before the device is opened (the device name would fail next).
    check_error(dir, {"bench", "--device", "no-such-gpu", "--json", sub}, 1,
                sub + ": cannot write: it is a directory");
    check_error_parts(dir, {"bench", "--device", "no-such-gpu", "--json", dir / "none/out.json"}, 1,
                      {dir / "none/out.json" + ": cannot create '", "': No such file or directory"});
    check_error_parts(dir, {"bench", "--device", "no-such-gpu", "--plot", dir / "none/out.svg"}, 1,
                      {dir / "none/out.svg" + ": cannot create '", "': No such file or directory"});
    CHECK(dir.entries() == std::vector<std::string>{"sub"});
}

// The whole quick suite (a few minutes on lavapipe): run by the CTest test bench-quick, hidden otherwise.
TEST_CASE("cli: vkdml bench --suite quick runs every case and its JSON is complete", "[.][bench-quick]") {
    TempDir dir;
    const std::string json_path = dir / "quick.json";
    // Two timed runs per case (the suite's default is 5): the JSON and its checks are the same.
    const Outcome run =
        run_tool(dir, with_validation({"bench", "--suite", "quick", "--repeat", "2", "--json", json_path}),
                 Stdout::capture, 900);
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    check_no_validation_message(run.err);
    const json::Value doc = json::parse(read_text(json_path));
    check_device(doc);
    CHECK(doc.at("suite").get<std::string>() == "quick");
    CHECK(doc.at("repeat").get<double>() == 2);
    Keys names;
    for (const json::Value& r : doc.at("results")) {
        names.push_back(r.at("case").get<std::string>());
        INFO("case " << names.back());
        CHECK_FALSE(r.contains("error"));
        if (r.contains("skipped")) {
            CHECK(json::keys(r) == Keys{"case", "op", "dtype", "shape", "axes", "bytes", "skipped"});
            continue;
        }
        Keys keys = json::keys(r);
        if (!keys.empty() && keys.back() == "max_rel_err") keys.pop_back();   // float cases (check_times)
        if (!keys.empty() && keys.back() == "check_detail") keys.pop_back();  // a mismatch's description
        CHECK(keys == (r.at("baseline").get<std::string>() == "submit" ? kHostKeys : kGpuKeys));
        check_times(r);
    }
    CHECK(names == kQuickCases);
}
