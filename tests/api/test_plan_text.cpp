// describe_plan (the planner without a device) and `vkdml plan`: the printed plans of the NVIDIA H200's
// failing integer scan and other shapes per device class, compared line for line; bad PlanDevices and
// descriptions refused by name.
#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <string>
#include <vector>

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

/// A packed tensor description of `type` and `sizes`, kept alive with its arrays.
struct Tensor {
    std::vector<uint32_t> sizes;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
        const auto rank = static_cast<uint32_t>(sizes.size());
        buffer = {type,    DML_TENSOR_FLAG_NONE,
                  rank,    sizes.data(),
                  nullptr, DMLCalcBufferTensorSize(type, rank, sizes.data(), nullptr),
                  0};
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
};

std::string scan_plan(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes, uint32_t axis,
                      const vkdml::PlanDevice& device) {
    Tensor t(type, std::move(sizes));
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t.desc, &t.desc, axis, DML_AXIS_DIRECTION_INCREASING, 0};
    auto text = vkdml::describe_plan({DML_OPERATOR_CUMULATIVE_SUMMATION, &d}, device);
    INFO((text ? std::string() : text.error().message));
    REQUIRE(text);
    return *text;
}

}  // namespace

TEST_CASE("describe_plan prints a GPU's plans without a device: the H200's integer scan", "[unit][plan]") {
    vkdml::PlanDevice serial;
    serial.kernels = vkdml::KernelChoice::serial;
    // The carry level (pass 2) runs in place: it reads and writes the scratch through binding 1 only.
    CHECK(
        scan_plan(DML_TENSOR_DATA_TYPE_UINT32, {40, 16}, 0, serial) ==
        "CUMULATIVE_SUMMATION UINT32 {40,16}: serial-gpu rows, subgroup size 32, 3 passes\n"
        "pass 1: scan_serial/u32 reduce to partials | blocks of 4 vectors, 16 lines, lines inner | 1 lines x "
        "2 chunks of 32 | 2 items, workgroup 64, 1 workgroups in 1 dispatch | src input 2560 B, dst -, "
        "partials scratch@0 128 B\n"
        "pass 2: scan_serial/u32 scan, in place | blocks of 4 vectors, 16 lines, lines inner | 1 lines x 1 "
        "chunk of 2 | 1 items, workgroup 64, 1 workgroups in 1 dispatch | src -, dst scratch@0 128 B, "
        "partials -\n"
        "pass 3: scan_serial/u32 scan with carries | blocks of 4 vectors, 16 lines, lines inner | 1 lines x "
        "2 chunks of 32 | 2 items, workgroup 64, 1 workgroups in 1 dispatch | src input 2560 B, dst output "
        "2560 B, partials scratch@0 128 B\n"
        "temporary 128 bytes\n");
    // The CPU rows scan the same 40 rows in one pass (chunks of 1,024 positions or more).
    vkdml::PlanDevice cpu = serial;
    cpu.gpu = false;
    CHECK(
        scan_plan(DML_TENSOR_DATA_TYPE_UINT32, {40, 16}, 0, cpu) ==
        "CUMULATIVE_SUMMATION UINT32 {40,16}: serial-cpu rows, subgroup size 32, 1 pass\n"
        "pass 1: scan_serial/u32 scan | blocks of 4 vectors, 16 lines, lines inner | 1 lines x 1 chunk of 40 "
        "| 1 items, workgroup 64, 1 workgroups in 1 dispatch | src input 2560 B, dst output 2560 B, "
        "partials -\n"
        "temporary 0 bytes\n");
}

