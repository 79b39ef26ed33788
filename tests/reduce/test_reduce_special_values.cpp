// DML_OPERATOR_REDUCE and the standalone DML_OPERATOR_ARGMIN / DML_OPERATOR_ARGMAX pinned with exact
// expected values on special values and at the edges of each type (SPEC §3, §4): NaN (also in different
// chunks of rows longer than 65,535), infinities, integer wrap for SUM/MULTIPLY/L1/SUM_SQUARE, signed
// against unsigned comparisons, LOG_SUM_EXP's running maximum, LOG_SUM of zero, negative and subnormal
// sums, FLOAT16 accumulated in FLOAT32, and the deep copy of Axes. Executions through reduce_expect.hpp
// are also checked against the CPU oracle. Ordinary data and the SPEC examples: test_reduce_examples.cpp.
#include <catch2/catch.hpp>

#include "gpu_fixture.hpp"
#include "reduce_expect.hpp"
#include "reduce_sweep.hpp"
#include "tensor_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace vkdml_test;

// ---- NaN and infinities -------------------------------------------------------------------------

TEST_CASE("reduce: NaN makes MIN/MAX NaN; arg functions pick the first NaN, the last with DECREASING",
          "[gpu][reduce][argminmax]") {
    const std::vector<double> x = {1, kNaN, 5, kNaN, -2};
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        INFO(type_name(type));
        for (DML_REDUCE_FUNCTION f :
             {DML_REDUCE_FUNCTION_MIN, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_SUM,
              DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_MULTIPLY}) {
            INFO(to_string(f));
            const TestTensor out = run_values(reduce_case(f, type, {5}, {0}), x);
            if (!skipped(out)) CHECK(std::isnan(out.get_double(0)));
        }
        for (const ArgWay& way : kArgWays) {
            for (bool is_max : {true, false}) {
                INFO(way.name << (is_max ? " ARGMAX" : " ARGMIN"));
                const TestTensor out =
                    run_values(arg_way_case(way, is_max, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT64), x);
                if (!skipped(out))
                    CHECK(bits_of(out) == std::vector<uint64_t>{way.direction == DEC ? 3u : 1u});
            }
        }
    }
}

TEST_CASE("reduce: NaN in different chunks of rows longer than 65535", "[gpu][reduce][argminmax][long]") {
    // Four rows of 70,001 with NaN at {3}, {40000}, {69999, 70000}, {1000, 65536, 69000}; the other
    // elements in [-1, 1] with a clear maximum 5 and minimum -5 placed away from the NaN.
    constexpr uint32_t kRow = 70001;
    const std::vector<std::vector<uint32_t>> nans = {{3}, {40000}, {69999, 70000}, {1000, 65536, 69000}};
    const std::vector<uint64_t> first = {3, 40000, 69999, 1000}, last = {3, 40000, 70000, 69000};
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        TestTensor input = make_packed(type, {4, kRow});
        fill_random(input, 0x7a7a, -1, 1);
        for (uint32_t r = 0; r < 4; ++r) {
            input.set_double_at({r, 12345}, 5);
            input.set_double_at({r, 54321}, -5);
            for (uint32_t p : nans[r]) input.set_double_at({r, p}, kNaN);
        }
        for (DML_REDUCE_FUNCTION f : {DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_MIN}) {
            INFO(type_name(type) << " " << to_string(f));
            SweepStats stats;
            const TestTensor out = check_reduce_case(reduce_case(f, type, {4, kRow}, {1}), input, stats);
            if (skipped(out)) continue;
            for (uint64_t r = 0; r < 4; ++r) CHECK(std::isnan(out.get_double(r)));
        }
        for (const ArgWay& way : kArgWays) {
            for (bool is_max : {true, false}) {
                INFO(type_name(type) << " " << way.name << (is_max ? " ARGMAX" : " ARGMIN"));
                SweepStats stats;
                const TestTensor out = check_reduce_case(
                    arg_way_case(way, is_max, type, {4, kRow}, {1}, DML_TENSOR_DATA_TYPE_UINT32), input,
                    stats);
                if (!skipped(out)) CHECK(bits_of(out) == (way.direction == DEC ? last : first));
            }
        }
    }
    // The outer axis: [70001, 2] over axis 0, column 0 with NaN at 66000, column 1 without (its
    // maximum 5 at 100 and 69000, minimum -5 at 7).
    TestTensor outer = make_packed(F32, {kRow, 2});
    fill_random(outer, 0x7b7b, -1, 1);
    outer.set_double_at({66000, 0}, kNaN);
    outer.set_double_at({100, 1}, 5);
    outer.set_double_at({69000, 1}, 5);
    outer.set_double_at({7, 1}, -5);
    for (const ArgWay& way : kArgWays) {
        INFO("outer axis, " << way.name);
        SweepStats stats;
        const TestTensor amax = check_reduce_case(
            arg_way_case(way, true, F32, {kRow, 2}, {0}, DML_TENSOR_DATA_TYPE_INT64), outer, stats);
        const TestTensor amin = check_reduce_case(
            arg_way_case(way, false, F32, {kRow, 2}, {0}, DML_TENSOR_DATA_TYPE_INT64), outer, stats);
        if (skipped(amax) || skipped(amin)) continue;
        CHECK(bits_of(amax) == std::vector<uint64_t>{66000, way.direction == DEC ? 69000u : 100u});
        CHECK(bits_of(amin) == std::vector<uint64_t>{66000, 7});
    }
    SweepStats stats;
    const TestTensor mx =
        check_reduce_case(reduce_case(DML_REDUCE_FUNCTION_MAX, F32, {kRow, 2}, {0}), outer, stats);
    if (!skipped(mx)) {
        CHECK(std::isnan(mx.get_double(0)));
        CHECK(mx.get_double(1) == 5);
    }
}

