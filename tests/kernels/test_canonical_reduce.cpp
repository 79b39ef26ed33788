// test_canonical_reduce.cpp — float reductions follow the canonical association (canonical_fold.hpp) bit
// for bit: with the CPU rows, the GPU rows of both kernel families and small windows, whatever the
// chunks, blocks and partial passes of the plan, a float SUM, MULTIPLY, L1 or SUM_SQUARE is the host
// definition's (the tree over its leaves: the elements, |x| or x·x).
#include <catch2/catch.hpp>

#include "canonical_fold.hpp"
#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "vkdml/ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

using Overrides = vkdml::testing::DeviceOverrides;

struct Function {
    DML_REDUCE_FUNCTION dml;
    CanonicalOp op;
    const char* name;
};
constexpr Function kFunctions[] = {{DML_REDUCE_FUNCTION_SUM, CanonicalOp::sum, "SUM"},
                                   {DML_REDUCE_FUNCTION_L1, CanonicalOp::sum, "L1"},
                                   {DML_REDUCE_FUNCTION_SUM_SQUARE, CanonicalOp::sum, "SUM_SQUARE"},
                                   {DML_REDUCE_FUNCTION_MULTIPLY, CanonicalOp::product, "MULTIPLY"}};

/// The input offsets of each output's leaves, row-major over the reduced axes, of a row-major tensor of
/// `sizes` reduced over `axes`.
std::vector<std::vector<size_t>> output_lines(const std::vector<uint32_t>& sizes,
                                              const std::vector<uint32_t>& axes) {
    const size_t rank = sizes.size();
    std::vector<bool> reduced(rank, false);
    for (uint32_t a : axes) reduced[a] = true;
    std::vector<size_t> stride(rank, 1);
    for (size_t d = rank - 1; d-- > 0;) stride[d] = stride[d + 1] * sizes[d + 1];
    size_t outputs = 1, leaves = 1;
    for (size_t d = 0; d < rank; ++d) (reduced[d] ? leaves : outputs) *= sizes[d];
    std::vector<std::vector<size_t>> lines(outputs, std::vector<size_t>(leaves));
    for (size_t o = 0; o < outputs; ++o) {
        size_t base = 0, rest = o;
        for (size_t d = rank; d-- > 0;)
            if (!reduced[d]) base += (rest % sizes[d]) * stride[d], rest /= sizes[d];
        for (size_t r = 0; r < leaves; ++r) {
            size_t at = base, left = r;
            for (size_t d = rank; d-- > 0;)
                if (reduced[d]) at += (left % sizes[d]) * stride[d], left /= sizes[d];
            lines[o][r] = at;
        }
    }
    return lines;
}

/// One output's elements, chosen so that the rounding shows the association. SUM: pairs of large values
/// (about 2^30 for float32, 2^60 for float64) that cancel exactly, at random places, among normal values:
/// the result is small, the partial sums large, and the compensated pairs' lost bits show in it (every
/// association rounds differently). L1 and SUM_SQUARE: normal values scaled by 2^-20 to 2^20.
/// MULTIPLY: 1 ± about 2^-7.
template <class T>
std::vector<T> line_data(size_t count, DML_REDUCE_FUNCTION f, std::mt19937_64& rng) {
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-20, 20);
    std::vector<T> x(count);
    for (T& v : x)
        v = static_cast<T>(f == DML_REDUCE_FUNCTION_MULTIPLY ? 1.0 + normal(rng) * 0x1p-7
                           : f == DML_REDUCE_FUNCTION_SUM    ? normal(rng)
                                                             : std::ldexp(normal(rng), exponent(rng)));
    if (f == DML_REDUCE_FUNCTION_SUM) {
        const double big = sizeof(T) == 4 ? 0x1p30 : 0x1p60;
        for (size_t i = 0; i + 1 < count / 2; i += 2) {
            const T b = static_cast<T>(normal(rng) * big);
            x[i] = b;
            x[i + 1] = -b;
        }
        std::shuffle(x.begin(), x.end(), rng);
    }
    return x;
}

/// The leaf a function folds for element x.
template <class T>
T leaf(DML_REDUCE_FUNCTION f, T x) {
    if (f == DML_REDUCE_FUNCTION_L1) return std::fabs(x);
    if (f == DML_REDUCE_FUNCTION_SUM_SQUARE) return x * x;
    return x;
}

