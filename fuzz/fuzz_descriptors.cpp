// libFuzzer target: random bytes → DirectML operator descriptions → Device::create_operator and, when
// accepted, compile_operator, binding_properties and pass_count. Nothing may crash, hang, leak or hit
// undefined behaviour (built with ASan + UBSan); an accepted description must compile unless the device
// cannot hold it. Runs on the default device, and on a device planning with tiny limits so that the
// window and dispatch-splitting planners see huge tensors at every size.
//
// Input layout (a byte stream; reads past the end give zeros): see read_desc below. Seeds in
// corpus/descriptors were written by make_descriptor_corpus.py. After the description, one byte picks
// OperatorOptions::nan_mode (modulo 3: propagate, ignore, or a value out of range that must be refused)
// and one OperatorOptions::correction (modulo 3: 0, 1 or 2; refused but for the variances).
#include "vkdml/profiling.hpp"
#include "vkdml/testing.hpp"
#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

class Bytes {
public:
    Bytes(const uint8_t* data, size_t size) : p_(data), n_(size) {}
    template <class T>
    T get() {
        T v{};
        const size_t k = std::min(sizeof(T), n_);
        std::memcpy(&v, p_, k);
        p_ += k;
        n_ -= k;
        return v;
    }
    uint8_t byte() { return get<uint8_t>(); }

private:
    const uint8_t* p_;
    size_t n_;
};

std::shared_ptr<vkdml::Device> g_devices[2];

/// One buffer tensor with the arrays it points to.
struct Tensor {
    DML_BUFFER_TENSOR_DESC desc{};
    DML_TENSOR_DESC tensor{DML_TENSOR_TYPE_BUFFER, &desc};
    uint32_t sizes[9] = {};
    uint32_t strides[9] = {};

    /// mode bits: 1 raw sizes, 2 strides given, 4 raw strides, 8 raw total size, 16 raw type/flags/alignment
    void read(Bytes& in, const Tensor* like, bool reduce_like, const uint32_t* axes, uint32_t axis_count) {
        const uint8_t mode = in.byte();
        desc.DataType = static_cast<DML_TENSOR_DATA_TYPE>(mode & 16 ? in.byte() : 1 + in.byte() % 11);
        desc.Flags = static_cast<DML_TENSOR_FLAGS>(mode & 16 ? in.byte() : 0);
        desc.DimensionCount = like && !(mode & 1) ? like->desc.DimensionCount : in.byte() % 10;
        for (uint32_t i = 0; i < 9; ++i) {
            if (like && !(mode & 1)) {
                sizes[i] = like->sizes[i];
                if (reduce_like)
                    for (uint32_t a = 0; a < axis_count; ++a)
                        if (axes[a] == i) sizes[i] = 1;
            } else {
                sizes[i] = mode & 1 ? in.get<uint32_t>() : 1 + in.byte() % 9;
            }
        }
        const uint32_t rank = std::min<uint32_t>(desc.DimensionCount, 8);
        if (mode & 2) {
            for (uint32_t i = 0; i < 9; ++i) strides[i] = mode & 4 ? in.get<uint32_t>() : in.byte() % 64;
            desc.Strides = strides;
        }
        desc.Sizes = in.byte() == 255 ? nullptr : sizes;
        const uint64_t needed = desc.Sizes && desc.DimensionCount >= 1 && desc.DimensionCount <= 8 &&
                                        vkdml::element_size(desc.DataType)
                                    ? DMLCalcBufferTensorSize(desc.DataType, rank, sizes, desc.Strides)
                                    : 0;
        desc.TotalTensorSizeInBytes = mode & 8 ? in.get<uint64_t>() : needed + 4 * (in.byte() % 3);
        desc.GuaranteedBaseOffsetAlignment = mode & 16 ? in.get<uint32_t>() : 0;
    }
};

