// test_golden.cpp — the determinism corpus (golden_corpus.hpp) against its committed hashes: on the run's
// own device (each CI run's subgroup size, policy rows and kernel family: tests/CMakeLists.txt), and
// [families] with the cooperative kernels at this run's subgroup size and through small windows.
#include "golden_corpus.hpp"

#include "canonical_fold.hpp"

#include "../support/gpu_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

using namespace vkdml_test;

namespace {

std::string hex(uint64_t h) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(h));
    return text;
}

// golden_hash of a buffer holding `words` (little-endian host, as the kernels write).
template <class W>
uint64_t hash_of(DML_TENSOR_DATA_TYPE type, std::initializer_list<W> words) {
    std::vector<std::byte> bytes(sizeof(W) * words.size());
    std::memcpy(bytes.data(), std::data(words), bytes.size());
    return golden_hash(type, std::move(bytes));
}

// The cases to run: all, or with VKDML_GOLDEN_LIMIT=N the first N (tools/gpu_check.sh's own test runs a
// few). Anything but a positive whole number fails the test by name.
size_t golden_case_limit() {
    const char* limit = std::getenv("VKDML_GOLDEN_LIMIT");
    if (limit == nullptr) return golden_cases().size();
    const std::string text = limit;
    const bool number =
        !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
    const size_t n = number ? std::stoul(text) : 0;
    if (n == 0)
        FAIL("VKDML_GOLDEN_LIMIT is '" << text << "': give a positive whole number of cases (the corpus has "
                                       << golden_cases().size() << ")");
    return std::min(n, golden_cases().size());
}

// The committed file's line for a case and its hash (tests/data/golden_hashes.inc).
std::string hash_line(const std::string& name, uint64_t hash) {
    return "{\"" + name + "\", " + hex(hash) + "ull},\n";
}

// The corpus on one device: one line per case whose hash is not the committed one. Every case binds
// every device (docs/SPEC.md, "Determinism"), so each such line is a contract violation.
struct Mismatches {
    std::vector<std::string> failing;
    size_t count = 0;  // the cases run
};

Mismatches golden_mismatches(const vkdml::Device& device) {
    std::map<std::string, uint64_t> expected;
    for (const GoldenHash& h : golden_hashes()) expected[h.name] = h.hash;
    Mismatches m;
    for (size_t k = 0; k < golden_case_limit(); ++k) {
        const GoldenCase& c = golden_cases()[k];
        ++m.count;
        const uint64_t got = golden_run(device, c);
        const auto it = expected.find(c.name);
        const std::string label = golden_class(c) == GoldenClass::exact ? "exact " : "canonical ";
        if (it == expected.end())
            m.failing.push_back(label + c.name + ": no committed hash (computed " + hex(got) + ")");
        else if (it->second != got)
            m.failing.push_back(label + c.name + ": " + hex(got) + ", committed " + hex(it->second));
    }
    return m;
}

// CHECKs that no case differs on `device` (each that does in the failure's message, one line each, as
// tools/gpu_check.sh collects them), and prints a summary line.
void check_corpus(const std::string& config, const vkdml::Device& device) {
    const auto start = std::chrono::steady_clock::now();
    const Mismatches m = golden_mismatches(device);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream text;
    for (const std::string& line : m.failing) text << "golden mismatch (" << config << "): " << line << "\n";
    INFO(text.str());
    CHECK(m.failing.empty());
    std::printf("golden: %s: %zu cases, %zu differing (%.1f s)\n", config.c_str(), m.count, m.failing.size(),
                seconds);
}

}  // namespace

