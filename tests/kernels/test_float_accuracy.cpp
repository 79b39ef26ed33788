// test_float_accuracy.cpp — the float accuracy contract (README "Accuracy"): float sums and products
// are compensated in every pass of both kernel families, so each result is the exact value of the
// stored inputs rounded to the output type, give or take one unit in the last place (float16 data
// accumulates in float32 and is rounded once). The references are double-double (tools/
// double_double.hpp). gpu-sg8 runs these on the serial family, gpu-rows-sg4 on the cooperative one
// (subgroup scans of compensated pairs); the `large` label adds the sizes of issue 18's table.
#include <catch2/catch.hpp>

#include "bench/double_double.hpp"
#include "gpu_fixture.hpp"
#include "reduce_sweep.hpp"
#include "scan_sweep.hpp"
#include "tensor_data.hpp"
#include "vkdml/ops.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

using namespace vkdml_test;
using vkdml::cli::DoubleDouble;

namespace {

constexpr auto F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr auto F64 = DML_TENSOR_DATA_TYPE_FLOAT64;

/// Two units in the last place of the output type, relative: the bound every compensated result meets
/// (2^-22 ≈ 2.4e-7 for float32, within issue 18's 1e-6; 2^-51 ≈ 4.4e-16 for float64, within 1e-14).
double two_ulps(DML_TENSOR_DATA_TYPE type) {
    return type == F16 ? 0x1p-10 : type == F64 ? 0x1p-51 : 0x1p-22;
}

/// The largest |got - exact| / |exact| over the outputs, and how many exceed `bound` (the first few
/// described).
struct Errors {
    double max_rel = 0;
    uint64_t over = 0;
    std::string first;
    void add(uint64_t at, double got, double exact, double bound) {
        const double rel = exact != 0 ? std::fabs(got - exact) / std::fabs(exact) : std::fabs(got);
        max_rel = std::max(max_rel, rel);
        if (!(rel <= bound)) {  // NaN counts
            if (over++ < 3)
                first +=
                    " [" + std::to_string(at) + "] " + std::to_string(got) + " vs " + std::to_string(exact);
        }
    }
};

/// The exact scan of the stored values of `in` (1-D), per output position.
std::vector<double> exact_scan(const TestTensor& in, const ScanSpec& spec) {
    const uint64_t n = in.count();
    std::vector<double> out(n);
    DoubleDouble run{spec.op == ScanOp::product ? 1.0 : 0.0, 0.0};
    for (uint64_t step = 0; step < n; ++step) {
        const uint64_t k = spec.decreasing ? n - 1 - step : step;
        if (spec.exclusive) out[k] = run.value();
        if (spec.op == ScanOp::product)
            run.multiply(in.get_double(k));
        else
            run.add(in.get_double(k));
        if (!spec.exclusive) out[k] = run.value();
    }
    return out;
}

/// Runs the scan of a 1-D input and checks every output against the exact scan, within `bound`
/// relative (0: bit for bit equal to the exact value rounded once).
void check_scan(const TestTensor& in, const ScanSpec& spec, double bound) {
    INFO(to_string(spec) << ", " << type_name(in.type) << "[" << in.count() << "]");
    TestTensor input = in;
    TestTensor out = make_packed(in.type, in.sizes);
    const vkdml::Status st = execute_scan(spec, input, &out);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    require_no_validation_messages();
    const std::vector<double> exact = exact_scan(in, spec);
    const std::vector<double> rounded = stored_values(in.type, exact);
    Errors e;
    for (uint64_t k = 0; k < exact.size(); ++k) {
        if (bound == 0)
            e.add(k, out.get_double(k), rounded[k], 0);
        else
            e.add(k, out.get_double(k), exact[k], bound);
    }
    INFO("max relative error " << e.max_rel << "; outside the bound:" << e.first);
    CHECK(e.over == 0);
}

/// Uniform [0, 1) values (float16: [0, 2^-6), so that a million of them sum within its range), as
/// stored by `type`.
TestTensor uniform(DML_TENSOR_DATA_TYPE type, uint32_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, type == F16 ? 0x1p-6 : 1.0);
    TestTensor t = make_packed(type, {n});
    for (uint32_t i = 0; i < n; ++i) t.set_double(i, u(rng));
    return t;
}

