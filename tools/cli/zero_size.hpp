// tools/cli/zero_size.hpp — NumPy's answers for an operator command whose input array holds no element
// (a dimension of 0), which no DirectML tensor can describe: the operator is built and validated on a
// stand-in of the same rank with every 0 read as 1, and its output written from here.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cli/host_ops.hpp"

namespace vkdml::cli {

/// `op` (built on the stand-in of `input`, a zero-size array) validated on `device` as create_operator
/// validates any description (the same errors as for a stand-in file of one element per 0), then its
/// result as NumPy gives it: an output of no element written empty (every scan; a reduction that keeps an
/// axis of 0), and a reduction over an axis of 0 filled with the function's value for no elements — 0 for
/// sum, l1, l2, sum_square, count_nonzero and any; 1 for multiply and all; NaN for average, variance and
/// standard_deviation; -inf for log_sum and log_sum_exp. Max, min, argmax and argmin over an axis of 0
/// are refused as NumPy refuses them, even where their result has no element. `out_shape` is OUT.npy's
/// shape; a selection's index output gets the input's. The output is written without holding its data
/// (npy::write_filled).
void write_zero_size_result(const Device& device, const ops::Operation& op, const InputFile& input,
                            const OperatorOptions& options, const std::string& out_path,
                            std::span<const uint32_t> out_shape, bool bool_output,
                            const std::string& index_path);

}  // namespace vkdml::cli
