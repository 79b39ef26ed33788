// tools/cli/host_ops.cpp — device selection, .npy files as tensors and single-operator execution for the
// commands.
#include "cli/host_ops.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <span>
#include <vector>

#include "cli/zero_size.hpp"
#include "npy/npy.hpp"
#ifdef VKDML_TESTING_HOOKS
#include "vkdml/testing.hpp"
#endif

namespace vkdml::cli {

void add_device_option(CLI::App& app) {
    add_value(app, "--device", "D",
              "device index or case-insensitive name substring (default: $VKDML_DEVICE, else the best)");
}

void add_validation_option(CLI::App& app) {
    add_switch(app, "--validation", "enable the Vulkan validation layer, its messages on stderr");
}

DeviceOptions device_options(const Args& args) {
    DeviceOptions options;
    options.selector = args.value("--device").value_or("");
    options.validation = args.has("--validation");
    options.tuning = tool_tuning();
    if (options.validation)
        options.on_validation_message = [](std::string_view message) {
            std::cerr << "vkdml: validation: " << message << '\n';
        };
    return options;
}

std::vector<Tuning> tool_tuning() {
    if (const char* text = std::getenv("VKDML_TOOL_TUNE")) {
        auto tuning = parse_tuning(text);
        if (!tuning) fail("VKDML_TOOL_TUNE: " + tuning.error().message);
        return *tuning;
    }
    return {};
}

std::shared_ptr<Device> open_device(const Args& args) {
#ifdef VKDML_TESTING_HOOKS
    // Builds with the test bench only: VKDML_TOOL_POLICY=gpu or cpu plans with that device class's rows,
    // so the tests see on lavapipe what only a GPU's plans do (the chained scan in `bench --passes`);
    // VKDML_TOOL_MAX_ALLOCATION=bytes lowers maxMemoryAllocationSize, so they see the
    // host path run a file in windows at small sizes.
    const char* rows = std::getenv("VKDML_TOOL_POLICY");
    const char* allocation = std::getenv("VKDML_TOOL_MAX_ALLOCATION");
    if (rows || allocation) {
        using Policy = testing::DeviceOverrides::PolicyClass;
        testing::DeviceOverrides overrides;
        if (rows) {
            const std::string value = rows;
            if (value != "gpu" && value != "cpu")
                fail("VKDML_TOOL_POLICY is '" + value + "': expected gpu or cpu");
            overrides.policy_class = value == "gpu" ? Policy::gpu : Policy::cpu;
        }
        if (allocation) {
            char* end = nullptr;
            overrides.limits.max_memory_allocation_size = std::strtoull(allocation, &end, 10);
            if (*allocation == '\0' || *end != '\0' || overrides.limits.max_memory_allocation_size == 0)
                fail(std::string("VKDML_TOOL_MAX_ALLOCATION is '") + allocation + "': expected a byte count");
        }
        return take(testing::create_device(device_options(args), overrides));
    }
#endif
    return take(Device::create(device_options(args)));
}

InputFile open_input(const std::string& path, DML_TENSOR_DATA_TYPE bool_as) {
    InputFile file{path, {}, {}, {}};
    if (path == npy::kStandardInput) {
        npy::Array array = take(npy::read(path));
        file.data = std::move(array.data);
        file.header = std::move(array);
    } else {
        file.header = take(npy::read_header(path));
    }
    const npy::Header& header = file.header;
    std::vector<uint32_t> sizes = header.shape;
    uint64_t stand_in = 1;
    for (uint32_t& n : sizes) {
        n = std::max(n, 1u);                                             // (a zero-size array's stand-in)
        stand_in = std::min<uint64_t>(stand_in * n, uint64_t{1} << 32);  // (no wrap: both under 2^33)
    }
    if (stand_in > 0xFFFFFFFFu)
        fail(file.name() +
             ": a zero-size array is computed as if each 0 in its shape were 1, and the rest of its "
             "shape holds more than 4294967295 elements (DirectML's limit)");
    file.tensor = {header.boolean ? bool_as : header.type, std::move(sizes), header.strides(), 0};
    return file;
}

void check_output(const std::string& path) {
    check(npy::check_writable(path));
}

uint32_t resolve_axis(int64_t axis, size_t rank, const std::string& path) {
    const auto signed_rank = static_cast<int64_t>(rank);
    if (axis < -signed_rank || axis >= signed_rank)
        fail("axis " + std::to_string(axis) + " is out of range for " + path + " of rank " +
             std::to_string(rank) + " (use 0.." + std::to_string(rank - 1) + " or -" + std::to_string(rank) +
             "..-1)");
    return static_cast<uint32_t>(axis < 0 ? axis + signed_rank : axis);
}

OperatorOptions nan_options(const Args& args) {
    const std::string text = args.value("--nan").value_or("propagate");
    if (text != "propagate" && text != "ignore")
        usage_error("option '--nan' expects propagate or ignore, got '" + text + "'");
    OperatorOptions options;
    if (text == "ignore") options.nan_mode = NanMode::ignore;
    return options;
}

namespace {

/// The input's data as the file holds it (little-endian, bools 0 or 1) into `out`: read from the file, or
/// standard input's, read already.
void read_data(const InputFile& input, std::span<std::byte> out) {
    if (input.path == npy::kStandardInput)
        std::copy(input.data.begin(), input.data.end(), out.begin());
    else
        check(npy::read_data(input.path, input.header, out));
}

/// The input file's values into `to` (its tensor's bytes): read as they are, or a bool file's 0s and 1s
/// converted to the type they are computed in (INT64 or FLOAT32).
void read_input(const InputFile& input, std::span<std::byte> to) {
    const DML_TENSOR_DATA_TYPE type = input.tensor.data_type;
    if (type == input.header.type) {
        read_data(input, to.first(input.header.data_bytes()));
        return;
    }
    std::vector<std::byte> bools(input.header.data_bytes());
    read_data(input, bools);
    const uint32_t size = element_size(type);
    for (size_t i = 0; i < bools.size(); ++i) {
        const bool one = bools[i] != std::byte{0};
        const int64_t integer = one;
        const float real = one ? 1.0f : 0.0f;
        std::memcpy(to.data() + i * size,
                    type == DML_TENSOR_DATA_TYPE_FLOAT32 ? static_cast<const void*>(&real) : &integer, size);
    }
}

}  // namespace

void run_one(const Device& device, const ops::Operation& op, const InputFile& input,
             const std::string& out_path, std::optional<std::vector<uint32_t>> out_shape,
             const OperatorOptions& options, bool bool_output, const std::string& index_path) {
    if (input.zero_size()) {
        write_zero_size_result(device, op, input, options, out_path, out_shape.value_or(input.header.shape),
                               bool_output, index_path);
        return;
    }
    const ops::TensorDesc& output = op.output();
    const auto write = [&](std::span<const std::byte> bytes) {
        check(npy::write(out_path, output.data_type, out_shape.value_or(output.sizes),
                         bytes.first(output.elements() * element_size(output.data_type)), bool_output));
    };
    // The second output (a selection's indices), when the operation has one.
    const ops::TensorDesc* index = op.index_output();
    const auto write_index = [&](std::span<const std::byte> bytes) {
        if (!index) return;
        check(npy::write(index_path, index->data_type, index->sizes,
                         bytes.first(index->elements() * element_size(index->data_type)), false));
    };
    auto made = HostExecution::create(device, op.desc(), DML_EXECUTION_FLAG_NONE, options);
    if (!made && made.error().code == ErrorCode::out_of_memory) {
        // Past one allocation or the host-visible heap: the arrays in host memory, and execute() runs
        // the operator on them in windows.
        std::vector<std::byte> in(op.input_bytes()), out(op.output_bytes()), indices(op.index_output_bytes());
        read_input(input, in);
        const std::span<const std::byte> inputs[] = {in};
        const std::span<std::byte> outputs[] = {out, indices};
        check(execute(device, op.desc(), inputs, std::span(outputs, index ? 2 : 1), DML_EXECUTION_FLAG_NONE,
                      options));
        write(out);
        write_index(indices);
        return;
    }
    HostExecution run = take(std::move(made));
    read_input(input, run.input(0));
    check(run.run());
    write(run.output(0));
    if (index) write_index(run.output(1));
}

}  // namespace vkdml::cli
