/* test_kernels_rows.c - the row-wise JOIN/SPLIT kernels on an edge matrix (rows, piece counts, widths, pitches), against the reference, once per kernel set, and which kernel each shape gets. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "reference/reference.h"
#include "test_util.h"

#define MAX_PIECES 17
#define GUARD 64

/* One JOIN/SPLIT along the inner axis of 2-D tensors: pieces {rows, cols[k]}
 * joined into {rows, sum of cols}; pitches padded by the given elements. */
typedef struct rows_case {
    tmv_dtype dtype;
    uint32_t  rows, n;
    uint32_t  cols[MAX_PIECES];
    uint32_t  piece_pad, joined_pad;
} rows_case;

typedef struct tensors {
    uint32_t        sizes[MAX_PIECES + 1][2], strides[MAX_PIECES + 1][2];
    tmv_tensor_desc t[MAX_PIECES + 1];   /* pieces, then the joined tensor */
    size_t          bytes[MAX_PIECES + 1];
} tensors;

static void make_tensors(const rows_case *c, tensors *ts)
{
    const size_t esize = cg_dtype_size(c->dtype);
    uint32_t total = 0;
    for (uint32_t k = 0; k <= c->n; k++) {
        uint32_t cols = k < c->n ? c->cols[k] : total;
        uint32_t pitch = cols + (k < c->n ? c->piece_pad : c->joined_pad);
        total += k < c->n ? cols : 0;
        ts->sizes[k][0] = c->rows;
        ts->sizes[k][1] = cols;
        ts->strides[k][0] = pitch;
        ts->strides[k][1] = 1;
        ts->t[k] = tu_tensor(c->dtype, 2, ts->sizes[k], ts->strides[k]);
        ts->bytes[k] = ((size_t)(c->rows - 1) * pitch + cols) * esize;
    }
}

/* 64-byte aligned data (GUARD is 64), so that the streaming-store paths run
 * under TENSORMOVE_STREAM_THRESHOLD=1 (the test_kernels_rows_streaming test). */
static unsigned char *canary_area(size_t len)
{
    unsigned char *a = aligned_alloc(64, (len + 2 * GUARD + 63) / 64 * 64);
    cr_assert_not_null(a);
    for (size_t i = 0; i < len + 2 * GUARD; i++)
        a[i] = cg_canary_byte(i);
    return a;
}

/* Runs desc (a JOIN or SPLIT of n pieces) through tmv_execute and through
 * the reference, into equal canary areas, and compares every byte; bytes[k]
 * is piece k's extent, bytes[n] the joined tensor's; `what` names the case
 * in a failure. */
static void check_desc(tmv_isa isa, const tmv_op_desc *desc, uint32_t n, const size_t *bytes, const char *what)
{
    const bool join = desc->type == TMV_OP_JOIN;
    const void *in[MAX_PIECES];
    tu_guarded guarded[MAX_PIECES];
    unsigned char *lib[MAX_PIECES], *ref[MAX_PIECES];
    void *lib_out[MAX_PIECES], *ref_out[MAX_PIECES];
    const uint32_t ins = join ? n : 1, outs = join ? 1 : n;
    for (uint32_t i = 0; i < ins; i++) {
        guarded[i] = tu_guarded_new(bytes[join ? i : n], NULL, i);
        in[i] = guarded[i].data;
    }
    for (uint32_t o = 0; o < outs; o++) {
        size_t len = bytes[join ? n : o];
        lib[o] = canary_area(len);
        ref[o] = canary_area(len);
        lib_out[o] = lib[o] + GUARD;
        ref_out[o] = ref[o] + GUARD;
    }

    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(desc, &op), TMV_OK, "%s", tmv_last_error());
    cr_assert_eq(tmv_reference_execute(op, in, ref_out), TMV_OK);
    tmv_op_destroy(op);
    cr_assert_eq(tmv_execute(desc, in, lib_out), TMV_OK, "%s", tmv_last_error());

    for (uint32_t o = 0; o < outs; o++) {
        size_t len = bytes[join ? n : o] + 2 * GUARD;
        for (size_t i = 0; i < len; i++)
            if (lib[o][i] != ref[o][i])
                cr_assert_fail("set %s, %s %s: output %u byte %ld is 0x%02x, reference 0x%02x", tmv_isa_name(isa),
                               join ? "join" : "split", what, o, (long)i - GUARD, lib[o][i], ref[o][i]);
        free(lib[o]);
        free(ref[o]);
    }
    for (uint32_t i = 0; i < ins; i++)
        tu_guarded_free(&guarded[i]);
}

