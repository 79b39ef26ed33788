# Compiler warnings for vkdml's own targets: vkdml_set_warnings(<target>). Per compiler: MSVC's /W4, and
# GCC's and Clang's -W set. VKDML_WERROR (the dev and CI presets) makes them errors.
function(vkdml_set_warnings target)
  if(MSVC)
    # _CRT_SECURE_NO_WARNINGS: the C library's getenv/strerror/fopen are used as the standard defines them.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:/W4 /permissive- /utf-8>)
    target_compile_definitions(${target} PRIVATE _CRT_SECURE_NO_WARNINGS)
    if(VKDML_WERROR)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:/WX>)
    endif()
    return()
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                              -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                              -Woverloaded-virtual>)
  # GCC 12 at -O2/-O3 reports `"text" + std::string` inside libstdc++ as an overlapping memcpy (GCC bug
  # 105651, fixed in GCC 13): a false positive in every file that builds strings that way.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
  # GCC's flow analysis is confused by sanitizer instrumentation and reports uninitialised members
  # inside libstdc++ (std::regex, std::function) that are not: the warning stays on in normal builds.
  if(VKDML_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  endif()
  if(VKDML_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()

# Compiles third-party C source (volk) without warnings: it is not ours to fix.
function(vkdml_silence_warnings source)
  if(MSVC)
    set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "/w")
  else()
    set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-w")
  endif()
endfunction()
