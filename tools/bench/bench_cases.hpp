// tools/bench/bench_cases.hpp — the cases of `vkdml bench`: the suites, each case's operator, type, shape and
// axes, the bytes it counts, scaling to a suite and capping to a device, and its operator (vkdml::ops).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vkdml/ops.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::cli::bench {

/// What a case computes.
enum class Op {
    cumsum,          ///< DML_OPERATOR_CUMULATIVE_SUMMATION along the case's one axis
    cumprod,         ///< DML_OPERATOR_CUMULATIVE_PRODUCT along the case's one axis
    cummax,          ///< vkdml's CUMULATIVE_MAXIMUM along the case's one axis
    cummax_indices,  ///< the same with its INT64 index output (PyTorch's cummax: values and indices)
    logcumsumexp,    ///< vkdml's LOG_CUMULATIVE_SUM_EXP along the case's one axis
    reduce_sum,      ///< DML_OPERATOR_REDUCE, SUM over the case's one axis
    argmax,          ///< DML_OPERATOR_ARGMAX over the case's one axis, UINT32 indices
    logsumexp,       ///< DML_OPERATOR_REDUCE, LOG_SUM_EXP over the case's one axis
    variance,        ///< DML_OPERATOR_REDUCE, vkdml's VARIANCE over the case's one axis
    any,             ///< DML_OPERATOR_REDUCE, vkdml's ANY over the case's one axis (UINT8 flags)
    count_nonzero,   ///< DML_OPERATOR_REDUCE, vkdml's COUNT_NONZERO over the case's one axis (INT64)
    host_cumsum,     ///< a float32 cumsum through HostExecution::run(), against an empty submit
};

/// The reference a case's GB/s is divided by: a vec4 copy (scans: bytes read + written) or a vec4 read
/// (reductions: bytes read); the host case is compared with an empty submit round trip instead.
enum class Baseline { copy, read, submit };

/// One benchmark case. Every case works along exactly one axis.
struct Case {
    std::string name;
    Op op = Op::cumsum;
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
    std::vector<uint32_t> shape;
    uint32_t axis = 0;
};

/// The names of the suites: "quick", "default", "full".
std::vector<std::string_view> suite_names();
/// The cases of a suite (quick: the default cases at 1/16 of the elements), or empty for an unknown name.
std::vector<Case> suite_cases(std::string_view suite);
/// Every case name of the full suite, in order (the names --case accepts).
std::vector<std::string> all_case_names();

/// Short operator name for tables and JSON ("cumsum", "cumprod", "reduce-sum", "argmax", "logsumexp").
const char* op_name(Op op);
/// Lower-case short type name ("f32", "i64", ...).
std::string type_name(DML_TENSOR_DATA_TYPE type);
/// The DirectML operator a case runs (for Device::supports).
DML_OPERATOR_TYPE dml_operator(Op op);
/// Whether the case is a scan (cumsum, cumprod, host cumsum) rather than a reduction.
bool is_scan(Op op);
Baseline baseline_of(Op op);
/// "copy", "read" or "submit".
const char* baseline_name(Baseline baseline);

/// Elements of the input.
uint64_t element_count(const Case& c);
/// The case's operator, built by vkdml::ops: its description and its output (for argmax UINT32 indices,
/// asked for: the bench's figures have always counted them; the input's type otherwise).
ops::Operation operation(const Case& c);
/// Type of the output the bench checks: the index output's where the operation has one, else
/// operation(c).output().data_type.
DML_TENSOR_DATA_TYPE output_type(const Case& c);
/// Useful bytes: input + output for scans, input for reductions.
uint64_t useful_bytes(const Case& c);

/// The case seen as [outer, len, inner] around its axis (row-major): element (o, k, i) is at
/// (o * len + k) * inner + i.
struct Fibers {
    uint64_t outer = 1, len = 1, inner = 1;
};
Fibers fibers(const Case& c);

/// Shrinks the case's largest dimension (to a multiple of 65536 where it stays above that) until its
/// input, output and some temporary room fit the device: maxBufferSize and maxMemoryAllocationSize per
/// buffer, and 3/4 of `heap_bytes` (the largest device-local heap) for all. Returns whether it shrank.
bool fit_to_device(Case& c, const DeviceInfo& info, uint64_t heap_bytes);

}  // namespace vkdml::cli::bench