/* A rows_case through check_desc. */
static void check(tmv_isa isa, const rows_case *c, bool join)
{
    tensors ts;
    make_tensors(c, &ts);
    const uint32_t n = c->n;
    tmv_join_desc jd = {n, ts.t, &ts.t[n], 1};
    tmv_split_desc sd = {&ts.t[n], n, ts.t, 1};
    tmv_op_desc desc = {join ? TMV_OP_JOIN : TMV_OP_SPLIT, join ? (const void *)&jd : (const void *)&sd, 0};
    char what[160];
    snprintf(what, sizeof what, "%s: rows %u, %u pieces (cols %u, %u, ...), pads %u/%u", cg_dtype_name(c->dtype),
             c->rows, n, c->cols[0], c->cols[1], c->piece_pad, c->joined_pad);
    check_desc(isa, &desc, n, ts.bytes, what);
}

static void check_both(tmv_isa isa, const rows_case *c)
{
    check(isa, c, true);
    check(isa, c, false);
}

static const tmv_dtype dtypes[] = {TMV_DTYPE_UINT8, TMV_DTYPE_UINT16, TMV_DTYPE_FLOAT32, TMV_DTYPE_INT64};
static const uint32_t piece_counts[] = {2, 3, 4, 5, 7, 8, 9, 16, 17};

/* Row counts around one vector's worth of rows (64 / w for AVX-512, 16 / w
 * for SSE2) and odd counts. */
static uint32_t row_count(size_t w, unsigned i)
{
    const uint32_t v = w >= 64 ? 1 : (uint32_t)(64 / w), x = w >= 16 ? 1 : (uint32_t)(16 / w);
    const uint32_t list[] = {1, 2, 3, x - 1 ? x - 1 : 1, x + 1, v - 1 ? v - 1 : 1, v, v + 1, 2 * v + 3, 97};
    return list[i];
}
#define ROW_COUNTS 10

static void equal_widths(tmv_isa isa, void *ctx)
{
    (void)ctx;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
        const size_t esize = cg_dtype_size(dtypes[d]);
        for (size_t w = esize; w <= 16; w *= 2)
            for (size_t p = 0; p < sizeof piece_counts / sizeof piece_counts[0]; p++)
                for (unsigned r = 0; r < ROW_COUNTS; r++) {
                    rows_case c = {dtypes[d], row_count(w, r), piece_counts[p], {0}, 0, 0};
                    for (uint32_t k = 0; k < c.n; k++)
                        c.cols[k] = (uint32_t)(w / esize);
                    check_both(isa, &c);
                }
    }
}

Test(kernels_rows, equal_widths)
{
    tu_for_each_isa(equal_widths, NULL);
}

/* Mixed widths (1 to 64 bytes and one wider), and padded pitches. */
static void mixed_and_padded(tmv_isa isa, void *ctx)
{
    (void)ctx;
    static const uint32_t widths[] = {1, 3, 2, 16, 5, 8, 4, 12, 7, 33, 64, 9, 31, 17, 2, 1};
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++)
        for (uint32_t n = 2; n <= 16; n += 3)
            for (unsigned r = 0; r < ROW_COUNTS; r++)
                for (unsigned variant = 0; variant < 4; variant++) {
                    rows_case c = {dtypes[d], row_count(4, r), n, {0}, variant & 1, (variant & 2) ? 3 : 0};
                    for (uint32_t k = 0; k < n; k++)
                        c.cols[k] = variant == 0 ? widths[(k + r) % 16] : 4 / (uint32_t)cg_dtype_size(dtypes[d]) + 1;
                    check_both(isa, &c);
                }
    rows_case wide = {TMV_DTYPE_UINT8, 5, 3, {8, 65, 200}, 0, 0};
    check_both(isa, &wide);
}

Test(kernels_rows, mixed_and_padded)
{
    tu_for_each_isa(mixed_and_padded, NULL);
}

