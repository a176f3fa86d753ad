# Dependencies.cmake - Debian 12 packages only; a missing one stops configuration naming its package.
find_package(CpuFeatures QUIET)
if(NOT CpuFeatures_FOUND)
  message(FATAL_ERROR "cpu_features not found: install the Debian package libcpu-features-dev "
                      "(apt-get install libcpu-features-dev)")
endif()

find_package(Threads REQUIRED)

# pthreadpool (the pool XNNPACK and PyTorch use) runs tmv_thread_pool_create's
# threads. Debian ships the shared library and header only (no CMake or
# pkg-config files): link it by name, so the static library's link interface
# and the .pc file carry a plain -lpthreadpool. With TENSORMOVE_THREAD_POOL
# OFF (the aarch64 cross build: Debian's libpthreadpool-dev:arm64 cannot be
# installed beside the amd64 one) tmv_thread_pool_create reports
# TMV_ERR_UNSUPPORTED; execution on the caller's pool is unchanged.
set(TENSORMOVE_PTHREADPOOL "")
set(TENSORMOVE_PC_PTHREADPOOL "")
if(TENSORMOVE_THREAD_POOL)
  find_path(PTHREADPOOL_INCLUDE_DIR pthreadpool.h)
  find_library(PTHREADPOOL_LIBRARY pthreadpool)
  if(NOT PTHREADPOOL_INCLUDE_DIR OR NOT PTHREADPOOL_LIBRARY)
    message(FATAL_ERROR "pthreadpool not found: install the Debian package libpthreadpool-dev "
                        "(apt-get install libpthreadpool-dev), or configure with -DTENSORMOVE_THREAD_POOL=OFF")
  endif()
  set(TENSORMOVE_PTHREADPOOL pthreadpool)
  set(TENSORMOVE_PC_PTHREADPOOL "-Wl,-Bdynamic -lpthreadpool")
endif()

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
