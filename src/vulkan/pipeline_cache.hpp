// One pipeline cache per device: compute pipelines keyed by kernel, storage variant and
// specialization constants, created once and shared by every operator of the device. All kernels
// share one pipeline layout: a push-descriptor set of kBindingCount storage buffers and 128 bytes
// of push constants.
#pragma once

#include "core/plan.hpp"
#include "vulkan/device_state.hpp"

#include <cstddef>
#include <map>
#include <span>
#include <vector>

namespace vkdml::detail {

class PipelineCache {
public:
    static Result<std::unique_ptr<PipelineCache>> create(DeviceState& device);
    ~PipelineCache();
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    /// The pipeline for a key, created on first use. Thread-safe.
    Result<VkPipeline> get(const PipelineKey& key);
    /// The pipeline of every pass of a finished plan, in pass order.
    Result<std::vector<VkPipeline>> materialize(const Plan& plan);
    VkPipelineLayout layout() const noexcept { return layout_; }
    size_t size() const;
    /// vkGetPipelineCacheData of the device's VkPipelineCache (Device::pipeline_cache_data).
    Result<std::vector<std::byte>> data() const;

private:
    explicit PipelineCache(DeviceState& device) : d_(device) {}
    Result<VkShaderModule> module_for(Kernel kernel, Storage storage);

    DeviceState& d_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipelineCache vk_cache_ = VK_NULL_HANDLE;
    mutable std::mutex mutex_;
    std::map<std::pair<Kernel, Storage>, VkShaderModule> modules_;
    std::map<PipelineKey, VkPipeline> pipelines_;
};

/// Whether `data` starts with a VkPipelineCacheHeaderVersionOne of `device` (its vendor, device ID and
/// pipelineCacheUUID): what DeviceOptions::pipeline_cache_data must be to seed its cache.
bool cache_data_fits(std::span<const std::byte> data, const VkPhysicalDeviceProperties& device);

}  // namespace vkdml::detail
