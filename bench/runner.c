/* runner.c - registers every case x size x kernel set (and x thread count on the default kernel set), prepares a case once and times tmv_op_execute or tmv_op_execute_parallel. */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "bench.h"
#include "cases.h"
#include "context.h"
#include "cpu_pin.h"
#include "gather_bound.h"
#include "obvious.h"

#define WARMUP_SECONDS 0.005
#define MAX_THREAD_COUNTS 64

typedef struct entry {
    const bench_case *c;
    uint64_t target;            /* the output bytes the case aims at */
    const char *size_name;      /* "L2", "1MiB" */
    int isa;
    const tmv_parallel *pool;   /* NULL: tmv_op_execute on the calling thread */
    struct entry *next;         /* every entry, for bench_release_all */
} entry;

static entry *all_entries;

/* The thread counts of the run: NULL stands for one thread (the
 * single-threaded suite, every kernel set), a built-in pool for more. */
static tmv_parallel *runs[MAX_THREAD_COUNTS];
static int run_count;

/* The prepared case, kept across the calls Google Benchmark makes for one
 * benchmark (iteration probing, repetitions). Its buffers also serve the next
 * entry of the same case and size; only the op is created anew. */
static struct {
    const entry *e;
    bench_setup s;
    int built;
    /* The entry's time in the yardsticks' (their seconds over its), timed in
     * alternating slices (paired_ratios): memcpy of the output bytes and the
     * faster of it and the streaming copy, on the entry's threads; the
     * obvious plans (obvious.h) and a gather's line loads (gather_bound.h),
     * one thread only, 0 when not measured. */
    double x_memcpy, x_best_copy, x_pieces, x_loop, x_bound;
    double serial;      /* wall seconds of tmv_op_execute of the same op (pool entries only) */
    yardstick_copies copies;   /* the copies' buffers, for the case's size and threads */
    obvious_plan obvious;
    gather_bound lines;
    int have_obvious, have_bound;
    tmv_op *op;
    char error[512];
} cur;

static void release_op(void) {
    tmv_op_destroy(cur.op);
    cur.op = NULL;
    cur.error[0] = '\0';
}

static tmv_status run_once(void) {
    if (cur.s.one_shot) return tmv_execute(&cur.s.op, cur.s.in, cur.s.out);
    if (cur.e->pool) return tmv_op_execute_parallel(cur.op, cur.s.in, cur.s.out, cur.e->pool);
    return tmv_op_execute(cur.op, cur.s.in, cur.s.out);
}

/* One tmv_op_execute of the prepared op, for the one-thread wall time
 * beside a multi-threaded row (its warm-up already succeeded). */
static void run_serial(void *status) {
    *(tmv_status *)status = tmv_op_execute(cur.op, cur.s.in, cur.s.out);
    tmvb_consume(cur.s.out[0]);
}

static void fail(const char *what, tmv_status st) {
    snprintf(cur.error, sizeof cur.error, "%s: %s: %s", what, tmv_status_string(st), tmv_last_error());
}

/* The yardsticks of a case on the threads the entry runs on: the copies of
 * its output bytes, and on one thread the obvious plans of the case, once
 * they are seen to compute what the case does, and a gather's line loads.
 * Returns 0 or sets cur.error. */
static int make_yardsticks(const tmv_parallel *pool) {
    yardstick_copies_free(&cur.copies);
    gather_bound_free(&cur.lines);
    cur.have_obvious = cur.have_bound = 0;
    if (yardstick_copies_make(&cur.copies, cur.s.bytes_written, pool)) {
        snprintf(cur.error, sizeof cur.error, "out of memory for the yardstick copies");
        return -1;
    }
    if (pool || obvious_plan_build(&cur.s, &cur.obvious)) return 0;
    if (obvious_plan_agrees(&cur.s, &cur.obvious)) {
        snprintf(cur.error, sizeof cur.error, "the obvious plans (bench/obvious.c) disagree with the case's output");
        return -1;
    }
    cur.have_obvious = 1;
    cur.have_bound = gather_bound_build(&cur.obvious, cur.s.in[0], &cur.lines) == 0;
    return 0;
}