TEST_CASE("reduce: infinities", "[gpu][reduce][argminmax]") {
    const std::vector<double> x = {1, kInf, 5, -kInf, kInf};
    struct Expect {
        DML_REDUCE_FUNCTION f;
        double want;
    };
    const std::vector<Expect> table = {
        {DML_REDUCE_FUNCTION_MAX, kInf},         {DML_REDUCE_FUNCTION_MIN, -kInf},
        {DML_REDUCE_FUNCTION_SUM, kNaN},         {DML_REDUCE_FUNCTION_AVERAGE, kNaN},
        {DML_REDUCE_FUNCTION_L1, kInf},          {DML_REDUCE_FUNCTION_SUM_SQUARE, kInf},
        {DML_REDUCE_FUNCTION_L2, kInf},          {DML_REDUCE_FUNCTION_MULTIPLY, -kInf},
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP, kInf}, {DML_REDUCE_FUNCTION_LOG_SUM, kNaN},
    };
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        for (const Expect& t : table) {
            INFO(type_name(type) << " " << to_string(t.f) << " of {1, inf, 5, -inf, inf}");
            const TestTensor out = run_values(reduce_case(t.f, type, {5}, {0}), x);
            if (!skipped(out)) CHECK(same_values(values_of(out), {t.want}));
        }
        for (const ArgWay& way : kArgWays) {
            INFO(type_name(type) << " " << way.name);
            const TestTensor amax =
                run_values(arg_way_case(way, true, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            const TestTensor amin =
                run_values(arg_way_case(way, false, type, {5}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            if (skipped(amax) || skipped(amin)) continue;
            CHECK(bits_of(amax) == std::vector<uint64_t>{way.direction == DEC ? 4u : 1u});
            CHECK(bits_of(amin) == std::vector<uint64_t>{3});
        }
        INFO(type_name(type));
        const auto one = [&](DML_REDUCE_FUNCTION f, const std::vector<double>& v) {
            const TestTensor out =
                run_values(reduce_case(f, type, {static_cast<uint32_t>(v.size())}, {0}), v);
            return skipped(out) ? std::vector<double>{} : values_of(out);
        };
        const auto check_one = [&](DML_REDUCE_FUNCTION f, const std::vector<double>& v, double want) {
            const std::vector<double> got = one(f, v);
            INFO(to_string(f) << " of " << show(v) << ": got " << show(got));
            if (!got.empty()) CHECK(same_values(got, {want}));
        };
        check_one(DML_REDUCE_FUNCTION_SUM, {kInf, 2, 3}, kInf);
        check_one(DML_REDUCE_FUNCTION_SUM, {-kInf, 2, 3}, -kInf);
        check_one(DML_REDUCE_FUNCTION_MAX, {-kInf, -kInf}, -kInf);
        check_one(DML_REDUCE_FUNCTION_MIN, {kInf, kInf}, kInf);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {-kInf, -kInf, -kInf}, -kInf);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {-kInf, 2}, 2);
        check_one(DML_REDUCE_FUNCTION_LOG_SUM, {kInf, 2}, kInf);
        check_one(DML_REDUCE_FUNCTION_MULTIPLY, {0, kInf}, kNaN);
        check_one(DML_REDUCE_FUNCTION_L1, {-kInf, 1}, kInf);
    }
}

