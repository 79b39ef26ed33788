# Cross-builds vkdml for 64-bit Windows from Debian with MinGW-w64 (g++-mingw-w64-x86-64-posix: the
# POSIX-threads flavour, whose libstdc++ has std::thread and std::mutex):
#   cmake -B build/windows -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64-x86_64.cmake
# Target headers and libraries come from the MinGW sysroot only. Debian's host /usr/include is never on the
# include path (its glibc headers would be taken for Windows ones); the architecture-independent headers the
# build needs from it (Vulkan, volk, Catch2 v2's single header, CLI11, nlohmann-json) are copied into the
# build tree instead.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(VKDML_MINGW_TRIPLE x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${VKDML_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${VKDML_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${VKDML_MINGW_TRIPLE}-windres)
set(CMAKE_DLLTOOL ${VKDML_MINGW_TRIPLE}-dlltool)

set(CMAKE_FIND_ROOT_PATH /usr/${VKDML_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # build tools (glslangValidator, dlltool) run on the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The host's architecture-independent headers, staged once per build tree (try_compile projects skip it).
if(NOT CMAKE_PROJECT_NAME STREQUAL "CMAKE_TRY_COMPILE")
  set(staged ${CMAKE_BINARY_DIR}/mingw-staged-headers)
  foreach(item vulkan vk_video volk.h volk.c catch2 CLI nlohmann)
    if(NOT EXISTS /usr/include/${item})
      message(FATAL_ERROR "mingw-w64 toolchain: /usr/include/${item} is missing (Debian packages libvulkan-dev, "
                          "libvulkan-volk-dev, catch2, libcli11-dev, nlohmann-json3-dev)")
    endif()
    file(COPY /usr/include/${item} DESTINATION ${staged})
  endforeach()
  set(Vulkan_INCLUDE_DIR ${staged} CACHE PATH "Vulkan headers (staged from Debian's /usr/include)")
  set(VOLK_SOURCE_DIR ${staged} CACHE PATH "volk.c and volk.h (staged from Debian's /usr/include)")
  set(CATCH2_INCLUDE_DIR ${staged} CACHE PATH "catch2/catch.hpp (staged from Debian's /usr/include)")
  set(CLI11_INCLUDE_DIR ${staged} CACHE PATH "CLI/CLI.hpp (staged from Debian's /usr/include)")
  set(NLOHMANN_JSON_INCLUDE_DIR ${staged} CACHE PATH "nlohmann/json.hpp (staged from Debian's /usr/include)")
endif()

# Run the built programs (ctest, tests that run the tool) under Wine.
find_program(VKDML_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(VKDML_WINE64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VKDML_WINE64})
endif()
