// tools/bench/cmd_bench.cpp — `vkdml bench`: the command's options, and the driver that runs each case (its
// baseline first, then the operator, the check and the CPU loop) and writes the table, JSON and SVG.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <utility>

#include "bench/bench_cases.hpp"
#include "bench/bench_cpu.hpp"
#include "bench/bench_data.hpp"
#include "bench/bench_gpu.hpp"
#include "bench/bench_report.hpp"
#include "cli/commands.hpp"
#include "cli/host_ops.hpp"
#include "npy/platform.hpp"

namespace vkdml::cli {
namespace {

using namespace bench;

constexpr uint32_t kHostRuns = 200;

struct Settings {
    std::string suite;
    std::vector<Case> cases;
    uint32_t repeat = 10;
    bool passes = false;
    std::optional<std::string> json_path, plot_path;
};

std::string joined_names(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

// The case of --op, --shape, --dtype and --axis: one of the bench's operators on any shape and type.
Case custom_case(const Args& args) {
    const std::vector<Op> kinds = {Op::cumsum,       Op::cumprod,    Op::cummax,       Op::cummax_indices,
                                   Op::logcumsumexp, Op::reduce_sum, Op::argmax,       Op::logsumexp,
                                   Op::variance,     Op::any,        Op::count_nonzero};
    std::vector<std::string> names;
    for (Op op : kinds) names.push_back(op_name(op));
    Case c;
    c.op = kinds[choose("--op", *args.value("--op"), names)];
    if (!args.has("--shape")) usage_error("--op needs --shape N[,N...]");
    c.shape = parse_shape(*args.value("--shape"));
    c.type = parse_dtype(args.value("--dtype").value_or("float32"));
    if ((c.op == Op::logsumexp || c.op == Op::variance || c.op == Op::logcumsumexp) && !is_float_type(c.type))
        usage_error(std::string("--op ") + op_name(c.op) +
                    " needs a float --dtype (float16, float32 or float64), got '" + *args.value("--dtype") +
                    "'");
    const auto rank = static_cast<int64_t>(c.shape.size());
    const int64_t axis = args.integer("--axis").value_or(-1);
    if (axis < -rank || axis >= rank)
        usage_error("--axis " + std::to_string(axis) + " is outside the --shape's " + std::to_string(rank) +
                    " axes (-" + std::to_string(rank) + " to " + std::to_string(rank - 1) + ")");
    c.axis = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
    c.name = std::string(op_name(c.op)) + "-" + type_name(c.type) + "-";
    for (size_t d = 0; d < c.shape.size(); ++d) c.name += (d ? "x" : "") + std::to_string(c.shape[d]);
    c.name += "-axis" + std::to_string(c.axis);
    return c;
}

Settings parse_settings(const Args& args) {
    Settings s;
    s.suite = args.value("--suite").value_or("default");
    s.cases = suite_cases(s.suite);
    if (s.cases.empty()) {
        const std::vector<std::string_view> names = suite_names();
        const std::vector<std::string> suites(names.begin(), names.end());
        usage_error("unknown suite '" + s.suite + "'" + did_you_mean(s.suite, suites) +
                    " (use quick, default or full)");
    }
    const std::vector<std::string> names = args.values("--case");
    if (args.has("--op")) {
        if (!names.empty()) usage_error("--op describes a case of its own; give it or --case, not both");
        s.cases = {custom_case(args)};
    } else {
        for (const char* option : {"--shape", "--dtype", "--axis"})
            if (args.has(option))
                usage_error(std::string(option) + " describes the case of --op, which is missing");
    }
    if (!names.empty()) {
        // Any case of the full table, at the suite's scale, in command-line order.
        std::vector<Case> table = suite_cases(s.suite == "quick" ? "quick" : "full");
        if (s.suite == "quick") {  // the full suite's extra cases, at the quick scale too
            for (Case& c : suite_cases("full"))
                if (std::none_of(table.begin(), table.end(),
                                 [&](const Case& t) { return t.name == c.name; })) {
                    auto largest = std::max_element(c.shape.begin(), c.shape.end());
                    *largest = std::max(1u, *largest / 16);
                    table.push_back(c);
                }
        }
        s.cases.clear();
        for (const std::string& name : names) {
            auto it = std::find_if(table.begin(), table.end(), [&](const Case& c) { return c.name == name; });
            if (it == table.end())
                usage_error("unknown case '" + name + "'" + did_you_mean(name, all_case_names()) +
                            "; the cases are: " + joined_names(all_case_names()));
            if (std::none_of(s.cases.begin(), s.cases.end(), [&](const Case& c) { return c.name == name; }))
                s.cases.push_back(*it);
        }
    }
    s.repeat = static_cast<uint32_t>(args.integer("--repeat").value_or(s.suite == "quick" ? 5 : 10));
    s.passes = args.has("--passes");
    s.json_path = args.value("--json");
    s.plot_path = args.value("--plot");
    if (s.plot_path) {
        const std::string& p = *s.plot_path;
        if (p.size() < 4 || p.compare(p.size() - 4, 4, ".svg") != 0)
            usage_error("--plot writes SVG only and needs a file name ending in .svg, got '" + p +
                        "' (PNG is not supported)");
    }
    // Unwritable outputs are found before any GPU work.
    if (s.json_path && *s.json_path != "-") check_output(*s.json_path);
    if (s.plot_path) check_output(*s.plot_path);
    return s;
}

const char* device_type(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

DeviceSummary summarize(const DeviceInfo& info) {
    const PhysicalDeviceInfo& p = info.physical;
    return {p.name,
            p.driver_name,
            p.driver_info,
            device_type(p.type),
            std::to_string(VK_API_VERSION_MAJOR(p.api_version)) + "." +
                std::to_string(VK_API_VERSION_MINOR(p.api_version)) + "." +
                std::to_string(VK_API_VERSION_PATCH(p.api_version)),
            info.subgroup_size};
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    const std::tm local = platform::local_time(now);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &local);
    return text;
}

double gbps(uint64_t bytes, double ms) {
    return static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

// "scan_chained/f32 chained scan" for describe()'s "pass 2: scan_chained/f32 chained scan (look-back ...) |
// ...": each pass's kernel and job, without the details.
std::vector<std::string> pass_names(const std::string& plan) {
    std::vector<std::string> names;
    for (size_t at = plan.find("pass "); at != std::string::npos; at = plan.find("\npass ", at + 1)) {
        const size_t start = plan.find(": ", at);
        const size_t end =
            std::min({plan.find(" | ", start), plan.find(" (", start), plan.find('\n', start)});
        if (start == std::string::npos || end == std::string::npos) break;
        names.push_back(plan.substr(start + 2, end - start - 2));
    }
    return names;
}

// Each pass's bytes from describe()'s "... | src input 268435456 B, dst output 268435456 B, partials
// scratch@0 262152 B": the spans of its bindings' windows, summed.
std::vector<uint64_t> pass_bytes(const std::string& plan) {
    std::vector<uint64_t> bytes;
    for (size_t at = plan.find("pass "); at != std::string::npos; at = plan.find("\npass ", at + 1)) {
        const size_t end = plan.find('\n', at + 1);
        const size_t src = plan.rfind(" | src ", end);
        uint64_t sum = 0;
        for (size_t b = plan.find(" B", src); src != std::string::npos && b < end;
             b = plan.find(" B", b + 2)) {
            size_t digits = b;
            while (digits > src && std::isdigit(static_cast<unsigned char>(plan[digits - 1]))) --digits;
            if (digits < b) sum += std::stoull(plan.substr(digits, b - digits));
        }
        bytes.push_back(sum);
    }
    return bytes;
}

void check_result(Result& r, const std::vector<Sample>& samples, std::span<const std::byte> got) {
    const Check check = check_samples(r.c, samples, got);
    r.check_detail = check.mismatch;
    r.check_ok = check.mismatch.empty();
    r.max_rel_err = check.max_rel_err;
}

// The host case: a small cumsum through HostExecution::run() against an empty submit.
void run_host_case(Result& r, const Device& device, Gpu& gpu, std::span<const std::byte> input) {
    const ops::Operation d = operation(r.c);
    HostExecution run = take(HostExecution::create(device, d.desc()));
    std::copy(input.begin(), input.end(), run.input(0).begin());
    std::vector<double> times;
    for (uint32_t n = 0; n < kHostRuns + 5; ++n) {
        const auto start = std::chrono::steady_clock::now();
        check(run.run());
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        if (n >= 5) times.push_back(took.count());
    }
    std::sort(times.begin(), times.end());
    r.median_ms = (times[kHostRuns / 2 - 1] + times[kHostRuns / 2]) / 2;
    r.min_ms = times.front();
    r.max_ms = times.back();
    r.submit_ms = gpu.empty_submit_ms(kHostRuns);
    r.gpu_timing = false;
    const std::vector<Sample> samples = reference_samples(r.c, input);
    std::vector<std::byte> got;
    const uint32_t size = element_size(output_type(r.c));
    for (const Sample& s : samples) {
        const auto bytes = run.output(0).subspan(s.index * size, size);
        got.insert(got.end(), bytes.begin(), bytes.end());
    }
    check_result(r, samples, got);
    Case as_scan = r.c;
    as_scan.op = Op::cumsum;
    r.cpu_gbps = gbps(r.bytes, cpu_time_ms(as_scan, input));
}

// A GPU case: its baseline (cached per kind and byte count), then the operator's timed runs.
void run_gpu_case(Result& r, const Device& device, Gpu& gpu, std::span<const std::byte> input,
                  const Settings& s, std::map<std::pair<Baseline, uint64_t>, double>& baselines) {
    const ops::Operation d = operation(r.c);
    const Operator op = take(device.create_operator(d.desc()));
    const CompiledOperator compiled = take(device.compile_operator(op));
    const Baseline kind = baseline_of(r.c.op);
    const auto key = std::make_pair(kind, uint64_t{input.size()});
    if (!baselines.count(key)) baselines[key] = gpu.baseline_gbps(kind, input.size(), s.repeat);
    r.baseline_gbps = baselines[key];

    GpuBuffer in = gpu.storage_buffer(d.input_bytes()), out = gpu.storage_buffer(d.output_bytes());
    GpuBuffer index_out;  // the second output (cummax-indices), which the check reads
    if (d.index_output()) index_out = gpu.storage_buffer(d.index_output_bytes());
    const uint64_t temp_bytes = compiled.binding_properties().TemporaryResourceSize;
    GpuBuffer temp;
    if (temp_bytes > 0) temp = gpu.storage_buffer(temp_bytes);
    gpu.upload(in, input);
    const BufferBinding in_binding{in.buffer(), 0, d.input_bytes(), in.size(), in.usage()};
    const BufferBinding out_bindings[] = {
        {out.buffer(), 0, d.output_bytes(), out.size(), out.usage()},
        {index_out.buffer(), 0, d.index_output_bytes(), index_out.size(), index_out.usage()}};
    Bindings bindings{std::span(&in_binding, 1), std::span(out_bindings, d.index_output() ? 2 : 1),
                      std::nullopt};
    if (temp_bytes > 0)
        bindings.temporary = BufferBinding{temp.buffer(), 0, temp_bytes, temp.size(), temp.usage()};

    const Timing timing = gpu.time(
        [&](VkCommandBuffer cmd, const PassTimestamps* passes) {
            check(passes ? record(compiled, cmd, bindings, *passes) : compiled.record(cmd, bindings));
        },
        s.repeat, s.passes && gpu.gpu_timestamps() ? pass_count(compiled) : 0);
    r.median_ms = timing.median();
    r.min_ms = timing.min();
    r.max_ms = timing.max();
    r.gpu_timing = timing.gpu;
    r.has_passes = s.passes;
    r.passes = timing.pass_medians;
    const std::string plan = describe(compiled);
    if (s.passes) {
        r.pass_names = pass_names(plan);
        r.pass_bytes = pass_bytes(plan);
    }
    r.ratio = gbps(r.bytes, r.median_ms) / r.baseline_gbps;
    // The chained scan's look-back in the last run, from its tile states (the temporary buffer).
    const bool chained = plan.find("chained scan") != std::string::npos;
    if (s.passes && chained && temp_bytes <= UINT32_MAX) {
        const uint64_t whole[] = {0};
        const std::vector<std::byte> states = gpu.download(temp, whole, static_cast<uint32_t>(temp_bytes));
        const ChainedScanStats stats = take(chained_scan_stats(compiled, states));
        r.chained_tiles = stats.tiles;
        r.chained_fallbacks = stats.fallbacks;
    }

    const std::vector<Sample> samples = reference_samples(r.c, input);
    std::vector<uint64_t> indices;
    for (const Sample& sample : samples) indices.push_back(sample.index);
    check_result(r, samples,
                 gpu.download(d.index_output() ? index_out : out, indices, element_size(output_type(r.c))));
    r.cpu_gbps = gbps(r.bytes, cpu_time_ms(r.c, input));
}

void run_bench(const Args& args) {
    const Settings s = parse_settings(args);
    const std::shared_ptr<Device> device = open_device(args);
    Gpu gpu(*device);
    Report report{summarize(device->info()), s.suite, s.repeat, today(), {}};
    report.device.rows = device->policy_rows();
    report.device.tuning = format_tuning(tool_tuning());  // the knobs device_options set
    // --json -: the JSON alone on standard output, the text on standard error.
    const bool json_to_stdout = s.json_path && *s.json_path == "-";
    std::FILE* text_out = json_to_stdout ? stderr : stdout;
    std::fputs(device_line(report).c_str(), text_out);
    std::fflush(text_out);

    std::map<std::pair<Baseline, uint64_t>, double> baselines;
    for (size_t n = 0; n < s.cases.size(); ++n) {
        Result r;
        r.c = s.cases[n];
        if (r.c.op != Op::host_cumsum) fit_to_device(r.c, device->info(), gpu.device_local_heap());
        r.bytes = useful_bytes(r.c);
        std::fprintf(stderr, "[%zu/%zu] %s ...\n", n + 1, s.cases.size(), r.c.name.c_str());
        const TypeSupport support = device->supports(dml_operator(r.c.op), r.c.type);
        if (!support.supported) {
            r.skipped = support.reason;
            report.results.push_back(std::move(r));
            continue;
        }
        try {
            const std::vector<std::byte> input = make_input(r.c);
            if (r.c.op == Op::host_cumsum)
                run_host_case(r, *device, gpu, input);
            else
                run_gpu_case(r, *device, gpu, input, s, baselines);
            r.gbps = gbps(r.bytes, r.median_ms);
        } catch (const CliError& error) {  // one failing case does not end the suite
            r.error = error.what();
        }
        report.results.push_back(std::move(r));
    }

    std::fputs(table(report).c_str(), text_out);
    const auto write = [](const std::string& path, const std::string& text) {
        const std::span<const std::byte> parts[] = {std::as_bytes(std::span(text))};
        if (auto failure = platform::write_file_atomically(path, parts)) fail(path + ": " + *failure);
    };
    if (json_to_stdout) {
        const std::string doc = json(report);
        if (std::fwrite(doc.data(), 1, doc.size(), stdout) != doc.size() || std::fflush(stdout) != 0)
            fail("cannot write the JSON to standard output");
    } else if (s.json_path) {
        write(*s.json_path, json(report));
    }
    if (s.plot_path) write(*s.plot_path, svg(report));
}

void define_bench(CLI::App& app) {
    add_value(app, "--suite", "S",
              "quick (1/16 of the elements), default or full (more types); default: default");
    add_repeatable(app, "--case", "NAME", "run only this case (repeatable; any case of the full suite)");
    add_value(app, "--op", "OP",
              "run one case of your own instead: cumsum, cumprod, cummax, cummax-indices, logcumsumexp, "
              "reduce-sum, "
              "argmax, "
              "logsumexp, variance, any or count-nonzero");
    add_value(app, "--shape", "N[,N...]", "--op's input sizes, 1 to 8 of them, e.g. 4096,1000");
    add_value(app, "--dtype", "T",
              "--op's input type (default float32): float16, float32, float64, int8 ... uint64");
    add_integer(app, "--axis", "N", "--op's one axis, negative from the last (default -1: the last)");
    add_value(app, "--json", "FILE",
              "also write the results as JSON (-: to standard output, the text to standard error)");
    add_value(app, "--plot", "FILE.svg", "also write an SVG chart of GB/s against the baselines");
    add_integer(app, "--repeat", "N", "timed runs per case, after 2 warm-up runs (default 10; quick: 5)")
        .check([](int64_t n) { return n >= 1 && n <= 100000; },
               "option '--repeat' expects an integer from 1 to 100000");
    add_switch(app, "--passes", "time each of the operator's passes too (GPU timestamps)");
    add_device_option(app);
    add_validation_option(app);
}

}  // namespace

extern const Command kBenchCommand = {
    "bench",
    "Time the operators on standard cases against vec4 copy/read baselines and a CPU loop.",
    {},
    define_bench,
    run_bench};

}  // namespace vkdml::cli