/* Enough rows for the main loops to run many blocks, in every interleave shape. */
static void many_rows(tmv_isa isa, void *ctx)
{
    (void)ctx;
    for (size_t w = 1; w <= 16; w *= 2)
        for (size_t p = 0; p < sizeof piece_counts / sizeof piece_counts[0]; p++) {
            rows_case c = {TMV_DTYPE_UINT8, 1000 + (uint32_t)w, piece_counts[p], {0}, 0, 0};
            for (uint32_t k = 0; k < c.n; k++)
                c.cols[k] = (uint32_t)w;
            check_both(isa, &c);
        }
    /* 64-byte pieces: whole lines, which the column kernels write with
     * streaming stores under test_kernels_rows_streaming, also at padded
     * pitches that keep every row on a line. */
    const uint32_t counts[] = {2, 3, 8};
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (uint32_t pad = 0; pad <= 64; pad += 64) {
            rows_case c = {TMV_DTYPE_UINT8, 777, counts[i], {0}, pad, pad};
            for (uint32_t k = 0; k < c.n; k++)
                c.cols[k] = 64;
            check_both(isa, &c);
        }
    /* Pieces of 4 KiB and more, which the stream kernels take under the
     * streaming rerun: lines split at both ends of most pieces, packed and
     * padded, and the one row of an outer-axis JOIN / SPLIT. */
    rows_case longs = {TMV_DTYPE_UINT8, 3, 3, {4096, 5000, 4161}, 0, 0};
    check_both(isa, &longs);
    longs.piece_pad = 7;
    longs.joined_pad = 5;
    check_both(isa, &longs);
    const rows_case one_row = {TMV_DTYPE_FLOAT32, 1, 2, {1024, 2001}, 0, 0};
    check_both(isa, &one_row);
    /* Pieces of whole lines from 256 bytes, which the stream kernels take
     * too (rows_long.h): packed, and at pitches a line longer. */
    rows_case lines = {TMV_DTYPE_UINT8, 9, 3, {256, 320, 512}, 0, 0};
    check_both(isa, &lines);
    lines.piece_pad = 64;
    lines.joined_pad = 64;
    check_both(isa, &lines);
    /* Pieces that are not whole lines, past L1: AVX-512's line kernels
     * (rows_lines_avx512.h), whose first and last vectors load with care
     * next to the inputs' guard pages; odd row counts leave a tail. */
    const rows_case past_l1[] = {
        {TMV_DTYPE_UINT8, 601, 3, {100, 100, 100}, 0, 0},
        {TMV_DTYPE_UINT8, 997, 4, {31, 77, 13, 100}, 0, 0},
        {TMV_DTYPE_FLOAT32, 333, 2, {25, 33}, 0, 0},
        {TMV_DTYPE_UINT8, 601, 3, {100, 100, 100}, 5, 0},
        {TMV_DTYPE_UINT16, 1201, 8, {50, 50, 50, 50, 50, 50, 50, 50}, 0, 0},
    };
    for (unsigned i = 0; i < sizeof past_l1 / sizeof past_l1[0]; i++)
        check_both(isa, &past_l1[i]);
}

Test(kernels_rows, many_rows)
{
    tu_for_each_isa(many_rows, NULL);
}

/* Past L1, pieces that are not whole lines go to the line kernels where
 * AVX-512 runs, so that many_rows checks them there (under the zen4 cost
 * table, which tests/CMakeLists.txt sets for this file). */
static void lines_chosen(tmv_isa isa, void *ctx)
{
    (void)ctx;
    if (isa != TMV_ISA_AVX512 && isa != TMV_ISA_AVX512_VBMI)
        return;
    const rows_case c = {TMV_DTYPE_UINT8, 601, 3, {100, 100, 100}, 0, 0};
    tensors ts;
    make_tensors(&c, &ts);
    tmv_join_desc jd = {c.n, ts.t, &ts.t[c.n], 1};
    tmv_split_desc sd = {&ts.t[c.n], c.n, ts.t, 1};
    for (int join = 0; join < 2; join++) {
        tmv_op_desc desc = {join ? TMV_OP_JOIN : TMV_OP_SPLIT, join ? (const void *)&jd : (const void *)&sd, 0};
        tmv_op *op = NULL;
        cr_assert_eq(tmv_op_create(&desc, &op), TMV_OK, "%s", tmv_last_error());
        const char *plan = tmv_op_describe(op);
        cr_expect_not_null(strstr(plan, join ? "join_rows_lines/avx512" : "split_rows_lines/avx512"),
                           "set %s, cost table %s: %s", tmv_isa_name(isa), tmv_cost_table_name(), plan);
        tmv_op_destroy(op);
    }
}

Test(kernels_rows, lines_chosen)
{
    tu_for_each_isa(lines_chosen, NULL);
}

/* ---- channels last: JOIN / SPLIT of NHWC tensors along C ----
 * {N, C, H, W} described with strides {H*W*P, 1, W*P, P}, P >= C the pixel
 * pitch: each pixel's channels are a row, and every other dim a row (the
 * planner's ROWS_AXIS_ONLY layout, lower_join_split.c). */
typedef struct nhwc_case {
    tmv_dtype dtype;
    uint32_t  n, h, w, count;
    uint32_t  channels[MAX_PIECES];
    uint32_t  joined_pad;   /* pixel pitch of the joined tensor: its channels + this */
    bool      joined_nchw;  /* the joined tensor packed NCHW instead: no common rows */
} nhwc_case;

