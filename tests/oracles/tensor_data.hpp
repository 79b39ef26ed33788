// tensor_data.hpp — TestTensor: a host tensor (type, sizes, explicit strides, buffer bytes) for tests.
//
// A TestTensor holds the bytes of a whole DirectML buffer range: element (i0, ..., in-1) lives at
// element offset Σ i_d * strides[d], and bytes.size() is TotalTensorSizeInBytes (DMLCalcBufferTensorSize,
// plus any extra tail asked for). Elements are read and written as double (floats: exactly for
// FLOAT16/FLOAT32/FLOAT64 storage; writes round once to the storage type), as a raw bit pattern
// (uint64, zero-extended) or as an int64 (sign-extended for signed types). Nothing here depends on
// the library beyond the descriptor mirror, so it can serve as part of the test oracle.
#pragma once

#include "vkdml/directml.h"
#include "vkdml/vkdml.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vkdml_test {

// ---- data type facts (independent of the library) ---------------------------------------------

/// Bytes per element (0 for UNKNOWN).
uint32_t type_size(DML_TENSOR_DATA_TYPE type);
/// Bits per element.
inline uint32_t type_bits(DML_TENSOR_DATA_TYPE type) {
    return 8 * type_size(type);
}
/// Float and signed-integer types: the library's public traits (vkdml.hpp).
using vkdml::is_float_type;
using vkdml::is_signed_integer_type;
/// DirectML suffix: "FLOAT32", "INT8", ...
const char* type_name(DML_TENSOR_DATA_TYPE type);
/// The 11 numeric types, in DML_TENSOR_DATA_TYPE order.
const std::vector<DML_TENSOR_DATA_TYPE>& all_types();
/// One type per element width and kind (8-, 16-, 32- and 64-bit integers; 16-, 32- and 64-bit floats):
/// what host code that sees only bytes and partial states (windows, dispatch limits) tells apart.
const std::vector<DML_TENSOR_DATA_TYPE>& width_types();
/// Mask of the low type_bits(type) bits.
uint64_t type_mask(DML_TENSOR_DATA_TYPE type);

// ---- index helpers -----------------------------------------------------------------------------

/// Product of sizes (the element count).
uint64_t element_count(const std::vector<uint32_t>& sizes);
/// Advances a row-major multi-index (last dimension fastest); false after the last one (index wraps to 0).
bool next_index(std::vector<uint32_t>& index, const std::vector<uint32_t>& sizes);
/// Multi-index of the row-major logical position `linear`.
std::vector<uint32_t> unravel(uint64_t linear, const std::vector<uint32_t>& sizes);
/// "{a, b, c}".
std::string to_string(const std::vector<uint32_t>& values);

// ---- the tensor --------------------------------------------------------------------------------

struct TestTensor {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;  // always explicit, in elements
    std::vector<std::byte> bytes;   // the whole buffer range; size() == TotalTensorSizeInBytes

    uint32_t rank() const { return static_cast<uint32_t>(sizes.size()); }
    uint64_t count() const { return element_count(sizes); }
    uint32_t element_size() const { return type_size(type); }
    uint64_t total_bytes() const { return bytes.size(); }

    /// Element offset (not bytes) of a multi-index.
    uint64_t offset_of(const std::vector<uint32_t>& index) const;

    // At an element offset into the buffer.
    double get_double(uint64_t offset) const;        // floats exactly; integers converted
    void set_double(uint64_t offset, double value);  // floats rounded once; integers: llround, wrapped
    uint64_t get_bits(uint64_t offset) const;        // raw bit pattern, zero-extended
    void set_bits(uint64_t offset, uint64_t bits);   // low type_bits(type) bits stored
    int64_t get_int(uint64_t offset) const;          // sign-extended for signed types, else zero-extended
    void set_int(uint64_t offset, int64_t value);    // stored modulo 2^bits

    // At a multi-index.
    double get_double_at(const std::vector<uint32_t>& index) const { return get_double(offset_of(index)); }
    void set_double_at(const std::vector<uint32_t>& index, double v) { set_double(offset_of(index), v); }
    uint64_t get_bits_at(const std::vector<uint32_t>& index) const { return get_bits(offset_of(index)); }
    void set_bits_at(const std::vector<uint32_t>& index, uint64_t b) { set_bits(offset_of(index), b); }
    int64_t get_int_at(const std::vector<uint32_t>& index) const { return get_int(offset_of(index)); }
    void set_int_at(const std::vector<uint32_t>& index, int64_t v) { set_int(offset_of(index), v); }

    /// One flag per buffer byte: true where some element of the tensor lives (the rest is padding).
    std::vector<bool> element_byte_mask() const;
    /// Human-readable element value at an offset (integers as integers, floats with full precision).
    std::string format_element(uint64_t offset) const;
    /// "FLOAT32 sizes {..} strides {..} bytes N".
    std::string describe() const;
};

/// The values as a tensor of `type` stores them (set_double then get_double): floats rounded once,
/// integers modulo 2^bits (504 reads -8 as INT8 and 248 as UINT8).
std::vector<double> stored_values(DML_TENSOR_DATA_TYPE type, const std::vector<double>& values);

