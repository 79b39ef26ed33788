// test_golden.cpp — the determinism corpus (golden_corpus.hpp) against its committed hashes: on the run's
// own device (each CI run's subgroup size, policy rows and kernel family: tests/CMakeLists.txt), and
// [families] with the cooperative kernels at this run's subgroup size and through small windows.
#include "golden_corpus.hpp"

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

// Whether `c` follows the canonical association on `device` (docs/internals.md, "Determinism"), so that
// its bits are lavapipe's default configuration's (the committed hashes') on every device: the canonical
// reductions everywhere, and the float scans `device` plans on the serial kernels alone.
bool canonical_on(const vkdml::Device& device, const GoldenCase& c) {
    const GoldenClass cls = golden_class(c);
    if (cls == GoldenClass::canonical) return true;
    // (Every case of the other classes, stable and free, is a float scan: golden_class.)
    if (cls == GoldenClass::exact) return false;
    return compiled_plan(device, golden_operation(c).desc()).find("scan_chained") == std::string::npos;
}

// The corpus on one device: one line per case whose hash is not the committed one, by whether it fails
// the contract there (an exact or canonical case anywhere; another stable one on lavapipe, whose results
// the hashes are).
struct Mismatches {
    std::vector<std::string> failing;   // a contract violation
    std::vector<std::string> reported;  // allowed here: reported
    size_t count = 0;                   // the cases run
};

// `free_only`: the cases of the free class alone.
Mismatches golden_mismatches(const vkdml::Device& device, bool free_only) {
    std::map<std::string, uint64_t> expected;
    for (const GoldenHash& h : golden_hashes()) expected[h.name] = h.hash;
    const bool lavapipe = device.info().physical.driver_name == "llvmpipe";
    Mismatches m;
    for (size_t k = 0; k < golden_case_limit(); ++k) {
        const GoldenCase& c = golden_cases()[k];
        const GoldenClass cls = golden_class(c);
        if (free_only && cls != GoldenClass::free) continue;
        ++m.count;
        const uint64_t got = golden_run(device, c);
        const auto it = expected.find(c.name);
        const bool canonical = canonical_on(device, c);
        const bool binding =
            cls == GoldenClass::exact || canonical || (cls == GoldenClass::stable && lavapipe);
        const char* label = cls == GoldenClass::exact    ? "exact"
                            : canonical                  ? "canonical"
                            : cls == GoldenClass::stable ? "stable"
                                                         : "free";
        std::vector<std::string>& lines = binding ? m.failing : m.reported;
        if (it == expected.end())
            lines.push_back(std::string(label) + " " + c.name + ": no committed hash (computed " + hex(got) +
                            ")");
        else if (it->second != got)
            lines.push_back(std::string(label) + " " + c.name + ": " + hex(got) + ", committed " +
                            hex(it->second));
    }
    return m;
}

// CHECKs that no case differs where the contract binds it on `device`; prints the others that differ (one
// line each, as tools/gpu_check.sh collects them) and returns their count.
size_t check_corpus(const std::string& config, const vkdml::Device& device, bool free_only = false) {
    const auto start = std::chrono::steady_clock::now();
    const Mismatches m = golden_mismatches(device, free_only);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream text;
    for (const std::string& line : m.failing) text << "golden mismatch (" << config << "): " << line << "\n";
    INFO(text.str());
    CHECK(m.failing.empty());
    for (const std::string& line : m.reported)
        std::printf("golden: differs (%s): %s\n", config.c_str(), line.c_str());
    std::printf("golden: %s: %zu cases, %zu failing, %zu differing where the contract allows it (%.1f s)\n",
                config.c_str(), m.count, m.failing.size(), m.reported.size(), seconds);
    return m.reported.size();
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
    CHECK(class_of("cumsum FLOAT64 {1000003} axis 0, cancelling") == GoldenClass::stable);
    CHECK(class_of("cumprod FLOAT16 {1000003} axis 0, near 1") == GoldenClass::stable);
    CHECK(class_of("cumsum FLOAT32 {33} axis 0, normal") == GoldenClass::free);
    CHECK(class_of("reduce log_sum_exp FLOAT64 {257, 1031} axes {1}, normal") == GoldenClass::canonical);
    CHECK(class_of("reduce log_sum FLOAT32 {100003} axes {0}, positive") == GoldenClass::canonical);
    std::map<GoldenClass, int> count;
    for (const GoldenCase& c : cases) ++count[golden_class(c)];
    CHECK(class_of("reduce average FLOAT16 {1031, 257} axes {0}, normal with NaN, NaN ignored") ==
          GoldenClass::canonical);
    CHECK(class_of("cumsum FLOAT32 {100003} axis 0, normal with NaN, NaN ignored") == GoldenClass::free);
    CHECK(
        class_of("reduce variance FLOAT32 {257, 1031} axes {1} correction 1, normal with NaN, NaN ignored") ==
        GoldenClass::canonical);
    CHECK(class_of("cummax FLOAT32 {100003} axis 0, normal") == GoldenClass::exact);
    CHECK(class_of("reduce any FLOAT32 {257, 1031} axes {1}, normal with NaN") == GoldenClass::exact);
    CHECK(class_of("logcumsumexp FLOAT64 {1031, 257} axis 0 reverse, normal") == GoldenClass::stable);
    CHECK(class_of("logcumsumexp FLOAT32 {100003} axis 0, normal") == GoldenClass::free);
    CHECK(count[GoldenClass::exact] == 66);
    CHECK(count[GoldenClass::canonical] == 110);
    CHECK(count[GoldenClass::stable] == 52);
    CHECK(count[GoldenClass::free] == 33);
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

TEST_CASE(
    "the golden corpus matches in small windows; its free cases see the cooperative kernels' change of "
    "association",
    "[gpu][golden][families]") {
    using K = vkdml::KernelChoice;
    using P = vkdml::testing::DeviceOverrides::PolicyClass;
    size_t free = 0;
    // (The CPU rows with the serial kernels, the GPU rows with them and the GPU rows with the cooperative
    // kernels are the devices of the runs gpu-sg8, gpu-rows-sg8 and gpu-rows-coop, which check the whole
    // corpus on their own device; here the cooperative kernels run the free cases alone. The chained
    // scan's fallback gives its owner's bits: tests/scan/test_chained_stress.cpp.)
    free += check_corpus("GPU rows, cooperative", *make_test_device(K::cooperative, P::gpu), true);
    {
        UseLimitedDevice limited({1u << 20, 64});
        free += check_corpus("1 MiB windows, 64 workgroups", test_device());
    }
    // The free cases are those whose association still follows the plan: the configurations above fold
    // them differently, and the corpus must see it (a float32 cumulative sum of 3,000,001 elements
    // differs at a few positions between the serial and the cooperative kernels). This is the corpus's
    // proof that a change of association shows; once every association is fixed by indices alone it
    // becomes a planted one.
    CHECK(free > 0);
    require_no_validation_messages();
}
