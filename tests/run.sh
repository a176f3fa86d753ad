#!/usr/bin/env bash
# tests/run.sh - THE test command: installs the missing Debian packages, then
# builds and tests tensormove in stages, each in its own build/<stage> tree:
#   test  Release, -Werror, benchmarks compiled too (not run: bench/run.sh does that)
#   verify  the verifier (tmv-verify, from the test build) on every kernel set this CPU has
#   asan  Debug with AddressSanitizer + UndefinedBehaviorSanitizer
#   clang  clang at -O1 with ASan + UBSan (the build fuzzers and engines' sanitizer CI use), the whole suite
#   tsan  the concurrency tests under ThreadSanitizer, threads held inside the one-time init included
#   arm  aarch64 cross build (library, demo, verifier) run under qemu-aarch64
#   fuzz  clang + libFuzzer: tmv-fuzz (tests/fuzz) for TENSORMOVE_FUZZ_SECONDS (120) on the seed corpus
# Ends with "N passed, M failed" on a line of its own; exits non-zero on any failure.
#
# To add a stage (tsan, the verifier, an aarch64 cross build under qemu), write
# a stage_<name> function that returns non-zero on failure and calls
# record_ctest (or record) to count its tests, and list it in STAGES.
# TENSORMOVE_TEST_CMAKE_ARGS is appended to every configure (e.g. "-G Ninja").
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)
STAGES=(test verify asan clang tsan arm fuzz)
DEPS=(cmake gcc g++ clang make pkg-config libcpu-features-dev libsimde-dev libcriterion-dev libbenchmark-dev
      libpthreadpool-dev)
# shellcheck disable=SC2206 # deliberately split into words
extra_cmake_args=(${TENSORMOVE_TEST_CMAKE_ARGS:-})

passed=0 failed=0 summary=()

banner() { printf '\n==== %s\n' "$*"; }

# record STAGE PASSED FAILED: adds a stage's counts to the totals.
record() {
    passed=$((passed + $2)) failed=$((failed + $3))
    summary+=("$1: $2 passed, $3 failed")
}

# record_ctest STAGE LOG STATUS: counts from ctest's "N tests failed out of M"
# line; a stage that failed without one (configure or build broke) counts 1 failure.
record_ctest() {
    local line total fails
    line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$2" | tail -n1)
    if [ -n "$line" ]; then
        fails=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")
        total=$(sed -E 's/.*failed out of ([0-9]+).*/\1/' <<<"$line")
        record "$1" $((total - fails)) "$fails"
    elif [ "$3" -ne 0 ]; then
        record "$1" 0 1
    else
        record "$1" 0 0
    fi
}

# cmake_stage NAME BUILD_TYPE CMAKE_ARGS...: configure build/NAME, build it
# with all cores, run the ctest suite (only tests matching $ctest_regex if set).
cmake_stage() {
    local name=$1 type=$2 dir=$root/build/$1 log status
    shift 2
    log=$(mktemp) || return 1
    {
        cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DTENSORMOVE_WERROR=ON "$@" \
            "${extra_cmake_args[@]}" &&
            cmake --build "$dir" --parallel "$jobs" &&
            ctest --test-dir "$dir" --output-on-failure --no-tests=error --parallel "$jobs" \
                ${ctest_regex:+-R "$ctest_regex"}
    } 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    record_ctest "$name" "$log" "$status"
    rm -f "$log"
    return "$status"
}

stage_test() {
    cmake_stage test Release -DTENSORMOVE_BUILD_BENCHMARKS=ON
}

stage_asan() {
    # halt_on_error: the first report fails the test, as -fno-sanitize-recover does for UBSan.
    ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        cmake_stage asan Debug -DTENSORMOVE_SANITIZE=address,undefined -DTENSORMOVE_BUILD_BENCHMARKS=OFF
}

# Two tests: every operator on every kernel set this CPU has against the
# reference, and every kernel of the registry against the portable kernels
# (failing if a case reaches none of a kernel's shapes).
stage_verify() {
    local ok=0 bad=0
    if "$root/build/test/tools/tmv-verify" --iterations "${TENSORMOVE_VERIFY_ITERATIONS:-2000}"; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
    fi
    # (pipefail: the checker's status, not tail's; its table is long, the summary is what matters)
    if "$root/build/test/tools/tmv-check-kernels" --iterations "${TENSORMOVE_CHECK_ITERATIONS:-1000}" |
        tail -n 3; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
    fi
    record verify "$ok" "$bad"
    [ "$bad" -eq 0 ]
}

