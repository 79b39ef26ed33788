# volk's sources (volk.c and volk.h), compiled into vkdml. Searched in this order: volk's own CMake
# package (the Vulkan SDK ships one: volk::volk_headers, whose include directory holds volk.c too), then
# VOLK_SOURCE_DIR if set, then the usual include directories (Debian: libvulkan-volk-dev in /usr/include).
if(NOT VOLK_SOURCE_DIR)
  find_package(volk CONFIG QUIET)
  if(TARGET volk::volk_headers)
    get_target_property(volk_dirs volk::volk_headers INTERFACE_INCLUDE_DIRECTORIES)
    find_path(VOLK_SOURCE_DIR volk.c PATHS ${volk_dirs} NO_DEFAULT_PATH
              DOC "directory holding volk.c and volk.h")
  endif()
endif()
find_path(VOLK_SOURCE_DIR volk.c HINTS ENV VULKAN_SDK PATH_SUFFIXES include Include
          DOC "directory holding volk.c and volk.h (Debian: libvulkan-volk-dev; the Vulkan SDK's Include)")
if(NOT VOLK_SOURCE_DIR OR NOT EXISTS ${VOLK_SOURCE_DIR}/volk.h)
  message(FATAL_ERROR "vkdml: volk's sources (volk.c and volk.h) were not found: install libvulkan-volk-dev "
                      "or the Vulkan SDK, or set VOLK_SOURCE_DIR to the directory holding them")
endif()