static void nhwc_tensor(const nhwc_case *c, uint32_t channels, uint32_t pad, bool nchw, uint32_t *sizes,
                        uint32_t *strides, tmv_tensor_desc *t, size_t *bytes)
{
    const uint32_t p = channels + pad;
    const uint32_t s[4] = {c->n, channels, c->h, c->w};
    const uint32_t nhwc[4] = {c->h * c->w * p, 1, c->w * p, p};
    const uint32_t packed[4] = {channels * c->h * c->w, c->h * c->w, c->w, 1};
    memcpy(sizes, s, sizeof s);
    memcpy(strides, nchw ? packed : nhwc, sizeof nhwc);
    *t = tu_tensor(c->dtype, 4, sizes, strides);
    *bytes = ((size_t)(c->n - 1) * strides[0] + (size_t)(channels - 1) * strides[1] + (size_t)(c->h - 1) * strides[2] +
              (size_t)(c->w - 1) * strides[3] + 1) * cg_dtype_size(c->dtype);
}

/* Checks the case both ways; with `rows`, also that it plans one row-wise
 * step. */
static void check_nhwc(tmv_isa isa, const nhwc_case *c, bool rows)
{
    uint32_t sizes[MAX_PIECES + 1][4], strides[MAX_PIECES + 1][4], total = 0;
    tmv_tensor_desc t[MAX_PIECES + 1];
    size_t bytes[MAX_PIECES + 1];
    for (uint32_t k = 0; k < c->count; k++) {
        nhwc_tensor(c, c->channels[k], 0, false, sizes[k], strides[k], &t[k], &bytes[k]);
        total += c->channels[k];
    }
    nhwc_tensor(c, total, c->joined_pad, c->joined_nchw, sizes[c->count], strides[c->count], &t[c->count],
                &bytes[c->count]);
    char what[160];
    snprintf(what, sizeof what, "%s NHWC {%u, C, %u, %u}, %u pieces (C %u, %u, ...), joined pad %u%s",
             cg_dtype_name(c->dtype), c->n, c->h, c->w, c->count, c->channels[0], c->channels[1], c->joined_pad,
             c->joined_nchw ? ", joined NCHW" : "");
    tmv_join_desc jd = {c->count, t, &t[c->count], 1};
    tmv_split_desc sd = {&t[c->count], c->count, t, 1};
    for (int join = 0; join < 2; join++) {
        tmv_op_desc desc = {join ? TMV_OP_JOIN : TMV_OP_SPLIT, join ? (const void *)&jd : (const void *)&sd, 0};
        check_desc(isa, &desc, c->count, bytes, what);
        if (!rows)
            continue;
        tmv_op *op = NULL;
        cr_assert_eq(tmv_op_create(&desc, &op), TMV_OK, "%s", tmv_last_error());
        const char *plan = tmv_op_describe(op);
        cr_expect_not_null(strstr(plan, join ? ": join_rows" : ": split_rows"), "set %s, %s: one row-wise step, got %s",
                           tmv_isa_name(isa), what, plan);
        tmv_op_destroy(op);
    }
}

static void channels_last(tmv_isa isa, void *ctx)
{
    (void)ctx;
    const nhwc_case cases[] = {
        /* Inception-v3's mixed block and DenseNet's concatenation, shrunk */
        {TMV_DTYPE_FLOAT32, 1, 5, 7, 4, {64, 64, 96, 32}, 0, false},
        {TMV_DTYPE_FLOAT32, 2, 3, 3, 2, {256, 32}, 0, false},
        {TMV_DTYPE_UINT8, 1, 9, 11, 3, {1, 2, 3}, 0, false},
        {TMV_DTYPE_UINT16, 3, 1, 17, 5, {7, 1, 16, 9, 2}, 0, false},
        {TMV_DTYPE_INT64, 1, 4, 4, 2, {3, 5}, 0, false},
        /* a padded joined pixel: rows one pitch apart, wider than the row */
        {TMV_DTYPE_FLOAT32, 2, 4, 5, 3, {8, 4, 12}, 3, false},
        {TMV_DTYPE_UINT8, 1, 1, 1, 2, {5, 6}, 0, false},
    };
    /* the first one's rows beat a copy per piece on every set by the cost
     * model (a strided copy of each piece was all Wave 1 could plan); the
     * others may go either way, and the bytes are checked */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_nhwc(isa, &cases[i], i == 0);
    /* NHWC pieces, NCHW joined tensor: no layout makes both rows, so one
     * strided copy per piece, which must give the same bytes */
    const nhwc_case mixed = {TMV_DTYPE_FLOAT32, 2, 3, 5, 3, {4, 8, 2}, 0, true};
    check_nhwc(isa, &mixed, false);
}

Test(kernels_rows, channels_last)
{
    tu_for_each_isa(channels_last, NULL);
}
