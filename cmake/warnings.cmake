# Compiler warnings for vkdml's own targets: vkdml_set_warnings(<target>).
function(vkdml_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                              -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
                              -Woverloaded-virtual>)
  if(VKDML_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
