/* test_stage.c - steps that stream their stores, on outputs off a 64-byte line: run staged (stage.h), byte for byte what a plain loop gives, on every kernel set, and not a byte outside the output.
 *
 * Run with TENSORMOVE_STREAM_THRESHOLD=4096 (CMakeLists.txt), so that
 * outputs of tens of KiB take the streaming kernels and, off a line, the
 * staging buffer: several chunks of it, and a last chunk that takes a lone
 * slab. */
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

static void run_case(const stage_case *c, tmv_isa isa, run_state *st)
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
    unsigned char *area = aligned_alloc(64, (out_bytes + 64 + 2 * GUARD + 63) / 64 * 64);
    cr_assert(in != NULL && want != NULL && area != NULL);
    for (size_t i = 0; i < in_bytes; i++)
        in[i] = (unsigned char)(i * 131u + 7u + (i >> 8));
    expected_output(c, in, want);

    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(&desc, &op), TMV_OK, "create: %s", tmv_last_error());
    const char *plan = tmv_op_describe(op);
    if (isa == st->default_isa && strstr(plan, "staged by") != NULL)
        st->staged++;
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
        /* offsets of a whole element, as the library requires */
        const size_t off = offsets[o] / e * e;
        unsigned char *out = area + GUARD + off;
        memset(area, 0xA5, out_bytes + 64 + 2 * GUARD);
        const void *ins[1] = {in};
        void *outs[1] = {out};
        cr_assert_eq(tmv_op_execute(op, ins, outs), TMV_OK, "execute: %s", tmv_last_error());
        size_t bad = 0;
        while (bad < out_bytes && out[bad] == want[bad])
            bad++;
        cr_expect_eq(bad, out_bytes,
                     "%s, TILE %ux%u by %ux%u of %zu-byte elements, output %zu bytes past a line (%s): "
                     "byte %zu is 0x%02x, want 0x%02x",
                     tmv_isa_name(isa), c->rows, c->cols, c->rows_repeat, c->cols_repeat, e, off, plan, bad,
                     bad < out_bytes ? out[bad] : 0, bad < out_bytes ? want[bad] : 0);
        for (size_t i = 0; i < GUARD + off; i++)
            cr_expect_eq(area[i], 0xA5, "%s (%s): byte %zu before the output written", tmv_isa_name(isa), plan,
                         GUARD + off - i);
        for (size_t i = GUARD + off + out_bytes; i < out_bytes + 64 + 2 * GUARD; i++)
            cr_expect_eq(area[i], 0xA5, "%s (%s): byte %zu past the output written", tmv_isa_name(isa), plan,
                         i - (GUARD + off + out_bytes));
    }
    tmv_op_destroy(op);
    free(area);
    free(want);
    free(in);
}

static void run_all(tmv_isa isa, void *ctx)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i], isa, ctx);
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
