#!/usr/bin/env bash
# test_exports.sh - the shared library must export exactly the functions that
# include/tensormove.h declares with TMV_API, and no other symbol.
#
# usage: test_exports.sh LIBTENSORMOVE_SO TENSORMOVE_H [NM]
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '5s/^# //p' "$0" >&2
    exit 2
fi
lib=$1 header=$2 nm=${3:-nm}
work=$(mktemp -d "${TMPDIR:-/tmp}/tmv-exports-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Every `TMV_API <return type> tmv_name(` in the header, comments removed
# first; a declaration may span lines.
perl -0777 -ne 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g;
                while (/\bTMV_API\b[^;{}()#]*?\b(tmv_\w+)\s*\(/g) { print "$1\n" }' "$header" |
    sort -u >"$work/declared"
# Every defined dynamic symbol, without its version suffix (name@@VERSION).
"$nm" -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$work/exported"

if [ ! -s "$work/declared" ]; then
    echo "test_exports: found no TMV_API declarations in $header" >&2
    exit 1
fi
if ! cmp -s "$work/declared" "$work/exported"; then
    echo "test_exports: FAILED: $lib does not export exactly the TMV_API functions of $header" >&2
    comm -23 "$work/declared" "$work/exported" | sed 's/^/  declared but not exported: /' >&2
    comm -13 "$work/declared" "$work/exported" | sed 's/^/  exported but not declared: /' >&2
    exit 1
fi
echo "test_exports: $lib exports exactly the $(wc -l <"$work/declared") tmv_* functions of $(basename "$header"):"
sed 's/^/  /' "$work/declared"
