#!/usr/bin/env bash
# plot.sh - renders tmv-bench's JSON results as PNG pictures with gnuplot (one per operator, a panel per size class; one for per-call overhead).
#   usage: bash bench/plot.sh [results.json (default build/bench/results.json)] [output dir (default docs/perf)]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
json=${1:-$root/build/bench/results.json}
out=${2:-$root/docs/perf}
[ -f "$json" ] || { echo "plot.sh: no results at $json; run: bash bench/run.sh" >&2; exit 1; }
command -v gnuplot >/dev/null || bash "$root/tools/install-debian-deps.sh" gnuplot-nox

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
awk -f "$root/bench/results.awk" "$json" >"$tmp/results.tsv"
awk -v dir="$tmp" -v out="$out" -f "$root/bench/plot.awk" "$tmp/results.tsv" >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
ls "$out"/*.png
