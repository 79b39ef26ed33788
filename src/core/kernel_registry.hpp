// The SPIR-V of every kernel variant, embedded at build time (see cmake/kernels.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vkdml::detail {

struct KernelBinary {
    const char* kernel;   ///< file name without .comp, e.g. "scan_tile"
    const char* storage;  ///< storage variant, e.g. "f32", "u8"
    const uint32_t* words;
    size_t bytes;
};

extern const KernelBinary kKernelBinaries[];
extern const size_t kKernelBinaryCount;

/// The binary of a kernel variant, or nullptr when the build has no such variant.
inline const KernelBinary* find_kernel(std::string_view kernel, std::string_view storage) {
    for (size_t i = 0; i < kKernelBinaryCount; ++i)
        if (kernel == kKernelBinaries[i].kernel && storage == kKernelBinaries[i].storage)
            return &kKernelBinaries[i];
    return nullptr;
}

}  // namespace vkdml::detail