// ---- integers -----------------------------------------------------------------------------------

TEST_CASE("reduce: integer SUM, MULTIPLY, L1 and SUM_SQUARE wrap modulo 2^bits", "[gpu][reduce]") {
    using T = DML_TENSOR_DATA_TYPE;
    const auto run1 = [](DML_REDUCE_FUNCTION f, T type, const std::vector<uint64_t>& bits) {
        const TestTensor out =
            run_bits(reduce_case(f, type, {static_cast<uint32_t>(bits.size())}, {0}), bits);
        return skipped(out) ? std::vector<uint64_t>{} : bits_of(out);
    };
    const auto check1 = [&](DML_REDUCE_FUNCTION f, T type, const std::vector<uint64_t>& bits, uint64_t want) {
        const std::vector<uint64_t> got = run1(f, type, bits);
        INFO(type_name(type) << " " << to_string(f) << " of bit patterns " << show(bits) << ": got "
                             << show(got) << ", expected " << want);
        if (!got.empty()) CHECK(got == std::vector<uint64_t>{want});
    };
    // The 8-bit examples written out.
    const T I8 = DML_TENSOR_DATA_TYPE_INT8, U8 = DML_TENSOR_DATA_TYPE_UINT8;
    check1(DML_REDUCE_FUNCTION_SUM, I8, {100, 100}, wrap(I8, -56));
    check1(DML_REDUCE_FUNCTION_SUM, U8, {200, 100}, 44);
    check1(DML_REDUCE_FUNCTION_MULTIPLY, I8, {3, 5, 7, 11}, wrap(I8, -125));  // 1155 = 4·256 + 131
    check1(DML_REDUCE_FUNCTION_MULTIPLY, U8, {16, 16}, 0);
    check1(DML_REDUCE_FUNCTION_L1, I8, {wrap(I8, -128)}, wrap(I8, -128));  // |−128| = 128 wraps to −128
    check1(DML_REDUCE_FUNCTION_L1, I8, {wrap(I8, -100), wrap(I8, -100)}, wrap(I8, -56));
    check1(DML_REDUCE_FUNCTION_L1, U8, {255, 1}, 0);                   // unsigned: no absolute value to take
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, I8, {12}, wrap(I8, -112));  // 144
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, I8, {wrap(I8, -16)}, 0);    // 256
    check1(DML_REDUCE_FUNCTION_SUM_SQUARE, U8, {200}, 64);             // 40000 = 156·256 + 64
    // Every width: the same identities at 2^bits.
    for (T type : all_types()) {
        if (is_float_type(type)) continue;
        const uint32_t b = type_bits(type);
        const uint64_t mask = type_mask(type);
        const uint64_t top = uint64_t{1} << (b - 1);  // bit pattern of the most negative signed value
        const uint64_t half = uint64_t{1} << (b / 2);
        const bool is_signed = is_signed_integer_type(type);
        INFO(type_name(type));
        check1(DML_REDUCE_FUNCTION_SUM, type, {mask, 1}, 0);          // −1 + 1, or max + 1
        check1(DML_REDUCE_FUNCTION_SUM, type, {top - 1, 1}, top);     // max signed + 1
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {half, half}, 0);  // 2^(b/2) squared
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {mask, mask}, 1);  // (−1)² or (2^b − 1)²
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, {top + 1, 2}, 2);  // 2^b + 2
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, {half}, 0);
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, {mask, 3}, 10);  // 1 + 9 either way
        check1(DML_REDUCE_FUNCTION_L1, type, {top}, top);             // |min| wraps to min; unsigned: itself
        check1(DML_REDUCE_FUNCTION_L1, type, {mask, 5}, is_signed ? 6 : 4);  // |−1| + 5, or 2^b − 1 + 5
        // Long rows that wrap again and again: 70,001 copies of the largest signed value and of 3.
        std::vector<uint64_t> many(70001, top - 1);
        check1(DML_REDUCE_FUNCTION_SUM, type, many, ((top - 1) * 70001) & mask);
        check1(DML_REDUCE_FUNCTION_L1, type, many, ((top - 1) * 70001) & mask);
        check1(DML_REDUCE_FUNCTION_SUM_SQUARE, type, many, ((top - 1) * (top - 1) * 70001) & mask);
        std::vector<uint64_t> threes(70001, 3);
        uint64_t p = 1;
        for (int i = 0; i < 70001; ++i) p *= 3;
        check1(DML_REDUCE_FUNCTION_MULTIPLY, type, threes, p & mask);
        // Signed L1 of 70,001 copies of −1: 70001 mod 2^b.
        if (is_signed) check1(DML_REDUCE_FUNCTION_L1, type, std::vector<uint64_t>(70001, mask), 70001 & mask);
    }
}

