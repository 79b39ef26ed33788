// tensor_data.cpp — TestTensor element access, layout builders, descriptor view and random fill.
#include "tensor_data.hpp"

#include "half.hpp"
#include "vkdml/vkdml.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace vkdml_test {

uint32_t type_size(DML_TENSOR_DATA_TYPE type) {
    return vkdml::element_size(type);
}

const char* type_name(DML_TENSOR_DATA_TYPE type) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    default: return "UNKNOWN";
    }
}

const std::vector<DML_TENSOR_DATA_TYPE>& all_types() {
    static const std::vector<DML_TENSOR_DATA_TYPE> types = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32,
        DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_INT32,
        DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64,
        DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT64,
    };
    return types;
}

const std::vector<DML_TENSOR_DATA_TYPE>& width_types() {
    static const std::vector<DML_TENSOR_DATA_TYPE> types = {
        DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_FLOAT16,
        DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT64,
        DML_TENSOR_DATA_TYPE_FLOAT64,
    };
    return types;
}

uint64_t type_mask(DML_TENSOR_DATA_TYPE type) {
    const uint32_t bits = type_bits(type);
    return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
}

// ---- index helpers -----------------------------------------------------------------------------

uint64_t element_count(const std::vector<uint32_t>& sizes) {
    uint64_t n = 1;
    for (uint32_t s : sizes) n *= s;
    return n;
}

bool next_index(std::vector<uint32_t>& index, const std::vector<uint32_t>& sizes) {
    for (size_t d = sizes.size(); d-- > 0;) {
        if (++index[d] < sizes[d]) return true;
        index[d] = 0;
    }
    return false;
}

std::vector<uint32_t> unravel(uint64_t linear, const std::vector<uint32_t>& sizes) {
    std::vector<uint32_t> index(sizes.size(), 0);
    for (size_t d = sizes.size(); d-- > 0;) {
        index[d] = static_cast<uint32_t>(linear % sizes[d]);
        linear /= sizes[d];
    }
    return index;
}

std::string to_string(const std::vector<uint32_t>& values) {
    std::string s = "{";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(values[i]);
    }
    return s + "}";
}

// ---- element access ----------------------------------------------------------------------------

uint64_t TestTensor::offset_of(const std::vector<uint32_t>& index) const {
    uint64_t offset = 0;
    for (size_t d = 0; d < sizes.size(); ++d) offset += uint64_t{index[d]} * strides[d];
    return offset;
}

uint64_t TestTensor::get_bits(uint64_t offset) const {
    const uint32_t es = element_size();
    const uint64_t at = offset * es;
    if (at + es > bytes.size()) throw std::out_of_range("TestTensor::get_bits past the end: " + describe());
    uint64_t v = 0;  // little-endian hosts only (x86-64, aarch64): low bytes first
    std::memcpy(&v, bytes.data() + at, es);
    return v;
}

void TestTensor::set_bits(uint64_t offset, uint64_t value) {
    const uint32_t es = element_size();
    const uint64_t at = offset * es;
    if (at + es > bytes.size()) throw std::out_of_range("TestTensor::set_bits past the end: " + describe());
    value &= type_mask(type);
    std::memcpy(bytes.data() + at, &value, es);
}

int64_t TestTensor::get_int(uint64_t offset) const {
    const uint64_t bits = get_bits(offset);
    const uint32_t nbits = type_bits(type);
    if (is_signed_integer_type(type) && nbits < 64 && (bits >> (nbits - 1)) & 1u)
        return static_cast<int64_t>(bits | ~type_mask(type));
    return static_cast<int64_t>(bits);
}

void TestTensor::set_int(uint64_t offset, int64_t value) {
    set_bits(offset, static_cast<uint64_t>(value));
}

double TestTensor::get_double(uint64_t offset) const {
    const uint64_t bits = get_bits(offset);
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return half_to_double(static_cast<uint16_t>(bits));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case DML_TENSOR_DATA_TYPE_FLOAT64: return std::bit_cast<double>(bits);
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_UINT64: return static_cast<double>(bits);
    default: return static_cast<double>(get_int(offset));
    }
}

void TestTensor::set_double(uint64_t offset, double value) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: set_bits(offset, half_from_double(value)); return;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
        set_bits(offset, std::bit_cast<uint32_t>(static_cast<float>(value)));  // IEEE: nearest even
        return;
    case DML_TENSOR_DATA_TYPE_FLOAT64: set_bits(offset, std::bit_cast<uint64_t>(value)); return;
    default: {
        // Integers: the nearest integer, reduced modulo 2^64 then 2^bits (only for small test values).
        const double r = std::nearbyint(value);
        const int64_t i = std::fabs(r) < 0x1p63 ? static_cast<int64_t>(r) : 0;
        set_int(offset, i);
        return;
    }
    }
}

