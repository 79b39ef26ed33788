# The header-only libraries of the tool and the tests, from Debian: CLI11 (libcli11-dev; the tool's command
# line) and nlohmann-json (nlohmann-json3-dev; the bench's JSON file and the tests that read it). Private to
# those targets: the library and its installed CMake package and pkg-config file depend on neither, and
# being header-only they add nothing at run time. Each comes from its CMake package, or (a cross build,
# whose find_package looks in the target's sysroot only; see cmake/toolchains/) from its headers as an
# IMPORTED INTERFACE target, as tests/CMakeLists.txt does for Catch2.
find_package(CLI11 2 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp DOC "directory holding CLI/CLI.hpp (CLI11)")
  if(NOT CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "vkdml: CLI11 was not found (Debian: libcli11-dev): set CLI11_INCLUDE_DIR to the "
                        "directory holding CLI/CLI.hpp, or turn VKDML_BUILD_TOOLS off")
  endif()
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CLI11_INCLUDE_DIR})
endif()

find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp DOC "directory holding nlohmann/json.hpp (nlohmann-json 3)")
  if(NOT NLOHMANN_JSON_INCLUDE_DIR)
    message(FATAL_ERROR "vkdml: nlohmann-json 3 was not found (Debian: nlohmann-json3-dev): set "
                        "NLOHMANN_JSON_INCLUDE_DIR to the directory holding nlohmann/json.hpp, or turn "
                        "VKDML_BUILD_TOOLS and VKDML_BUILD_TESTS off")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                                                                ${NLOHMANN_JSON_INCLUDE_DIR})
endif()
