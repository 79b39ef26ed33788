// DML_CUMULATIVE_PRODUCT semantics pinned with exact values (SPEC §3): integer products modulo
// 2^bits for every integer type, including long axes that wrap again and again; IEEE zeros,
// infinities, NaN, overflow and underflow; FLOAT16 accumulated in FLOAT32 and rounded once.
#include <catch2/catch.hpp>

#include "differences.hpp"
#include "gpu_fixture.hpp"
#include "half.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace vkdml_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr ScanSpec kInclusive{ScanOp::product, 0, false, false};
constexpr ScanSpec kExclusive{ScanOp::product, 0, false, true};
constexpr ScanSpec kDecreasing{ScanOp::product, 0, true, false};
constexpr ScanSpec kDecreasingExclusive{ScanOp::product, 0, true, true};

// Runs a 1-D cumulative product of `input` (already filled) and returns the output tensor.
TestTensor run_product(const TestTensor& input, const ScanSpec& spec) {
    TestTensor in = input;
    TestTensor out = make_packed(input.type, input.sizes);
    const vkdml::Status st = execute_scan(spec, in, &out);
    require_no_validation_messages();
    INFO(to_string(spec) << " of " << input.describe() << ": "
                         << (st ? std::string("ok") : st.error().message));
    REQUIRE(st);
    return out;
}

// ---- integers ----------------------------------------------------------------------------------

// Bit patterns of a 1-D integer cumprod of `values` (given as bit patterns, stored modulo 2^bits).
std::vector<uint64_t> integer_product(DML_TENSOR_DATA_TYPE type, const std::vector<uint64_t>& values,
                                      const ScanSpec& spec = kInclusive) {
    TestTensor in = make_packed(type, {static_cast<uint32_t>(values.size())});
    for (uint64_t i = 0; i < values.size(); ++i) in.set_bits(i, values[i]);
    const TestTensor out = run_product(in, spec);
    std::vector<uint64_t> bits;
    for (uint64_t i = 0; i < values.size(); ++i) bits.push_back(out.get_bits(i));
    return bits;
}

// The low `bits` bits of a signed value's two's complement.
std::vector<uint64_t> wrapped(DML_TENSOR_DATA_TYPE type, const std::vector<int64_t>& values) {
    std::vector<uint64_t> out;
    for (int64_t v : values) out.push_back(static_cast<uint64_t>(v) & type_mask(type));
    return out;
}

// base^n modulo 2^64 by square-and-multiply: an order of multiplication unrelated to a scan's.
uint64_t power(uint64_t base, uint64_t n) {
    uint64_t result = 1;
    while (n) {
        if (n & 1u) result *= base;
        base *= base;
        n >>= 1;
    }
    return result;
}

// ---- floats ------------------------------------------------------------------------------------

std::vector<double> float_product(DML_TENSOR_DATA_TYPE type, const std::vector<double>& values,
                                  const ScanSpec& spec = kInclusive) {
    TestTensor in = make_packed(type, {static_cast<uint32_t>(values.size())});
    for (uint64_t i = 0; i < values.size(); ++i) in.set_double(i, values[i]);
    const TestTensor out = run_product(in, spec);
    std::vector<double> y;
    for (uint64_t i = 0; i < values.size(); ++i) y.push_back(out.get_double(i));
    return y;
}

// Equal as IEEE values with the sign of zero significant, NaN equal to NaN.
bool same_values(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]) ? !std::isnan(got[i])
                                : got[i] != want[i] || std::signbit(got[i]) != std::signbit(want[i]))
            return false;
    }
    return true;
}

std::string show(const std::vector<double>& values) {
    std::ostringstream s;
    s.precision(17);
    s << "[";
    for (size_t i = 0; i < values.size(); ++i) s << (i ? ", " : "") << values[i];
    return s.str() + "]";
}

void check_float(DML_TENSOR_DATA_TYPE type, const std::vector<double>& input, const ScanSpec& spec,
                 const std::vector<double>& want) {
    const std::vector<double> got = float_product(type, input, spec);
    INFO(type_name(type) << " " << to_string(spec) << " of " << show(input) << "\n  got  " << show(got)
                         << "\n  want " << show(want));
    CHECK(same_values(got, want));
}

