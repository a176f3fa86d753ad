/* baseline.h - the yardsticks: memcpy of the same output bytes (x_memcpy) and the best copy of them (x_best_copy), measured next to the case they rate. */
#ifndef TMV_BENCH_BASELINE_H
#define TMV_BENCH_BASELINE_H

#include <stdint.h>

#include "bench.h"

/* Process CPU seconds, the clock Google Benchmark times with by default. */
double cpu_seconds(void);
/* Median seconds one memcpy of bytes takes (buffers as the cases allocate
 * them: 64-byte aligned, written first), measured at each call. */
double memcpy_seconds(uint64_t bytes);
/* The same for a copy whose whole 64-byte destination lines are written with
 * non-temporal stores: the best copy this machine does at DRAM size, where
 * glibc's memcpy reads each line before writing it. x_best_copy divides the
 * smaller of the two by a case's time. */
double stream_copy_seconds(uint64_t bytes);
/* The memcpy rows of the report: arg points to a uint64_t byte count.
 * Bytes: read = written = bytes. */
void bench_memcpy_case(tmvb_state *st, void *arg);
/* The streaming copy's rows; arg and bytes as for memcpy. */
void bench_stream_copy_case(tmvb_state *st, void *arg);
/* The bound of an element gather: bytes / 4 loads of 4 bytes from random
 * offsets (computed beforehand) in a table of `bytes`, stored in order, with
 * plain scalar code; arg as above. Bytes: read = the offsets and the loaded
 * elements, written = bytes. */
void bench_random_loads_case(tmvb_state *st, void *arg);

#endif /* TMV_BENCH_BASELINE_H */