TEST_CASE("reduce: MIN, MAX, L1, SUM and the arg functions compare signed or unsigned per type",
          "[gpu][reduce][argminmax]") {
    // The bit patterns {0x80.., 0x7F.., 0x01, 0xFF..} of every width: as signed {min, max, 1, −1}, as
    // unsigned {2^(b−1), 2^(b−1) − 1, 1, 2^b − 1}.
    for (DML_TENSOR_DATA_TYPE type : all_types()) {
        if (is_float_type(type)) continue;
        const uint64_t mask = type_mask(type);
        const uint64_t top = uint64_t{1} << (type_bits(type) - 1);
        const std::vector<uint64_t> x = {top, top - 1, 1, mask};
        const bool s = is_signed_integer_type(type);
        INFO(type_name(type));
        const auto run1 = [&](DML_REDUCE_FUNCTION f) {
            const TestTensor out = run_bits(reduce_case(f, type, {4}, {0}, DML_TENSOR_DATA_TYPE_UINT64), x);
            return skipped(out) ? std::vector<uint64_t>{} : bits_of(out);
        };
        const auto check_f = [&](DML_REDUCE_FUNCTION f, uint64_t want) {
            const std::vector<uint64_t> got = run1(f);
            INFO(to_string(f) << ": got " << show(got) << ", expected " << want);
            if (!got.empty()) CHECK(got == std::vector<uint64_t>{want});
        };
        check_f(DML_REDUCE_FUNCTION_MIN, s ? top : 1);
        check_f(DML_REDUCE_FUNCTION_MAX, s ? top - 1 : mask);
        check_f(DML_REDUCE_FUNCTION_L1, s ? 1 : mask);  // 2^(b-1) + (2^(b-1) - 1) + 1 + 1, or ... + 2^b - 1
        check_f(DML_REDUCE_FUNCTION_SUM, mask);         // the same bits either way: 2^b - 1 ≡ -1
        check_f(DML_REDUCE_FUNCTION_ARGMAX, s ? 1 : 3);
        check_f(DML_REDUCE_FUNCTION_ARGMIN, s ? 0 : 2);
        for (const ArgWay& way : kArgWays) {
            if (way.op == DML_OPERATOR_REDUCE) continue;
            INFO(way.name);
            const TestTensor amax =
                run_bits(arg_way_case(way, true, type, {4}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            const TestTensor amin =
                run_bits(arg_way_case(way, false, type, {4}, {0}, DML_TENSOR_DATA_TYPE_INT32), x);
            if (skipped(amax) || skipped(amin)) continue;
            CHECK(bits_of(amax) == std::vector<uint64_t>{s ? 1u : 3u});
            CHECK(bits_of(amin) == std::vector<uint64_t>{s ? 0u : 2u});
        }
    }
}

// ---- float accumulation -------------------------------------------------------------------------

TEST_CASE("reduce: LOG_SUM_EXP uses a running maximum (no overflow where the result is finite)",
          "[gpu][reduce]") {
    for (DML_TENSOR_DATA_TYPE type : kFloatTypes) {
        INFO(type_name(type));
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported)
            continue;  // refusal: see the sweeps
        const auto lse = [&](const std::vector<double>& v) {
            const TestTensor out = run_values(
                reduce_case(DML_REDUCE_FUNCTION_LOG_SUM_EXP, type, {static_cast<uint32_t>(v.size())}, {0}),
                v);
            return skipped(out) ? kNaN : out.get_double(0);
        };
        CHECK(lse({100}) == 100);           // DirectML: +inf
        CHECK(lse({1000, -1000}) == 1000);  // e^-2000 vanishes
        CHECK(lse({-kInf, 100}) == 100);
        const double two = lse({1000, 1000});  // 1000 + ln 2 = 1000.6931...
        CHECK(close_to(type, two, 1000 + std::log(2.0), 2));
        CHECK(std::isfinite(two));
        const double three = lse({-1000, -1000, -1000});  // -1000 + ln 3
        CHECK(close_to(type, three, -1000 + std::log(3.0), 2));
        // 70,001 copies of 80 (Σe^80 = 3.9e39 is past float32's range): 80 + ln 70001 = 91.156...
        const double many = lse(std::vector<double>(70001, 80));
        CHECK(close_to(type, many, 80 + std::log(70001.0), 4));
        CHECK(lse({kInf, 3}) == kInf);
        CHECK(lse({-kInf, -kInf}) == -kInf);
    }
}

TEST_CASE("reduce: LOG_SUM of zero, negative, NaN and subnormal sums", "[gpu][reduce]") {
    // GLSL leaves log(x <= 0) undefined, and frexp/log of subnormals differ between drivers: the
    // kernels answer IEEE's way and scale subnormal sums into the normal range first. (Executed
    // directly: the oracle rightly calls a sum that may flush to 0 ambiguous.)
    for (DML_TENSOR_DATA_TYPE type : {F32, F64}) {
        INFO(type_name(type));
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported) continue;
        const auto log_sum = [&](std::vector<double> v) {
            const auto n = static_cast<uint32_t>(v.size());
            TestTensor input = make_packed(type, {n});
            for (uint32_t i = 0; i < n; ++i) input.set_double(i, v[i]);
            TestTensor output = make_packed(type, {1});
            const vkdml::Status st =
                execute_reduce(DML_OPERATOR_REDUCE, DML_REDUCE_FUNCTION_LOG_SUM, INC, {0}, input, output);
            require_no_validation_messages();
            REQUIRE(st.ok());
            return output.get_double(0);
        };
        CHECK(log_sum({0, 0}) == -kInf);
        CHECK(log_sum({-0.0}) == -kInf);
        CHECK(std::isnan(log_sum({1, -3})));
        CHECK(std::isnan(log_sum({1, kNaN})));
        CHECK(log_sum({kInf, 1}) == kInf);
        // Subnormal sums: ln(2^-140) in float32 (2^-140 + 2^-140 = 2^-139), ln(1e-310) and ln(2^-1074)
        // in float64; a device that flushes subnormals to zero may answer -inf instead.
        const auto subnormal_ok = [&](double got, double want) {
            return got == -kInf || close_to(type, got, want, 4);
        };
        if (type == F32) {
            CHECK(subnormal_ok(log_sum({0x1p-140, 0x1p-140}), -139 * std::log(2.0)));
        } else {
            CHECK(subnormal_ok(log_sum({1e-310}), std::log(1e-310)));
            CHECK(subnormal_ok(log_sum({0x1p-1074}), -1074 * std::log(2.0)));
            CHECK(close_to(type, log_sum({0x1p-1022}), -1022 * std::log(2.0), 4));  // smallest normal
        }
    }
}