/// Factors 1 ± 2^-13 (float16: 1 ± 2^-10, its nearest neighbours of 1 but one), a random walk whose
/// float products round with a bias.
TestTensor near_one(DML_TENSOR_DATA_TYPE type, uint32_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const double step = type == F16 ? 0x1p-10 : 0x1p-13;
    TestTensor t = make_packed(type, {n});
    for (uint32_t i = 0; i < n; ++i) t.set_double(i, (rng() & 1) ? 1.0 + step : 1.0 - step);
    return t;
}

/// REDUCE `f` of `in` (packed `sizes`) along `axis` into a new packed tensor of the same type, required to
/// succeed without validation messages.
TestTensor reduce_along(const TestTensor& in, DML_REDUCE_FUNCTION f, const std::vector<uint32_t>& sizes,
                        uint32_t axis) {
    TestTensor out = make_packed(in.type, reduce_output_sizes(sizes, {axis}));
    const vkdml::Status st =
        execute_reduce(DML_OPERATOR_REDUCE, f, DML_AXIS_DIRECTION_INCREASING, {axis}, in, out);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    require_no_validation_messages();
    return out;
}

}  // namespace

TEST_CASE(
    "float cumsums and cumprods within two ulps of the exact result across chunk, tile and block "
    "boundaries",
    "[gpu][accuracy][cumsum][cumprod][long]") {
    // 1,000,003 elements (odd: element by element) and 2^20 (blocks): many serial chunks (131,072
    // elements at most on CPU devices, 2,048 on GPUs) and cooperative tiles (1,024 elements).
    for (DML_TENSOR_DATA_TYPE type : {F16, F32, F64}) {
        if (!test_device().supports(DML_OPERATOR_CUMULATIVE_SUMMATION, type).supported) continue;
        for (uint32_t n : {1000003u, 1u << 20}) {
            for (int combo : {0, 3}) {  // increasing inclusive, decreasing exclusive
                check_scan(uniform(type, n, n + combo), scan_spec(ScanOp::sum, 0, combo), two_ulps(type));
                check_scan(near_one(type, n, n + combo), scan_spec(ScanOp::product, 0, combo),
                           two_ulps(type));
            }
        }
    }
}

TEST_CASE("cancellation: sums whose exact value every naive loop loses come out exactly rounded",
          "[gpu][accuracy][cumsum][long]") {
    // Triples (L, s, -L): L large, s a multiple of 2^-4 below 1. A float running sum absorbs s into L
    // and loses it; the exact prefix sums are small multiples of 2^-4 (exactly representable), and the
    // ones inside a triple are L + (prefix), rounded once. Every partial sum and every rounding error
    // is a multiple of 2^-4 that the compensated pair holds exactly, so each output must equal the
    // exact value rounded once, bit for bit, in both directions.
    for (DML_TENSOR_DATA_TYPE type : {F16, F32, F64}) {
        if (!test_device().supports(DML_OPERATOR_CUMULATIVE_SUMMATION, type).supported) continue;
        const uint32_t triples = type == F16 ? 2000 : 100001;
        // L up to 2^14 (float16: exact in the float32 accumulator next to the prefix), 2^26, 2^52.
        const int big_bits = type == F16 ? 10 : type == F32 ? 22 : 48;
        std::mt19937_64 rng(7 + static_cast<uint64_t>(type));
        TestTensor in = make_packed(type, {3 * triples});
        for (uint32_t t = 0; t < triples; ++t) {
            const double big = std::ldexp(static_cast<double>(1 + rng() % 15), big_bits);
            const double small = static_cast<double>(rng() % 16) / 16.0;
            in.set_double(3 * t, big);
            in.set_double(3 * t + 1, small);
            in.set_double(3 * t + 2, -big);
        }
        for (int combo : {0, 1, 2, 3}) check_scan(in, scan_spec(ScanOp::sum, 0, combo), 0);
    }
}

