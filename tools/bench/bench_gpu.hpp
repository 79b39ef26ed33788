// tools/bench/bench_gpu.hpp — the Vulkan side of `vkdml bench`: a function table loaded from
// Device::vulkan(), buffers, uploads and element downloads, GPU-timestamp (or wall-clock) timing of recorded
// work, the vec4 copy and read baselines, and the empty-submit round trip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "bench/bench_cases.hpp"
#include "vkdml/profiling.hpp"
#include "vkdml/vkdml.hpp"

namespace vkdml::cli::bench {

struct Vk;  // the function table (bench_gpu.cpp)

/// A buffer with its own memory; destroyed with the object. Move-only.
class GpuBuffer {
public:
    GpuBuffer() = default;
    GpuBuffer(GpuBuffer&& other) noexcept;
    GpuBuffer& operator=(GpuBuffer&& other) noexcept;
    GpuBuffer(const GpuBuffer&) = delete;
    GpuBuffer& operator=(const GpuBuffer&) = delete;
    ~GpuBuffer();

    VkBuffer buffer() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    VkBufferUsageFlags usage() const { return usage_; }
    /// The whole buffer as a vkdml binding.
    BufferBinding binding() const { return {buffer_, 0, size_, size_, usage_}; }

private:
    friend class Gpu;
    const Vk* vk_ = nullptr;
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    VkBufferUsageFlags usage_ = 0;
    void* mapped_ = nullptr;  ///< host-visible buffers only
    void release() noexcept;
};

/// Times of the runs of one measurement, in milliseconds.
struct Timing {
    std::vector<double> runs;          ///< one per timed run, sorted ascending
    std::vector<double> pass_medians;  ///< per pass (only when passes were asked for)
    bool gpu = false;                  ///< GPU timestamps (else wall clock around submit + wait)
    double median() const;
    double min() const { return runs.front(); }
    double max() const { return runs.back(); }
};

/// Records one run's work into a command buffer; `passes` is set when a per-pass breakdown is wanted.
using Recorder = std::function<void(VkCommandBuffer cmd, const PassTimestamps* passes)>;

/// The bench's Vulkan context on a vkdml Device: one command buffer, one fence, the baseline pipelines.
/// Every failing Vulkan call throws a CliError through fail().
class Gpu {
public:
    explicit Gpu(const Device& device);
    ~Gpu();
    Gpu(const Gpu&) = delete;
    Gpu& operator=(const Gpu&) = delete;

    /// Bytes of the largest device-local memory heap.
    uint64_t device_local_heap() const { return heap_bytes_; }
    /// Whether timings come from GPU timestamps.
    bool gpu_timestamps() const;

    /// A storage buffer (also a transfer source and destination) in device-local memory where there is
    /// some, at least `bytes` (rounded up to 16) long.
    GpuBuffer storage_buffer(uint64_t bytes);
    /// Copies `data` into the start of `dst` through a host-visible staging buffer (in chunks) and waits.
    void upload(const GpuBuffer& dst, std::span<const std::byte> data);
    /// Downloads the elements at `indices` (of `element_bytes` each) of `src`, in order, and waits.
    std::vector<std::byte> download(const GpuBuffer& src, std::span<const uint64_t> indices,
                                    uint32_t element_bytes);

    /// Runs `record` 2 times untimed, then `repeat` times timed, one submit and wait per run (each run's
    /// command buffer starts with a barrier against the previous run's writes). With `pass_count` > 0 the
    /// recorder gets PassTimestamps for that many passes and per-pass medians are returned.
    Timing time(const Recorder& record, uint32_t repeat, uint32_t pass_count = 0);

    /// GB/s (1e9 bytes/s, by the median) of the vec4 copy (bytes counted read + written = 2 * `bytes`) or
    /// read (bytes counted = `bytes`) baseline over `bytes` bytes, timed like time(): the faster of two
    /// lane layouts (interleaved, contiguous runs). Buffers are made for
    /// the measurement and released after it.
    double baseline_gbps(Baseline kind, uint64_t bytes, uint32_t repeat);

    /// Median milliseconds (of `runs`, after a few warm-up ones) of an empty command buffer's submit with a
    /// fence and wait, by the wall clock.
    double empty_submit_ms(uint32_t runs);

private:
    struct Pipeline {
        VkPipeline pipeline = VK_NULL_HANDLE;
        uint32_t local = 0, vecs = 0;  ///< invocations per workgroup, vec4s per invocation
    };
    void make_baselines();
    Pipeline make_pipeline(std::span<const uint32_t> spirv, bool contiguous);
    void record_baseline(VkCommandBuffer cmd, const Pipeline& pipeline, const GpuBuffer& src,
                         const GpuBuffer& dst, uint64_t bytes, bool copy) const;
    GpuBuffer make_buffer(uint64_t bytes, VkBufferUsageFlags usage, bool host_visible);
    uint32_t memory_type(uint32_t allowed, bool host_visible) const;
    void begin();
    void submit_and_wait();
    void barrier(VkCommandBuffer cmd) const;

    const Device& device_;
    std::unique_ptr<Vk> vk_;
    VulkanHandles h_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    uint64_t heap_bytes_ = 0;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    Pipeline copy_[2], read_[2];  ///< interleaved lanes, contiguous runs
};

}  // namespace vkdml::cli::bench
