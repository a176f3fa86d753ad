/* test_kernels_gather.c - the GATHER_ND kernels' edge matrix against the reference, on every kernel set, and which kernel each shape gets. */
#define _DEFAULT_SOURCE /* setenv */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "op.h"
#include "reference/reference.h"
#include "test_util.h"

/* One gather: an input of [nb] x dims[0..k) x [row] elements (the batch dim
 * only when batched, the row dim only when row > 0), indices of
 * [nb] x tuples x k, an output of [nb] x tuples x [row] with each output row
 * (or element) pad elements apart beyond its width. */
typedef struct gcase {
    tmv_dtype dtype, itype;
    uint32_t  nb;        /* batch size; 0: no batch dim (b = 0) */
    uint32_t  tuples;    /* per batch */
    uint32_t  k;
    uint32_t  dims[4];   /* the indexed dims' sizes */
    uint32_t  row;       /* slice elements; 0: one element per tuple */
    uint32_t  pad;       /* output padding, elements */
    uint32_t  flags;
} gcase;

static size_t type_size(tmv_dtype t)
{
    return cg_dtype_size(t);
}

/* The descriptions of a case, right-aligned into n dims. */
typedef struct built {
    uint32_t           n, r, q, b;
    uint32_t           in_sizes[TMV_MAX_DIMS], idx_sizes[TMV_MAX_DIMS], out_sizes[TMV_MAX_DIMS];
    uint32_t           out_strides[TMV_MAX_DIMS];
    tmv_tensor_desc    t[3];
    tmv_gather_nd_desc g;
    tmv_op_desc        desc;
    size_t             in_bytes, idx_bytes, out_bytes;
} built;

static void build(built *x, const gcase *c)
{
    const uint32_t b = c->nb ? 1 : 0, has_row = c->row ? 1 : 0;
    x->b = b;
    x->r = b + c->k + has_row;
    x->q = b + 2;
    x->n = x->r > x->q ? x->r : x->q;
    const uint32_t n = x->n;
    for (uint32_t d = 0; d < n; d++)
        x->in_sizes[d] = x->idx_sizes[d] = x->out_sizes[d] = 1;
    /* input */
    uint32_t d = n - x->r;
    if (b)
        x->in_sizes[d++] = c->nb;
    for (uint32_t j = 0; j < c->k; j++)
        x->in_sizes[d++] = c->dims[j];
    if (has_row)
        x->in_sizes[d++] = c->row;
    /* indices */
    if (b)
        x->idx_sizes[n - 3] = c->nb;
    x->idx_sizes[n - 2] = c->tuples;
    x->idx_sizes[n - 1] = c->k;
    /* output: [nb] x tuples x [row], right-aligned, padded */
    const uint32_t m = b + 1 + has_row;
    const uint32_t width = has_row ? c->row : 1, pitch = width + c->pad;
    d = n - m;
    if (b)
        x->out_sizes[d++] = c->nb;
    x->out_sizes[d++] = c->tuples;
    if (has_row)
        x->out_sizes[d++] = c->row;
    for (uint32_t i = 0; i < n; i++)
        x->out_strides[i] = 0;
    x->out_strides[n - 1] = 1;
    if (has_row)
        x->out_strides[n - 2] = pitch;
    else
        x->out_strides[n - 1] = pitch;
    if (b)
        x->out_strides[n - m] = c->tuples * pitch;

    size_t e = type_size(c->dtype), in_elems = 1, idx_elems = 1;
    for (uint32_t i = 0; i < n; i++) {
        in_elems *= x->in_sizes[i];
        idx_elems *= x->idx_sizes[i];
    }
    x->in_bytes = in_elems * e;
    x->idx_bytes = idx_elems * type_size(c->itype);
    const size_t rows = (size_t)(c->nb ? c->nb : 1) * c->tuples;
    x->out_bytes = ((rows - 1) * pitch + width) * e;
    x->t[0] = tu_tensor(c->dtype, n, x->in_sizes, NULL);
    x->t[1] = tu_tensor(c->itype, n, x->idx_sizes, NULL);
    x->t[2] = tu_tensor(c->dtype, n, x->out_sizes, x->out_strides);
    x->g = (tmv_gather_nd_desc){&x->t[0], &x->t[1], &x->t[2], x->r, x->q, b};
    x->desc = (tmv_op_desc){TMV_OP_GATHER_ND, &x->g, c->flags};
}