static void run_case(void *unused) {
    (void)unused;
    (void)run_once();   /* it succeeded in the warm-up */
    tmvb_consume(cur.s.out[0]);
}

/* The entry's ratios to its yardsticks, each timed in slices alternating
 * with the entry's own calls. */
static void time_yardsticks(const tmv_parallel *pool) {
    timed_fn *fns[PAIRED_MAX] = {run_case, split_copy_run, split_copy_run};
    void *contexts[PAIRED_MAX] = {NULL, &cur.copies.libc, &cur.copies.stream};
    int n = 3, pieces = 0, bound = 0;
    if (cur.have_obvious) {
        pieces = n;
        fns[n] = obvious_run_pieces, contexts[n++] = &cur.obvious;
        fns[n] = obvious_run_loop, contexts[n++] = &cur.obvious;
    }
    if (cur.have_bound) {
        bound = n;
        fns[n] = gather_bound_run, contexts[n++] = &cur.lines;
        fns[n] = gather_bound_run_ahead, contexts[n++] = &cur.lines;
    }
    double ratio[PAIRED_MAX];
    paired_ratios(fns, contexts, n, pool ? wall_seconds : cpu_seconds, ratio);
    cur.x_memcpy = ratio[1];
    cur.x_best_copy = ratio[2] < ratio[1] ? ratio[2] : ratio[1];
    cur.x_pieces = pieces ? ratio[pieces] : 0;
    cur.x_loop = pieces ? ratio[pieces + 1] : 0;
    cur.x_bound = bound ? (ratio[bound] < ratio[bound + 1] ? ratio[bound] : ratio[bound + 1]) : 0;
}

/* Builds the case (unless the previous entry was the same case and size),
 * makes its yardsticks (unless the previous entry also ran on the same
 * threads), creates its op under its kernel set, warms up, times the
 * yardsticks against it; for a pool entry also times the op on one thread
 * by the wall clock, for its speed-up. Returns 0 or sets cur.error. */
static int prepare(const entry *e) {
    if (cur.e == e) return cur.error[0] ? -1 : 0;
    const int same_data = cur.built && cur.e && cur.e->c == e->c && cur.e->target == e->target;
    const int same_yardsticks = same_data && cur.e->pool == e->pool;
    release_op();
    if (!same_data) {
        setup_free(&cur.s);
        cur.built = 0;
    }
    cur.e = e;
    tmv_status st = tmv_set_isa((tmv_isa)e->isa);
    if (st != TMV_OK) {
        fail("set_isa", st);
        return -1;
    }
    if (!cur.built) {
        if (e->c->kind->build(e->c, e->target, &cur.s)) {
            setup_free(&cur.s);
            snprintf(cur.error, sizeof cur.error, "out of memory while building the case");
            return -1;
        }
        cur.built = 1;
    }
    if (!same_yardsticks && make_yardsticks(e->pool)) return -1;
    if (!cur.s.one_shot && (st = tmv_op_create(&cur.s.op, &cur.op)) != TMV_OK) {
        fail("create", st);
        return -1;
    }
    const double t0 = cpu_seconds();
    do {   /* at least once: checks the case runs, warms caches and vector units */
        if ((st = run_once()) != TMV_OK) {
            fail("execute", st);
            return -1;
        }
    } while (cpu_seconds() - t0 < WARMUP_SECONDS);
    time_yardsticks(e->pool);
    if (e->pool) {
        tmv_status serial_status = TMV_OK;
        cur.serial = median_seconds(run_serial, &serial_status, wall_seconds);
        if (serial_status != TMV_OK) {
            fail("execute", serial_status);
            return -1;
        }
    }
    return 0;
}

