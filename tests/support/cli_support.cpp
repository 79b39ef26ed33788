// cli_support.cpp — the CLI tests' subprocess runner, temporary directories, .npy helpers and error check.
#include "cli_support.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>

#include "gpu_fixture.hpp"
#include "npy/npy.hpp"
#include "npy/platform.hpp"
#include "tensor_data.hpp"

namespace fs = std::filesystem;

namespace vkdml_test::cli {

TempDir::TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() / ("vkdml_test_cli_" + std::to_string(vkdml::platform::process_id()) +
                                        "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
}

std::vector<std::string> TempDir::entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path))
        names.push_back(vkdml::platform::utf8_from_path(entry.path().filename()));
    return names;
}

std::string TempDir::operator/(std::string_view name) const {
    return vkdml::platform::utf8_from_path(path / vkdml::platform::path_from_utf8(std::string(name)));
}

std::string read_text(const std::string& path) {
    std::ifstream in(vkdml::platform::path_from_utf8(path), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const std::string& path, std::string_view text) {
    std::ofstream out(vkdml::platform::path_from_utf8(path), std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    REQUIRE(out.good());
}

std::vector<std::string> with_validation(std::vector<std::string> args) {
    if (!validation_layer_waived()) args.push_back("--validation");
    return args;
}

// ---- .npy inputs and outputs -------------------------------------------------------------------

namespace {

std::string_view bytes_view(const TestTensor& t) {
    return {reinterpret_cast<const char*>(t.bytes.data()), t.count() * t.element_size()};
}

std::string descr_of(DML_TENSOR_DATA_TYPE type) {
    const char kind = is_float_type(type) ? 'f' : is_signed_integer_type(type) ? 'i' : 'u';
    return std::string(type_size(type) == 1 ? "|" : "<") + kind + std::to_string(type_size(type));
}

std::string shape_text(const std::vector<uint32_t>& sizes) {
    std::string text = "(";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
    return text + (sizes.size() == 1 ? ",)" : ")");
}

}  // namespace

void write_c_order(const std::string& path, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                   const std::vector<double>& values) {
    TestTensor t = make_packed(type, sizes);
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double(i, values[i]);
    const auto status =
        vkdml::npy::write(path, type, sizes, std::span(t.bytes).first(t.count() * t.element_size()));
    INFO((status ? std::string() : status.error().message));
    REQUIRE(status);
}

std::string npy_image(std::string header, std::string_view data) {
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string image("\x93NUMPY\x01\x00", 8);
    image += static_cast<char>(header.size() & 0xff);
    image += static_cast<char>(header.size() >> 8);
    return image + header + std::string(data);
}

void write_fortran_order(const std::string& path, DML_TENSOR_DATA_TYPE type,
                         const std::vector<uint32_t>& sizes, const std::vector<double>& values) {
    TestTensor t = make_fortran(type, sizes);
    REQUIRE(t.total_bytes() >= t.count() * t.element_size());
    for (uint64_t i = 0; i < t.count(); ++i) t.set_double_at(unravel(i, sizes), values[i]);
    write_text(path, npy_image("{'descr': '" + descr_of(type) +
                                   "', 'fortran_order': True, 'shape': " + shape_text(sizes) + ", }",
                               bytes_view(t)));
}

std::vector<double> read_values(const std::string& path, DML_TENSOR_DATA_TYPE type,
                                const std::vector<uint32_t>& sizes) {
    auto array = vkdml::npy::read(path);
    INFO((array ? std::string() : array.error().message));
    REQUIRE(array);
    CHECK(array->type == type);
    CHECK(array->shape == sizes);
    CHECK_FALSE(array->fortran_order);
    TestTensor t = make_packed(type, sizes);
    REQUIRE(array->data.size() == t.count() * t.element_size());
    std::memcpy(t.bytes.data(), array->data.data(), array->data.size());
    std::vector<double> values;
    for (uint64_t i = 0; i < t.count(); ++i) values.push_back(t.get_double(i));
    return values;
}

const ReduceInput kReduceInputs[4] = {
    {"sum.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 4, 2}},
    {"arg.npy", {3, 3}, {1, 2, 3, 3, 0, 4, 2, 5, 2}},
    {"ties_max.npy", {5}, {3, 2, 1, 2, 3}},
    {"ties_min.npy", {5}, {1, 2, 3, 2, 1}},
};

// ---- running commands --------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
    return text;
}

void run_command(const TempDir& dir, const std::string& command, const std::vector<std::string>& options,
                 const std::string& in, const std::string& out) {
    std::vector<std::string> args{command};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(in);
    args.push_back(out);
    const Outcome outcome = run_tool(dir, args);
    INFO("vkdml " << joined(args) << "\nstderr: " << outcome.err);
    REQUIRE(outcome.exit_code == 0);
    CHECK(outcome.err.empty());
    CHECK(outcome.out.empty());
}

void check_error(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                 std::string_view problem) {
    check_error_parts(dir, args, exit_code, {std::string(problem)});
}

void check_error_parts(const TempDir& dir, const std::vector<std::string>& args, int exit_code,
                       const std::vector<std::string>& parts) {
    auto before = dir.entries();
    std::sort(before.begin(), before.end());
    const Outcome outcome = run_tool(dir, args, Stdout::capture, 60);
    INFO("vkdml " << joined(args) << "\nstdout: " << outcome.out << "\nstderr: " << outcome.err);
    CHECK(outcome.exit_code == exit_code);
    CHECK(outcome.out.empty());
    CHECK(outcome.err.rfind("vkdml: error: ", 0) == 0);
    CHECK(outcome.err.find('\n') == outcome.err.size() - 1);
    size_t at = 0;
    for (const std::string& part : parts) {
        INFO("expected in stderr: " << part);
        at = outcome.err.find(part, at);
        CHECK(at != std::string::npos);
        if (at == std::string::npos) break;
        at += part.size();
    }
    auto after = dir.entries();
    std::sort(after.begin(), after.end());
    CHECK(after == before);
}

}  // namespace vkdml_test::cli
