# Windows: every program and DLL of the build goes to one folder, <build>/bin, so that the programs find
# vkdml.dll next to them. A MinGW build also copies its compiler's runtime DLLs there (libstdc++,
# libgcc_s, libwinpthread) and installs them next to the tool, so the folder runs on any Windows machine.
if(NOT WIN32)
  return()
endif()
if(PROJECT_IS_TOP_LEVEL)
  set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
endif()
if(MINGW)
  set(VKDML_MINGW_RUNTIME_DLLS "")
  foreach(dll libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${dll} OUTPUT_VARIABLE path
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${path}" OR NOT EXISTS "${path}")
      # libwinpthread lives in the sysroot, not with the compiler's own libraries.
      find_file(path_${dll} ${dll} PATHS ${CMAKE_FIND_ROOT_PATH} PATH_SUFFIXES lib bin NO_DEFAULT_PATH)
      set(path ${path_${dll}})
    endif()
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "vkdml: MinGW's runtime ${dll} was not found (asked ${CMAKE_CXX_COMPILER} and the sysroot)")
    endif()
    list(APPEND VKDML_MINGW_RUNTIME_DLLS ${path})
  endforeach()
  if(PROJECT_IS_TOP_LEVEL)
    file(COPY ${VKDML_MINGW_RUNTIME_DLLS} DESTINATION ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  endif()
endif()
