// tests/tools/test_npy.cpp — the .npy reader and writer of tools/npy/npy.hpp: round trips, hand-built files
// checked field by field, every rejection, and the temporary-file-then-rename write.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "npy/npy.hpp"
#include "npy/platform.hpp"
#include "os_support.hpp"

namespace fs = std::filesystem;
using vkdml::ErrorCode;
using vkdml::npy::Array;

namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

std::vector<std::byte> pattern(size_t size) {
    std::vector<std::byte> out(size);
    for (size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>((i * 37 + 11) & 0xff);
    return out;
}

// A .npy image: magic, version major.0, little-endian header length (2 bytes for 1.x, else 4), header, data.
std::vector<std::byte> npy_image(int major, std::string_view header,
                                 const std::vector<std::byte>& data = {}) {
    std::string preamble = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
    for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
        preamble += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    auto out = bytes_of(preamble + std::string(header));
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

// A version 1.0 image whose header is `{'descr': DESCR, 'fortran_order': False, 'shape': SHAPE, }`.
std::vector<std::byte> simple_image(std::string_view descr, std::string_view shape,
                                    const std::vector<std::byte>& data = {}) {
    return npy_image(1,
                     "{'descr': '" + std::string(descr) +
                         "', 'fortran_order': False, 'shape': " + std::string(shape) + ", }\n",
                     data);
}

// Checks that parsing fails with invalid_argument and a one-line message naming the file and `problem`.
void check_rejected(const std::vector<std::byte>& image, const std::string& problem) {
    auto result = vkdml::npy::parse(image, "in.npy");
    REQUIRE_FALSE(result);
    CAPTURE(result.error().message);
    CHECK(result.error().code == ErrorCode::invalid_argument);
    CHECK(result.error().message.rfind("in.npy: ", 0) == 0);
    CHECK(result.error().message.find(problem) != std::string::npos);
    CHECK(result.error().message.find('\n') == std::string::npos);
}

// A fresh empty directory, removed with its contents at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path =
            fs::temp_directory_path() / ("vkdml_test_npy_" + std::to_string(vkdml::platform::process_id()) +
                                         "_" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(path))
            names.push_back(entry.path().filename().string());
        return names;
    }
};

std::vector<std::byte> file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes_of(text);
}

struct TypeCase {
    DML_TENSOR_DATA_TYPE type;
    const char* descr;
    size_t size;
};

const TypeCase kTypes[] = {
    {DML_TENSOR_DATA_TYPE_FLOAT16, "<f2", 2}, {DML_TENSOR_DATA_TYPE_FLOAT32, "<f4", 4},
    {DML_TENSOR_DATA_TYPE_FLOAT64, "<f8", 8}, {DML_TENSOR_DATA_TYPE_INT8, "|i1", 1},
    {DML_TENSOR_DATA_TYPE_INT16, "<i2", 2},   {DML_TENSOR_DATA_TYPE_INT32, "<i4", 4},
    {DML_TENSOR_DATA_TYPE_INT64, "<i8", 8},   {DML_TENSOR_DATA_TYPE_UINT8, "|u1", 1},
    {DML_TENSOR_DATA_TYPE_UINT16, "<u2", 2},  {DML_TENSOR_DATA_TYPE_UINT32, "<u4", 4},
    {DML_TENSOR_DATA_TYPE_UINT64, "<u8", 8},
};

}  // namespace

TEST_CASE("npy: every dtype round-trips through write and read", "[npy]") {
    TempDir dir;
    for (const TypeCase& t : kTypes) {
        CAPTURE(t.descr);
        const std::vector<uint32_t> shape = {2, 3};
        const auto data = pattern(6 * t.size);
        const fs::path path = dir.path / (std::string(t.descr + 1) + ".npy");
        REQUIRE(vkdml::npy::write(path.string(), t.type, shape, data));

        const auto raw = file_bytes(path);
        const std::string header =
            "{'descr': '" + std::string(t.descr) + "', 'fortran_order': False, 'shape': (2, 3), }";
        REQUIRE(raw.size() == 128 + data.size());
        CHECK(std::memcmp(raw.data(), "\x93NUMPY\x01\x00\x76\x00", 10) == 0);  // format 1.0, header 118 bytes
        CHECK(std::memcmp(raw.data() + 10, header.data(), header.size()) == 0);
        CHECK(raw[127] == std::byte{'\n'});

        auto array = vkdml::npy::read(path.string());
        REQUIRE(array);
        CHECK(array->type == t.type);
        CHECK(array->shape == shape);
        CHECK_FALSE(array->fortran_order);
        CHECK(array->data == data);
    }
    CHECK(dir.entries().size() == std::size(kTypes));
}

