/* test_infer.c - tmv_infer_output_sizes: the sizes of every random verifier case's outputs, and create's rejections with create's messages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#define CASES_PER_OP 300

#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define COUNT(...) ((uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))
#define TENSOR(dt, ...) ((tmv_tensor_desc){(dt), COUNT(__VA_ARGS__), SIZES(__VA_ARGS__), NULL})
#define F32 TMV_DTYPE_FLOAT32
#define I32 TMV_DTYPE_INT32

/* ---- agreement with the verifier's cases --------------------------------- */

/* Leaves out of c's description every output description inference can do
 * without: NULL for the single output; SPLIT's outputs become split_outputs,
 * which keep only dim_count and sizes (dtype 0, which is no type, shows
 * nothing else is read). c's own tensors, which cg_case_output reads, stay. */
static void strip_outputs(cg_case *c, tmv_tensor_desc split_outputs[CG_MAX_TENSORS])
{
    switch (c->op.type) {
    case TMV_OP_JOIN: c->join.output = NULL; break;
    case TMV_OP_TILE: c->tile.output = NULL; break;
    case TMV_OP_SPACE_TO_DEPTH: c->space_to_depth.output = NULL; break;
    case TMV_OP_DEPTH_TO_SPACE: c->depth_to_space.output = NULL; break;
    case TMV_OP_GATHER_ND: c->gather_nd.output = NULL; break;
    case TMV_OP_SPLIT:
        for (uint32_t o = 0; o < c->split.output_count; o++)
            split_outputs[o] = (tmv_tensor_desc){(tmv_dtype)0, c->split.outputs[o].dim_count,
                                                 c->split.outputs[o].sizes, NULL};
        c->split.outputs = split_outputs;
        break;
    }
}

Test(infer, equals_every_random_case)
{
    const uint64_t seed = tu_seed("infer::equals_every_random_case");
    const cg_options options = cg_default_options();
    for (int t = TMV_OP_JOIN; t <= TMV_OP_GATHER_ND; t++) {
        for (uint64_t k = 0; k < CASES_PER_OP; k++) {
            cg_case *c = cg_case_new((tmv_op_type)t, seed + k, &options);
            cr_assert_not_null(c);
            tmv_tensor_desc split_outputs[CG_MAX_TENSORS];
            strip_outputs(c, split_outputs);
            for (uint32_t o = 0; o < c->output_count; o++) {
                const tmv_tensor_desc *want = cg_case_output(c, o);
                uint32_t dim_count, sizes[TMV_MAX_DIMS];
                const tmv_status status = tmv_infer_output_sizes(&c->op, o, &dim_count, sizes);
                cr_assert_eq(status, TMV_OK, "%s case 0x%llx output %u: %s", cg_op_name((tmv_op_type)t),
                             (unsigned long long)(seed + k), o, tmv_last_error());
                cr_assert_eq(dim_count, want->dim_count, "%s case 0x%llx output %u: dim_count",
                             cg_op_name((tmv_op_type)t), (unsigned long long)(seed + k), o);
                for (uint32_t d = 0; d < dim_count; d++)
                    cr_assert_eq(sizes[d], want->sizes[d], "%s case 0x%llx output %u: sizes[%u] %u, want %u",
                                 cg_op_name((tmv_op_type)t), (unsigned long long)(seed + k), o, d,
                                 sizes[d], want->sizes[d]);
            }
            cg_case_free(c);
        }
    }
}

/* ---- rejections ---------------------------------------------------------- */

/* Inference fails as create does on the same description (whose output is
 * valid, so create's first complaint is about the inputs or members), with
 * create's exact message. */
static void expect_same_rejection(const char *what, const tmv_op_desc *desc)
{
    tmv_op *op;
    const tmv_status created = tmv_op_create(desc, &op);
    char create_message[512];
    snprintf(create_message, sizeof create_message, "%s", tmv_last_error());
    cr_assert_eq(created, TMV_ERR_INVALID_ARGUMENT, "%s: create gave %s", what, tmv_status_string(created));
    uint32_t dim_count = 7, sizes[TMV_MAX_DIMS] = {42};
    cr_assert_eq(tmv_infer_output_sizes(desc, 0, &dim_count, sizes), TMV_ERR_INVALID_ARGUMENT, "%s", what);
    cr_assert_str_eq(tmv_last_error(), create_message, "%s", what);
    cr_assert_eq(dim_count, 0, "%s: *dim_count not 0 after a failure", what);
    cr_assert_eq(sizes[0], 42, "%s: sizes written after a failure", what);
}

