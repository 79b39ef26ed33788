// run_operation.hpp — one built operation run on a test tensor through vkdml::execute, for tests that
// check a result against a host computation (the variances, the logical functions).
#pragma once

#include "tensor_data.hpp"
#include "vkdml/ops.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml_test {

/// The operation of a builder's result; REQUIREs that it was built (showing the error otherwise).
vkdml::ops::Operation built(vkdml::Result<vkdml::ops::Operation> r);

/// `op` run on `in` through vkdml::execute on `device` with `options`: its output, packed row-major.
/// REQUIREs that it ran (showing the error otherwise).
TestTensor run_operation(const vkdml::Device& device, const vkdml::ops::Operation& op, const TestTensor& in,
                         const vkdml::OperatorOptions& options = {});

/// Values and indices of a selection run with its index output (ops::cumulative_maximum_with_indices).
struct WithIndices {
    TestTensor values, indices;
};

/// `op` (of two outputs) run on `in` as run_operation runs one: both outputs, packed row-major.
WithIndices run_with_indices(const vkdml::Device& device, const vkdml::ops::Operation& op,
                             const TestTensor& in, const vkdml::OperatorOptions& options = {});

}  // namespace vkdml_test