TEST_CASE("npy: the writer's bytes are exactly NumPy's format 1.0 layout", "[npy]") {
    TempDir dir;
    const std::vector<uint32_t> shape = {3, 4};
    const auto data = pattern(48);
    const fs::path path = dir.path / "a.npy";
    REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_FLOAT32, shape, data));
    // 10 preamble bytes + 59 dict characters + 58 spaces + newline = 128, a multiple of 64.
    auto expected = npy_image(
        1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" + std::string(58, ' ') + "\n", data);
    CHECK(file_bytes(path) == expected);

    SECTION("rank 1 writes a one-element tuple, rank 8 all eight dimensions") {
        // 10 + 57 dict characters + 60 spaces + 1 = 128.
        REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_UINT8, std::vector<uint32_t>{5},
                                  pattern(5)));
        CHECK(file_bytes(path) == npy_image(1,
                                            "{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }" +
                                                std::string(60, ' ') + "\n",
                                            pattern(5)));
        const std::vector<uint32_t> rank8 = {1, 2, 1, 3, 1, 1, 2, 1};
        REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_INT16, rank8, pattern(24)));
        auto array = vkdml::npy::read(path.string());
        REQUIRE(array);
        CHECK(array->shape == rank8);
        CHECK(array->data == pattern(24));
    }
}

TEST_CASE("npy: hand-built version 1.0, 2.0 and 3.0 files decode field by field", "[npy]") {
    const std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }          \n";
    const auto data = pattern(24);
    for (int major : {1, 2, 3}) {
        CAPTURE(major);
        auto array = vkdml::npy::parse(npy_image(major, header, data), "x.npy");
        REQUIRE(array);
        CHECK(array->type == DML_TENSOR_DATA_TYPE_INT32);
        CHECK(array->shape == std::vector<uint32_t>{2, 3});
        CHECK_FALSE(array->fortran_order);
        CHECK(array->data == data);
        CHECK(array->element_count() == 6);
        CHECK(array->strides() == std::vector<uint32_t>{3, 1});
    }
}

TEST_CASE("npy: Fortran order gives column-major strides, C order row-major", "[npy]") {
    const auto data = pattern(24 * 8);
    auto fortran = vkdml::npy::parse(
        npy_image(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3, 4), }\n", data), "f");
    REQUIRE(fortran);
    CHECK(fortran->type == DML_TENSOR_DATA_TYPE_FLOAT64);
    CHECK(fortran->fortran_order);
    CHECK(fortran->shape == std::vector<uint32_t>{2, 3, 4});
    CHECK(fortran->strides() == std::vector<uint32_t>{1, 2, 6});
    CHECK(fortran->data == data);

    auto c_order = vkdml::npy::parse(simple_image("<f8", "(2, 3, 4)", data), "c");
    REQUIRE(c_order);
    CHECK_FALSE(c_order->fortran_order);
    CHECK(c_order->strides() == std::vector<uint32_t>{12, 4, 1});
}

TEST_CASE("npy: a 0-d array reads as shape {1}", "[npy]") {
    const auto data = pattern(8);
    auto array = vkdml::npy::parse(simple_image("<i8", "()", data), "scalar.npy");
    REQUIRE(array);
    CHECK(array->type == DML_TENSOR_DATA_TYPE_INT64);
    CHECK(array->shape == std::vector<uint32_t>{1});
    CHECK(array->element_count() == 1);
    CHECK(array->strides() == std::vector<uint32_t>{1});
    CHECK(array->data == data);
}