/// Runs REDUCE `f` of `x` (float32, `sizes`) over `axes` on `dev`.
template <class T>
std::vector<T> run_reduce(const vkdml::Device& dev, DML_REDUCE_FUNCTION f, const std::vector<T>& x,
                          const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& axes,
                          size_t outputs) {
    const vkdml::ops::TensorDesc t{float_type_of<T>(), sizes, {}};
    auto o = vkdml::ops::reduce(t, f, std::span<const uint32_t>(axes));
    REQUIRE(o);
    std::vector<T> got(outputs);
    const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(got))};
    REQUIRE(vkdml::execute(dev, o->desc(), in, out));
    return got;
}

/// An AVERAGE or L2 of one line and its exact result rounded to nearest even.
template <class T>
struct RoundedCase {
    DML_REDUCE_FUNCTION f;
    std::vector<T> x;
    T want;
};

/// Whether the device may flush subnormals of T to zero: it does not promise to keep them
/// (DeviceInfo::denorm_preserve_float32/64, where vkdml asks every kernel to keep them). Lavapipe promises
/// nothing and keeps them; NVIDIA flushes float32 ones unless asked.
template <class T>
bool may_flush(const vkdml::Device& dev) {
    return sizeof(T) == 4 ? !dev.info().denorm_preserve_float32 : !dev.info().denorm_preserve_float64;
}

template <class T>
bool subnormal(T v) {
    return v != 0 && std::fabs(v) < std::numeric_limits<T>::min();
}

/// `got` is `want` bit for bit, or, where the device may flush and the case passes through a subnormal
/// (an input, a square or the result), a zero.
template <class T>
bool same_or_flushed(T got, T want, bool through_subnormal, bool flush) {
    return std::memcmp(&got, &want, sizeof(T)) == 0 || (flush && through_subnormal && got == 0);
}

/// Each case's one output, bit for bit (or a zero from a device that may flush subnormals, see
/// same_or_flushed).
template <class T>
void check_rounded_cases(const vkdml::Device& dev, const std::vector<RoundedCase<T>>& cases) {
    const bool flush = may_flush<T>(dev);
    for (const RoundedCase<T>& c : cases) {
        const std::vector<T> got = run_reduce<T>(dev, c.f, c.x, {static_cast<uint32_t>(c.x.size())}, {0}, 1);
        bool through = subnormal(c.want);
        for (T v : c.x)
            through = through || subnormal(v) || (c.f == DML_REDUCE_FUNCTION_L2 && subnormal(v * v));
        INFO((c.f == DML_REDUCE_FUNCTION_L2 ? "L2" : "AVERAGE")
             << " of " << c.x.size() << " elements: got " << got[0] << ", want " << c.want
             << (flush ? " (the device may flush subnormals)" : ""));
        CHECK(same_or_flushed(got[0], c.want, through, flush));
    }
}

/// float32 AVERAGE and L2: the canonical sum (of squares) divided by N, or its square root, correctly
/// rounded (the host's IEEE division and square root), whatever the device's own.
void check_rounded(const vkdml::Device& dev, const std::string& device_name,
                   const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& axes,
                   const std::vector<std::vector<size_t>>& lines) {
    size_t count = 1;
    for (uint32_t s : sizes) count *= s;
    std::mt19937_64 rng(count * 13 + axes.size());
    std::vector<float> x(count);
    for (const auto& line : lines) {
        const std::vector<float> values = line_data<float>(line.size(), DML_REDUCE_FUNCTION_L1, rng);
        for (size_t r = 0; r < line.size(); ++r) x[line[r]] = values[r];
    }
    for (DML_REDUCE_FUNCTION f : {DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_L2}) {
        const std::vector<float> got = run_reduce<float>(dev, f, x, sizes, axes, lines.size());
        size_t differ = 0;
        for (size_t o = 0; o < lines.size(); ++o) {
            std::vector<float> leaves(lines[o].size());
            for (size_t r = 0; r < leaves.size(); ++r)
                leaves[r] = f == DML_REDUCE_FUNCTION_L2 ? x[lines[o][r]] * x[lines[o][r]] : x[lines[o][r]];
            const float sum = canonical_reduce(CanonicalOp::sum, leaves);
            const float want =
                f == DML_REDUCE_FUNCTION_L2 ? std::sqrt(sum) : sum / static_cast<float>(leaves.size());
            if (std::memcmp(&got[o], &want, 4) != 0) ++differ;
        }
        INFO(device_name << ": float32 " << (f == DML_REDUCE_FUNCTION_L2 ? "L2" : "AVERAGE") << ": " << differ
                         << " of " << lines.size() << " outputs differ");
        CHECK(differ == 0);
    }
}