TEST_CASE("describe_plan: cooperative tiles at subgroup 64, float pairs, reductions, small windows",
          "[unit][plan]") {
    vkdml::PlanDevice gpu64;
    gpu64.subgroup_size = 64;
    // The chained scan (integers): a pass zeroing the two counters (tiles taken, fallbacks) and 256 flags
    // (1,032 bytes), then one pass over the data in tiles of 4,096 (256 invocations, 4 vectors of 4 each);
    // the tile states hold the counters, the flags and three words per tile: the owner's aggregate, a
    // fallback's, the inclusive prefix (4,104 bytes).
    CHECK(
        scan_plan(DML_TENSOR_DATA_TYPE_INT32, {1 << 20}, 0, gpu64) ==
        "CUMULATIVE_SUMMATION INT32 {1048576}: cooperative-gpu rows, subgroup size 64, 2 passes\n"
        "pass 1: scan_chained/u32 clear tile states | words | 1 lines x 2 chunks of 256 | 2 items, workgroup "
        "256, 2 workgroups in 1 dispatch | src -, dst -, partials scratch@0 1032 B\n"
        "pass 2: scan_chained/u32 chained scan (look-back over windows of 256 tiles, blocks of 32) | tiles "
        "of 4 vectors per invocation | 1 lines x 256 chunks of 4096 | 256 items, workgroup 256, 256 "
        "workgroups in 1 dispatch | src input 4194304 B, dst output 4194304 B, partials scratch@0 4104 B\n"
        "temporary 4104 bytes\n");
    // Float sums tile in the canonical association: chunks of 32^3 reduced to compensated pairs, the pairs
    // scanned serially, the chunks scanned from their carries.
    CHECK(
        scan_plan(DML_TENSOR_DATA_TYPE_FLOAT32, {1 << 20}, 0, gpu64) ==
        "CUMULATIVE_SUMMATION FLOAT32 {1048576}: cooperative-gpu rows, subgroup size 64, 3 passes\n"
        "pass 1: scan_canonical_tile/f32 reduce to partials | tiles of blocks of 32 elements, a block per "
        "invocation | 1 lines x 32 chunks of 32768 | 32 items, workgroup 256, 32 workgroups in 1 dispatch | "
        "src input 4194304 B, dst -, partials scratch@0 256 B\n"
        "pass 2: scan_serial/f32x2 scan, in place | elements | 1 lines x 1 chunk of 32 | 1 items, workgroup "
        "64, 1 workgroups in 1 dispatch | src -, dst scratch@0 256 B, partials -\n"
        "pass 3: scan_canonical_tile/f32 scan with carries | tiles of blocks of 32 elements, a block per "
        "invocation | 1 lines x 32 chunks of 32768 | 32 items, workgroup 256, 32 workgroups in 1 dispatch | "
        "src input 4194304 B, dst output 4194304 B, partials scratch@0 256 B\n"
        "temporary 256 bytes\n");
    // Windows of 1 MiB: the chained pass needs the whole fiber in one; reduce-then-scan instead, with the
    // same kernel's tiles (chunks of one tile of 4,096).
    vkdml::PlanDevice windows = gpu64;
    windows.max_storage_buffer_range = 1 << 20;
    const std::string cut = scan_plan(DML_TENSOR_DATA_TYPE_INT32, {1 << 20}, 0, windows);
    CHECK_THAT(cut,
               Contains("pass 1: scan_chained/u32 reduce to partials | tiles of 4 vectors per invocation") &&
                   Contains("scan_chained/u32 scan with carries") && !Contains("chained scan"));
    // A reduction over the outer axis on a CPU device: lockstep blocks, then the states folded.
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096}), out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 4096});
    const uint32_t axes[] = {0};
    const DML_REDUCE_OPERATOR_DESC sum{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, axes};
    vkdml::PlanDevice cpu;
    cpu.gpu = false;
    cpu.subgroup_size = 8;
    auto reduce = vkdml::describe_plan({DML_OPERATOR_REDUCE, &sum}, cpu);
    REQUIRE(reduce);
    CHECK(
        *reduce ==
        "REDUCE FLOAT32 {4096,4096}: serial-cpu rows, subgroup size 8, 2 passes\n"
        "pass 1: reduce_serial_canonical/f32 fold to partials | blocks of 4 vectors, 16 lines, lockstep | "
        "256 "
        "lines x "
        "4 "
        "chunks of 1024 | 1024 items, workgroup 64, 16 workgroups in 1 dispatch | src input 67108864 B, dst "
        "scratch@0 131072 B, partials -\n"
        "pass 2: reduce_serial_canonical/f32 fold partials to the output | elements | 4096 lines x 1 chunk "
        "of 4 "
        "| 4096 "
        "items, workgroup 64, 64 workgroups in 1 dispatch | src scratch@0 131072 B, dst output 16384 B, "
        "partials -\n"
        "temporary 131072 bytes\n");
    // Windows of 1 KiB: the same passes, each cut into several dispatches.
    vkdml::PlanDevice small = gpu64;
    small.max_storage_buffer_range = 1024;
    const std::string windowed = scan_plan(DML_TENSOR_DATA_TYPE_INT32, {4096}, 0, small);
    CHECK_THAT(windowed, Contains("dispatches |"));
}

