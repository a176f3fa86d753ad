#!/usr/bin/env bash
# expect_compile_failure.sh - SOURCE compiles cleanly as it is and fails to
# compile with -DTMV_TEST_MISMATCH, with a diagnostic matching PATTERN.
#
# usage: expect_compile_failure.sh CC INCLUDE_DIR SOURCE PATTERN
set -euo pipefail

if [ $# -ne 4 ]; then
    sed -n '6s/^# //p' "$0" >&2
    exit 2
fi
cc=$1 include=$2 src=$3 pattern=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/tmv-compile-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
flags=(-std=c11 -Wall -Wextra -pedantic-errors -Werror -I"$include" -fsyntax-only)

if ! "$cc" "${flags[@]}" "$src" 2>"$work/ok.log"; then
    echo "expect_compile_failure: FAILED: $(basename "$src") does not compile without the mismatch:" >&2
    cat "$work/ok.log" >&2
    exit 1
fi
if "$cc" "${flags[@]}" -DTMV_TEST_MISMATCH "$src" 2>"$work/bad.log"; then
    echo "expect_compile_failure: FAILED: $(basename "$src") compiles with -DTMV_TEST_MISMATCH" >&2
    exit 1
fi
if ! grep -Eq "$pattern" "$work/bad.log"; then
    echo "expect_compile_failure: FAILED: the diagnostic does not match /$pattern/:" >&2
    cat "$work/bad.log" >&2
    exit 1
fi
echo "expect_compile_failure: $(basename "$src") is rejected with TMV_TEST_MISMATCH:"
grep -E "$pattern" "$work/bad.log" | head -n 3