TEST_CASE("reduce: FLOAT16 data accumulates in FLOAT32 and is rounded once", "[gpu][reduce]") {
    if (!test_device().supports(DML_OPERATOR_REDUCE, F16).supported) return;  // refusal: see the sweeps
    const auto run1 = [](DML_REDUCE_FUNCTION f, const std::vector<double>& v) {
        const TestTensor out = run_values(reduce_case(f, F16, {static_cast<uint32_t>(v.size())}, {0}), v);
        return skipped(out) ? kNaN : out.get_double(0);
    };
    // A FLOAT16 accumulator stops at 2048 (2048 + 1 rounds back to 2048); FLOAT32 counts on.
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(4096, 1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(3000, 1)) == 3000);
    CHECK(run1(DML_REDUCE_FUNCTION_L1, std::vector<double>(4096, -1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_SUM_SQUARE, std::vector<double>(4096, 1)) == 4096);
    CHECK(run1(DML_REDUCE_FUNCTION_L2, std::vector<double>(4096, 1)) == 64);
    CHECK(run1(DML_REDUCE_FUNCTION_AVERAGE, std::vector<double>(4096, 1)) == 1);
    std::vector<double> big_then_ones(4096, 1);
    big_then_ones[0] = 2048;
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, big_then_ones) == 6144);  // 2048 + 4095, rounded once to 6144
    // 70,001 ones: 70001 overflows FLOAT16 (max 65504) only when rounded at the end; the average is 1.
    CHECK(run1(DML_REDUCE_FUNCTION_SUM, std::vector<double>(70001, 1)) == kInf);
    CHECK(run1(DML_REDUCE_FUNCTION_AVERAGE, std::vector<double>(70001, 1)) == 1);
    CHECK(run1(DML_REDUCE_FUNCTION_MAX, std::vector<double>(70001, 1)) == 1);
    // A partial product below FLOAT16's range (2^-14 · 2^-14 = 2^-28) that a half accumulator would
    // flush to 0: 2^-28 · 2^28 = 1.
    CHECK(run1(DML_REDUCE_FUNCTION_MULTIPLY, {0x1p-14, 0x1p-14, 16384, 16384}) == 1);
}

