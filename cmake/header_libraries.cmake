# The header-only libraries of the tool and the tests, from Debian: CLI11 (libcli11-dev; the tool's command
# line) and nlohmann-json (nlohmann-json3-dev; the bench's JSON file and the tests that read it). Private to
# those targets: the library and its installed CMake package and pkg-config file depend on neither, and
# being header-only they add nothing at run time. Each comes from its CMake package, or (a cross build,
# whose find_package looks in the target's sysroot only; see cmake/toolchains/) from its headers as an
# IMPORTED INTERFACE target, as Catch2 is for the tests.
#
# vkdml_header_library(<target> <package> <version> <header> <include-dir variable> <Debian package> <needed by>)
function(vkdml_header_library target package version header dir_var debian needed_by)
  find_package(${package} ${version} CONFIG QUIET)
  if(TARGET ${target})
    return()
  endif()
  find_path(${dir_var} ${header} DOC "directory holding ${header} (${package} ${version})")
  if(NOT ${dir_var})
    message(FATAL_ERROR "vkdml: ${package} ${version} was not found (Debian: ${debian}): set ${dir_var} to the "
                        "directory holding ${header}, or turn ${needed_by} off")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${${dir_var}})
endfunction()

if(VKDML_BUILD_TOOLS)
  vkdml_header_library(CLI11::CLI11 CLI11 2 CLI/CLI.hpp CLI11_INCLUDE_DIR libcli11-dev VKDML_BUILD_TOOLS)
endif()
vkdml_header_library(nlohmann_json::nlohmann_json nlohmann_json 3 nlohmann/json.hpp NLOHMANN_JSON_INCLUDE_DIR
                     nlohmann-json3-dev "VKDML_BUILD_TOOLS and VKDML_BUILD_TESTS")
if(VKDML_BUILD_TESTS)
  vkdml_header_library(Catch2::Catch2 Catch2 2 catch2/catch.hpp CATCH2_INCLUDE_DIR catch2 VKDML_BUILD_TESTS)
endif()
