# Compiler warnings for vkdml's own targets: vkdml_set_warnings(<target>).
function(vkdml_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                              -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                              -Woverloaded-virtual>)
  # GCC's flow analysis is confused by sanitizer instrumentation and reports uninitialised members
  # inside libstdc++ (std::regex, std::function) that are not: the warning stays on in normal builds.
  if(VKDML_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  endif()
  if(VKDML_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
