/* thread_scenarios.h - the concurrency scenarios in plain C, shared by the Criterion suite
 * and the ThreadSanitizer program (Criterion's runner cannot start under TSan). */
#ifndef TMV_THREAD_SCENARIOS_H
#define TMV_THREAD_SCENARIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensormove.h"

#define TS_THREADS 8
#define TS_POOL_THREADS 3

/* A pool on plain pthreads (TS_POOL_THREADS per parallelize, the caller
 * included), for tmv_op_execute_parallel under ThreadSanitizer. */
extern const tmv_parallel ts_spawning_pool;

/* Per operator type, one compiled op executed by TS_THREADS threads at once
 * into their own outputs, under the current kernel set, with
 * tmv_op_execute, or tmv_op_execute_parallel on `parallel` (shared by all
 * of them) when it is not NULL; every output is compared with the
 * reference. False with a report in msg on any failure. */
bool ts_shared_execution(uint64_t seed, const tmv_parallel *parallel, char *msg, size_t msg_len);

/* TS_THREADS threads make their first tmv_op_create at the same moment (run
 * it before anything else in the process calls tensormove) and each checks
 * its JOIN result. */
bool ts_racing_first_create(char *msg, size_t msg_len);

/* TS_THREADS threads each call tmv_execute on twice TMV_OP_CACHE_SLOTS
 * random descriptions of every type, in turn from their own starting
 * points, several rounds, into their own outputs, and compare each output
 * with the reference: kept operators are found, run and evicted while
 * other threads run them. */
bool ts_one_shot_churn(uint64_t seed, char *msg, size_t msg_len);

#endif
