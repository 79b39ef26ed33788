// Reading a kernel's capabilities from its SPIR-V, and the subgroup request that follows (see
// subgroup_request.hpp).
#include "core/subgroup_request.hpp"

namespace vkdml::detail {

namespace {
constexpr uint32_t kSpirvHeaderWords = 5;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpFunction = 54;  // capabilities come first: the scan stops at the first function
constexpr uint32_t kCapabilityGroupNonUniform = 61;
}  // namespace

bool uses_subgroups(const KernelBinary& kernel) {
    const size_t words = kernel.bytes / 4;
    for (size_t i = kSpirvHeaderWords; i < words;) {
        const uint32_t opcode = kernel.words[i] & 0xFFFFu, count = kernel.words[i] >> 16;
        if (count == 0 || opcode == kOpFunction) break;
        if (opcode == kOpCapability && i + 1 < words && kernel.words[i + 1] == kCapabilityGroupNonUniform)
            return true;
        i += count;
    }
    return false;
}

SubgroupRequest subgroup_request(const KernelBinary& kernel, const DeviceInfo& info) {
    if (!info.full_subgroups || !uses_subgroups(kernel)) return {};
    return {VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT, info.subgroup_size};
}

}  // namespace vkdml::detail
