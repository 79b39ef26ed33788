// tools/host_ops.hpp — what the operator commands share: the device chosen by --device / --validation,
// .npy arrays as tensors for vkdml::execute, running an operator and writing its result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::cli {

inline constexpr OptionSpec kDeviceOption{
    "--device", "D",
    "device index or case-insensitive name substring (default: $VKDML_DEVICE, else the best)"};
inline constexpr OptionSpec kValidationOption{"--validation", "",
                                              "enable the Vulkan validation layer, its messages on stderr"};

/// Device options from --device and --validation (validation messages go to stderr).
DeviceOptions device_options(const Args& args);
/// Device::create with device_options(args); fails with the library's message.
std::shared_ptr<Device> open_device(const Args& args);

/// A tensor and the host bytes of its whole buffer range, as vkdml::execute takes them.
struct HostTensor {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;  ///< empty: packed row-major
    std::vector<std::byte> bytes;   ///< TotalTensorSizeInBytes long, a multiple of 4

    /// The tensor's description; it points into this object, which must outlive it unchanged.
    DML_BUFFER_TENSOR_DESC desc() const;
};

/// Reads a .npy file as a tensor laid out as in the file (Fortran order becomes column-major strides).
HostTensor read_input(const std::string& path);
/// A zeroed, packed row-major tensor.
HostTensor make_output(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes);
/// Writes a packed tensor as a C-order .npy file.
void write_output(const std::string& path, const HostTensor& tensor);

/// An --axis value for a tensor of the given rank: 0..rank-1, or -rank..-1 counting from the last.
uint32_t resolve_axis(int64_t axis, size_t rank, const std::string& path);

/// Runs one operator on one input and one output with vkdml::execute; fails with the library's message.
void execute_one(const Device& device, const DML_OPERATOR_DESC& desc, const HostTensor& input,
                 HostTensor& output);

}  // namespace vkdml::cli