TEST_CASE("npy: zero-size arrays read and write as NumPy saves them", "[npy]") {
    // Read: no data after the header; the strides are those of the shape with each 0 read as 1.
    auto empty = vkdml::npy::parse(simple_image("<f4", "(3, 0)"), "empty.npy");
    REQUIRE(empty);
    CHECK(empty->shape == std::vector<uint32_t>{3, 0});
    CHECK(empty->element_count() == 0);
    CHECK(empty->data_bytes() == 0);
    CHECK(empty->strides() == std::vector<uint32_t>{1, 1});
    CHECK(empty->data.empty());
    auto fortran = vkdml::npy::parse(
        npy_image(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 0, 5), }\n", {}), "fortran.npy");
    REQUIRE(fortran);
    CHECK(fortran->strides() == std::vector<uint32_t>{1, 2, 2});
    // (Every dimension but the zero may be as large as any other file's: 2^32 - 1.)
    auto wide = vkdml::npy::parse(simple_image("|u1", "(4294967295, 0, 4294967295)"), "wide.npy");
    REQUIRE(wide);
    CHECK(wide->element_count() == 0);
    check_rejected(simple_image("<f4", "(0,)", pattern(4)), "file has 4 bytes after the data");
    // A count of 0 whatever the other dimensions (no saturation at 2^64 before the 0 is seen).
    Array huge;
    huge.type = DML_TENSOR_DATA_TYPE_UINT64;
    huge.shape = {4294967295u, 4294967295u, 4294967295u, 0};
    CHECK(huge.element_count() == 0);
    CHECK(huge.data_bytes() == 0);
    // Write: the header alone, as numpy.save writes numpy.zeros((0, 4), numpy.float32).
    TempDir dir;
    const fs::path path = dir.path / "empty.npy";
    REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_FLOAT32, std::vector<uint32_t>{0, 4}, {}));
    const auto raw = file_bytes(path);
    const std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }";
    REQUIRE(raw.size() == 128);
    CHECK(std::memcmp(raw.data() + 10, header.data(), header.size()) == 0);
    auto back = vkdml::npy::read(path.string());
    REQUIRE(back);
    CHECK(back->shape == std::vector<uint32_t>{0, 4});
    CHECK(back->data.empty());
}

TEST_CASE("npy: write_filled() writes one element everywhere, in blocks", "[npy]") {
    TempDir dir;
    const fs::path path = dir.path / "filled.npy";
    // Past one block of 1 MiB (131,072 float64 elements): two whole blocks and part of one.
    const double value = -1.5;
    REQUIRE(vkdml::npy::write_filled(path.string(), DML_TENSOR_DATA_TYPE_FLOAT64,
                                     std::vector<uint32_t>{3, 100000}, std::as_bytes(std::span(&value, 1))));
    auto array = vkdml::npy::read(path.string());
    REQUIRE(array);
    CHECK(array->shape == std::vector<uint32_t>{3, 100000});
    REQUIRE(array->data.size() == 300000 * 8);
    std::vector<double> values(300000);
    std::memcpy(values.data(), array->data.data(), array->data.size());
    CHECK(std::count(values.begin(), values.end(), value) == 300000);
    // A bool array, a zero-size one, and an element of the wrong size.
    const std::byte one{1};
    REQUIRE(vkdml::npy::write_filled(path.string(), DML_TENSOR_DATA_TYPE_UINT8, std::vector<uint32_t>{2, 2},
                                     std::span(&one, 1), true));
    array = vkdml::npy::read(path.string());
    REQUIRE(array);
    CHECK(array->boolean);
    CHECK(array->data == std::vector<std::byte>(4, one));
    REQUIRE(vkdml::npy::write_filled(path.string(), DML_TENSOR_DATA_TYPE_INT16, std::vector<uint32_t>{0, 7},
                                     pattern(2)));
    array = vkdml::npy::read(path.string());
    REQUIRE(array);
    CHECK(array->shape == std::vector<uint32_t>{0, 7});
    CHECK(array->data.empty());
    const auto wrong = vkdml::npy::write_filled(path.string(), DML_TENSOR_DATA_TYPE_INT16,
                                                std::vector<uint32_t>{2}, pattern(4));
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().message == path.string() + ": write_filled: an element of 2 bytes, got 4");
}

TEST_CASE("npy: header keys in any order, any quotes and spacing", "[npy]") {
    const auto data = pattern(8);
    for (const char* header : {
             "{\"shape\":(4,),'fortran_order':True ,'descr':'<u2'}",
             "{ 'fortran_order' : True , 'descr' : \"<u2\" , 'shape' : ( 4 , ) , }\n",
             "{'descr':'<u2','shape':(4L,),'fortran_order':True}\t\r\n",
         }) {
        CAPTURE(header);
        auto array = vkdml::npy::parse(npy_image(1, header, data), "k.npy");
        REQUIRE(array);
        CHECK(array->type == DML_TENSOR_DATA_TYPE_UINT16);
        CHECK(array->shape == std::vector<uint32_t>{4});
        CHECK(array->fortran_order);
        CHECK(array->data == data);
    }
}