/* Stores raw index values (two's complement, truncated to the type). */
static void store_indices(uint8_t *p, tmv_dtype t, const uint64_t *v, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (type_size(t) == 4) {
            uint32_t x = (uint32_t)v[i];
            memcpy(p + 4 * i, &x, 4);
        } else {
            memcpy(p + 8 * i, &v[i], 8);
        }
    }
}

static bool is_signed(tmv_dtype t)
{
    return t == TMV_DTYPE_INT32 || t == TMV_DTYPE_INT64;
}

/* In-range values, hitting size-1 and (signed) -size and 0 among random ones. */
static void fill_valid(cg_rng *rng, const gcase *c, uint64_t *v, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const uint64_t size = c->dims[i % c->k];
        const uint64_t pick = cg_rng_below(rng, 8);
        int64_t x;
        if (pick == 0)
            x = (int64_t)size - 1;
        else if (pick == 1)
            x = is_signed(c->itype) ? -(int64_t)size : 0;
        else if (is_signed(c->itype))
            x = (int64_t)cg_rng_below(rng, 2 * size) - (int64_t)size;
        else
            x = (int64_t)cg_rng_below(rng, size);
        v[i] = (uint64_t)x;
    }
}

typedef struct run_ctx {
    const char        *what;
    const tmv_op_desc *desc;
    const void *const *inputs;
    size_t             out_bytes;
    const char        *message;   /* the scalar kernel's error, to match */
} run_ctx;

static void same_message_on_isa(tmv_isa isa, void *p)
{
    const run_ctx *ctx = p;
    tu_guarded out = tu_guarded_new(ctx->out_bytes, NULL, 0);
    void *outs[] = {out.data};
    cr_assert_eq(tmv_execute(ctx->desc, ctx->inputs, outs), TMV_ERR_INDEX_OUT_OF_RANGE, "%s (%s)", ctx->what,
                 tmv_isa_name(isa));
    cr_assert_str_eq(tmv_last_error(), ctx->message, "%s (%s): message", ctx->what, tmv_isa_name(isa));
    tu_guarded_free(&out);
}

/* Runs the case with these raw index values on every kernel set against the
 * reference: the same bytes, or the same failure, message included. */
static void run_case(const char *what, const gcase *c, const uint64_t *values)
{
    built x;
    build(&x, c);
    tu_guarded in = tu_guarded_new(x.in_bytes, NULL, 0), idx = tu_guarded_new(x.idx_bytes, NULL, 1);
    store_indices(idx.data, c->itype, values, x.idx_bytes / type_size(c->itype));
    const void *inputs[] = {in.data, idx.data};

    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(&x.desc, &op), TMV_OK, "%s: create: %s", what, tmv_last_error());
    uint8_t *expected = malloc(x.out_bytes);
    cr_assert_not_null(expected);
    for (size_t i = 0; i < x.out_bytes; i++)
        expected[i] = tu_canary_at((int64_t)i);
    void *outs[] = {expected};
    const tmv_status want = tmv_reference_execute(op, inputs, outs);
    tmv_op_destroy(op);

    if (want == TMV_OK) {
        const void *exp[] = {expected};
        tu_expect_outputs(what, &x.desc, inputs, 1, &x.out_bytes, exp);
    } else {
        cr_assert_eq(want, TMV_ERR_INDEX_OUT_OF_RANGE);
        tu_expect_execute_failure(what, &x.desc, inputs, 1, &x.out_bytes, want);
        /* every set names the same first bad tuple as the portable check */
        const tmv_isa saved = tmv_get_isa();
        cr_assert_eq(tmv_set_isa(TMV_ISA_SCALAR), TMV_OK);
        tu_guarded out = tu_guarded_new(x.out_bytes, NULL, 0);
        void *o[] = {out.data};
        cr_assert_eq(tmv_execute(&x.desc, inputs, o), want);
        char message[512];
        snprintf(message, sizeof message, "%s", tmv_last_error());
        cr_assert(strstr(message, "index tuple") != NULL, "%s: message %s", what, message);
        tu_guarded_free(&out);
        cr_assert_eq(tmv_set_isa(saved), TMV_OK);
        run_ctx ctx = {what, &x.desc, inputs, x.out_bytes, message};
        tu_for_each_isa(same_message_on_isa, &ctx);
    }
    free(expected);
    tu_guarded_free(&in);
    tu_guarded_free(&idx);
}

static size_t value_count(const gcase *c)
{
    return (size_t)(c->nb ? c->nb : 1) * c->tuples * c->k;
}

