# A C++17 program that includes vkdml.hpp fails with exactly one error, the header's own "vkdml needs
# C++20" (not dozens about std::span). Arguments: -DCXX=<compiler> -DSOURCE_DIR=<repository root>.
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -I${SOURCE_DIR}/include
                        ${SOURCE_DIR}/tests/cxx17/include_vkdml.cpp
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "a C++17 compile of vkdml.hpp succeeded; it must stop at the header's #error")
endif()
string(REGEX MATCHALL "error:" errors "${out}${err}")  # one per diagnostic (GCC and clang)
list(LENGTH errors count)
if(NOT count EQUAL 1 OR NOT "${err}" MATCHES "vkdml needs C\\+\\+20: compile with -std=c\\+\\+20")
  message(FATAL_ERROR "expected one error naming C++20, got:\n${out}${err}")
endif()
message(STATUS "C++17: one error, naming C++20")
