// tools/bench/bench_cpu.cpp — the CPU loops of `vkdml bench`, one template per operation over the storage
// type.
#include "bench/bench_cpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include "bench/bench_data.hpp"
#include "npy/half.hpp"

namespace vkdml::cli::bench {
namespace {

// How a storage type is read and written by the loops: integers as the unsigned type of their width
// (wrapping exactly like the kernels), float16 through float.
template <class T>
struct Plain {
    using Storage = T;
    using Acc = T;
    static Acc load(T x) { return x; }
    static T store(Acc x) { return x; }
};
struct Half {
    using Storage = uint16_t;
    using Acc = float;
    static Acc load(uint16_t x) { return half_to_float(x); }
    static uint16_t store(Acc x) { return float_to_half(x); }
};

volatile double g_sink;  // results the compiler must not drop

template <class Traits, class Combine>
void scan(const Fibers& f, const typename Traits::Storage* in, typename Traits::Storage* out, Combine op) {
    using T = typename Traits::Storage;
    using Acc = typename Traits::Acc;
    for (uint64_t o = 0; o < f.outer; ++o) {
        const T* x = in + o * f.len * f.inner;
        T* y = out + o * f.len * f.inner;
        if (f.inner == 1) {
            if constexpr (std::is_same_v<Traits, Half>) {
                Acc acc = Traits::load(x[0]);
                y[0] = Traits::store(acc);
                for (uint64_t k = 1; k < f.len; ++k) y[k] = Traits::store(acc = op(acc, Traits::load(x[k])));
            } else {
                std::inclusive_scan(x, x + f.len, y, op);
            }
            continue;
        }
        std::vector<Acc> acc(f.inner);  // row by row along an outer axis
        for (uint64_t i = 0; i < f.inner; ++i) y[i] = Traits::store(acc[i] = Traits::load(x[i]));
        for (uint64_t k = 1; k < f.len; ++k)
            for (uint64_t i = 0; i < f.inner; ++i)
                y[k * f.inner + i] = Traits::store(acc[i] = op(acc[i], Traits::load(x[k * f.inner + i])));
    }
}

template <class Traits>
void reduce_sum(const Fibers& f, const typename Traits::Storage* in, typename Traits::Storage* out) {
    using T = typename Traits::Storage;
    using Acc = typename Traits::Acc;
    for (uint64_t o = 0; o < f.outer; ++o) {
        const T* x = in + o * f.len * f.inner;
        if (f.inner == 1) {
            if constexpr (std::is_same_v<Traits, Half>) {
                Acc acc = 0;
                for (uint64_t k = 0; k < f.len; ++k) acc += Traits::load(x[k]);
                out[o] = Traits::store(acc);
            } else {
                out[o] = std::accumulate(x, x + f.len, T{0}, [](T a, T b) { return static_cast<T>(a + b); });
            }
            continue;
        }
        std::vector<Acc> acc(f.inner, Acc{0});
        for (uint64_t k = 0; k < f.len; ++k)
            for (uint64_t i = 0; i < f.inner; ++i)
                acc[i] = static_cast<Acc>(acc[i] + Traits::load(x[k * f.inner + i]));
        for (uint64_t i = 0; i < f.inner; ++i) out[o * f.inner + i] = Traits::store(acc[i]);
    }
}

// Arg max and logsumexp along contiguous fibers (inner == 1, as in every such case).
template <class Traits>
void argmax(const Fibers& f, const typename Traits::Storage* in) {
    for (uint64_t o = 0; o < f.outer; ++o) {
        const auto* x = in + o * f.len;
        if constexpr (std::is_same_v<Traits, Half>) {
            uint64_t best = 0;
            float top = Traits::load(x[0]);
            for (uint64_t k = 1; k < f.len; ++k) {
                const float v = Traits::load(x[k]);
                if (v > top) {
                    top = v;
                    best = k;
                }
            }
            g_sink = static_cast<double>(best);
        } else {
            g_sink = static_cast<double>(std::max_element(x, x + f.len) - x);
        }
    }
}

// The running maximum and the index of its last occurrence (PyTorch's cummax loop), inner fibers.
template <class Traits>
void cummax_indices(const Fibers& f, const typename Traits::Storage* in, typename Traits::Storage* out,
                    std::vector<int64_t>& indices) {
    using Acc = typename Traits::Acc;
    indices.resize(f.outer * f.len);
    for (uint64_t o = 0; o < f.outer; ++o) {
        const auto* x = in + o * f.len;
        Acc best = Traits::load(x[0]);
        int64_t where = 0;
        for (uint64_t k = 0; k < f.len; ++k) {
            const Acc v = Traits::load(x[k]);
            if (v >= best) {
                best = v;
                where = static_cast<int64_t>(k);
            }
            out[o * f.len + k] = Traits::store(best);
            indices[o * f.len + k] = where;
        }
    }
}

template <class Traits>
void logsumexp(const Fibers& f, const typename Traits::Storage* in) {
    using Acc = typename Traits::Acc;
    for (uint64_t o = 0; o < f.outer; ++o) {
        const auto* x = in + o * f.len;
        Acc top = Traits::load(x[0]);
        for (uint64_t k = 1; k < f.len; ++k) top = std::max(top, Traits::load(x[k]));
        Acc total = 0;
        for (uint64_t k = 0; k < f.len; ++k) total += std::exp(Traits::load(x[k]) - top);
        g_sink = static_cast<double>(std::log(total) + top);
    }
}

// The variance by two passes (the mean, then the squared deviations) along every fiber.
template <class Traits>
void variance(const Fibers& f, const typename Traits::Storage* in) {
    using Acc = typename Traits::Acc;
    for (uint64_t o = 0; o < f.outer; ++o) {
        const auto* x = in + o * f.len * f.inner;
        for (uint64_t i = 0; i < f.inner; ++i) {
            Acc total = 0;
            for (uint64_t k = 0; k < f.len; ++k) total += Traits::load(x[k * f.inner + i]);
            const Acc mean = total / static_cast<Acc>(f.len);
            Acc m2 = 0;
            for (uint64_t k = 0; k < f.len; ++k) {
                const Acc d = Traits::load(x[k * f.inner + i]) - mean;
                m2 += d * d;
            }
            g_sink = static_cast<double>(m2 / static_cast<Acc>(f.len));
        }
    }
}

// ANY (`count` false) or COUNT_NONZERO along every fiber.
template <class Traits>
void nonzero(const Fibers& f, const typename Traits::Storage* in, bool count) {
    for (uint64_t o = 0; o < f.outer; ++o) {
        const auto* x = in + o * f.len * f.inner;
        for (uint64_t i = 0; i < f.inner; ++i) {
            uint64_t n = 0;
            for (uint64_t k = 0; k < f.len; ++k) n += Traits::load(x[k * f.inner + i]) != 0;
            g_sink = static_cast<double>(count ? n : n > 0);
        }
    }
}

template <class Traits>
bool run_once(const Case& c, const std::byte* input, std::byte* output) {
    using T = typename Traits::Storage;
    using Acc = typename Traits::Acc;
    const Fibers f = fibers(c);
    // The buffers come from std::vector<std::byte>, whose storage is suitably aligned for any T.
    const auto* in = static_cast<const T*>(static_cast<const void*>(input));
    auto* out = static_cast<T*>(static_cast<void*>(output));
    switch (c.op) {
    case Op::cumsum:
        scan<Traits>(f, in, out, [](Acc a, Acc b) { return static_cast<Acc>(a + b); });
        return true;
    case Op::cumprod:
        scan<Traits>(f, in, out, [](Acc a, Acc b) { return static_cast<Acc>(a * b); });
        return true;
    case Op::cummax: scan<Traits>(f, in, out, [](Acc a, Acc b) { return b > a ? b : a; }); return true;
    case Op::cummax_indices: {
        if (f.inner != 1) return false;
        static std::vector<int64_t> indices;  // (kept between runs: allocated once)
        cummax_indices<Traits>(f, in, out, indices);
        return true;
    }
    case Op::logcumsumexp:
        if constexpr (std::is_floating_point_v<Acc>) {
            scan<Traits>(f, in, out, [](Acc a, Acc b) {  // ln(e^a + e^b), as PyTorch's CPU loop steps
                const Acc top = std::max(a, b);
                return top == -std::numeric_limits<Acc>::infinity()
                           ? top
                           : top + std::log1p(std::exp(-std::fabs(a - b)));
            });
            return true;
        } else {
            return false;
        }
    case Op::reduce_sum: reduce_sum<Traits>(f, in, out); return true;
    case Op::argmax:
        if (f.inner != 1) return false;
        argmax<Traits>(f, in);
        return true;
    case Op::logsumexp:
        if constexpr (std::is_floating_point_v<Acc>) {
            if (f.inner != 1) return false;
            logsumexp<Traits>(f, in);
            return true;
        } else {
            return false;
        }
    case Op::any:
    case Op::count_nonzero: nonzero<Traits>(f, in, c.op == Op::count_nonzero); return true;
    case Op::variance:
        if constexpr (std::is_floating_point_v<Acc>) {
            variance<Traits>(f, in);
            return true;
        } else {
            return false;
        }
    case Op::host_cumsum: return false;
    }
    return false;
}

bool run_typed(const Case& c, const std::byte* in, std::byte* out) {
    switch (c.type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return run_once<Half>(c, in, out);
    case DML_TENSOR_DATA_TYPE_FLOAT32: return run_once<Plain<float>>(c, in, out);
    case DML_TENSOR_DATA_TYPE_FLOAT64: return run_once<Plain<double>>(c, in, out);
    case DML_TENSOR_DATA_TYPE_INT8:
    case DML_TENSOR_DATA_TYPE_UINT8: return run_once<Plain<uint8_t>>(c, in, out);
    case DML_TENSOR_DATA_TYPE_INT16:
    case DML_TENSOR_DATA_TYPE_UINT16: return run_once<Plain<uint16_t>>(c, in, out);
    case DML_TENSOR_DATA_TYPE_INT32:
    case DML_TENSOR_DATA_TYPE_UINT32: return run_once<Plain<uint32_t>>(c, in, out);
    case DML_TENSOR_DATA_TYPE_INT64:
    case DML_TENSOR_DATA_TYPE_UINT64: return run_once<Plain<uint64_t>>(c, in, out);
    default: return false;
    }
}

}  // namespace

double cpu_time_ms(const Case& c, std::span<const std::byte> input) {
    if (c.op == Op::host_cumsum) return NAN;
    std::vector<std::byte> output(operation(c).output().elements() * element_size(c.type));
    std::vector<double> times;
    for (int run = 0; run < 3; ++run) {
        const auto start = std::chrono::steady_clock::now();
        if (!run_typed(c, input.data(), output.data())) return NAN;
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        times.push_back(took.count());
        if (took.count() > 500.0) break;
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace vkdml::cli::bench
