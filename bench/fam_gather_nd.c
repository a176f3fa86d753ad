/* fam_gather_nd.c - GATHER_ND kinds: row gather (embedding lookup) from a fixed or a sized table, element gather, batch dims, padded table.
 *
 * Indices are uniform random (fixed seed) and in range.
 * Bytes: read = the gathered slices' bytes (= the output's) + the indices'
 * bytes, written = the output elements' bytes. */
#include <stdio.h>

#include "cases.h"

#define TABLE_ROWS 50000u

static int finish(bench_setup *s, tmv_tensor_desc *in, tmv_tensor_desc *idx, tmv_tensor_desc *out,
                  uint32_t r, uint32_t q, uint32_t b, const uint32_t *bounds, uint32_t bound_count) {
    s->u.gather_nd = (tmv_gather_nd_desc){in, idx, out, r, q, b};
    s->op = (tmv_op_desc){TMV_OP_GATHER_ND, &s->u.gather_nd, 0};
    const size_t idx_bytes = (size_t)tensor_elems(idx) * tmv_dtype_size(idx->dtype);
    if (setup_input(s, in)) return -1;
    void *ip = setup_buffer(s, idx_bytes, 0);
    if (!ip) return -1;
    fill_indices(ip, idx->dtype, (size_t)tensor_elems(idx), bounds, bound_count, 0x9E3779B97F4A7C15ULL);
    setup_bind_input(s, ip);
    if (setup_output(s, out)) return -1;
    s->bytes_written = tensor_elems(out) * tmv_dtype_size(out->dtype);
    s->bytes_read = s->bytes_written + idx_bytes;
    return 0;
}

static uint32_t at_least_1(uint64_t v) { return v ? (uint32_t)v : 1; }

/* Table {table_rows, row} (rows pad bytes apart beyond the row), indices {M, 1}, output {M, row}. */
static int rows(const bench_case *c, uint64_t target, bench_setup *s, uint32_t pad_bytes, uint32_t table_rows) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t row = (uint32_t)(c->p[0] / esz), m = at_least_1(target / c->p[0]);
    const uint32_t in_sizes[2] = {table_rows, row}, strides[2] = {row + (uint32_t)(pad_bytes / esz), 1};
    const uint32_t idx_sizes[2] = {m, 1}, out_sizes[2] = {m, row}, bound = table_rows;
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 2, in_sizes, pad_bytes ? strides : NULL);
    tmv_tensor_desc *idx = setup_tensor(s, (tmv_dtype)c->p[1], 2, idx_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 2, out_sizes, NULL);
    return finish(s, in, idx, out, 2, 2, 0, &bound, 1);
}

static int gather_rows(const bench_case *c, uint64_t t, bench_setup *s) { return rows(c, t, s, 0, TABLE_ROWS); }
static int gather_padded(const bench_case *c, uint64_t t, bench_setup *s) { return rows(c, t, s, c->p[2], TABLE_ROWS); }
/* A table of p2 KiB. */
static int gather_table(const bench_case *c, uint64_t t, bench_setup *s) {
    return rows(c, t, s, 0, at_least_1(((uint64_t)c->p[2] << 10) / c->p[0]));
}

/* Table {d0, d1, d2} holding target bytes, indices {1, M, 3}, output {1, 1, M}. */
static int gather_elements(const bench_case *c, uint64_t target, bench_setup *s) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t m = at_least_1(target / esz);
    uint32_t d[3] = {1, 1, 1};
    for (uint64_t left = m, k = 0; left > 1; left /= 2, k = (k + 1) % 3) d[k] *= 2;
    const uint32_t idx_sizes[3] = {1, m, 3}, out_sizes[3] = {1, 1, m};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 3, d, NULL);
    tmv_tensor_desc *idx = setup_tensor(s, (tmv_dtype)c->p[0], 3, idx_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 3, out_sizes, NULL);
    return finish(s, in, idx, out, 3, 2, 0, d, 3);
}

/* p2 batches of a {50000/p2, row} table, indices {p2, P, 1}, output {p2, P, row}. */
static int gather_batch(const bench_case *c, uint64_t target, bench_setup *s) {
    const size_t esz = tmv_dtype_size(c->dtype);
    const uint32_t nb = c->p[2], row = (uint32_t)(c->p[0] / esz), per = TABLE_ROWS / nb;
    const uint32_t p = at_least_1(target / c->p[0] / nb);
    const uint32_t in_sizes[3] = {nb, per, row}, idx_sizes[3] = {nb, p, 1}, out_sizes[3] = {nb, p, row};
    tmv_tensor_desc *in = setup_tensor(s, c->dtype, 3, in_sizes, NULL);
    tmv_tensor_desc *idx = setup_tensor(s, (tmv_dtype)c->p[1], 3, idx_sizes, NULL);
    tmv_tensor_desc *out = setup_tensor(s, c->dtype, 3, out_sizes, NULL);
    return finish(s, in, idx, out, 3, 3, 1, &per, 1);
}

static void label_rows(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "%uB-%s", c->p[0], dtype_name((tmv_dtype)c->p[1]));
}
static void label_table(const bench_case *c, char *buf, size_t n) {
    if (c->p[2] >= 1u << 20)
        snprintf(buf, n, "%uB-%s-table%uGiB", c->p[0], dtype_name((tmv_dtype)c->p[1]), c->p[2] >> 20);
    else if (c->p[2] >= 1u << 10)
        snprintf(buf, n, "%uB-%s-table%uMiB", c->p[0], dtype_name((tmv_dtype)c->p[1]), c->p[2] >> 10);
    else
        snprintf(buf, n, "%uB-%s-table%uKiB", c->p[0], dtype_name((tmv_dtype)c->p[1]), c->p[2]);
}
static void label_elements(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "r3-%s", dtype_name((tmv_dtype)c->p[0]));
}
static void label_batch(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "b%u-%uB-%s", c->p[2], c->p[0], dtype_name((tmv_dtype)c->p[1]));
}
static void label_padded(const bench_case *c, char *buf, size_t n) {
    snprintf(buf, n, "%uB-pad%uB-%s", c->p[0], c->p[2], dtype_name((tmv_dtype)c->p[1]));
}

const bench_kind kind_gather_rows = {"gather_nd", "rows", gather_rows, label_rows};
const bench_kind kind_gather_table = {"gather_nd", "table", gather_table, label_table};
const bench_kind kind_gather_elements = {"gather_nd", "elements", gather_elements, label_elements};
const bench_kind kind_gather_batch = {"gather_nd", "batch", gather_batch, label_batch};
const bench_kind kind_gather_padded = {"gather_nd", "padded", gather_padded, label_padded};