/// `rounded`: float32 AVERAGE and L2 too (check_rounded).
template <class T>
void check_shape(const vkdml::Device& dev, const std::string& device_name, const std::vector<uint32_t>& sizes,
                 const std::vector<uint32_t>& axes, bool rounded = false) {
    size_t count = 1;
    for (uint32_t s : sizes) count *= s;
    const auto lines = output_lines(sizes, axes);
    for (const Function& f : kFunctions) {
        std::mt19937_64 rng(count * 7 + axes.size() + f.dml);
        std::vector<T> x(count), want(lines.size());
        for (size_t o = 0; o < lines.size(); ++o) {
            const std::vector<T> line = line_data<T>(lines[o].size(), f.dml, rng);
            std::vector<T> leaves(line.size());
            for (size_t r = 0; r < line.size(); ++r) {
                x[lines[o][r]] = line[r];
                leaves[r] = leaf(f.dml, line[r]);
            }
            want[o] = canonical_reduce(f.op, leaves);
        }
        const vkdml::ops::TensorDesc t{float_type_of<T>(), sizes, {}};
        auto o = vkdml::ops::reduce(t, f.dml, std::span<const uint32_t>(axes));
        REQUIRE(o);
        std::vector<T> got(want.size());
        const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
        const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(got))};
        const vkdml::Status st = vkdml::execute(dev, o->desc(), in, out);
        REQUIRE(st);
        const Differences d = find_differences(
            got.size(), [&](uint64_t i) { return std::memcmp(&got[i], &want[i], sizeof(T)) != 0; });
        std::string shape;
        for (uint32_t s : sizes) shape += (shape.empty() ? "" : ", ") + std::to_string(s);
        std::string over;
        for (uint32_t a : axes) over += (over.empty() ? "" : ", ") + std::to_string(a);
        INFO(device_name << ": " << (sizeof(T) == 4 ? "float32 " : "float64 ") << f.name << " of [" << shape
                         << "] over {" << over << "}, " << got.size() << " outputs: " << d << " ("
                         << got[d.first] << " vs " << want[d.first] << ")");
        CHECK(d.count == 0);
    }
    if constexpr (sizeof(T) == 4)
        if (rounded) check_rounded(dev, device_name, sizes, axes, lines);
}

}  // namespace

TEST_CASE(
    "float sums and products of reductions follow the canonical association on every row, family and window",
    "[gpu][canonical]") {
    using P = Overrides::PolicyClass;
    using K = vkdml::KernelChoice;
    const struct {
        const char* name;
        std::shared_ptr<vkdml::Device> dev;
    } devices[] = {{"CPU rows", make_windowed_test_device(K::serial, P::cpu, 0)},
                   {"GPU rows, serial", make_windowed_test_device(K::serial, P::gpu, 0)},
                   {"GPU rows, cooperative", make_windowed_test_device(K::cooperative, P::gpu, 0)},
                   {"GPU rows, cooperative, 64 KiB windows",
                    make_windowed_test_device(K::cooperative, P::gpu, 1u << 16)}};
    for (const auto& d : devices) {
        // Around the node boundaries of 32, 1,024 and 32,768 leaves and past the longest chunks (partial
        // passes); rows along the line (blocks along it, whole short rows, rows of 48, whose blocks no node
        // of 32 divides), rows across the line (blocks across outputs), and two reduced axes. (Each shape
        // compiles its own pipelines: a few of each kind.)
        for (uint32_t n : {1u, 32u, 33u, 1025u, 32769u, 100003u})
            check_shape<float>(*d.dev, d.name, {n}, {0}, n > 32);
        for (uint32_t n : {33u, 32769u}) check_shape<double>(*d.dev, d.name, {n}, {0});
        check_shape<float>(*d.dev, d.name, {3, 4096}, {1}, true);
        check_shape<float>(*d.dev, d.name, {5000, 3}, {1});
        check_shape<float>(*d.dev, d.name, {300, 48}, {1}, true);
        check_shape<float>(*d.dev, d.name, {2051, 8}, {0}, true);
        check_shape<double>(*d.dev, d.name, {1500, 6}, {0});
        check_shape<float>(*d.dev, d.name, {40000, 2}, {0});
        check_shape<float>(*d.dev, d.name, {64, 7, 100}, {0, 2}, true);
    }
    require_no_validation_messages();
}

