// operator_set.hpp — one small description of each operator of the table, for tests that go over all
// of them for a data type (feature queries, refusals, a quick run).
#pragma once

#include "vkdml/vkdml.hpp"

#include <vector>

namespace vkdml_test {

/// Every operator on a {4} tensor of `type` (index outputs UINT64, needing no feature).
struct OperatorSet {
    OperatorSet(const OperatorSet&) = delete;  // the descriptions point into it
    OperatorSet& operator=(const OperatorSet&) = delete;
    explicit OperatorSet(DML_TENSOR_DATA_TYPE type) { b.DataType = b_one.DataType = type; }
    uint32_t sizes[1] = {4}, one[1] = {1}, axis[1] = {0};
    DML_BUFFER_TENSOR_DESC b{DML_TENSOR_DATA_TYPE_UNKNOWN, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 32, 0};
    DML_BUFFER_TENSOR_DESC b_one{DML_TENSOR_DATA_TYPE_UNKNOWN, DML_TENSOR_FLAG_NONE, 1, one, nullptr, 16, 0};
    DML_BUFFER_TENSOR_DESC index_one{
        DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_FLAG_NONE, 1, one, nullptr, 16, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b}, t_one{DML_TENSOR_TYPE_BUFFER, &b_one},
        t_index{DML_TENSOR_TYPE_BUFFER, &index_one};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC sum{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC product{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC maximum{&t, &t, 0, DML_AXIS_DIRECTION_DECREASING, 0};
    VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC minimum{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 1};
    VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC log_sum_exp{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_MAX, &t, &t_one, 1, axis};
    DML_ARGMIN_OPERATOR_DESC argmin{&t, &t_index, 1, axis, DML_AXIS_DIRECTION_INCREASING};
    DML_ARGMAX_OPERATOR_DESC argmax{&t, &t_index, 1, axis, DML_AXIS_DIRECTION_DECREASING};

    /// The descriptions of the operators that take the type (LOG_CUMULATIVE_SUM_EXP takes floats alone), in
    /// the table's order, pointing into this object (which must stay where it is).
    std::vector<DML_OPERATOR_DESC> all() const {
        std::vector<DML_OPERATOR_DESC> ops = {{DML_OPERATOR_CUMULATIVE_SUMMATION, &sum},
                                              {DML_OPERATOR_CUMULATIVE_PRODUCT, &product},
                                              {VKDML_OPERATOR_CUMULATIVE_MAXIMUM, &maximum},
                                              {VKDML_OPERATOR_CUMULATIVE_MINIMUM, &minimum}};
        const DML_TENSOR_DATA_TYPE type = b.DataType;
        if (type == DML_TENSOR_DATA_TYPE_FLOAT16 || type == DML_TENSOR_DATA_TYPE_FLOAT32 ||
            type == DML_TENSOR_DATA_TYPE_FLOAT64)
            ops.push_back({VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP, &log_sum_exp});
        ops.insert(
            ops.end(),
            {{DML_OPERATOR_REDUCE, &reduce}, {DML_OPERATOR_ARGMIN, &argmin}, {DML_OPERATOR_ARGMAX, &argmax}});
        return ops;
    }
};

}  // namespace vkdml_test