static void run_entry(tmvb_state *state, void *arg) {
    const entry *e = arg;
    if (prepare(e)) {
        tmvb_skip(state, cur.error);
        return;
    }
    /* the one-shot case creates its op inside the loop; prepare() set this set already, so it succeeds */
    if (tmv_set_isa((tmv_isa)e->isa) != TMV_OK) {
        tmvb_skip(state, tmv_last_error());
        return;
    }
    while (tmvb_keep_running(state)) {
        run_once();
        tmvb_consume(cur.s.out[0]);
    }
    tmvb_set_bytes_per_iteration(state, cur.s.bytes_read + cur.s.bytes_written);
    tmvb_set_counter(state, "out_bytes", (double)cur.s.bytes_written);
    tmvb_set_counter(state, "x_memcpy", cur.x_memcpy);
    tmvb_set_counter(state, "x_best_copy", cur.x_best_copy);
    if (cur.x_pieces > 0) tmvb_set_counter(state, "x_pieces", cur.x_pieces);
    if (cur.x_loop > 0) tmvb_set_counter(state, "x_loop", cur.x_loop);
    if (cur.x_bound > 0) tmvb_set_counter(state, "x_bound", cur.x_bound);
    if (e->pool) tmvb_set_rate_counter(state, "speedup", cur.serial);   /* one-thread wall time / this one */
    else if (bench_cpu_current() >= 0) tmvb_set_counter(state, "cpu", bench_cpu_current());   /* cpu_pin.h */
    if (cur.op) tmvb_set_label(state, tmv_op_describe(cur.op));   /* the kernels that ran */
}

static int wanted(const bench_case *c, int size, int quick, const tmv_parallel *pool) {
    if (!(c->sizes & (1u << size))) return 0;
    if (pool && (c->kind == &kind_tiny_oneshot || c->kind == &kind_join_outer_oneshot))
        return 0;   /* tmv_execute takes no pool */
    return !quick || (1u << size) != SIZE_DRAM || (c->sizes & QUICK_DRAM);
}

/* Registers fn under name; on a pool of T threads as "name@Tt", timed by the wall clock. */
static void register_on(const char *name, tmvb_fn fn, void *arg, const tmv_parallel *pool) {
    char full[300];
    if (!pool) {
        tmvb_register(name, fn, arg);
        return;
    }
    snprintf(full, sizeof full, "%s@%ut", name, (unsigned)pool->thread_count);
    tmvb_register_realtime(full, fn, arg);
}

/* Starts a pool per thread count above 1; a count whose pool cannot start
 * (a build without the built-in pool) is left out, with a note. Adds the
 * "threads" context line. */
static void start_runs(const unsigned *threads, int thread_counts) {
    char list[256] = "";
    size_t used = 0;
    if (thread_counts > MAX_THREAD_COUNTS)
        fprintf(stderr, "tmv-bench: %d thread counts given, the first %d run\n", thread_counts, MAX_THREAD_COUNTS);
    for (int i = 0; i < thread_counts && run_count < MAX_THREAD_COUNTS; ++i) {
        tmv_parallel *pool = NULL;
        if (threads[i] > 1 && tmv_thread_pool_create(threads[i], &pool) != TMV_OK) {
            fprintf(stderr, "tmv-bench: no pool of %u threads, its rows are left out: %s\n", threads[i],
                    tmv_last_error());
            continue;
        }
        runs[run_count++] = pool;
        if (used < sizeof list) used += (size_t)snprintf(list + used, sizeof list - used, "%s%u", used ? "," : "", threads[i]);
    }
    tmvb_add_context("threads", list);
}

