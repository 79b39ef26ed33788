# CTest driver of the packaging tests: cmake -DMODE=<installed|subdirectory> -DSOURCE_DIR=<tree>
#   -DBUILD_DIR=<vkdml build to install (installed)> -DWORK_DIR=<scratch> -DNM=<nm> -DPKG_CONFIG=<pkg-config>
#   -DCXX=<compiler> -DVERSION=<x.y.z> -P run.cmake
#
# installed:    cmake --install BUILD_DIR into a prefix; check its files, that no volk name or header
#               leaks, the installed tool; then a consumer through find_package and one through pkg-config.
# subdirectory: a consumer adding the source tree with add_subdirectory, vkdml built static; the static
#               archive's symbols; then its install, used through find_package and pkg-config --static.
# Each consumer builds both examples with -Werror and runs them with the validation layer (synchronization
# validation on): a validation message fails the test like a wrong result.
cmake_minimum_required(VERSION 3.25)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(JOIN " " line ${ARGN})
    message(FATAL_ERROR "FAILED (${rc}): ${line}\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Runs an example with the validation layer; fails on a non-zero exit or any validation message.
function(run_example program)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
                          VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT ${program}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message(STATUS "${program}:\n${out}")
  if(NOT rc EQUAL 0 OR out MATCHES "Validation (Error|Warning)")
    message(FATAL_ERROR "FAILED (${rc}): ${program}")
  endif()
endfunction()

# Configures tests/consumer with the given arguments, builds it, runs the examples.
function(consume dir)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${dir} -DCMAKE_BUILD_TYPE=Release
      "-DCMAKE_CXX_FLAGS=-Werror" ${ARGN})
  run(${CMAKE_COMMAND} --build ${dir} -j 2)
  run_example(${dir}/examples/host_cumsum)
  run_example(${dir}/examples/quick_start)
  run_example(${dir}/examples/device_chain)
  run_example(${dir}/examples/app_owned_device)
endfunction()