/* Inference fails with exactly `message` (where its check differs from create's). */
static void expect_infer_rejection(const char *what, const tmv_op_desc *desc, uint32_t output,
                                   const char *message)
{
    uint32_t dim_count, sizes[TMV_MAX_DIMS];
    cr_assert_eq(tmv_infer_output_sizes(desc, output, &dim_count, sizes), TMV_ERR_INVALID_ARGUMENT, "%s", what);
    cr_assert_str_eq(tmv_last_error(), message, "%s", what);
}

/* A JOIN's inputs or a SPLIT's outputs, *count pieces at *pieces: no pieces,
 * more than TMV_MAX_PIECES and a NULL array are each rejected as create
 * rejects them; both members are put back after. `name` is "input" or
 * "output", as the members are named. */
static void expect_same_piece_list_rejections(const tmv_op_desc *desc, const char *name, uint32_t *count,
                                              const tmv_tensor_desc **pieces)
{
    const uint32_t valid_count = *count;
    const tmv_tensor_desc *const valid_pieces = *pieces;
    char what[64];
    *count = 0;
    snprintf(what, sizeof what, "%s_count 0", name);
    expect_same_rejection(what, desc);
    *count = TMV_MAX_PIECES + 1;
    snprintf(what, sizeof what, "%s_count above TMV_MAX_PIECES", name);
    expect_same_rejection(what, desc);
    *count = valid_count;
    *pieces = NULL;
    snprintf(what, sizeof what, "%ss NULL", name);
    expect_same_rejection(what, desc);
    *pieces = valid_pieces;
}

Test(infer_reject, op_desc_and_arguments)
{
    const tmv_tensor_desc in = TENSOR(F32, 2, 3), out = TENSOR(F32, 2, 6);
    tmv_tile_desc tile = {&in, &out, 2, SIZES(1, 2)};
    uint32_t dim_count, sizes[TMV_MAX_DIMS];
    tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    cr_assert_eq(tmv_infer_output_sizes(&desc, 0, NULL, sizes), TMV_ERR_INVALID_ARGUMENT);
    cr_assert_str_eq(tmv_last_error(), "tmv_infer_output_sizes: dim_count is NULL");
    cr_assert_eq(tmv_infer_output_sizes(&desc, 0, &dim_count, NULL), TMV_ERR_INVALID_ARGUMENT);
    cr_assert_str_eq(tmv_last_error(), "tmv_infer_output_sizes: sizes is NULL");
    expect_infer_rejection("desc NULL", NULL, 0, "tmv_infer_output_sizes: desc is NULL");
    desc.type = (tmv_op_type)99;
    expect_infer_rejection("unknown type", &desc, 0,
                           "tmv_infer_output_sizes: desc->type is 99, which is no tmv_op_type");
    desc.type = TMV_OP_TILE;
    desc.flags = 0x10;
    expect_same_rejection("unknown flag", &desc);
    desc.flags = 0;
    desc.desc = NULL;
    expect_same_rejection("desc->desc NULL", &desc);
    desc.desc = &tile;
    expect_infer_rejection("output 1 of a tile", &desc, 1, "tile: output is 1 but the operator has one output (0)");
}

Test(infer_reject, tensors)
{
    const tmv_tensor_desc out = TENSOR(F32, 2, 6);
    const uint32_t *repeats = SIZES(1, 2);
    tmv_tile_desc tile = {NULL, &out, 2, repeats};
    const tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    expect_same_rejection("input NULL", &desc);
    tmv_tensor_desc in = TENSOR((tmv_dtype)77, 2, 3);
    tile.input = &in;
    expect_same_rejection("unknown dtype", &desc);
    in = (tmv_tensor_desc){F32, 0, SIZES(2, 3), NULL};
    expect_same_rejection("dim_count 0", &desc);
    in = (tmv_tensor_desc){F32, 9, SIZES(1, 1, 1, 1, 1, 1, 1, 2, 3), NULL};
    expect_same_rejection("dim_count 9", &desc);
    in = (tmv_tensor_desc){F32, 2, NULL, NULL};
    expect_same_rejection("sizes NULL", &desc);
    const uint32_t big[] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    in = (tmv_tensor_desc){F32, 3, big, NULL};
    tile.repeats_count = 3;
    tile.repeats = SIZES(1, 1, 1);
    expect_same_rejection("extent overflow", &desc);
}