std::vector<bool> TestTensor::element_byte_mask() const {
    std::vector<bool> mask(bytes.size(), false);
    const uint32_t es = element_size();
    std::vector<uint32_t> index(sizes.size(), 0);
    do {
        const uint64_t at = offset_of(index) * es;
        for (uint32_t b = 0; b < es; ++b) mask.at(at + b) = true;
    } while (next_index(index, sizes));
    return mask;
}

std::string TestTensor::format_element(uint64_t offset) const {
    std::ostringstream s;
    if (is_float_type(type)) {
        s << std::setprecision(17) << get_double(offset);
        s << " (0x" << std::hex << get_bits(offset) << ")";
    } else if (is_signed_integer_type(type)) {
        s << get_int(offset);
    } else {
        s << get_bits(offset);
    }
    return s.str();
}

std::string TestTensor::describe() const {
    return std::string(type_name(type)) + " sizes " + to_string(sizes) + " strides " + to_string(strides) +
           " bytes " + std::to_string(bytes.size());
}

// ---- builders ----------------------------------------------------------------------------------

TestTensor make_tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes, std::vector<uint32_t> strides,
                       uint64_t extra_tail_bytes) {
    if (sizes.size() != strides.size()) throw std::invalid_argument("make_tensor: sizes/strides rank differ");
    TestTensor t;
    t.type = type;
    t.sizes = std::move(sizes);
    t.strides = std::move(strides);
    const uint64_t need = DMLCalcBufferTensorSize(type, t.rank(), t.sizes.data(), t.strides.data());
    t.bytes.assign(need + extra_tail_bytes, std::byte{0});
    return t;
}

std::vector<uint32_t> packed_strides(const std::vector<uint32_t>& sizes) {
    return padded_strides(sizes, std::vector<uint32_t>(sizes.size(), 0));
}

std::vector<uint32_t> padded_strides(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& pads) {
    std::vector<uint32_t> order(sizes.size());
    for (uint32_t d = 0; d < order.size(); ++d) order[d] = d;
    return ordered_strides(sizes, order, pads);
}

std::vector<uint32_t> ordered_strides(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& order,
                                      const std::vector<uint32_t>& pads) {
    std::vector<uint32_t> strides(sizes.size(), 0);
    uint64_t stride = 1;
    for (size_t k = order.size(); k-- > 0;) {
        const uint32_t d = order[k];
        // The innermost dimension's pad is a gap between its elements; the others' pads are gaps
        // after each block of the dimensions inside them.
        stride += pads.empty() ? 0 : pads.at(d);
        if (stride > std::numeric_limits<uint32_t>::max())
            throw std::overflow_error("ordered_strides: too big");
        strides.at(d) = static_cast<uint32_t>(stride);
        stride *= sizes.at(d);
    }
    return strides;
}

std::vector<uint32_t> broadcast_strides(const std::vector<uint32_t>& sizes, uint32_t zero_dims_mask) {
    std::vector<uint32_t> strides(sizes.size(), 0);
    uint64_t stride = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        if ((zero_dims_mask >> d) & 1u) continue;
        strides[d] = static_cast<uint32_t>(stride);
        stride *= sizes[d];
    }
    return strides;
}

TestTensor make_packed(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes) {
    return make_tensor(type, sizes, packed_strides(sizes));
}

TestTensor make_padded(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                       const std::vector<uint32_t>& pads, uint64_t extra_tail_bytes) {
    return make_tensor(type, sizes, padded_strides(sizes, pads), extra_tail_bytes);
}

TestTensor make_fortran(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                        const std::vector<uint32_t>& pads) {
    std::vector<uint32_t> order(sizes.size());
    for (uint32_t k = 0; k < order.size(); ++k) order[k] = static_cast<uint32_t>(order.size() - 1 - k);
    return make_tensor(type, sizes, ordered_strides(sizes, order, pads));
}

TestTensor make_permuted(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                         const std::vector<uint32_t>& order, const std::vector<uint32_t>& pads) {
    return make_tensor(type, sizes, ordered_strides(sizes, order, pads));
}

std::vector<double> stored_values(DML_TENSOR_DATA_TYPE type, const std::vector<double>& values) {
    TestTensor t = make_packed(type, {static_cast<uint32_t>(values.size())});
    std::vector<double> out;
    for (uint64_t i = 0; i < values.size(); ++i) {
        t.set_double(i, values[i]);
        out.push_back(t.get_double(i));
    }
    return out;
}