/* The copy rows of every size on one thread count, and the random-loads bound on one thread. */
static void register_copy_rows(copy_row *rows, const tmv_parallel *pool) {
    char name[256];
    for (int z = 0; z < SIZE_CLASS_COUNT; ++z) {
        if (!size_class_bytes[z]) continue;
        rows[z] = (copy_row){size_class_bytes[z], pool};
        snprintf(name, sizeof name, "memcpy/libc/%lluKiB/u8/%s/-", (unsigned long long)(rows[z].bytes >> 10),
                 size_class_names[z]);
        register_on(name, bench_memcpy_case, &rows[z], pool);
        snprintf(name, sizeof name, "memcpy/stream/%lluKiB/u8/%s/-", (unsigned long long)(rows[z].bytes >> 10),
                 size_class_names[z]);
        register_on(name, bench_stream_copy_case, &rows[z], pool);
        if (pool) continue;
        snprintf(name, sizeof name, "bound/random-loads/4B/u8/%s/-", size_class_names[z]);
        tmvb_register(name, bench_random_loads_case, &rows[z]);
    }
}

/* Registers case c at target output bytes (named size_name) under kernel set isa, on pool (NULL: one thread). */
static void register_case(const bench_case *c, uint64_t target, const char *size_name, int isa,
                          const tmv_parallel *pool) {
    entry *e = malloc(sizeof *e);
    if (!e) return;
    *e = (entry){c, target, size_name, isa, pool, all_entries};
    all_entries = e;
    char label[64], name[256];
    c->kind->label(c, label, sizeof label);
    snprintf(name, sizeof name, "%s/%s/%s/%s/%s/%s", c->kind->family, c->kind->variant, label, dtype_name(c->dtype),
             size_name, tmv_isa_name((tmv_isa)isa));
    register_on(name, run_entry, e, pool);
}

void bench_register_case(const bench_case *c, uint64_t target, const char *size_name) {
    register_case(c, target, size_name, (int)tmv_get_isa(), NULL);
}

/* The suite: every case of the table at its sizes, on every kernel set on
 * one thread and on the default set on each pool. */
static void register_suite(int quick) {
    static copy_row copy_rows[MAX_THREAD_COUNTS][SIZE_CLASS_COUNT];
    int isas[64];
    const int isa_count = bench_available_isas(isas, 64);
    const int default_isa = (int)tmv_get_isa();

    for (int r = 0; r < run_count; ++r) register_copy_rows(copy_rows[r], runs[r]);
    for (size_t i = 0; i < bench_case_count; ++i) {
        const bench_case *c = &bench_cases[i];
        for (int z = 0; z < SIZE_CLASS_COUNT; ++z) {
            /* a case's thread counts follow its kernel sets: they share its buffers */
            for (int r = 0; r < run_count; ++r) {
                if (!wanted(c, z, quick, runs[r])) continue;
                if (runs[r]) {
                    register_case(c, size_class_bytes[z], size_class_names[z], default_isa, runs[r]);
                    continue;
                }
                for (int k = 0; k < isa_count; ++k)
                    register_case(c, size_class_bytes[z], size_class_names[z], isas[k], NULL);
            }
        }
    }
    if (run_count > 0 && !runs[0]) bench_register_many_pieces();   /* runs[0] is one thread when the list has 1 */
}

void bench_register_all(bench_mode mode, const unsigned *threads, int thread_counts) {
    bench_add_context();
    if (mode == BENCH_SWEEP || mode == BENCH_SWEEP_FULL || mode == BENCH_ZOO) {
        tmvb_add_context("threads", "1");
        if (mode == BENCH_ZOO)
            bench_register_zoo();
        else
            bench_register_sweep(mode == BENCH_SWEEP_FULL);
        return;
    }
    start_runs(threads, thread_counts);
    register_suite(mode == BENCH_QUICK);
}

void bench_release_all(void) {
    while (all_entries) {
        entry *next = all_entries->next;
        free(all_entries);
        all_entries = next;
    }
    release_op();
    setup_free(&cur.s);
    gather_bound_free(&cur.lines);
    yardstick_copies_free(&cur.copies);
    cur.built = 0;
    cur.e = NULL;
    for (int r = 0; r < run_count; ++r) tmv_thread_pool_destroy(runs[r]);
    run_count = 0;
}
