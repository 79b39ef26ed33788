// tools/bench/bench_report.cpp — the table, JSON and SVG renderings of `vkdml bench` results.
#include "bench/bench_report.hpp"

#include "vkdml/version.hpp"
#include "vkdml_commit.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace vkdml::cli::bench {
namespace {

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string join(const std::vector<uint32_t>& values, const char* separator) {
    std::string text;
    for (size_t n = 0; n < values.size(); ++n) text += (n ? separator : "") + std::to_string(values[n]);
    return text;
}

bool is_host(const Result& r) {
    return r.c.op == Op::host_cumsum;
}

// A cell: the value with `pattern`, or "-" when it is not a finite number.
std::string cell(const char* pattern, double value) {
    return std::isfinite(value) ? format(pattern, value) : "-";
}

// ---- JSON -----------------------------------------------------------------------------------

using Json = nlohmann::ordered_json;  // keys in the order written: the tests and readers compare them

// A measurement to 6 significant digits (what the timings carry), or null when it is not finite.
Json number(double value) {
    if (!std::isfinite(value)) return nullptr;
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::general, 6);
    double rounded = value;  // kept if the digits do not read back (they always do)
    static_cast<void>(std::from_chars(text, written.ptr, rounded));
    return rounded;
}

Json result_json(const Result& r) {
    Json o = {{"case", r.c.name},   {"op", op_name(r.c.op)},           {"dtype", dtype_name(r.c.type)},
              {"shape", r.c.shape}, {"axes", Json::array({r.c.axis})}, {"bytes", r.bytes}};
    if (!r.skipped.empty()) {
        o["skipped"] = r.skipped;
        return o;
    }
    if (!r.error.empty()) {
        o["error"] = r.error;
        return o;
    }
    o["median_ms"] = number(r.median_ms);
    o["min_ms"] = number(r.min_ms);
    o["max_ms"] = number(r.max_ms);
    o["gbps"] = number(r.gbps);
    if (is_host(r)) {
        o["submit_ms"] = number(r.submit_ms);
        o["ratio_to_submit"] = number(r.median_ms / r.submit_ms);
    } else {
        o["copy_gbps"] = number(r.baseline_gbps);
        o["ratio_to_copy"] = number(r.ratio);
    }
    o["cpu_gbps"] = number(r.cpu_gbps);
    o["baseline"] = baseline_name(baseline_of(r.c.op));
    o["timing"] = r.gpu_timing ? "gpu" : "wall";
    o["check"] = r.check_ok ? "ok" : "mismatch";
    if (!r.check_ok) o["check_detail"] = r.check_detail;
    if (!std::isnan(r.max_rel_err)) o["max_rel_err"] = number(r.max_rel_err);
    if (r.has_passes) {
        Json& passes = o["passes"] = Json::array();
        for (double ms : r.passes) passes.push_back(number(ms));
        o["pass_names"] = r.pass_names;
        o["pass_bytes"] = r.pass_bytes;
        if (r.chained_tiles > 0)
            o["chained_scan"] = Json{{"tiles", r.chained_tiles}, {"fallbacks", r.chained_fallbacks}};
    }
    return o;
}

// ---- SVG ------------------------------------------------------------------------------------

std::string xml(const std::string& text) {
    std::string out;
    for (char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += ch;
        }
    }
    return out;
}

}  // namespace

std::string dtype_name(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo* info = type_info(type);
    return info ? info->numpy_name : "unknown";
}

std::string device_line(const Report& report) {
    const DeviceSummary& d = report.device;
    return "device: " + d.name + " (" + d.type + ", Vulkan " + d.vulkan + "), driver " + d.driver + " " +
           d.driver_info + ", subgroup size " + std::to_string(d.subgroup_size) + ", " + d.rows + " rows" +
           (d.tuning.empty() ? "" : " tuned " + d.tuning) + "\n";
}

