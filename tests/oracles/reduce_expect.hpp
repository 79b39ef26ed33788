// reduce_expect.hpp — the helpers of the reduce tests that pin exact expected values
// (test_reduce_examples.cpp, test_reduce_special_values.cpp): building REDUCE / ARGMIN / ARGMAX cases
// on packed tensors, running them on given inputs (checked against the CPU oracle as well), reading
// and comparing their outputs, and the constants those tests share.
#pragma once

#include "reduce_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace vkdml_test {

/// +infinity as a double.
inline constexpr double kInf = std::numeric_limits<double>::infinity();
/// A quiet NaN as a double.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// FLOAT16, the half-precision data type.
inline constexpr auto F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
/// FLOAT32, the single-precision data type.
inline constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
/// FLOAT64, the double-precision data type.
inline constexpr auto F64 = DML_TENSOR_DATA_TYPE_FLOAT64;
/// The arg operators' INCREASING direction (ties go to the first index).
inline constexpr auto INC = DML_AXIS_DIRECTION_INCREASING;
/// The arg operators' DECREASING direction (ties go to the last index).
inline constexpr auto DEC = DML_AXIS_DIRECTION_DECREASING;

/// The three float types: FLOAT16, FLOAT32, FLOAT64.
extern const std::vector<DML_TENSOR_DATA_TYPE> kFloatTypes;

/// A DML_OPERATOR_REDUCE case with function `f` over `axes` of a packed input and packed output.
ReduceCase reduce_case(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                       std::vector<uint32_t> axes,
                       DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_UINT32);

/// A standalone DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX case (`op`) in `direction`, packed tensors.
ReduceCase arg_case(DML_OPERATOR_TYPE op, DML_AXIS_DIRECTION direction, DML_TENSOR_DATA_TYPE type,
                    std::vector<uint32_t> sizes, std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE index_type);

/// Runs `c` on a packed input of `values` (row-major), checked by the oracle; empty if the device refused.
TestTensor run_values(const ReduceCase& c, const std::vector<double>& values);

/// The same as run_values with the input given as bit patterns.
TestTensor run_bits(const ReduceCase& c, const std::vector<uint64_t>& bits);

/// Whether run_values / run_bits returned no output (the device refused the case's types).
bool skipped(const TestTensor& out);

/// The elements of a packed output, as values.
std::vector<double> values_of(const TestTensor& out);
/// The elements of a packed output, as bit patterns.
std::vector<uint64_t> bits_of(const TestTensor& out);

/// Values equal, NaN matching NaN.
bool same_values(const std::vector<double>& got, const std::vector<double>& want);

/// |got − want| within `ulps` units of the output type's precision, relative to |want|.
bool close_to(DML_TENSOR_DATA_TYPE type, double got, double want, double ulps = 8);

/// "{a, b, ...}" for failure messages (values).
std::string show(const std::vector<double>& v);
/// "{a, b, ...}" for failure messages (bit patterns).
std::string show(const std::vector<uint64_t>& v);

/// The three ways to ask for an arg function: REDUCE, and the standalone operator in each direction.
struct ArgWay {
    const char* name;              // for INFO messages
    DML_OPERATOR_TYPE op;          // REDUCE or the standalone one
    DML_AXIS_DIRECTION direction;  // the standalone operator's (INC for REDUCE)
};

/// The arg function (ARGMAX if `is_max`, else ARGMIN) asked for the way `w` says.
ReduceCase arg_way_case(const ArgWay& w, bool is_max, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                        std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE index_type);

/// REDUCE, standalone INCREASING, standalone DECREASING.
extern const std::vector<ArgWay> kArgWays;

/// Bit patterns of a signed value in a type (two's complement, low bits).
uint64_t wrap(DML_TENSOR_DATA_TYPE type, int64_t v);

}  // namespace vkdml_test
