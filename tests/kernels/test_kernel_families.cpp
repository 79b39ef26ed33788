// testing::DeviceOverrides::kernels, and what the kernel families promise beyond the sweeps: signed zeros of
// float sums, and long float sums that do not drift.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"

#include <cmath>
#include <cstring>
#include <vector>

using namespace vkdml_test;

namespace {

/// A float32 cumsum of `n` elements on a fresh device preferring `kernels`, through the host path.
vkdml::CompiledOperator compile_cumsum(vkdml::Device& dev, uint32_t n) {
    uint32_t sizes[] = {n};
    DML_BUFFER_TENSOR_DESC b{
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, n * 4ull, 0};
    DML_TENSOR_DESC t{DML_TENSOR_TYPE_BUFFER, &b};
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC d{&t, &t, 0, DML_AXIS_DIRECTION_INCREASING, 0};
    auto op = dev.create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d});
    REQUIRE(op);
    auto co = dev.compile_operator(*op);
    REQUIRE(co);
    return *co;
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

}  // namespace

TEST_CASE("DeviceOverrides::kernels chooses the family and policy_class the rows: passes of a 4,096 cumsum",
          "[gpu][device]") {
    using K = vkdml::KernelChoice;
    using P = vkdml::testing::DeviceOverrides::PolicyClass;
    // 4,096 contiguous floats. CPU rows: one serial invocation's chunk (chunks of 1,024 to 8,192). GPU rows:
    // serial chunks of at most 512 positions (8 of them: reduce, scan of the partials, scan with carry),
    // or, wherever subgroup arithmetic is there, the cooperative family's chained scan: one tile of 4,096
    // (16 KiB), one pass.
    auto serial_cpu = make_test_device(K::serial, P::cpu);
    CHECK(vkdml::pass_count(compile_cumsum(*serial_cpu, 4096)) == 1);
    CHECK(compile_cumsum(*serial_cpu, 4096).binding_properties().TemporaryResourceSize == 0);
    auto serial_gpu = make_test_device(K::serial, P::gpu);
    CHECK(vkdml::pass_count(compile_cumsum(*serial_gpu, 4096)) == 3);
    auto cooperative_gpu = make_test_device(K::cooperative, P::gpu);
    if (cooperative_gpu->info().subgroup_arithmetic)
        CHECK(vkdml::pass_count(compile_cumsum(*cooperative_gpu, 4096)) == 1);
    // automatic: the device type's rows, and its family: serial on CPU devices, cooperative on GPUs; a
    // forced class brings its family along.
    auto automatic = make_test_device(K::automatic);
    const bool cpu = automatic->info().physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    CHECK(vkdml::pass_count(compile_cumsum(*automatic, 4096)) ==
          vkdml::pass_count(compile_cumsum(cpu ? *serial_cpu : *cooperative_gpu, 4096)));
    CHECK(vkdml::pass_count(compile_cumsum(*make_test_device(K::automatic, P::cpu), 4096)) == 1);
    CHECK(vkdml::pass_count(compile_cumsum(*make_test_device(K::automatic, P::gpu), 4096)) ==
          (automatic->info().subgroup_arithmetic ? 1 : 3));
}

TEST_CASE("float cumsums keep signed zeros: -0 sums to -0, an exclusive scan starts at +0", "[gpu][cumsum]") {
    // (Both families: the cooperative one's float scans are compensated shuffles that start from -0, not
    // the driver's subgroup arithmetic, whose identity may be +0 (lavapipe's is).)
    for (auto kernels : {vkdml::KernelChoice::serial, vkdml::KernelChoice::cooperative}) {
        auto device = make_test_device(kernels);
        INFO((kernels == vkdml::KernelChoice::serial ? "serial" : "cooperative"));
        for (DML_TENSOR_DATA_TYPE type :
             {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64}) {
            INFO(type_name(type));
            // Lengths for element by element (5), one block (8) and chunks with carries (300,000).
            for (uint32_t n : {5u, 8u, 300000u}) {
                INFO("length " << n);
                TestTensor in = make_packed(type, {n});
                for (uint32_t i = 0; i < n; ++i) in.set_double(i, -0.0);
                for (bool exclusive : {false, true}) {
                    TestTensor out = make_packed(type, {n});
                    const vkdml::Status st =
                        execute_scan({ScanOp::sum, 0, false, exclusive}, in, &out, device.get());
                    INFO((st ? std::string() : st.error().message));
                    REQUIRE(st);
                    uint32_t wrong = 0;
                    for (uint32_t i = 0; i < n; ++i) {
                        const bool positive = exclusive && i == 0;
                        const double y = out.get_double(i);
                        if (y != 0.0 || std::signbit(y) == positive) ++wrong;
                    }
                    CHECK(wrong == 0);
                }
            }
        }
    }
}

TEST_CASE("a long float32 cumsum of positive values stays within 1e-3 of the exact sums", "[gpu][cumsum]") {
    // 2^21 elements of 0.1f: the running sum reaches 209,715, where a float32 step is 2^-6. Added there
    // one by one, each 0.1 would round to 6 steps (0.094, -6 %); the compensated running sum keeps every
    // rounding error (tests/test_float_accuracy.cpp holds the two-ulp contract; this is the coarse guard).
    const uint32_t n = 1u << 21;
    TestTensor in = make_packed(DML_TENSOR_DATA_TYPE_FLOAT32, {n});
    TestTensor out = make_packed(DML_TENSOR_DATA_TYPE_FLOAT32, {n});
    for (uint32_t i = 0; i < n; ++i) in.set_double(i, 0.1);
    const vkdml::Status st = execute_scan({ScanOp::sum, 0, false, false}, in, &out);
    REQUIRE(st);
    const double x = static_cast<double>(0.1f);
    double worst = 0;
    for (uint32_t i = 0; i < n; i += 997)
        worst = std::max(worst, std::fabs(out.get_double(i) / (x * (i + 1)) - 1));
    CHECK(worst < 1e-3);
    CHECK(bits_of(static_cast<float>(out.get_double(0))) == bits_of(0.1f));
}