TEST_CASE("npy: byte-order variants of the supported descrs", "[npy]") {
    const std::pair<const char*, DML_TENSOR_DATA_TYPE> cases[] = {
        {"<u1", DML_TENSOR_DATA_TYPE_UINT8},  {"<i1", DML_TENSOR_DATA_TYPE_INT8},
        {"=u1", DML_TENSOR_DATA_TYPE_UINT8},  {"=f4", DML_TENSOR_DATA_TYPE_FLOAT32},
        {"=i8", DML_TENSOR_DATA_TYPE_INT64},  {"=f2", DML_TENSOR_DATA_TYPE_FLOAT16},
        {"|u1", DML_TENSOR_DATA_TYPE_UINT8},  {"|i1", DML_TENSOR_DATA_TYPE_INT8},
        {"<u8", DML_TENSOR_DATA_TYPE_UINT64}, {"<u4", DML_TENSOR_DATA_TYPE_UINT32},
    };
    for (const auto& [descr, type] : cases) {
        CAPTURE(descr);
        const size_t size = descr[2] - '0';
        auto array = vkdml::npy::parse(simple_image(descr, "(3,)", pattern(3 * size)), "b.npy");
        REQUIRE(array);
        CHECK(array->type == type);
    }
}

TEST_CASE("npy: bool arrays read as UINT8 0s and 1s and are written as |b1", "[npy]") {
    const std::vector<std::byte> bytes = {std::byte{0}, std::byte{1}, std::byte{2}, std::byte{0xff}};
    auto array = vkdml::npy::parse(simple_image("|b1", "(2, 2)", bytes), "mask.npy");
    REQUIRE(array);
    CHECK(array->type == DML_TENSOR_DATA_TYPE_UINT8);
    CHECK(array->boolean);
    CHECK_FALSE(array->big_endian);
    // NumPy reads any non-zero byte as True.
    CHECK(array->data == std::vector<std::byte>{std::byte{0}, std::byte{1}, std::byte{1}, std::byte{1}});
    TempDir dir;
    const std::string path = (dir.path / "mask.npy").string();
    const uint32_t shape[] = {2, 2};
    REQUIRE(vkdml::npy::write(path, DML_TENSOR_DATA_TYPE_UINT8, shape, array->data, true));
    auto back = vkdml::npy::read(path);
    REQUIRE(back);
    CHECK(back->boolean);
    CHECK(back->data == array->data);
    const auto refused = vkdml::npy::write(path, DML_TENSOR_DATA_TYPE_INT8, shape, array->data, true);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == path + ": a bool array is written from UINT8 data, not INT8");
    // The data-size message names the bool type.
    check_rejected(simple_image("|b1", "(5,)", bytes), "data is truncated: shape (5,) of |b1 needs 5 bytes");
}

TEST_CASE("npy: big-endian files read little-endian, element by element", "[npy]") {
    // '>': each element's bytes reversed (NumPy's astype('<')); one byte has no order.
    const std::vector<std::byte> data = pattern(24);
    for (const auto& [descr, type, size] : {std::tuple{">f2", DML_TENSOR_DATA_TYPE_FLOAT16, 2u},
                                            {">f4", DML_TENSOR_DATA_TYPE_FLOAT32, 4u},
                                            {">f8", DML_TENSOR_DATA_TYPE_FLOAT64, 8u},
                                            {">i2", DML_TENSOR_DATA_TYPE_INT16, 2u},
                                            {">u4", DML_TENSOR_DATA_TYPE_UINT32, 4u},
                                            {">i8", DML_TENSOR_DATA_TYPE_INT64, 8u},
                                            {">u1", DML_TENSOR_DATA_TYPE_UINT8, 1u},
                                            {">i1", DML_TENSOR_DATA_TYPE_INT8, 1u}}) {
        CAPTURE(descr);
        const std::string shape = "(" + std::to_string(24 / size) + ",)";
        auto array = vkdml::npy::parse(simple_image(descr, shape, data), "be.npy");
        REQUIRE(array);
        CHECK(array->type == type);
        CHECK(array->big_endian == (size > 1));
        std::vector<std::byte> expected = data;
        for (size_t at = 0; at < expected.size(); at += size)
            std::reverse(expected.begin() + static_cast<std::ptrdiff_t>(at),
                         expected.begin() + static_cast<std::ptrdiff_t>(at + size));
        CHECK(array->data == expected);
    }
    // The file path (read_header + read_data, what the tool uses) swaps the same way.
    TempDir dir;
    const auto image = simple_image(">i4", "(2, 3)", pattern(24));
    const fs::path path = dir.path / "be.npy";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), image.size());
    auto header = vkdml::npy::read_header(path.string());
    REQUIRE(header);
    CHECK(header->big_endian);
    std::vector<std::byte> out(header->data_bytes());
    REQUIRE(vkdml::npy::read_data(path.string(), *header, out));
    auto parsed = vkdml::npy::parse(image, "be.npy");
    REQUIRE(parsed);
    CHECK(out == parsed->data);
    CHECK(out[0] == pattern(24)[3]);
    auto read = vkdml::npy::read(path.string());
    REQUIRE(read);
    CHECK(read->data == parsed->data);
}

