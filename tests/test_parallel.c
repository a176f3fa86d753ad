/* test_parallel.c - tmv_op_execute_parallel against tmv_op_execute: same bytes, same statuses, same untouched outputs on
 * error, for every operator on random cases, every kernel set, pools of several shapes; and no pool call for small ops.
 * ctest runs it twice: with TENSORMOVE_TASK_MIN_BYTES=1, so that every step that can split does, and with the default. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casegen.h"
#include "test_util.h"

#define CASES 30

/* A pool that runs the tasks on the calling thread, last first: any task
 * that relied on another's order or on running alone would show. */
static void reverse_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    size_t *calls = pool;
    ++*calls;
    for (size_t i = count; i-- > 0;)
        task(context, i);
}

/* The same in a shuffled order (xorshift64, a fixed seed per pool). */
typedef struct shuffled_pool {
    size_t   calls;
    uint64_t rng;
} shuffled_pool;

static void shuffled_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    shuffled_pool *p = pool;
    size_t order[64];
    cr_assert_leq(count, 64, "%zu tasks for a pool of at most 16 threads", count);
    p->calls++;
    for (size_t i = 0; i < count; i++)
        order[i] = i;
    for (size_t i = count; i > 1; i--) {
        p->rng ^= p->rng << 13, p->rng ^= p->rng >> 7, p->rng ^= p->rng << 17;
        const size_t j = p->rng % i, t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < count; i++)
        task(context, order[i]);
}

static bool split_tasks(void)
{
    const char *v = getenv("TENSORMOVE_TASK_MIN_BYTES");
    return v != NULL && strcmp(v, "1") == 0;
}

/* The case through tmv_op_execute and through tmv_op_execute_parallel with
 * `parallel`: equal statuses and equal bytes in every output area (guard
 * bands and gaps included; on an error both are untouched canaries). */
static void check_parallel(const cg_case *c, const tmv_parallel *parallel)
{
    tmv_op *op = NULL;
    tmv_status s = tmv_op_create(&c->op, &op);
    cr_assert_eq(s, TMV_OK, "create: %s", tmv_last_error());
    cg_outputs *serial = cg_outputs_new(c), *par = cg_outputs_new(c);
    cr_assert(serial != NULL && par != NULL);
    const tmv_status a = tmv_op_execute(op, c->in_ptrs, serial->ptrs);
    const tmv_status b = tmv_op_execute_parallel(op, c->in_ptrs, par->ptrs, parallel);
    cg_mismatch m;
    const bool same = cg_outputs_equal(serial, par, &m);
    if (a != b || !same)
        cg_case_print(c, stderr, "  ");
    cr_expect_eq(b, a, "parallel returned %s, serial %s (%s)", tmv_status_string(b), tmv_status_string(a),
                 tmv_op_describe(op));
    cr_expect(same, "output %u differs at %lld (%s): serial 0x%02x, parallel 0x%02x (%s)", m.output,
              (long long)m.offset, m.where, m.expected, m.actual, tmv_op_describe(op));
    cg_outputs_free(serial);
    cg_outputs_free(par);
    tmv_op_destroy(op);
}

typedef struct sweep {
    tmv_op_type         type;
    uint64_t            seed;
    const tmv_parallel *parallel;
} sweep;

static void sweep_cases(tmv_isa isa, void *ctx)
{
    (void)isa;
    const sweep *s = ctx;
    cg_options options = cg_default_options();
    options.bad_index_percent = 10;
    for (unsigned i = 0; i < CASES; i++) {
        cg_case *c = cg_case_new(s->type, s->seed + i, &options);
        cr_assert_not_null(c);
        check_parallel(c, s->parallel);
        cg_case_free(c);
    }
}

static void each_operator(const char *name, const tmv_parallel *parallel)
{
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++) {
        sweep s = {(tmv_op_type)t, tu_seed(name) + (uint64_t)t * 1000003u, parallel};
        tu_for_each_isa(sweep_cases, &s);
    }
}