// ---- builders ----------------------------------------------------------------------------------

/// A tensor with the given explicit strides, zero-filled; bytes = DMLCalcBufferTensorSize + extra_tail_bytes.
TestTensor make_tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes, std::vector<uint32_t> strides,
                       uint64_t extra_tail_bytes = 0);
/// Packed row-major strides for sizes (last dimension fastest).
std::vector<uint32_t> packed_strides(const std::vector<uint32_t>& sizes);
/// Row-major with gaps: strides[n-1] = 1 + pads[n-1]; strides[d] = strides[d+1] * sizes[d+1] + pads[d].
std::vector<uint32_t> padded_strides(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& pads);
/// Packed strides where memory order follows `order` (outermost first): order {n-1, ..., 0} is
/// Fortran (column-major) order. pads (optional, indexed by dimension) add gaps as in padded_strides.
std::vector<uint32_t> ordered_strides(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& order,
                                      const std::vector<uint32_t>& pads = {});
/// Strides packed over the dimensions not in `zero_dims_mask` (bit d set: stride 0 on dimension d).
std::vector<uint32_t> broadcast_strides(const std::vector<uint32_t>& sizes, uint32_t zero_dims_mask);

TestTensor make_packed(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes);
TestTensor make_padded(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                       const std::vector<uint32_t>& pads, uint64_t extra_tail_bytes = 0);
/// Fortran-like layout: dimension 0 fastest (the reverse of row-major), optionally padded.
TestTensor make_fortran(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                        const std::vector<uint32_t>& pads = {});
/// Memory order given by a permutation of the dimensions (outermost first).
TestTensor make_permuted(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                         const std::vector<uint32_t>& order, const std::vector<uint32_t>& pads = {});
TestTensor make_broadcast(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                          uint32_t zero_dims_mask);

/// True when no two elements share an address (what an output layout needs).
bool is_injective(const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& strides);

// ---- descriptor view ---------------------------------------------------------------------------

/// DML_BUFFER_TENSOR_DESC / DML_TENSOR_DESC of a TestTensor. Owns copies of sizes and strides, so it
/// stays valid after the tensor changes; it points into itself, hence neither copyable nor movable
/// (return it as a prvalue: `TensorDescView v(t);` or `auto v = TensorDescView(t);`).
class TensorDescView {
public:
    explicit TensorDescView(const TestTensor& t, DML_TENSOR_FLAGS flags = DML_TENSOR_FLAG_NONE,
                            uint32_t guaranteed_base_offset_alignment = 0);
    TensorDescView(const TensorDescView&) = delete;
    TensorDescView& operator=(const TensorDescView&) = delete;

    const DML_TENSOR_DESC* get() const { return &tensor_; }
    const DML_BUFFER_TENSOR_DESC& buffer() const { return buffer_; }

private:
    std::vector<uint32_t> sizes_, strides_;
    DML_BUFFER_TENSOR_DESC buffer_{};
    DML_TENSOR_DESC tensor_{};
};

// ---- deterministic random fill -----------------------------------------------------------------

/// Every byte of the buffer (padding included) from the seed.
void fill_random_bytes(TestTensor& t, uint64_t seed);
/// Every element position (padding untouched): integers uniformly over their FULL range (so sums
/// wrap); FLOAT32/FLOAT64 uniform in [lo, hi] (rounded to the type); FLOAT16 uniform in [lo, hi]
/// rounded to binary16, so each stored value is exactly the half the reference reads. Float values
/// that would be subnormal in the type are stored as 0.
void fill_random(TestTensor& t, uint64_t seed, double lo = -1.0, double hi = 1.0);
/// Every element position gets a uniformly chosen integer in [lo, hi] (floats hold it exactly when
/// representable; integer types store it modulo 2^bits). Float sums of such values are often exact.
void fill_random_integers(TestTensor& t, uint64_t seed, int64_t lo, int64_t hi);
/// Integer types: every element position uniformly over the odd values of the full range.
void fill_random_odd(TestTensor& t, uint64_t seed);
/// Every element position gets values[i] with probability weights[i] / Σ weights (floats store the
/// value rounded once, integers llround modulo 2^bits).
void fill_choice(TestTensor& t, uint64_t seed, const std::vector<double>& values,
                 const std::vector<double>& weights);

/// A packed tensor's sizes and the one axis a test scans or reduces, seen as [outer, length, inner].
struct AxisShape {
    std::vector<uint32_t> sizes;
    uint32_t axis = 0;
    uint64_t length() const { return sizes[axis]; }
    uint64_t outer() const {
        uint64_t n = 1;
        for (uint32_t d = 0; d < axis; ++d) n *= sizes[d];
        return n;
    }
    uint64_t inner() const {
        uint64_t n = 1;
        for (size_t d = axis + 1; d < sizes.size(); ++d) n *= sizes[d];
        return n;
    }
};

}  // namespace vkdml_test