TEST_CASE("the golden corpus: about 200 cases, unique names, every case with a committed hash", "[golden]") {
    const std::vector<GoldenCase>& cases = golden_cases();
    CHECK(cases.size() >= 190);
    std::map<std::string, int> seen;
    for (const GoldenCase& c : cases) CHECK(++seen[c.name] == 1);
    // The committed file lists exactly the corpus, in its order (regenerate it with VKDML_GOLDEN_WRITE).
    const std::vector<GoldenHash>& hashes = golden_hashes();
    REQUIRE(hashes.size() == cases.size());
    for (size_t i = 0; i < cases.size(); ++i) CHECK(hashes[i].name == cases[i].name);
    // The contract's classes (docs/SPEC.md, "Determinism"), by example and by count.
    auto class_of = [&](const std::string& name) {
        for (const GoldenCase& c : cases)
            if (c.name == name) return golden_class(c);
        FAIL("no case " << name);
        return GoldenClass::exact;
    };
    CHECK(class_of("cumsum INT32 {1000003} axis 0, integers") == GoldenClass::exact);
    CHECK(class_of("reduce max FLOAT32 {100003} axes {0}, normal") == GoldenClass::exact);
    CHECK(class_of("argmin FLOAT16 {257, 1031} axes {1} last, normal") == GoldenClass::exact);
    CHECK(class_of("reduce sum FLOAT32 {3000001} axes {0}, normal") == GoldenClass::canonical);
    CHECK(class_of("reduce average FLOAT32 {100003} axes {0}, normal") == GoldenClass::canonical);
    CHECK(class_of("reduce average FLOAT64 {100003} axes {0}, normal") == GoldenClass::canonical);
    CHECK(class_of("cumsum FLOAT64 {1000003} axis 0, cancelling") == GoldenClass::canonical);
    CHECK(class_of("cumprod FLOAT16 {1000003} axis 0, near 1") == GoldenClass::canonical);
    CHECK(class_of("cumsum FLOAT32 {33} axis 0, normal") == GoldenClass::canonical);
    CHECK(class_of("reduce log_sum_exp FLOAT64 {257, 1031} axes {1}, normal") == GoldenClass::canonical);
    CHECK(class_of("reduce log_sum FLOAT32 {100003} axes {0}, positive") == GoldenClass::canonical);
    std::map<GoldenClass, int> count;
    for (const GoldenCase& c : cases) ++count[golden_class(c)];
    CHECK(class_of("reduce average FLOAT16 {1031, 257} axes {0}, normal with NaN, NaN ignored") ==
          GoldenClass::canonical);
    CHECK(class_of("cumsum FLOAT32 {100003} axis 0, normal with NaN, NaN ignored") == GoldenClass::canonical);
    CHECK(
        class_of("reduce variance FLOAT32 {257, 1031} axes {1} correction 1, normal with NaN, NaN ignored") ==
        GoldenClass::canonical);
    CHECK(class_of("cummax FLOAT32 {100003} axis 0, normal") == GoldenClass::exact);
    CHECK(class_of("reduce any FLOAT32 {257, 1031} axes {1}, normal with NaN") == GoldenClass::exact);
    CHECK(class_of("logcumsumexp FLOAT64 {1031, 257} axis 0 reverse, normal") == GoldenClass::canonical);
    CHECK(class_of("logcumsumexp FLOAT32 {100003} axis 0, normal") == GoldenClass::canonical);
    CHECK(count[GoldenClass::exact] == 66);
    CHECK(count[GoldenClass::canonical] == 195);
    CHECK(std::count_if(cases.begin(), cases.end(), [](const GoldenCase& c) { return c.nan_ignore; }) == 17);
    CHECK(std::count_if(cases.begin(), cases.end(), [](const GoldenCase& c) { return c.correction != 0; }) ==
          4);
}

TEST_CASE("the golden hash: FNV-1a of the bytes, every NaN as the canonical quiet NaN", "[golden]") {
    // FNV-1a of no bytes is its offset basis; of "a", the published 0xaf63dc4c8601ec8c.
    CHECK(golden_hash(DML_TENSOR_DATA_TYPE_UINT8, {}) == 0xcbf29ce484222325ull);
    CHECK(golden_hash(DML_TENSOR_DATA_TYPE_UINT8, {std::byte{'a'}}) == 0xaf63dc4c8601ec8cull);
    // NaNs of any sign and payload hash alike; infinities, zeros of either sign and numbers do not.
    const auto f32 = [](std::initializer_list<uint32_t> words) {
        return hash_of(DML_TENSOR_DATA_TYPE_FLOAT32, words);
    };
    CHECK(f32({0x7fc00000u, 1u}) == f32({0xffc00001u, 1u}));
    CHECK(f32({0x7f800001u}) == f32({0x7fc00000u}));
    CHECK(f32({0x7f800000u}) != f32({0xff800000u}));
    CHECK(f32({0x80000000u}) != f32({0x00000000u}));
    CHECK(f32({0x3f800000u}) != f32({0x3f800001u}));
    // The canonical NaN per width: the same as an integer buffer holding its bits.
    CHECK(hash_of<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, {0xfe01u}) ==
          hash_of<uint16_t>(DML_TENSOR_DATA_TYPE_UINT16, {0x7e00u}));
    CHECK(hash_of<uint64_t>(DML_TENSOR_DATA_TYPE_FLOAT64, {0xfff0000000000001ull}) ==
          hash_of<uint64_t>(DML_TENSOR_DATA_TYPE_UINT64, {0x7ff8000000000000ull}));
}

TEST_CASE("the golden inputs are fixed bits: the first case's element", "[golden]") {
    // Pinned so that an accidental change of the generator (which would move every hash) shows here by
    // name. Case 0 is cumsum FLOAT32 [1]; its one element comes after no gap.
    const GoldenCase& first = golden_cases().front();
    REQUIRE(first.name == "cumsum FLOAT32 {1} axis 0, normal");
    const std::vector<std::byte> in = golden_input(first);
    REQUIRE(in.size() == 4);
    uint32_t bits = 0;
    std::memcpy(&bits, in.data(), 4);
    CHECK(bits == 0xc028c0a7u);  // -2.6367586 (float32 of the first normal())
}