TEST_CASE("npy: broken files are rejected with one clear line", "[npy]") {
    SECTION("wrong magic") {
        auto image = simple_image("<f4", "(1,)", pattern(4));
        image[3] = std::byte{'X'};
        check_rejected(image, "not a .npy file");
        check_rejected({}, "not a .npy file");
        check_rejected(bytes_of("PK\x03\x04"), "not a .npy file");
    }
    SECTION("truncated preamble") {
        check_rejected(bytes_of("\x93NUM"), "truncated");
        check_rejected(bytes_of(std::string("\x93NUMPY\x01\x00\x10", 9)), "truncated");
        check_rejected(bytes_of(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11)), "truncated");
    }
    SECTION("unsupported version") {
        auto image = simple_image("<f4", "(1,)", pattern(4));
        image[6] = std::byte{4};
        check_rejected(image, "unsupported .npy format version 4.0");
        image[6] = std::byte{1};
        image[7] = std::byte{1};
        check_rejected(image, "unsupported .npy format version 1.1");
    }
    SECTION("header length beyond the file") {
        auto image = simple_image("<f4", "(1,)");
        image[8] = std::byte{0xff};
        check_rejected(image, "file is truncated: header length 255 extends beyond the end of the file");
        image = simple_image("<f4", "(1,)", pattern(4));
        image.resize(40);
        check_rejected(image,
                       "file is truncated: header length 58 extends beyond the end of the file (40 bytes)");
        auto v2 = npy_image(2, "{}");
        v2[11] = std::byte{0x80};
        check_rejected(v2, "header length 2147483650 extends beyond the end of the file (14 bytes)");
        auto v3 = npy_image(3, "{}");
        v3[8] = v3[9] = v3[10] = v3[11] = std::byte{0xff};
        check_rejected(v3, "header length 4294967295 extends beyond the end of the file (14 bytes)");
    }
    SECTION("absurd header lengths") {
        // A version 2.0 header of 1 MiB + 1 bytes that the file really holds.
        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
        header.resize((size_t{1} << 20) + 1, ' ');
        check_rejected(npy_image(2, header, pattern(4)),
                       "header length 1048577 exceeds the limit of 1048576 bytes");
        // Exactly 1 MiB is still read.
        header.resize(size_t{1} << 20);
        auto array = vkdml::npy::parse(npy_image(2, header, pattern(4)), "in.npy");
        REQUIRE(array);
        CHECK(array->data_offset == 12 + (uint64_t{1} << 20));
        CHECK(array->data == pattern(4));
    }
}

