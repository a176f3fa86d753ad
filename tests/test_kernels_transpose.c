/* test_kernels_transpose.c - the x86 2-D transpose copy kernels on transposed (column-major) JOIN, SPLIT and
 * TILE inputs with block sides around every tile size, against the reference on every kernel set, and
 * which kernel each set picks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/reference.h"
#include "test_util.h"

/* Block sides around each tile side (8 and 16 elements) and the panels (64). */
static const uint32_t sides[] = {7, 8, 9, 15, 16, 17, 63, 64, 65, 100};
#define SIDE_COUNT (sizeof sides / sizeof sides[0])

enum kind { JOIN, SPLIT, TILE };
static const char *const kind_names[] = {"join", "split", "tile"};

/* One operator whose first input is an r x c matrix stored column-major with
 * its columns pad elements apart beyond r: JOIN with a packed r x 3 input
 * along axis 1 into an output whose rows are pad elements longer; SPLIT of
 * r x (c + 3) into r x c and r x 3; TILE twice along axis 0. */
typedef struct tr_op {
    uint32_t        in_sizes[2][2], in_strides[2], out_sizes[2][2], out_strides[2];
    tmv_tensor_desc ins[2], outs[2];
    uint32_t        in_count, out_count, repeats[2];
    tmv_join_desc   join;
    tmv_split_desc  split;
    tmv_tile_desc   tile;
    tmv_op_desc     desc;
} tr_op;

static void tr_build(tr_op *o, enum kind kind, tmv_dtype dt, uint32_t r, uint32_t c, uint32_t pad)
{
    memset(o, 0, sizeof *o);
    const uint32_t cc = kind == SPLIT ? c + 3 : c;
    o->in_sizes[0][0] = r;
    o->in_sizes[0][1] = cc;
    o->in_strides[0] = 1;
    o->in_strides[1] = r + pad;
    o->ins[0] = tu_tensor(dt, 2, o->in_sizes[0], o->in_strides);
    o->in_count = o->out_count = 1;
    switch (kind) {
    case JOIN:
        o->in_sizes[1][0] = r;
        o->in_sizes[1][1] = 3;
        o->ins[1] = tu_tensor(dt, 2, o->in_sizes[1], NULL);
        o->in_count = 2;
        o->out_sizes[0][0] = r;
        o->out_sizes[0][1] = c + 3;
        o->out_strides[0] = c + 3 + pad;
        o->out_strides[1] = 1;
        o->outs[0] = tu_tensor(dt, 2, o->out_sizes[0], o->out_strides);
        o->join = (tmv_join_desc){.input_count = 2, .inputs = o->ins, .output = &o->outs[0], .axis = 1};
        o->desc = (tmv_op_desc){TMV_OP_JOIN, &o->join, TMV_OP_FLAG_NONE};
        break;
    case SPLIT:
        o->out_sizes[0][0] = o->out_sizes[1][0] = r;
        o->out_sizes[0][1] = c;
        o->out_sizes[1][1] = 3;
        o->outs[0] = tu_tensor(dt, 2, o->out_sizes[0], NULL);
        o->outs[1] = tu_tensor(dt, 2, o->out_sizes[1], NULL);
        o->out_count = 2;
        o->split = (tmv_split_desc){.input = &o->ins[0], .output_count = 2, .outputs = o->outs, .axis = 1};
        o->desc = (tmv_op_desc){TMV_OP_SPLIT, &o->split, TMV_OP_FLAG_NONE};
        break;
    case TILE:
        o->out_sizes[0][0] = 2 * r;
        o->out_sizes[0][1] = c;
        o->outs[0] = tu_tensor(dt, 2, o->out_sizes[0], NULL);
        o->repeats[0] = 2;
        o->repeats[1] = 1;
        o->tile = (tmv_tile_desc){.input = &o->ins[0], .output = &o->outs[0], .repeats_count = 2,
                                  .repeats = o->repeats};
        o->desc = (tmv_op_desc){TMV_OP_TILE, &o->tile, TMV_OP_FLAG_NONE};
        break;
    }
}