// ---- descriptors --------------------------------------------------------------------------------

TEST_CASE("reduce: the caller's Axes array may be overwritten right after create_operator",
          "[gpu][reduce][argminmax]") {
    // [[1, 2, 3], [3, 0, 4], [2, 5, 2]] over axis 0 (sum {6, 7, 9}, argmax {1, 2, 1}); the caller's
    // array is then changed to {1}: the operator must still reduce axis 0.
    TestTensor input = make_packed(F32, {3, 3});
    const std::vector<double> x = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    for (uint64_t i = 0; i < 9; ++i) input.set_double(i, x[i]);
    const TensorDescView in_view(input);
    for (DML_OPERATOR_TYPE op : {DML_OPERATOR_REDUCE, DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
        INFO(vkdml::to_string(op));
        const bool arg = op != DML_OPERATOR_REDUCE;
        TestTensor output = make_packed(arg ? DML_TENSOR_DATA_TYPE_INT32 : F32, {1, 3});
        const TensorDescView out_view(output);
        auto axes = std::make_unique<uint32_t[]>(1);
        axes[0] = 0;
        const DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_SUM, in_view.get(), out_view.get(), 1,
                                              axes.get()};
        const DML_ARGMAX_OPERATOR_DESC argmax{in_view.get(), out_view.get(), 1, axes.get(), INC};
        const DML_ARGMIN_OPERATOR_DESC argmin{in_view.get(), out_view.get(), 1, axes.get(), INC};
        const void* desc = op == DML_OPERATOR_REDUCE   ? static_cast<const void*>(&reduce)
                           : op == DML_OPERATOR_ARGMAX ? static_cast<const void*>(&argmax)
                                                       : static_cast<const void*>(&argmin);
        auto created = test_device().create_operator({op, desc});
        INFO((created ? std::string("created") : created.error().message));
        REQUIRE(created);
        axes[0] = 1;   // the caller reuses its array ...
        axes.reset();  // ... and frees it
        // The operator's own copy of the description still says axis 0.
        const DML_OPERATOR_DESC& copy = created->desc();
        const uint32_t* copied_axes =
            op == DML_OPERATOR_REDUCE   ? static_cast<const DML_REDUCE_OPERATOR_DESC*>(copy.Desc)->Axes
            : op == DML_OPERATOR_ARGMAX ? static_cast<const DML_ARGMAX_OPERATOR_DESC*>(copy.Desc)->Axes
                                        : static_cast<const DML_ARGMIN_OPERATOR_DESC*>(copy.Desc)->Axes;
        REQUIRE(copied_axes != nullptr);
        CHECK(copied_axes[0] == 0);
        // Executing the copied description reduces axis 0.
        const std::span<const std::byte> inputs[] = {input.bytes};
        const std::span<std::byte> outputs[] = {output.bytes};
        const vkdml::Status status = vkdml::execute(test_device(), copy, inputs, outputs);
        require_no_validation_messages();
        INFO((status.ok() ? std::string("ok") : status.error().message));
        REQUIRE(status.ok());
        if (op == DML_OPERATOR_REDUCE)
            CHECK(values_of(output) == std::vector<double>{6, 7, 9});
        else if (op == DML_OPERATOR_ARGMAX)
            CHECK(bits_of(output) == std::vector<uint64_t>{1, 2, 1});
        else
            CHECK(bits_of(output) == std::vector<uint64_t>{0, 1, 2});
    }
}

