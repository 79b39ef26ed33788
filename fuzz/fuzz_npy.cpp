// fuzz/fuzz_npy.cpp — libFuzzer target for the .npy reader (tools/npy/npy.cpp).
//
// Feeds arbitrary bytes to vkdml::npy::parse and traps when a result breaks what the reader promises:
// a refusal is one line "<file name>: ..." with code invalid_argument; an accepted array has rank 1..8,
// dimensions and at most 2^32 - 1 elements (none where a dimension is 0), a known type, exactly
// data_bytes() bytes of data (the tail of the input), and one stride per dimension, packed unless it is
// zero-size. The same bytes as a file must get the same answer from npy::read (read_header + read_data,
// what the vkdml tool uses): the same array or the same message. An accepted array is also written with
// npy::write and read back with npy::read and npy::parse: the same type, shape and bytes.
//
// Built by the `fuzz` preset (fuzz/CMakeLists.txt: CTest test fuzz-npy), linked with the reader and the
// library; by hand: cmake --preset fuzz && cmake --build --preset fuzz, then
//   mkdir -p NEW_CORPUS_DIR && build/fuzz/fuzz/fuzz_npy -max_total_time=60 -dict=fuzz/npy.dict \
//       NEW_CORPUS_DIR fuzz/corpus/npy
// libFuzzer adds new inputs to the first directory: keep the committed seeds second. The target writes and
// removes /tmp/vkdml_fuzz_npy_<pid>.{in,out}.npy. The seeds are made by fuzz/make_corpus.py.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "npy/npy.hpp"

namespace {

constexpr uint64_t kMaxCount = 4294967295u;
// The input is also written to this file, so the name in messages is the same for parse and read.
const std::string kName = "/tmp/vkdml_fuzz_npy_" + std::to_string(::getpid()) + ".in.npy";
const std::string kOutput = "/tmp/vkdml_fuzz_npy_" + std::to_string(::getpid()) + ".out.npy";

void require(bool condition) {
    if (!condition) __builtin_trap();
}

void check_refusal(const vkdml::Error& error) {
    require(error.code == vkdml::ErrorCode::invalid_argument);
    require(error.message.size() > kName.size() + 2);
    require(error.message.compare(0, kName.size() + 2, kName + ": ") == 0);
    require(error.message.find('\n') == std::string::npos);
}

void check_array(const vkdml::npy::Array& array, std::span<const std::byte> input) {
    require(vkdml::element_size(array.type) != 0);
    require(!array.shape.empty() && array.shape.size() <= 8);
    bool empty = false;
    for (uint32_t n : array.shape) empty = empty || n == 0;
    uint64_t count = empty ? 0 : 1;
    for (uint32_t n : array.shape) {
        count *= n;  // both factors below 2^32 (checked on the previous step): no wrap
        require(count <= kMaxCount);
    }
    require(array.element_count() == count);
    require(array.data_bytes() == count * vkdml::element_size(array.type));
    require(array.data.size() == array.data_bytes());
    require(array.data_offset <= input.size() && input.size() - array.data_offset == array.data.size());
    // The file's bytes, each element's reversed where the file is big-endian.
    const uint32_t size = vkdml::element_size(array.type);
    require(!array.big_endian || size > 1);
    for (size_t at = 0; at < array.data.size(); ++at) {
        const size_t in_element = at % size, element = at - in_element;
        const size_t from = array.big_endian ? element + (size - 1 - in_element) : at;
        const std::byte stored = input[array.data_offset + from];
        // A bool array's bytes are 0 or 1, any non-zero byte read as 1.
        require(array.data[at] == (array.boolean ? static_cast<std::byte>(stored != std::byte{0}) : stored));
    }
    require(!array.boolean || array.type == DML_TENSOR_DATA_TYPE_UINT8);
    const std::vector<uint32_t> strides = array.strides();
    require(strides.size() == array.shape.size());
    if (empty) return;  // (no element to place)
    // A packed layout (C or Fortran): the last element is at offset count - 1.
    uint64_t last = 0;
    for (size_t i = 0; i < strides.size(); ++i) last += uint64_t{strides[i]} * (array.shape[i] - 1);
    require(last == count - 1);
}

std::vector<std::byte> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(text.size());
    if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
    return out;
}

bool same_array(const vkdml::npy::Array& a, const vkdml::npy::Array& b) {
    return a.type == b.type && a.shape == b.shape && a.fortran_order == b.fortran_order &&
           a.big_endian == b.big_endian && a.boolean == b.boolean && a.data_offset == b.data_offset &&
           a.data == b.data;
}

// npy::read of the input as a file answers as npy::parse did.
void check_file_reader(std::span<const std::byte> input, const vkdml::Result<vkdml::npy::Array>& parsed) {
    {
        std::ofstream file(kName, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
        require(file.good());
    }
    auto read = vkdml::npy::read(kName);
    require(read.has_value() == parsed.has_value());
    if (read)
        require(same_array(*read, *parsed));
    else
        require(read.error().message == parsed.error().message);
    ::unlink(kName.c_str());
}

void check_round_trip(const vkdml::npy::Array& array) {
    require(vkdml::npy::write(kOutput, array.type, array.shape, array.data).ok());
    auto reread = vkdml::npy::read(kOutput);
    require(reread.has_value());
    require(reread->type == array.type && reread->shape == array.shape && !reread->fortran_order &&
            !reread->big_endian);
    require(reread->data == array.data);
    auto reparsed = vkdml::npy::parse(file_bytes(kOutput), kName);
    require(reparsed.has_value());
    require(same_array(*reparsed, *reread));
    require(reparsed->data_offset % 64 == 0);
    ::unlink(kOutput.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const std::byte> input(reinterpret_cast<const std::byte*>(data), size);
    auto array = vkdml::npy::parse(input, kName);
    check_file_reader(input, array);
    if (!array) {
        check_refusal(array.error());
        return 0;
    }
    check_array(*array, input);
    check_round_trip(*array);
    return 0;
}