const std::vector<DML_TENSOR_DATA_TYPE> kFloatTypes = {
    DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT64};

}  // namespace

TEST_CASE("cumprod: integer products are exact modulo 2^bits for every integer type", "[gpu][cumprod]") {
    // Expected values from exact big-integer products reduced modulo 2^bits.
    using T = DML_TENSOR_DATA_TYPE;
    const T i8 = DML_TENSOR_DATA_TYPE_INT8, u8 = DML_TENSOR_DATA_TYPE_UINT8;
    const T i16 = DML_TENSOR_DATA_TYPE_INT16, u16 = DML_TENSOR_DATA_TYPE_UINT16;
    const T i32 = DML_TENSOR_DATA_TYPE_INT32, u32 = DML_TENSOR_DATA_TYPE_UINT32;
    const T i64 = DML_TENSOR_DATA_TYPE_INT64, u64 = DML_TENSOR_DATA_TYPE_UINT64;
    constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();

    CHECK(integer_product(i8, wrapped(i8, {16, 16})) == wrapped(i8, {16, 0}));
    CHECK(integer_product(i8, wrapped(i8, {-128, -1})) == wrapped(i8, {-128, -128}));
    CHECK(integer_product(i8, wrapped(i8, {127, 127})) == wrapped(i8, {127, 1}));
    CHECK(integer_product(i8, wrapped(i8, {2, 3, 5, 7, 11})) == wrapped(i8, {2, 6, 30, -46, 6}));
    CHECK(integer_product(u8, {255, 255}) == std::vector<uint64_t>{255, 1});
    CHECK(integer_product(u8, {16, 16}) == std::vector<uint64_t>{16, 0});
    CHECK(integer_product(u8, {2, 3, 5, 7, 11}) == std::vector<uint64_t>{2, 6, 30, 210, 6});

    CHECK(integer_product(i16, wrapped(i16, {181, 181, 2})) == wrapped(i16, {181, 32761, -14}));
    CHECK(integer_product(i16, wrapped(i16, {-32768, -1})) == wrapped(i16, {-32768, -32768}));
    CHECK(integer_product(i16, wrapped(i16, {256, 256})) == wrapped(i16, {256, 0}));
    CHECK(integer_product(u16, {65535, 65535}) == std::vector<uint64_t>{65535, 1});
    CHECK(integer_product(u16, {300, 300}) == std::vector<uint64_t>{300, 24464});

    CHECK(integer_product(i32, wrapped(i32, {46341, 46341})) == wrapped(i32, {46341, -2147479015}));
    CHECK(integer_product(i32, wrapped(i32, {65536, 65536})) == wrapped(i32, {65536, 0}));
    CHECK(integer_product(i32, wrapped(i32, {INT32_MIN, -1})) == wrapped(i32, {INT32_MIN, INT32_MIN}));
    CHECK(integer_product(u32, {4294967295, 4294967295}) == std::vector<uint64_t>{4294967295, 1});
    CHECK(integer_product(u32, {100000, 100000}) == std::vector<uint64_t>{100000, 1410065408});

    CHECK(integer_product(i64, wrapped(i64, {4294967297, 4294967297})) ==
          wrapped(i64, {4294967297, 8589934593}));
    CHECK(integer_product(i64, wrapped(i64, {kMin64, -1})) == wrapped(i64, {kMin64, kMin64}));
    CHECK(integer_product(i64, wrapped(i64, {3037000500, 3037000500})) ==
          wrapped(i64, {3037000500, -9223372036709301616}));
    CHECK(integer_product(u64, {18446744073709551615u, 18446744073709551615u}) ==
          std::vector<uint64_t>{18446744073709551615u, 1});
    CHECK(integer_product(u64, {4294967296, 4294967296}) == std::vector<uint64_t>{4294967296, 0});
    CHECK(integer_product(u64, {10000000000, 10000000000}) ==
          std::vector<uint64_t>{10000000000, 7766279631452241920u});

    // Direction and exclusivity with wrap-around: 200 * 3 = 600 = 88 (mod 256).
    CHECK(integer_product(u8, {200, 3, 1}, kDecreasing) == std::vector<uint64_t>{88, 3, 1});
    CHECK(integer_product(u8, {200, 3, 1}, kExclusive) == std::vector<uint64_t>{1, 200, 88});
    CHECK(integer_product(u8, {200, 3, 1}, kDecreasingExclusive) == std::vector<uint64_t>{3, 1, 1});
}