TEST_CASE("alternating large and small magnitudes, and products that cross binades at every step",
          "[gpu][accuracy][cumsum][cumprod][long]") {
    for (DML_TENSOR_DATA_TYPE type : {F16, F32, F64}) {
        if (!test_device().supports(DML_OPERATOR_CUMULATIVE_SUMMATION, type).supported) continue;
        const uint32_t n = 300001;
        std::mt19937_64 rng(11 + static_cast<uint64_t>(type));
        std::uniform_real_distribution<double> u(0.0, 1.0);
        // Sums: ±2^(big) · U next to U · 2^-10, alternating (float16: magnitudes it can hold).
        const int big = type == F16 ? 6 : 30;
        TestTensor sums = make_packed(type, {n});
        for (uint32_t i = 0; i < n; ++i)
            sums.set_double(i, i % 2 == 0 ? std::ldexp(u(rng) - 0.5, big) : std::ldexp(u(rng), -10));
        // Products: r in [1.1, 1.9), then about 1/r, so that the product stays near 1 while it crosses
        // the binade at 1 (and the one at 2) twice per pair.
        TestTensor products = make_packed(type, {n});
        for (uint32_t i = 0; i + 1 < n; i += 2) {
            const double r = 1.1 + 0.8 * u(rng);
            products.set_double(i, r);
            products.set_double(i + 1, 1.0 / r * (1.0 + (u(rng) - 0.5) * 0x1p-8));
        }
        products.set_double(n - 1, 1.5);
        for (int combo : {0, 3}) {
            // The sums cancel: their bound is two ulps of the exact result plus float32/float64's own
            // resolution of the alternating magnitudes (n·u² of Σ|x|, the compensated sum's worst case).
            check_scan(products, scan_spec(ScanOp::product, 0, combo), two_ulps(type));
            TestTensor input = sums;
            TestTensor out = make_packed(type, {n});
            const ScanSpec spec = scan_spec(ScanOp::sum, 0, combo);
            REQUIRE(execute_scan(spec, input, &out));
            const std::vector<double> exact = exact_scan(sums, spec);
            double magnitude = 0;
            for (uint32_t i = 0; i < n; ++i) magnitude += std::fabs(sums.get_double(i));
            const double u_acc = type == F64 ? 0x1p-53 : 0x1p-24;
            Errors e;
            uint64_t over = 0;
            for (uint32_t k = 0; k < n; ++k) {
                const double got = out.get_double(k), err = std::fabs(got - exact[k]);
                e.add(k, got, exact[k], INFINITY);
                if (!(err <= two_ulps(type) * std::fabs(exact[k]) + n * u_acc * u_acc * magnitude)) ++over;
            }
            INFO(to_string(spec) << " " << type_name(type) << ": max relative error " << e.max_rel);
            CHECK(over == 0);
        }
    }
}

