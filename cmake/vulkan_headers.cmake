# Vulkan::Headers for vkdml and its users: the library needs Vulkan's headers only (it opens the loader
# at run time). FindVulkan (CMake 3.25) defines Vulkan::Headers only when it also finds the loader
# library, so a build without one (a cross build for Windows, say) gets the target from the headers alone.
# Installed with the CMake package, which includes it too.
if(NOT TARGET Vulkan::Headers)
  find_package(Vulkan QUIET)
endif()
if(NOT TARGET Vulkan::Headers)
  find_path(Vulkan_INCLUDE_DIR vulkan/vulkan_core.h HINTS ENV VULKAN_SDK PATH_SUFFIXES include Include
            DOC "directory holding vulkan/vulkan_core.h (Debian: libvulkan-dev; Windows: the Vulkan SDK's Include)")
  if(NOT Vulkan_INCLUDE_DIR)
    message(FATAL_ERROR "vkdml: Vulkan's headers (vulkan/vulkan_core.h) were not found: install libvulkan-dev "
                        "or the Vulkan SDK, or set Vulkan_INCLUDE_DIR to the directory holding vulkan/")
  endif()
  add_library(Vulkan::Headers INTERFACE IMPORTED GLOBAL)
  set_target_properties(Vulkan::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Vulkan_INCLUDE_DIR}")
endif()
