/* thread_scenarios.c - one operator executed by many threads at once, many threads racing their
 * first tmv_op_create (the once-only kernel-set initialization), and many threads churning
 * tmv_execute's kept operators. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include "thread_scenarios.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "casegen.h"
#include "op_cache.h"
#include "reference/reference.h"

#define RUNS_PER_THREAD 25

typedef struct shared_op {
    const cg_case      *c;
    const tmv_op       *op;
    pthread_barrier_t  *start;
    const tmv_parallel *parallel; /* NULL: tmv_op_execute */
} shared_op;

typedef struct worker {
    const shared_op *shared;
    cg_outputs      *outs;      /* this thread's own output areas */
    tmv_status       status;    /* first failing status, or TMV_OK */
} worker;

static void *execute_many_times(void *arg)
{
    worker *w = arg;
    w->status = TMV_OK;
    pthread_barrier_wait(w->shared->start);
    for (int i = 0; i < RUNS_PER_THREAD && w->status == TMV_OK; i++)
        w->status = w->shared->parallel == NULL
                        ? tmv_op_execute(w->shared->op, w->shared->c->in_ptrs, w->outs->ptrs)
                        : tmv_op_execute_parallel(w->shared->op, w->shared->c->in_ptrs, w->outs->ptrs,
                                                  w->shared->parallel);
    return NULL;
}

/* Starts TS_THREADS threads, thread t running body on the t-th of the
 * arg_size-byte arguments at args, and joins them; false (with a message)
 * when one could not start. A thread that fails to start leaves the others
 * at their barrier; the test then hangs and ctest's timeout reports it. */
static bool run_threads(void *(*body)(void *), void *args, size_t arg_size, char *msg, size_t msg_len)
{
    pthread_t threads[TS_THREADS];
    for (int t = 0; t < TS_THREADS; t++)
        if (pthread_create(&threads[t], NULL, body, (char *)args + (size_t)t * arg_size) != 0) {
            snprintf(msg, msg_len, "could not start thread %d", t);
            return false;
        }
    for (int t = 0; t < TS_THREADS; t++)
        pthread_join(threads[t], NULL);
    return true;
}

/* A case of `type` whose output holds enough elements for threads to overlap in time. */
static cg_case *busy_case(tmv_op_type type, uint64_t seed)
{
    for (uint64_t i = 0;; i++) {
        cg_case *c = cg_case_new(type, seed + i, NULL);
        if (c == NULL)
            return NULL;
        if (c->expect == TMV_OK && cg_extent_bytes(cg_case_output(c, 0)) >= 256)
            return c;
        cg_case_free(c);
    }
}

/* Runs TS_THREADS workers on op and compares each output with expected. */
static bool run_workers(const cg_case *c, const tmv_op *op, const tmv_parallel *parallel, const cg_outputs *expected,
                        char *msg, size_t msg_len)
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, TS_THREADS);
    shared_op shared = {c, op, &start, parallel};
    worker workers[TS_THREADS];
    bool ok = true;
    for (int t = 0; t < TS_THREADS; t++) {
        workers[t] = (worker){&shared, cg_outputs_new(c), TMV_OK};
        if (workers[t].outs == NULL) {
            snprintf(msg, msg_len, "out of memory for thread %d's outputs", t);
            return false;
        }
    }
    if (!run_threads(execute_many_times, workers, sizeof workers[0], msg, msg_len))
        return false;
    pthread_barrier_destroy(&start);
    for (int t = 0; t < TS_THREADS; t++) {
        cg_mismatch m;
        if (ok && workers[t].status != TMV_OK) {
            snprintf(msg, msg_len, "%s: thread %d: execute returned %s: %s", cg_op_name(c->op.type), t,
                     tmv_status_string(workers[t].status), tmv_last_error());
            ok = false;
        } else if (ok && !cg_outputs_equal(expected, workers[t].outs, &m)) {
            snprintf(msg, msg_len, "%s (case seed 0x%016llx): thread %d: output %u differs at byte %lld (%s)",
                     cg_op_name(c->op.type), (unsigned long long)c->seed, t, m.output,
                     (long long)m.offset, m.where);
            ok = false;
        }
        cg_outputs_free(workers[t].outs);
    }
    return ok;
}

/* A pool on plain pthreads, whose every synchronization ThreadSanitizer
 * sees (pthreadpool's futexes it does not): each parallelize starts
 * TS_POOL_THREADS - 1 threads that, with the caller, take task indices from
 * a shared counter, and joins them. Any number of callers may share it. */