Test(infer_reject, join)
{
    tmv_tensor_desc inputs[2] = {TENSOR(F32, 2, 3), TENSOR(F32, 2, 4)};
    const tmv_tensor_desc out = TENSOR(F32, 2, 7);
    tmv_join_desc join = {2, inputs, &out, 1};
    const tmv_op_desc desc = {TMV_OP_JOIN, &join, 0};
    expect_same_piece_list_rejections(&desc, "input", &join.input_count, &join.inputs);
    inputs[1].dim_count = 0;
    expect_same_rejection("inputs[1] malformed", &desc);
    inputs[1] = TENSOR(F32, 2, 4);
    join.axis = 2;
    expect_infer_rejection("axis", &desc, 0, "join: axis is 2 but must be less than inputs[0].dim_count 2");
    join.axis = 1;
    inputs[1] = TENSOR(I32, 2, 4);
    expect_infer_rejection("dtype", &desc, 0, "join: inputs[1].dtype is INT32 but inputs[0].dtype is FLOAT32");
    inputs[1] = TENSOR(F32, 1, 2, 4);
    expect_infer_rejection("dim_count", &desc, 0, "join: inputs[1].dim_count is 3 but inputs[0].dim_count is 2");
    inputs[1] = TENSOR(F32, 3, 4);
    expect_infer_rejection("sizes", &desc, 0, "join: inputs[1].sizes[0] is 3 but inputs[0].sizes[0] is 2");
    inputs[0] = TENSOR(F32, 2, UINT32_MAX);
    inputs[1] = TENSOR(F32, 2, 4);
    expect_infer_rejection("axis sum", &desc, 0,
                           "join: inputs[*].sizes[1] (axis) add up to 4294967299, more than a uint32_t size holds");
}

Test(infer_reject, split)
{
    const tmv_tensor_desc in = TENSOR(F32, 2, 7);
    tmv_tensor_desc outputs[2] = {TENSOR(F32, 2, 3), TENSOR(F32, 2, 4)};
    tmv_split_desc split = {&in, 2, outputs, 1};
    const tmv_op_desc desc = {TMV_OP_SPLIT, &split, 0};
    expect_same_piece_list_rejections(&desc, "output", &split.output_count, &split.outputs);
    split.input = NULL;
    expect_same_rejection("input NULL", &desc);
    split.input = &in;
    split.axis = 2;
    expect_same_rejection("axis", &desc);
    split.axis = 1;
    outputs[1] = TENSOR(F32, 1, 2, 4);
    expect_same_rejection("outputs[1].dim_count", &desc);
    outputs[1] = (tmv_tensor_desc){F32, 2, NULL, NULL};
    expect_same_rejection("outputs[1].sizes NULL", &desc);
    outputs[1] = TENSOR(F32, 2, 5);
    expect_same_rejection("axis sizes adding up", &desc);
    outputs[1] = TENSOR(F32, 2, 4);
    expect_infer_rejection("output 2 of 2", &desc, 2, "split: output is 2 but output_count is 2");
}

Test(infer_reject, tile)
{
    const tmv_tensor_desc in = TENSOR(F32, 2, 3), out = TENSOR(F32, 2, 6);
    tmv_tile_desc tile = {&in, &out, 3, SIZES(1, 2, 1)};
    const tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    expect_same_rejection("repeats_count", &desc);
    tile.repeats_count = 2;
    tile.repeats = NULL;
    expect_same_rejection("repeats NULL", &desc);
    tile.repeats = SIZES(1, 0x80000000u);
    expect_infer_rejection("output size overflow", &desc, 0,
                           "tile: input.sizes[1] 3 * repeats[1] 2147483648 is 6442450944, more than a "
                           "uint32_t size holds");
}

/* A SPACE_TO_DEPTH or DEPTH_TO_SPACE description (the two have the same
 * members) that inference rejects: as create does when message is NULL,
 * else with exactly message. */
typedef struct depth_space_rejection {
    const char           *what;
    tmv_tensor_desc       input;
    uint32_t              block_size;
    tmv_depth_space_order order;
    const char           *message;
} depth_space_rejection;

static void expect_depth_space_rejections(tmv_op_type type, const tmv_tensor_desc *output,
                                          const depth_space_rejection *rows, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const depth_space_rejection *r = &rows[i];
        const tmv_space_to_depth_desc s2d = {&r->input, output, r->block_size, r->order};
        const tmv_depth_to_space_desc d2s = {&r->input, output, r->block_size, r->order};
        const void *members = type == TMV_OP_SPACE_TO_DEPTH ? (const void *)&s2d : (const void *)&d2s;
        const tmv_op_desc desc = {type, members, 0};
        if (r->message == NULL)
            expect_same_rejection(r->what, &desc);
        else
            expect_infer_rejection(r->what, &desc, 0, r->message);
    }
}