/* Runs the case on every kernel set against the reference's result. */
static void tr_check(enum kind kind, tmv_dtype dt, uint32_t r, uint32_t c, uint32_t pad)
{
    tr_op o;
    tr_build(&o, kind, dt, r, c, pad);
    char what[128];
    snprintf(what, sizeof what, "%s transposed %s %ux%u pad %u", kind_names[kind], cg_dtype_name(dt), r, c, pad);

    tu_guarded in[2];
    const void *ins[2];
    for (uint32_t i = 0; i < o.in_count; i++) {
        in[i] = tu_guarded_new(cg_extent_bytes(&o.ins[i]), NULL, i);
        ins[i] = in[i].data;
    }
    size_t out_bytes[2];
    unsigned char *expected[2];
    void *outs[2];
    for (uint32_t i = 0; i < o.out_count; i++) {
        out_bytes[i] = cg_extent_bytes(&o.outs[i]);
        expected[i] = malloc(out_bytes[i]);
        cr_assert_not_null(expected[i]);
        for (size_t b = 0; b < out_bytes[i]; b++)
            expected[i][b] = tu_canary_at((int64_t)b);   /* gaps between rows keep their canaries */
        outs[i] = expected[i];
    }
    tmv_op *op;
    cr_assert_eq(tmv_op_create(&o.desc, &op), TMV_OK, "%s: %s", what, tmv_last_error());
    cr_assert_eq(tmv_reference_execute(op, ins, outs), TMV_OK, "%s: reference failed", what);
    tmv_op_destroy(op);

    const void *expect[2] = {expected[0], expected[1]};
    tu_expect_outputs(what, &o.desc, ins, o.out_count, out_bytes, expect);
    for (uint32_t i = 0; i < o.out_count; i++)
        free(expected[i]);
    for (uint32_t i = 0; i < o.in_count; i++)
        tu_guarded_free(&in[i]);
}

static void tr_matrix(enum kind kind, tmv_dtype dt)
{
    for (unsigned ri = 0; ri < SIDE_COUNT; ri++)
        for (unsigned ci = 0; ci < SIDE_COUNT; ci++)
            tr_check(kind, dt, sides[ri], sides[ci], (ri + ci) % 3 == 0 ? 0 : 5);
}

Test(kernels_transpose, join_u8) { tr_matrix(JOIN, TMV_DTYPE_UINT8); }
Test(kernels_transpose, join_f16) { tr_matrix(JOIN, TMV_DTYPE_FLOAT16); }
Test(kernels_transpose, join_f32) { tr_matrix(JOIN, TMV_DTYPE_FLOAT32); }
Test(kernels_transpose, join_f64) { tr_matrix(JOIN, TMV_DTYPE_FLOAT64); }
Test(kernels_transpose, split_u8) { tr_matrix(SPLIT, TMV_DTYPE_UINT8); }
Test(kernels_transpose, split_f16) { tr_matrix(SPLIT, TMV_DTYPE_FLOAT16); }
Test(kernels_transpose, split_f32) { tr_matrix(SPLIT, TMV_DTYPE_FLOAT32); }
Test(kernels_transpose, split_f64) { tr_matrix(SPLIT, TMV_DTYPE_FLOAT64); }
Test(kernels_transpose, tile_u8) { tr_matrix(TILE, TMV_DTYPE_UINT8); }
Test(kernels_transpose, tile_f16) { tr_matrix(TILE, TMV_DTYPE_FLOAT16); }
Test(kernels_transpose, tile_f32) { tr_matrix(TILE, TMV_DTYPE_FLOAT32); }
Test(kernels_transpose, tile_f64) { tr_matrix(TILE, TMV_DTYPE_FLOAT64); }
