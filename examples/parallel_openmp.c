/* parallel_openmp.c - tmv_op_execute_parallel on OpenMP: the parallel-for adapter is one omp loop.
 *
 * Runs an 8 MiB TILE (a 4x2 repeat of a 1 MiB float matrix) with OpenMP's
 * threads and checks it against tmv_op_execute. An engine on ONNX Runtime
 * or oneDNN writes the same three lines around its own parallel-for.
 * Build: cc -fopenmp parallel_openmp.c -ltensormove */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tensormove.h>

static void parallelize(void *pool, tmv_task_fn task, void *task_context, size_t count)
{
    (void)pool; /* OpenMP's team is implicit */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < (long)count; i++)
        task(task_context, (size_t)i);
}

int main(void)
{
    static const uint32_t in_sizes[] = {512, 512}, out_sizes[] = {2048, 1024}, repeats[] = {4, 2};
    const size_t in_n = (size_t)512 * 512, out_n = (size_t)2048 * 1024;
    float *in = malloc(in_n * sizeof *in), *serial = malloc(out_n * sizeof *in), *parallel = malloc(out_n * sizeof *in);
    if (!in || !serial || !parallel)
        return fprintf(stderr, "out of memory\n"), 1;
    for (size_t i = 0; i < in_n; i++)
        in[i] = (float)i;

    const tmv_tensor_desc input = {TMV_DTYPE_FLOAT32, 2, in_sizes, NULL};
    const tmv_tensor_desc output = {TMV_DTYPE_FLOAT32, 2, out_sizes, NULL};
    const tmv_tile_desc tile = {&input, &output, 2, repeats};
    const tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    tmv_op *op = NULL;
    if (tmv_op_create(&desc, &op) != TMV_OK)
        return fprintf(stderr, "create: %s\n", tmv_last_error()), 1;

    const tmv_parallel pool = {NULL, (uint32_t)omp_get_max_threads(), parallelize};
    const void *inputs[] = {in};
    void *serial_out[] = {serial}, *parallel_out[] = {parallel};
    if (tmv_op_execute(op, inputs, serial_out) != TMV_OK ||
        tmv_op_execute_parallel(op, inputs, parallel_out, &pool) != TMV_OK)
        return fprintf(stderr, "execute: %s\n", tmv_last_error()), 1;
    const int same = memcmp(serial, parallel, out_n * sizeof *in) == 0;
    printf("tile on %u OpenMP threads: %s\n", pool.thread_count,
           same ? "same bytes as tmv_op_execute" : "DIFFERS from tmv_op_execute");

    tmv_op_destroy(op);
    free(in), free(serial), free(parallel);
    return same ? 0 : 1;
}