static void run_valid(const char *what, const gcase *c, uint64_t seed)
{
    cg_rng rng = {seed};
    const size_t count = value_count(c);
    uint64_t *v = malloc(count * sizeof *v);
    cr_assert_not_null(v);
    fill_valid(&rng, c, v, count);
    run_case(what, c, v);
    free(v);
}

static const tmv_dtype index_types[] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32, TMV_DTYPE_UINT64};
/* 1, around one vector of 32-bit indices (16) and of tuples (8), odd, and
 * past the offset ring (two chunks of 64) */
static const uint32_t tuple_counts[] = {1, 7, 8, 9, 15, 16, 17, 37, 200};

static tmv_dtype dtype_of_width(uint32_t w)
{
    switch (w) {
    case 1: return TMV_DTYPE_UINT8;
    case 2: return TMV_DTYPE_FLOAT16;
    case 4: return TMV_DTYPE_FLOAT32;
    default: return TMV_DTYPE_INT64;
    }
}

Test(gather_kernels, element_matrix)
{
    const uint64_t seed = tu_seed("gather_kernels/element_matrix");
    const uint32_t widths[] = {1, 2, 4, 8};
    for (size_t w = 0; w < 4; w++)
        for (size_t t = 0; t < 4; t++)
            for (uint32_t k = 1; k <= 4; k++)
                for (size_t n = 0; n < sizeof tuple_counts / sizeof *tuple_counts; n++) {
                    gcase c = {dtype_of_width(widths[w]), index_types[t], 0, tuple_counts[n], k,
                               {5, 3, 7, 2}, 0, 0, 0};
                    char what[96];
                    snprintf(what, sizeof what, "elements w%u %s k%u x%u", widths[w],
                             cg_dtype_name(index_types[t]), k, tuple_counts[n]);
                    run_valid(what, &c, seed + w * 1000 + t * 100 + k * 10 + n);
                }
}

Test(gather_kernels, row_matrix)
{
    const uint64_t seed = tu_seed("gather_kernels/row_matrix");
    /* row bytes: below, at and around each vector width, and long */
    const uint32_t rows[] = {3, 4, 5, 8, 12, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 100, 128, 130, 1024, 1030};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        for (size_t t = 0; t < 4; t++)
            for (uint32_t k = 1; k <= 3; k++) {
                const uint32_t counts[] = {1, 9, 70};
                for (size_t n = 0; n < 3; n++) {
                    gcase c = {TMV_DTYPE_UINT32, index_types[t], 0, counts[n], k, {6, 2, 3, 2}, rows[i], 0, 0};
                    c.row = rows[i] / 4 ? rows[i] / 4 : 1;
                    if (rows[i] % 4 != 0) { /* odd byte counts: 1-byte elements */
                        c.dtype = TMV_DTYPE_UINT8;
                        c.row = rows[i];
                    }
                    char what[96];
                    snprintf(what, sizeof what, "rows %uB %s k%u x%u", rows[i], cg_dtype_name(index_types[t]),
                             k, counts[n]);
                    run_valid(what, &c, seed + i * 1000 + t * 100 + k * 10 + n);
                }
            }
}

Test(gather_kernels, padded_outputs_and_batches)
{
    const uint64_t seed = tu_seed("gather_kernels/padded_outputs_and_batches");
    for (size_t t = 0; t < 4; t++) {
        const gcase cases[] = {
            {TMV_DTYPE_FLOAT32, index_types[t], 0, 37, 1, {50}, 16, 3, 0},    /* padded rows */
            {TMV_DTYPE_FLOAT32, index_types[t], 0, 37, 3, {4, 5, 6}, 0, 2, 0}, /* padded elements */
            {TMV_DTYPE_FLOAT32, index_types[t], 3, 17, 1, {40}, 64, 0, 0},    /* batch, 256-byte rows */
            {TMV_DTYPE_FLOAT32, index_types[t], 3, 17, 1, {40}, 64, 5, 0},    /* batch, padded */
            {TMV_DTYPE_INT64, index_types[t], 4, 9, 2, {3, 5}, 0, 0, 0},      /* batch, elements */
            {TMV_DTYPE_FLOAT32, index_types[t], 5, 1, 1, {7}, 0, 0, 0},       /* batch of single tuples */
            {TMV_DTYPE_FLOAT32, index_types[t], 2, 20, 2, {3, 4}, 0, 1, 0},   /* batch, padded elements */
        };
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            char what[96];
            snprintf(what, sizeof what, "layout %zu %s", i, cg_dtype_name(index_types[t]));
            run_valid(what, &cases[i], seed + t * 100 + i);
        }
    }
}

