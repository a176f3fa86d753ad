/* fam_join_split.c - JOIN and SPLIT kinds: outer axis (few large pieces), inner axis (short pieces), channels last (NHWC along C), transposed inputs.
 *
 * Bytes: read = written = the output elements' bytes (every element is read
 * once and written once). */
#include <stdio.h>

#include "cases.h"

enum { OUTER, INNER, TRANSPOSED };

/* Pieces of {rows, cols} joined into {rows, P*cols} (inner) or {P*rows, cols} (outer). */
static int build(const bench_case *c, uint64_t target, bench_setup *s, int split, int pattern) {
    const uint32_t pieces = c->p[0];
    const size_t esz = tmv_dtype_size(c->dtype);
    uint32_t rows, cols, axis;
    if (pattern == OUTER) {
        cols = (uint32_t)(target / esz / pieces < 1024 ? target / esz / pieces : 1024);
        rows = (uint32_t)(target / esz / cols / pieces);
        axis = 0;
    } else if (pattern == INNER) {
        cols = (uint32_t)(c->p[1] / esz);
        rows = (uint32_t)(target / esz / cols / pieces);
        axis = 1;
    } else {
        cols = c->p[1];
        rows = (uint32_t)(target / esz / cols / pieces);
        axis = 1;
    }
    if (rows == 0) rows = 1;
    const uint32_t piece[2] = {rows, cols};
    const uint32_t whole[2] = {axis == 0 ? rows * pieces : rows, axis == 1 ? cols * pieces : cols};
    const uint32_t transposed[2] = {1, rows};   /* column-major storage of {rows, cols} */

    tmv_tensor_desc *parts = NULL;
    for (uint32_t k = 0; k < pieces; ++k) {
        tmv_tensor_desc *t = setup_tensor(s, c->dtype, 2, piece, pattern == TRANSPOSED ? transposed : NULL);
        if (k == 0) parts = t;
    }
    tmv_tensor_desc *full = setup_tensor(s, c->dtype, 2, whole, NULL);
    return setup_join_split(s, split, full, parts, pieces, axis);
}

static int join_outer(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 0, OUTER); }
/* The same JOIN through the one-shot tmv_execute (create, or find the kept operator; execute). */
static int join_outer_oneshot(const bench_case *c, uint64_t t, bench_setup *s) {
    s->one_shot = 1;
    return build(c, t, s, 0, OUTER);
}
static int join_inner(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 0, INNER); }
static int join_transposed(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 0, TRANSPOSED); }
static int split_outer(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 1, OUTER); }
static int split_inner(const bench_case *c, uint64_t t, bench_setup *s) { return build(c, t, s, 1, INNER); }

/* The outer SPLIT with its outputs bound out of address order, as buffers
 * allocated one by one may come: the k-th bound is the (3k mod n)-th by
 * address (n not a multiple of 3), so execute's overlap check sorts them at
 * every call. */
static int split_outer_shuffled(const bench_case *c, uint64_t t, bench_setup *s) {
    if (build(c, t, s, 1, OUTER)) return -1;
    const uint32_t n = s->out_count;
    void *by_address[SETUP_MAX_BUFFERS];
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t j = k;
        for (; j > 0 && (uintptr_t)by_address[j - 1] > (uintptr_t)s->out[k]; --j) by_address[j] = by_address[j - 1];
        by_address[j] = s->out[k];
    }
    for (uint32_t k = 0; k < n; ++k) s->out[k] = by_address[3 * k % n];
    return 0;
}

/* Channels last: pieces {1, C, H, W} of C*esz = p1 bytes a pixel, NHWC
 * strides, joined along C into {1, P*C, H, W} (the same rows in memory as
 * INNER's, described as DenseNet's and Inception's concatenations are). */
static int build_nhwc(const bench_case *c, uint64_t target, bench_setup *s, int split) {
    const uint32_t pieces = c->p[0];
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t channels = (uint32_t)(c->p[1] / esz);
    uint64_t pixels = target / ((uint64_t)pieces * c->p[1]);
    if (pixels == 0) pixels = 1;
    const uint32_t w = pixels >= 32 ? 32 : (uint32_t)pixels, h = (uint32_t)(pixels / w);
    const uint32_t piece[4] = {1, channels, h, w}, whole[4] = {1, channels * pieces, h, w};
    uint32_t piece_strides[4], whole_strides[4];
    nhwc_strides(piece, piece_strides);
    nhwc_strides(whole, whole_strides);
    tmv_tensor_desc *parts = NULL;
    for (uint32_t k = 0; k < pieces; ++k) {
        tmv_tensor_desc *t = setup_tensor(s, c->dtype, 4, piece, piece_strides);
        if (k == 0) parts = t;
    }
    tmv_tensor_desc *full = setup_tensor(s, c->dtype, 4, whole, whole_strides);
    return setup_join_split(s, split, full, parts, pieces, 1);
}

static int join_nhwc(const bench_case *c, uint64_t t, bench_setup *s) { return build_nhwc(c, t, s, 0); }
static int split_nhwc(const bench_case *c, uint64_t t, bench_setup *s) { return build_nhwc(c, t, s, 1); }

static void label_pieces(const bench_case *c, char *buf, size_t n) { snprintf(buf, n, "%ux", c->p[0]); }
static void label_short(const bench_case *c, char *buf, size_t n) { snprintf(buf, n, "%ux%uB", c->p[0], c->p[1]); }
static void label_cols(const bench_case *c, char *buf, size_t n) { snprintf(buf, n, "%ux%ucols", c->p[0], c->p[1]); }

const bench_kind kind_join_outer = {"join", "outer", join_outer, label_pieces};
const bench_kind kind_join_outer_oneshot = {"join", "outer-oneshot", join_outer_oneshot, label_pieces};
const bench_kind kind_join_inner = {"join", "inner", join_inner, label_short};
const bench_kind kind_join_transposed = {"join", "transposed", join_transposed, label_cols};
const bench_kind kind_split_outer = {"split", "outer", split_outer, label_pieces};
const bench_kind kind_split_outer_shuffled = {"split", "outer-shuffled", split_outer_shuffled, label_pieces};
const bench_kind kind_split_inner = {"split", "inner", split_inner, label_short};
const bench_kind kind_join_nhwc = {"join", "nhwc", join_nhwc, label_short};
const bench_kind kind_split_nhwc = {"split", "nhwc", split_nhwc, label_short};
