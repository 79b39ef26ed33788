// Concurrency: 8 threads at once create, compile and record the same and different operators on one
// shared device (one pipeline cache), each into its own command buffers with its own buffers, while
// others run the host path and make devices of their own. Every result is checked exactly. Run under
// ThreadSanitizer by the `tsan` CTest label; here, under the validation layer, which also reports
// threading violations of the Vulkan rules for externally synchronised objects.
#include "vulkan_app.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <latch>
#include <optional>
#include <thread>

using vkdml_test::App;

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 3;
constexpr uint32_t kRows = 2, kCols = 100000;  // int32 rows long enough for a multi-pass plan
constexpr uint64_t kBytes = uint64_t(kRows) * kCols * 4;

/// Descriptions of the same shape, [2, 100000] int32: cumsum along axis 1, a REDUCE along axis 1 with
/// a function chosen per thread, and the standalone ARGMAX.
struct Descs {
    uint32_t sizes[2] = {kRows, kCols}, reduced[2] = {kRows, 1}, axis[1] = {1};
    DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, sizes, nullptr, kBytes, 0};
    DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_FLAG_NONE, 2, reduced, nullptr, 16, 0};
    DML_BUFFER_TENSOR_DESC index{
        DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 2, reduced, nullptr, 16, 0};
    DML_TENSOR_DESC t_in{DML_TENSOR_TYPE_BUFFER, &in}, t_out{DML_TENSOR_TYPE_BUFFER, &out},
        t_index{DML_TENSOR_TYPE_BUFFER, &index};
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum{&t_in, &t_in, 1, DML_AXIS_DIRECTION_INCREASING, 0};
    DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_SUM, &t_in, &t_out, 1, axis};
    DML_ARGMAX_OPERATOR_DESC argmax{&t_in, &t_index, 1, axis, DML_AXIS_DIRECTION_INCREASING};
};

/// x[r][k] = (k * 7 + r * 3 + seed) % 11 - 5: small values, so every answer is easy to compute.
int32_t value(uint32_t r, uint32_t k, uint32_t seed) {
    return static_cast<int32_t>((k * 7 + r * 3 + seed) % 11) - 5;
}

/// The expected REDUCE result of one row for the functions the threads use.
int32_t expected_reduce(DML_REDUCE_FUNCTION f, uint32_t r, uint32_t seed) {
    int64_t acc = f == DML_REDUCE_FUNCTION_MAX ? INT64_MIN : f == DML_REDUCE_FUNCTION_MIN ? INT64_MAX : 0;
    for (uint32_t k = 0; k < kCols; ++k) {
        const int64_t v = value(r, k, seed);
        switch (f) {
        case DML_REDUCE_FUNCTION_MAX: acc = std::max(acc, v); break;
        case DML_REDUCE_FUNCTION_MIN: acc = std::min(acc, v); break;
        case DML_REDUCE_FUNCTION_L1: acc += v < 0 ? -v : v; break;
        case DML_REDUCE_FUNCTION_SUM_SQUARE: acc += v * v; break;
        default: acc += v;
        }
    }
    return static_cast<int32_t>(acc);
}

// Catch2 v2's assertions are not thread-safe: the workers report failures as text through App's
// try_begin / try_submit, and everything else that uses Catch runs on the main thread.

/// One worker's pool and buffers (made by the main thread).
struct Worker {
    VkCommandPool pool = VK_NULL_HANDLE;
    App::Buffer data, scratch;  // data: cumsum in place at 0, reduce out at kBytes, argmax out at +16
    std::string failure;
};

