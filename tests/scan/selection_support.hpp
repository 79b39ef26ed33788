// What the tests of vkdml's cumulative maximum and minimum share (test_scan_selection.cpp, their values;
// test_scan_selection_index.cpp, their index output): a scan's parameters, its name in messages and the
// order of a type's bits.
#pragma once

#include "vkdml/vkdml.hpp"

#include <cstdint>
#include <string>

namespace vkdml_test {

/// Which selection runs, in which direction, inclusive or exclusive.
struct SelectionScan {
    bool maximum = true;
    DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING;
    bool exclusive = false;
};

/// "FLOAT32 maximum exclusive decreasing": the type and the scan, for test messages.
inline std::string describe(DML_TENSOR_DATA_TYPE type, const SelectionScan& s) {
    return std::string(vkdml::to_string(type)) + (s.maximum ? " maximum" : " minimum") +
           (s.exclusive ? " exclusive" : "") + (s.direction ? " decreasing" : "");
}

/// a < b for two integer elements of `type` given as their bits (zero-extended, as TestTensor::get_bits
/// reads them): signed types compared sign-extended, 64-bit ones exactly.
inline bool less_in_type(DML_TENSOR_DATA_TYPE type, uint64_t a, uint64_t b) {
    if (!vkdml::is_signed_integer_type(type)) return a < b;
    const uint32_t shift = 64 - 8 * vkdml::element_size(type);
    return (static_cast<int64_t>(a << shift) >> shift) < (static_cast<int64_t>(b << shift) >> shift);
}

}  // namespace vkdml_test