Test(infer_reject, space_to_depth)
{
    const tmv_tensor_desc out = TENSOR(F32, 1, 8, 2, 2);
    const depth_space_rejection rows[] = {
        {"input.dim_count", TENSOR(F32, 2, 4, 4), 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, NULL},
        {"block_size 0", TENSOR(F32, 1, 2, 4, 4), 0, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, NULL},
        {"order", TENSOR(F32, 1, 2, 4, 4), 2, (tmv_depth_space_order)7, NULL},
        {"H not divisible", TENSOR(F32, 1, 2, 5, 4), 2, TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH, NULL},
        {"W not divisible", TENSOR(F32, 1, 2, 4, 3), 2, TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH, NULL},
        {"C overflow", TENSOR(F32, 1, 0x40000000u, 4, 4), 2, TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH,
         "space_to_depth: output.sizes[1] (C) would be input C 1073741824 * block_size 2 * block_size 2 = "
         "4294967296, more than a uint32_t size holds"},
    };
    expect_depth_space_rejections(TMV_OP_SPACE_TO_DEPTH, &out, rows, sizeof rows / sizeof rows[0]);
}

Test(infer_reject, depth_to_space)
{
    const tmv_tensor_desc out = TENSOR(F32, 1, 2, 4, 4);
    const depth_space_rejection rows[] = {
        {"input.dim_count", TENSOR(F32, 8, 2, 2), 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, NULL},
        {"C not divisible", TENSOR(F32, 1, 6, 2, 2), 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, NULL},
        {"W overflow", TENSOR(F32, 1, 4, 2, 0x80000000u), 2, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW,
         "depth_to_space: output.sizes[3] (W) would be input W 2147483648 * block_size 2 = 4294967296, more "
         "than a uint32_t size holds"},
    };
    expect_depth_space_rejections(TMV_OP_DEPTH_TO_SPACE, &out, rows, sizeof rows / sizeof rows[0]);
}

Test(infer_reject, gather_nd)
{
    const tmv_tensor_desc input = TENSOR(F32, 2, 3, 2), indices = TENSOR(I32, 2, 2, 1);
    const tmv_tensor_desc output = TENSOR(F32, 2, 2, 2);
    const tmv_gather_nd_desc valid = {&input, &indices, &output, 3, 3, 1};
    const tmv_op_desc valid_desc = {TMV_OP_GATHER_ND, &valid, 0};
    uint32_t dim_count, sizes[TMV_MAX_DIMS];
    cr_assert_eq(tmv_infer_output_sizes(&valid_desc, 0, &dim_count, sizes), TMV_OK, "%s", tmv_last_error());

    /* The valid description with one rule broken a row: its indices and dim counts. */
    const struct {
        const char     *what;
        tmv_tensor_desc indices;
        uint32_t        input_dim_count, indices_dim_count, batch_dim_count;
    } rows[] = {
        {"indices dtype", TENSOR(F32, 2, 2, 1), 3, 3, 1},
        {"indices dim_count", TENSOR(I32, 2, 1), 3, 3, 1},
        {"input_dim_count", TENSOR(I32, 2, 2, 1), 4, 3, 1},
        {"indices_dim_count", TENSOR(I32, 2, 2, 1), 3, 0, 1},
        {"input placeholder not 1", TENSOR(I32, 2, 2, 1), 2, 3, 1},
        {"k 0", TENSOR(I32, 2, 2, 0), 3, 3, 1},
        {"batch_dim_count", TENSOR(I32, 2, 2, 1), 3, 3, 3},
        {"b + k > r", TENSOR(I32, 2, 2, 3), 3, 3, 1},
        {"batch sizes differ", TENSOR(I32, 3, 2, 1), 3, 3, 1},
        {"output needs more dimensions", TENSOR(I32, 2, 2, 1), 3, 3, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const tmv_gather_nd_desc g = {&input, &rows[i].indices, &output, rows[i].input_dim_count,
                                      rows[i].indices_dim_count, rows[i].batch_dim_count};
        expect_same_rejection(rows[i].what, &(tmv_op_desc){TMV_OP_GATHER_ND, &g, 0});
    }
}
