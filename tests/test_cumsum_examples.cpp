// SPEC §6 cumulative summation examples, verbatim, for all 11 data types.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "tensor_data.hpp"

#include <vector>

using namespace vkdml_test;

namespace {

const std::vector<double> kInput = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};

std::vector<double> run_cumsum(DML_TENSOR_DATA_TYPE type, uint32_t axis, DML_AXIS_DIRECTION direction,
                               bool exclusive) {
    TestTensor in = make_packed(type, {1, 1, 3, 4});
    TestTensor out = make_packed(type, {1, 1, 3, 4});
    for (uint64_t i = 0; i < 12; ++i) in.set_double(i, kInput[i]);
    DML_BUFFER_TENSOR_DESC bi{type, DML_TENSOR_FLAG_NONE, 4, in.sizes.data(), nullptr, in.total_bytes(), 0};
    DML_BUFFER_TENSOR_DESC bo = bi;
    DML_TENSOR_DESC ti{DML_TENSOR_TYPE_BUFFER, &bi}, to{DML_TENSOR_TYPE_BUFFER, &bo};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&ti, &to, axis, direction, exclusive ? 1 : 0};
    DML_OPERATOR_DESC od{DML_OPERATOR_CUMULATIVE_SUMMATION, &d};
    const void* inputs[] = {in.bytes.data()};
    void* outputs[] = {out.bytes.data()};
    vkdml::Status st = vkdml::execute(test_device(), od, inputs, outputs);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    require_no_validation_messages();
    std::vector<double> y;
    for (uint64_t i = 0; i < 12; ++i) y.push_back(out.get_double(i));
    return y;
}

}  // namespace

TEST_CASE("SPEC §6 cumulative summation examples for every data type", "[gpu][cumsum][spec]") {
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        INFO("type " << type_name(type));
        CHECK(run_cumsum(type, 3, DML_AXIS_DIRECTION_INCREASING, false) ==
              std::vector<double>{2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21});
        CHECK(run_cumsum(type, 3, DML_AXIS_DIRECTION_INCREASING, true) ==
              std::vector<double>{0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17});
        CHECK(run_cumsum(type, 3, DML_AXIS_DIRECTION_DECREASING, false) ==
              std::vector<double>{11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4});
        CHECK(run_cumsum(type, 2, DML_AXIS_DIRECTION_INCREASING, false) ==
              std::vector<double>{2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12});
        // the remaining direction/exclusive combination, derived from SPEC §3's table
        CHECK(run_cumsum(type, 3, DML_AXIS_DIRECTION_DECREASING, true) ==
              std::vector<double>{9, 8, 5, 0, 18, 10, 3, 0, 12, 6, 4, 0});
        // size-1 axes: the output is the input
        CHECK(run_cumsum(type, 0, DML_AXIS_DIRECTION_INCREASING, false) == kInput);
        CHECK(run_cumsum(type, 1, DML_AXIS_DIRECTION_DECREASING, true) == std::vector<double>(12, 0.0));
    }
}
