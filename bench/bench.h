/* bench.h - the few Google Benchmark calls the C cases need, exposed by the C++ shim (shim.cc). */
#ifndef TMV_BENCH_H
#define TMV_BENCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An opaque benchmark::State. */
typedef struct tmvb_state tmvb_state;

/* A benchmark body: called by Google Benchmark, possibly several times
 * (iteration-count probing, repetitions). */
typedef void (*tmvb_fn)(tmvb_state *st, void *arg);

/* --- state calls (shim.cc) --- */
/* Nonzero while the timed loop should run another iteration. */
int  tmvb_keep_running(tmvb_state *st);
/* Reports bytes_per_second = bytes_per_iteration * iterations / time. Call after the loop. */
void tmvb_set_bytes_per_iteration(tmvb_state *st, uint64_t bytes_per_iteration);
/* A plain counter (reported as is). */
void tmvb_set_counter(tmvb_state *st, const char *name, double value);
/* A per-iteration rate counter: value * iterations / time. With value = the
 * seconds memcpy takes per call this is "x memcpy" (t_memcpy / t_case). */
void tmvb_set_rate_counter(tmvb_state *st, const char *name, double value_per_iteration);
/* Marks the run as skipped with a message; the body must then return without looping. */
void tmvb_skip(tmvb_state *st, const char *message);
/* The benchmark's label (JSON "label", the console's last column). */
void tmvb_set_label(tmvb_state *st, const char *label);
/* Keeps the compiler from discarding p or the memory behind it. */
void tmvb_consume(const void *p);

/* --- registration and context (shim.cc), called from bench_register_all --- */
/* Registers a benchmark; name is copied, arg must outlive the run. */
void tmvb_register(const char *name, tmvb_fn fn, void *arg);
/* The same, timed by the wall clock (UseRealTime: the time, bytes_per_second
 * and rate counters): for bodies that run on several threads, whose CPU times
 * add up. Google Benchmark appends "/real_time" to the name it reports. */
void tmvb_register_realtime(const char *name, tmvb_fn fn, void *arg);
/* Adds a key/value line to the report's context (console header and JSON). */
void tmvb_add_context(const char *key, const char *value);

/* --- provided by the C side (runner.c, setup.c) --- */
/* Bytes past a 64-byte line every buffer of a case starts at (--tmv_offset,
 * 0-63; 0 by default): 16 is where glibc's malloc puts a large block. */
extern unsigned bench_line_offset;

/* What a run registers. */
typedef enum bench_mode {
    BENCH_SUITE,        /* the case table at every size it lists */
    BENCH_QUICK,        /* its quick subset: L1, L2, 8 KiB, tiny and the cases marked for a quick DRAM run */
    BENCH_SWEEP,        /* the generated sweep, sampled (sweep.c) */
    BENCH_SWEEP_FULL,   /* the whole sweep */
    BENCH_ZOO           /* the model zoo: shapes of real networks (zoo.c) */
} bench_mode;

/* Adds the context lines and registers the mode's cases. For the suite,
 * threads lists the thread counts to run, ascending, each >= 1: 1 is the
 * single-threaded suite (every kernel set); each count T > 1 adds the cases
 * again under the default kernel set through tmv_op_execute_parallel on a
 * pool of T threads, and the copy rows split over that pool, names ending
 * in "@Tt". The sweep and the zoo run on one thread, on the default kernel
 * set. */
void bench_register_all(bench_mode mode, const unsigned *threads, int thread_counts);
/* Stops the pools bench_register_all started; after the run. */
void bench_release_all(void);

#ifdef __cplusplus
}
#endif

#endif /* TMV_BENCH_H */