Test(parallel, same_bytes_as_serial_on_shuffled_pools_of_2_3_7_16_threads)
{
    static const uint32_t counts[] = {2, 3, 7, 16};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        shuffled_pool pool = {0, 0x9E3779B97F4A7C15u + counts[i]};
        const tmv_parallel parallel = {&pool, counts[i], shuffled_parallelize};
        each_operator("parallel::shuffled", &parallel);
        /* the random cases are small: only a forced split reaches the pool */
        if (split_tasks())
            cr_expect_gt(pool.calls, 0, "%u threads: no step was split although TENSORMOVE_TASK_MIN_BYTES=1",
                         counts[i]);
        else
            cr_expect_eq(pool.calls, 0, "%u threads: a small case called the pool %zu times", counts[i],
                         pool.calls);
    }
}

Test(parallel, same_bytes_as_serial_on_the_built_in_pool)
{
    tmv_parallel *pool = NULL;
    cr_assert_eq(tmv_thread_pool_create(4, &pool), TMV_OK, "%s", tmv_last_error());
    cr_expect_eq(pool->thread_count, 4);
    each_operator("parallel::built_in", pool);
    tmv_thread_pool_destroy(pool);
}

Test(parallel, null_or_one_thread_is_execute)
{
    size_t calls = 0;
    const tmv_parallel one = {&calls, 1, reverse_parallelize};
    each_operator("parallel::one", &one);
    each_operator("parallel::null", NULL);
    cr_expect_eq(calls, 0, "one thread called the pool");
}

/* A float JOIN of two {rows, cols} inputs along the outer axis. */
static tmv_op *outer_join(uint32_t rows, uint32_t cols)
{
    const uint32_t in_sizes[] = {rows, cols}, out_sizes[] = {2 * rows, cols};
    const tmv_tensor_desc ins[] = {{TMV_DTYPE_FLOAT32, 2, in_sizes, NULL}, {TMV_DTYPE_FLOAT32, 2, in_sizes, NULL}};
    const tmv_tensor_desc out = {TMV_DTYPE_FLOAT32, 2, out_sizes, NULL};
    const tmv_join_desc join = {2, ins, &out, 0};
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create_join(&join, 0, &op), TMV_OK, "%s", tmv_last_error());
    return op;
}

/* A 64 MiB JOIN: with the default task size it splits (one row per input:
 * rows x column chunks), and the result equals serial's. */
Test(parallel, a_large_join_splits_and_matches)
{
    const uint32_t rows = 2048, cols = 4096; /* 32 MiB per input, floats */
    const size_t n = (size_t)rows * cols;
    float *a = malloc(n * 4), *b = malloc(n * 4), *s = malloc(2 * n * 4), *p = malloc(2 * n * 4);
    cr_assert(a && b && s && p);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)i, b[i] = -(float)i;
    tmv_op *op = outer_join(rows, cols);
    const void *inputs[] = {a, b};
    void *so[] = {s}, *po[] = {p};
    size_t calls = 0;
    const tmv_parallel reverse = {&calls, 4, reverse_parallelize};
    cr_assert_eq(tmv_op_execute(op, inputs, so), TMV_OK);
    memset(p, 0x5A, 2 * n * 4);
    cr_assert_eq(tmv_op_execute_parallel(op, inputs, po, &reverse), TMV_OK, "%s", tmv_last_error());
    cr_expect_gt(calls, 0, "a 64 MiB JOIN was not split (%s)", tmv_op_describe(op));
    cr_expect(memcmp(s, p, 2 * n * 4) == 0, "parallel JOIN differs from serial");
    tmv_op_destroy(op);
    free(a), free(b), free(s), free(p);
}

/* An 8 KiB JOIN stays on the calling thread, however many threads the pool
 * offers (with the default task size: skipped when ctest forces splits). */
