// reduce_sweep.hpp — one DML_OPERATOR_REDUCE / DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX case run
// against the CPU oracle (reference_reduce.hpp), and the fills the reduce sweeps draw inputs from.
//
// check_reduce_case executes a case through the host path vkdml::execute(test_device(), ...) with the
// validation layer on, and checks (1) every output element against reference_reduce (integers and
// arg indices exactly modulo 2^bits of the output type; floats exactly where the oracle says the
// result is exact, else inside its accepted range), (2) that no byte of the output buffer outside the
// tensor's elements changed (outputs are uploaded first, with random bytes everywhere), (3) that the
// input array is unchanged, (4) that the validation layer said nothing. A device that lacks a type's
// Vulkan features must refuse the case with ErrorCode::unsupported_device instead.
// The randomness, shapes and layouts come from scan_sweep.hpp (sweep_rng, kLengths, layout_strides).
#pragma once

#include "reference_reduce.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vkdml_test {

/// How a case's input is filled (see fill_reduce_input).
enum class ReduceFill { random, small_integers, specials, nans };

struct ReduceCase {
    DML_OPERATOR_TYPE op = DML_OPERATOR_REDUCE;                    // REDUCE, ARGMIN or ARGMAX
    DML_REDUCE_FUNCTION function = DML_REDUCE_FUNCTION_SUM;        // REDUCE only
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;  // ARGMIN / ARGMAX only
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;      // the input's
    // Arg functions (REDUCE ARGMAX/ARGMIN and the standalone operators): INT32, INT64, UINT32 or
    // UINT64. Other functions: ignored (the output type is the input type).
    DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_UINT32;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> axes;  // in the order given to the operator; empty = AxisCount 0
    std::vector<uint32_t> in_strides;
    std::vector<uint32_t> out_strides;  // for reduce_output_sizes(sizes, axes)
    uint64_t in_extra_bytes = 0;
    uint64_t out_extra_bytes = 0;
    ReduceFill fill = ReduceFill::random;
    uint64_t seed = 0;
    vkdml::NanMode nan_mode = vkdml::NanMode::propagate;  // MIN, MAX and the arg operators
};

/// Whether the case computes an index (REDUCE ARGMAX/ARGMIN, standalone ARGMIN/ARGMAX).
bool is_arg_case(const ReduceCase& c);
/// The oracle's spec of a case (ties last for a standalone operator with DECREASING).
ReduceSpec reduce_spec(const ReduceCase& c);
/// The output's data type: the index type for arg cases, else the input type.
DML_TENSOR_DATA_TYPE output_type(const ReduceCase& c);
/// The output's sizes: 1 on every reduced axis.
std::vector<uint32_t> output_sizes(const ReduceCase& c);
/// Operator, function, direction, types, sizes, axes, layouts, fill and seed, for failure messages.
std::string describe(const ReduceCase& c);

/// Fills the elements of a case's input (padding untouched), from c.seed:
///  random:         integers over their full range (SUM, L1, SUM_SQUARE wrap; MULTIPLY gets odd values,
///                  which never multiply to 0 modulo 2^bits); floats uniform in [-1, 1], except
///                  LOG_SUM [0.25, 1] (a positive sum), LOG_SUM_EXP [-10, 10], MULTIPLY ±e^u with
///                  |u| in [s/2, s], s = clamp(3/sqrt(N), 0.01, 0.5) (products stay in range).
///  small_integers: integers in [-3, 3] for MIN/MAX/arg functions (many ties; unsigned types store
///                  the negatives as values near their maximum), in [-8, 8] for sums; LOG_SUM [1, 8];
///                  MULTIPLY: {±1, ±3, ±2, 0} integers and {±1, ±2, ±0.5, 0} floats, the non-units rare.
///  specials:       (floats) the random fill with NaN, ±inf, −0 and +0 sprinkled in, about one per
///                  reduced row (MULTIPLY and LOG_SUM get the random fill: their specials may be
///                  order-dependent).
///  nans:           (floats; MIN, MAX, arg functions) integers in [-3, 3] (ties, and -0 next to +0),
///                  each element NaN with a probability of 3%, 50%, 97% or 100% (by seed: rows with
///                  NaN first, inside, last and only), ±inf and -0 sprinkled in.
/// A float MULTIPLY fill whose products could overflow in one order and not in another (zero-stride
/// inputs repeat a factor) falls back to {±1, 0}.
void fill_reduce_input(TestTensor& input, const ReduceCase& c);

/// Executes REDUCE (with `function`), ARGMIN or ARGMAX (with `direction`) over `axes` on
/// test_device() through the host path.
vkdml::Status execute_reduce(DML_OPERATOR_TYPE op, DML_REDUCE_FUNCTION function, DML_AXIS_DIRECTION direction,
                             const std::vector<uint32_t>& axes, const TestTensor& input, TestTensor& output,
                             vkdml::NanMode nan_mode = vkdml::NanMode::propagate);

/// Runs a case on an input the caller prepared (its type, sizes and strides must be the case's) and
/// records Catch assertions (a sweep stops after a dozen failed cases). Returns the output tensor
/// (empty when the device does not support the types).
TestTensor check_reduce_case(const ReduceCase& c, const TestTensor& input, SweepStats& stats);

/// Makes the case's input (random bytes in the padding, then fill_reduce_input) and runs it.
TestTensor run_reduce_case(const ReduceCase& c, SweepStats& stats);

/// The four arg output types.
extern const std::vector<DML_TENSOR_DATA_TYPE> kIndexTypes;
/// The twelve REDUCE functions, in enum order.
extern const std::vector<DML_REDUCE_FUNCTION> kReduceFunctions;
/// The input types a REDUCE function accepts (SPEC §4).
std::vector<DML_TENSOR_DATA_TYPE> types_of(DML_REDUCE_FUNCTION f);

}  // namespace vkdml_test