TEST_CASE("npy: malformed headers are rejected", "[npy]") {
    const std::pair<const char*, const char*> cases[] = {
        {"[1, 2]", "header is not a dict"},
        {"", "header is not a dict"},
        {"{'descr': '<f4', 'shape': (2,)}", "header lacks the key 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (2,)}", "header lacks the key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False}", "header lacks the key 'shape'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "unexpected key 'extra'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "duplicate key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3}", "malformed header"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", "malformed header"},
        {"{'descr': '<f4', 'fortran_order': 1, 'shape': (2,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", "'shape' is not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "a tuple for 'shape'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", "end of the header"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}", "expected ',' or '}'"},
        {"{descr: '<f4', 'fortran_order': False, 'shape': (2,)}", "a quoted key"},
        {"{'descr': '\\x3cf4', 'fortran_order': False, 'shape': (2,)}", "malformed header"},
        {"{'descr': '<f\n4', 'fortran_order': False, 'shape': (2,)}", "malformed header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,),", "expected a quoted key"},
    };
    for (const auto& [header, problem] : cases) {
        CAPTURE(header);
        check_rejected(npy_image(1, header, pattern(8)), problem);
    }
}

TEST_CASE("npy: unsupported dtypes are rejected by name", "[npy]") {
    const std::pair<const char*, const char*> cases[] = {
        {">c8", "unsupported dtype '>c8' (complex)"},
        {"<c8", "unsupported dtype '<c8' (complex)"},
        {"|O", "unsupported dtype '|O' (object)"},
        {"<U5", "unsupported dtype '<U5' (string)"},
        {"|S3", "unsupported dtype '|S3' (string)"},
        {"|V8", "(void/structured)"},
        {"<M8[ns]", "(datetime)"},
        {"<f16", "unsupported dtype '<f16'"},
        {"f4", "unsupported dtype 'f4'"},
        {"", "unsupported dtype ''"},
        {"<f4\x01", "unsupported dtype '<f4\\x01'"},
    };
    for (const auto& [descr, problem] : cases) {
        CAPTURE(descr);
        check_rejected(simple_image(descr, "(2,)", pattern(8)), problem);
    }
    check_rejected(
        npy_image(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", pattern(8)),
        "structured dtypes are not supported");
}

TEST_CASE("npy: shapes beyond DirectML's limits are rejected", "[npy]") {
    check_rejected(simple_image("|u1", "(1, 1, 1, 1, 1, 1, 1, 1, 1)", pattern(1)),
                   "rank 9 exceeds the maximum of 8");
    check_rejected(simple_image("<f4", "(2, 4294967296)"),
                   "dimension 1 of shape (2, 4294967296) exceeds 4294967295");
    check_rejected(simple_image("<f4", "(99999999999999999999999999,)"),
                   "dimension 0 of 'shape', '99999999999999999999999999', overflows 64 bits");
    check_rejected(simple_image("<f4", "(2, 18446744073709551616)"),
                   "dimension 1 of 'shape', '18446744073709551616', overflows 64 bits");
    // 2^64 - 1 itself is a 64-bit number: refused by the dimension limit.
    check_rejected(simple_image("<f4", "(18446744073709551615,)"),
                   "dimension 0 of shape (18446744073709551615,) exceeds 4294967295");
    check_rejected(simple_image("<f4", "(65536, 65536)"),
                   "element count of shape (65536, 65536) exceeds 4294967295");
    // The product of these overflows 64 bits; it must not wrap around to a small count.
    check_rejected(simple_image("|u1",
                                "(4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, "
                                "4294967295, 4294967295)"),
                   "element count of shape (4294967295, 4294967295, 4294967295, 4294967295, 4294967295, "
                   "4294967295, 4294967295, 4294967295) overflows 64 bits");
    // 2^32 × 2^32 × 16 = 2^68 wraps to 0 in 64 bits; each dimension alone is "only" over DirectML's limit.
    check_rejected(simple_image("|u1", "(4294967296, 4294967296, 16)", pattern(16)),
                   "element count of shape (4294967296, 4294967296, 16) overflows 64 bits");
    // A zero-size array has no element count to overflow, but each dimension must still fit.
    check_rejected(simple_image("|u1", "(16, 4294967296, 4294967296, 0)"),
                   "dimension 1 of shape (16, 4294967296, 4294967296, 0) exceeds 4294967295");
    // 2^40 elements claimed in a 100-byte file: refused by the shape rules, nothing allocated.
    check_rejected(simple_image("|u1", "(1048576, 1048576)", pattern(16)),
                   "element count of shape (1048576, 1048576) exceeds 4294967295");
    check_rejected(simple_image("|u1", "(65536, 65537)"), "element count");
    // The largest allowed count passes the shape rules and fails only for lack of data.
    check_rejected(simple_image("|u1", "(4294967295,)", pattern(3)),
                   "data is truncated: shape (4294967295,) of |u1 needs 4294967295 bytes, the file holds 3");
}

TEST_CASE("npy: the data must be exactly as long as the shape says", "[npy]") {
    // 32 GiB claimed by a header in a file of a few bytes: refused by the size check, nothing allocated.
    check_rejected(simple_image("<u8", "(4294967295,)", pattern(8)),
                   "data is truncated: shape (4294967295,) of <u8 needs 34359738360 bytes, the file holds 8");
    check_rejected(
        simple_image("<f8", "(65536, 8192, 7)"),
        "data is truncated: shape (65536, 8192, 7) of <f8 needs 30064771072 bytes, the file holds 0");
    check_rejected(simple_image("<f4", "(2, 3)", pattern(20)),
                   "data is truncated: shape (2, 3) of <f4 needs 24 bytes, the file holds 20");
    check_rejected(simple_image("<f4", "(2, 3)"), "the file holds 0");
    check_rejected(simple_image("<u2", "(3,)", pattern(8)),
                   "file has 2 bytes after the data (shape (3,) of <u2 needs 6)");
}

TEST_CASE("npy: read() reads files and reports file-system problems", "[npy]") {
    TempDir dir;
    const auto image =
        npy_image(2, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 2), }\n", pattern(8));
    const fs::path path = dir.path / "v2.npy";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(image.data()), image.size());
    auto array = vkdml::npy::read(path.string());
    REQUIRE(array);
    CHECK(array->type == DML_TENSOR_DATA_TYPE_INT16);
    CHECK(array->shape == std::vector<uint32_t>{2, 2});
    CHECK(array->fortran_order);
    CHECK(array->strides() == std::vector<uint32_t>{1, 2});
    CHECK(array->data == pattern(8));

    const fs::path truncated = dir.path / "short.npy";
    std::ofstream(truncated, std::ios::binary)
        .write(reinterpret_cast<const char*>(image.data()), image.size() - 1);
    auto short_read = vkdml::npy::read(truncated.string());
    REQUIRE_FALSE(short_read);
    CHECK(short_read.error().code == ErrorCode::invalid_argument);
    CHECK(short_read.error().message ==
          truncated.string() + ": data is truncated: shape (2, 2) of <i2 needs 8 bytes, the file holds 7");

    auto missing = vkdml::npy::read((dir.path / "missing.npy").string());
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == ErrorCode::invalid_argument);
    CHECK(missing.error().message ==
          (dir.path / "missing.npy").string() + ": cannot open: No such file or directory");

    auto directory = vkdml::npy::read(dir.path.string());
    REQUIRE_FALSE(directory);
    CHECK(directory.error().message == dir.path.string() + ": not a regular file");
}