TEST_CASE("the golden corpus matches its committed hashes on this run's device", "[gpu][golden]") {
    if (const char* path = std::getenv("VKDML_GOLDEN_WRITE")) {
        std::ofstream out(path, std::ios::binary);
        out << "// The determinism corpus's output hashes (tests/kernels/golden_corpus.hpp), one per case "
               "in\n"
               "// corpus order. Written by VKDML_GOLDEN_WRITE=<this file> vkdml_tests \"[golden]\"\n"
               "// (tests/kernels/test_golden.cpp); a change of these values is a change of results.\n";
        for (const GoldenCase& c : golden_cases()) out << hash_line(c.name, golden_run(test_device(), c));
        REQUIRE(out.good());
        WARN("wrote " << path);
        return;
    }
    check_corpus("this run's device", test_device());
    require_no_validation_messages();
}

TEST_CASE("the golden hash file is what VKDML_GOLDEN_WRITE writes: its first lines, recomputed",
          "[gpu][golden]") {
    // The writer's line for each of the first cases, on lavapipe's default configuration (whose results
    // the file holds), is the compiled-in entry printed the same way.
    for (size_t k = 0; k < 3; ++k) {
        const GoldenCase& c = golden_cases()[k];
        const GoldenHash& h = golden_hashes()[k];
        CHECK(hash_line(c.name, golden_run(test_device(), c)) == hash_line(h.name, h.hash));
    }
    CHECK(hash_line("cumsum FLOAT32 {1} axis 0, normal", 0x1234u) ==
          "{\"cumsum FLOAT32 {1} axis 0, normal\", 0x0000000000001234ull},\n");
}

TEST_CASE("the golden corpus matches in small windows", "[gpu][golden][families]") {
    // (The CPU rows with the serial kernels, the GPU rows with them and the GPU rows with the cooperative
    // kernels are the devices of the runs gpu-sg8, gpu-rows-sg8 and gpu-rows-coop, which check the whole
    // corpus on their own device; the last two with LLVM's optimization passes off, GALLIVM_PERF=nopt,
    // which gives the same hashes: tools/gpu_check.sh checks the cooperative kernels' on a GPU's compiler.)
    UseLimitedDevice limited({1u << 20, 64});
    check_corpus("1 MiB windows, 64 workgroups", test_device());
    require_no_validation_messages();
}

TEST_CASE("the golden corpus holds the canonical association's bits and sees a change of it", "[golden]") {
    // The host definition (canonical_fold.hpp) gives the committed hash of a float32 cumprod of a million
    // elements near 1 (a product's compensated pair keeps less than a sum's, so its roundings show a change
    // of association; a sum's of the corpus's data would hide one almost everywhere); the same definition
    // with the tree moved by one element (a 1 first, its output dropped: every block and node one element
    // later), the planted change, gives another hash.
    const std::string name = "cumprod FLOAT32 {1000003} axis 0, near 1";
    const auto c = std::find_if(golden_cases().begin(), golden_cases().end(),
                                [&](const GoldenCase& g) { return g.name == name; });
    const auto h = std::find_if(golden_hashes().begin(), golden_hashes().end(),
                                [&](const GoldenHash& g) { return g.name == name; });
    REQUIRE(c != golden_cases().end());
    REQUIRE(h != golden_hashes().end());
    const std::vector<std::byte> in = golden_input(*c);
    const size_t rows = 1, cols = c->input.sizes[0];
    REQUIRE(in.size() == rows * cols * sizeof(float));
    std::vector<float> x(rows * cols), canonical(x.size()), moved(x.size());
    std::memcpy(x.data(), in.data(), in.size());
    for (size_t r = 0; r < rows; ++r) {
        std::vector<float> line(x.begin() + r * cols, x.begin() + (r + 1) * cols);
        const std::vector<float> out = canonical_scan(CanonicalOp::product, line, false);
        std::copy(out.begin(), out.end(), canonical.begin() + r * cols);
        line.insert(line.begin(), 1.0f);
        const std::vector<float> shifted = canonical_scan(CanonicalOp::product, line, false);
        std::copy(shifted.begin() + 1, shifted.end(), moved.begin() + r * cols);
    }
    auto hash = [](const std::vector<float>& y) {
        std::vector<std::byte> bytes(y.size() * sizeof(float));
        std::memcpy(bytes.data(), y.data(), bytes.size());
        return golden_hash(DML_TENSOR_DATA_TYPE_FLOAT32, std::move(bytes));
    };
    CHECK(hash(canonical) == h->hash);
    size_t differ = 0;
    for (size_t i = 0; i < x.size(); ++i) differ += std::memcmp(&canonical[i], &moved[i], sizeof(float)) != 0;
    INFO(differ << " of " << x.size() << " outputs differ with the tree moved by one element");
    CHECK(differ > 0);
    CHECK(hash(moved) != h->hash);
}