typedef struct spawn_job {
    tmv_task_fn   task;
    void         *context;
    size_t        count;
    atomic_size_t next;
} spawn_job;

static void *take_tasks(void *arg)
{
    spawn_job *job = arg;
    for (size_t i; (i = atomic_fetch_add(&job->next, 1)) < job->count;)
        job->task(job->context, i);
    return NULL;
}

static void spawn_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    (void)pool;
    spawn_job job = {task, context, count, 0};
    pthread_t threads[TS_POOL_THREADS - 1];
    unsigned started = 0;
    while (started < TS_POOL_THREADS - 1 && pthread_create(&threads[started], NULL, take_tasks, &job) == 0)
        started++;
    take_tasks(&job); /* the caller works too; if no thread started it runs every task */
    for (unsigned t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
}

const tmv_parallel ts_spawning_pool = {NULL, TS_POOL_THREADS, spawn_parallelize};

bool ts_shared_execution(uint64_t seed, const tmv_parallel *parallel, char *msg, size_t msg_len)
{
    bool ok = true;
    for (int type = TMV_OP_JOIN; type <= TMV_OP_GATHER_ND && ok; type++) {
        cg_case *c = busy_case((tmv_op_type)type, seed + (uint64_t)type * 1000);
        tmv_op *op = NULL;
        cg_outputs *expected = NULL;
        if (c == NULL || tmv_op_create(&c->op, &op) != TMV_OK || (expected = cg_outputs_new(c)) == NULL ||
            tmv_reference_execute(op, c->in_ptrs, expected->ptrs) != TMV_OK) {
            snprintf(msg, msg_len, "%s: could not set the case up: %s", cg_op_name((tmv_op_type)type),
                     tmv_last_error());
            ok = false;
        } else {
            ok = run_workers(c, op, parallel, expected, msg, msg_len);
        }
        cg_outputs_free(expected);
        tmv_op_destroy(op);
        cg_case_free(c);
    }
    return ok;
}

typedef struct racer {
    pthread_barrier_t *start;
    tmv_status         create, execute;
    int32_t            out[6];
} racer;

/* JOIN of {2,1} and {2,2} along axis 1: [[1],[4]] + [[2,3],[5,6]] = [[1,2,3],[4,5,6]]. */
static void *create_first(void *arg)
{
    racer *r = arg;
    static const int32_t a[] = {1, 4}, b[] = {2, 3, 5, 6};
    static const uint32_t a_sizes[] = {2, 1}, b_sizes[] = {2, 2}, out_sizes[] = {2, 3};
    const tmv_tensor_desc ins[] = {{TMV_DTYPE_INT32, 2, a_sizes, NULL}, {TMV_DTYPE_INT32, 2, b_sizes, NULL}};
    const tmv_tensor_desc out = {TMV_DTYPE_INT32, 2, out_sizes, NULL};
    const tmv_join_desc join = {2, ins, &out, 1};
    const tmv_op_desc desc = {TMV_OP_JOIN, &join, 0};
    const void *inputs[] = {a, b};
    void *outputs[] = {r->out};
    tmv_op *op = NULL;
    pthread_barrier_wait(r->start);
    r->create = tmv_op_create(&desc, &op);
    r->execute = r->create == TMV_OK ? tmv_op_execute(op, inputs, outputs) : r->create;
    tmv_op_destroy(op);
    return NULL;
}

bool ts_racing_first_create(char *msg, size_t msg_len)
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, TS_THREADS);
    racer racers[TS_THREADS];
    for (int t = 0; t < TS_THREADS; t++)
        racers[t] = (racer){&start, TMV_ERR_INVALID_ARGUMENT, TMV_ERR_INVALID_ARGUMENT, {0}};
    if (!run_threads(create_first, racers, sizeof racers[0], msg, msg_len))
        return false;
    pthread_barrier_destroy(&start);
    const int32_t expected[] = {1, 2, 3, 4, 5, 6};
    for (int t = 0; t < TS_THREADS; t++) {
        if (racers[t].create != TMV_OK || racers[t].execute != TMV_OK) {
            snprintf(msg, msg_len, "thread %d: create returned %s, execute %s", t,
                     tmv_status_string(racers[t].create), tmv_status_string(racers[t].execute));
            return false;
        }
        if (memcmp(racers[t].out, expected, sizeof expected) != 0) {
            snprintf(msg, msg_len, "thread %d: wrong join result", t);
            return false;
        }
    }
    return true;
}

