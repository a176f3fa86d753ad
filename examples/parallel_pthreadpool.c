/* parallel_pthreadpool.c - tmv_op_execute_parallel on a pthreadpool_t the engine already owns (as XNNPACK's callers do).
 *
 * The adapter is the parallelize function: pthreadpool_task_1d_t and
 * tmv_task_fn have the same shape, void (*)(void *, size_t). The example runs
 * a 4 MiB DEPTH_TO_SPACE on the engine's pool and checks it against
 * tmv_op_execute. Build: cc parallel_pthreadpool.c -ltensormove -lpthreadpool */
#include <pthreadpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tensormove.h>

static void parallelize(void *pool, tmv_task_fn task, void *task_context, size_t count)
{
    pthreadpool_parallelize_1d((pthreadpool_t)pool, task, task_context, count, 0);
}

int main(void)
{
    static const uint32_t in_sizes[] = {1, 64, 128, 128}, out_sizes[] = {1, 16, 256, 256};
    const size_t n = (size_t)64 * 128 * 128;
    float *in = malloc(n * sizeof *in), *serial = malloc(n * sizeof *in), *parallel = malloc(n * sizeof *in);
    pthreadpool_t threads = pthreadpool_create(0); /* the engine's pool: one thread per CPU */
    if (!in || !serial || !parallel || !threads)
        return fprintf(stderr, "out of memory\n"), 1;
    for (size_t i = 0; i < n; i++)
        in[i] = (float)i;

    const tmv_tensor_desc input = {TMV_DTYPE_FLOAT32, 4, in_sizes, NULL};
    const tmv_tensor_desc output = {TMV_DTYPE_FLOAT32, 4, out_sizes, NULL};
    const tmv_depth_to_space_desc d2s = {&input, &output, 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    const tmv_op_desc desc = {TMV_OP_DEPTH_TO_SPACE, &d2s, 0};
    tmv_op *op = NULL;
    if (tmv_op_create(&desc, &op) != TMV_OK)
        return fprintf(stderr, "create: %s\n", tmv_last_error()), 1;

    const tmv_parallel pool = {threads, (uint32_t)pthreadpool_get_threads_count(threads), parallelize};
    const void *inputs[] = {in};
    void *serial_out[] = {serial}, *parallel_out[] = {parallel};
    if (tmv_op_execute(op, inputs, serial_out) != TMV_OK ||
        tmv_op_execute_parallel(op, inputs, parallel_out, &pool) != TMV_OK)
        return fprintf(stderr, "execute: %s\n", tmv_last_error()), 1;
    const int same = memcmp(serial, parallel, n * sizeof *in) == 0;
    printf("depth_to_space on a pthreadpool of %u threads: %s\n", pool.thread_count,
           same ? "same bytes as tmv_op_execute" : "DIFFERS from tmv_op_execute");

    tmv_op_destroy(op);
    pthreadpool_destroy(threads);
    free(in), free(serial), free(parallel);
    return same ? 0 : 1;
}
