/* parallel.c - tmv_op_execute_parallel: the plan's steps as tasks on the caller's pool.
 *
 * Each step splits into min(max_tasks, thread_count) tasks (partition.c); a
 * step of one task runs on the calling thread, with no call into the pool,
 * so small operators cost what tmv_op_execute costs. Steps run one after
 * another: each parallelize returns when its tasks are done. A GATHER_ND
 * step first checks its index tuples in parallel, and writes only if all are
 * in range. */
#include "error.h"
#include "gather_check.h"
#include "gather_walk.h"
#include "op.h"
#include "partition.h"

typedef struct step_job {
    const tmv_op      *op;
    const tmv_step    *step;
    const void *const *inputs;
    void *const       *outputs;
    uint32_t           tasks;
    bool              *in_range; /* the check pass: one flag per task */
} step_job;

static void run_task(void *context, size_t index)
{
    const step_job *job = context;
    tmv_step_run_task(job->op, job->step, job->inputs, job->outputs, (uint32_t)index, job->tasks);
}

static void check_task(void *context, size_t index)
{
    const step_job *job = context;
    job->in_range[index] = tmv_step_check_task(job->op, job->step, job->inputs, (uint32_t)index, job->tasks);
}

/* The check pass of a split GATHER step: TMV_OK, or the serial check's
 * error naming the first bad tuple. */
static tmv_status check_gather(const tmv_parallel *parallel, step_job *job)
{
    const tmv_gather_shape *g = job->step->u.gather.shape;
    if (!tmv_gather_must_check(g))
        return TMV_OK;
    bool in_range[TMV_MAX_TASKS];
    job->in_range = in_range;
    parallel->parallelize(parallel->pool, check_task, job, job->tasks);
    for (uint32_t i = 0; i < job->tasks; i++)
        if (!in_range[i])
            return tmv_gather_check(g, job->inputs[1]);
    return TMV_OK;
}

tmv_status tmv_op_execute_parallel(const tmv_op *op, const void *const *inputs, void *const *outputs,
                                   const tmv_parallel *parallel)
{
    if (op == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_execute_parallel: op is NULL");
    if (parallel != NULL && (parallel->thread_count == 0 || parallel->parallelize == NULL))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "tmv_op_execute_parallel: parallel->thread_count is %u and parallelize is %s; "
                        "it needs at least 1 thread and a parallelize function",
                        parallel->thread_count, parallel->parallelize == NULL ? "NULL" : "set");
    tmv_status status = tmv_check_bindings(op, inputs, outputs);
    if (status != TMV_OK)
        return status;
    const uint32_t threads = parallel == NULL ? 1 : parallel->thread_count;
    for (uint32_t i = 0; i < op->step_count; i++) {
        const tmv_step *step = &op->steps[i];
        const uint32_t tasks = step->max_tasks < threads ? step->max_tasks : threads;
        if (tasks <= 1) {
            status = tmv_step_execute(step, inputs, outputs);
            if (status != TMV_OK)
                return status; /* only a GATHER step fails, and it is a plan's only step */
            continue;
        }
        step_job job = {op, step, inputs, outputs, tasks, NULL};
        if (step->kind == TMV_STEP_GATHER && (status = check_gather(parallel, &job)) != TMV_OK)
            return status;
        parallel->parallelize(parallel->pool, run_task, &job, tasks);
    }
    return TMV_OK;
}
