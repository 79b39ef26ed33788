// Building readable errors: message concatenation and VkResult translation.
#pragma once

#include "vkdml/vkdml.hpp"

#include <sstream>
#include <string>

namespace vkdml::detail {

/// Concatenates the arguments with operator<< into one string.
template <class... Args>
std::string cat(const Args&... args) {
    std::ostringstream s;
    (s << ... << args);
    return s.str();
}

template <class... Args>
Error make_error(ErrorCode code, const Args&... args) {
    return Error{code, cat(args...)};
}

/// Error for a failing Vulkan call: out_of_memory, device_lost or vulkan_error, naming the call.
Error vk_error(VkResult result, const char* call);

const char* vk_result_name(VkResult result) noexcept;

}  // namespace vkdml::detail

/// Evaluates a VkResult-returning call; on failure returns vk_error from the enclosing function.
#define VKDML_VK_TRY(call)                                                                       \
    do {                                                                                         \
        VkResult vkdml_result_ = (call);                                                         \
        if (vkdml_result_ != VK_SUCCESS) return ::vkdml::detail::vk_error(vkdml_result_, #call); \
    } while (0)