Test(parallel, an_8_KiB_operator_never_calls_the_pool)
{
    if (split_tasks())
        return;
    static float a[16 * 64], b[16 * 64], out[32 * 64];
    tmv_op *op = outer_join(16, 64);
    const void *inputs[] = {a, b};
    void *outputs[] = {out};
    size_t calls = 0;
    const tmv_parallel many = {&calls, 64, reverse_parallelize};
    cr_assert_eq(tmv_op_execute_parallel(op, inputs, outputs, &many), TMV_OK, "%s", tmv_last_error());
    cr_expect_eq(calls, 0, "an 8 KiB JOIN called the pool (%s)", tmv_op_describe(op));
    tmv_op_destroy(op);
}

/* One GATHER_ND index at each edge of its dim (size 5) through both entry
 * points: the parallel index check (reached when ctest forces splits) must
 * agree with the serial one on every type, on -size, size - 1, size, -size - 1
 * and an unsigned 64-bit index of 2^63 or more. */
static void check_edge_index(tmv_dtype type, int64_t bad_or_good, bool valid)
{
    static const uint32_t table_sizes[] = {5, 64}, index_sizes[] = {256, 1}, out_sizes[] = {256, 64};
    static float table[5 * 64], serial[256 * 64], parallel[256 * 64];
    uint8_t indices[256 * 8];
    const size_t width = tmv_dtype_size(type);
    for (size_t i = 0; i < 256; i++) {
        const int64_t v = i == 200 ? bad_or_good : (int64_t)(i % 5);
        memcpy(indices + i * width, &v, width); /* little-endian: the low bytes */
    }
    const tmv_tensor_desc t = {TMV_DTYPE_FLOAT32, 2, table_sizes, NULL}, x = {type, 2, index_sizes, NULL},
                          o = {TMV_DTYPE_FLOAT32, 2, out_sizes, NULL};
    const tmv_gather_nd_desc g = {&t, &x, &o, 2, 2, 0};
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create_gather_nd(&g, 0, &op), TMV_OK, "%s", tmv_last_error());
    const void *inputs[] = {table, indices};
    void *so[] = {serial}, *po[] = {parallel};
    size_t calls = 0;
    const tmv_parallel reverse = {&calls, 4, reverse_parallelize};
    const tmv_status a = tmv_op_execute(op, inputs, so);
    char message[512];
    snprintf(message, sizeof message, "%s", tmv_last_error());
    const tmv_status b = tmv_op_execute_parallel(op, inputs, po, &reverse);
    cr_expect_eq(a, valid ? TMV_OK : TMV_ERR_INDEX_OUT_OF_RANGE, "type %d index %lld: serial %s", (int)type,
                 (long long)bad_or_good, tmv_status_string(a));
    cr_expect_eq(b, a, "type %d index %lld: parallel %s, serial %s", (int)type, (long long)bad_or_good,
                 tmv_status_string(b), tmv_status_string(a));
    if (!valid)
        cr_expect_str_eq(tmv_last_error(), message);
    tmv_op_destroy(op);
}

Test(parallel, gather_index_edges_agree_with_serial)
{
    static const tmv_dtype signed_types[] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64};
    for (size_t i = 0; i < 2; i++) {
        check_edge_index(signed_types[i], 4, true);
        check_edge_index(signed_types[i], -5, true);
        check_edge_index(signed_types[i], 5, false);
        check_edge_index(signed_types[i], -6, false);
    }
    check_edge_index(TMV_DTYPE_UINT32, 4, true);
    check_edge_index(TMV_DTYPE_UINT32, 5, false);
    check_edge_index(TMV_DTYPE_UINT32, -1, false);  /* 0xFFFFFFFF */
    check_edge_index(TMV_DTYPE_UINT64, 4, true);
    check_edge_index(TMV_DTYPE_UINT64, 5, false);
    check_edge_index(TMV_DTYPE_UINT64, INT64_MIN, false); /* 2^63 */
    check_edge_index(TMV_DTYPE_UINT64, -1, false);        /* 2^64 - 1 */
}

/* The fuzzer's find (tests/fuzz/corpus/regression-deep-split): a float16
 * TILE to a strided output whose copy shape is deep enough that a forced
 * split flattens more than 8 dims (the box walker's coordinates were sized
 * for 8). Split when ctest forces it; the bytes must match serial's. */