TEST_CASE("describe_plan refuses a PlanDevice out of range and an invalid description by name",
          "[unit][plan]") {
    Tensor t(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4});
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t.desc, &t.desc, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    const DML_OPERATOR_DESC desc{DML_OPERATOR_CUMULATIVE_SUMMATION, &d};
    auto refused = [&](vkdml::PlanDevice device, const std::string& text) {
        auto r = vkdml::describe_plan(desc, device);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == vkdml::ErrorCode::invalid_argument);
        CHECK_THAT(r.error().message, Contains(text));
    };
    vkdml::PlanDevice device;
    device.subgroup_size = 48;
    refused(device, "subgroup size 48 is not a power of two from 4 to 128");
    device = {};
    device.max_storage_buffer_range = 32;
    refused(device, "max_storage_buffer_range 32 is outside");
    device = {};
    device.max_workgroup_count = 1;
    refused(device, "max_workgroup_count 1 is below 2");
    device = {};
    device.kernels = static_cast<vkdml::KernelChoice>(7);
    refused(device, "kernels is 7, not a KernelChoice value");
    device = {};
    device.min_storage_buffer_offset_alignment = 24;
    refused(device, "min_storage_buffer_offset_alignment 24 is not a power of two");
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC bad{&t.desc, &t.desc, 2, DML_AXIS_DIRECTION_INCREASING, 0};
    auto r = vkdml::describe_plan({DML_OPERATOR_CUMULATIVE_SUMMATION, &bad}, {});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == vkdml::ErrorCode::invalid_descriptor);
    CHECK_THAT(r.error().message, Contains("Axis"));
    auto null_desc = vkdml::describe_plan({DML_OPERATOR_CUMULATIVE_SUMMATION, nullptr}, {});
    REQUIRE_FALSE(null_desc);
    CHECK(null_desc.error().code == vkdml::ErrorCode::invalid_descriptor);
}

