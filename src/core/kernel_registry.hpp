// The SPIR-V of every kernel variant, embedded at build time (see cmake/kernels.cmake), and the generated
// Kernel and Storage enums that name them (kernel_ids.hpp).
#pragma once

#include "kernel_ids.hpp"

#include <cstddef>
#include <cstdint>

namespace vkdml::detail {

struct KernelBinary {
    Kernel kernel;
    Storage storage;
    const uint32_t* words;
    size_t bytes;
};

extern const KernelBinary kKernelBinaries[];
extern const size_t kKernelBinaryCount;

/// The binary of a kernel variant, or nullptr when the build has no such variant.
inline const KernelBinary* find_kernel(Kernel kernel, Storage storage) {
    for (size_t i = 0; i < kKernelBinaryCount; ++i)
        if (kernel == kKernelBinaries[i].kernel && storage == kKernelBinaries[i].storage)
            return &kKernelBinaries[i];
    return nullptr;
}

}  // namespace vkdml::detail
