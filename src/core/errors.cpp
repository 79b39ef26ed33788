// Error codes and Vulkan result names.
#include "core/errors.hpp"

#include <string_view>

namespace vkdml {

const char* to_string(ErrorCode code) noexcept {
    switch (code) {
    case ErrorCode::invalid_descriptor: return "invalid_descriptor";
    case ErrorCode::unsupported_type: return "unsupported_type";
    case ErrorCode::unsupported_device: return "unsupported_device";
    case ErrorCode::invalid_binding: return "invalid_binding";
    case ErrorCode::no_device: return "no_device";
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::device_lost: return "device_lost";
    case ErrorCode::vulkan_error: return "vulkan_error";
    case ErrorCode::invalid_argument: return "invalid_argument";
    }
    return "unknown";
}

namespace detail {

const char* vk_result_name(VkResult result) noexcept {
    switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
    default: return "VkResult";
    }
}

Error vk_error(VkResult result, const char* call) {
    // "d.vk.vkAllocateMemory(device, ...)" names vkAllocateMemory.
    std::string_view text(call);
    text = text.substr(0, text.find('('));
    if (size_t dot = text.find_last_of(".>"); dot != std::string_view::npos) text.remove_prefix(dot + 1);
    ErrorCode code = ErrorCode::vulkan_error;
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        code = ErrorCode::out_of_memory;
    if (result == VK_ERROR_DEVICE_LOST) code = ErrorCode::device_lost;
    return make_error(code, text, " failed with ", vk_result_name(result), " (", static_cast<int>(result),
                      ")");
}

}  // namespace detail
}  // namespace vkdml