/* ---- tmv_execute's kept operators under many threads ---- */

#define CHURN_CASES (2 * TMV_OP_CACHE_SLOTS)
#define CHURN_ROUNDS 3

typedef struct churn_shared {
    cg_case           *cases[CHURN_CASES];
    cg_outputs        *expected[CHURN_CASES];
    pthread_barrier_t *start;
} churn_shared;

typedef struct churner {
    const churn_shared *shared;
    unsigned            first;                /* the case this thread starts at */
    cg_outputs         *outs[CHURN_CASES];    /* this thread's own areas */
    char                failure[256];         /* empty: all results exact */
} churner;

static void *churn(void *arg)
{
    churner *w = arg;
    const churn_shared *sh = w->shared;
    pthread_barrier_wait(sh->start);
    for (unsigned r = 0; r < CHURN_ROUNDS * CHURN_CASES && w->failure[0] == '\0'; r++) {
        const unsigned i = (w->first + r) % CHURN_CASES;
        const cg_case *c = sh->cases[i];
        const tmv_status s = tmv_execute(&c->op, c->in_ptrs, w->outs[i]->ptrs);
        cg_mismatch m;
        if (s != TMV_OK)
            snprintf(w->failure, sizeof w->failure, "%s (case seed 0x%016llx): tmv_execute returned %s: %s",
                     cg_op_name(c->op.type), (unsigned long long)c->seed, tmv_status_string(s), tmv_last_error());
        else if (!cg_outputs_equal(sh->expected[i], w->outs[i], &m))
            snprintf(w->failure, sizeof w->failure, "%s (case seed 0x%016llx): output %u differs at byte %lld (%s)",
                     cg_op_name(c->op.type), (unsigned long long)c->seed, m.output, (long long)m.offset, m.where);
    }
    return NULL;
}

/* A case of `type` that succeeds, from seed on. */
static cg_case *good_case(tmv_op_type type, uint64_t seed)
{
    for (uint64_t i = 0;; i++) {
        cg_case *c = cg_case_new(type, seed + i, NULL);
        if (c == NULL || c->expect == TMV_OK)
            return c;
        cg_case_free(c);
    }
}

bool ts_one_shot_churn(uint64_t seed, char *msg, size_t msg_len)
{
    pthread_barrier_t start;
    churn_shared sh = {{NULL}, {NULL}, &start};
    static churner workers[TS_THREADS];
    bool ok = true;
    for (unsigned i = 0; i < CHURN_CASES && ok; i++) {
        tmv_op *op = NULL;
        sh.cases[i] = good_case((tmv_op_type)(TMV_OP_JOIN + i % 6), seed + 7919 * i);
        ok = sh.cases[i] != NULL && tmv_op_create(&sh.cases[i]->op, &op) == TMV_OK &&
             (sh.expected[i] = cg_outputs_new(sh.cases[i])) != NULL &&
             tmv_reference_execute(op, sh.cases[i]->in_ptrs, sh.expected[i]->ptrs) == TMV_OK;
        tmv_op_destroy(op);
    }
    for (int t = 0; t < TS_THREADS && ok; t++) {
        workers[t] = (churner){&sh, (unsigned)t * CHURN_CASES / TS_THREADS, {NULL}, ""};
        for (unsigned i = 0; i < CHURN_CASES && ok; i++)
            ok = (workers[t].outs[i] = cg_outputs_new(sh.cases[i])) != NULL;
    }
    if (!ok)
        snprintf(msg, msg_len, "could not set the cases up: %s", tmv_last_error());
    if (ok) {
        pthread_barrier_init(&start, NULL, TS_THREADS);
        ok = run_threads(churn, workers, sizeof workers[0], msg, msg_len);
        pthread_barrier_destroy(&start);
    }
    for (int t = 0; t < TS_THREADS; t++) {
        if (ok && workers[t].failure[0] != '\0') {
            snprintf(msg, msg_len, "thread %d: %s", t, workers[t].failure);
            ok = false;
        }
        for (unsigned i = 0; i < CHURN_CASES; i++)
            cg_outputs_free(workers[t].outs[i]);
        workers[t] = (churner){0};
    }
    for (unsigned i = 0; i < CHURN_CASES; i++) {
        cg_outputs_free(sh.expected[i]);
        cg_case_free(sh.cases[i]);
    }
    return ok;
}
