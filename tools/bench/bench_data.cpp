// tools/bench/bench_data.cpp — deterministic inputs and the host reference of `vkdml bench`'s output check.
#include "bench/bench_data.hpp"

#include "bench/double_double.hpp"
#include "npy/half.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace vkdml::cli::bench {
namespace {

// splitmix64: a fixed, fast, well-mixed sequence.
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double unit24() { return static_cast<double>(next() >> 40) * 0x1p-24; }
    double unit53() { return static_cast<double>(next() >> 11) * 0x1p-53; }
};

uint64_t load_bits(const std::byte* p, uint32_t size) {
    uint64_t bits = 0;
    std::memcpy(&bits, p, size);  // little-endian host
    return bits;
}

// An element as a double: floats by value, integers by value (signed ones sign-extended).
double load_value(DML_TENSOR_DATA_TYPE type, const std::byte* p) {
    const uint32_t size = element_size(type);
    const uint64_t bits = load_bits(p, size);
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return half_to_float(static_cast<uint16_t>(bits));
    case DML_TENSOR_DATA_TYPE_FLOAT32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case DML_TENSOR_DATA_TYPE_FLOAT64: return std::bit_cast<double>(bits);
    default: break;
    }
    if (vkdml::is_signed_integer_type(type) && size < 8) {
        const uint64_t sign = uint64_t{1} << (size * 8 - 1);
        return static_cast<double>(static_cast<int64_t>((bits ^ sign) - sign));
    }
    return vkdml::is_signed_integer_type(type) ? static_cast<double>(static_cast<int64_t>(bits))
                                               : static_cast<double>(bits);
}

void store(std::byte* p, DML_TENSOR_DATA_TYPE type, double value) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        const uint16_t h = float_to_half(static_cast<float>(value));
        std::memcpy(p, &h, 2);
        return;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
        const auto f = static_cast<float>(value);
        std::memcpy(p, &f, 4);
        return;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT64: std::memcpy(p, &value, 8); return;
    default: {
        const auto bits = static_cast<uint64_t>(static_cast<int64_t>(value));
        std::memcpy(p, &bits, element_size(type));
    }
    }
}

// The value of the next input element of case `c`.
double input_value(const Case& c, Rng& rng) {
    const bool product = c.op == Op::cumprod;
    if (c.type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        const double step = static_cast<double>(rng.next() % 3) - 1.0;  // -1, 0, 1
        return product ? 1.0 + step * 0x1p-10 : step;
    }
    if (vkdml::is_float_type(c.type)) {
        const double u = c.type == DML_TENSOR_DATA_TYPE_FLOAT64 ? rng.unit53() : rng.unit24();
        return product ? 1.0 + (u - 0.5) * 0x1p-12 : u;
    }
    return static_cast<double>(rng.next() & 3);
}

uint64_t low_mask(uint32_t size) {
    return size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (size * 8)) - 1;
}

/// `bits` (the low `size` bytes of a signed integer) as int64.
int64_t sign_extended(uint64_t bits, uint32_t size) {
    const uint32_t shift = 64 - 8 * size;
    return static_cast<int64_t>(bits << shift) >> shift;
}

// The accuracy every float result must meet (the README's contract): relative to the exact result,
// half an ulp of a float16 output (whose accumulator is float32), else 1e-6 (float32) or 1e-14
// (float64); float16 products also get float16's smallest subnormal.
double tolerance(DML_TENSOR_DATA_TYPE type, double value) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return 0x1p-11 * std::fabs(value) + 0x1p-25;
    case DML_TENSOR_DATA_TYPE_FLOAT64: return 1e-14 * std::fabs(value) + 1e-300;
    default: return 1e-6 * std::fabs(value) + 1e-38;
    }
}

// Positions along a fiber of length len to check: the first four, the last, and both sides of every
// multiple of a power-of-two step (at most 4,096 of them): the chunk, tile and block boundaries of
// the kernels fall on such multiples.
std::vector<uint64_t> sample_positions(uint64_t len) {
    std::vector<uint64_t> positions;
    for (uint64_t k = 0; k < std::min<uint64_t>(4, len); ++k) positions.push_back(k);
    uint64_t step = 64;
    while (len / step > 4096) step *= 2;
    for (uint64_t m = step; m < len; m += step) {
        positions.push_back(m - 1);
        positions.push_back(m);
    }
    positions.push_back(len - 1);
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return positions;
}

}  // namespace

std::vector<std::byte> make_input(const Case& c) {
    const uint32_t size = element_size(c.type);
    std::vector<std::byte> data(element_count(c) * size);
    Rng rng{0x5eed0000ull + static_cast<uint64_t>(c.type)};
    for (size_t at = 0; at < data.size(); at += size) store(data.data() + at, c.type, input_value(c, rng));
    return data;
}

