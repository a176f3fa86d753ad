# toolchain-aarch64-linux-gnu.cmake - cross build for 64-bit Arm Linux with
# Debian's cross compiler, against arm64 libraries installed through
# multiarch (dpkg --add-architecture arm64):
#   apt-get install gcc-aarch64-linux-gnu libcpu-features-dev:arm64 qemu-user
#   cmake -S . -B build/arm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake \
#         -DTENSORMOVE_BUILD_TESTS=OFF -DTENSORMOVE_BUILD_BENCHMARKS=OFF
# Run the results with qemu-aarch64 -L /usr/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Target libraries come from the cross sysroot; programs (cmake's helpers)
# from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libcpu-features-dev:arm64 installs its package config in Debian's
# multiarch directory, outside the root path above: name it directly.
if(NOT DEFINED CpuFeatures_DIR AND EXISTS /usr/lib/aarch64-linux-gnu/cmake/CpuFeatures)
  set(CpuFeatures_DIR /usr/lib/aarch64-linux-gnu/cmake/CpuFeatures)
endif()

# Where cmake runs a target binary itself (try_run, add_test), through qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