std::string table(const Report& report) {
    char line[512];
    const char* row = "%-18s %-13s %-8s %-12s %-4s %9s %10s %10s %10s %8s %8s %7s %8s %8s  %s\n";
    std::string text;
    std::snprintf(line, sizeof line, row, "case", "op", "dtype", "shape", "axes", "MB", "median ms", "min",
                  "max", "GB/s", "copy", "ratio", "cpu", "rel err", "check");
    text += line;
    std::string notes;
    for (const Result& r : report.results) {
        const std::string shape = join(r.c.shape, "x"), axes = std::to_string(r.c.axis);
        const std::string mb = format("%.2f", static_cast<double>(r.bytes) / 1e6);
        if (!r.skipped.empty() || !r.error.empty()) {
            std::snprintf(line, sizeof line, "%-18s %-13s %-8s %-12s %-4s %9s  %s\n", r.c.name.c_str(),
                          op_name(r.c.op), dtype_name(r.c.type).c_str(), shape.c_str(), axes.c_str(),
                          mb.c_str(),
                          (r.skipped.empty() ? "error: " + r.error : "skipped: " + r.skipped).c_str());
            text += line;
            continue;
        }
        const std::string ratio =
            is_host(r) ? cell("%.2f", r.median_ms / r.submit_ms) + "s" : cell("%.2f", r.ratio);
        std::snprintf(line, sizeof line, row, r.c.name.c_str(), op_name(r.c.op), dtype_name(r.c.type).c_str(),
                      shape.c_str(), axes.c_str(), mb.c_str(), cell("%.3f", r.median_ms).c_str(),
                      cell("%.3f", r.min_ms).c_str(), cell("%.3f", r.max_ms).c_str(),
                      cell("%.2f", r.gbps).c_str(), is_host(r) ? "-" : cell("%.2f", r.baseline_gbps).c_str(),
                      ratio.c_str(), cell("%.2f", r.cpu_gbps).c_str(),
                      std::isnan(r.max_rel_err) ? "-" : format("%.1e", r.max_rel_err).c_str(),
                      r.check_ok ? "ok" : "MISMATCH");
        text += line;
        if (is_host(r))
            notes += "  " + r.c.name + ": HostExecution::run() " + format("%.4f", r.median_ms) +
                     " ms, empty submit " + format("%.4f", r.submit_ms) + " ms, ratio " +
                     format("%.2f", r.median_ms / r.submit_ms) + " (target <= 2; 's' in the ratio column)\n";
        if (!r.check_ok) notes += "  " + r.c.name + ": check mismatch: " + r.check_detail + "\n";
        if (r.has_passes) {
            notes += "  " + r.c.name + " passes (ms):";
            for (size_t p = 0; p < r.passes.size(); ++p)
                notes += std::string(p ? ", " : " ") + format("%.3f", r.passes[p]) +
                         (p < r.pass_names.size() ? " " + r.pass_names[p] : std::string());
            if (r.chained_tiles > 0)
                notes += "; look-back fallbacks " + std::to_string(r.chained_fallbacks) + " over " +
                         std::to_string(r.chained_tiles) + " tiles";
            notes += "\n";
        }
    }
    text +=
        "copy = GB/s of the vec4 copy (scans) or read (reductions) baseline over the same bytes; "
        "ratio = GB/s / copy\n";
    return notes.empty() ? text : text + "notes:\n" + notes;
}

std::string json(const Report& report) {
    const DeviceSummary& d = report.device;
    Json doc = {{"vkdml", {{"version", VKDML_VERSION_STRING}, {"commit", VKDML_GIT_COMMIT}}},
                {"date", report.date},
                {"device",
                 {{"name", d.name},
                  {"driver", d.driver},
                  {"driver_info", d.driver_info},
                  {"type", d.type},
                  {"subgroup_size", d.subgroup_size},
                  {"vulkan", d.vulkan},
                  {"rows", d.rows},
                  {"tuning", d.tuning}}},
                {"suite", report.suite},
                {"repeat", report.repeat},
                {"results", Json::array()}};
    for (const Result& r : report.results) doc["results"].push_back(result_json(r));
    // Indented by one space, as tools/bench_torch.py writes it; bytes that are not UTF-8 (a driver's
    // string, say) become U+FFFD rather than failing the run.
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string svg(const Report& report) {
    constexpr int kWidth = 960, kLabel = 250, kBars = 520, kRow = 24, kTop = 70;
    double scale = 0;
    for (const Result& r : report.results)
        if (r.skipped.empty() && r.error.empty() && !is_host(r))
            scale = std::max({scale, std::isfinite(r.gbps) ? r.gbps : 0, r.baseline_gbps});
    if (scale <= 0) scale = 1;
    const int height = kTop + kRow * static_cast<int>(report.results.size()) + 40;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kWidth) +
                    "\" height=\"" + std::to_string(height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += "<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">vkdml bench (" + xml(report.suite) +
         ") on " + xml(report.device.name) + ", " + xml(report.date) + "</text>\n";
    s += "<text x=\"10\" y=\"42\">bar: GB/s of the case; outline: GB/s of the vec4 copy (scans) or read "
         "(reductions) baseline over the same bytes; text: ratio. Scale 0 to " +
         format("%.1f", scale) + " GB/s.</text>\n";
    int y = kTop;
    for (const Result& r : report.results) {
        const std::string label = xml(r.c.name) + " (" + dtype_name(r.c.type) + ")";
        s += "<text x=\"10\" y=\"" + std::to_string(y + 15) + "\">" + label + "</text>\n";
        std::string note;
        if (!r.skipped.empty()) {
            note = "skipped: " + r.skipped;
        } else if (!r.error.empty()) {
            note = "error: " + r.error;
        } else if (is_host(r)) {
            note = format("run() %.4f ms", r.median_ms) + format(" vs empty submit %.4f ms", r.submit_ms) +
                   format(": ratio %.2f (target <= 2)", r.median_ms / r.submit_ms);
        } else {
            const auto px = [&](double gbps) { return format("%.1f", std::max(0.0, gbps) / scale * kBars); };
            s += "<rect x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" +
                 px(r.gbps) + "\" height=\"16\" fill=\"" + (r.check_ok ? "#4878b0" : "#c03030") + "\"/>\n";
            s += "<rect x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y + 1) + "\" width=\"" +
                 px(r.baseline_gbps) +
                 "\" height=\"20\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\"/>\n";
            note = format("%.2f GB/s", r.gbps) + format(" / %.2f", r.baseline_gbps) + " " +
                   baseline_name(baseline_of(r.c.op)) + format(" = %.2f", r.ratio) +
                   (r.check_ok ? "" : " MISMATCH");
        }
        const int note_x =
            is_host(r) || !r.skipped.empty() || !r.error.empty() ? kLabel : kLabel + kBars + 10;
        s += "<text x=\"" + std::to_string(note_x) + "\" y=\"" + std::to_string(y + 15) + "\">" + xml(note) +
             "</text>\n";
        y += kRow;
    }
    return s + "</svg>\n";
}

}  // namespace vkdml::cli::bench
