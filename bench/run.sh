#!/usr/bin/env bash
# run.sh - builds tmv-bench (Release, build/bench), runs the quick subset (or --full) and prints a one-screen summary.
#   usage: bash bench/run.sh [--full] [--threads=1,2 | --threads=all] [Google Benchmark flags, e.g. --benchmark_filter=join]
#          bash bench/run.sh --sweep[=full] | --zoo   the generated sweep (sampled, or whole) or the model zoo, one
#          thread, the default kernel set; prints each operator's worst cases against their bars (bench/worst.awk);
#          results: build/bench/sweep.{json,tsv} or zoo.{json,tsv}
#   (thread counts: by default 1 and the online CPUs; each count above 1 reruns the cases on the
#   default kernel set through a pool of that many threads, timed by the wall clock)
#   results: build/bench/table.txt (every case), build/bench/results.json (Google Benchmark JSON),
#            build/bench/console.log; pictures: bash bench/plot.sh (installs gnuplot then)
#   env: TMV_BENCH_BUILD (build dir), TMV_BENCH_JOBS (build jobs)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TMV_BENCH_BUILD:-$root/build/bench}
full=0
special=   # sweep or zoo
pass=()
for arg in "$@"; do
    case $arg in
        --full) full=1 ;;
        --sweep) special=sweep; pass+=(--tmv_sweep) ;;
        --sweep=full) special=sweep; pass+=(--tmv_sweep=full) ;;
        --zoo) special=zoo; pass+=(--tmv_zoo) ;;
        *) pass+=("$arg") ;;
    esac
done

# only what measuring needs: plot.sh installs gnuplot when it is asked for pictures
deps=(cmake g++ make pkg-config libcpu-features-dev libsimde-dev libbenchmark-dev libpthreadpool-dev)
bash "$root/tools/install-debian-deps.sh" "${deps[@]}"

mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DTENSORMOVE_BUILD_TESTS=OFF -DTENSORMOVE_BUILD_BENCHMARKS=ON >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${TMV_BENCH_JOBS:-$(nproc)}" --target tmv-bench >"$build/build.log" 2>&1 ||
    { cat "$build/build.log" >&2; exit 1; }

# Quick: L1 and L2 sizes, the per-call set, and the DRAM cases marked QUICK_DRAM,
# with a shorter minimum time per repetition. Medians of 3 repetitions either way.
mode=(--tmv_quick --benchmark_min_time=0.01)
[ "$full" = 1 ] && mode=()
[ -n "$special" ] && mode=(--benchmark_min_time=0.02)
results=$build/${special:-results}.json
total=$("$build/bench/tmv-bench" "${mode[@]}" --benchmark_list_tests=true "${pass[@]}" | wc -l)
echo "tmv-bench: running $total benchmarks x 3 repetitions (${special:-$([ "$full" = 1 ] && echo full || echo quick)}); log: $build/console.log" >&2
run=("$build/bench/tmv-bench" "${mode[@]}" --benchmark_out="$results" --benchmark_out_format=json
     --benchmark_color=false "${pass[@]}")
if [ -t 2 ]; then   # a progress counter on a terminal
    "${run[@]}" 2>&1 | tee "$build/console.log" |
        awk -v total="$total" '/_median|ERROR OCCURRED/ && !seen[$1]++ { printf "\r[%d/%d]", ++n, total > "/dev/stderr" }
                              END { printf "\n" > "/dev/stderr" }'
else
    "${run[@]}" >"$build/console.log" 2>&1 || { tail -20 "$build/console.log" >&2; exit 1; }
fi

[ -s "$results" ] || { echo "tmv-bench: no results (see $build/console.log)" >&2; exit 1; }
if [ -n "$special" ]; then
    awk -f "$root/bench/results.awk" "$results" >"$build/$special.tsv"
    awk -f "$root/bench/worst.awk" "$build/$special.tsv"
    echo
    echo "every case: $build/$special.tsv (awk -f bench/table.awk for a table); JSON: $results"
    exit 0
fi
awk -f "$root/bench/results.awk" "$results" >"$build/results.tsv"
{ awk -f "$root/bench/table.awk" "$build/results.tsv"; awk -f "$root/bench/scaling.awk" "$build/results.tsv"; } >"$build/table.txt"
awk -f "$root/bench/brief.awk" "$build/results.tsv"
awk -v brief=1 -f "$root/bench/scaling.awk" "$build/results.tsv"
echo
echo "every case (GB/s, x memcpy, CPU and wall time per call, speed-up, plan; scaling per case): $build/table.txt"
echo "JSON: $results   pictures: bash bench/plot.sh $results"
