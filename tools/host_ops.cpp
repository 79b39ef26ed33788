// tools/host_ops.cpp — device selection, .npy <-> HostTensor and single-operator execution for the commands.
#include "host_ops.hpp"

#include <iostream>

#include "npy.hpp"

namespace vkdml::cli {
namespace {

uint64_t round_up_to_4(uint64_t bytes) {
    return (bytes + 3) & ~uint64_t{3};
}

uint64_t packed_bytes(const HostTensor& tensor) {
    uint64_t count = 1;
    for (uint32_t size : tensor.sizes) count *= size;
    return count * element_size(tensor.type);
}

}  // namespace

DeviceOptions device_options(const Args& args) {
    DeviceOptions options;
    options.selector = args.value(kDeviceOption.name).value_or("");
    options.validation = args.has(kValidationOption.name);
    if (options.validation)
        options.on_validation_message = [](std::string_view message) {
            std::cerr << "vkdml: validation: " << message << '\n';
        };
    return options;
}

std::shared_ptr<Device> open_device(const Args& args) {
    return take(Device::create(device_options(args)));
}

DML_BUFFER_TENSOR_DESC HostTensor::desc() const {
    return DML_BUFFER_TENSOR_DESC{type,
                                  DML_TENSOR_FLAG_NONE,
                                  static_cast<uint32_t>(sizes.size()),
                                  sizes.data(),
                                  strides.empty() ? nullptr : strides.data(),
                                  bytes.size(),
                                  0};
}

HostTensor read_input(const std::string& path) {
    npy::Array array = take(npy::read(path));
    HostTensor tensor{array.type, array.shape, array.strides(), std::move(array.data)};
    tensor.bytes.resize(round_up_to_4(tensor.bytes.size()));
    return tensor;
}

HostTensor make_output(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes) {
    HostTensor tensor{type, std::move(sizes), {}, {}};
    tensor.bytes.resize(round_up_to_4(packed_bytes(tensor)));
    return tensor;
}

void write_output(const std::string& path, const HostTensor& tensor) {
    check(npy::write(path, tensor.type, tensor.sizes, std::span(tensor.bytes).first(packed_bytes(tensor))));
}

uint32_t resolve_axis(int64_t axis, size_t rank, const std::string& path) {
    const auto signed_rank = static_cast<int64_t>(rank);
    if (axis < -signed_rank || axis >= signed_rank)
        fail("axis " + std::to_string(axis) + " is out of range for " + path + " of rank " +
             std::to_string(rank) + " (use 0.." + std::to_string(rank - 1) + " or -" + std::to_string(rank) +
             "..-1)");
    return static_cast<uint32_t>(axis < 0 ? axis + signed_rank : axis);
}

void execute_one(const Device& device, const DML_OPERATOR_DESC& desc, const HostTensor& input,
                 HostTensor& output) {
    const void* const inputs[] = {input.bytes.data()};
    void* const outputs[] = {output.bytes.data()};
    check(execute(device, desc, inputs, outputs));
}

}  // namespace vkdml::cli