// LOG_SUM and LOG_SUM_EXP take vkdml's own exp and log (float32_math.glsl, float64_math.glsl: correctly
// rounded steps, the same bits on every device), held here to the correctly rounded value: LOG_SUM of one
// element is ln x, LOG_SUM_EXP of [a, a + d] is a + ln(1 + e^d).
TEST_CASE("reduce: LOG_SUM's log and LOG_SUM_EXP's exp within one and two ulps across the range",
          "[gpu][reduce][accuracy]") {
    // Distance in units in the last place between two finite values of the type (same sign).
    const auto ulps_apart = [](DML_TENSOR_DATA_TYPE type, double a, double b) {
        if (type == F32) {
            uint32_t ua, ub;
            const float fa = static_cast<float>(a), fb = static_cast<float>(b);
            std::memcpy(&ua, &fa, 4);
            std::memcpy(&ub, &fb, 4);
            return static_cast<double>(ua > ub ? ua - ub : ub - ua);
        }
        uint64_t ua, ub;
        std::memcpy(&ua, &a, 8);
        std::memcpy(&ub, &b, 8);
        return static_cast<double>(ua > ub ? ua - ub : ub - ua);
    };
    const auto rounded = [](DML_TENSOR_DATA_TYPE type, long double v) {
        return type == F32 ? static_cast<double>(static_cast<float>(v)) : static_cast<double>(v);
    };
    for (DML_TENSOR_DATA_TYPE type : {F32, F64}) {
        INFO(type_name(type));
        if (!test_device().supports(DML_OPERATOR_REDUCE, type).supported) continue;
        // Rows of `width` elements, reduced along the row: one result per row.
        const auto run_rows = [&](DML_REDUCE_FUNCTION f, const std::vector<std::vector<double>>& rows) {
            const auto n = static_cast<uint32_t>(rows.size()), width = static_cast<uint32_t>(rows[0].size());
            TestTensor input = make_packed(type, {n, width});
            for (uint32_t r = 0; r < n; ++r)
                for (uint32_t k = 0; k < width; ++k) input.set_double(r * width + k, rows[r][k]);
            TestTensor output = make_packed(type, {n, 1});
            const vkdml::Status st = execute_reduce(DML_OPERATOR_REDUCE, f, INC, {1}, input, output);
            require_no_validation_messages();
            REQUIRE(st.ok());
            std::vector<double> out(n);
            for (uint32_t r = 0; r < n; ++r) out[r] = output.get_double(r);
            return out;
        };
        // ln x for x = m·2^e, every exponent of the normal range, seven significands each.
        const int lowest = type == F32 ? -126 : -1022, highest = type == F32 ? 127 : 1023;
        std::vector<std::vector<double>> rows;
        for (int e = lowest; e <= highest; e += type == F32 ? 1 : 7)
            for (double m : {1.0, 1.0000001, 1.2345678, 1.41421, 1.41422, 1.75, 1.9999999})
                rows.push_back({std::ldexp(m, e)});
        const std::vector<double> logs = run_rows(DML_REDUCE_FUNCTION_LOG_SUM, rows);
        double worst = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
            const double x = rounded(type, rows[i][0]);
            const double want = rounded(type, std::log(static_cast<long double>(x)));
            INFO("ln " << x << " = " << want << ", got " << logs[i]);
            CHECK(ulps_apart(type, logs[i], want) <= 1);
            worst = std::max(worst, ulps_apart(type, logs[i], want));
        }
        // a + ln(1 + e^d) for d from -80 to 0 (a = 10: the result's ulp is 10's); below ln of the least
        // normal number e^d is 0.
        std::vector<std::vector<double>> pairs;
        for (double d = -80; d <= 0; d += 0.0625) pairs.push_back({10, 10 + d});
        const std::vector<double> lse = run_rows(DML_REDUCE_FUNCTION_LOG_SUM_EXP, pairs);
        for (size_t i = 0; i < pairs.size(); ++i) {
            const long double d = static_cast<long double>(rounded(type, pairs[i][1])) - 10;
            const double want = rounded(type, 10 + std::log1p(std::exp(d)));
            INFO("10 + ln(1 + e^" << static_cast<double>(d) << ") = " << want << ", got " << lse[i]);
            CHECK(ulps_apart(type, lse[i], want) <= 2);
        }
        CHECK(run_rows(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {{0, -1000}, {-3, -3}})[0] == 0);
        WARN(type_name(type) << ": LOG_SUM's log within " << worst << " ulp over " << rows.size()
                             << " values");
    }
}