# clang, not gcc, at -O1 (as sanitizer and fuzzing builds are): another
# compiler's warnings under -Werror, and a check that every file compiles in
# seconds (an unrolled kernel once took clang over 15 minutes here).
stage_clang() {
    ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} CC=clang CXX=clang++ \
        cmake_stage clang Debug -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS=-O1 -DTENSORMOVE_SANITIZE=address,undefined \
        -DTENSORMOVE_BUILD_BENCHMARKS=ON
}

stage_tsan() {
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} ctest_regex='^tsan_threads$' \
        cmake_stage tsan Debug -DTENSORMOVE_SANITIZE=thread -DTENSORMOVE_BUILD_BENCHMARKS=OFF
}

# The aarch64 cross build, checked under qemu-aarch64 by the demo and the
# verifier only: Debian's libcriterion3:arm64 cannot be installed beside the
# amd64 one, and a Criterion runner spins forever under qemu-aarch64. So the
# build has tests and benchmarks off, and every qemu run has a time limit.
# libpthreadpool-dev:arm64 cannot be installed beside the amd64 one either
# (installing one removes the other), so the build has no built-in pool.
ARM_DEPS=(gcc-aarch64-linux-gnu qemu-user libcpu-features-dev:arm64)
ARM_QEMU=(timeout 300 qemu-aarch64 -L /usr/aarch64-linux-gnu)
# A base seed whose join/split cases reach the NEON row interleave kernels,
# which random shapes only rarely have (2..4 one-element pieces per row).
ARM_ROWS_SEED=3

arm_install_deps() {
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        "${sudo[@]}" dpkg --add-architecture arm64 || return 1
    fi
    bash "$root/tools/install-debian-deps.sh" "${ARM_DEPS[@]}"
}

stage_arm() {
    local dir=$root/build/arm log ok=0 bad=0 step missing
    log=$(mktemp) || return 1
    if ! { arm_install_deps &&
        cmake -S "$root" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-aarch64-linux-gnu.cmake" \
            -DCMAKE_BUILD_TYPE=Release -DTENSORMOVE_WERROR=ON -DTENSORMOVE_BUILD_TESTS=OFF \
            -DTENSORMOVE_BUILD_BENCHMARKS=OFF -DTENSORMOVE_THREAD_POOL=OFF "${extra_cmake_args[@]}" &&
        cmake --build "$dir" --parallel "$jobs"; }; then
        record arm 0 1
        rm -f "$log"
        return 1
    fi
    # Each step: a command under qemu, its output in $log, then a check of it.
    for step in demo list verify rows reached kernels; do
        case $step in
        demo)  # default dispatch picks NEON, and all six operators match docs/SPEC.md
            "${ARM_QEMU[@]}" "$dir/tools/tmv-demo" >"$log" 2>&1 &&
                grep -q '^tensormove .*, kernel set neon$' "$log" &&
                grep -q '^all 6 operators match docs/SPEC.md$' "$log" ;;
        list)  # every primitive but the portable catch-all copy has NEON kernels (fill, deinterleave,
            # interleave, transpose, join_rows, split_rows, gather)
            "${ARM_QEMU[@]}" "$dir/tools/tmv-verify" --list >"$log" 2>&1 &&
                [ "$(grep -E '^  [a-z_]+ +[a-z_0-9]+/neon$' "$log" | awk '{print $1}' | sort -u | wc -l)" -eq 7 ] ;;
        verify)  # the six operators, scalar and NEON, against the reference; every operator's
            # plans (tmv_op_describe, as the verifier's "kernels:" line lists them) use NEON kernels
            "${ARM_QEMU[@]}" "$dir/tools/tmv-verify" --iterations "${TENSORMOVE_ARM_ITERATIONS:-1500}" \
                >"$log" 2>&1 &&
                [ "$(awk '$1 == "neon" && $4 == "cases," { op = $2; next }
                          op != "" && /kernels:/ && /\/neon/ { print op } { op = "" }' "$log" | sort -u | wc -l)" -eq 6 ] ;;
        rows)
            "${ARM_QEMU[@]}" "$dir/tools/tmv-verify" --isa neon --op join --op split --iterations 6000 \
                --seed "$ARM_ROWS_SEED" >"$log.rows" 2>&1 ;;
        reached)  # tmv-verify names each kernel some plan's tmv_op_describe showed; a NEON
            # kernel noted as unreached by both passes above was never tested
            missing=$(cat "$log" "$log.rows" | grep -o 'no case reached kernel .*/neon$' | sort | uniq -d)
            [ -z "$missing" ] || { echo "arm: NEON kernels no case reached: $missing"; false; } ;;
        kernels)  # every NEON and portable kernel against the portable kernels, each reached
            "${ARM_QEMU[@]}" "$dir/tools/tmv-check-kernels" --iterations "${TENSORMOVE_ARM_CHECK_ITERATIONS:-100}" \
                >"$log" 2>&1 ;;
        esac
        if [ $? -eq 0 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); echo "arm: step $step failed"; fi
        [ "$step" = reached ] || grep -E '^(tensormove|all 6|verify:|check-kernels:)|cases, |FAIL|reproduce' \
            "$log$([ "$step" = rows ] && echo .rows)" | tail -n 30
    done
    rm -f "$log" "$log.rows"
    record arm "$ok" "$bad"
    [ "$bad" -eq 0 ]
}