TestTensor make_broadcast(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                          uint32_t zero_dims_mask) {
    return make_tensor(type, sizes, broadcast_strides(sizes, zero_dims_mask));
}

bool is_injective(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& strides) {
    uint64_t last = 0;
    for (size_t d = 0; d < sizes.size(); ++d) last += uint64_t{sizes[d] - 1} * strides[d];
    std::vector<bool> seen(last + 1, false);
    std::vector<uint32_t> index(sizes.size(), 0);
    do {
        uint64_t offset = 0;
        for (size_t d = 0; d < sizes.size(); ++d) offset += uint64_t{index[d]} * strides[d];
        if (seen[offset]) return false;
        seen[offset] = true;
    } while (next_index(index, sizes));
    return true;
}

// ---- descriptor view ---------------------------------------------------------------------------

TensorDescView::TensorDescView(const TestTensor& t, DML_TENSOR_FLAGS flags,
                               uint32_t guaranteed_base_offset_alignment)
    : sizes_(t.sizes), strides_(t.strides) {
    buffer_.DataType = t.type;
    buffer_.Flags = flags;
    buffer_.DimensionCount = static_cast<uint32_t>(sizes_.size());
    buffer_.Sizes = sizes_.data();
    buffer_.Strides = strides_.data();
    buffer_.TotalTensorSizeInBytes = t.bytes.size();
    buffer_.GuaranteedBaseOffsetAlignment = guaranteed_base_offset_alignment;
    tensor_.Type = DML_TENSOR_TYPE_BUFFER;
    tensor_.Desc = &buffer_;
}

// ---- random fill -------------------------------------------------------------------------------

namespace {

double min_normal(DML_TENSOR_DATA_TYPE type) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return 0x1p-14;
    case DML_TENSOR_DATA_TYPE_FLOAT32: return static_cast<double>(std::numeric_limits<float>::min());
    default: return std::numeric_limits<double>::min();
    }
}

}  // namespace

void fill_random_bytes(TestTensor& t, uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < t.bytes.size(); i += 8) {
        const uint64_t r = rng();
        const size_t n = std::min<size_t>(8, t.bytes.size() - i);
        std::memcpy(t.bytes.data() + i, &r, n);
    }
}

namespace {

// Calls fill(offset) for the element offset of every logical position, in row-major order (padding
// untouched; a zero-stride element is visited once per position that maps to it).
template <class Fill>
void for_each_element(const TestTensor& t, Fill&& fill) {
    std::vector<uint32_t> index(t.sizes.size(), 0);
    do fill(t.offset_of(index));
    while (next_index(index, t.sizes));
}

}  // namespace

void fill_random(TestTensor& t, uint64_t seed, double lo, double hi) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(lo, hi);
    for_each_element(t, [&](uint64_t offset) {
        if (is_float_type(t.type)) {
            t.set_double(offset, uniform(rng));  // rounds to FLOAT32 / FLOAT16 once
            // No subnormals: devices may flush them, and SPEC does not say what they must do.
            if (std::fabs(t.get_double(offset)) < min_normal(t.type)) t.set_double(offset, 0.0);
        } else {
            t.set_bits(offset, rng());  // full range of the type: low bits of a uniform 64-bit word
        }
    });
}

void fill_random_integers(TestTensor& t, uint64_t seed, int64_t lo, int64_t hi) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int64_t> uniform(lo, hi);
    for_each_element(t, [&](uint64_t offset) {
        const int64_t v = uniform(rng);
        if (is_float_type(t.type))
            t.set_double(offset, static_cast<double>(v));
        else
            t.set_int(offset, v);
    });
}

void fill_random_odd(TestTensor& t, uint64_t seed) {
    if (is_float_type(t.type)) throw std::invalid_argument("fill_random_odd: integer types only");
    std::mt19937_64 rng(seed);
    for_each_element(t, [&](uint64_t offset) { t.set_bits(offset, rng() | 1u); });
}

void fill_choice(TestTensor& t, uint64_t seed, const std::vector<double>& values,
                 const std::vector<double>& weights) {
    if (values.size() != weights.size() || values.empty())
        throw std::invalid_argument("fill_choice: one weight per value");
    std::mt19937_64 rng(seed);
    std::discrete_distribution<size_t> choose(weights.begin(), weights.end());
    for_each_element(t, [&](uint64_t offset) { t.set_double(offset, values[choose(rng)]); });
}

}  // namespace vkdml_test
