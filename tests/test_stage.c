/* test_stage.c - TILE, JOIN and SPLIT steps that stream their stores, on outputs off a 64-byte line: run staged (stage.h), whole or as a parallel execute's tasks, byte for byte what a plain loop gives, on every kernel set, and not a byte outside the output.
 *
 * Run with TENSORMOVE_STREAM_THRESHOLD=4096 (CMakeLists.txt), so that
 * outputs of tens of KiB take the streaming kernels and, off a line, the
 * staging buffer: several chunks of it, and a last chunk that takes a lone
 * slab; and with TENSORMOVE_TASK_MIN_BYTES=4096, so that a parallel
 * execute cuts them into tasks, each staged on its own. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* TILE of an R x C input by repeats {RR, K}: a row broadcast (C = 1), rows
 * repeated along the last axis, a block repeated down the first. */
typedef struct stage_case {
    tmv_dtype dtype;
    uint32_t  rows, cols, rows_repeat, cols_repeat;
} stage_case;

static const stage_case cases[] = {
    {TMV_DTYPE_UINT16, 1000, 1, 1, 64},   /* each element 64 times: the byte permutes */
    {TMV_DTYPE_FLOAT32, 700, 3, 1, 8},    /* a row of 3 eight times */
    {TMV_DTYPE_UINT8, 4001, 1, 1, 8},     /* the interleave of rows */
    {TMV_DTYPE_FLOAT32, 257, 16, 1, 64},  /* a 64-byte pattern */
    {TMV_DTYPE_UINT8, 40, 1024, 1, 3},    /* blocks of 1 KiB */
    {TMV_DTYPE_UINT16, 1, 4096, 33, 1},   /* a row stacked 33 times */
    {TMV_DTYPE_FLOAT64, 256, 1, 1, 16},   /* one slab past a chunk: it joins the last chunk */
};

/* Bytes past a line the output starts at: on it, off it by an element, by
 * malloc's 16 and by most of a line. */
static const size_t offsets[] = {0, 1, 16, 48};

#define GUARD 64u

typedef struct run_state {
    unsigned staged; /* cases whose plan stages a step, under the default set */
    tmv_isa  default_isa;
} run_state;

static size_t dtype_bytes(tmv_dtype t)
{
    return cg_dtype_size(t);
}

/* The output a plain loop gives: out[r][c] = in[r % rows][c % cols]. */
static void expected_output(const stage_case *c, const unsigned char *in, unsigned char *out)
{
    const size_t e = dtype_bytes(c->dtype), out_cols = (size_t)c->cols * c->cols_repeat;
    for (size_t r = 0; r < (size_t)c->rows * c->rows_repeat; r++)
        for (size_t k = 0; k < out_cols; k++)
            memcpy(out + (r * out_cols + k) * e, in + ((r % c->rows) * c->cols + k % c->cols) * e, e);
}

/* A pool of which parallelize runs the tasks on the calling thread, last
 * first: each task a part of a step, each part staged on its own. */
static void reverse_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    (void)pool;
    for (size_t i = count; i-- > 0;)
        task(context, i);
}

/* Runs desc's op (count outputs, output o of out_bytes[o], elements of e
 * bytes) from ins with every output at each of `offsets` past a line, on
 * one thread and as three tasks, and expects want[o] there and the guard
 * bytes around each untouched. */