TEST_CASE("float32 AVERAGE and L2 are correctly rounded: ties, subnormals, overflow", "[gpu][canonical]") {
    const float tiny = std::ldexp(1.0f, -149);  // the least subnormal
    const float big = 3e38f;
    const std::vector<RoundedCase<float>> cases = {
        // 3 and 5 least subnormals halved: 1.5 and 2.5 of them, ties to the even 2 and 2.
        {DML_REDUCE_FUNCTION_AVERAGE, {3 * tiny, 0.0f}, 2 * tiny},
        {DML_REDUCE_FUNCTION_AVERAGE, {5 * tiny, 0.0f}, 2 * tiny},
        {DML_REDUCE_FUNCTION_AVERAGE, {7 * tiny, 0.0f}, 4 * tiny},
        // A subnormal sum over 3, and one over 7 that rounds to the least normal's neighbourhood.
        {DML_REDUCE_FUNCTION_AVERAGE, {1e-39f, 2e-39f, 4e-39f}, 7e-39f / 3.0f},
        {DML_REDUCE_FUNCTION_AVERAGE,
         {1e-38f, 1e-38f, 1e-38f, 1e-38f, 1e-38f, 1e-38f, 1e-38f},
         7e-38f / 7.0f},
        // A sum that overflows (inf / 3), one that does not, a negative one, zeros of both signs.
        {DML_REDUCE_FUNCTION_AVERAGE, {big, big, big}, std::numeric_limits<float>::infinity()},
        {DML_REDUCE_FUNCTION_AVERAGE, {big, -big, big}, big / 3.0f},
        {DML_REDUCE_FUNCTION_AVERAGE, {-1.0f, -2.0f, -4.0f}, -7.0f / 3.0f},
        {DML_REDUCE_FUNCTION_AVERAGE, {-0.0f, -0.0f, -0.0f}, -0.0f},
        {DML_REDUCE_FUNCTION_AVERAGE,
         {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f},
         66.0f / 11.0f},
        // Square roots of subnormal sums, of 2 (irrational), of a perfect square, of huge sums and of 0.
        {DML_REDUCE_FUNCTION_L2, {3e-20f, 4e-20f}, std::sqrt(3e-20f * 3e-20f + 4e-20f * 4e-20f)},
        {DML_REDUCE_FUNCTION_L2, {tiny, 0.0f}, 0.0f},
        {DML_REDUCE_FUNCTION_L2, {1.0f, 1.0f}, std::sqrt(2.0f)},
        {DML_REDUCE_FUNCTION_L2, {3.0f, 4.0f}, 5.0f},
        {DML_REDUCE_FUNCTION_L2, {1e19f, 1e19f}, std::sqrt(1e19f * 1e19f + 1e19f * 1e19f)},
        {DML_REDUCE_FUNCTION_L2, {1e20f, 1e20f}, std::numeric_limits<float>::infinity()},
        {DML_REDUCE_FUNCTION_L2, {-0.0f, 0.0f}, 0.0f},
    };
    auto dev = make_test_device(vkdml::KernelChoice::serial);
    check_rounded_cases(*dev, cases);
    // The same quotients of every float32 sum of a line of 3 against IEEE division: 2,000 random bit
    // patterns over every exponent (NaN and infinity aside), subnormals included.
    std::mt19937 rng(7);
    std::vector<float> x(3 * 2000);
    std::vector<float> want(2000);
    for (size_t i = 0; i < want.size(); ++i) {
        float v = 0;
        do {
            const uint32_t bits = static_cast<uint32_t>(rng());
            std::memcpy(&v, &bits, 4);
        } while (!std::isfinite(v) || std::fabs(v) > 1e38f);
        x[3 * i] = v;
        x[3 * i + 1] = 0.0f;
        x[3 * i + 2] = 0.0f;
        want[i] = v / 3.0f;
    }
    const std::vector<float> got =
        run_reduce<float>(*dev, DML_REDUCE_FUNCTION_AVERAGE, x, {2000, 3}, {1}, 2000);
    size_t differ = 0;
    const bool flush = may_flush<float>(*dev);
    for (size_t i = 0; i < want.size(); ++i)
        differ += !same_or_flushed(got[i], want[i], subnormal(x[3 * i]) || subnormal(want[i]), flush);
    CHECK(differ == 0);
    require_no_validation_messages();
}

