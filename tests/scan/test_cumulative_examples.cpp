// SPEC §6 cumulative summation and product examples, verbatim, for all 11 data types.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"

#include <vector>

using namespace vkdml_test;

namespace {

const std::vector<double> kInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

// Runs one cumulative operator on the SPEC input (sizes {1,1,3,4}) and returns the 12 results.
std::vector<double> run_example(DML_TENSOR_DATA_TYPE type, ScanOp op, uint32_t axis, bool decreasing,
                                bool exclusive) {
    TestTensor in = make_packed(type, {1, 1, 3, 4});
    TestTensor out = make_packed(type, {1, 1, 3, 4});
    for (uint64_t i = 0; i < 12; ++i) in.set_double(i, kInput[i]);
    const vkdml::Status st = execute_scan({op, axis, decreasing, exclusive}, in, &out);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    require_no_validation_messages();
    std::vector<double> y;
    for (uint64_t i = 0; i < 12; ++i) y.push_back(out.get_double(i));
    return y;
}

constexpr bool kIncreasing = false, kDecreasing = true, kInclusive = false, kExclusive = true;

struct Example {
    uint32_t axis;
    bool decreasing;
    bool exclusive;
    std::vector<double> expected;  // as exact integers; each type holds them as stored_values says
};

// Runs every example for every data type.
void check_examples(ScanOp op, const std::vector<Example>& examples) {
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO("type " << type_name(type));
        for (const Example& e : examples) {
            INFO("axis " << e.axis << (e.decreasing ? " decreasing" : " increasing")
                         << (e.exclusive ? " exclusive" : " inclusive"));
            CHECK(run_example(type, op, e.axis, e.decreasing, e.exclusive) ==
                  stored_values(type, e.expected));
        }
    }
}

}  // namespace

TEST_CASE("SPEC §6 cumulative summation examples for every data type", "[gpu][cumsum][spec]") {
    check_examples(ScanOp::sum,
                   {
                       {3, kIncreasing, kInclusive, {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21}},
                       {3, kIncreasing, kExclusive, {0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17}},
                       {3, kDecreasing, kInclusive, {11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4}},
                       {2, kIncreasing, kInclusive, {2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12}},
                       // the remaining direction/exclusive combination, derived from SPEC §3's table
                       {3, kDecreasing, kExclusive, {9, 8, 5, 0, 18, 10, 3, 0, 12, 6, 4, 0}},
                       // size-1 axes: the output is the input, or the identity when exclusive
                       {0, kIncreasing, kInclusive, kInput},
                       {1, kDecreasing, kExclusive, std::vector<double>(12, 0.0)},
                   });
}

TEST_CASE("SPEC §6 cumulative product examples for every data type", "[gpu][cumprod][spec]") {
    const ScanOp product = ScanOp::product;
    // 8-bit types hold 168, 504 and 432 modulo 2^8 (SPEC §3: integers wrap); stored_values says so
    // for every type below, and here it is spelled out.
    CHECK(run_example(DML_TENSOR_DATA_TYPE_INT8, product, 3, kIncreasing, kInclusive) ==
          std::vector<double>{2, 2, 6, 30, 3, 24, -88, -8, 9, 54, 108, -80});
    CHECK(run_example(DML_TENSOR_DATA_TYPE_UINT8, product, 3, kIncreasing, kInclusive) ==
          std::vector<double>{2, 2, 6, 30, 3, 24, 168, 248, 9, 54, 108, 176});
    check_examples(product, {
                                {3, kIncreasing, kInclusive, {2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432}},
                                {3, kIncreasing, kExclusive, {1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108}},
                                {3, kDecreasing, kInclusive, {30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4}},
                                {2, kIncreasing, kInclusive, {2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60}},
                                // the remaining combinations, derived from SPEC §3's table
                                {3, kDecreasing, kExclusive, {15, 15, 5, 1, 168, 21, 3, 1, 48, 8, 4, 1}},
                                {2, kDecreasing, kInclusive, {54, 48, 42, 60, 27, 48, 14, 12, 9, 6, 2, 4}},
                                {2, kIncreasing, kExclusive, {1, 1, 1, 1, 2, 1, 3, 5, 6, 8, 21, 15}},
                                // size-1 axes: the output is the input, or the identity 1 when exclusive
                                {0, kIncreasing, kInclusive, kInput},
                                {1, kDecreasing, kExclusive, std::vector<double>(12, 1.0)},
                            });
}
