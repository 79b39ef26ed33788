// examples/host_cumsum.cpp — the host convenience path: a DirectML cumulative-summation descriptor run on
// the default Vulkan device (a GPU, or lavapipe when there is none), host arrays in and out.
#include <vkdml/vkdml.hpp>

#include <cstdio>
#include <cstring>

int main() {
    auto device = vkdml::Device::create();  // the best device; VKDML_DEVICE=<index or name> picks another
    if (!device) return std::fprintf(stderr, "%s\n", device.error().message.c_str()), 1;
    std::printf("device: %s\n", (*device)->info().physical.name.c_str());

    uint32_t sizes[] = {3, 4};  // 3 rows of 4 float32, summed along axis 1 (the rows)
    DML_BUFFER_TENSOR_DESC buffer{DML_TENSOR_DATA_TYPE_FLOAT32,
                                  DML_TENSOR_FLAG_NONE,
                                  2,
                                  sizes,
                                  nullptr,
                                  DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, sizes, nullptr),
                                  0};
    DML_TENSOR_DESC tensor{DML_TENSOR_TYPE_BUFFER, &buffer};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{&tensor, &tensor, 1, DML_AXIS_DIRECTION_INCREASING, false};
    DML_OPERATOR_DESC desc{DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum};

    const float x[12] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    float y[12] = {};
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(y))};
    if (vkdml::Status status = vkdml::execute(**device, desc, inputs, outputs); !status)
        return std::fprintf(stderr, "%s\n", status.error().message.c_str()), 1;

    for (int i = 0; i < 12; ++i) std::printf("%g%s", double(y[i]), i % 4 == 3 ? "\n" : ", ");
    const float expected[12] = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
    return std::memcmp(y, expected, sizeof y) == 0 ? 0 : 1;
}