TEST_CASE("compensated reductions: sums, products and the functions built on sums within two ulps",
          "[gpu][accuracy][reduce][long]") {
    using F = DML_REDUCE_FUNCTION;
    const F functions[] = {DML_REDUCE_FUNCTION_SUM,         DML_REDUCE_FUNCTION_AVERAGE,
                           DML_REDUCE_FUNCTION_L1,          DML_REDUCE_FUNCTION_L2,
                           DML_REDUCE_FUNCTION_SUM_SQUARE,  DML_REDUCE_FUNCTION_LOG_SUM,
                           DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MULTIPLY};
    for (DML_TENSOR_DATA_TYPE type : {F16, F32, F64}) {
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported) continue;
        // One long row (inner axis), three rows (inner), and an outer axis folded across 5 columns.
        struct Shape {
            std::vector<uint32_t> sizes;
            uint32_t axis;
        };
        for (const Shape& s : {Shape{{1000003}, 0}, Shape{{3, 1u << 19}, 1}, Shape{{200003, 5}, 0}}) {
            for (F f : functions) {
                const bool product = f == DML_REDUCE_FUNCTION_MULTIPLY;
                const uint64_t count = element_count(s.sizes);
                TestTensor in = product ? near_one(type, static_cast<uint32_t>(count), count)
                                        : uniform(type, static_cast<uint32_t>(count), count);
                in.sizes = s.sizes;
                in.strides = packed_strides(s.sizes);
                INFO(type_name(type) << " " << to_string(s.sizes) << " axis " << s.axis << " function " << f);
                const TestTensor out = reduce_along(in, f, s.sizes, s.axis);
                const uint64_t outputs = out.count(), len = s.sizes[s.axis];
                const uint64_t stride = s.axis == 0 ? outputs : 1;  // of the reduced axis
                Errors e;
                for (uint64_t o = 0; o < outputs; ++o) {
                    const uint64_t first = s.axis == 0 ? o : o * len;
                    DoubleDouble acc{product ? 1.0 : 0.0, 0.0};
                    double top = -INFINITY;
                    for (uint64_t k = 0; k < len; ++k) top = std::max(top, in.get_double(first + k * stride));
                    for (uint64_t k = 0; k < len; ++k) {
                        const double x = in.get_double(first + k * stride);
                        if (product)
                            acc.multiply(x);
                        else if (f == DML_REDUCE_FUNCTION_L2 || f == DML_REDUCE_FUNCTION_SUM_SQUARE)
                            acc.add_product(x, x);
                        else if (f == DML_REDUCE_FUNCTION_LOG_SUM_EXP)
                            acc.add(std::exp(x - top));
                        else
                            acc.add(std::fabs(x) * (f == DML_REDUCE_FUNCTION_L1 ? 1 : (x < 0 ? -1 : 1)));
                    }
                    double exact = acc.value();
                    if (f == DML_REDUCE_FUNCTION_AVERAGE) exact /= static_cast<double>(len);
                    if (f == DML_REDUCE_FUNCTION_L2) exact = std::sqrt(exact);
                    if (f == DML_REDUCE_FUNCTION_LOG_SUM) exact = std::log(exact);
                    if (f == DML_REDUCE_FUNCTION_LOG_SUM_EXP) exact = top + std::log(exact);
                    e.add(o, out.get_double(o), exact, two_ulps(type));
                }
                INFO("max relative error " << e.max_rel << "; outside the bound:" << e.first);
                CHECK(e.over == 0);
            }
        }
    }
}

TEST_CASE("large: issue 18's accuracy table at 16 Mi float32 elements, each within two ulps",
          "[gpu][large][accuracy]") {
    // cumsum of U[0,1) forward and reversed exclusive; cumprod and REDUCE MULTIPLY of 1 ± 2^-13 (a float32
    // loop drifts 1e-3 here, the kernels before compensation 1e-2); SUM, AVERAGE and LOG_SUM_EXP.
    const uint32_t n = 16u << 20;
    const TestTensor u = uniform(F32, n, 18);
    const TestTensor f = near_one(F32, n, 19);
    check_scan(u, scan_spec(ScanOp::sum, 0, 0), two_ulps(F32));
    check_scan(u, scan_spec(ScanOp::sum, 0, 3), two_ulps(F32));
    check_scan(f, scan_spec(ScanOp::product, 0, 0), two_ulps(F32));
    for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_MULTIPLY, DML_REDUCE_FUNCTION_SUM,
                                   DML_REDUCE_FUNCTION_AVERAGE, DML_REDUCE_FUNCTION_LOG_SUM_EXP}) {
        const bool product = fn == DML_REDUCE_FUNCTION_MULTIPLY;
        const TestTensor& in = product ? f : u;
        TestTensor out = make_packed(F32, {1});
        REQUIRE(execute_reduce(DML_OPERATOR_REDUCE, fn, DML_AXIS_DIRECTION_INCREASING, {0}, in, out));
        DoubleDouble acc{product ? 1.0 : 0.0, 0.0};
        for (uint32_t i = 0; i < n; ++i) {
            const double x = in.get_double(i);
            if (product)
                acc.multiply(x);
            else
                acc.add(fn == DML_REDUCE_FUNCTION_LOG_SUM_EXP ? std::exp(x - 1.0) : x);
        }
        // (U[0,1) has its maximum just below 1; the exact LOG_SUM_EXP does not depend on the shift.)
        double exact = acc.value();
        if (fn == DML_REDUCE_FUNCTION_AVERAGE) exact /= n;
        if (fn == DML_REDUCE_FUNCTION_LOG_SUM_EXP) exact = 1.0 + std::log(exact);
        INFO("function " << fn << ": " << out.get_double(0) << " vs exact " << exact);
        CHECK(std::fabs(out.get_double(0) - exact) <= two_ulps(F32) * std::fabs(exact));
    }
}