TEST_CASE("cumprod: long integer axes wrap again and again (base^k modulo 2^bits)", "[gpu][cumprod][long]") {
    // Each fiber is one odd base repeated 70,001 times (past lavapipe's 65,535-iteration loop cap),
    // through a zero stride (broadcast) or stored; y[k] is compared with base^(k+1) by
    // square-and-multiply. Odd bases never reach 0, so every wrap shows.
    constexpr uint32_t kLength = 70001;
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (is_float_type(type)) continue;
        for (uint64_t base : {uint64_t{3}, uint64_t{0x9E3779B97F4A7C15u}, ~uint64_t{2} /* -3 */}) {
            for (bool broadcast : {false, true}) {
                for (const ScanSpec& spec : {kInclusive, kExclusive, kDecreasing, kDecreasingExclusive}) {
                    TestTensor in =
                        broadcast ? make_broadcast(type, {kLength}, 1u) : make_packed(type, {kLength});
                    for (uint64_t i = 0; i < (broadcast ? 1u : kLength); ++i) in.set_bits(i, base);
                    const TestTensor out = run_product(in, spec);
                    const uint64_t b = base & type_mask(type);
                    const Differences d = find_differences(kLength, [&](uint64_t k) {
                        // Factors folded into y[k]: k + 1 (inclusive), k (exclusive), mirrored when
                        // decreasing.
                        const uint64_t from_start = spec.decreasing ? kLength - 1 - k : k;
                        const uint64_t n = from_start + (spec.exclusive ? 0 : 1);
                        return ((out.get_bits(k) ^ power(b, n)) & type_mask(type)) != 0;
                    });
                    INFO(type_name(type)
                         << " base 0x" << std::hex << b << std::dec << (broadcast ? " broadcast " : " ")
                         << to_string(spec) << ": " << d);
                    CHECK(d.count == 0);
                }
            }
        }
    }
}

TEST_CASE("cumprod: zeros, infinities and NaN propagate as IEEE multiplication says", "[gpu][cumprod]") {
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        // A zero zeroes the rest; a later infinity makes 0 x inf = NaN.
        check_float(type, {2, 0, 3, kInf}, kInclusive, {2, 0, 0, kNaN});
        check_float(type, {2, 0, 3, kInf}, kExclusive, {1, 2, 0, 0});
        check_float(type, {2, 0, 3, kInf}, kDecreasing, {kNaN, kNaN, kInf, kInf});
        check_float(type, {2, 0, 3, kInf}, kDecreasingExclusive, {kNaN, kInf, kInf, 1});
        check_float(type, {kInf, 0, 5}, kInclusive, {kInf, kNaN, kNaN});
        // The sign of a zero or an infinity is the product of the signs.
        check_float(type, {-2, 0, 3, -1}, kInclusive, {-2, -0.0, -0.0, 0.0});
        check_float(type, {3, kInf, -2, 0.5}, kInclusive, {3, kInf, -kInf, -kInf});
        check_float(type, {-kInf, -kInf, -1}, kInclusive, {-kInf, kInf, -kInf});
        check_float(type, {-0.0, -0.0}, kInclusive, {-0.0, 0.0});
        // NaN stays NaN, whatever follows.
        check_float(type, {1, kNaN, 0, kInf, 2}, kInclusive, {1, kNaN, kNaN, kNaN, kNaN});
        check_float(type, {1, kNaN, 0, kInf, 2}, kDecreasing, {kNaN, kNaN, kNaN, kInf, 2});
    }
}