#define MOST_OUTPUTS 8
static void check_at_offsets(const char *what, const tmv_op_desc *desc, const void *const *ins, uint32_t count,
                             const unsigned char *const *want, const size_t *out_bytes, size_t e, tmv_isa isa,
                             run_state *st)
{
    unsigned char *area[MOST_OUTPUTS];
    size_t area_bytes[MOST_OUTPUTS];
    cr_assert_leq(count, MOST_OUTPUTS);
    for (uint32_t k = 0; k < count; k++) {
        area_bytes[k] = out_bytes[k] + 64 + 2 * GUARD;
        area[k] = aligned_alloc(64, (area_bytes[k] + 63) / 64 * 64);
        cr_assert_not_null(area[k]);
    }
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(desc, &op), TMV_OK, "%s: create: %s", what, tmv_last_error());
    const char *plan = tmv_op_describe(op);
    if (isa == st->default_isa && strstr(plan, "staged by") != NULL)
        st->staged++;
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            const size_t off = offsets[o] / e * e; /* offsets of a whole element, as the library requires */
            void *outs[MOST_OUTPUTS];
            for (uint32_t k = 0; k < count; k++) {
                memset(area[k], 0xA5, area_bytes[k]);
                outs[k] = area[k] + GUARD + off;
            }
            const tmv_parallel pool = {NULL, threads, reverse_parallelize};
            cr_assert_eq(tmv_op_execute_parallel(op, ins, outs, &pool), TMV_OK, "%s: execute: %s", what,
                         tmv_last_error());
            for (uint32_t k = 0; k < count; k++) {
                const unsigned char *out = outs[k];
                size_t bad = 0;
                while (bad < out_bytes[k] && out[bad] == want[k][bad])
                    bad++;
                cr_expect_eq(bad, out_bytes[k],
                             "%s, %s, %u thread(s), output %u %zu bytes past a line (%s): byte %zu is 0x%02x, want "
                             "0x%02x",
                             tmv_isa_name(isa), what, threads, k, off, plan, bad, bad < out_bytes[k] ? out[bad] : 0,
                             bad < out_bytes[k] ? want[k][bad] : 0);
                for (size_t i = 0; i < GUARD + off; i++)
                    cr_expect_eq(area[k][i], 0xA5, "%s, %s, %u thread(s) (%s): byte %zu before output %u written",
                                 tmv_isa_name(isa), what, threads, plan, GUARD + off - i, k);
                for (size_t i = GUARD + off + out_bytes[k]; i < area_bytes[k]; i++)
                    cr_expect_eq(area[k][i], 0xA5, "%s, %s, %u thread(s) (%s): byte %zu past output %u written",
                                 tmv_isa_name(isa), what, threads, plan, i - (GUARD + off + out_bytes[k]), k);
            }
        }
    tmv_op_destroy(op);
    for (uint32_t k = 0; k < count; k++)
        free(area[k]);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 131u + 7u + (i >> 8) + salt * 29u);
}

static void run_tile(const stage_case *c, tmv_isa isa, run_state *st)
{
    const size_t e = dtype_bytes(c->dtype);
    const size_t in_bytes = (size_t)c->rows * c->cols * e;
    const size_t out_bytes = in_bytes * c->rows_repeat * c->cols_repeat;
    const uint32_t in_sizes[2] = {c->rows, c->cols};
    const uint32_t out_sizes[2] = {c->rows * c->rows_repeat, c->cols * c->cols_repeat};
    const uint32_t repeats[2] = {c->rows_repeat, c->cols_repeat};
    tmv_tensor_desc in_t = tu_tensor(c->dtype, 2, in_sizes, NULL), out_t = tu_tensor(c->dtype, 2, out_sizes, NULL);
    tmv_tile_desc tile = {&in_t, &out_t, 2, repeats};
    tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    unsigned char *in = malloc(in_bytes), *want = malloc(out_bytes);
    cr_assert(in != NULL && want != NULL);
    fill_pattern(in, in_bytes, 0);
    expected_output(c, in, want);
    char what[96];
    snprintf(what, sizeof what, "TILE %ux%u by %ux%u of %zu-byte elements", c->rows, c->cols, c->rows_repeat,
             c->cols_repeat, e);
    const void *ins[1] = {in};
    const unsigned char *wants[1] = {want};
    check_at_offsets(what, &desc, ins, 1, wants, &out_bytes, e, isa, st);
    free(want);
    free(in);
}

/* JOIN of `count` R x W inputs along the last axis, and SPLIT back. */
typedef struct join_case {
    tmv_dtype dtype;
    uint32_t  rows, count, width;
} join_case;

