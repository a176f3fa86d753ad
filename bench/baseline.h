/* baseline.h - the yardsticks: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy), measured next to the case they rate. */
#ifndef TMV_BENCH_BASELINE_H
#define TMV_BENCH_BASELINE_H

#include <stdint.h>

#include "bench.h"
#include "tensormove.h"

/* Process CPU seconds, the clock Google Benchmark times with by default. */
double cpu_seconds(void);
/* Monotonic wall-clock seconds: the clock of every multi-threaded row, whose
 * threads' CPU times would add up. */
double wall_seconds(void);

typedef double clock_fn(void);
typedef void timed_fn(void *context);
/* Median seconds one call of fn takes on clock: calls per batch double until
 * a batch lasts 5 ms (this is also the warm-up), then the median of 7
 * batches; the clock is read per batch, never per call. */
double median_seconds(timed_fn *fn, void *context, clock_fn *clock);

/* Median seconds one memcpy of bytes takes (buffers as the cases allocate
 * them: 64-byte aligned, written first), measured at each call, CPU time. */
double memcpy_seconds(uint64_t bytes);
/* The same on pool: the copy split into pool->thread_count contiguous parts
 * (cut at 64-byte lines), one task each through pool->parallelize, timed by
 * the wall clock; pool NULL: memcpy_seconds. */
double split_memcpy_seconds(uint64_t bytes, const tmv_parallel *pool);
/* The same for a copy whose whole 64-byte destination lines are written with
 * non-temporal stores: the best copy this machine does at DRAM size, where
 * glibc's memcpy reads each line before writing it. x_best_copy divides the
 * smaller of the two by a case's time. */
double split_stream_copy_seconds(uint64_t bytes, const tmv_parallel *pool);

/* The argument of a copy row: bytes copied on the calling thread (pool NULL,
 * CPU time) or split over pool's threads (wall clock, register the row with
 * tmvb_register_realtime). */
typedef struct copy_row {
    uint64_t bytes;
    const tmv_parallel *pool;
} copy_row;
/* The memcpy rows of the report: arg points to a copy_row; x_memcpy and
 * x_best_copy against the yardsticks above on the same threads. Bytes:
 * read = written = bytes. */
void bench_memcpy_case(tmvb_state *st, void *arg);
/* The streaming copy's rows; arg and bytes as for memcpy. */
void bench_stream_copy_case(tmvb_state *st, void *arg);
/* The bound of an element gather: bytes / 4 loads of 4 bytes from random
 * offsets (computed beforehand) in a table of `bytes`, stored in order, with
 * plain scalar code; arg a copy_row whose pool is ignored. Bytes: read = the
 * offsets and the loaded elements, written = bytes. */
void bench_random_loads_case(tmvb_state *st, void *arg);

#endif /* TMV_BENCH_BASELINE_H */
