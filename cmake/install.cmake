# Install rules: the library, the public headers, the `vkdml` tool, a CMake package (find_package(vkdml)
# gives vkdml::vkdml) with its version file, a pkg-config file, and the license, notice and changelog
# (share/doc/vkdml). Components: vkdml_Runtime (the shared
# library and the tool) and vkdml_Development (headers, the static library or the .so link, package files).
include(CMakePackageConfigHelpers)

set(VKDML_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vkdml CACHE STRING "Where the CMake package files go (relative to the prefix)")
mark_as_advanced(VKDML_CMAKE_DIR)

install(TARGETS vkdml EXPORT vkdmlTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vkdml_Runtime NAMELINK_COMPONENT vkdml_Development
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vkdml_Development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vkdml_Runtime)
if(VKDML_TESTING_HOOKS)
  set(vkdml_testing_header include/vkdml/testing.hpp)
endif()
install(FILES include/vkdml/vkdml.hpp include/vkdml/directml.h include/vkdml/export.hpp include/vkdml/profiling.hpp
              include/vkdml/submission.hpp
              include/vkdml/checked_math.hpp include/vkdml/ops.hpp ${vkdml_testing_header}
              ${PROJECT_BINARY_DIR}/include/vkdml/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vkdml COMPONENT vkdml_Development)
install(FILES LICENSE NOTICE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT vkdml_Runtime)
# The operator contract the public headers cite as "SPEC §N".
install(FILES docs/SPEC.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT vkdml_Development)
if(TARGET vkdml_cli)
  install(TARGETS vkdml_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vkdml_Runtime)
endif()

# CMake package: relocatable (paths relative to the file), SameMinorVersion while the major version is 0.
install(EXPORT vkdmlTargets NAMESPACE vkdml:: DESTINATION ${VKDML_CMAKE_DIR} COMPONENT vkdml_Development)
configure_package_config_file(cmake/vkdmlConfig.cmake.in ${PROJECT_BINARY_DIR}/package/vkdmlConfig.cmake
                              INSTALL_DESTINATION ${VKDML_CMAKE_DIR})
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(vkdml_compatibility SameMinorVersion)
else()
  set(vkdml_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vkdmlConfigVersion.cmake
                                 COMPATIBILITY ${vkdml_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/package/vkdmlConfig.cmake ${PROJECT_BINARY_DIR}/package/vkdmlConfigVersion.cmake
        DESTINATION ${VKDML_CMAKE_DIR} COMPONENT vkdml_Development)
install(FILES cmake/vulkan_headers.cmake RENAME vkdmlVulkanHeaders.cmake DESTINATION ${VKDML_CMAKE_DIR}
        COMPONENT vkdml_Development)
if(VKDML_MINGW_RUNTIME_DLLS AND TARGET vkdml_cli)
  install(FILES ${VKDML_MINGW_RUNTIME_DLLS} DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vkdml_Runtime)
endif()

# pkg-config: relocatable too (${pcfiledir}), whatever prefix `cmake --install --prefix` is given.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(VKDML_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH up "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
  string(REGEX REPLACE "/$" "" up "${up}")
  set(VKDML_PC_PREFIX "\${pcfiledir}/${up}")
endif()
if(VKDML_BUILD_SHARED)
  set(VKDML_PC_CFLAGS "")
else()
  set(VKDML_PC_CFLAGS " -DVKDML_STATIC")
endif()
if(VKDML_TESTING_HOOKS)
  string(APPEND VKDML_PC_CFLAGS " -DVKDML_TESTING_HOOKS")  # as the CMake target exports it: testing.hpp's functions
endif()
if(CMAKE_DL_LIBS)
  set(VKDML_PC_LIBS_PRIVATE "-l${CMAKE_DL_LIBS} ${CMAKE_THREAD_LIBS_INIT}")
else()
  set(VKDML_PC_LIBS_PRIVATE "${CMAKE_THREAD_LIBS_INIT}")
endif()
if(VKDML_BUILD_SHARED)
  # No static library is installed beside the shared one: `pkg-config --static` asks the linker for
  # libvkdml.a by name, so that a static link fails saying what is missing instead of linking the shared
  # library into a program that then cannot find it.
  string(PREPEND VKDML_PC_LIBS_PRIVATE "-l:libvkdml.a ")
endif()
configure_file(cmake/vkdml.pc.in ${PROJECT_BINARY_DIR}/package/vkdml.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/vkdml.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT vkdml_Development)
