// tests/api/test_platform.cpp — tools/npy/platform.hpp, the tool's operating-system layer: UTF-8 paths, the
// atomic write and its failures, rename over an existing file, local time. The same assertions hold on
// Linux and on Windows.
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "npy/platform.hpp"

namespace fs = std::filesystem;
using namespace vkdml::platform;

namespace {

// A fresh directory for one test, removed afterwards; `name` is UTF-8.
struct ScratchDir {
    fs::path path;
    ScratchDir() {
        static int counter = 0;
        path = fs::temp_directory_path() /
               ("vkdml_test_platform_" + std::to_string(process_id()) + "_" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string operator/(const std::string& name) const {
        return utf8_from_path(path / path_from_utf8(name));
    }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(path))
            names.push_back(utf8_from_path(entry.path().filename()));
        return names;
    }
};

std::string contents(const std::string& path) {
    std::ifstream in(path_from_utf8(path), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::optional<std::string> write_text(const std::string& path, const std::string& a,
                                      const std::string& b = "") {
    const std::span<const std::byte> parts[] = {std::as_bytes(std::span(a)), std::as_bytes(std::span(b))};
    return write_file_atomically(path, parts);
}

}  // namespace

TEST_CASE("platform: UTF-8 names outside ASCII survive paths, fopen and directory listings", "[platform]") {
    ScratchDir dir;
    const std::string name =
        "donn\xc3\xa9"
        "es_\xe6\x97\xa5\xe6\x9c\xac.npy";  // "données_日本.npy"
    CHECK(utf8_from_path(path_from_utf8(name)) == name);
    const std::string path = dir / name;
    std::FILE* file = open_file(path, "wb");
    REQUIRE(file);
    CHECK(std::fputs("x", file) >= 0);
    CHECK(std::fclose(file) == 0);
    CHECK(dir.entries() == std::vector<std::string>{name});
    CHECK(contents(path) == "x");
    CHECK(fs::file_size(path_from_utf8(path)) == 1);
}

TEST_CASE("platform: write_file_atomically writes the parts, replaces a file and leaves no temporary",
          "[platform]") {
    ScratchDir dir;
    const std::string path = dir / "out.bin";
    CHECK(temporary_name(path) == path + ".tmp." + std::to_string(process_id()));
    CHECK_FALSE(write_text(path, "first ", "version"));
    CHECK(contents(path) == "first version");
    CHECK_FALSE(write_text(path, "second"));
    CHECK(contents(path) == "second");
    CHECK(dir.entries() == std::vector<std::string>{"out.bin"});
    // An existing temporary name (a stale file from a killed run) is overwritten too.
    CHECK_FALSE(write_text(temporary_name(path), "stale"));
    CHECK_FALSE(write_text(path, "third"));
    CHECK(contents(path) == "third");
}

TEST_CASE("platform: write_file_atomically names what failed, in the C library's words", "[platform]") {
    ScratchDir dir;
    const std::string path = dir / "no_such_dir/out.bin";
    const auto failure = write_text(path, "data");
    REQUIRE(failure);
    CHECK(*failure == "cannot create '" + temporary_name(path) + "': " + std::strerror(ENOENT));
    CHECK(std::string(std::strerror(ENOENT)) == "No such file or directory");
    CHECK(dir.entries().empty());
    // Renaming onto a directory fails after the write: the temporary file is removed again.
    fs::create_directory(path_from_utf8(dir / "taken"));
    fs::create_directory(path_from_utf8(dir / "taken/child"));
    const auto onto_directory = write_text(dir / "taken", "data");
    REQUIRE(onto_directory);
    CHECK(onto_directory->rfind("cannot rename '" + temporary_name(dir / "taken") + "' to it: ", 0) == 0);
    CHECK(dir.entries() == std::vector<std::string>{"taken"});
}

TEST_CASE("platform: replace_file renames over an existing file", "[platform]") {
    ScratchDir dir;
    CHECK_FALSE(write_text(dir / "a", "new"));
    CHECK_FALSE(write_text(dir / "b", "old"));
    CHECK_FALSE(replace_file(dir / "a", dir / "b"));
    CHECK(contents(dir / "b") == "new");
    CHECK(dir.entries() == std::vector<std::string>{"b"});
    const auto missing = replace_file(dir / "a", dir / "c");
    REQUIRE(missing);
    CHECK(*missing == std::strerror(ENOENT));
}

TEST_CASE("platform: local_time agrees with std::localtime", "[platform]") {
    for (const std::time_t t : {std::time_t{0}, std::time_t{1700000000}, std::time(nullptr)}) {
        const std::tm expected = *std::localtime(&t);
        const std::tm got = local_time(t);
        CHECK(got.tm_year == expected.tm_year);
        CHECK(got.tm_yday == expected.tm_yday);
        CHECK(got.tm_hour == expected.tm_hour);
        CHECK(got.tm_min == expected.tm_min);
        CHECK(got.tm_sec == expected.tm_sec);
    }
}
