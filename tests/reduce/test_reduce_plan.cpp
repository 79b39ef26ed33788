// How reductions are planned, seen through the public API: passes per shape, scratch only when a
// reduction is split, and pipelines shared between REDUCE's arg functions and the standalone
// operators (the function, tie rule, signedness and index width are specialization constants).
#include <catch2/catch.hpp>

#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <vector>

namespace {

struct Compiler {
    vkdml::Device& dev;

    vkdml::CompiledOperator operator()(DML_OPERATOR_TYPE type, DML_REDUCE_FUNCTION function,
                                       std::vector<uint32_t> sizes, std::vector<uint32_t> axes,
                                       DML_TENSOR_DATA_TYPE in_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                       DML_TENSOR_DATA_TYPE out_type = DML_TENSOR_DATA_TYPE_FLOAT32,
                                       DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING) const {
        std::vector<uint32_t> out_sizes = sizes;
        for (uint32_t a : axes) out_sizes[a] = 1;
        const auto rank = static_cast<uint32_t>(sizes.size());
        DML_BUFFER_TENSOR_DESC bi{in_type, DML_TENSOR_FLAG_NONE,
                                  rank,    sizes.data(),
                                  nullptr, DMLCalcBufferTensorSize(in_type, rank, sizes.data(), nullptr),
                                  0};
        DML_BUFFER_TENSOR_DESC bo{
            out_type, DML_TENSOR_FLAG_NONE,
            rank,     out_sizes.data(),
            nullptr,  DMLCalcBufferTensorSize(out_type, rank, out_sizes.data(), nullptr),
            0};
        DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &bi}, to{DML_TENSOR_TYPE_BUFFER, &bo};
        const auto count = static_cast<uint32_t>(axes.size());
        const DML_REDUCE_OPERATOR_DESC reduce{function, &ti, &to, count, axes.data()};
        const DML_ARGMIN_OPERATOR_DESC argmin{&ti, &to, count, axes.data(), direction};
        const DML_ARGMAX_OPERATOR_DESC argmax{&ti, &to, count, axes.data(), direction};
        const void* desc = type == DML_OPERATOR_REDUCE   ? static_cast<const void*>(&reduce)
                           : type == DML_OPERATOR_ARGMIN ? static_cast<const void*>(&argmin)
                                                         : static_cast<const void*>(&argmax);
        auto op = dev.create_operator({type, desc});
        INFO((op ? std::string() : op.error().message));
        REQUIRE(op);
        auto co = dev.compile_operator(*op);
        REQUIRE(co);
        return *co;
    }
};

}  // namespace

TEST_CASE("reduce plans: one pass for short folds, chunk-state passes for long ones", "[gpu][reduce]") {
    auto dev = vkdml::Device::create();
    REQUIRE(dev);
    const Compiler compile{**dev};
    constexpr auto R = DML_OPERATOR_REDUCE;
    constexpr auto SUM = DML_REDUCE_FUNCTION_SUM;
    for (const auto& [sizes, axes] : std::vector<std::pair<std::vector<uint32_t>, std::vector<uint32_t>>>{
             {{3, 3}, {0}}, {{3, 3}, {0, 1}}, {{1000000, 3}, {1}}, {{5, 7, 9}, {}}, {{4, 1, 6}, {1}}}) {
        auto co = compile(R, SUM, sizes, axes);
        CHECK(vkdml::pass_count(co) == 1);
        CHECK(co.binding_properties().TemporaryResourceSize == 0);
        CHECK(co.binding_properties().PersistentResourceSize == 0);
    }
    // One output over 2^24 elements: no workgroup folds more than 256 x 64 elements (cooperative family)
    // and no invocation more than 8,192 blocks of 16 (serial family), so at least two passes, the partial
    // states in the temporary buffer.
    auto big = compile(R, SUM, {1u << 24}, {0});
    CHECK(vkdml::pass_count(big) >= 2);
    CHECK(big.binding_properties().TemporaryResourceSize >= 1024 * 4);
    // A float SUM's state is (sum, rounding error), LOG_SUM_EXP's (maximum, sum, error): 3/2 of SUM's
    // scratch (both cut into the canonical association's chunks); an arg state is (value, index), an
    // integer SUM's (sum) half of it (both cut as the policy likes).
    auto lse = compile(R, DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1u << 24}, {0});
    auto arg = compile(R, DML_REDUCE_FUNCTION_ARGMAX, {1u << 24}, {0}, DML_TENSOR_DATA_TYPE_FLOAT32,
                       DML_TENSOR_DATA_TYPE_INT64);
    auto integer = compile(R, SUM, {1u << 24}, {0}, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT32);
    CHECK(vkdml::pass_count(lse) == vkdml::pass_count(big));
    const uint64_t sum_bytes = big.binding_properties().TemporaryResourceSize;
    CHECK(lse.binding_properties().TemporaryResourceSize >= sum_bytes * 3 / 2 - 64);
    const uint64_t arg_bytes = arg.binding_properties().TemporaryResourceSize;
    CHECK(arg_bytes >= 1024 * 8);
    CHECK(integer.binding_properties().TemporaryResourceSize <= arg_bytes / 2 + 64);
}

