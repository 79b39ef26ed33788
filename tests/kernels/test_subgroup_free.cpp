// DeviceOptions::subgroup_operations = false: the plans a device without subgroup arithmetic or
// shuffles gets (serial folds and scans, chunk states and carries through further passes) give exact
// results on shapes the default device runs with subgroup kernels.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "vkdml/vkdml.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Tensor {
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<unsigned char> bytes;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};

    Tensor(DML_TENSOR_DATA_TYPE t, std::vector<uint32_t> s) : type(t), sizes(std::move(s)) {
        const auto rank = static_cast<uint32_t>(sizes.size());
        const uint64_t total = DMLCalcBufferTensorSize(type, rank, sizes.data(), nullptr);
        bytes.assign(total, 0);
        buffer = {type, DML_TENSOR_FLAG_NONE, rank, sizes.data(), nullptr, total, 0};
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    template <class T>
    T* data() {
        return reinterpret_cast<T*>(bytes.data());
    }
};

struct SerialDevice {
    std::vector<std::string> messages;
    std::shared_ptr<vkdml::Device> dev;

    SerialDevice() {
        vkdml::DeviceOptions options;
        options.validation = !vkdml_test::validation_layer_waived();
        options.on_validation_message = [this](std::string_view m) { messages.emplace_back(m); };
        options.subgroup_operations = false;
        auto d = vkdml::Device::create(options);
        INFO((d ? std::string() : d.error().message));
        REQUIRE(d);
        dev = *d;
    }

    void run(DML_OPERATOR_TYPE type, const void* desc, Tensor& in, Tensor& out) {
        const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(in.bytes))};
        const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(out.bytes))};
        vkdml::Status st = vkdml::execute(*dev, {type, desc}, inputs, outputs);
        INFO((st ? std::string() : st.error().message));
        REQUIRE(st);
    }
};

}  // namespace

TEST_CASE("without subgroup operations: serial plans give exact results", "[gpu][reduce][scan]") {
    SerialDevice s;
    CHECK_FALSE(s.dev->info().subgroup_shuffle);
    CHECK_FALSE(s.dev->info().subgroup_arithmetic);
    const uint32_t axis1[] = {1}, axis0[] = {0};

    SECTION("REDUCE SUM of int32 rows of 200,003 (wrapping)") {
        Tensor in(DML_TENSOR_DATA_TYPE_INT32, {2, 200003}), out(DML_TENSOR_DATA_TYPE_INT32, {2, 1});
        uint32_t want[2] = {0, 0};
        for (uint32_t i = 0; i < 400006; ++i) {
            const uint32_t v = i * 2654435761u;
            in.data<uint32_t>()[i] = v;
            want[i / 200003] += v;
        }
        const DML_REDUCE_OPERATOR_DESC d{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, axis1};
        s.run(DML_OPERATOR_REDUCE, &d, in, out);
        CHECK(out.data<uint32_t>()[0] == want[0]);
        CHECK(out.data<uint32_t>()[1] == want[1]);
    }
    SECTION("ARGMAX DECREASING over 200,003 float32 with ties, ARGMIN over uint16 columns") {
        Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {200003}), out(DML_TENSOR_DATA_TYPE_INT64, {1});
        for (uint32_t i = 0; i < 200003; ++i) in.data<float>()[i] = static_cast<float>(i % 1000);
        const DML_ARGMAX_OPERATOR_DESC d{&in.desc, &out.desc, 1, axis0, DML_AXIS_DIRECTION_DECREASING};
        s.run(DML_OPERATOR_ARGMAX, &d, in, out);
        CHECK(out.data<int64_t>()[0] == 199999);  // the last 999

        Tensor col(DML_TENSOR_DATA_TYPE_UINT16, {70001, 3}), idx(DML_TENSOR_DATA_TYPE_UINT32, {1, 3});
        for (uint32_t i = 0; i < 70001 * 3; ++i)
            col.data<uint16_t>()[i] = static_cast<uint16_t>(1000 + i % 7);
        col.data<uint16_t>()[3 * 69000 + 2] = 5;  // the minimum of column 2
        const DML_REDUCE_OPERATOR_DESC m{DML_REDUCE_FUNCTION_ARGMIN, &col.desc, &idx.desc, 1, axis0};
        s.run(DML_OPERATOR_REDUCE, &m, col, idx);
        CHECK(idx.data<uint32_t>()[0] == 0);  // 1000 first at row 0 (i % 7 == 0)
        CHECK(idx.data<uint32_t>()[1] == 2);  // 1000 first at i = 7: row 2, column 1
        CHECK(idx.data<uint32_t>()[2] == 69000);
    }
    SECTION("LOG_SUM_EXP of 100,000 float64 values") {
        Tensor in(DML_TENSOR_DATA_TYPE_FLOAT64, {100000}), out(DML_TENSOR_DATA_TYPE_FLOAT64, {1});
        for (uint32_t i = 0; i < 100000; ++i) in.data<double>()[i] = 700.0 + (i % 3 == 0 ? 0.0 : -1.0);
        const DML_REDUCE_OPERATOR_DESC d{DML_REDUCE_FUNCTION_LOG_SUM_EXP, &in.desc, &out.desc, 1, axis0};
        s.run(DML_OPERATOR_REDUCE, &d, in, out);
        // 33,334 terms e^700 and 66,666 terms e^699
        const double want = 700.0 + std::log(33334.0 + 66666.0 * std::exp(-1.0));
        CHECK(std::fabs(out.data<double>()[0] - want) <= 1e-12 * want);
    }
    SECTION("CUMULATIVE_SUMMATION of int32 rows of 200,000") {
        Tensor in(DML_TENSOR_DATA_TYPE_INT32, {2, 200000}), out(DML_TENSOR_DATA_TYPE_INT32, {2, 200000});
        for (uint32_t i = 0; i < 400000; ++i) in.data<uint32_t>()[i] = i * 40503u;
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&in.desc, &out.desc, 1, DML_AXIS_DIRECTION_INCREASING,
                                                       0};
        s.run(DML_OPERATOR_CUMULATIVE_SUMMATION, &d, in, out);
        size_t wrong = 0;
        for (uint32_t r = 0; r < 2; ++r) {
            uint32_t acc = 0;
            for (uint32_t k = 0; k < 200000; ++k) {
                acc += in.data<uint32_t>()[r * 200000 + k];
                wrong += out.data<uint32_t>()[r * 200000 + k] != acc;
            }
        }
        CHECK(wrong == 0);
    }
    for (const auto& m : s.messages) UNSCOPED_INFO(m);
    CHECK(s.messages.empty());
}
