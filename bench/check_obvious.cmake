# check_obvious.cmake - the test bench_obvious_agrees: runs tmv-bench's sampled sweep and the model zoo at
# their small sizes, where each row first compares the library's output with two independent plans
# (bench/obvious.c) byte for byte, and fails if any row was skipped (a disagreement, or a case that
# could not be created or executed) or the run failed.
#   cmake -DBENCH=path/to/tmv-bench -P check_obvious.cmake
foreach(mode --tmv_sweep --tmv_zoo)
  execute_process(
    COMMAND ${BENCH} ${mode} "--benchmark_filter=/(8KiB|1MiB|[0-9]+KiB|1\\.[0-9]MiB)/"
            --benchmark_min_time=0.001 --benchmark_repetitions=1 --benchmark_format=json
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tmv-bench ${mode} exited with ${rc}:\n${err}")
  endif()
  string(REGEX MATCHALL "\"run_name\": \"[^\"]*\"" rows "${out}")
  list(LENGTH rows count)
  if(count EQUAL 0)
    message(FATAL_ERROR "tmv-bench ${mode} ran no rows:\n${err}")
  endif()
  string(REGEX MATCHALL "\"error_message\": \"[^\"]*\"" errors "${out}")
  if(errors)
    message(FATAL_ERROR "tmv-bench ${mode}: skipped rows:\n${errors}")
  endif()
  message(STATUS "tmv-bench ${mode}: ${count} rows, each agreeing with the obvious plans")
endforeach()
