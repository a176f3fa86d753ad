# Dependencies.cmake - Debian 12 packages only; a missing one stops configuration naming its package.
find_package(CpuFeatures QUIET)
if(NOT CpuFeatures_FOUND)
  message(FATAL_ERROR "cpu_features not found: install the Debian package libcpu-features-dev "
                      "(apt-get install libcpu-features-dev)")
endif()

find_package(Threads REQUIRED)

# SIMDe (header-only) builds the NEON kernels for x86 as the "neon-simde" test
# set; without it the library builds as before, minus that set.
find_path(SIMDE_INCLUDE_DIR simde/arm/neon.h)
if(NOT SIMDE_INCLUDE_DIR)
  message(STATUS "SIMDe not found (Debian package libsimde-dev): the neon-simde kernel set is not built")
endif()

if(TENSORMOVE_BUILD_TESTS)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(CRITERION QUIET IMPORTED_TARGET criterion)
  endif()
  if(NOT CRITERION_FOUND)
    message(FATAL_ERROR "Criterion not found: install the Debian packages libcriterion-dev and "
                        "pkg-config, or configure with -DTENSORMOVE_BUILD_TESTS=OFF")
  endif()
endif()

if(TENSORMOVE_BUILD_BENCHMARKS)
  enable_language(CXX)
  find_package(benchmark QUIET)
  if(NOT benchmark_FOUND)
    message(FATAL_ERROR "Google Benchmark not found: install the Debian package libbenchmark-dev, "
                        "or configure with -DTENSORMOVE_BUILD_BENCHMARKS=OFF")
  endif()
endif()
