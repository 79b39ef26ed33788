// tools/bench/bench_cases.cpp — the case table of `vkdml bench` and what follows from a case: its bytes, its
// fibers, its fit on a device and its operator (vkdml::ops).
#include "bench/bench_cases.hpp"

#include "cli/cli.hpp"

#include <algorithm>

namespace vkdml::cli::bench {
namespace {

constexpr uint32_t kM = 1u << 20;
constexpr uint32_t kBig = 64 * kM;  // the 1-D cases' element count

constexpr DML_TENSOR_DATA_TYPE F16 = DML_TENSOR_DATA_TYPE_FLOAT16, F32 = DML_TENSOR_DATA_TYPE_FLOAT32,
                               F64 = DML_TENSOR_DATA_TYPE_FLOAT64, I8 = DML_TENSOR_DATA_TYPE_INT8,
                               U8 = DML_TENSOR_DATA_TYPE_UINT8, I16 = DML_TENSOR_DATA_TYPE_INT16,
                               U16 = DML_TENSOR_DATA_TYPE_UINT16, I32 = DML_TENSOR_DATA_TYPE_INT32,
                               U32 = DML_TENSOR_DATA_TYPE_UINT32, I64 = DML_TENSOR_DATA_TYPE_INT64,
                               U64 = DML_TENSOR_DATA_TYPE_UINT64;

std::vector<Case> default_cases() {
    return {
        {"scan-1d", Op::cumsum, F32, {kBig}, 0},
        {"scan-rows-short", Op::cumsum, F32, {kM, 16}, 1},
        {"scan-rows-medium", Op::cumsum, F32, {16384, 1024}, 1},
        {"scan-outer", Op::cumsum, F32, {4096, 4096}, 0},
        {"scan-outer-narrow", Op::cumsum, F32, {kM, 2}, 0},
        {"cumprod-1d", Op::cumprod, F32, {kBig}, 0},
        {"cummax-1d", Op::cummax, F32, {kBig}, 0},
        {"cummax-indices-1d", Op::cummax_indices, F32, {kBig}, 0},
        {"logcumsumexp-1d", Op::logcumsumexp, F32, {kBig}, 0},
        {"reduce-1d", Op::reduce_sum, F32, {kBig}, 0},
        {"reduce-inner", Op::reduce_sum, F32, {4096, 4096}, 1},
        {"reduce-outer", Op::reduce_sum, F32, {4096, 4096}, 0},
        {"reduce-few-huge", Op::reduce_sum, F32, {4, 16 * kM}, 1},
        {"reduce-many-tiny", Op::reduce_sum, F32, {kM, 3}, 1},
        {"argmax-1d", Op::argmax, F32, {kBig}, 0},
        {"logsumexp-1d", Op::logsumexp, F32, {kBig}, 0},
        {"variance-1d", Op::variance, F32, {kBig}, 0},
        {"variance-outer", Op::variance, F32, {4096, 4096}, 0},
        {"any-1d", Op::any, F32, {kBig}, 0},
        {"count-nonzero-1d", Op::count_nonzero, F32, {kBig}, 0},
        {"scan-1d-f16", Op::cumsum, F16, {kBig}, 0},
        {"scan-1d-i32", Op::cumsum, I32, {kBig}, 0},
        {"scan-1d-i64", Op::cumsum, I64, {kBig}, 0},
        {"scan-1d-f64", Op::cumsum, F64, {kBig}, 0},
        {"reduce-1d-f16", Op::reduce_sum, F16, {kBig}, 0},
        {"reduce-1d-i32", Op::reduce_sum, I32, {kBig}, 0},
        {"reduce-1d-i64", Op::reduce_sum, I64, {kBig}, 0},
        {"reduce-1d-f64", Op::reduce_sum, F64, {kBig}, 0},
    };
}

std::vector<Case> full_extra_cases() {
    std::vector<Case> cases;
    for (DML_TENSOR_DATA_TYPE type : {I8, U8, I16, U16, U32, U64}) {
        cases.push_back({std::string("scan-1d-") + type_name(type), Op::cumsum, type, {kBig}, 0});
        cases.push_back({std::string("reduce-1d-") + type_name(type), Op::reduce_sum, type, {kBig}, 0});
    }
    cases.push_back({"cumprod-1d-f16", Op::cumprod, F16, {kBig}, 0});
    cases.push_back({"argmax-1d-f16", Op::argmax, F16, {kBig}, 0});
    return cases;
}

const Case kHostCase{"host-cumsum-1k", Op::host_cumsum, F32, {1024}, 0};

// Divides the largest dimension by `factor` (at least 1 remains).
void shrink_largest(Case& c, uint32_t factor) {
    auto largest = std::max_element(c.shape.begin(), c.shape.end());
    *largest = std::max(1u, *largest / factor);
}

}  // namespace

std::vector<std::string_view> suite_names() {
    return {"quick", "default", "full"};
}

std::vector<Case> suite_cases(std::string_view suite) {
    std::vector<Case> cases;
    if (suite != "quick" && suite != "default" && suite != "full") return cases;
    cases = default_cases();
    if (suite == "full")
        for (Case& c : full_extra_cases()) cases.push_back(std::move(c));
    if (suite == "quick")
        for (Case& c : cases) shrink_largest(c, 16);
    cases.push_back(kHostCase);
    return cases;
}

std::vector<std::string> all_case_names() {
    std::vector<std::string> names;
    for (const Case& c : suite_cases("full")) names.push_back(c.name);
    return names;
}

const char* op_name(Op op) {
    switch (op) {
    case Op::cumsum: return "cumsum";
    case Op::cumprod: return "cumprod";
    case Op::cummax: return "cummax";
    case Op::cummax_indices: return "cummax-indices";
    case Op::logcumsumexp: return "logcumsumexp";
    case Op::reduce_sum: return "reduce-sum";
    case Op::argmax: return "argmax";
    case Op::logsumexp: return "logsumexp";
    case Op::variance: return "variance";
    case Op::any: return "any";
    case Op::count_nonzero: return "count-nonzero";
    case Op::host_cumsum: return "host-cumsum";
    }
    return "?";
}

std::string type_name(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo* info = type_info(type);
    return info ? info->numpy_kind + std::to_string(8 * info->size) : "?";  // f32, i8, u64, ...
}

DML_OPERATOR_TYPE dml_operator(Op op) {
    switch (op) {
    case Op::cumsum:
    case Op::host_cumsum: return DML_OPERATOR_CUMULATIVE_SUMMATION;
    case Op::cumprod: return DML_OPERATOR_CUMULATIVE_PRODUCT;
    case Op::cummax:
    case Op::cummax_indices: return VKDML_OPERATOR_CUMULATIVE_MAXIMUM;
    case Op::logcumsumexp: return VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP;
    case Op::argmax: return DML_OPERATOR_ARGMAX;
    case Op::reduce_sum:
    case Op::logsumexp:
    case Op::variance:
    case Op::any:
    case Op::count_nonzero: return DML_OPERATOR_REDUCE;
    }
    return DML_OPERATOR_INVALID;
}

bool is_scan(Op op) {
    return op == Op::cumsum || op == Op::cumprod || op == Op::cummax || op == Op::cummax_indices ||
           op == Op::logcumsumexp || op == Op::host_cumsum;
}

Baseline baseline_of(Op op) {
    if (op == Op::host_cumsum) return Baseline::submit;
    return is_scan(op) ? Baseline::copy : Baseline::read;
}

const char* baseline_name(Baseline baseline) {
    switch (baseline) {
    case Baseline::copy: return "copy";
    case Baseline::read: return "read";
    case Baseline::submit: return "submit";
    }
    return "?";
}

uint64_t element_count(const Case& c) {
    uint64_t n = 1;
    for (uint32_t size : c.shape) n *= size;
    return n;
}

ops::Operation operation(const Case& c) {
    const ops::TensorDesc input{c.type, c.shape};
    const uint32_t axes[] = {c.axis};
    switch (c.op) {
    case Op::cumsum:
    case Op::host_cumsum: return take(ops::cumulative_sum(input, c.axis));
    case Op::cumprod: return take(ops::cumulative_product(input, c.axis));
    case Op::cummax: return take(ops::cumulative_maximum(input, c.axis));
    case Op::cummax_indices: return take(ops::cumulative_maximum_with_indices(input, c.axis));
    case Op::logcumsumexp: return take(ops::log_cumulative_sum_exp(input, c.axis));
    case Op::reduce_sum: return take(ops::reduce(input, DML_REDUCE_FUNCTION_SUM, axes));
    case Op::logsumexp: return take(ops::reduce(input, DML_REDUCE_FUNCTION_LOG_SUM_EXP, axes));
    case Op::variance: return take(ops::reduce(input, VKDML_REDUCE_FUNCTION_VARIANCE, axes));
    case Op::any: return take(ops::reduce(input, VKDML_REDUCE_FUNCTION_ANY, axes));
    case Op::count_nonzero: return take(ops::reduce(input, VKDML_REDUCE_FUNCTION_COUNT_NONZERO, axes));
    case Op::argmax: break;
    }
    return take(ops::argmax(input, axes, DML_AXIS_DIRECTION_INCREASING, DML_TENSOR_DATA_TYPE_UINT32));
}

DML_TENSOR_DATA_TYPE output_type(const Case& c) {
    const ops::Operation op = operation(c);
    return op.index_output() ? op.index_output()->data_type : op.output().data_type;
}

uint64_t useful_bytes(const Case& c) {
    const uint64_t in = element_count(c) * element_size(c.type);
    if (c.op == Op::cummax_indices) return 2 * in + element_count(c) * 8;  // and the INT64 indices
    return is_scan(c.op) ? 2 * in : in;
}

Fibers fibers(const Case& c) {
    Fibers f;
    for (size_t d = 0; d < c.shape.size(); ++d) {
        if (d < c.axis) f.outer *= c.shape[d];
        if (d == c.axis) f.len = c.shape[d];
        if (d > c.axis) f.inner *= c.shape[d];
    }
    return f;
}

bool fit_to_device(Case& c, const DeviceInfo& info, uint64_t heap_bytes) {
    bool shrunk = false;
    const auto fits = [&] {
        const uint64_t in = element_count(c) * element_size(c.type);
        const ops::TensorDesc output = operation(c).output();
        const uint64_t out = output.elements() * element_size(output.data_type);
        const uint64_t largest = std::max(in, out);
        // Room for a temporary of up to 1/8 of the input (chunk totals) besides input and output.
        return largest <= info.max_buffer_size && largest <= info.max_memory_allocation_size &&
               (in + out + in / 8) <= heap_bytes / 4 * 3;
    };
    while (!fits()) {
        auto largest = std::max_element(c.shape.begin(), c.shape.end());
        if (*largest <= 1) break;
        uint32_t next = *largest / 2;
        if (next > 65536) next -= next % 65536;
        *largest = next;
        shrunk = true;
    }
    return shrunk;
}

}  // namespace vkdml::cli::bench