TEST_CASE("npy: write() goes through a temporary file and leaves nothing behind on failure", "[npy]") {
    TempDir dir;
    const std::vector<uint32_t> shape = {4};
    const auto data = pattern(16);

    SECTION("a nonexistent directory fails and creates nothing") {
        const fs::path path = dir.path / "no_such_dir" / "out.npy";
        auto status = vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_FLOAT32, shape, data);
        REQUIRE_FALSE(status);
        CHECK(status.error().code == ErrorCode::invalid_argument);
        CHECK(status.error().message.rfind(path.string() + ": cannot create '" + path.string() + ".tmp.",
                                           0) == 0);
        CHECK(status.error().message.find("No such file or directory") != std::string::npos);
        CHECK_FALSE(fs::exists(dir.path / "no_such_dir"));
        CHECK(dir.entries().empty());
    }
    SECTION("a directory in the way is left alone and no temporary file remains") {
        const fs::path path = dir.path / "taken";
        fs::create_directory(path);
        fs::create_directory(path / "child");
        auto status = vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_FLOAT32, shape, data);
        REQUIRE_FALSE(status);
        CHECK(status.error().message == path.string() + ": cannot write: it is a directory");
        CHECK(dir.entries() == std::vector<std::string>{"taken"});
        CHECK(fs::is_directory(path / "child"));
    }
    SECTION("a device or a pipe in the way is refused, not replaced") {
        VKDML_LINUX_ONLY("/dev/null and FIFOs");
        auto status = vkdml::npy::write("/dev/null", DML_TENSOR_DATA_TYPE_FLOAT32, shape, data);
        REQUIRE_FALSE(status);
        CHECK(status.error().message == "/dev/null: cannot write: it exists and is not a regular file");
        CHECK(fs::is_character_file("/dev/null"));
        const fs::path fifo = dir.path / "fifo";
        vkdml_test::make_fifo(fifo.string());
        status = vkdml::npy::write(fifo.string(), DML_TENSOR_DATA_TYPE_FLOAT32, shape, data);
        REQUIRE_FALSE(status);
        CHECK(status.error().message ==
              fifo.string() + ": cannot write: it exists and is not a regular file");
        CHECK(fs::is_fifo(fifo));
        CHECK(dir.entries() == std::vector<std::string>{"fifo"});
    }
    SECTION("an existing file is replaced whole") {
        const fs::path path = dir.path / "out.npy";
        REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_UINT8, std::vector<uint32_t>{100},
                                  pattern(100)));
        REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_FLOAT32, shape, data));
        auto array = vkdml::npy::read(path.string());
        REQUIRE(array);
        CHECK(array->type == DML_TENSOR_DATA_TYPE_FLOAT32);
        CHECK(array->data == data);
        CHECK(dir.entries() == std::vector<std::string>{"out.npy"});
    }
    SECTION("a 0-d array (an empty shape) is one element of shape ()") {
        const fs::path path = dir.path / "scalar.npy";
        REQUIRE(vkdml::npy::write(path.string(), DML_TENSOR_DATA_TYPE_INT16, std::vector<uint32_t>{},
                                  pattern(2)));
        const std::vector<std::byte> bytes = file_bytes(path);
        const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        CHECK(text.find("'shape': (), }") != std::string::npos);
        CHECK(bytes.size() == 128 + 2);  // the header padded to 128 bytes, as NumPy pads it
        auto array = vkdml::npy::read(path.string());
        REQUIRE(array);
        CHECK(array->shape == std::vector<uint32_t>{1});  // read() gives a 0-d array shape {1}
        CHECK(array->data == pattern(2));
    }
    SECTION("bad arguments write nothing") {
        const std::string path = (dir.path / "bad.npy").string();
        const auto rejects = [&](DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> dims, size_t bytes,
                                 const std::string& problem) {
            auto status = vkdml::npy::write(path, type, dims, pattern(bytes));
            REQUIRE_FALSE(status);
            CHECK(status.error().code == ErrorCode::invalid_argument);
            CHECK(status.error().message.rfind(path + ": ", 0) == 0);
            CHECK(status.error().message.find(problem) != std::string::npos);
        };
        rejects(DML_TENSOR_DATA_TYPE_FLOAT32, {4}, 15, "shape (4,) of <f4 needs 16 bytes of data, got 15");
        rejects(DML_TENSOR_DATA_TYPE_FLOAT32, {4}, 17, "needs 16 bytes of data, got 17");
        rejects(DML_TENSOR_DATA_TYPE_UNKNOWN, {4}, 16, "cannot write data type 0");
        rejects(DML_TENSOR_DATA_TYPE_FLOAT32, {}, 8, "shape () of <f4 needs 4 bytes of data, got 8");
        rejects(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 0}, 4, "shape (2, 0) of <f4 needs 0 bytes of data, got 4");
        rejects(DML_TENSOR_DATA_TYPE_UINT8, {1, 1, 1, 1, 1, 1, 1, 1, 1}, 1,
                "rank 9 exceeds the maximum of 8");
        rejects(DML_TENSOR_DATA_TYPE_UINT8, {65536, 65536}, 1, "element count");
        CHECK(dir.entries().empty());
    }
}