/* Out-of-range values of each kind for a dim of `size`. */
static size_t bad_values(tmv_dtype t, uint64_t size, uint64_t *out)
{
    size_t n = 0;
    out[n++] = size;
    if (is_signed(t)) {
        out[n++] = (uint64_t)(-(int64_t)size - 1);
        out[n++] = type_size(t) == 4 ? (uint64_t)(int64_t)INT32_MIN : (uint64_t)INT64_MIN;
        out[n++] = type_size(t) == 4 ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
    } else {
        out[n++] = type_size(t) == 4 ? UINT32_MAX : UINT64_MAX;
        out[n++] = (uint64_t)1 << (type_size(t) == 4 ? 31 : 63);   /* negative if read signed */
    }
    return n;
}

/* One bad value at every position of 17 tuples (past one 16-lane vector of
 * values, so every lane and the tail, up to the last tuple; k = 3 spans a
 * check period of three vectors), each kind. */
Test(gather_kernels, out_of_range_everywhere)
{
    const uint64_t seed = tu_seed("gather_kernels/out_of_range_everywhere");
    for (size_t t = 0; t < 4; t++)
        for (uint32_t k = 1; k <= 4; k++)
            for (uint32_t row = 0; row <= 16; row += 16) {
                gcase c = {TMV_DTYPE_FLOAT32, index_types[t], 0, 17, k, {9, 4, 6, 3}, row, 0, 0};
                const size_t count = value_count(&c);
                uint64_t v[80], bad[4];
                cg_rng rng = {seed + t * 10 + k};
                for (size_t pos = 0; pos < count; pos++) {
                    const size_t kinds = bad_values(c.itype, c.dims[pos % k], bad);
                    const size_t kind = pos % kinds;
                    fill_valid(&rng, &c, v, count);
                    v[pos] = bad[kind];
                    char what[96];
                    snprintf(what, sizeof what, "bad %s k%u row%u at %zu kind %zu", cg_dtype_name(c.itype), k,
                             row, pos, kind);
                    run_case(what, &c, v);
                }
            }
}

/* The first bad tuple is named even with more after it, in a batch too. */
Test(gather_kernels, first_bad_tuple_named)
{
    for (size_t t = 0; t < 4; t++) {
        gcase c = {TMV_DTYPE_FLOAT32, index_types[t], 2, 40, 2, {6, 5}, 8, 0, 0};
        uint64_t v[160];
        cg_rng rng = {t + 1};
        fill_valid(&rng, &c, v, value_count(&c));
        v[2 * 53 + 1] = 5;    /* batch 1, tuple 13, component 1 */
        v[2 * 70] = 99;       /* later ones */
        v[2 * 79 + 1] = 77;
        run_case("first bad tuple", &c, v);
    }
}

Test(gather_kernels, clamp_flag)
{
    const uint64_t seed = tu_seed("gather_kernels/clamp_flag");
    for (size_t t = 0; t < 4; t++)
        for (uint32_t k = 1; k <= 4; k++)
            for (uint32_t row = 0; row <= 64; row += 32) {
                gcase c = {TMV_DTYPE_FLOAT32, index_types[t], 0, 33, k, {7, 3, 5, 2}, row, 0,
                           TMV_OP_FLAG_CLAMP_INDICES};
                const size_t count = value_count(&c);
                uint64_t v[136], bad[4];
                cg_rng rng = {seed + t * 10 + k + row};
                fill_valid(&rng, &c, v, count);
                for (size_t pos = 0; pos < count; pos += 2) {
                    const size_t kinds = bad_values(c.itype, c.dims[pos % k], bad);
                    v[pos] = bad[pos / 2 % kinds];
                }
                char what[96];
                snprintf(what, sizeof what, "clamp %s k%u row%u", cg_dtype_name(c.itype), k, row);
                run_case(what, &c, v);
            }
}

/* An output of at least the stream threshold takes the non-temporal path. */
Test(gather_kernels, streamed_rows)
{
    setenv("TENSORMOVE_STREAM_THRESHOLD", "4096", 1);
    cr_assert_eq(tmv_dispatch_tuning()->stream_threshold, 4096);
    const uint64_t seed = tu_seed("gather_kernels/streamed_rows");
    const uint32_t rows[] = {16, 64, 1024, 17};
    for (size_t i = 0; i < 4; i++)
        for (size_t t = 0; t < 2; t++) {
            gcase c = {TMV_DTYPE_FLOAT32, index_types[t], 0, 150, 1, {300}, rows[i], 0, 0};
            char what[96];
            snprintf(what, sizeof what, "streamed rows %u %s", rows[i], cg_dtype_name(c.itype));
            run_valid(what, &c, seed + i * 10 + t);
            c.nb = 2; /* batched runs */
            run_valid(what, &c, seed + i * 10 + t + 5);
        }
}