std::vector<Sample> reference_samples(const Case& c, std::span<const std::byte> input) {
    const Fibers f = fibers(c);
    const uint32_t size = element_size(c.type);
    const uint64_t mask = low_mask(size);
    std::vector<std::pair<uint64_t, uint64_t>> picks = {
        {0, 0}, {f.outer / 2, f.inner / 2}, {f.outer - 1, f.inner - 1}};
    std::sort(picks.begin(), picks.end());
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    const std::vector<uint64_t> positions = sample_positions(f.len);

    std::vector<Sample> samples;
    for (const auto& pick : picks) {
        // (Plain copies: clang before 16 cannot capture structured bindings in a lambda.)
        const uint64_t o = pick.first, i = pick.second;
        const auto at = [&](uint64_t k) { return input.data() + ((o * f.len + k) * f.inner + i) * size; };
        const uint64_t out_fiber = o * f.len * f.inner + i;  // scan output of (o, 0, i)
        DoubleDouble sum{c.op == Op::cumprod ? 1.0 : 0.0, 0.0};
        double best = -INFINITY;
        uint64_t bits = c.op == Op::cumprod ? 1 : 0, best_index = 0, best_bits = 0;
        long double scaled = 0;  // logcumsumexp: the sum of e^(x - best)
        size_t next = 0;
        for (uint64_t k = 0; k < f.len; ++k) {
            const double x = load_value(c.type, at(k));
            if (!vkdml::is_float_type(c.type)) {
                const uint64_t b = load_bits(at(k), size);
                if (c.op == Op::cummax)
                    bits = (k == 0 || x > best) ? b : bits;  // the maximum's own bits
                else
                    bits = c.op == Op::cumprod ? bits * b : bits + b;
            }
            if (c.op == Op::logcumsumexp) {
                scaled = x > best ? scaled * std::exp(static_cast<long double>(best) - x) + 1
                                  : scaled + std::exp(static_cast<long double>(x) - best);
                best = std::max(best, x);
            } else if (c.op == Op::cumprod) {
                sum.multiply(x);
            } else if (c.op == Op::argmax || c.op == Op::logsumexp || c.op == Op::cummax) {
                if (x > best) {
                    best = x;
                    best_index = k;
                }
            } else if (c.op == Op::cummax_indices) {
                // The last of ties, as the index output; integers compared exactly (past 2^53 too).
                bool take = x >= best;
                if (!vkdml::is_float_type(c.type)) {
                    const uint64_t b = load_bits(at(k), size);
                    take = k == 0 || (vkdml::is_signed_integer_type(c.type)
                                          ? sign_extended(b, size) >= sign_extended(best_bits, size)
                                          : b >= best_bits);
                    if (take) best_bits = b;
                }
                if (take) {
                    best = x;
                    best_index = k;
                }
            } else {
                sum.add(x);
            }
            if (is_scan(c.op) && next < positions.size() && positions[next] == k) {
                const double value = c.op == Op::cummax         ? best  // (a maximum is exact)
                                     : c.op == Op::logcumsumexp ? static_cast<double>(best + std::log(scaled))
                                                                : sum.value();
                if (c.op == Op::cummax_indices)
                    samples.push_back({out_fiber + k * f.inner, true, best_index, 0, 0});
                else
                    samples.push_back({out_fiber + k * f.inner, !vkdml::is_float_type(c.type), bits & mask,
                                       value, c.op == Op::cummax ? 0.0 : tolerance(c.type, value)});
                ++next;
            }
        }
        if (is_scan(c.op)) continue;
        Sample s{o * f.inner + i, !vkdml::is_float_type(c.type), bits & mask, sum.value(),
                 tolerance(c.type, sum.value())};
        if (c.op == Op::argmax) {
            s.exact = true;
            s.bits = best_index;
        } else if (c.op == Op::any || c.op == Op::count_nonzero) {
            uint64_t nonzero = 0;
            for (uint64_t k = 0; k < f.len; ++k) nonzero += load_value(c.type, at(k)) != 0;
            s.exact = true;
            s.bits = c.op == Op::any ? (nonzero > 0 ? 1 : 0) : nonzero;
        } else if (c.op == Op::variance) {
            const double mean = sum.value() / static_cast<double>(f.len);
            DoubleDouble m2;
            for (uint64_t k = 0; k < f.len; ++k) {
                const double d = load_value(c.type, at(k)) - mean;
                m2.add(d * d);
            }
            s.value = m2.value() / static_cast<double>(f.len);
            s.tolerance = tolerance(c.type, s.value);
        } else if (c.op == Op::logsumexp) {
            DoubleDouble total;
            for (uint64_t k = 0; k < f.len; ++k) total.add(std::exp(load_value(c.type, at(k)) - best));
            s.value = std::log(total.value()) + best;
            s.tolerance = tolerance(c.type, s.value);
        }
        samples.push_back(s);
    }
    return samples;
}

Check check_samples(const Case& c, const std::vector<Sample>& samples, std::span<const std::byte> got) {
    const DML_TENSOR_DATA_TYPE type = output_type(c);
    const uint32_t size = element_size(type);
    Check check;
    if (vkdml::is_float_type(type)) check.max_rel_err = 0;
    for (size_t n = 0; n < samples.size(); ++n) {
        const Sample& s = samples[n];
        const std::byte* p = got.data() + n * size;
        if (s.exact) {
            const uint64_t bits = load_bits(p, size) & low_mask(size);
            if (bits != s.bits && check.mismatch.empty())
                check.mismatch = "element " + std::to_string(s.index) + " is " + std::to_string(bits) +
                                 ", expected " + std::to_string(s.bits);
            continue;
        }
        const double value = load_value(type, p), error = std::fabs(value - s.value);
        const double relative = s.value != 0 ? error / std::fabs(s.value) : (error == 0 ? 0 : INFINITY);
        if (!(relative <= check.max_rel_err)) check.max_rel_err = relative;  // NaN sticks
        if (!(error <= s.tolerance) && check.mismatch.empty()) {
            char text[160];
            std::snprintf(text, sizeof text, "element %llu is %.9g, expected %.9g (tolerance %.3g)",
                          static_cast<unsigned long long>(s.index), value, s.value, s.tolerance);
            check.mismatch = text;
        }
    }
    return check;
}

}  // namespace vkdml::cli::bench