TEST_CASE("cancellation in reductions: SUM and AVERAGE of (L, s, -L) triples come out exactly rounded",
          "[gpu][accuracy][reduce]") {
    // Triples like the cumsum test's above, reduced: a plain sum of L and s in the accumulator (float16
    // data: float32) loses s, so any step that adds two elements without keeping its rounding error (a
    // group of plain adds before the compensated join, say) ends at 0 where the exact sum is a multiple
    // of 2^-4 (float16: of 2^-14, below half an ulp of L in float32). Long rows (element by
    // element, and in blocks of vectors), rows of 3 (each row one triple: its sum is s), rows of
    // 3 · 4,099 along the inner axis, and the triples down an outer axis of 3 · 30,011 rows and 5
    // columns. SUM must equal the exact sum rounded once, AVERAGE be within two ulps of it divided by
    // the count.
    for (DML_TENSOR_DATA_TYPE type : {F16, F32, F64}) {
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported) continue;
        const int big_bits = type == F16 ? 10 : type == F32 ? 22 : 48;
        struct Shape {
            std::vector<uint32_t> sizes;
            uint32_t axis;
        };
        for (const Shape& s : {Shape{{3 * 100001}, 0}, Shape{{3u << 17}, 0}, Shape{{65536, 3}, 1},
                               Shape{{7, 3 * 4099}, 1}, Shape{{3 * 30011, 5}, 0}}) {
            const uint64_t count = element_count(s.sizes);
            const uint64_t len = s.sizes[s.axis], outputs = count / len;
            const uint64_t stride = s.axis == 0 ? outputs : 1;  // of the reduced axis
            std::mt19937_64 rng(count + static_cast<uint64_t>(type));
            TestTensor in = make_packed(type, s.sizes);
            for (uint64_t o = 0; o < outputs; ++o) {
                const uint64_t first = s.axis == 0 ? o : o * len;
                for (uint64_t t = 0; t < len / 3; ++t) {
                    const double big = std::ldexp(static_cast<double>(1 + rng() % 15), big_bits);
                    const double small = std::ldexp(static_cast<double>(rng() % 16), type == F16 ? -14 : -4);
                    in.set_double(first + (3 * t) * stride, big);
                    in.set_double(first + (3 * t + 1) * stride, small);
                    in.set_double(first + (3 * t + 2) * stride, -big);
                }
            }
            for (DML_REDUCE_FUNCTION f : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_AVERAGE}) {
                INFO(type_name(type) << " " << to_string(s.sizes) << " axis " << s.axis << " function " << f);
                const TestTensor out = reduce_along(in, f, s.sizes, s.axis);
                std::vector<double> exact(outputs);
                for (uint64_t o = 0; o < outputs; ++o) {
                    const uint64_t first = s.axis == 0 ? o : o * len;
                    DoubleDouble acc{0.0, 0.0};
                    for (uint64_t k = 0; k < len; ++k) acc.add(in.get_double(first + k * stride));
                    exact[o] =
                        acc.value() / (f == DML_REDUCE_FUNCTION_AVERAGE ? static_cast<double>(len) : 1.0);
                }
                const std::vector<double> rounded = stored_values(type, exact);
                Errors e;
                for (uint64_t o = 0; o < outputs; ++o) {
                    if (f == DML_REDUCE_FUNCTION_SUM)
                        e.add(o, out.get_double(o), rounded[o], 0);
                    else
                        e.add(o, out.get_double(o), exact[o], two_ulps(type));
                }
                INFO("max relative error " << e.max_rel << "; outside the bound:" << e.first);
                CHECK(e.over == 0);
            }
        }
    }
}

