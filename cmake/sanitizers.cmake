# VKDML_SANITIZE: sanitizers for every target of the build, e.g. "address;undefined" or "thread".
# UndefinedBehaviorSanitizer is made fatal, so a report fails the test that triggered it.
set(VKDML_SANITIZE "" CACHE STRING "Sanitizers to build every target with (address;undefined, or thread)")
if(VKDML_SANITIZE)
  list(JOIN VKDML_SANITIZE "," vkdml_sanitizers)
  add_compile_options(-fsanitize=${vkdml_sanitizers} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${vkdml_sanitizers})
  if("undefined" IN_LIST VKDML_SANITIZE)
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()
