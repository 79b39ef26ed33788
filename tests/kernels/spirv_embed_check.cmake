# cmake -DSPIRV_OPT=<spirv-opt> -DSOURCE_DIR=<repo> -DMODULE=<a kernel's .spv> -DWORK_DIR=<dir>
#       -P spirv_embed_check.cmake
# cmake/spirv_embed.cmake on a kernel of this build (a header of its rewritten words, magic number first)
# and on bytes that are not SPIR-V (the build stops, naming the file and spirv-opt's complaint).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
configure_file(${MODULE} ${WORK_DIR}/kernel.spv COPYONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -DSPIRV_OPT=${SPIRV_OPT} -DIN=${WORK_DIR}/kernel.spv
                        -DOUT=${WORK_DIR}/kernel.h -DVAR=spv_check -P ${SOURCE_DIR}/cmake/spirv_embed.cmake
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "spirv_embed.cmake failed on a kernel of this build:\n${out}")
endif()
if(out MATCHES "could not be inlined")
  message(FATAL_ERROR "spirv_embed.cmake let spirv-opt's uninlined-function warnings through:\n${out}")
endif()
file(READ ${WORK_DIR}/kernel.h header)
if(NOT header MATCHES "\nconst uint32_t spv_check\\[\\] = {\n    0x07230203,0x000105")
  message(FATAL_ERROR "the header does not start with the SPIR-V 1.5 magic words:\n${header}")
endif()
file(SIZE ${WORK_DIR}/kernel.spv.opt bytes)
string(REGEX MATCHALL "0x[0-9a-f]+," words "${header}")
list(LENGTH words count)
math(EXPR expected "${bytes} / 4")
if(NOT count EQUAL expected)
  message(FATAL_ERROR "the header has ${count} words; the rewritten module ${bytes} bytes")
endif()

file(WRITE ${WORK_DIR}/junk.spv "not a SPIR-V module")
execute_process(COMMAND ${CMAKE_COMMAND} -DSPIRV_OPT=${SPIRV_OPT} -DIN=${WORK_DIR}/junk.spv
                        -DOUT=${WORK_DIR}/junk.h -DVAR=spv_junk -P ${SOURCE_DIR}/cmake/spirv_embed.cmake
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
# (CMake wraps a long message at its spaces: the path may start on a line of its own.)
string(REGEX REPLACE "[ \t\r\n]+" " " flat "${out}")
if(status EQUAL 0 OR NOT flat MATCHES "spirv-opt failed on [^ ]*junk.spv" OR EXISTS ${WORK_DIR}/junk.h)
  message(FATAL_ERROR "spirv_embed.cmake on bytes that are not SPIR-V: status ${status}, output:\n${out}")
endif()
message(STATUS "spirv_embed.cmake: ${count} words embedded; bytes that are not SPIR-V refused by name")