# The differential fuzzer (tests/fuzz/fuzz_target.c) under ASan and UBSan, the
# library instrumented for coverage, run on a copy of the committed seed
# corpus (the copy grows; the repository's does not). One test: it passes if
# libFuzzer ran for the whole time and found nothing; a finding is written to
# build/fuzz/artifacts/ (reproduce with build/fuzz/tests/fuzz/tmv-fuzz FILE).
stage_fuzz() {
    local dir=$root/build/fuzz log start built status
    log=$(mktemp) || return 1
    start=$(date +%s)
    if ! { bash "$root/tools/install-debian-deps.sh" clang &&
        CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 \
            -DTENSORMOVE_WERROR=ON -DTENSORMOVE_SANITIZE=address,undefined -DTENSORMOVE_BUILD_FUZZER=ON \
            -DTENSORMOVE_BUILD_TESTS=OFF -DTENSORMOVE_BUILD_BENCHMARKS=OFF "${extra_cmake_args[@]}" &&
        cmake --build "$dir" --parallel "$jobs" --target tmv-fuzz; }; then
        record fuzz 0 1
        rm -f "$log"
        return 1
    fi
    built=$(($(date +%s) - start))
    rm -rf "$dir/corpus" "$dir/artifacts" && cp -r "$root/tests/fuzz/corpus" "$dir/corpus" && mkdir "$dir/artifacts"
    # -timeout: a single input running this long is a hang, reported as a finding.
    # TENSORMOVE_TASK_MIN_BYTES=64: the small fuzzed operators split into
    # tasks, so tmv_op_execute_parallel's partitioning is fuzzed as well.
    TENSORMOVE_TASK_MIN_BYTES=64 "$dir/tests/fuzz/tmv-fuzz" -max_total_time="${TENSORMOVE_FUZZ_SECONDS:-120}" -timeout=60 \
        -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$log" 2>&1
    status=$?
    grep -vE '^(#[0-9]+|	NEW_FUNC|INFO:|"|######)' "$log" | tail -n 60
    echo "fuzz: built in ${built} s; $(awk -F': *' '/^stat::number_of_executed_units/ { n = $NF }
        /^stat::average_exec_per_sec/ { r = $NF } END { printf "%s executions, %s exec/s", n, r }' "$log")"
    rm -f "$log"
    if [ "$status" -eq 0 ]; then record fuzz 1 0; else record fuzz 0 1; fi
    return "$status"
}

banner "dependencies: ${DEPS[*]}"
if ! bash "$root/tools/install-debian-deps.sh" "${DEPS[@]}"; then
    echo "tests/run.sh: could not install the dependencies" >&2
    record deps 0 1
    STAGES=()
fi

failed_stages=()
for stage in "${STAGES[@]}"; do
    banner "stage $stage"
    "stage_$stage" || failed_stages+=("$stage")
done

banner "summary"
printf '%s\n' "${summary[@]}"
[ ${#failed_stages[@]} -eq 0 ] || echo "failed stages: ${failed_stages[*]}"
# A failed stage whose failure no test count shows must still fail the total.
if [ ${#failed_stages[@]} -gt 0 ] && [ "$failed" -eq 0 ]; then
    failed=${#failed_stages[@]}
fi
echo "tensormove tests: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failed_stages[@]} -eq 0 ]
