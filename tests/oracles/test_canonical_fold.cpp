// test_canonical_fold.cpp — the canonical association's two host implementations (canonical_fold.hpp)
// agree bit for bit, reduce to a plain left fold on one block, and keep the compensated accuracy.
#include "canonical_fold.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

using namespace vkdml_test;

namespace {

template <class T>
std::vector<T> random_values(size_t n, uint64_t seed, bool near_one) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<T> x(n);
    for (T& v : x) v = static_cast<T>(near_one ? 1.0 + normal(rng) * 0x1p-8 : normal(rng));
    return x;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b, std::string& where) {
    if (a.size() != b.size()) {
        where = "sizes differ";
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
            where =
                "position " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
            return false;
        }
    }
    return true;
}

template <class T>
void check_walker_matches_definition() {
    // Lengths around every node boundary of the first three levels (32, 1,024, 32,768).
    const size_t r = kCanonicalArity;
    std::vector<size_t> lengths = {0,
                                   1,
                                   2,
                                   r - 1,
                                   r,
                                   r + 1,
                                   2 * r,
                                   r * r - 1,
                                   r * r,
                                   r * r + 1,
                                   r * r + r + 1,
                                   3 * r * r + 5,
                                   r * r * r - 1,
                                   r * r * r,
                                   r * r * r + 1,
                                   r * r * r + r * r + r + 7};
    for (size_t n : lengths) {
        for (CanonicalOp op : {CanonicalOp::sum, CanonicalOp::product}) {
            const std::vector<T> x =
                random_values<T>(n, n * 2 + (op == CanonicalOp::sum), op == CanonicalOp::product);
            for (bool exclusive : {false, true}) {
                INFO("n " << n << (op == CanonicalOp::sum ? " sum" : " product")
                          << (exclusive ? " exclusive" : ""));
                std::string where;
                const bool same =
                    same_bits(canonical_scan(op, x, exclusive), canonical_scan_walk(op, x, exclusive), where);
                INFO(where);
                CHECK(same);
            }
        }
    }
}

}  // namespace

TEST_CASE("canonical fold: the one-pass walker gives the definition's bits at every node boundary",
          "[reference][canonical]") {
    check_walker_matches_definition<float>();
    check_walker_matches_definition<double>();
}

TEST_CASE("canonical fold: one block is a plain left fold; longer lines keep the compensated accuracy",
          "[reference][canonical]") {
    for (size_t n = 0; n <= kCanonicalArity; ++n) {
        const std::vector<float> x = random_values<float>(n, 7 + n, false);
        const float plain = sequential_fold(CanonicalOp::sum, x);
        const float tree = canonical_reduce(CanonicalOp::sum, x);
        CHECK(std::memcmp(&plain, &tree, sizeof plain) == 0);
        const std::vector<float> scan = canonical_scan(CanonicalOp::sum, x, false);
        if (n > 0) CHECK(std::memcmp(&scan.back(), &plain, sizeof plain) == 0);
    }
    // 100,003 normal values: every inclusive prefix within 2 float32 ulps of the exact value (long double
    // holds these float sums exactly enough), as the accuracy contract asks of every kernel.
    const std::vector<float> x = random_values<float>(100003, 11, false);
    const std::vector<float> y = canonical_scan(CanonicalOp::sum, x, false);
    long double exact = 0;
    size_t worst_ulps = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        exact += x[i];
        const float rounded = static_cast<float>(exact);
        const float ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
        const long double err = std::fabs(static_cast<long double>(y[i]) - exact) / ulp;
        worst_ulps = std::max(worst_ulps, static_cast<size_t>(std::ceil(static_cast<double>(err))));
    }
    CHECK(worst_ulps <= 2);
    // Signed zeros: a sum of -0s is -0; an exclusive scan starts at +0, a product's at 1.
    const std::vector<float> zeros(40, -0.0f);
    CHECK(std::signbit(canonical_reduce(CanonicalOp::sum, zeros)));
    CHECK(std::signbit(canonical_scan(CanonicalOp::sum, zeros, false).back()));
    const std::vector<float> excl = canonical_scan(CanonicalOp::sum, zeros, true);
    CHECK((excl[0] == 0.0f && !std::signbit(excl[0])));
    CHECK(std::signbit(excl[39]));
    CHECK(canonical_scan(CanonicalOp::product, zeros, true)[0] == 1.0f);
    CHECK(canonical_reduce(CanonicalOp::product, std::vector<double>{}) == 1.0);
}
