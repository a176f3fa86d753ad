/* fam_overhead.c - per-call overhead kinds: each operator on a few elements, and one-shot tmv_execute.
 *
 * Time per iteration is the cost of one call. Bytes: read = the inputs'
 * elements' bytes (with GATHER_ND's indices), written = the output's. */
#include <stdio.h>

#include "cases.h"

static int bind_all(bench_setup *s, tmv_tensor_desc *const *ins, uint32_t n_in, tmv_tensor_desc *const *outs,
                    uint32_t n_out) {
    s->bytes_read = s->bytes_written = 0;
    for (uint32_t i = 0; i < n_in; ++i) {
        if (setup_input(s, ins[i])) return -1;
        s->bytes_read += tensor_elems(ins[i]) * tmv_dtype_size(ins[i]->dtype);
    }
    for (uint32_t i = 0; i < n_out; ++i) {
        if (setup_output(s, outs[i])) return -1;
        s->bytes_written += tensor_elems(outs[i]) * tmv_dtype_size(outs[i]->dtype);
    }
    return 0;
}

/* 2 x {2, 3} <-> {2, 6} along axis 1: JOIN or SPLIT. The two pieces'
 * descriptions are set up one after the other: one array. */
static int tiny_join_split(const bench_case *c, bench_setup *s, int split) {
    const uint32_t piece[2] = {2, 3}, whole[2] = {2, 6};
    tmv_tensor_desc *w = setup_tensor(s, c->dtype, 2, whole, NULL);
    tmv_tensor_desc *pieces = setup_tensor(s, c->dtype, 2, piece, NULL);
    setup_tensor(s, c->dtype, 2, piece, NULL); /* pieces[1] */
    return setup_join_split(s, split, w, pieces, 2, 1);
}
static int tiny_join(const bench_case *c, uint64_t t, bench_setup *s) { (void)t; return tiny_join_split(c, s, 0); }
static int tiny_split(const bench_case *c, uint64_t t, bench_setup *s) { (void)t; return tiny_join_split(c, s, 1); }

static int tiny_oneshot(const bench_case *c, uint64_t target, bench_setup *s) {
    s->one_shot = 1;
    return tiny_join(c, target, s);
}

/* {2, 3} x {2, 2} -> {4, 6}. */
static int tiny_tile(const bench_case *c, uint64_t target, bench_setup *s) {
    (void)target;
    const uint32_t in_sizes[2] = {2, 3}, out_sizes[2] = {4, 6};
    tmv_tensor_desc *i = setup_tensor(s, c->dtype, 2, in_sizes, NULL);
    tmv_tensor_desc *o = setup_tensor(s, c->dtype, 2, out_sizes, NULL);
    s->repeats[0] = s->repeats[1] = 2;
    s->u.tile = (tmv_tile_desc){i, o, 2, s->repeats};
    s->op = (tmv_op_desc){TMV_OP_TILE, &s->u.tile, 0};
    return bind_all(s, &i, 1, &o, 1);
}

/* {1, 1, 4, 4} <-> {1, 4, 2, 2}, B = 2, DCR. */
static int tiny_depth_space(const bench_case *c, bench_setup *s, int to_depth) {
    const uint32_t sp_sizes[4] = {1, 1, 4, 4}, dp_sizes[4] = {1, 4, 2, 2};
    tmv_tensor_desc *sp = setup_tensor(s, c->dtype, 4, sp_sizes, NULL);
    tmv_tensor_desc *dp = setup_tensor(s, c->dtype, 4, dp_sizes, NULL);
    if (to_depth) {
        s->u.s2d = (tmv_space_to_depth_desc){sp, dp, 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
        s->op = (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s->u.s2d, 0};
        return bind_all(s, &sp, 1, &dp, 1);
    }
    s->u.d2s = (tmv_depth_to_space_desc){dp, sp, 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    s->op = (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &s->u.d2s, 0};
    return bind_all(s, &dp, 1, &sp, 1);
}
static int tiny_s2d(const bench_case *c, uint64_t t, bench_setup *s) { (void)t; return tiny_depth_space(c, s, 1); }
static int tiny_d2s(const bench_case *c, uint64_t t, bench_setup *s) { (void)t; return tiny_depth_space(c, s, 0); }

/* Table {4, 3}, int32 indices {2, 1} = {3, 1} -> {2, 3}. */
static int tiny_gather(const bench_case *c, uint64_t target, bench_setup *s) {
    (void)target;
    const uint32_t in_sizes[2] = {4, 3}, idx_sizes[2] = {2, 1}, out_sizes[2] = {2, 3};
    tmv_tensor_desc *i = setup_tensor(s, c->dtype, 2, in_sizes, NULL);
    tmv_tensor_desc *x = setup_tensor(s, TMV_DTYPE_INT32, 2, idx_sizes, NULL);
    tmv_tensor_desc *o = setup_tensor(s, c->dtype, 2, out_sizes, NULL);
    s->u.gather_nd = (tmv_gather_nd_desc){i, x, o, 2, 2, 0};
    s->op = (tmv_op_desc){TMV_OP_GATHER_ND, &s->u.gather_nd, 0};
    if (setup_input(s, i)) return -1;
    int32_t *idx = setup_buffer(s, 2 * sizeof *idx, 0);
    if (!idx) return -1;
    idx[0] = 3;
    idx[1] = 1;
    setup_bind_input(s, idx);
    if (setup_output(s, o)) return -1;
    s->bytes_written = tensor_elems(o) * tmv_dtype_size(o->dtype);
    s->bytes_read = s->bytes_written + 2 * sizeof *idx;
    return 0;
}

static void label_2x3(const bench_case *c, char *buf, size_t n) { (void)c; snprintf(buf, n, "2x3"); }
static void label_4x4(const bench_case *c, char *buf, size_t n) { (void)c; snprintf(buf, n, "4x4-B2"); }
static void label_gather(const bench_case *c, char *buf, size_t n) { (void)c; snprintf(buf, n, "4x3-i32"); }

const bench_kind kind_tiny_join = {"overhead", "join", tiny_join, label_2x3};
const bench_kind kind_tiny_split = {"overhead", "split", tiny_split, label_2x3};
const bench_kind kind_tiny_tile = {"overhead", "tile", tiny_tile, label_2x3};
const bench_kind kind_tiny_s2d = {"overhead", "space_to_depth", tiny_s2d, label_4x4};
const bench_kind kind_tiny_d2s = {"overhead", "depth_to_space", tiny_d2s, label_4x4};
const bench_kind kind_tiny_gather = {"overhead", "gather_nd", tiny_gather, label_gather};
const bench_kind kind_tiny_oneshot = {"overhead", "oneshot-join", tiny_oneshot, label_2x3};
