// tools/cli/host_ops.hpp — what the operator commands share: the device chosen by --device / --validation,
// .npy arrays as tensors for vkdml::execute, running an operator and writing its result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "npy/npy.hpp"

#include "cli/cli.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/profiling.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::cli {

/// Declares --device D (the device to run on).
void add_device_option(CLI::App& app);
/// Declares --validation (the Vulkan validation layer).
void add_validation_option(CLI::App& app);

/// Device options from --device and --validation (validation messages go to stderr).
DeviceOptions device_options(const Args& args);
/// Device::create with device_options(args); fails with the library's message.
std::shared_ptr<Device> open_device(const Args& args);

/// The tuning device_options gives every device the tool opens (DeviceOptions::tuning): VKDML_TOOL_TUNE's
/// "knob=value,..." (a parse error fails the command), else none.
std::vector<Tuning> tool_tuning();

/// An input .npy file, checked, with its tensor laid out as in the file (Fortran order becomes
/// column-major strides). Its data is read later, straight into the device buffer (run_one). A zero-size
/// array's tensor (no DirectML tensor has a size of 0) is a stand-in with every 0 read as 1, which the
/// operator is built and validated on (zero_size.hpp).
struct InputFile {
    std::string path;  ///< as given: a file, or "-" (npy::kStandardInput)
    npy::Header header;
    ops::TensorDesc tensor;
    /// Standard input's data (IN "-", read whole by open_input: a stream is read once); empty for a file.
    std::vector<std::byte> data;
    /// What messages call it: the path, or "standard input".
    std::string name() const { return path == npy::kStandardInput ? npy::kStandardInputName : path; }
    /// The array holds no element (a dimension of 0).
    bool zero_size() const { return header.element_count() == 0; }
};

/// Reads and checks an input file's header ("-": standard input, read whole). A bool file's tensor is
/// computed as `bool_as` (DirectML has no bool: UINT8 for the functions that compare, INT64 for sums and
/// products as NumPy's, FLOAT32 for the float functions); run_one converts its 0s and 1s.
InputFile open_input(const std::string& path, DML_TENSOR_DATA_TYPE bool_as = DML_TENSOR_DATA_TYPE_UINT8);
/// Fails unless the output file can be written (npy::check_writable): called before the device is opened,
/// so an unwritable output costs no GPU work.
void check_output(const std::string& path);

/// An --axis value for a tensor of the given rank: 0..rank-1, or -rank..-1 counting from the last.
uint32_t resolve_axis(int64_t axis, size_t rank, const std::string& path);

/// The axes of --axes or --axis as written (not yet checked against a rank): reduce, argmax, argmin, plan.
struct WrittenAxes {
    bool all = false;           ///< --axes all
    std::vector<int64_t> list;  ///< else these (empty for --axes none)
};
/// --axes A[,B...] | all | none, or --axis N; exactly one of them (usage errors otherwise).
WrittenAxes written_axes(const Args& args);
/// The written axes as 0..rank-1, in the order given; an axis named twice (1 and -1 of a rank-2 input are
/// the same axis) is refused, as the library would (SPEC §2 rule 8). `path` names the tensor in messages.
std::vector<uint32_t> resolve_axes(const WrittenAxes& written, size_t rank, const std::string& path);

/// --nan MODE: propagate (the default) or ignore, as OperatorOptions; another word is a usage error.
OperatorOptions nan_options(const Args& args);

/// Runs one built operator (its input the file's tensor) through vkdml::HostExecution: the input file's
/// data is read straight into the mapped device buffer and the output written straight from it to
/// `out_path` (C order; "-": standard output), so a tensor is copied once each way. `out_shape` is the
/// shape the file gets (the output tensor's when absent; the same elements; a zero-size input's when absent,
/// whose result comes from write_zero_size_result). A bool input computed in another type is converted on
/// the way in (a copy); `bool_output` writes a UINT8 output of 0s and 1s as a bool array. Fails with the
/// library's or the file's message.
void run_one(const Device& device, const ops::Operation& op, const InputFile& input,
             const std::string& out_path, std::optional<std::vector<uint32_t>> out_shape = std::nullopt,
             const OperatorOptions& options = {}, bool bool_output = false,
             const std::string& index_path = {});

}  // namespace vkdml::cli
