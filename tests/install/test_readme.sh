#!/usr/bin/env bash
# test_readme.sh - every ```c block of README.md must compile without warnings
# against the public header, link with libtensormove and run successfully.
#
# usage: test_readme.sh README.md INCLUDE_DIR LIBTENSORMOVE_SO CC [EXTRA_FLAGS]
set -euo pipefail

if [ $# -lt 4 ]; then
    sed -n '5s/^# //p' "$0" >&2
    exit 2
fi
readme=$1 include=$2 lib=$3 cc=$4 extra_flags=${5:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/tmv-readme-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Block k goes to $work/example<k>.c.
awk -v dir="$work" '/^```c$/ { n++; out = dir "/example" n ".c"; next }
                    /^```/    { out = ""; next }
                    out != "" { print > out }' "$readme"
shopt -s nullglob
examples=("$work"/example*.c)
[ ${#examples[@]} -gt 0 ] || { echo "test_readme: no \`\`\`c block in $readme" >&2; exit 1; }
for src in "${examples[@]}"; do
    echo "== $(basename "$src")"
    # shellcheck disable=SC2086 # extra_flags is a word list
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $extra_flags -I"$include" -o "${src%.c}" "$src" \
        "$lib" -Wl,-rpath,"$(dirname "$lib")"
    "${src%.c}"
done
echo "test_readme: ${#examples[@]} example(s) compiled and ran"