TEST_CASE("cli: vkdml plan prints describe_plan's text and refuses bad options by name", "[gpu][cli][plan]") {
    using namespace vkdml_test::cli;
    TempDir dir;
    const Outcome plan = run_tool(dir, {"plan", "--op", "cumsum", "--dtype", "uint32", "--shape", "40,16",
                                        "--axis", "0", "--kernels", "serial"});
    CHECK(plan.exit_code == 0);
    vkdml::PlanDevice serial;
    serial.kernels = vkdml::KernelChoice::serial;
    CHECK(plan.out == scan_plan(DML_TENSOR_DATA_TYPE_UINT32, {40, 16}, 0, serial));
    const Outcome arg = run_tool(dir, {"plan", "--op", "argmax", "--shape", "5,7", "--axes", "all", "--class",
                                       "cpu", "--subgroup", "8"});
    CHECK(arg.exit_code == 0);
    CHECK_THAT(arg.out, Contains("ARGMAX FLOAT32 {5,7}: serial-cpu rows, subgroup size 8, 1 pass\n"));
    // --compute-units sizes a GPU's reduction grid: 8 workgroups per multiprocessor, an even share each
    // (an ARGMAX: a float sum's chunks are the canonical association's, 32^3 elements).
    const Outcome units = run_tool(
        dir, {"plan", "--op", "argmax", "--shape", "67108864", "--axes", "all", "--compute-units", "132"});
    CHECK(units.exit_code == 0);
    CHECK_THAT(units.out,
               Contains("reduce_tree/f32 fold to partials | elements | 1 lines x 1053 chunks of 63744"));
    // --min-subgroup and --no-full-subgroups: a GPU whose subgroup size varies, with and without full
    // subgroups required; without, serial kernels only.
    const Outcome varying =
        run_tool(dir, {"plan", "--op", "cumsum", "--shape", "1000000", "--axis", "0", "--min-subgroup", "8"});
    CHECK(varying.exit_code == 0);
    CHECK_THAT(varying.out,
               Contains(": cooperative-gpu rows, subgroup size 32 (8 to 32, full subgroups required)"));
    CHECK_THAT(varying.out, Contains("scan_canonical_tile/f32"));
    const Outcome partial = run_tool(dir, {"plan", "--op", "cumsum", "--shape", "1000000", "--axis", "0",
                                           "--min-subgroup", "8", "--no-full-subgroups"});
    CHECK(partial.exit_code == 0);
    CHECK_THAT(partial.out,
               Contains(": serial-gpu rows, subgroup size 32 (8 to 32, full subgroups not required: "
                        "serial kernels)"));
    CHECK(partial.out.find("scan_chained") == std::string::npos);
    // --tune: the class's rows with those knobs, named in the header (describe_plan with PlanDevice::tuning).
    const Outcome tuned = run_tool(dir, {"plan", "--op", "cumsum", "--shape", "1000000", "--axis", "0",
                                         "--tune", "scan.tile_workgroup=64,scan.tile_target_items=8"});
    CHECK(tuned.exit_code == 0);
    vkdml::PlanDevice tuned_gpu;
    tuned_gpu.tuning = {{"scan.tile_workgroup", 64}, {"scan.tile_target_items", 8}};
    CHECK(tuned.out == scan_plan(DML_TENSOR_DATA_TYPE_FLOAT32, {1000000}, 0, tuned_gpu));
    CHECK_THAT(tuned.out, StartsWith("CUMULATIVE_SUMMATION FLOAT32 {1000000}: cooperative-gpu rows tuned "
                                     "scan.tile_workgroup=64,scan.tile_target_items=8, subgroup size 32, "));
    CHECK_THAT(tuned.out,
               Contains("scan_canonical_tile/f32 reduce to partials | tiles of blocks of 32 elements, "
                        "a block per invocation | 1 lines x 31 chunks of 32768 | 31 items, "
                        "workgroup 64, "));
    // --indices: cummax with its index output (int64), as describe_plan plans it: the running values into
    // scratch, the marks, their scan in place, the values again.
    const Outcome indices = run_tool(
        dir, {"plan", "--op", "cummax", "--indices", "--shape", "4096,64", "--axis", "1", "--class", "cpu"});
    CHECK(indices.exit_code == 0);
    vkdml::PlanDevice cpu;
    cpu.gpu = false;
    auto selection =
        vkdml::ops::cumulative_maximum_with_indices({DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 64}}, 1);
    REQUIRE(selection);
    auto selection_text = vkdml::describe_plan(selection->desc(), cpu);
    REQUIRE(selection_text);
    CHECK(indices.out == *selection_text);
    CHECK_THAT(indices.out, StartsWith("CUMULATIVE_MAXIMUM FLOAT32 {4096,64}: serial-cpu rows, subgroup size "
                                       "32, 4 passes\n"));
    CHECK_THAT(indices.out,
               Contains("pass 2: scan_serial/f32 mark the index output | elements | 4096 lines x "
                        "1 chunk of 64 | "));
    // With --device: the plan the device compiles (on lavapipe, the CPU rows).
    const Outcome on_device =
        run_tool(dir, {"plan", "--op", "cumsum", "--shape", "3,4", "--axis", "1", "--device", "0"});
    CHECK(on_device.exit_code == 0);
    CHECK_THAT(on_device.out, Contains("CUMULATIVE_SUMMATION FLOAT32 {3,4}: "));
    auto refuses = [&](std::vector<std::string> args, int code, const std::string& text) {
        args.insert(args.begin(), "plan");
        const Outcome o = run_tool(dir, args);
        CHECK(o.exit_code == code);
        CHECK_THAT(o.err, Contains(text));
    };
    refuses({"--op", "cumsun", "--shape", "3", "--axis", "0"}, 2,
            "unknown --op 'cumsun' (did you mean 'cumsum'?)");
    refuses({"--op", "cumsum", "--shape", "3,0", "--axis", "0"}, 2,
            "option '--shape' expects comma-separated sizes");
    refuses({"--op", "cumsum", "--shape", "3"}, 2, "--op cumsum needs --axis N");
    refuses({"--op", "cumsum", "--indices", "--shape", "3", "--axis", "0"}, 2,
            "--indices is for --op cummax and cummin");
    refuses({"--op", "reduce", "--shape", "3", "--axis", "0", "--function", "mean"}, 2,
            "unknown --function 'mean'");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--subgroup", "48"}, 2,
            "a power of two from 4 to 128");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "2"}, 1,
            "axis 2 is out of range for the --shape of rank 1");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--dtype", "float128"}, 2,
            "unknown --dtype 'float128'");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--device", "0", "--class", "gpu"}, 2,
            "option '--class' describes a device class; with --device the device's own is used");
    refuses({"--op", "reduce", "--shape", "3", "--axes", "all", "--compute-units", "0"}, 2, "1 to 65536");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--min-subgroup", "64"}, 2,
            "--min-subgroup 64 is above the subgroup size 32");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--device", "0", "--no-full-subgroups"}, 2,
            "option '--no-full-subgroups' describes a device class");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--device", "0", "--compute-units", "8"}, 2,
            "option '--compute-units' describes a device class");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--device", "0", "--tune", "scan.chained=0"}, 2,
            "option '--tune' describes a device class");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--tune", "scan.tile_workgroup=100"}, 2,
            "option '--tune': tuning: scan.tile_workgroup is 100: it takes a power of two from 32 to 1024");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--tune", "scan.tile"}, 2,
            "option '--tune': tuning: 'scan.tile' is not knob=value");
    refuses({"--op", "cumsum", "--shape", "3", "--axis", "0", "--class", "cpu", "--tune",
             "scan.serial_min_len=9000"},
            1,
            "describe_plan: tuning: scan.serial_min_len 9000 is above scan.serial_max_len 8192 (serial-cpu "
            "rows)");
}
