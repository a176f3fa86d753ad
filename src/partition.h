/* partition.h - how the steps of a plan split into tasks for a parallel execute (decided at create), and running one task. */
#ifndef TMV_PARTITION_H
#define TMV_PARTITION_H

#include "op.h"

/* The most tasks one step splits into. */
#define TMV_MAX_TASKS 1024u
/* The thread count a split is shaped for: a step flattens as many outer dims
 * as it takes to give this many tasks (when its bytes are worth that many),
 * so a 64-thread pool finds work for every thread. */
#define TMV_PLANNED_THREADS 64u
/* A row step splits only if it binds at most this many buffers: each task
 * offsets them in an array on its stack (execute allocates nothing). */
#define TMV_TASK_MAX_BUFFERS 64u

/* Sets each step's max_tasks, split_rank, split_extent, split_unit and
 * bytes, and the op's bytes, from the op's tuning record (task_min_bytes). */
void tmv_plan_partition(tmv_op *op);

/* Runs task `task` of `tasks` (2 <= tasks <= step->max_tasks) of one of op's
 * steps: the task's share of the split extent, cut at a multiple of
 * split_unit. A GATHER task's kernel checks its own tuples again (cheap
 * next to the copy; tmv_step_check_task has passed on every task). */
void tmv_step_run_task(const tmv_op *op, const tmv_step *step, const void *const *inputs, void *const *outputs,
                       uint32_t task, uint32_t tasks);

/* Whether every index tuple of task `task` of `tasks` of op's GATHER step is
 * in range. Sets no error: the caller names the first bad tuple with the
 * serial check when some task finds one. */
bool tmv_step_check_task(const tmv_op *op, const tmv_step *step, const void *const *inputs, uint32_t task,
                         uint32_t tasks);

#endif
