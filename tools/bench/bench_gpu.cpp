// tools/bench/bench_gpu.cpp — the Vulkan side of `vkdml bench` (see bench_gpu.hpp). The tool is built with
// VK_NO_PROTOTYPES: every function comes through the Device's get_instance_proc_addr.
#include "bench/bench_gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "cli/cli.hpp"
#include "spv_bench_copy.h"
#include "spv_bench_read.h"

namespace vkdml::cli::bench {

// The Vulkan functions the bench uses (device-level ones resolved through vkGetDeviceProcAddr).
// clang-format off
#define VKDML_BENCH_DEVICE_FUNCTIONS(X) \
    X(vkCreateBuffer) \
    X(vkDestroyBuffer) \
    X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory) \
    X(vkFreeMemory) \
    X(vkBindBufferMemory) \
    X(vkMapMemory) \
    X(vkUnmapMemory) \
    X(vkCreateCommandPool) \
    X(vkDestroyCommandPool) \
    X(vkAllocateCommandBuffers) \
    X(vkResetCommandBuffer) \
    X(vkBeginCommandBuffer) \
    X(vkEndCommandBuffer) \
    X(vkCmdCopyBuffer) \
    X(vkCmdFillBuffer) \
    X(vkCmdPipelineBarrier) \
    X(vkCmdWriteTimestamp) \
    X(vkCmdResetQueryPool) \
    X(vkCreateQueryPool) \
    X(vkDestroyQueryPool) \
    X(vkGetQueryPoolResults) \
    X(vkQueueSubmit) \
    X(vkCreateFence) \
    X(vkDestroyFence) \
    X(vkWaitForFences) \
    X(vkResetFences) \
    X(vkCreateShaderModule) \
    X(vkDestroyShaderModule) \
    X(vkCreateDescriptorSetLayout) \
    X(vkDestroyDescriptorSetLayout) \
    X(vkCreatePipelineLayout) \
    X(vkDestroyPipelineLayout) \
    X(vkCreateComputePipelines) \
    X(vkDestroyPipeline) \
    X(vkCmdBindPipeline) \
    X(vkCmdPushConstants) \
    X(vkCmdPushDescriptorSetKHR) \
    X(vkCmdDispatch) \
    X(vkDeviceWaitIdle)
// clang-format on

struct Vk {
#define VKDML_BENCH_MEMBER(name) PFN_##name name = nullptr;
    VKDML_BENCH_DEVICE_FUNCTIONS(VKDML_BENCH_MEMBER)
#undef VKDML_BENCH_MEMBER
    PFN_vkGetPhysicalDeviceMemoryProperties vkGetPhysicalDeviceMemoryProperties = nullptr;
};

namespace {

void vk_check(VkResult result, const char* call) {
    if (result != VK_SUCCESS) fail(std::string(call) + " failed (VkResult " + std::to_string(result) + ")");
}

// Destroys a query pool when the scope ends.
struct QueryPoolGuard {
    const Vk& vk;
    VkDevice device;
    VkQueryPool pool = VK_NULL_HANDLE;
    ~QueryPoolGuard() {
        if (pool) vk.vkDestroyQueryPool(device, pool, nullptr);
    }
};

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Baseline shape: invocations per workgroup and vec4s per invocation. On a CPU device (lavapipe) a
// workgroup of one subgroup is one SIMD vector with no barrier cost and measured fastest (8 x 16); a GPU
// gets wide workgroups of 16 loads in flight per invocation (64 KiB per workgroup: the H200 read only
// 1.7 TB/s with 4, where torch.sum read 3.5).
constexpr uint32_t kCpuVecs = 16, kGpuLocal = 256, kGpuVecs = 16;
constexpr uint32_t kContiguousLocal = 64, kContiguousVecs = 256;

}  // namespace

// ---- GpuBuffer ---------------------------------------------------------------------------------