namespace {

/// MULTIPLY along the last axis of a packed `sizes` tensor of T on `device`, through the host path.
template <typename T>
std::vector<T> multiply_last_axis(const std::shared_ptr<vkdml::Device>& device, DML_TENSOR_DATA_TYPE type,
                                  std::vector<uint32_t> sizes, const std::vector<T>& x) {
    const uint32_t axis = static_cast<uint32_t>(sizes.size() - 1);
    const uint32_t axes[] = {axis};
    const vkdml::ops::Operation op =
        *vkdml::ops::reduce(vkdml::ops::TensorDesc{type, sizes}, DML_REDUCE_FUNCTION_MULTIPLY, axes);
    std::vector<T> y(op.output().elements());
    const std::span<const std::byte> inputs[] = {std::as_bytes(std::span(x))};
    const std::span<std::byte> outputs[] = {std::as_writable_bytes(std::span(y))};
    const vkdml::Status st = vkdml::execute(device, op.desc(), inputs, outputs);
    INFO((st ? std::string() : st.error().message));
    REQUIRE(st);
    return y;
}

}  // namespace

TEST_CASE("serial products of factors that overflow and underflow in pairs fold in order: exactly 1",
          "[gpu][accuracy][reduce]") {
    // [2^e, 2^-e, 1, 1] repeated (e = 100 for float32, 1000 for float64): in order every partial product
    // is 2^e or 1, but a fold that took every fourth factor into one chain would overflow in one chain
    // and underflow in another (inf · 0 = NaN). reduce_serial keeps a product in one chain; this holds
    // for the serial family only (a tree's order is its own: the SPEC leaves products that overflow in
    // a step to the order). One row element by element (4,099 factors, ending 2^e, 2^-e, 1) and in
    // blocks of vectors (4,096), and rows of 8 along the inner axis.
    vkdml::DeviceOptions options;
    vkdml::testing::DeviceOverrides overrides;
    overrides.kernels = vkdml::KernelChoice::serial;
    auto created = vkdml::testing::create_device(options, overrides);
    REQUIRE(created);
    const std::shared_ptr<vkdml::Device> device = *created;
    for (const std::vector<uint32_t>& sizes :
         {std::vector<uint32_t>{4099}, std::vector<uint32_t>{4096}, std::vector<uint32_t>{512, 8}}) {
        INFO(to_string(sizes));
        const uint64_t n = element_count(sizes);
        std::vector<float> f(n);
        std::vector<double> d(n);
        for (uint64_t i = 0; i < n; ++i) {
            const int sign = i % 4 == 0 ? 1 : i % 4 == 1 ? -1 : 0;
            f[i] = std::ldexp(1.0f, 100 * sign);
            d[i] = std::ldexp(1.0, 1000 * sign);
        }
        for (float y : multiply_last_axis(device, F32, sizes, f)) CHECK(y == 1.0f);
        if (device->supports(DML_OPERATOR_REDUCE, F64).supported)
            for (double y : multiply_last_axis(device, F64, sizes, d)) CHECK(y == 1.0);
    }
}
