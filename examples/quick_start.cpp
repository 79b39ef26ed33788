// examples/quick_start.cpp — the README's C++ quick start: a cumulative sum of 3 rows of 4 float32 on
// the default Vulkan device (a GPU, or lavapipe), with a tensor made from a type and sizes.
#include <vkdml/vkdml.hpp>

#include <cstdio>
#include <vector>

int main() {
    auto device = vkdml::Device::create();  // the best device; VKDML_DEVICE=<index or name> picks another
    vkdml::PackedTensorDesc t(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 4});
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{t.desc(), t.desc(), 1, DML_AXIS_DIRECTION_INCREASING,
                                                  false};
    std::vector<float> x = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4}, y(12);
    const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(y))};
    vkdml::Status st = device ? vkdml::execute(*device, {DML_OPERATOR_CUMULATIVE_SUMMATION, &cumsum}, in, out)
                              : vkdml::Status(device.error());
    if (!st) return std::fprintf(stderr, "%s\n", st.error().message.c_str()), 1;
    for (size_t i = 0; i < y.size(); ++i) std::printf("%g%s", double(y[i]), i % 4 == 3 ? "\n" : " ");
    return y == std::vector<float>{2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21} ? 0 : 1;
}