GpuBuffer::GpuBuffer(GpuBuffer&& other) noexcept {
    *this = std::move(other);
}

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
    if (this != &other) {
        release();
        vk_ = other.vk_;
        device_ = other.device_;
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        size_ = other.size_;
        usage_ = other.usage_;
        mapped_ = std::exchange(other.mapped_, nullptr);
    }
    return *this;
}

GpuBuffer::~GpuBuffer() {
    release();
}

void GpuBuffer::release() noexcept {
    if (!vk_) return;
    if (buffer_) vk_->vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) vk_->vkFreeMemory(device_, memory_, nullptr);  // unmaps implicitly
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

double Timing::median() const {
    return median_of(runs);
}

// ---- Gpu -----------------------------------------------------------------------------------------

Gpu::Gpu(const Device& device) : device_(device), vk_(std::make_unique<Vk>()), h_(device.vulkan()) {
    const auto get_device_proc = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
        h_.get_instance_proc_addr(h_.instance, "vkGetDeviceProcAddr"));
    vk_->vkGetPhysicalDeviceMemoryProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
        h_.get_instance_proc_addr(h_.instance, "vkGetPhysicalDeviceMemoryProperties"));
    if (!get_device_proc || !vk_->vkGetPhysicalDeviceMemoryProperties)
        fail("cannot resolve vkGetDeviceProcAddr / vkGetPhysicalDeviceMemoryProperties");
