// run_operation.cpp — see run_operation.hpp.
#include "run_operation.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace vkdml_test {

vkdml::ops::Operation built(vkdml::Result<vkdml::ops::Operation> r) {
    INFO((r ? std::string() : r.error().message));
    REQUIRE(r);
    return *r;
}

TestTensor run_operation(const vkdml::Device& device, const vkdml::ops::Operation& op, const TestTensor& in,
                         const vkdml::OperatorOptions& options) {
    TestTensor out = make_packed(op.output().data_type, op.output().sizes);
    const std::span<const std::byte> inputs[] = {in.bytes};
    const std::span<std::byte> outputs[] = {out.bytes};
    const vkdml::Status st =
        vkdml::execute(device, op.desc(), inputs, outputs, DML_EXECUTION_FLAG_NONE, options);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    return out;
}

WithIndices run_with_indices(const vkdml::Device& device, const vkdml::ops::Operation& op,
                             const TestTensor& in, const vkdml::OperatorOptions& options) {
    REQUIRE(op.index_output() != nullptr);
    WithIndices r{make_packed(op.output().data_type, op.output().sizes),
                  make_packed(op.index_output()->data_type, op.index_output()->sizes)};
    const std::span<const std::byte> inputs[] = {in.bytes};
    const std::span<std::byte> outputs[] = {r.values.bytes, r.indices.bytes};
    const vkdml::Status st =
        vkdml::execute(device, op.desc(), inputs, outputs, DML_EXECUTION_FLAG_NONE, options);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    return r;
}

}  // namespace vkdml_test
