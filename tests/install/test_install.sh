#!/usr/bin/env bash
# test_install.sh - installs a tensormove build into a temporary prefix and
# builds and runs tests/install/consumer against it four ways: find_package
# with the shared and with the static target, pkg-config shared and --static.
#
# usage: test_install.sh BUILD_DIR CONFIG CMAKE GENERATOR CC VERSION [EXTRA_FLAGS]
#   BUILD_DIR    the configured and built tensormove tree
#   CONFIG       build configuration to install (Release, Debug, ...)
#   CMAKE        the cmake executable; GENERATOR, CC: the ones the build used
#   VERSION      the project version (the consumer asks find_package for it)
#   EXTRA_FLAGS  compile+link flags every consumer needs, e.g. -fsanitize=address
#                when the library itself was built with sanitizers
set -euo pipefail

if [ $# -lt 6 ]; then
    sed -n '6,12s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
build_dir=$1 config=$2 cmake=$3 generator=$4 cc=$5 version=$6 extra_flags=${7:-}
consumer_src=$(cd "$(dirname "$0")/consumer" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/tmv-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'test_install: FAILED: %s\n' "$*" >&2; exit 1; }

step "install $build_dir into $prefix"
unset DESTDIR
"$cmake" --install "$build_dir" ${config:+--config "$config"} --prefix "$prefix"
for f in include/tensormove.h bin/tmv-demo bin/tmv-verify bin/tmv-check-kernels; do
    [ -f "$prefix/$f" ] || fail "$f was not installed"
done
lib=$(find "$prefix" -name 'libtensormove.so.*.*.*' -type f | head -n1)
archive=$(find "$prefix" -name libtensormove.a | head -n1)
pc=$(find "$prefix" -name tensormove.pc | head -n1)
if [ -z "$lib" ] || [ -z "$archive" ] || [ -z "$pc" ]; then fail "a library or tensormove.pc is missing"; fi
libdir=$(dirname "$lib")
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ -z "$soname" ] || [ ! -e "$libdir/$soname" ]; then fail "$lib has no SONAME or no $soname link"; fi
echo "shared library $lib, SONAME $soname"

# True if the program needs libtensormove.so at run time.
needs_shared() { readelf -d "$1" | grep -q "NEEDED.*\[$soname\]"; }

# find_package: configure, build, run; $1 = shared or static.
cmake_consumer() {
    local link=$1 dir=$work/cmake-$1
    local components=""
    [ "$link" = static ] && components=" COMPONENTS static"
    step "find_package(tensormove $version CONFIG REQUIRED$components)"
    "$cmake" -S "$consumer_src" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE="$config" \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra_flags" -DCMAKE_EXE_LINKER_FLAGS="$extra_flags" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        -DTMV_LINK="$link" -DTMV_VERSION="$version"
    # It must have found the package just installed, not another one.
    local found
    found=$(sed -n 's/^tensormove_DIR:PATH=//p' "$dir/CMakeCache.txt")
    case $found in "$prefix"/*) ;; *) fail "find_package found tensormove in '$found'" ;; esac
    "$cmake" --build "$dir"
    if [ "$link" = shared ]; then needs_shared "$dir/consumer" || fail "consumer does not link $soname"
    else ! needs_shared "$dir/consumer" || fail "static consumer links $soname"; fi
    "$dir/consumer"
}

cmake_consumer shared
cmake_consumer static

step "find_package(tensormove $((${version%%.*} + 1)).0) must be refused (SameMajorVersion)"
if "$cmake" -S "$consumer_src" -B "$work/cmake-next-major" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
        -DCMAKE_PREFIX_PATH="$prefix" -DTMV_VERSION="$((${version%%.*} + 1)).0" >"$work/next-major.log" 2>&1; then
    fail "a request for the next major version was accepted"
fi
grep -q "not accepted" "$work/next-major.log" || { cat "$work/next-major.log"; fail "refused for another reason"; }
echo "refused, as it should be"

PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion tensormove)" = "$version" ] || fail "tensormove.pc has the wrong version"

# The README's commands: PKG_CONFIG_PATH as above, and the shared link's
# RPATH from the .pc file (the prefix is no system library directory).
step "pkg-config: $cc \$(pkg-config --cflags --libs tensormove) -Wl,-rpath,\"\$(pkg-config --variable=libdir tensormove)\""
# shellcheck disable=SC2046,SC2086 # pkg-config output and flags are word lists
"$cc" -std=c11 $extra_flags -o "$work/pc-shared" "$consumer_src/consumer.c" \
    $(pkg-config --cflags --libs tensormove) -Wl,-rpath,"$(pkg-config --variable=libdir tensormove)"
needs_shared "$work/pc-shared" || fail "pkg-config consumer does not link $soname"
"$work/pc-shared"

step "pkg-config: $cc \$(pkg-config --cflags tensormove) -Wl,-Bstatic \$(pkg-config --static --libs tensormove) -Wl,-Bdynamic"
# -Bstatic makes the linker take libtensormove.a (and libcpu_features.a) over
# the .so, so every symbol the archive needs must come from Libs.private.
# shellcheck disable=SC2046,SC2086
"$cc" -std=c11 $extra_flags -o "$work/pc-static" "$consumer_src/consumer.c" $(pkg-config --cflags tensormove) \
    -Wl,-Bstatic $(pkg-config --static --libs tensormove) -Wl,-Bdynamic
! needs_shared "$work/pc-static" || fail "static pkg-config consumer links $soname"
"$work/pc-static"

step "installed tmv-demo runs from the prefix"
"$prefix/bin/tmv-demo" >"$work/demo.log" || { cat "$work/demo.log"; fail "installed tmv-demo failed"; }
tail -n1 "$work/demo.log"

printf '\ntest_install: all consumers built and ran\n'
