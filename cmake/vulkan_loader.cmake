# Vulkan::Vulkan, the loader library, for the targets that call Vulkan themselves (the tests and the
# app-owned-device example; the library itself only needs Vulkan::Headers). FindVulkan finds it on Linux
# and in the Vulkan SDK. A MinGW build without one gets an import library for vulkan-1.dll made here
# by dlltool, listing the core commands (Vulkan 1.0-1.3) that the loader exports, read from the headers.
if(NOT TARGET Vulkan::Vulkan)
  find_package(Vulkan QUIET)
endif()
if(NOT TARGET Vulkan::Vulkan AND MINGW)
  find_program(VKDML_DLLTOOL NAMES ${CMAKE_DLLTOOL} x86_64-w64-mingw32-dlltool dlltool REQUIRED
               DOC "MinGW's dlltool, to make the vulkan-1.dll import library")
  get_target_property(headers Vulkan::Headers INTERFACE_INCLUDE_DIRECTORIES)
  file(STRINGS ${headers}/vulkan/vulkan_core.h lines
       REGEX "^#define VK_[A-Za-z0-9_]+ 1$|VKAPI_CALL vk[A-Za-z0-9]+\\(")
  set(def "LIBRARY vulkan-1.dll\nEXPORTS\n")
  set(core FALSE)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#define (VK_[A-Za-z0-9_]+) 1$")
      string(REGEX MATCH "^VK_VERSION_1_[0-3]$" core "${CMAKE_MATCH_1}")
    elseif(core AND line MATCHES "VKAPI_CALL (vk[A-Za-z0-9]+)\\(")
      string(APPEND def "${CMAKE_MATCH_1}\n")
    endif()
  endforeach()
  set(dir ${PROJECT_BINARY_DIR}/generated/vulkan-1)
  file(CONFIGURE OUTPUT ${dir}/vulkan-1.def CONTENT "${def}" @ONLY)
  execute_process(COMMAND ${VKDML_DLLTOOL} -d ${dir}/vulkan-1.def -l ${dir}/libvulkan-1.a -D vulkan-1.dll
                  RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "vkdml: ${VKDML_DLLTOOL} could not make the vulkan-1.dll import library")
  endif()
  add_library(Vulkan::Vulkan UNKNOWN IMPORTED GLOBAL)
  set_target_properties(Vulkan::Vulkan PROPERTIES IMPORTED_LOCATION ${dir}/libvulkan-1.a)
  target_link_libraries(Vulkan::Vulkan INTERFACE Vulkan::Headers)
endif()
if(NOT TARGET Vulkan::Vulkan)
  message(FATAL_ERROR "vkdml: the Vulkan loader library (libvulkan.so / vulkan-1.lib) was not found: the tests "
                      "and examples call Vulkan themselves. Install libvulkan-dev or the Vulkan SDK, or set "
                      "Vulkan_LIBRARY (or turn VKDML_BUILD_TESTS and VKDML_BUILD_EXAMPLES off)")
endif()