TEST_CASE("cumprod: overflow gives infinity and underflow zero in the accumulator", "[gpu][cumprod]") {
    // FLOAT32 and FLOAT64 overflow and underflow in their own type (all factors >= 1 in magnitude,
    // or all <= 1, so every grouping of the product overflows, or underflows, alike).
    check_float(DML_TENSOR_DATA_TYPE_FLOAT32, {1e30, 1e30, 1e30, -1}, kInclusive,
                {static_cast<double>(1e30f), kInf, kInf, -kInf});
    check_float(DML_TENSOR_DATA_TYPE_FLOAT32, {1e-30, 1e-30, -0.5}, kInclusive,
                {static_cast<double>(1e-30f), 0, -0.0});
    check_float(DML_TENSOR_DATA_TYPE_FLOAT64, {1e200, 1e200, -1}, kInclusive, {1e200, kInf, -kInf});
    check_float(DML_TENSOR_DATA_TYPE_FLOAT64, {1e-200, 1e-200, -1}, kInclusive, {1e-200, 0, -0.0});
    // FLOAT16 accumulates in FLOAT32: 300 x 300 = 90000 is inf as binary16 but not in the accumulator,
    // so dividing by 256 afterwards gives 351.5625 -> 351.5 (binary16 accumulation would stay inf).
    check_float(DML_TENSOR_DATA_TYPE_FLOAT16, {300, 300, 0.00390625, 1}, kInclusive,
                {300, kInf, 351.5, 351.5});
    // ... and below binary16's normal range: 2^-14 x 2^-10 = 2^-24 (the smallest subnormal), halved
    // is 2^-25, a tie rounded to even (0), and x3 is 1.5 x 2^-24, a tie rounded to 2^-23.
    check_float(DML_TENSOR_DATA_TYPE_FLOAT16, {0x1p-14, 0x1p-10, 0.5, 3}, kInclusive,
                {0x1p-14, 0x1p-24, 0, 0x1p-23});
}

TEST_CASE("cumprod: FLOAT16 accumulates in FLOAT32 and is rounded once", "[gpu][cumprod]") {
    // x = 1 + 2^-10 (exact in binary16), 512 times: y[k] = (1 + 2^-10)^(k+1) rounded once to binary16
    // (1.6485 at the end). Rounding to binary16 after every step would drop the quadratic term each
    // time and end at 1 + 512 x 2^-10 = 1.5.
    constexpr uint32_t kLength = 512;
    const double x = 1 + 0x1p-10;
    TestTensor in = make_packed(DML_TENSOR_DATA_TYPE_FLOAT16, {kLength});
    for (uint64_t i = 0; i < kLength; ++i) in.set_double(i, x);
    const TestTensor out = run_product(in, kInclusive);
    uint32_t checked = 0, mismatches = 0;
    double exact = 1;
    for (uint64_t k = 0; k < kLength; ++k) {
        exact *= x;  // exact in double for the first 5 steps, then within 2^-53 per step
        // The float32 accumulator is within (k + 1) x 2^-24 relatively of the exact product; positions
        // whose binary16 rounding that error could change are skipped.
        const double bound = exact * static_cast<double>(k + 2) * 0x1p-24;
        const double want = half_to_double(half_from_double(exact));
        if (half_to_double(half_from_double(exact - bound)) != want ||
            half_to_double(half_from_double(exact + bound)) != want)
            continue;
        ++checked;
        if (out.get_double(k) != want) {
            ++mismatches;
            UNSCOPED_INFO("y[" << k << "] = " << out.get_double(k) << ", want " << want);
        }
    }
    CHECK(checked > kLength * 9 / 10);
    CHECK(mismatches == 0);
    CHECK(out.get_double(kLength - 1) == half_to_double(half_from_double(std::pow(x, kLength))));
    CHECK(std::fabs(out.get_double(kLength - 1) - 1.6485) < 0.001);
}

