// reduce_expect.cpp — the helpers declared in reduce_expect.hpp: cases on packed tensors, running them
// on given inputs against the oracle, and reading and comparing their outputs.
#include "reduce_expect.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vkdml_test {

const std::vector<DML_TENSOR_DATA_TYPE> kFloatTypes = {F16, F32, F64};

ReduceCase reduce_case(DML_REDUCE_FUNCTION f, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                       std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE index_type) {
    ReduceCase c;
    c.op = DML_OPERATOR_REDUCE;
    c.function = f;
    c.type = type;
    c.index_type = index_type;
    c.sizes = std::move(sizes);
    c.axes = std::move(axes);
    c.in_strides = packed_strides(c.sizes);
    c.out_strides = packed_strides(output_sizes(c));
    return c;
}

ReduceCase arg_case(DML_OPERATOR_TYPE op, DML_AXIS_DIRECTION direction, DML_TENSOR_DATA_TYPE type,
                    std::vector<uint32_t> sizes, std::vector<uint32_t> axes,
                    DML_TENSOR_DATA_TYPE index_type) {
    ReduceCase c =
        reduce_case(DML_REDUCE_FUNCTION_ARGMAX, type, std::move(sizes), std::move(axes), index_type);
    c.op = op;
    c.direction = direction;
    return c;
}

// Each value is stored as the type stores it. An empty output means the device refused an unsupported
// type, which check_reduce_case verified.
namespace {

/// Runs the case on a packed input whose element i is set by set(input, i, elements[i]).
template <class T, class Set>
TestTensor run_with(const ReduceCase& c, const std::vector<T>& elements, Set set) {
    TestTensor input = make_packed(c.type, c.sizes);
    REQUIRE(elements.size() == input.count());
    for (uint64_t i = 0; i < elements.size(); ++i) set(input, i, elements[i]);
    SweepStats stats;
    return check_reduce_case(c, input, stats);
}

}  // namespace

TestTensor run_values(const ReduceCase& c, const std::vector<double>& values) {
    return run_with(c, values, [](TestTensor& t, uint64_t i, double v) { t.set_double(i, v); });
}

TestTensor run_bits(const ReduceCase& c, const std::vector<uint64_t>& bits) {
    return run_with(c, bits, [](TestTensor& t, uint64_t i, uint64_t b) { t.set_bits(i, b); });
}

bool skipped(const TestTensor& out) {
    return out.bytes.empty();
}

std::vector<double> values_of(const TestTensor& out) {
    std::vector<double> v;
    for (uint64_t i = 0; i < out.count(); ++i) v.push_back(out.get_double(i));
    return v;
}
std::vector<uint64_t> bits_of(const TestTensor& out) {
    std::vector<uint64_t> v;
    for (uint64_t i = 0; i < out.count(); ++i) v.push_back(out.get_bits(i));
    return v;
}

bool same_values(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]) ? !std::isnan(got[i]) : got[i] != want[i]) return false;
    }
    return true;
}

bool close_to(DML_TENSOR_DATA_TYPE type, double got, double want, double ulps) {
    if (std::isnan(want) || std::isinf(want)) return std::isnan(want) ? std::isnan(got) : got == want;
    const double eps = type == F16 ? 0x1p-10 : type == F32 ? 0x1p-23 : 0x1p-52;
    return std::fabs(got - want) <= ulps * eps * std::max(1.0, std::fabs(want));
}

std::string show(const std::vector<double>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}
std::string show(const std::vector<uint64_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
}

ReduceCase arg_way_case(const ArgWay& w, bool is_max, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
                        std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE index_type) {
    if (w.op == DML_OPERATOR_REDUCE)
        return reduce_case(is_max ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN, type,
                           std::move(sizes), std::move(axes), index_type);
    return arg_case(is_max ? DML_OPERATOR_ARGMAX : DML_OPERATOR_ARGMIN, w.direction, type, std::move(sizes),
                    std::move(axes), index_type);
}

const std::vector<ArgWay> kArgWays = {{"REDUCE", DML_OPERATOR_REDUCE, INC},
                                      {"standalone INCREASING", DML_OPERATOR_ARGMAX, INC},
                                      {"standalone DECREASING", DML_OPERATOR_ARGMAX, DEC}};

uint64_t wrap(DML_TENSOR_DATA_TYPE type, int64_t v) {
    return static_cast<uint64_t>(v) & type_mask(type);
}

}  // namespace vkdml_test
