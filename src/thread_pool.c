/* thread_pool.c - the built-in pool for tmv_op_execute_parallel, on pthreadpool (the pool XNNPACK and PyTorch use). */
#include <pthreadpool.h>
#include <stdlib.h>

#include "error.h"
#include "tensormove.h"

typedef struct thread_pool {
    tmv_parallel  parallel; /* first: the pointer callers hold is the pool's */
    pthreadpool_t threads;
} thread_pool;

/* pthreadpool_task_1d_t and tmv_task_fn are the same type: void (*)(void *, size_t). */
static void parallelize(void *pool, tmv_task_fn task, void *task_context, size_t count)
{
    pthreadpool_parallelize_1d((pthreadpool_t)pool, task, task_context, count, 0);
}

tmv_status tmv_thread_pool_create(uint32_t threads, tmv_parallel **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_thread_pool_create: out is NULL");
    *out = NULL;
    thread_pool *tp = malloc(sizeof *tp);
    if (tp == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "tmv_thread_pool_create: out of memory");
    tp->threads = pthreadpool_create(threads);
    if (tp->threads == NULL) {
        free(tp);
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "tmv_thread_pool_create: could not start %u threads", threads);
    }
    const size_t count = pthreadpool_get_threads_count(tp->threads);
    tp->parallel = (tmv_parallel){tp->threads, count > 0 ? (uint32_t)count : 1, parallelize};
    *out = &tp->parallel;
    return TMV_OK;
}

void tmv_thread_pool_destroy(tmv_parallel *pool)
{
    if (pool == NULL)
        return;
    thread_pool *tp = (thread_pool *)pool;
    pthreadpool_destroy(tp->threads);
    free(tp);
}