#define VKDML_BENCH_LOAD(name)                                                   \
    vk_->name = reinterpret_cast<PFN_##name>(get_device_proc(h_.device, #name)); \
    if (!vk_->name) fail("cannot resolve " #name);
    VKDML_BENCH_DEVICE_FUNCTIONS(VKDML_BENCH_LOAD)
#undef VKDML_BENCH_LOAD

    vk_->vkGetPhysicalDeviceMemoryProperties(h_.physical_device, &memory_);
    for (uint32_t i = 0; i < memory_.memoryHeapCount; ++i)
        if (memory_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap_bytes_ = std::max<uint64_t>(heap_bytes_, memory_.memoryHeaps[i].size);

    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = h_.queue_family_index;
    vk_check(vk_->vkCreateCommandPool(h_.device, &pool_info, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    vk_check(vk_->vkAllocateCommandBuffers(h_.device, &alloc, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk_check(vk_->vkCreateFence(h_.device, &fence_info, nullptr, &fence_), "vkCreateFence");
    make_baselines();
}

Gpu::~Gpu() {
    vk_->vkDeviceWaitIdle(h_.device);
    for (VkPipeline p : {copy_[0].pipeline, copy_[1].pipeline, read_[0].pipeline, read_[1].pipeline})
        if (p) vk_->vkDestroyPipeline(h_.device, p, nullptr);
    if (layout_) vk_->vkDestroyPipelineLayout(h_.device, layout_, nullptr);
    if (set_layout_) vk_->vkDestroyDescriptorSetLayout(h_.device, set_layout_, nullptr);
    if (fence_) vk_->vkDestroyFence(h_.device, fence_, nullptr);
    if (pool_) vk_->vkDestroyCommandPool(h_.device, pool_, nullptr);
}

bool Gpu::gpu_timestamps() const {
    return device_.info().timestamps && device_.info().timestamp_period_ns > 0;
}

void Gpu::make_baselines() {
    VkDescriptorSetLayoutBinding bindings[2] = {};
    for (uint32_t b = 0; b < 2; ++b)
        bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    set_info.bindingCount = 2;
    set_info.pBindings = bindings;
    vk_check(vk_->vkCreateDescriptorSetLayout(h_.device, &set_info, nullptr, &set_layout_),
             "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 * sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout_;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    vk_check(vk_->vkCreatePipelineLayout(h_.device, &layout_info, nullptr, &layout_),
             "vkCreatePipelineLayout");
    for (int contiguous = 0; contiguous < 2; ++contiguous) {
        copy_[contiguous] = make_pipeline(spv_bench_copy, contiguous == 1);
        read_[contiguous] = make_pipeline(spv_bench_read, contiguous == 1);
    }
}

Gpu::Pipeline Gpu::make_pipeline(std::span<const uint32_t> spirv, bool contiguous) {
    Pipeline result;
    const DeviceInfo& dev = device_.info();
    const bool cpu = dev.physical.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    // Interleaved lanes (coalesced, what GPUs want) in small blocks on CPU devices, or runs of their own
    // (what CPUs want, as vkdml's serial kernels do); the bench keeps the faster.
    result.local = contiguous ? std::min(kContiguousLocal, dev.max_workgroup_invocations)
                              : std::min(cpu ? std::max(dev.subgroup_size, 1u) : kGpuLocal,
                                         dev.max_workgroup_invocations);
    result.vecs = contiguous ? kContiguousVecs : cpu ? kCpuVecs : kGpuVecs;
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv.size_bytes();
    module_info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    vk_check(vk_->vkCreateShaderModule(h_.device, &module_info, nullptr, &module), "vkCreateShaderModule");
    const uint32_t constants[3] = {result.local, result.vecs, contiguous ? 1u : 0u};
    const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    const VkSpecializationInfo specialization{3, entries, sizeof constants, constants};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_;
    const VkResult made =
        vk_->vkCreateComputePipelines(h_.device, VK_NULL_HANDLE, 1, &info, nullptr, &result.pipeline);
    vk_->vkDestroyShaderModule(h_.device, module, nullptr);
    vk_check(made, "vkCreateComputePipelines");
    return result;
}

uint32_t Gpu::memory_type(uint32_t allowed, bool host_visible) const {
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const VkMemoryPropertyFlags wanted[2] = {host_visible ? host : local, host_visible ? host : 0u};
    for (VkMemoryPropertyFlags flags : wanted)
        for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
            if ((allowed & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & flags) == flags) return i;
    fail("no suitable Vulkan memory type for a bench buffer");
}

GpuBuffer Gpu::make_buffer(uint64_t bytes, VkBufferUsageFlags usage, bool host_visible) {
    GpuBuffer b;
    b.vk_ = vk_.get();
    b.device_ = h_.device;
    b.size_ = std::max<uint64_t>(16, (bytes + 15) & ~uint64_t{15});
    b.usage_ = usage;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = b.size_;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    vk_check(vk_->vkCreateBuffer(h_.device, &info, nullptr, &b.buffer_), "vkCreateBuffer");
    VkMemoryRequirements req{};
    vk_->vkGetBufferMemoryRequirements(h_.device, b.buffer_, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = memory_type(req.memoryTypeBits, host_visible);
    vk_check(vk_->vkAllocateMemory(h_.device, &alloc, nullptr, &b.memory_), "vkAllocateMemory");
    vk_check(vk_->vkBindBufferMemory(h_.device, b.buffer_, b.memory_, 0), "vkBindBufferMemory");
    if (host_visible)
        vk_check(vk_->vkMapMemory(h_.device, b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_), "vkMapMemory");
    return b;
}

GpuBuffer Gpu::storage_buffer(uint64_t bytes) {
    return make_buffer(bytes,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       false);
}

void Gpu::begin() {
    vk_check(vk_->vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk_check(vk_->vkBeginCommandBuffer(cmd_, &info), "vkBeginCommandBuffer");
}

void Gpu::submit_and_wait() {
    vk_check(vk_->vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd_;
    {
        const auto lock = device_.lock_queue();
        vk_check(vk_->vkQueueSubmit(h_.queue, 1, &submit, fence_), "vkQueueSubmit");
    }
    vk_check(vk_->vkWaitForFences(h_.device, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    vk_check(vk_->vkResetFences(h_.device, 1, &fence_), "vkResetFences");
}

// Makes every earlier shader and transfer write visible to later shaders and transfers.
void Gpu::barrier(VkCommandBuffer cmd) const {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vk_->vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void Gpu::upload(const GpuBuffer& dst, std::span<const std::byte> data) {
    const uint64_t chunk = std::min<uint64_t>(data.size(), uint64_t{64} << 20);
    GpuBuffer staging = make_buffer(chunk, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
    for (uint64_t at = 0; at < data.size(); at += chunk) {
        const uint64_t n = std::min<uint64_t>(chunk, data.size() - at);
        std::memcpy(staging.mapped_, data.data() + at, n);
        begin();
        const VkBufferCopy region{0, at, n};
        vk_->vkCmdCopyBuffer(cmd_, staging.buffer_, dst.buffer_, 1, &region);
        submit_and_wait();
    }
}

std::vector<std::byte> Gpu::download(const GpuBuffer& src, std::span<const uint64_t> indices,
                                     uint32_t element_bytes) {
    GpuBuffer readback = make_buffer(indices.size() * element_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    std::vector<VkBufferCopy> regions;
    for (size_t n = 0; n < indices.size(); ++n)
        regions.push_back({indices[n] * element_bytes, n * element_bytes, element_bytes});
    begin();
    barrier(cmd_);
    vk_->vkCmdCopyBuffer(cmd_, src.buffer_, readback.buffer_, static_cast<uint32_t>(regions.size()),
                         regions.data());
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vk_->vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                              &to_host, 0, nullptr, 0, nullptr);
    submit_and_wait();
    std::vector<std::byte> bytes(indices.size() * element_bytes);
    std::memcpy(bytes.data(), readback.mapped_, bytes.size());
    return bytes;
}

Timing Gpu::time(const Recorder& record, uint32_t repeat, uint32_t pass_count) {
    Timing timing;
    timing.gpu = gpu_timestamps();
    const uint32_t queries = pass_count > 0 ? pass_count + 1 : 2;
    QueryPoolGuard guard{*vk_, h_.device};
    if (timing.gpu) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = queries;
        vk_check(vk_->vkCreateQueryPool(h_.device, &info, nullptr, &guard.pool), "vkCreateQueryPool");
    }
    const PassTimestamps passes{guard.pool, 1};
    std::vector<std::vector<double>> pass_ms(pass_count);
    const double ns_per_tick = static_cast<double>(device_.info().timestamp_period_ns);
    constexpr uint32_t kWarmUp = 2;
    for (uint32_t run = 0; run < kWarmUp + repeat; ++run) {
        begin();
        barrier(cmd_);
        if (timing.gpu) {
            vk_->vkCmdResetQueryPool(cmd_, guard.pool, 0, queries);
            vk_->vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, guard.pool, 0);
        }
        record(cmd_, timing.gpu && pass_count > 0 ? &passes : nullptr);
        if (timing.gpu && pass_count == 0)
            vk_->vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, guard.pool, 1);
        const auto start = std::chrono::steady_clock::now();
        submit_and_wait();
        const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
        if (run < kWarmUp) continue;
        if (!timing.gpu) {
            timing.runs.push_back(wall.count());
            continue;
        }
        std::vector<uint64_t> ticks(queries);
        vk_check(vk_->vkGetQueryPoolResults(h_.device, guard.pool, 0, queries,
                                            ticks.size() * sizeof(uint64_t), ticks.data(), sizeof(uint64_t),
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
        const auto ms = [&](uint32_t a, uint32_t b) {
            return static_cast<double>(ticks[b] - ticks[a]) * ns_per_tick * 1e-6;
        };
        timing.runs.push_back(ms(0, queries - 1));
        for (uint32_t p = 0; p < pass_count; ++p) pass_ms[p].push_back(ms(p, p + 1));
    }
    std::sort(timing.runs.begin(), timing.runs.end());
    for (auto& times : pass_ms)
        if (!times.empty()) timing.pass_medians.push_back(median_of(times));
    return timing;
}

void Gpu::record_baseline(VkCommandBuffer cmd, const Pipeline& pipeline, const GpuBuffer& src,
                          const GpuBuffer& dst, uint64_t bytes, bool copy) const {
    const DeviceInfo& info = device_.info();
    const uint64_t block = uint64_t{pipeline.local} * pipeline.vecs;  // vec4s per workgroup
    const uint64_t total = (bytes + 15) / 16;
    // Windows of at most maxStorageBufferRange bytes, and of at most one grid row of workgroups where
    // that is smaller (the x*y fold is then needed only on devices with a short x limit).
    const uint64_t row = uint64_t{info.max_workgroup_count[0]} * block;
    uint64_t window =
        std::min<uint64_t>(std::min<uint64_t>(info.max_storage_buffer_range, 0xFFFFFFF0u) / 16, row) / block *
        block;
    const uint64_t align = std::max<uint64_t>(1, info.min_storage_buffer_offset_alignment);
    while (window > block && (window * 16) % align != 0) window -= block;
    vk_->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    uint32_t out_base = 0;
    for (uint64_t first = 0; first < total; first += window) {
        // The read variant binds all of dst to every window's dispatch (each writes its own words): a
        // barrier between them, as vkdml's own dispatches have, so synchronization validation passes.
        if (!copy && first > 0) {
            VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            vk_->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                      nullptr);
        }
        const uint64_t count = std::min(window, total - first);
        const auto groups = static_cast<uint32_t>((count + block - 1) / block);
        const uint32_t groups_x = std::min(groups, info.max_workgroup_count[0]);
        const uint32_t groups_y = (groups + groups_x - 1) / groups_x;
        const VkDescriptorBufferInfo src_info{src.buffer(), first * 16, count * 16};
        const VkDescriptorBufferInfo dst_info =
            copy ? VkDescriptorBufferInfo{dst.buffer(), first * 16, count * 16}
                 : VkDescriptorBufferInfo{dst.buffer(), 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2] = {};
        for (uint32_t b = 0; b < 2; ++b) {
            writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            writes[b].dstBinding = b;
            writes[b].descriptorCount = 1;
            writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[b].pBufferInfo = b == 0 ? &src_info : &dst_info;
        }
        vk_->vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 2, writes);
        const uint32_t push[4] = {static_cast<uint32_t>(count), groups, groups_x, out_base};
        vk_->vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
        vk_->vkCmdDispatch(cmd, groups_x, groups_y, 1);
        out_base += groups;
    }
}

double Gpu::baseline_gbps(Baseline kind, uint64_t bytes, uint32_t repeat) {
    const bool copy = kind == Baseline::copy;
    double best = 0;
    for (const Pipeline& pipeline : copy ? copy_ : read_) {
        const uint64_t block_bytes = uint64_t{pipeline.local} * pipeline.vecs * 16;
        GpuBuffer src = storage_buffer(bytes);
        GpuBuffer dst =
            storage_buffer(copy ? bytes : ((bytes + block_bytes - 1) / block_bytes + 1) * 4 * pipeline.local);
        begin();  // defined contents for the loads
        vk_->vkCmdFillBuffer(cmd_, src.buffer(), 0, VK_WHOLE_SIZE, 0x3f800000u);
        submit_and_wait();
        const Timing timing =
            time([&](VkCommandBuffer cmd,
                     const PassTimestamps*) { record_baseline(cmd, pipeline, src, dst, bytes, copy); },
                 repeat);
        const double counted = static_cast<double>(copy ? 2 * bytes : bytes);
        best = std::max(best, counted / (timing.median() * 1e-3) / 1e9);
    }
    return best;
}

double Gpu::empty_submit_ms(uint32_t runs) {
    std::vector<double> times;
    for (uint32_t run = 0; run < runs + 5; ++run) {
        const auto start = std::chrono::steady_clock::now();
        begin();
        submit_and_wait();
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
        if (run >= 5) times.push_back(took.count());
    }
    return median_of(times);
}

}  // namespace vkdml::cli::bench