TEST_CASE("reduce plans: REDUCE's arg functions and ARGMIN/ARGMAX share pipelines", "[gpu][reduce]") {
    // Both policy rows: a compile of the same kernel and constants adds no pipeline. The counts of new
    // pipelines are the CPU rows' (one pass for these shapes); the GPU rows may split a reduction into
    // passes of their own kernels (two for {40, 30} on an H200), so only the sharing is counted there.
    using Policy = vkdml::testing::DeviceOverrides::PolicyClass;
    const Policy policy = GENERATE(Policy::cpu, Policy::gpu);
    const bool cpu_rows = policy == Policy::cpu;
    INFO((cpu_rows ? "CPU policy rows" : "GPU policy rows"));
    vkdml::testing::DeviceOverrides overrides;
    overrides.policy_class = policy;
    auto dev = vkdml::testing::create_device(vkdml::DeviceOptions{}, overrides);
    REQUIRE(dev);
    const Compiler compile{**dev};
    const auto pipelines = [&] { return vkdml::testing::pipeline_count(*(*dev)); };
    constexpr auto I64 = DML_TENSOR_DATA_TYPE_INT64;
    constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
    compile(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_ARGMAX, {40, 30}, {1}, F32, I64);
    const size_t after_first = pipelines();
    if (cpu_rows) CHECK(after_first == 1);
    // The same kernel and constants: INCREASING is REDUCE's tie rule; UINT64 has the width of INT64.
    compile(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, F32, I64);
    compile(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_SUM, {7, 30}, {1}, F32, DML_TENSOR_DATA_TYPE_UINT64);
    CHECK(pipelines() == after_first);
    // DECREASING, ARGMIN and 32-bit indices are each a new constant.
    compile(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, F32, I64,
            DML_AXIS_DIRECTION_DECREASING);
    compile(DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, F32, I64);
    compile(DML_OPERATOR_ARGMAX, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, F32, DML_TENSOR_DATA_TYPE_INT32);
    const size_t with_variants = pipelines();
    if (cpu_rows) CHECK(with_variants == after_first + 3);
    compile(DML_OPERATOR_ARGMIN, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, F32, DML_TENSOR_DATA_TYPE_UINT64);
    CHECK(pipelines() == with_variants);
    // INT32 and UINT32 share a storage variant; MIN compares them differently (signedness constant),
    // SUM does not.
    constexpr auto S32 = DML_TENSOR_DATA_TYPE_INT32;
    constexpr auto U32 = DML_TENSOR_DATA_TYPE_UINT32;
    compile(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, S32, S32);
    const size_t with_sum = pipelines();
    compile(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_SUM, {40, 30}, {1}, U32, U32);
    CHECK(pipelines() == with_sum);
    compile(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, {40, 30}, {1}, S32, S32);
    const size_t with_min = pipelines();
    if (cpu_rows) CHECK(with_min == with_sum + 1);
    compile(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_MIN, {40, 30}, {1}, U32, U32);
    if (cpu_rows) CHECK(pipelines() == with_sum + 2);
    CHECK(pipelines() > with_min);
}