/* A case run at one output offset on every kernel set, whole and as three
 * tasks, against the reference's bytes. */
typedef struct offset_ctx {
    const char          *what;
    const built         *x;
    const void *const   *inputs;
    const unsigned char *want;
    size_t               offset;
} offset_ctx;

/* A pool whose parallelize runs the tasks on the calling thread, last first. */
static void reverse_parallelize(void *pool, tmv_task_fn task, void *context, size_t count)
{
    (void)pool;
    for (size_t i = count; i-- > 0;)
        task(context, i);
}

static void run_at_offset_on_isa(tmv_isa isa, void *p)
{
    const offset_ctx *ctx = p;
    const size_t bytes = ctx->x->out_bytes, guard = 64, area_bytes = bytes + ctx->offset + 2 * guard;
    unsigned char *area = aligned_alloc(64, (area_bytes + 63) / 64 * 64);
    cr_assert_not_null(area);
    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(&ctx->x->desc, &op), TMV_OK, "%s: create: %s", ctx->what, tmv_last_error());
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        memset(area, 0xA5, area_bytes);
        unsigned char *out = area + guard + ctx->offset;
        void *outs[] = {out};
        const tmv_parallel pool = {NULL, threads, reverse_parallelize};
        cr_assert_eq(tmv_op_execute_parallel(op, ctx->inputs, outs, &pool), TMV_OK, "%s: execute: %s", ctx->what,
                     tmv_last_error());
        size_t bad = 0;
        while (bad < bytes && out[bad] == ctx->want[bad])
            bad++;
        cr_assert_eq(bad, bytes, "%s (%s, %u thread(s), %zu bytes past a line): byte %zu differs", ctx->what,
                     tmv_isa_name(isa), threads, ctx->offset, bad);
        for (size_t i = 0; i < area_bytes; i++)
            if (i < guard + ctx->offset || i >= guard + ctx->offset + bytes)
                cr_assert_eq(area[i], 0xA5, "%s (%s, %u thread(s), %zu bytes past a line): guard byte %zu written",
                             ctx->what, tmv_isa_name(isa), threads, ctx->offset, i);
    }
    tmv_op_destroy(op);
    free(area);
}

/* Past the stream threshold, rows of 16-byte multiples that follow one
 * another stream from any 16-byte boundary, by 16-byte stores where the
 * set's wider one does not fit; other rows and offsets store through the
 * cache. Each at outputs on a line, 4, 16 and 48 bytes past one, whole
 * and as three tasks, batched and not. */
Test(gather_kernels, streamed_rows_off_a_line)
{
    setenv("TENSORMOVE_STREAM_THRESHOLD", "4096", 1);
    setenv("TENSORMOVE_TASK_MIN_BYTES", "4096", 1);
    const uint64_t seed = tu_seed("gather_kernels/streamed_rows_off_a_line");
    /* f32 rows of 16, 64, 80, 256, 4096 and 68 bytes; 300 tuples, past the
     * AVX-512 row path's one chunk whose check it fuses (it stores plainly) */
    const uint32_t rows[] = {4, 16, 20, 64, 1024, 17};
    const size_t offsets[] = {0, 4, 16, 48};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (uint32_t nb = 0; nb <= 2; nb += 2) {
            const gcase c = {TMV_DTYPE_FLOAT32, TMV_DTYPE_INT32, nb, 300, 1, {300}, rows[i], 0, 0};
            built x;
            build(&x, &c);
            tu_guarded in = tu_guarded_new(x.in_bytes, NULL, 0), idx = tu_guarded_new(x.idx_bytes, NULL, 1);
            const size_t count = value_count(&c);
            uint64_t *v = malloc(count * sizeof *v);
            cr_assert_not_null(v);
            cg_rng rng = {seed + i * 10 + nb};
            fill_valid(&rng, &c, v, count);
            store_indices(idx.data, c.itype, v, count);
            const void *inputs[] = {in.data, idx.data};
            unsigned char *want = malloc(x.out_bytes);
            cr_assert_not_null(want);
            tmv_op *op = NULL;
            cr_assert_eq(tmv_op_create(&x.desc, &op), TMV_OK, "create: %s", tmv_last_error());
            void *outs[] = {want};
            cr_assert_eq(tmv_reference_execute(op, inputs, outs), TMV_OK);
            tmv_op_destroy(op);
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
                char what[96];
                snprintf(what, sizeof what, "rows of %u bytes%s", rows[i] * 4, nb ? ", batched" : "");
                offset_ctx ctx = {what, &x, inputs, want, offsets[o]};
                tu_for_each_isa(run_at_offset_on_isa, &ctx);
            }
            free(want);
            free(v);
            tu_guarded_free(&in);
            tu_guarded_free(&idx);
        }
}