TEST_CASE("float64 AVERAGE and L2 are correctly rounded: ties, subnormals, overflow, random bits",
          "[gpu][canonical]") {
    const double tiny = std::ldexp(1.0, -1074);  // the least subnormal
    const double big = 1.5e308;
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<RoundedCase<double>> cases = {
        // 1.5, 2.5 and 3.5 least subnormals: ties to the even 2, 2 and 4.
        {DML_REDUCE_FUNCTION_AVERAGE, {3 * tiny, 0.0}, 2 * tiny},
        {DML_REDUCE_FUNCTION_AVERAGE, {5 * tiny, 0.0}, 2 * tiny},
        {DML_REDUCE_FUNCTION_AVERAGE, {7 * tiny, 0.0}, 4 * tiny},
        // Subnormal quotients, one next to the least normal, an overflowing sum, a negative one, -0.
        {DML_REDUCE_FUNCTION_AVERAGE, {1e-310, 2e-310, 4e-310}, 7e-310 / 3.0},
        {DML_REDUCE_FUNCTION_AVERAGE, {2.2e-308, 2.2e-308, 2.2e-308, 0.0, 0.0, 0.0, 0.0}, 6.6e-308 / 7.0},
        {DML_REDUCE_FUNCTION_AVERAGE, {big, big, big}, inf},
        {DML_REDUCE_FUNCTION_AVERAGE, {big, -big, big}, big / 3.0},
        {DML_REDUCE_FUNCTION_AVERAGE, {-1.0, -2.0, -4.0}, -7.0 / 3.0},
        {DML_REDUCE_FUNCTION_AVERAGE, {-0.0, -0.0, -0.0}, -0.0},
        // Square roots: of a subnormal's square (0), of 2, of a perfect square, of huge and tiny sums.
        {DML_REDUCE_FUNCTION_L2, {tiny, 0.0}, 0.0},
        {DML_REDUCE_FUNCTION_L2, {1.0, 1.0}, std::sqrt(2.0)},
        {DML_REDUCE_FUNCTION_L2, {3.0, 4.0}, 5.0},
        {DML_REDUCE_FUNCTION_L2, {1e154, 1e154}, std::sqrt(1e154 * 1e154 + 1e154 * 1e154)},
        {DML_REDUCE_FUNCTION_L2, {1e155, 1e155}, inf},
        {DML_REDUCE_FUNCTION_L2, {3e-160, 4e-160}, std::sqrt(3e-160 * 3e-160 + 4e-160 * 4e-160)},
        {DML_REDUCE_FUNCTION_L2, {-0.0, 0.0}, 0.0},
    };
    auto dev = make_test_device(vkdml::KernelChoice::serial);
    check_rounded_cases(*dev, cases);
    // 2,000 random bit patterns over every exponent (subnormals included): each divided by 3 and by 7
    // (lines of 3 and 7, the rest zeros), and the square root of its square (a line of one: L2).
    std::mt19937_64 rng(11);
    const size_t n = 2000;
    std::vector<double> v(n);
    for (double& e : v) {
        do {
            const uint64_t bits = rng();
            std::memcpy(&e, &bits, 8);
        } while (!std::isfinite(e) || std::fabs(e) > 1e307);
    }
    for (uint32_t len : {3u, 7u}) {
        std::vector<double> x(n * len, 0.0);
        for (size_t i = 0; i < n; ++i) x[i * len] = v[i];
        const std::vector<double> got =
            run_reduce<double>(*dev, DML_REDUCE_FUNCTION_AVERAGE, x, {uint32_t(n), len}, {1}, n);
        size_t differ = 0;
        for (size_t i = 0; i < n; ++i) {
            const double want = v[i] / double(len);
            differ +=
                !same_or_flushed(got[i], want, subnormal(v[i]) || subnormal(want), may_flush<double>(*dev));
        }
        INFO("AVERAGE over lines of " << len << ": " << differ << " of " << n << " differ");
        CHECK(differ == 0);
    }
    const std::vector<double> roots =
        run_reduce<double>(*dev, DML_REDUCE_FUNCTION_L2, v, {uint32_t(n), 1}, {1}, n);
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) {
        const double want = std::sqrt(v[i] * v[i]);
        differ += !same_or_flushed(roots[i], want, subnormal(v[i]) || subnormal(v[i] * v[i]),
                                   may_flush<double>(*dev));
    }
    INFO("L2 of single elements: " << differ << " of " << n << " differ");
    CHECK(differ == 0);
    require_no_validation_messages();
}