TEST_CASE("npy: check_writable() creates nothing and refuses what write() would", "[npy]") {
    TempDir dir;
    const fs::path out = dir.path / "out.npy";
    CHECK(vkdml::npy::check_writable(out.string()));
    CHECK(dir.entries().empty());
    // An existing file is left as it is.
    std::ofstream(out) << "old";
    CHECK(vkdml::npy::check_writable(out.string()));
    CHECK(dir.entries() == std::vector<std::string>{"out.npy"});
    CHECK(file_bytes(out) == bytes_of("old"));

    const auto refused = [](const std::string& path, const std::string& message) {
        auto status = vkdml::npy::check_writable(path);
        REQUIRE_FALSE(status);
        CHECK(status.error().code == ErrorCode::invalid_argument);
        CHECK(status.error().message.rfind(message, 0) == 0);
    };
    refused(dir.path.string(), dir.path.string() + ": cannot write: it is a directory");
    const std::string missing = (dir.path / "no_such_dir" / "out.npy").string();
    refused(missing, missing + ": cannot create '" + missing + ".tmp.");
    const std::string under_file = (out / "x.npy").string();
    refused(under_file, under_file + ": cannot create '" + under_file + ".tmp.");
    CHECK(dir.entries() == std::vector<std::string>{"out.npy"});

    VKDML_LINUX_ONLY("/dev/null and /proc");
    refused("/dev/null", "/dev/null: cannot write: it exists and is not a regular file");
    // Permission bits do not stop root; procfs refuses new files to everyone.
    refused("/proc/vkdml_out.npy", "/proc/vkdml_out.npy: cannot create '/proc/vkdml_out.npy.tmp.");
}

TEST_CASE("npy: Array strides and element count", "[npy]") {
    Array array;
    array.shape = {5, 1, 7, 2};
    CHECK(array.element_count() == 70);
    CHECK(array.strides() == std::vector<uint32_t>{14, 14, 2, 1});
    array.fortran_order = true;
    CHECK(array.strides() == std::vector<uint32_t>{1, 5, 5, 35});
    array.shape = {65536, 65535};
    CHECK(array.element_count() == 4294901760u);
    CHECK(array.strides() == std::vector<uint32_t>{1, 65536});
    // A Header built by hand: an unknown type has no size (no crash), an overflowing count saturates.
    CHECK(array.type == DML_TENSOR_DATA_TYPE_UNKNOWN);
    CHECK(array.data_bytes() == 0);
    array.type = DML_TENSOR_DATA_TYPE_UINT64;
    CHECK(array.data_bytes() == uint64_t{4294901760u} * 8);
    array.shape = {4294967295u, 4294967295u, 4294967295u};
    CHECK(array.element_count() == UINT64_MAX);
    CHECK(array.data_bytes() == UINT64_MAX);
    array.shape = {65536, 65536, 65536, 32768};
    CHECK(array.element_count() == uint64_t{1} << 63);
    CHECK(array.data_bytes() == UINT64_MAX);
}