namespace {

// One fiber's special values: a zero, an infinity and a NaN at given positions (or none), the rest
// ±1 with random signs, so that every result is exact and known: NaN once a NaN or both a zero and
// an infinity are folded in, else ±inf once an infinity is, else ±0 once a zero is, else ±1.
struct Specials {
    int64_t zero = -1, inf = -1, nan = -1;
};

double special_value(const Specials& s, uint64_t k, bool negative) {
    const double magnitude = static_cast<int64_t>(k) == s.nan    ? kNaN
                             : static_cast<int64_t>(k) == s.inf  ? kInf
                             : static_cast<int64_t>(k) == s.zero ? 0.0
                                                                 : 1.0;
    return negative ? -magnitude : magnitude;
}

// Runs a cumprod along `axis` of a tensor whose fibers get the placements in `fibers` (cycled), and
// checks every element, sign of zeros and infinities included.
void check_specials(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes, uint32_t axis,
                    const std::vector<Specials>& fibers, const ScanSpec& base) {
    ScanSpec spec = base;
    spec.axis = axis;
    TestTensor in = make_packed(type, sizes);
    std::mt19937_64 rng(sizes[axis] * 31u + axis);
    std::vector<uint32_t> fiber_sizes = sizes;
    fiber_sizes[axis] = 1;
    std::vector<uint32_t> index(sizes.size(), 0);
    size_t fiber = 0;
    do {
        const Specials& s = fibers[fiber++ % fibers.size()];
        for (uint32_t k = 0; k < sizes[axis]; ++k) {
            index[axis] = k;
            in.set_double_at(index, special_value(s, k, (rng() & 1u) != 0));
        }
        index[axis] = 0;
    } while (next_index(index, fiber_sizes));
    const TestTensor out = run_product(in, spec);

    uint64_t mismatches = 0;
    std::ostringstream first;
    do {
        bool negative = false, zero = false, inf = false, nan = false;
        for (uint32_t step = 0; step < sizes[axis]; ++step) {
            const uint32_t k = spec.decreasing ? sizes[axis] - 1 - step : step;
            index[axis] = k;
            const double x = in.get_double_at(index);
            const auto fold = [&] {
                negative ^= std::signbit(x);
                nan = nan || std::isnan(x);
                inf = inf || std::isinf(x);
                zero = zero || x == 0;
            };
            if (!spec.exclusive) fold();
            const double magnitude = nan || (zero && inf) ? kNaN : inf ? kInf : zero ? 0.0 : 1.0;
            const double want = negative ? -magnitude : magnitude;
            const double got = out.get_double_at(index);
            if (!same_values({got}, {want}) && mismatches++ == 0)
                first << "index " << to_string(index) << ": got " << got << ", want " << want;
            if (spec.exclusive) fold();
        }
        index[axis] = 0;
    } while (next_index(index, fiber_sizes));
    INFO(type_name(type) << " sizes " << to_string(sizes) << " " << to_string(spec) << ": " << mismatches
                         << " mismatches; first: " << first.str());
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("cumprod: zeros, infinities and NaN propagate through every kernel path", "[gpu][cumprod][long]") {
    // Long fibers put the zero, the infinity and the NaN in different subgroups, tiles and chunks of
    // the multi-pass plans (tile kernel for inner axes, serial kernel for outer ones), so the
    // subgroup products, segment and chunk carries and the scanned partials all meet them.
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        for (const ScanSpec& spec : {kInclusive, kExclusive, kDecreasing, kDecreasingExclusive}) {
            for (uint32_t length : {300u, 4097u, 70001u}) {
                const int64_t l = length;
                const std::vector<Specials> placements = {
                    {l / 3, 2 * l / 3, -1},  // ±0 from a third on, NaN from two thirds
                    {-1, l / 4, -1},         // ±inf from a quarter on
                    {5, -1, l / 2},          // ±0 early, NaN from the middle
                    {l - 2, -1, -1},         // ±0 near the end only
                };
                for (size_t p = 0; p < placements.size(); ++p)
                    check_specials(type, {length}, 0, {placements[p]}, spec);
                check_specials(type, {3, length}, 1, placements, spec);
                check_specials(type, {length, 3}, 0, placements, spec);
            }
        }
    }
}