static const join_case joins[] = {
    {TMV_DTYPE_UINT8, 20000, 2, 1},     /* bytes zipped */
    {TMV_DTYPE_FLOAT32, 9001, 2, 1},    /* elements zipped */
    {TMV_DTYPE_UINT8, 3000, 8, 4},      /* eight 4-byte pieces */
    {TMV_DTYPE_UINT16, 3001, 3, 32},    /* 64-byte columns */
    {TMV_DTYPE_UINT8, 2000, 8, 100},    /* pieces of 100 bytes */
};

static void run_join_split(const join_case *c, tmv_isa isa, run_state *st)
{
    const size_t e = dtype_bytes(c->dtype), piece = (size_t)c->width * e, row = piece * c->count;
    const size_t joined_bytes = row * c->rows, piece_bytes = piece * c->rows;
    const uint32_t in_sizes[2] = {c->rows, c->width}, out_sizes[2] = {c->rows, c->width * c->count};
    tmv_tensor_desc piece_t[MOST_OUTPUTS], joined_t = tu_tensor(c->dtype, 2, out_sizes, NULL);
    unsigned char *pieces[MOST_OUTPUTS], *joined = malloc(joined_bytes);
    size_t sizes[MOST_OUTPUTS];
    cr_assert(joined != NULL && c->count <= MOST_OUTPUTS);
    for (uint32_t p = 0; p < c->count; p++) {
        piece_t[p] = tu_tensor(c->dtype, 2, in_sizes, NULL);
        pieces[p] = malloc(piece_bytes);
        sizes[p] = piece_bytes;
        cr_assert_not_null(pieces[p]);
        fill_pattern(pieces[p], piece_bytes, p + 1);
        for (size_t r = 0; r < c->rows; r++)
            memcpy(joined + r * row + p * piece, pieces[p] + r * piece, piece);
    }
    char what[96];
    tmv_join_desc join = {c->count, piece_t, &joined_t, 1};
    tmv_op_desc join_op = {TMV_OP_JOIN, &join, 0};
    snprintf(what, sizeof what, "JOIN of %u %ux%u inputs of %zu-byte elements", c->count, c->rows, c->width, e);
    const unsigned char *joined_want[1] = {joined};
    check_at_offsets(what, &join_op, (const void *const *)pieces, 1, joined_want, &joined_bytes, e, isa, st);
    tmv_split_desc split = {&joined_t, c->count, piece_t, 1};
    tmv_op_desc split_op = {TMV_OP_SPLIT, &split, 0};
    snprintf(what, sizeof what, "SPLIT into %u %ux%u outputs of %zu-byte elements", c->count, c->rows, c->width, e);
    const void *ins[1] = {joined};
    check_at_offsets(what, &split_op, ins, c->count, (const unsigned char *const *)pieces, sizes, e, isa, st);
    for (uint32_t p = 0; p < c->count; p++)
        free(pieces[p]);
    free(joined);
}

static void run_all(tmv_isa isa, void *ctx)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_tile(&cases[i], isa, ctx);
    for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++)
        run_join_split(&joins[i], isa, ctx);
}

Test(stage, outputs_off_a_line_match_a_plain_loop_on_every_kernel_set)
{
    cr_assert_not_null(getenv("TENSORMOVE_STREAM_THRESHOLD"),
                       "run through ctest, which sets TENSORMOVE_STREAM_THRESHOLD=4096: at the default "
                       "threshold these outputs would not stream, nor stage");
    run_state st = {0, tmv_get_isa()};
    tu_for_each_isa(run_all, &st);
#if defined(__x86_64__)
    /* Every x86 set has streaming kernels that only stream whole lines
     * (fill_block_stream/sse2 at the least), so some plans stage. */
    cr_expect_gt(st.staged, 0, "no case's plan stages a step under %s", tmv_isa_name(st.default_isa));
#endif
}