/* Row runs around the AVX-512 row path's chunk of 256 tuples: up to one
 * chunk its check is fused with the offsets (32-bit indices), past it the
 * indices are checked first and copied chunk by chunk; a bad index at the
 * start, the last lane of a block and the run's end. */
Test(gather_kernels, row_chunks)
{
    const uint64_t seed = tu_seed("gather_kernels/row_chunks");
    const uint32_t counts[] = {255, 256, 257, 600};
    const uint32_t rows[] = {16, 24};   /* 64- and 96-byte rows */
    for (size_t t = 0; t < 4; t++)
        for (uint32_t k = 1; k <= 3; k += 2)
            for (size_t n = 0; n < 4; n++)
                for (size_t i = 0; i < 2; i++) {
                    gcase c = {TMV_DTYPE_FLOAT32, index_types[t], 0, counts[n], k, {900, 3, 7}, rows[i], 0, 0};
                    const size_t count = value_count(&c);
                    uint64_t *v = malloc(count * sizeof *v), bad[4];
                    cr_assert_not_null(v);
                    cg_rng rng = {seed + t * 1000 + k * 100 + n * 10 + i};
                    char what[96];
                    snprintf(what, sizeof what, "row chunk %s k%u x%u row%u", cg_dtype_name(c.itype), k,
                             counts[n], rows[i]);
                    fill_valid(&rng, &c, v, count);
                    run_case(what, &c, v);
                    const size_t at[] = {0, 15 * k + k - 1, count - 1};
                    for (size_t a = 0; a < 3; a++) {
                        fill_valid(&rng, &c, v, count);
                        const size_t kinds = bad_values(c.itype, c.dims[at[a] % k], bad);
                        v[at[a]] = bad[a % kinds];
                        snprintf(what, sizeof what, "row chunk bad %s k%u x%u row%u at %zu", cg_dtype_name(c.itype),
                                 k, counts[n], rows[i], at[a]);
                        run_case(what, &c, v);
                    }
                    free(v);
                }
}

/* ---- the shapes each gather kernel is built for ---- */

/* Rows of a vector and less, several vectors, a page; element gathers of
 * 3 and 4 coordinates; batched runs: each against the reference on every set. */
Test(gather_kernels, kernel_shapes)
{
    const struct {
        gcase       c;
        const char *what;
        uint32_t    row_bytes;
    } shapes[] = {
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT32, 0, 100, 1, {50000}, 16, 0, 0}, "gather_rows", 64},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT64, 0, 100, 1, {50000}, 64, 0, 0}, "gather_rows", 256},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT32, 0, 100, 1, {500}, 1024, 0, 0}, "gather_rows", 4096},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_UINT32, 0, 100, 1, {500}, 8, 0, 0}, "gather_rows", 32},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_UINT64, 0, 100, 1, {500}, 4, 0, 0}, "gather_rows", 16},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT64, 8, 100, 1, {500}, 64, 0, 0}, "gather_rows", 256},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT32, 0, 100, 3, {16, 16, 16}, 0, 0, 0}, "gather_elements", 4},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT64, 0, 100, 4, {4, 4, 4, 4}, 0, 0, 0}, "gather_elements", 4},
        {{TMV_DTYPE_INT64, TMV_DTYPE_UINT32, 0, 100, 2, {4, 4}, 0, 0, 0}, "gather_elements", 8},
        {{TMV_DTYPE_FLOAT32, TMV_DTYPE_INT32, 4, 100, 2, {4, 4}, 0, 0, 0}, "gather_elements", 4},
    };
    const uint64_t seed = tu_seed("gather_kernels/kernel_shapes");
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s of %u bytes, %s indices", shapes[i].what, shapes[i].row_bytes,
                 cg_dtype_name(shapes[i].c.itype));
        run_valid(what, &shapes[i].c, seed + i);
    }
}