std::string run_worker(App& app, const vkdml::Device& dev, const vkdml::CompiledOperator& shared_cumsum,
                       Worker& w, uint32_t thread, std::latch& start) {
    start.arrive_and_wait();  // all threads begin together
    const DML_REDUCE_FUNCTION functions[] = {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX,
                                             DML_REDUCE_FUNCTION_MIN, DML_REDUCE_FUNCTION_L1,
                                             DML_REDUCE_FUNCTION_SUM_SQUARE};
    for (uint32_t round = 0; round < kRounds; ++round) {
        const uint32_t seed = thread * 31 + round;
        Descs d;
        d.reduce.Function = functions[(thread + round) % 5];
        // The same description as every other thread (cumsum), and ones that differ per thread.
        auto cumsum_op = dev.create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d.cumsum});
        auto reduce_op = dev.create_operator({DML_OPERATOR_REDUCE, &d.reduce});
        auto argmax_op = dev.create_operator({DML_OPERATOR_ARGMAX, &d.argmax});
        if (!cumsum_op || !reduce_op || !argmax_op) return "create_operator failed";
        auto cumsum = dev.compile_operator(*cumsum_op);
        auto reduce = dev.compile_operator(*reduce_op);
        auto argmax = dev.compile_operator(*argmax_op);
        if (!cumsum || !reduce || !argmax) return "compile_operator failed";
        // The reductions read the input first; then this thread's or the shared cumsum runs in place.
        auto* x = static_cast<int32_t*>(w.data.data);
        for (uint32_t r = 0; r < kRows; ++r)
            for (uint32_t k = 0; k < kCols; ++k) x[r * kCols + k] = value(r, k, seed);
        vkdml::BufferBinding in = w.data.bind(0, kBytes), sums = w.data.bind(kBytes, 16),
                             index = w.data.bind(kBytes + 16, 16);
        const uint64_t temp = std::max({cumsum->binding_properties().TemporaryResourceSize,
                                        reduce->binding_properties().TemporaryResourceSize,
                                        argmax->binding_properties().TemporaryResourceSize});
        const uint64_t region = (temp + 255) / 256 * 256;
        if (2 * region + temp > w.scratch.size) return "scratch buffer too small";
        auto scratch = [&](uint64_t i) {
            return temp ? std::optional(w.scratch.bind(i * region, temp)) : std::nullopt;
        };
        VkCommandBuffer cmd = app.try_begin(w.pool);
        if (!cmd) return "vkAllocateCommandBuffers or vkBeginCommandBuffer failed";
        if (!reduce->record(cmd, {{&in, 1}, {&sums, 1}, scratch(0)})) return "record reduce failed";
        if (!argmax->record(cmd, {{&in, 1}, {&index, 1}, scratch(1)})) return "record argmax failed";
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             0, 1, &mb, 0, nullptr, 0, nullptr);
        const vkdml::CompiledOperator& scan = round % 2 ? shared_cumsum : *cumsum;
        if (!scan.record(cmd, {{&in, 1}, {&in, 1}, scratch(2)})) return "record cumsum failed";
        if (auto e = app.try_submit(cmd, w.pool); !e.empty()) return e;
        const auto* y = static_cast<const int32_t*>(w.data.data);
        const auto* out = reinterpret_cast<const int32_t*>(static_cast<const char*>(w.data.data) + kBytes);
        const auto* idx =
            reinterpret_cast<const uint32_t*>(static_cast<const char*>(w.data.data) + kBytes + 16);
        for (uint32_t r = 0; r < kRows; ++r) {
            int32_t acc = 0, best = INT32_MIN;
            uint32_t best_at = 0;
            for (uint32_t k = 0; k < kCols; ++k) {
                const int32_t v = value(r, k, seed);
                acc += v;
                if (y[r * kCols + k] != acc) return "cumsum differs";
                if (v > best) best = v, best_at = k;
            }
            if (out[r] != expected_reduce(d.reduce.Function, r, seed)) return "reduce differs";
            if (idx[r] != best_at) return "argmax differs";
        }
    }
    return {};
}

}  // namespace

TEST_CASE("8 threads create, compile and record the same and different operators on one device",
          "[gpu][threads]") {
    App app(true);
    {
        auto dev = app.adopt(true);
        Descs d;
        auto shared_op = dev->create_operator({DML_OPERATOR_CUMULATIVE_SUMMATION, &d.cumsum});
        REQUIRE(shared_op);
        auto shared = dev->compile_operator(*shared_op);
        REQUIRE(shared);
        std::array<Worker, kThreads> workers;
        for (Worker& w : workers) {
            w.pool = app.make_pool();
            w.data = app.buffer(kBytes + 32);
            w.scratch = app.buffer(1 << 20);
        }
        // Meanwhile: the host path on a device vkdml creates itself, and devices made and dropped.
        auto own = vkdml::Device::create();
        REQUIRE(own);
        std::atomic<int> host_failures{0};
        std::vector<std::thread> threads;
        std::latch start(kThreads + 2);
        for (uint32_t t = 0; t < kThreads; ++t)
            threads.emplace_back(
                [&, t] { workers[t].failure = run_worker(app, *dev, *shared, workers[t], t, start); });
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&] {
                start.arrive_and_wait();
                for (int i = 0; i < kRounds; ++i) {
                    auto extra = vkdml::Device::create();
                    if (!extra) ++host_failures;
                    uint32_t sizes[] = {5};
                    DML_BUFFER_TENSOR_DESC b{
                        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, sizes, nullptr, 20, 0};
                    DML_TENSOR_DESC tb{DML_TENSOR_TYPE_BUFFER, &b};
                    DML_CUMULATIVE_PRODUCT_OPERATOR_DESC prod{&tb, &tb, 0, DML_AXIS_DIRECTION_DECREASING, 1};
                    const float x[5] = {1, 2, 3, 4, 5};
                    float y[5] = {};
                    const std::span<const std::byte> in[] = {std::as_bytes(std::span(x))};
                    const std::span<std::byte> out[] = {std::as_writable_bytes(std::span(y))};
                    if (!vkdml::execute(**own, {DML_OPERATOR_CUMULATIVE_PRODUCT, &prod}, in, out) ||
                        std::vector<float>(y, y + 5) != std::vector<float>{120, 60, 20, 5, 1})
                        ++host_failures;
                }
            });
        for (auto& th : threads) th.join();
        for (uint32_t t = 0; t < kThreads; ++t) {
            INFO("thread " << t << ": " << workers[t].failure);
            CHECK(workers[t].failure.empty());
        }
        CHECK(host_failures == 0);
        for (Worker& w : workers) {
            vkDestroyCommandPool(app.device, w.pool, nullptr);
            app.free(w.data);
            app.free(w.scratch);
        }
    }
    for (const auto& m : app.messages) UNSCOPED_INFO(m);
    CHECK(app.messages.empty());
}