# Compiles examples/quick_start.cpp (the README's C++ quick start, with the README's command) and
# examples/host_cumsum.cpp with nothing but the flags pkg-config gives, and runs them.
function(consume_pkg_config prefix libdir)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${libdir}/pkgconfig)
  run(${PKG_CONFIG} --modversion vkdml)
  string(STRIP "${run_output}" version)
  if(NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion vkdml gives '${version}', not ${VERSION}")
  endif()
  run(${PKG_CONFIG} --cflags --libs ${ARGN} vkdml)
  string(STRIP "${run_output}" flags)
  message(STATUS "pkg-config --cflags --libs ${ARGN} vkdml: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  foreach(example quick_start host_cumsum)
    run(${CXX} -std=c++20 -Wall -Wextra -Werror ${SOURCE_DIR}/examples/${example}.cpp ${flags}
        -Wl,-rpath,${prefix}/${libdir} -o ${WORK_DIR}/pkg_config_${example})
    run_example(${WORK_DIR}/pkg_config_${example})
  endforeach()
endfunction()

# The installed files; no installed text file names volk (headers, CMake package, pkg-config file).
# A build with the test bench (VKDML_TESTING_HOOKS, as this suite's own) installs vkdml/testing.hpp; one
# without it (an add_subdirectory consumer's, a release build) must not.
function(check_install prefix shared testing)
  file(GLOB config RELATIVE ${prefix} ${prefix}/lib*/cmake/vkdml/vkdmlConfig.cmake
       ${prefix}/lib/*/cmake/vkdml/vkdmlConfig.cmake)
  if(NOT config)
    message(FATAL_ERROR "no vkdmlConfig.cmake under ${prefix}")
  endif()
  string(REGEX REPLACE "/cmake/vkdml/vkdmlConfig.cmake$" "" libdir "${config}")
  set(expected include/vkdml/vkdml.hpp include/vkdml/directml.h include/vkdml/export.hpp
      include/vkdml/checked_math.hpp include/vkdml/profiling.hpp include/vkdml/ops.hpp share/doc/vkdml/SPEC.md
      include/vkdml/version.hpp include/vkdml/submission.hpp ${libdir}/cmake/vkdml/vkdmlConfigVersion.cmake ${libdir}/cmake/vkdml/vkdmlTargets.cmake
      ${libdir}/cmake/vkdml/vkdmlVulkanHeaders.cmake ${libdir}/pkgconfig/vkdml.pc
      share/doc/vkdml/LICENSE share/doc/vkdml/NOTICE share/doc/vkdml/CHANGELOG.md)
  if(testing)
    list(APPEND expected include/vkdml/testing.hpp)
  elseif(EXISTS ${prefix}/include/vkdml/testing.hpp)
    message(FATAL_ERROR "a build without VKDML_TESTING_HOOKS installed include/vkdml/testing.hpp")
  endif()
  if(shared)
    list(APPEND expected ${libdir}/libvkdml.so bin/vkdml)
  else()
    list(APPEND expected ${libdir}/libvkdml.a)
  endif()
  foreach(f IN LISTS expected)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  file(GLOB_RECURSE texts ${prefix}/include/* ${prefix}/${libdir}/cmake/* ${prefix}/${libdir}/pkgconfig/*)
  foreach(f IN LISTS texts)
    file(READ ${f} text)
    string(TOLOWER "${text}" text)
    if(text MATCHES "volk")
      message(FATAL_ERROR "installed ${f} mentions volk")
    endif()
  endforeach()
  set(libdir ${libdir} PARENT_SCOPE)
endfunction()

# Defined, exported symbols of a library may only be vkdml's own (C++ namespace vkdml) or the vague-
# linkage C++ runtime and standard-library ones every C++ library carries; never a Vulkan or volk name.
# A static archive also holds volk's globals, under the names vkdml_volk_* that cannot clash with the
# application's (a shared library hides them as well): allowed when the first argument is STATIC.
function(check_symbols kind library)
  if(kind STREQUAL "STATIC")
    set(allowed "^vkdml_volk_(vk|volk)")
    set(nm_args "")
  else()
    set(allowed "^$")
    set(nm_args -D)
  endif()
  run(${NM} ${nm_args} --defined-only --extern-only --format=posix ${library})
  string(REPLACE "\n" ";" lines "${run_output}")
  set(count 0)
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^[^ :]+ [A-Za-z] " entry "${line}")
    if(NOT entry)
      continue()
    endif()
    string(REGEX REPLACE " [A-Za-z] $" "" name "${entry}")
    string(TOLOWER "${name}" lower)
    if(name MATCHES "${allowed}")
    elseif(lower MATCHES "volk" OR name MATCHES "^_?vk")
      message(FATAL_ERROR "${library} exports ${name}")
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
  if(count LESS 20)
    message(FATAL_ERROR "${library}: only ${count} exported symbols read: ${run_output}")
  endif()
  message(STATUS "${library}: ${count} exported symbols, none named like volk's or Vulkan's")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

if(MODE STREQUAL "installed")
  set(prefix ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
  check_install(${prefix} ON ON)
  check_symbols(SHARED ${prefix}/${libdir}/libvkdml.so)

  # The installed tool finds the installed library (RPATH $ORIGIN/../lib) and runs the README's example.
  run(${prefix}/bin/vkdml cumsum --axis 3 ${SOURCE_DIR}/examples/spec_input.npy ${WORK_DIR}/cumsum.npy)
  run(${prefix}/bin/vkdml show ${WORK_DIR}/cumsum.npy)
  if(NOT run_output MATCHES "\\[\\[\\[\\[2, 3, 6, 11\\],")
    message(FATAL_ERROR "installed vkdml tool printed:\n${run_output}")
  endif()

  consume(${WORK_DIR}/find_package -DVKDML_CONSUMER=find_package -DCMAKE_PREFIX_PATH=${prefix})
  consume_pkg_config(${prefix} ${libdir})
  # A shared install has no libvkdml.a: a static link through pkg-config fails naming it.
  run(${PKG_CONFIG} --cflags --libs --static vkdml)
  separate_arguments(flags UNIX_COMMAND "${run_output}")
  execute_process(COMMAND ${CXX} -std=c++20 ${SOURCE_DIR}/examples/host_cumsum.cpp ${flags}
                          -o ${WORK_DIR}/pkg_config_static
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0 OR NOT out MATCHES "(cannot find|unable to find library) -l:libvkdml.a")
    message(FATAL_ERROR "pkg-config --static against a shared install: rc ${rc}\n${out}")
  endif()
  # Before 1.0 a different minor version is a different API: find_package(vkdml 0.<other>) must fail.
  if(NOT VERSION MATCHES "^([0-9]+)\\.([0-9]+)")
    message(FATAL_ERROR "VERSION '${VERSION}' is not major.minor.patch")
  endif()
  set(major ${CMAKE_MATCH_1})
  math(EXPR next_minor "${CMAKE_MATCH_2} + 1")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/wrong_version
                          -DCMAKE_PREFIX_PATH=${prefix} -DVKDML_REQUIRE_VERSION=${major}.${next_minor}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0 OR NOT out MATCHES "version: ${VERSION}")
    message(FATAL_ERROR "find_package(vkdml ${major}.${next_minor}) against ${VERSION}: rc ${rc}\n${out}")
  endif()
elseif(MODE STREQUAL "subdirectory")
  set(build ${WORK_DIR}/subdirectory)
  consume(${build} -DVKDML_CONSUMER=add_subdirectory -DVKDML_SOURCE_DIR=${SOURCE_DIR} -DBUILD_SHARED_LIBS=OFF
          -DVKDML_INSTALL=ON)
  file(GLOB_RECURSE archive ${build}/vkdml/libvkdml.a)
  if(NOT archive)
    message(FATAL_ERROR "BUILD_SHARED_LIBS=OFF built no libvkdml.a")
  endif()
  check_symbols(STATIC ${archive})

  set(prefix ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --install ${build} --prefix ${prefix})
  check_install(${prefix} OFF OFF)
  consume(${WORK_DIR}/find_package -DVKDML_CONSUMER=find_package -DCMAKE_PREFIX_PATH=${prefix})
  consume_pkg_config(${prefix} ${libdir} --static)
else()
  message(FATAL_ERROR "MODE must be installed or subdirectory, not '${MODE}'")
endif()
