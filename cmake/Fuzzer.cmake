# Fuzzer.cmake - TENSORMOVE_BUILD_FUZZER: every target gets libFuzzer's
# coverage instrumentation (-fsanitize=fuzzer-no-link), so the fuzzer in
# tests/fuzz/ is guided by the library's branches, not only its own.
option(TENSORMOVE_BUILD_FUZZER "Build the libFuzzer target tmv-fuzz (tests/fuzz; needs clang)" OFF)
if(NOT TENSORMOVE_BUILD_FUZZER)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TENSORMOVE_BUILD_FUZZER needs clang (libFuzzer), but the C compiler is "
                      "${CMAKE_C_COMPILER_ID}: configure with CC=clang (Debian package clang)")
endif()
if(NOT TENSORMOVE_SANITIZE MATCHES "address")
  message(WARNING "TENSORMOVE_BUILD_FUZZER without -DTENSORMOVE_SANITIZE=address,undefined: the "
                  "fuzzer's exact-size buffers catch kernel over-reads and over-writes only under ASan")
endif()
add_compile_options(-fsanitize=fuzzer-no-link)