struct Description {
    Tensor in, out, index;
    uint32_t axes[10] = {};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{};
    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC cumprod{};
    DML_REDUCE_OPERATOR_DESC reduce{};
    DML_ARGMIN_OPERATOR_DESC argmin{};
    DML_ARGMAX_OPERATOR_DESC argmax{};
    VKDML_CUMULATIVE_MAXIMUM_OPERATOR_DESC maximum{};
    VKDML_CUMULATIVE_MINIMUM_OPERATOR_DESC minimum{};
    VKDML_LOG_CUMULATIVE_SUM_EXP_OPERATOR_DESC log_sum_exp{};
    DML_OPERATOR_DESC op{};
};

/// Byte 0: operator (and whether Desc/tensors are null); then function, axis, direction, flags, axes;
/// then the input tensor and the output tensor (derived from the input unless its mode says raw); for
/// the cumulative maximum and minimum, a byte and the index output it asks for.
void read_desc(Bytes& in, Description& d) {
    const uint8_t which = in.byte();
    // 0..4 DirectML's operators, 5 any value, 6..8 vkdml's.
    const DML_OPERATOR_TYPE types[] = {DML_OPERATOR_CUMULATIVE_SUMMATION,
                                       DML_OPERATOR_CUMULATIVE_PRODUCT,
                                       DML_OPERATOR_REDUCE,
                                       DML_OPERATOR_ARGMIN,
                                       DML_OPERATOR_ARGMAX,
                                       DML_OPERATOR_INVALID,
                                       VKDML_OPERATOR_CUMULATIVE_MAXIMUM,
                                       VKDML_OPERATOR_CUMULATIVE_MINIMUM,
                                       VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP};
    const uint32_t pick = which % 9u;
    d.op.Type = pick == 5 ? static_cast<DML_OPERATOR_TYPE>(in.get<uint32_t>()) : types[pick];
    // DirectML's functions 0..11 and 12 (invalid), vkdml's 1000..1004 and 1005 (invalid).
    const uint32_t f = in.byte() % 19u;
    const auto function = static_cast<DML_REDUCE_FUNCTION>(f < 13u ? f : 1000u + (f - 13u));
    const uint32_t axis = in.byte() % 10;
    const auto direction = static_cast<DML_AXIS_DIRECTION>(in.byte() % 3);
    const int32_t exclusive = in.byte() & 1;
    const uint32_t axis_count = in.byte() % 10;
    for (uint32_t i = 0; i < axis_count; ++i) d.axes[i] = in.byte() % 10;
    const uint32_t* axes = which & 64 ? nullptr : d.axes;
    d.in.read(in, nullptr, false, axes, 0);
    const bool reduction = d.op.Type == DML_OPERATOR_REDUCE || d.op.Type == DML_OPERATOR_ARGMIN ||
                           d.op.Type == DML_OPERATOR_ARGMAX;
    d.out.read(in, &d.in, reduction, d.axes, axis_count);
    const bool counts = function == VKDML_REDUCE_FUNCTION_COUNT_NONZERO;
    const bool flags = function == VKDML_REDUCE_FUNCTION_ANY || function == VKDML_REDUCE_FUNCTION_ALL;
    if (reduction && (function <= DML_REDUCE_FUNCTION_ARGMIN || counts || d.op.Type != DML_OPERATOR_REDUCE) &&
        !(in.byte() & 1))
        d.out.desc.DataType = in.byte() & 1 ? DML_TENSOR_DATA_TYPE_UINT32 : DML_TENSOR_DATA_TYPE_INT64;
    if (reduction && flags && d.op.Type == DML_OPERATOR_REDUCE && !(in.byte() & 1))
        d.out.desc.DataType = DML_TENSOR_DATA_TYPE_UINT8;
    const DML_TENSOR_DESC* tin = which & 128 ? nullptr : &d.in.tensor;
    const DML_TENSOR_DESC* tout = &d.out.tensor;
    d.cumsum = {tin, tout, axis, direction, exclusive};
    d.cumprod = {tin, tout, axis, direction, exclusive};
    d.reduce = {function, tin, tout, axis_count, axes};
    d.argmin = {tin, tout, axis_count, axes, direction};
    d.argmax = {tin, tout, axis_count, axes, direction};
    // The selections' index output: a byte says none, one of the input's shape (INT32 or INT64), or a
    // tensor of its own.
    const DML_TENSOR_DESC* tindex = nullptr;
    if (d.op.Type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM || d.op.Type == VKDML_OPERATOR_CUMULATIVE_MINIMUM) {
        const uint8_t index_mode = in.byte();
        if (index_mode & 1) {
            d.index.read(in, &d.in, false, d.axes, 0);
            if (!(index_mode & 8))
                d.index.desc.DataType =
                    index_mode & 4 ? DML_TENSOR_DATA_TYPE_INT32 : DML_TENSOR_DATA_TYPE_INT64;
            tindex = &d.index.tensor;
        }
    }
    d.maximum = {tin, tout, axis, direction, exclusive, tindex};
    d.minimum = {tin, tout, axis, direction, exclusive, tindex};
    d.log_sum_exp = {tin, tout, axis, direction, exclusive};
    if (d.op.Type == VKDML_OPERATOR_CUMULATIVE_MAXIMUM) d.op.Desc = &d.maximum;
    if (d.op.Type == VKDML_OPERATOR_CUMULATIVE_MINIMUM) d.op.Desc = &d.minimum;
    if (d.op.Type == VKDML_OPERATOR_LOG_CUMULATIVE_SUM_EXP) d.op.Desc = &d.log_sum_exp;
    if (d.op.Desc) {
        if ((which & 96) == 96) d.op.Desc = nullptr;
        return;
    }
    switch (d.op.Type) {
    case DML_OPERATOR_CUMULATIVE_SUMMATION: d.op.Desc = &d.cumsum; break;
    case DML_OPERATOR_CUMULATIVE_PRODUCT: d.op.Desc = &d.cumprod; break;
    case DML_OPERATOR_REDUCE: d.op.Desc = &d.reduce; break;
    case DML_OPERATOR_ARGMIN: d.op.Desc = &d.argmin; break;
    case DML_OPERATOR_ARGMAX: d.op.Desc = &d.argmax; break;
    default: d.op.Desc = which & 32 ? nullptr : &d.cumsum; break;
    }
    if ((which & 96) == 96) d.op.Desc = nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    auto dev = vkdml::Device::create();
    vkdml::testing::DeviceOverrides tiny;
    tiny.limits = {1024, 8};
    auto small = vkdml::testing::create_device({}, tiny);
    if (!dev || !small) {
        std::fprintf(stderr, "fuzz_descriptors: no Vulkan device: %s\n",
                     (dev ? small : dev).error().message.c_str());
        std::exit(1);
    }
    g_devices[0] = *dev;
    g_devices[1] = *small;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    Bytes in(data + 1, size - 1);
    const vkdml::Device& dev = *g_devices[data[0] & 1];
    Description d;
    read_desc(in, d);
    vkdml::OperatorOptions options;
    options.nan_mode = static_cast<vkdml::NanMode>(in.byte() % 3);  // 2: out of range, refused
    options.correction = in.byte() % 3u;
    auto op = dev.create_operator(d.op, options);
    if (!op) {
        if (op.error().message.empty()) __builtin_trap();  // every refusal says why
        return 0;
    }
    const auto flags = static_cast<DML_EXECUTION_FLAGS>(in.byte() & 7);
    auto compiled = dev.compile_operator(*op, flags);
    if (!compiled) {
        // Only the device may refuse an accepted description (out of memory, a limit).
        const vkdml::ErrorCode c = compiled.error().code;
        if (c != vkdml::ErrorCode::unsupported_device && c != vkdml::ErrorCode::out_of_memory)
            __builtin_trap();
        return 0;
    }
    const DML_BINDING_PROPERTIES props = compiled->binding_properties();
    if (props.PersistentResourceSize != 0 || vkdml::pass_count(*compiled) == 0) __builtin_trap();
    return 0;
}
