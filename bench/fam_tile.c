/* fam_tile.c - TILE kinds: repeat the innermost dim, an outer dim, all dims (fixed, or any repeats of a 3-D input), and from a padded input.
 *
 * Bytes: read = the input elements' bytes (each needed once), written = the
 * output elements' bytes. */
#include <stdio.h>

#include "cases.h"

static int finish(bench_setup *s, tmv_tensor_desc *in, tmv_tensor_desc *out, uint32_t n,
                  const uint32_t *repeats) {
    for (uint32_t d = 0; d < n; ++d) s->repeats[d] = repeats[d];
    s->u.tile = (tmv_tile_desc){in, out, n, s->repeats};
    s->op = (tmv_op_desc){TMV_OP_TILE, &s->u.tile, 0};
    if (setup_input(s, in) || setup_output(s, out)) return -1;
    s->bytes_read = tensor_elems(in) * tmv_dtype_size(in->dtype);
    s->bytes_written = tensor_elems(out) * tmv_dtype_size(out->dtype);
    return 0;
}

static uint32_t at_least_1(uint64_t v) { return v ? (uint32_t)v : 1; }

/* {rows, p0} x {1, p1}; with pad, the input rows are p0 + pad elements apart. */
static int inner(const bench_case *c, uint64_t target, bench_setup *s, uint32_t pad) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t rows = at_least_1(target / esz / (c->p[0] * c->p[1]));
    const uint32_t in_sizes[2] = {rows, c->p[0]}, strides[2] = {c->p[0] + pad, 1};
    const uint32_t out_sizes[2] = {rows, c->p[0] * c->p[1]}, reps[2] = {1, c->p[1]};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 2, in_sizes, pad ? strides : NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 2, out_sizes, NULL);
    return finish(s, in, out, 2, reps);
}

static int tile_inner(const bench_case *c, uint64_t t, bench_setup *s) { return inner(c, t, s, 0); }
static int tile_padded(const bench_case *c, uint64_t t, bench_setup *s) { return inner(c, t, s, c->p[2]); }

/* {p0, p1} x {R, 1}: a block of rows stacked R times. */
static int tile_outer(const bench_case *c, uint64_t target, bench_setup *s) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t r = at_least_1(target / esz / (c->p[0] * c->p[1]));
    const uint32_t in_sizes[2] = {c->p[0], c->p[1]}, out_sizes[2] = {c->p[0] * r, c->p[1]};
    const uint32_t reps[2] = {r, 1};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 2, in_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 2, out_sizes, NULL);
    return finish(s, in, out, 2, reps);
}

/* {2, 4, 16} x {R, 2, 4}. */
static int tile_all(const bench_case *c, uint64_t target, bench_setup *s) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t r = at_least_1(target / esz / (2 * 4 * 16 * 2 * 4));
    const uint32_t in_sizes[3] = {2, 4, 16}, out_sizes[3] = {2 * r, 8, 64}, reps[3] = {r, 2, 4};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 3, in_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 3, out_sizes, NULL);
    return finish(s, in, out, 3, reps);
}

/* {n, 4, p0} x {r0, r1, r2}, the repeats packed in p1 a byte each
 * (r0 | r1 << 8 | r2 << 16); n makes up the target. */
static int tile_3d(const bench_case *c, uint64_t target, bench_setup *s) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t reps[3] = {c->p[1] & 0xff, (c->p[1] >> 8) & 0xff, (c->p[1] >> 16) & 0xff};
    const uint32_t n = at_least_1(target / esz / ((uint64_t)4 * c->p[0] * reps[0] * reps[1] * reps[2]));
    const uint32_t in_sizes[3] = {n, 4, c->p[0]};
    const uint32_t out_sizes[3] = {n * reps[0], 4 * reps[1], c->p[0] * reps[2]};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 3, in_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 3, out_sizes, NULL);
    return finish(s, in, out, 3, reps);
}

static void label_inner(const bench_case *c, char *buf, size_t n) { snprintf(buf, n, "%ux%u", c->p[0], c->p[1]); }
static void label_outer(const bench_case *c, char *buf, size_t n) { snprintf(buf, n, "%ux%u-rows", c->p[0], c->p[1]); }
static void label_all(const bench_case *c, char *buf, size_t n) { (void)c; snprintf(buf, n, "2x4x16"); }
static void label_3d(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "4x%u-r%ux%ux%u", c->p[0], c->p[1] & 0xff, (c->p[1] >> 8) & 0xff, (c->p[1] >> 16) & 0xff);
}
static void label_padded(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "%ux%u-pad%u", c->p[0], c->p[1], c->p[2]);
}

const bench_kind kind_tile_inner = {"tile", "inner", tile_inner, label_inner};
const bench_kind kind_tile_outer = {"tile", "outer", tile_outer, label_outer};
const bench_kind kind_tile_all = {"tile", "all", tile_all, label_all};
const bench_kind kind_tile_3d = {"tile", "3d", tile_3d, label_3d};
const bench_kind kind_tile_padded = {"tile", "padded", tile_padded, label_padded};
