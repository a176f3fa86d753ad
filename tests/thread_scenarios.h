/* thread_scenarios.h - the concurrency scenarios in plain C, shared by the Criterion suite
 * and the ThreadSanitizer program (Criterion's runner cannot start under TSan). */
#ifndef TMV_THREAD_SCENARIOS_H
#define TMV_THREAD_SCENARIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TS_THREADS 8

/* Per operator type, one compiled op executed by TS_THREADS threads at once
 * into their own outputs, under the current kernel set; every output is
 * compared with the reference. False with a report in msg on any failure. */
bool ts_shared_execution(uint64_t seed, char *msg, size_t msg_len);

/* TS_THREADS threads make their first tmv_op_create at the same moment (run
 * it before anything else in the process calls tensormove) and each checks
 * its JOIN result. */
bool ts_racing_first_create(char *msg, size_t msg_len);

#endif
