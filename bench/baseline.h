/* baseline.h - the yardsticks: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy), timed in slices alternating with the case they rate. */
#ifndef TMV_BENCH_BASELINE_H
#define TMV_BENCH_BASELINE_H

#include <stdint.h>

#include "bench.h"
#include "setup.h"
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

#define PAIRED_MAX 8
/* fns[0..n) (n <= PAIRED_MAX) timed in alternating slices: after a first
 * pass that finds, for each, the calls that last 0.5 ms (and warms it up), 5
 * rounds each time every fn for that many calls in turn, with one untimed
 * call before where a slice is 4 calls or more (the slice before moved
 * other data through the caches). ratio[i] = the median over the rounds of
 * fn i's seconds a call over fn 0's in the same round: a ratio of two
 * things timed milliseconds apart, where a shared machine's speed moves
 * over tens of milliseconds. */
void paired_ratios(timed_fn *const *fns, void *const *contexts, int n, clock_fn *clock, double *ratio);

typedef void copy_fn(void *dst, const void *src, size_t n);
/* One copy of bytes, on the calling thread (pool NULL) or split into
 * pool->thread_count contiguous parts, one task each, cut at whole 64-byte
 * lines so that the streaming copy's parts stay aligned. */
typedef struct split_copy {
    copy_fn *copy;
    uint8_t *dst;
    const uint8_t *src;
    uint64_t bytes;
    const tmv_parallel *pool;
} split_copy;
/* Runs a split_copy (a timed_fn). */
void split_copy_run(void *split_copy);

/* The two yardsticks of `bytes` on pool (NULL: the calling thread), from and
 * to one pair of buffers of their own, allocated as the cases allocate
 * theirs: memcpy, and a copy whose whole 64-byte destination lines are
 * written with non-temporal stores, the best copy this machine does at DRAM
 * size, where glibc's memcpy reads each line before writing it. x_best_copy
 * rates a case against the faster of the two. */
typedef struct yardstick_copies {
    bench_setup buffers;
    split_copy libc, stream;
} yardstick_copies;
/* Returns 0, or -1 out of memory (nothing held). */
int yardstick_copies_make(yardstick_copies *y, uint64_t bytes, const tmv_parallel *pool);
void yardstick_copies_free(yardstick_copies *y);

/* Median seconds one memcpy of bytes takes (buffers as the cases allocate
 * them: 64-byte aligned, written first), measured at each call, CPU time. */
double memcpy_seconds(uint64_t bytes);
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
