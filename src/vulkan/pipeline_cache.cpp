// Pipeline creation and reuse (see pipeline_cache.hpp).
#include "vulkan/pipeline_cache.hpp"

#include "core/errors.hpp"
#include "core/float_controls.hpp"
#include "core/kernel_abi.hpp"
#include "core/kernel_registry.hpp"
#include "core/subgroup_request.hpp"

#include <cstring>

namespace vkdml::detail {

Result<std::unique_ptr<PipelineCache>> PipelineCache::create(DeviceState& device) {
    std::unique_ptr<PipelineCache> c(new PipelineCache(device));
    std::array<VkDescriptorSetLayoutBinding, kBindingCount> bindings{};
    for (uint32_t i = 0; i < kBindingCount; ++i)
        bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    sci.bindingCount = kBindingCount;
    sci.pBindings = bindings.data();
    const VolkDeviceTable& vk = device.vk;
    VKDML_VK_TRY(vk.vkCreateDescriptorSetLayout(device.device, &sci, device.allocator, &c->set_layout_));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &c->set_layout_;
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &range;
    VKDML_VK_TRY(vk.vkCreatePipelineLayout(device.device, &lci, device.allocator, &c->layout_));
    VkPipelineCacheCreateInfo cci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    cci.initialDataSize = device.initial_cache_data.size();
    cci.pInitialData = device.initial_cache_data.empty() ? nullptr : device.initial_cache_data.data();
    VKDML_VK_TRY(vk.vkCreatePipelineCache(device.device, &cci, device.allocator, &c->vk_cache_));
    device.cache_seeded = !device.initial_cache_data.empty();
    device.initial_cache_data = {};
    return c;
}

Result<std::vector<std::byte>> PipelineCache::data() const {
    std::lock_guard lock(mutex_);
    size_t size = 0;
    VKDML_VK_TRY(d_.vk.vkGetPipelineCacheData(d_.device, vk_cache_, &size, nullptr));
    std::vector<std::byte> bytes(size);
    VKDML_VK_TRY(d_.vk.vkGetPipelineCacheData(d_.device, vk_cache_, &size, bytes.data()));
    bytes.resize(size);
    return bytes;
}

bool cache_data_fits(std::span<const std::byte> data, const VkPhysicalDeviceProperties& device) {
    VkPipelineCacheHeaderVersionOne header{};
    if (data.size() < sizeof header) return false;
    std::memcpy(&header, data.data(), sizeof header);
    return header.headerSize >= sizeof header && header.headerSize <= data.size() &&
           header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
           header.vendorID == device.vendorID && header.deviceID == device.deviceID &&
           std::memcmp(header.pipelineCacheUUID, device.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

PipelineCache::~PipelineCache() {
    const VolkDeviceTable& vk = d_.vk;
    for (auto& [key, p] : pipelines_) vk.vkDestroyPipeline(d_.device, p, d_.allocator);
    for (auto& [key, m] : modules_) vk.vkDestroyShaderModule(d_.device, m, d_.allocator);
    if (vk_cache_) vk.vkDestroyPipelineCache(d_.device, vk_cache_, d_.allocator);
    if (layout_) vk.vkDestroyPipelineLayout(d_.device, layout_, d_.allocator);
    if (set_layout_) vk.vkDestroyDescriptorSetLayout(d_.device, set_layout_, d_.allocator);
}

size_t PipelineCache::size() const {
    std::lock_guard lock(mutex_);
    return pipelines_.size();
}

Result<VkShaderModule> PipelineCache::module_for(Kernel kernel, Storage storage) {
    auto it = modules_.find({kernel, storage});
    if (it != modules_.end()) return it->second;
    const KernelBinary* bin = find_kernel(kernel, storage);
    if (!bin)
        return make_error(ErrorCode::vulkan_error, "internal: kernel ", name(kernel), " has no ",
                          name(storage), " variant");
    // Subnormals kept at the widths the device can keep them (core/float_controls.hpp).
    const std::vector<uint32_t> words =
        with_denorm_preserve({bin->words, bin->bytes / 4}, denorm_preserve_widths(d_.caps.info));
    if (words.empty())
        return make_error(ErrorCode::vulkan_error, "internal: kernel ", name(kernel), " (", name(storage),
                          ") is not a well-formed SPIR-V module");
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = words.size() * 4;
    ci.pCode = words.data();
    VkShaderModule m = VK_NULL_HANDLE;
    VKDML_VK_TRY_ON(d_, create_shader_module, d_.vk.vkCreateShaderModule(d_.device, &ci, d_.allocator, &m));
    modules_.emplace(std::make_pair(kernel, storage), m);
    return m;
}

Result<std::vector<VkPipeline>> PipelineCache::materialize(const Plan& plan) {
    std::vector<VkPipeline> made;
    for (const Pass& pass : plan.passes) {
        auto pipeline = get(pass.key);
        if (!pipeline) return pipeline.error();
        made.push_back(*pipeline);
    }
    return made;
}

Result<VkPipeline> PipelineCache::get(const PipelineKey& key) {
    std::lock_guard lock(mutex_);
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
    auto module = module_for(key.kernel, key.storage);
    if (!module) return module.error();
    // Kernels built on subgroup operations run on full subgroups of the planned size where the device
    // allows it (a workgroup of whole subgroups, as every plan makes).
    const SubgroupRequest request = subgroup_request(*find_kernel(key.kernel, key.storage), d_.caps.info);
    const uint32_t workgroup = key.spec[ABI_SPEC_WORKGROUP];
    if (request.required_size != 0 && workgroup % request.required_size != 0)
        return make_error(ErrorCode::vulkan_error, "internal: ", name(key.kernel),
                          " planned with a workgroup of ", workgroup, " invocations, not whole subgroups of ",
                          request.required_size);
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT required{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT};
    required.requiredSubgroupSize = request.required_size;
    std::array<VkSpecializationMapEntry, kSpecConstantCount> entries{};
    for (uint32_t i = 0; i < kSpecConstantCount; ++i)
        entries[i] = {i, static_cast<uint32_t>(i * sizeof(uint32_t)), sizeof(uint32_t)};
    VkSpecializationInfo spec{kSpecConstantCount, entries.data(), sizeof(key.spec), key.spec.data()};
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.pNext = request.required_size != 0 ? &required : nullptr;
    ci.stage.flags = request.flags;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = *module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = &spec;
    ci.layout = layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VKDML_VK_TRY_ON(d_, create_compute_pipelines,
                    d_.vk.vkCreateComputePipelines(d_.device, vk_cache_, 1, &ci, d_.allocator, &pipeline));
    pipelines_.emplace(key, pipeline);
    return pipeline;
}

}  // namespace vkdml::detail