static void deep_strided_tile(tmv_isa isa, void *unused)
{
    (void)unused;
    static const uint32_t in_sizes[] = {3, 1, 2, 3, 2, 2, 2, 2}, in_strides[] = {120, 120, 60, 19, 9, 4, 2, 1},
                          out_sizes[] = {3, 1, 2, 6, 4, 4, 4, 2},
                          out_strides[] = {198, 594, 24, 4, 2389, 49, 597, 1}, repeats[] = {1, 1, 1, 2, 2, 2, 2, 1};
    enum { OUT_BYTES = 2 * (2 * 198 + 24 + 5 * 4 + 3 * 2389 + 3 * 49 + 3 * 597 + 1 + 1) };
    static uint16_t in[2 * 120 + 60 + 2 * 19 + 9 + 4 + 2 + 1 + 1];
    static uint8_t serial[OUT_BYTES], parallel[OUT_BYTES];
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        in[i] = (uint16_t)(i * 2654435761u >> 7);
    const tmv_tensor_desc input = {TMV_DTYPE_FLOAT16, 8, in_sizes, in_strides},
                          output = {TMV_DTYPE_FLOAT16, 8, out_sizes, out_strides};
    const tmv_tile_desc tile = {&input, &output, 8, repeats};
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create_tile(&tile, 0, &op), TMV_OK, "%s", tmv_last_error());
    const void *inputs[] = {in};
    void *so[] = {serial}, *po[] = {parallel};
    cr_assert_eq(tmv_op_execute(op, inputs, so), TMV_OK, "%s", tmv_last_error());
    /* task boundaries fall at different depths for each count */
    for (uint32_t threads = 2; threads <= 16; threads++) {
        shuffled_pool pool = {0, 12345u + threads};
        const tmv_parallel par = {&pool, threads, shuffled_parallelize};
        memset(parallel, 0, sizeof parallel);
        cr_assert_eq(tmv_op_execute_parallel(op, inputs, po, &par), TMV_OK, "%s", tmv_last_error());
        cr_expect(memcmp(serial, parallel, sizeof serial) == 0, "%s, %u threads: parallel TILE differs from serial (%s)",
                  tmv_isa_name(isa), threads, tmv_op_describe(op));
        if (split_tasks())
            cr_expect_gt(pool.calls, 0, "the TILE was not split although TENSORMOVE_TASK_MIN_BYTES=1");
    }
    tmv_op_destroy(op);
}

Test(parallel, a_deep_strided_tile_splits_and_matches)
{
    tu_for_each_isa(deep_strided_tile, NULL);
}

Test(parallel, rejects_a_pool_without_threads_or_function)
{
    static const float x[] = {1, 2};
    float y[2];
    static const uint32_t sizes[] = {2};
    const tmv_tensor_desc t = {TMV_DTYPE_FLOAT32, 1, sizes, NULL};
    const tmv_join_desc join = {1, &t, &t, 0};
    const tmv_op_desc desc = {TMV_OP_JOIN, &join, 0};
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(&desc, &op), TMV_OK);
    const void *in[] = {x};
    void *out[] = {y};
    size_t calls = 0;
    const tmv_parallel none = {&calls, 0, reverse_parallelize}, nofn = {&calls, 2, NULL};
    cr_expect_eq(tmv_op_execute_parallel(op, in, out, &none), TMV_ERR_INVALID_ARGUMENT);
    cr_expect_str_eq(tmv_last_error(), "tmv_op_execute_parallel: parallel->thread_count is 0 and parallelize is set; "
                                       "it needs at least 1 thread and a parallelize function");
    cr_expect_eq(tmv_op_execute_parallel(op, in, out, &nofn), TMV_ERR_INVALID_ARGUMENT);
    cr_expect_eq(tmv_op_execute_parallel(NULL, in, out, NULL), TMV_ERR_INVALID_ARGUMENT);
    cr_expect_str_eq(tmv_last_error(), "tmv_op_execute_parallel: op is NULL");
    cr_expect_eq(tmv_thread_pool_create(2, NULL), TMV_ERR_INVALID_ARGUMENT);
    tmv_op_destroy(op);
}
