/* test_reject.c - docs/SPEC.md section 7 rejections: exact status, a message naming the member, outputs untouched. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensormove.h"

/* ---- helpers ------------------------------------------------------------- */

#define CANARY 0xA5
#define POOL_BUFS 8
#define POOL_BYTES 4096

/* Compound-literal builders so each test states its shapes in one line. */
#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define COUNT(...) ((uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))
#define TENSOR(dt, ...) ((tmv_tensor_desc){(dt), COUNT(__VA_ARGS__), SIZES(__VA_ARGS__), NULL})
#define STRIDED(dt, strides, ...) \
    ((tmv_tensor_desc){(dt), COUNT(__VA_ARGS__), SIZES(__VA_ARGS__), (strides)})
#define I32 TMV_DTYPE_INT32

/* Buffers generous enough for every rejected description below; distinct
 * arrays so that no overlap check fires before the check under test. */
static unsigned char in_pool[POOL_BUFS][POOL_BYTES];
static unsigned char out_pool[POOL_BUFS][POOL_BYTES];

static void fill_canary(void *buf, size_t bytes)
{
    memset(buf, CANARY, bytes);
}

static int is_canary(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

static void expect_message_mentions(const char *op_name, const char *member)
{
    const char *msg = tmv_last_error();
    cr_assert(msg != NULL && msg[0] != '\0', "tmv_last_error() is empty");
    if (op_name != NULL)
        cr_assert(strstr(msg, op_name) != NULL, "message \"%s\" does not name \"%s\"", msg, op_name);
    cr_assert(strstr(msg, member) != NULL, "message \"%s\" does not mention \"%s\"", msg, member);
}

static void expect_status(tmv_status got, tmv_status want)
{
    cr_assert_eq(got, want, "got %s (\"%s\"), want %s", tmv_status_string(got), tmv_last_error(),
                 tmv_status_string(want));
}

/* tmv_op_create fails with `want`, leaves *out NULL and names the member;
 * tmv_execute on canary-filled buffers fails the same way and writes nothing. */
static void expect_rejected(const tmv_op_desc *desc, tmv_status want, const char *op_name,
                            const char *member)
{
    static union { max_align_t align; unsigned char bytes[64]; } not_an_op;
    tmv_op *op = (tmv_op *)(void *)&not_an_op;
    expect_status(tmv_op_create(desc, &op), want);
    cr_assert_null(op, "*out was not set to NULL on failure");
    expect_message_mentions(op_name, member);

    const void *inputs[POOL_BUFS];
    void *outputs[POOL_BUFS];
    for (int i = 0; i < POOL_BUFS; i++) {
        inputs[i] = in_pool[i];
        outputs[i] = out_pool[i];
        fill_canary(out_pool[i], POOL_BYTES);
    }
    expect_status(tmv_execute(desc, inputs, outputs), want);
    expect_message_mentions(op_name, member);
    for (int i = 0; i < POOL_BUFS; i++)
        cr_assert(is_canary(out_pool[i], POOL_BYTES), "output buffer %d was written", i);
}

static void expect_invalid(const tmv_op_desc *desc, const char *op_name, const char *member)
{
    expect_rejected(desc, TMV_ERR_INVALID_ARGUMENT, op_name, member);
}

static void expect_created(const tmv_op_desc *desc)
{
    tmv_op *op = NULL;
    expect_status(tmv_op_create(desc, &op), TMV_OK);
    cr_assert_not_null(op);
    tmv_op_destroy(op);
}

static tmv_op_desc make_op(tmv_op_type type, const void *desc)
{
    return (tmv_op_desc){type, desc, TMV_OP_FLAG_NONE};
}

/* A valid JOIN of one {2,3} input: the vehicle for tensor-level rejections. */
static tmv_op_desc copy_op(tmv_join_desc *storage, const tmv_tensor_desc *input,
                           const tmv_tensor_desc *output)
{
    *storage = (tmv_join_desc){1, input, output, 0};
    return make_op(TMV_OP_JOIN, storage);
}

/* ---- operator description ------------------------------------------------ */

Test(create, desc_null)
{
    expect_invalid(NULL, "tmv_op_create", "desc");
}

Test(create, out_null)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    expect_status(tmv_op_create(&d, NULL), TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions(NULL, "out");
}

Test(create, operator_desc_null)
{
    tmv_op_desc d = make_op(TMV_OP_TILE, NULL);
    expect_invalid(&d, "tile", "desc");
}

Test(create, unknown_type)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    d.type = (tmv_op_type)99;
    expect_invalid(&d, NULL, "type");
    d.type = (tmv_op_type)0;
    expect_invalid(&d, NULL, "type");
}

Test(create, unknown_flag_bits)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    d.flags = 2;
    expect_invalid(&d, "join", "flags");
    d.flags = TMV_OP_FLAG_CLAMP_INDICES | 0x80000000u;
    expect_invalid(&d, "join", "flags");
}

Test(create, clamp_flag_ignored_by_other_operators)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    d.flags = TMV_OP_FLAG_CLAMP_INDICES;
    expect_created(&d);
}

Test(create, failure_sets_out_null)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 4);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    static union { max_align_t align; unsigned char bytes[64]; } garbage;
    tmv_op *op = (tmv_op *)(void *)&garbage;
    expect_status(tmv_op_create(&d, &op), TMV_ERR_INVALID_ARGUMENT);
    cr_assert_null(op);
}

/* ---- tensor descriptions ------------------------------------------------- */

/* A JOIN of one input (the copy_op vehicle) with a malformed description. */
typedef struct copy_reject {
    const tmv_tensor_desc *input, *output;
    const char            *member;
} copy_reject;

Test(tensor, malformed_descriptions)
{
    const uint32_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 2, 3};
    const uint32_t huge_strides[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 1};
    const uint32_t zero_strides[2] = {0, 1}, overlapping_strides[2] = {2, 1};
    const copy_reject cases[] = {
        {&TENSOR(I32, 2, 3), NULL, "output"},
        {&TENSOR(I32, 2, 3), &(tmv_tensor_desc){I32, 0, SIZES(2, 3), NULL}, "output.dim_count"},
        {&(tmv_tensor_desc){I32, 9, nine, NULL}, &TENSOR(I32, 2, 3), "inputs[0].dim_count"},
        {&(tmv_tensor_desc){I32, 2, NULL, NULL}, &TENSOR(I32, 2, 3), "inputs[0].sizes"},
        {&TENSOR(I32, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu),
         &TENSOR(I32, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu), "extent"},
        {&STRIDED(I32, huge_strides, 0xFFFFFFFFu, 0xFFFFFFFFu, 2),
         &TENSOR(I32, 0xFFFFFFFFu, 0xFFFFFFFFu, 2), "extent"},
        {&TENSOR(I32, 2, 3), &STRIDED(I32, zero_strides, 2, 3), "output.strides[0]"},
        {&TENSOR(I32, 2, 3), &STRIDED(I32, overlapping_strides, 2, 3), "output.strides"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tmv_join_desc j;
        tmv_op_desc d = copy_op(&j, cases[i].input, cases[i].output);
        expect_invalid(&d, "join", cases[i].member);
    }
}

/* Copies of src {1..6} through strided layouts, with `want` the whole
 * destination: padding (CANARY_I32) and anything past it untouched. */
#define CANARY_I32 ((int32_t)0xA5A5A5A5)
#define COPY_DST 10

typedef struct copy_accept {
    const tmv_tensor_desc *input, *output;
    int32_t                want[COPY_DST];
    size_t                 count;   /* destination elements the layout spans */
} copy_accept;

Test(tensor, strided_layouts_accepted)
{
    const uint32_t size_one_zero[3] = {0, 3, 1}, broadcast[2] = {0, 1}, overlapping[2] = {1, 1};
    const uint32_t padded[2] = {5, 1}, transposed[2] = {1, 2};
    const int32_t src[6] = {1, 2, 3, 4, 5, 6}, C = CANARY_I32;
    const copy_accept cases[] = {
        /* a zero stride on an output dimension of size 1 */
        {&TENSOR(I32, 1, 2, 3), &STRIDED(I32, size_one_zero, 1, 2, 3), {1, 2, 3, 4, 5, 6}, 6},
        /* inputs may broadcast and overlap themselves */
        {&STRIDED(I32, broadcast, 2, 3), &TENSOR(I32, 2, 3), {1, 2, 3, 1, 2, 3}, 6},
        {&STRIDED(I32, overlapping, 2, 3), &TENSOR(I32, 2, 3), {1, 2, 3, 2, 3, 4}, 6},
        {&TENSOR(I32, 2, 3), &STRIDED(I32, padded, 2, 3), {1, 2, 3, C, C, 4, 5, 6, C, C}, 10},
        {&TENSOR(I32, 2, 3), &STRIDED(I32, transposed, 2, 3), {1, 4, 2, 5, 3, 6}, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const copy_accept *c = &cases[i];
        int32_t dst[COPY_DST];
        fill_canary(dst, sizeof dst);
        tmv_join_desc j;
        tmv_op_desc d = copy_op(&j, c->input, c->output);
        expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){dst}), TMV_OK);
        cr_assert(memcmp(dst, c->want, c->count * sizeof *dst) == 0, "case %zu: wrong copy or padding written", i);
        cr_assert(is_canary(dst + c->count, (COPY_DST - c->count) * sizeof *dst), "case %zu: wrote past the output", i);
    }
}

/* ---- JOIN / SPLIT ------------------------------------------------------- */

/* JOIN's inputs and SPLIT's outputs are the pieces of a whole tensor (its
 * output, its input); both are checked by the same rules. */
typedef union slab_storage {
    tmv_join_desc  join;
    tmv_split_desc split;
} slab_storage;

static tmv_op_desc slab_op(slab_storage *s, tmv_op_type type, const tmv_tensor_desc *whole, uint32_t count,
                           const tmv_tensor_desc *pieces, uint32_t axis)
{
    if (type == TMV_OP_JOIN) {
        s->join = (tmv_join_desc){count, pieces, whole, axis};
        return make_op(type, &s->join);
    }
    s->split = (tmv_split_desc){whole, count, pieces, axis};
    return make_op(type, &s->split);
}

static const char *slab_op_name(tmv_op_type type)
{
    return type == TMV_OP_JOIN ? "join" : "split";
}

static const char *piece_count_member(tmv_op_type type)
{
    return type == TMV_OP_JOIN ? "input_count" : "output_count";
}

static const tmv_op_type slab_types[2] = {TMV_OP_JOIN, TMV_OP_SPLIT};

/* A count above TMV_MAX_PIECES is rejected before the op, sized by it, is
 * allocated: UINT32_MAX would otherwise ask calloc for hundreds of GiB and
 * fail with TMV_ERR_OUT_OF_MEMORY. pieces holds 2 descriptions; none is read. */
Test(join_split, piece_count_above_max)
{
    const tmv_tensor_desc pieces[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)}, whole = TENSOR(I32, 2, 6);
    for (int t = 0; t < 2; t++) {
        const char *op = slab_op_name(slab_types[t]), *count = piece_count_member(slab_types[t]);
        slab_storage s;
        tmv_op_desc d = slab_op(&s, slab_types[t], &whole, UINT32_MAX, pieces, 1);
        expect_invalid(&d, op, count);
        char want[128];
        snprintf(want, sizeof want, "%s: %s is 4294967295 but must be at most TMV_MAX_PIECES (1048576)", op,
                 count);
        cr_assert_str_eq(tmv_last_error(), want);
        d = slab_op(&s, slab_types[t], &whole, TMV_MAX_PIECES + 1, pieces, 1);
        expect_invalid(&d, op, "is 1048577");
        d = slab_op(&s, slab_types[t], &whole, TMV_MAX_PIECES + 1, NULL, 1); /* the count comes first */
        expect_invalid(&d, op, "is 1048577");
    }
}

/* TMV_MAX_PIECES itself passes the count check: with every description
 * malformed (zeroed: dtype 0), the first piece is what fails. */
Test(join_split, piece_count_at_max_accepted)
{
    const tmv_tensor_desc whole = TENSOR(I32, 2, 6);
    tmv_tensor_desc *pieces = calloc(TMV_MAX_PIECES, sizeof *pieces);
    cr_assert_not_null(pieces);
    for (int t = 0; t < 2; t++) {
        slab_storage s;
        tmv_op_desc d = slab_op(&s, slab_types[t], &whole, TMV_MAX_PIECES, pieces, 1);
        expect_invalid(&d, slab_op_name(slab_types[t]), slab_types[t] == TMV_OP_JOIN ? "inputs[0].dtype"
                                                                                       : "outputs[0].dtype");
    }
    free(pieces);
}

typedef struct slab_reject {
    tmv_op_type            type;
    const tmv_tensor_desc *whole;
    uint32_t               count;
    const tmv_tensor_desc *pieces;
    uint32_t               axis;
    const char            *member;
} slab_reject;

#define PAIR(a, b) ((const tmv_tensor_desc[]){a, b})
#define JOIN TMV_OP_JOIN
#define SPLIT TMV_OP_SPLIT

Test(join_split, malformed_descriptions)
{
    const uint32_t join_overlapping[2] = {3, 1}, split_overlapping[2] = {1, 1};
    const tmv_tensor_desc *t23 = &TENSOR(I32, 2, 3), *t26 = &TENSOR(I32, 2, 6);
    const tmv_tensor_desc *two23 = PAIR(TENSOR(I32, 2, 3), TENSOR(I32, 2, 3));
    const slab_reject cases[] = {
        {JOIN, t23, 0, t23, 0, "input_count"},
        {JOIN, t23, 2, NULL, 0, "inputs"},
        {JOIN, t26, 2, two23, 2, "axis"},
        {JOIN, t26, 2, two23, 0xFFFFFFFFu, "axis"},
        {JOIN, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(TMV_DTYPE_FLOAT32, 2, 3)), 1, "inputs[1].dtype"},
        {JOIN, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(I32, 1, 2, 3)), 1, "inputs[1].dim_count"},
        {JOIN, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(I32, 2, 4)), 1, "output.sizes[1]"},
        {JOIN, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(I32, 2, 2)), 1, "axis"},
        /* 2^31 + 2^31 is 0 in 32 bits: only a 64-bit sum sees the mismatch. */
        {JOIN, &TENSOR(TMV_DTYPE_UINT8, 0, 1), 2,
         PAIR(TENSOR(TMV_DTYPE_UINT8, 0x80000000u, 1), TENSOR(TMV_DTYPE_UINT8, 0x80000000u, 1)), 0, "4294967296"},
        {JOIN, t26, 2, PAIR(TENSOR(I32, 2, 3), ((tmv_tensor_desc){I32, 2, NULL, NULL})), 1, "inputs[1].sizes"},
        {JOIN, &STRIDED(I32, join_overlapping, 2, 6), 2, two23, 1, "output.strides"},
        {SPLIT, t23, 0, t23, 0, "output_count"},
        {SPLIT, t23, 2, NULL, 0, "outputs"},
        {SPLIT, NULL, 1, t23, 0, "input"},
        {SPLIT, t26, 2, two23, 2, "axis"},
        {SPLIT, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(TMV_DTYPE_UINT32, 2, 3)), 1, "outputs[1].dtype"},
        {SPLIT, t26, 2, PAIR(TENSOR(I32, 1, 2, 3), TENSOR(I32, 2, 3)), 1, "outputs[0].dim_count"},
        {SPLIT, t26, 2, PAIR(TENSOR(I32, 2, 3), TENSOR(I32, 1, 3)), 1,
         "outputs[1].sizes[0] is 1 but input.sizes[0] is 2"},
        {SPLIT, &TENSOR(I32, 1, 1, 6, 2), 3,
         (const tmv_tensor_desc[]){TENSOR(I32, 1, 1, 2, 2), TENSOR(I32, 1, 1, 1, 2), TENSOR(I32, 1, 1, 2, 2)}, 2,
         "input.sizes[2]"},
        {SPLIT, &TENSOR(TMV_DTYPE_UINT8, 1, 0), 2,
         PAIR(TENSOR(TMV_DTYPE_UINT8, 1, 0x80000000u), TENSOR(TMV_DTYPE_UINT8, 1, 0x80000000u)), 1, "4294967296"},
        {SPLIT, t26, 2, PAIR(TENSOR(I32, 2, 3), STRIDED(I32, split_overlapping, 2, 3)), 1, "outputs[1].strides"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const slab_reject *c = &cases[i];
        slab_storage s;
        tmv_op_desc d = slab_op(&s, c->type, c->whole, c->count, c->pieces, c->axis);
        expect_invalid(&d, slab_op_name(c->type), c->member);
    }
}

Test(join, non_axis_size_mismatch_message)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 1, 1, 2, 3), TENSOR(I32, 1, 1, 3, 4)};
    tmv_tensor_desc out = TENSOR(I32, 1, 1, 2, 7);
    tmv_join_desc j = {2, in, &out, 3};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "sizes[2]");
    cr_assert_str_eq(tmv_last_error(), "join: inputs[1].sizes[2] is 3 but output.sizes[2] is 2");
}

/* ---- TILE ---------------------------------------------------------------- */

Test(tile, repeats_count_mismatch_message)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 1, 2, 3), out = TENSOR(I32, 1, 1, 6, 9);
    tmv_tile_desc t = {&in, &out, 3, SIZES(1, 3, 3)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "repeats_count");
    cr_assert_str_eq(tmv_last_error(), "tile: repeats_count is 3 but input.dim_count is 4");
}

typedef struct tile_reject {
    const tmv_tensor_desc *input, *output;
    uint32_t               repeats_count;
    const uint32_t        *repeats;
    const char            *member;
} tile_reject;

Test(tile, malformed_descriptions)
{
    const tile_reject cases[] = {
        {&TENSOR(I32, 2, 3), &TENSOR(I32, 2, 3), 9, SIZES(1, 1, 1, 1, 1, 1, 1, 1, 1), "repeats_count"},
        {&TENSOR(I32, 2, 3), &TENSOR(I32, 2, 3), 2, NULL, "repeats"},
        {&TENSOR(I32, 1, 1, 2, 3), &TENSOR(I32, 1, 1, 6, 8), 4, SIZES(1, 1, 3, 3), "output.sizes[3]"},
        /* 0x10000 * 0x10000 is 0 in 32 bits. */
        {&TENSOR(TMV_DTYPE_UINT8, 0x10000u), &TENSOR(TMV_DTYPE_UINT8, 0), 1, SIZES(0x10000u), "4294967296"},
        {&TENSOR(I32, 2, 3), &TENSOR(TMV_DTYPE_FLOAT32, 2, 3), 2, SIZES(1, 1), "dtype"},
        {&TENSOR(I32, 2, 3), &TENSOR(I32, 1, 2, 3), 2, SIZES(1, 1), "dim_count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tile_reject *c = &cases[i];
        tmv_tile_desc t = {c->input, c->output, c->repeats_count, c->repeats};
        tmv_op_desc d = make_op(TMV_OP_TILE, &t);
        expect_invalid(&d, "tile", c->member);
    }
}

Test(tile, zero_repeat_accepted_with_null_output)
{
    const int32_t src[2] = {1, 2};
    tmv_tensor_desc in = TENSOR(I32, 1, 2), out = TENSOR(I32, 0, 2);
    tmv_tile_desc t = {&in, &out, 2, SIZES(0, 1)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){NULL}), TMV_OK);
}

/* ---- SPACE_TO_DEPTH / DEPTH_TO_SPACE ------------------------------------- */

/* Both operators' descriptions have the same members. */
typedef union depth_space_storage {
    tmv_space_to_depth_desc s2d;
    tmv_depth_to_space_desc d2s;
} depth_space_storage;

static tmv_op_desc depth_space_op(depth_space_storage *s, tmv_op_type type, const tmv_tensor_desc *in,
                                  const tmv_tensor_desc *out, uint32_t block_size, tmv_depth_space_order order)
{
    if (type == TMV_OP_SPACE_TO_DEPTH) {
        s->s2d = (tmv_space_to_depth_desc){in, out, block_size, order};
        return make_op(type, &s->s2d);
    }
    s->d2s = (tmv_depth_to_space_desc){in, out, block_size, order};
    return make_op(type, &s->d2s);
}

typedef struct depth_space_reject {
    tmv_op_type            type;
    const tmv_tensor_desc *input, *output;
    uint32_t               block_size;
    tmv_depth_space_order  order;
    const char            *member;
} depth_space_reject;

#define S2D TMV_OP_SPACE_TO_DEPTH
#define D2S TMV_OP_DEPTH_TO_SPACE
#define DCR TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW

Test(depth_space, malformed_descriptions)
{
    const depth_space_reject cases[] = {
        {S2D, &TENSOR(I32, 2, 4, 6), &TENSOR(I32, 1, 8, 2, 3), 2, DCR, "input.dim_count is 3"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 1, 8, 2, 3), 2, DCR, "output.dim_count is 5"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 2, 4, 6), 0, DCR, "block_size"},
        {S2D, &TENSOR(I32, 1, 2, 4, 7), &TENSOR(I32, 1, 8, 2, 3), 2, DCR, "input.sizes[3] (W) is 7"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 4, 2, 3), 2, DCR, "output.sizes[1]"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 2, 8, 2, 3), 2, DCR, "output.sizes[0]"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 8, 2, 6), 2, DCR, "output.sizes[3]"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(TMV_DTYPE_INT16, 1, 8, 2, 3), 2, DCR, "dtype"},
        /* C*B*B = 0x10000 * 0x10000^2 = 2^48, which is 0 in 32 bits. */
        {S2D, &TENSOR(I32, 1, 0x10000u, 0, 0), &TENSOR(I32, 1, 0, 0, 0), 0x10000u, DCR, "output.sizes[1]"},
        /* C*B*B = 4 * (2^31)^2 = 2^64, which is 0 in 64 bits. */
        {S2D, &TENSOR(I32, 1, 4, 0, 0), &TENSOR(I32, 1, 0, 0, 0), 0x80000000u, DCR, "output.sizes[1]"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 8, 2, 3), 2, (tmv_depth_space_order)2, "order"},
        {S2D, &TENSOR(I32, 1, 2, 4, 6), &TENSOR(I32, 1, 8, 2, 3), 2, (tmv_depth_space_order)-1, "order"},
        {D2S, &TENSOR(I32, 1, 8, 2, 3), &TENSOR(I32, 1, 2, 4, 6), 2, (tmv_depth_space_order)7, "order is 7"},
        {D2S, &TENSOR(I32, 8, 2, 3), &TENSOR(I32, 1, 2, 4, 6), 2, DCR, "input.dim_count"},
        {D2S, &TENSOR(I32, 1, 8, 2, 3), &TENSOR(I32, 1, 8, 2, 3), 0, DCR, "block_size"},
        {D2S, &TENSOR(I32, 1, 6, 2, 3), &TENSOR(I32, 1, 1, 4, 6), 2, DCR, "input.sizes[1] (C) is 6"},
        /* B*B = 2^32 is 0 in 32 bits: a 32-bit check would divide by zero. */
        {D2S, &TENSOR(I32, 1, 5, 0, 0), &TENSOR(I32, 1, 0, 0, 0), 0x10000u, DCR, "input.sizes[1] (C) is 5"},
        {D2S, &TENSOR(I32, 1, 8, 2, 3), &TENSOR(I32, 1, 2, 2, 6), 2, DCR, "output.sizes[2] (H) is 2"},
        /* H*B = 2^31 * 2 is 0 in 32 bits. */
        {D2S, &TENSOR(TMV_DTYPE_UINT8, 1, 4, 0x80000000u, 0), &TENSOR(TMV_DTYPE_UINT8, 1, 1, 0, 0), 2,
         DCR, "4294967296"},
        {D2S, &TENSOR(I32, 1, 8, 2, 3), &TENSOR(TMV_DTYPE_UINT32, 1, 2, 4, 6), 2, DCR, "dtype"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const depth_space_reject *c = &cases[i];
        depth_space_storage s;
        tmv_op_desc d = depth_space_op(&s, c->type, c->input, c->output, c->block_size, c->order);
        expect_invalid(&d, c->type == S2D ? "space_to_depth" : "depth_to_space", c->member);
    }
}

Test(space_to_depth, height_not_divisible_message)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 5, 6), out = TENSOR(I32, 1, 8, 2, 3);
    depth_space_storage s;
    tmv_op_desc d = depth_space_op(&s, S2D, &in, &out, 2, DCR);
    expect_invalid(&d, "space_to_depth", "block_size");
    cr_assert_str_eq(tmv_last_error(),
                     "space_to_depth: input.sizes[2] (H) is 5, not divisible by block_size 2");
}

Test(space_to_depth, empty_accepted_with_null_buffers)
{
    tmv_tensor_desc in = TENSOR(I32, 0, 2, 4, 6), out = TENSOR(I32, 0, 8, 2, 3);
    depth_space_storage s;
    tmv_op_desc d = depth_space_op(&s, S2D, &in, &out, 2, DCR);
    expect_status(tmv_execute(&d, (const void *[]){NULL}, (void *[]){NULL}), TMV_OK);
}

/* ---- GATHER_ND ----------------------------------------------------------- */

/* Seed example 2 of docs/SPEC.md 6: r = q = 3, b = 1. */
#define SEED2_INPUT TENSOR(I32, 1, 3, 2, 2)
#define SEED2_INDICES TENSOR(I32, 1, 3, 2, 2)
#define SEED2_OUTPUT TENSOR(I32, 1, 1, 3, 2)

Test(gather_nd, seed_example_2_accepted_and_correct)
{
    tmv_gather_nd_desc g = {&SEED2_INPUT, &SEED2_INDICES, &SEED2_OUTPUT, 3, 3, 1};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    const int32_t input[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const int32_t indices[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    int32_t output[6];
    fill_canary(output, sizeof output);
    expect_status(tmv_execute(&d, (const void *[]){input, indices}, (void *[]){output}), TMV_OK);
    cr_assert(memcmp(output, (const int32_t[]){0, 3, 7, 4, 9, 10}, sizeof output) == 0);
}

Test(gather_nd, index_dtypes_accepted)
{
    const tmv_dtype types[4] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32, TMV_DTYPE_UINT64};
    for (int i = 0; i < 4; i++) {
        tmv_tensor_desc indices = SEED2_INDICES;
        indices.dtype = types[i];
        tmv_gather_nd_desc g = {&SEED2_INPUT, &indices, &SEED2_OUTPUT, 3, 3, 1};
        tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
        expect_created(&d);
    }
}

Test(gather_nd, shape_example_accepted)
{
    tmv_tensor_desc in = TENSOR(I32, 3, 4, 5, 6, 7), idx = TENSOR(I32, 1, 1, 1, 2, 3);
    tmv_tensor_desc out = TENSOR(I32, 1, 1, 2, 6, 7);
    tmv_gather_nd_desc g = {&in, &idx, &out, 5, 3, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_created(&d);
}

typedef struct gather_reject {
    const tmv_tensor_desc *input, *indices, *output;
    uint32_t               input_dim_count, indices_dim_count, batch_dim_count;
    const char            *member;
} gather_reject;

Test(gather_nd, malformed_descriptions)
{
    const tmv_tensor_desc *in = &SEED2_INPUT, *idx = &SEED2_INDICES, *out = &SEED2_OUTPUT;
    const gather_reject cases[] = {
        /* seed example 2 with one member broken */
        {in, &TENSOR(TMV_DTYPE_FLOAT32, 1, 3, 2, 2), out, 3, 3, 1, "indices.dtype is FLOAT32"},
        {in, &TENSOR(TMV_DTYPE_INT16, 1, 3, 2, 2), out, 3, 3, 1, "INT16"},
        {in, &TENSOR(TMV_DTYPE_UINT8, 1, 3, 2, 2), out, 3, 3, 1, "UINT8"},
        {in, idx, &TENSOR(TMV_DTYPE_FLOAT32, 1, 1, 3, 2), 3, 3, 1, "output.dtype"},
        {in, &TENSOR(I32, 3, 2, 2), out, 3, 3, 1, "indices.dim_count"},
        {in, idx, &TENSOR(I32, 3, 2), 3, 3, 1, "output.dim_count"},
        {in, idx, out, 0, 3, 1, "input_dim_count is 0"},
        {in, idx, out, 5, 3, 1, "input_dim_count is 5"},
        {in, idx, out, 3, 0, 1, "indices_dim_count is 0"},
        {in, idx, out, 3, 0xFFFFFFFFu, 1, "indices_dim_count is 4294967295"},
        {&TENSOR(I32, 2, 3, 2, 2), idx, out, 3, 3, 1, "input.sizes[0] is 2"},
        /* indices {1,3,2,2}: sizes[1] = 3 now a leading dim */
        {in, idx, out, 3, 2, 1, "indices.sizes[1] is 3"},
        {in, idx, out, 3, 3, 3, "batch_dim_count is 3"},
        {in, &TENSOR(I32, 1, 2, 2, 2), out, 3, 3, 1, "batch dimension 0"},
        {in, idx, &TENSOR(I32, 1, 1, 3, 3), 3, 3, 1, "output.sizes[3] is 3 but must be 2"},
        /* the shape example of docs/SPEC.md 6, output dims not right-aligned */
        {&TENSOR(I32, 3, 4, 5, 6, 7), &TENSOR(I32, 1, 1, 1, 2, 3), &TENSOR(I32, 1, 2, 6, 7, 1), 5, 3, 0,
         "{1,1,2,6,7}"},
        {&TENSOR(I32, 2, 2), &TENSOR(I32, 2, 0), &TENSOR(I32, 2, 2), 2, 2, 0, "indices.sizes[1] (k"},
        /* r = 2, b = 1, k = 2: b + k = 3 > r. */
        {&TENSOR(I32, 3, 4), &TENSOR(I32, 3, 2), &TENSOR(I32, 1, 3), 2, 2, 1, "batch_dim_count 1 + k 2"},
        {&TENSOR(I32, 1, 4), &TENSOR(I32, 1, 2), &TENSOR(I32, 1, 1), 1, 1, 0, "input_dim_count 1"},
        /* n = 3, r = q = 3, b = 0, k = 1: (q-1) + (r-b-k) = 4 > 3. */
        {&TENSOR(I32, 2, 3, 4), &TENSOR(I32, 2, 2, 1), &TENSOR(I32, 2, 3, 4), 3, 3, 0,
         "dimensions but dim_count is 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gather_reject *c = &cases[i];
        tmv_gather_nd_desc g = {c->input, c->indices, c->output, c->input_dim_count, c->indices_dim_count,
                                c->batch_dim_count};
        tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
        expect_invalid(&d, "gather_nd", c->member);
    }
}

/* input {1,4} = {10,11,12,13}, r = 1; indices {3,1}, q = 2; output {1,3}. */
static const int32_t gather_data[4] = {10, 11, 12, 13};

static tmv_status run_gather_1d(tmv_dtype index_type, const void *indices, uint32_t flags,
                                int32_t out[3])
{
    tmv_tensor_desc in = TENSOR(I32, 1, 4), idx = TENSOR(index_type, 3, 1), o = TENSOR(I32, 1, 3);
    tmv_gather_nd_desc g = {&in, &idx, &o, 1, 2, 0};
    tmv_op_desc d = {TMV_OP_GATHER_ND, &g, flags};
    fill_canary(out, 3 * sizeof *out);
    return tmv_execute(&d, (const void *[]){gather_data, indices}, (void *[]){out});
}

static void expect_index_rejected(tmv_dtype index_type, const void *indices)
{
    int32_t out[3];
    expect_status(run_gather_1d(index_type, indices, 0, out), TMV_ERR_INDEX_OUT_OF_RANGE);
    cr_assert(tmv_last_error()[0] != '\0', "tmv_last_error() is empty");
    cr_assert(is_canary(out, sizeof out), "output written despite an out-of-range index");
}

static void expect_gathered(tmv_dtype index_type, const void *indices, uint32_t flags,
                            int32_t e0, int32_t e1, int32_t e2)
{
    int32_t out[3];
    expect_status(run_gather_1d(index_type, indices, flags, out), TMV_OK);
    cr_assert(out[0] == e0 && out[1] == e1 && out[2] == e2, "got {%d,%d,%d}, want {%d,%d,%d}",
              out[0], out[1], out[2], e0, e1, e2);
}

Test(gather_nd, int32_index_equal_to_size)
{
    expect_index_rejected(TMV_DTYPE_INT32, (const int32_t[]){0, 4, 1});
}

Test(gather_nd, int32_index_below_minus_size)
{
    expect_index_rejected(TMV_DTYPE_INT32, (const int32_t[]){0, 1, -5});
    expect_index_rejected(TMV_DTYPE_INT32, (const int32_t[]){INT32_MIN, 1, 2});
}

Test(gather_nd, int64_index_out_of_range)
{
    expect_index_rejected(TMV_DTYPE_INT64, (const int64_t[]){4, 1, 2});
    expect_index_rejected(TMV_DTYPE_INT64, (const int64_t[]){0, -5, 2});
    expect_index_rejected(TMV_DTYPE_INT64, (const int64_t[]){0, 1, INT64_MAX});
    expect_index_rejected(TMV_DTYPE_INT64, (const int64_t[]){INT64_MIN, 1, 2});
    /* Would alias a valid index if truncated to 32 bits. */
    expect_index_rejected(TMV_DTYPE_INT64, (const int64_t[]){0, 1, (int64_t)1 << 32});
}

Test(gather_nd, uint32_index_out_of_range)
{
    expect_index_rejected(TMV_DTYPE_UINT32, (const uint32_t[]){0, 4, 1});
    /* A huge unsigned index must not be read as -1. */
    expect_index_rejected(TMV_DTYPE_UINT32, (const uint32_t[]){0, 1, 0xFFFFFFFFu});
}

Test(gather_nd, uint64_index_out_of_range)
{
    expect_index_rejected(TMV_DTYPE_UINT64, (const uint64_t[]){4, 1, 2});
    expect_index_rejected(TMV_DTYPE_UINT64, (const uint64_t[]){0, 1, UINT64_MAX});
    expect_index_rejected(TMV_DTYPE_UINT64, (const uint64_t[]){0, (uint64_t)1 << 32, 2});
}

Test(gather_nd, negative_indices_in_range)
{
    expect_gathered(TMV_DTYPE_INT32, (const int32_t[]){-1, -4, 2}, 0, 13, 10, 12);
    expect_gathered(TMV_DTYPE_INT64, (const int64_t[]){-2, 0, -3}, 0, 12, 10, 11);
}

Test(gather_nd, clamp_int32)
{
    expect_gathered(TMV_DTYPE_INT32, (const int32_t[]){4, -5, INT32_MIN}, TMV_OP_FLAG_CLAMP_INDICES,
                    13, 10, 10);
    expect_gathered(TMV_DTYPE_INT32, (const int32_t[]){INT32_MAX, -1, 1}, TMV_OP_FLAG_CLAMP_INDICES,
                    13, 13, 11);
}

Test(gather_nd, clamp_int64)
{
    expect_gathered(TMV_DTYPE_INT64, (const int64_t[]){INT64_MAX, INT64_MIN, -5},
                    TMV_OP_FLAG_CLAMP_INDICES, 13, 10, 10);
}

Test(gather_nd, clamp_uint32)
{
    expect_gathered(TMV_DTYPE_UINT32, (const uint32_t[]){4, 0xFFFFFFFFu, 2},
                    TMV_OP_FLAG_CLAMP_INDICES, 13, 13, 12);
}

Test(gather_nd, clamp_uint64)
{
    expect_gathered(TMV_DTYPE_UINT64, (const uint64_t[]){UINT64_MAX, (uint64_t)1 << 32, 0},
                    TMV_OP_FLAG_CLAMP_INDICES, 13, 13, 10);
}

Test(gather_nd, empty_output_checks_no_indices)
{
    /* input {2,0}: every gathered slice is empty, so the bad index is never used. */
    tmv_tensor_desc in = TENSOR(I32, 2, 0), idx = TENSOR(I32, 1, 1), out = TENSOR(I32, 1, 0);
    tmv_gather_nd_desc g = {&in, &idx, &out, 2, 2, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    const int32_t bad[1] = {99};
    expect_status(tmv_execute(&d, (const void *[]){NULL, bad}, (void *[]){NULL}), TMV_OK);
}

/* ---- execute ------------------------------------------------------------- */

static tmv_op *create_copy_2x3(void)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    tmv_op *op = NULL;
    expect_status(tmv_op_create(&d, &op), TMV_OK);
    return op;
}

Test(execute, op_null)
{
    int32_t src[6] = {0}, dst[6];
    expect_status(tmv_op_execute(NULL, (const void *[]){src}, (void *[]){dst}),
                  TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions(NULL, "op");
}

/* NULL where an array of buffers or a buffer of a nonempty tensor belongs:
 * rejected, naming it, with nothing written. */
Test(execute, null_arrays_and_buffers)
{
    const int32_t src[6] = {0};
    int32_t dst[6];
    const void *const src_array[1] = {src}, *const null_input[1] = {NULL};
    void *const dst_array[1] = {dst}, *const null_output[1] = {NULL};
    const struct {
        const void *const *inputs;
        void *const       *outputs;
        const char        *member;
    } cases[] = {
        {NULL, dst_array, "inputs"},
        {src_array, NULL, "outputs"},
        {null_input, dst_array, "inputs[0]"},
        {src_array, null_output, "outputs[0]"},
    };
    tmv_op *op = create_copy_2x3();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fill_canary(dst, sizeof dst);
        expect_status(tmv_op_execute(op, cases[i].inputs, cases[i].outputs), TMV_ERR_INVALID_ARGUMENT);
        expect_message_mentions("join", cases[i].member);
        cr_assert(is_canary(dst, sizeof dst), "%s: the output was written", cases[i].member);
    }
    tmv_op_destroy(op);
}

Test(execute, null_buffers_for_empty_tensors_accepted)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 0, 3), TENSOR(I32, 0, 2)};
    tmv_tensor_desc out = TENSOR(I32, 0, 5);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_status(tmv_execute(&d, (const void *[]){NULL, NULL}, (void *[]){NULL}), TMV_OK);
}

Test(execute, empty_split_output_with_null_buffer)
{
    const int32_t src[4] = {1, 2, 3, 4};
    int32_t dst[4];
    tmv_tensor_desc in = TENSOR(I32, 1, 4);
    tmv_tensor_desc out[2] = {TENSOR(I32, 1, 0), TENSOR(I32, 1, 4)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){NULL, dst}), TMV_OK);
    cr_assert(memcmp(dst, src, sizeof dst) == 0);
}

Test(execute, output_overlapping_input)
{
    int32_t buf[8];
    fill_canary(buf, sizeof buf);
    int32_t before[8];
    memcpy(before, buf, sizeof buf);
    tmv_tensor_desc t = TENSOR(I32, 4);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    buf[0] = 1; /* make a copy distinguishable from "nothing written" */
    before[0] = 1;
    expect_status(tmv_execute(&d, (const void *[]){buf}, (void *[]){buf + 3}), TMV_ERR_OVERLAP);
    expect_message_mentions("join", "overlaps");
    cr_assert(memcmp(buf, before, sizeof buf) == 0, "buffer written despite the overlap");
}

Test(execute, padded_output_overlapping_input_inside_its_extent)
{
    /* The input sits in the output's row padding: still inside its extent. */
    int32_t buf[16];
    fill_canary(buf, sizeof buf);
    const uint32_t strides[2] = {8, 1};
    tmv_tensor_desc in = TENSOR(I32, 2, 2), out = STRIDED(I32, strides, 2, 2);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    int32_t before[16];
    memcpy(before, buf, sizeof buf);
    expect_status(tmv_execute(&d, (const void *[]){buf + 4}, (void *[]){buf}), TMV_ERR_OVERLAP);
    cr_assert(memcmp(buf, before, sizeof buf) == 0, "buffer written despite the overlap");
}

/* The one-pass check of every execute (bind.c) and the checks that name
 * the culprit must agree at the edges: ranges that touch without sharing a
 * byte pass, an empty piece bound inside the output passes, and a clash
 * with the last of several pieces is found and named. */
Test(execute, join_pieces_touching_the_output_pass)
{
    int32_t buf[12];
    fill_canary(buf, sizeof buf);
    tmv_tensor_desc in[2] = {TENSOR(I32, 2), TENSOR(I32, 2)}, out = TENSOR(I32, 4);
    tmv_join_desc j = {2, in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    buf[0] = 1, buf[1] = 2, buf[10] = 3, buf[11] = 4;
    /* inputs end where the output starts, and start where it ends */
    cr_assert_eq(tmv_execute(&d, (const void *[]){buf, buf + 10}, (void *[]){buf + 2}), TMV_OK, "%s",
                 tmv_last_error());
    cr_expect(buf[2] == 1 && buf[3] == 2 && buf[4] == 3 && buf[5] == 4, "join wrote %d %d %d %d", buf[2], buf[3],
              buf[4], buf[5]);
}

Test(execute, empty_join_piece_inside_the_output_passes)
{
    int32_t src[2] = {5, 6}, dst[2];
    tmv_tensor_desc in[2] = {TENSOR(I32, 0), TENSOR(I32, 2)}, out = TENSOR(I32, 2);
    tmv_join_desc j = {2, in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    cr_assert_eq(tmv_execute(&d, (const void *[]){dst + 1, src}, (void *[]){dst}), TMV_OK, "%s", tmv_last_error());
    cr_expect(dst[0] == 5 && dst[1] == 6);
}

Test(execute, output_overlapping_the_last_of_three_pieces)
{
    int32_t a[2] = {1, 2}, b[2] = {3, 4}, buf[8];
    fill_canary(buf, sizeof buf);
    int32_t before[8];
    memcpy(before, buf, sizeof buf);
    tmv_tensor_desc in[3] = {TENSOR(I32, 2), TENSOR(I32, 2), TENSOR(I32, 2)}, out = TENSOR(I32, 6);
    tmv_join_desc j = {3, in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    /* the output's last element is the third piece's first */
    expect_status(tmv_execute(&d, (const void *[]){a, b, buf + 5}, (void *[]){buf}),
                  TMV_ERR_OVERLAP);
    expect_message_mentions("join", "inputs[2]");
    cr_assert(memcmp(buf, before, sizeof buf) == 0, "buffer written despite the overlap");
}

Test(execute, second_split_output_overlapping_the_input)
{
    int32_t buf[8], dst[2];
    fill_canary(buf, sizeof buf);
    fill_canary(dst, sizeof dst);
    int32_t before[8];
    memcpy(before, buf, sizeof buf);
    tmv_tensor_desc in = TENSOR(I32, 4), out[2] = {TENSOR(I32, 2), TENSOR(I32, 2)};
    tmv_split_desc s = {&in, 2, out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_status(tmv_execute(&d, (const void *[]){buf + 2}, (void *[]){dst, buf + 1}), TMV_ERR_OVERLAP);
    expect_message_mentions("split", "outputs[1]");
    cr_assert(memcmp(buf, before, sizeof buf) == 0 && is_canary(dst, sizeof dst), "written despite the overlap");
}

Test(execute, split_outputs_overlapping_each_other)
{
    const int32_t src[4] = {1, 2, 3, 4};
    int32_t dst[4];
    fill_canary(dst, sizeof dst);
    tmv_tensor_desc in = TENSOR(I32, 4);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2), TENSOR(I32, 2)};
    tmv_split_desc s = {&in, 2, out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){dst, dst + 1}), TMV_ERR_OVERLAP);
    expect_message_mentions("split", "outputs[1]");
    cr_assert(is_canary(dst, sizeof dst), "output written despite the overlap");
}

/* Many outputs: the check sorts their extents; a clash between the first and
 * the last output (far apart in the array) must still be found, and disjoint
 * outputs in scrambled address order must pass. */
Test(execute, many_split_outputs_overlapping_far_apart)
{
    enum { N = 40 };
    int32_t src[N], dst[N + 1];
    for (int i = 0; i < N; i++)
        src[i] = i;
    tmv_tensor_desc in = TENSOR(I32, N);
    static const uint32_t one[] = {1};
    tmv_tensor_desc out[N];
    void *bufs[N];
    for (int i = 0; i < N; i++) {
        out[i] = (tmv_tensor_desc){I32, 1, one, NULL};
        bufs[i] = &dst[(i * 7) % N]; /* a permutation of dst[0..N) */
    }
    tmv_split_desc s = {&in, N, out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    cr_assert_eq(tmv_execute(&d, (const void *[]){src}, bufs), TMV_OK, "%s", tmv_last_error());
    for (int i = 0; i < N; i++)
        cr_expect_eq(*(int32_t *)bufs[i], i);

    fill_canary(dst, sizeof dst);
    bufs[N - 1] = bufs[0];
    expect_status(tmv_execute(&d, (const void *[]){src}, bufs), TMV_ERR_OVERLAP);
    expect_message_mentions("split", "overlaps outputs");
    cr_assert(is_canary(dst, sizeof dst), "output written despite the overlap");
}

/* ---- the overlap check of many outputs ---------------------------------- */

#define NO_SLOT UINT32_MAX

/* A SPLIT of a u8 {m} into n outputs: outputs[k] is a {1} bound at
 * dst + slot[k], or a {0} bound to NULL where slot[k] is NO_SLOT (m counts
 * the others). Runs it once (tmv_execute) on canary-filled dst: on success
 * asserts that the k-th one-byte output got source byte k, on failure that dst
 * is untouched. Returns the status. */
static tmv_status split_to_slots(uint32_t n, const uint32_t *slot, unsigned char *dst, size_t dst_bytes)
{
    static const uint32_t one[] = {1}, zero[] = {0};
    tmv_tensor_desc *out = malloc(n * sizeof *out);
    void **bufs = malloc(n * sizeof *bufs);
    cr_assert(out != NULL && bufs != NULL);
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        const bool empty = slot[k] == NO_SLOT;
        out[k] = (tmv_tensor_desc){TMV_DTYPE_UINT8, 1, empty ? zero : one, NULL};
        bufs[k] = empty ? NULL : dst + slot[k];
        m += !empty;
    }
    unsigned char *src = malloc(m + 1);
    cr_assert_not_null(src);
    for (uint32_t i = 0; i < m; i++)
        src[i] = (unsigned char)(i * 131u + 7u);
    const uint32_t in_sizes[1] = {m};
    tmv_tensor_desc in = {TMV_DTYPE_UINT8, 1, in_sizes, NULL};
    tmv_split_desc s = {&in, n, out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    fill_canary(dst, dst_bytes);
    tmv_status status = tmv_execute(&d, (const void *[]){src}, bufs);
    if (status == TMV_OK) {
        for (uint32_t k = 0, i = 0; k < n; k++)
            if (slot[k] != NO_SLOT) {
                cr_assert_eq(dst[slot[k]], src[i], "outputs[%u] got 0x%02x, want 0x%02x", k, dst[slot[k]],
                             src[i]);
                i++;
            }
    } else {
        cr_assert(is_canary(dst, dst_bytes), "output written despite the failure");
    }
    free(src);
    free(bufs);
    free(out);
    return status;
}

/* The last error is the overlap message naming the one-byte outputs o and p
 * (in either order), their sizes and addresses. */
static void expect_outputs_overlap_message(uint32_t o, uint32_t p, const uint32_t *slot,
                                           const unsigned char *dst)
{
    char a[256], b[256];
    static const char fmt[] = "split: execute: outputs[%u] (1 bytes at %p) overlaps outputs[%u] (1 bytes at %p)";
    snprintf(a, sizeof a, fmt, o, (const void *)(dst + slot[o]), p, (const void *)(dst + slot[p]));
    snprintf(b, sizeof b, fmt, p, (const void *)(dst + slot[p]), o, (const void *)(dst + slot[o]));
    cr_assert(strcmp(tmv_last_error(), a) == 0 || strcmp(tmv_last_error(), b) == 0,
              "message \"%s\" is neither \"%s\" nor \"%s\"", tmv_last_error(), a, b);
}

/* More outputs than the check sorts on the stack (512): bound in ascending
 * or descending address order (checked in one pass), with empty outputs
 * bound to NULL among them, or in mixed order (sorted in scratch memory). An
 * overlapping pair is found, and named, in each order. */
Test(execute, many_split_outputs_in_each_address_order)
{
    enum { N = 600 };
    uint32_t slot[N];
    unsigned char dst[N];
    for (uint32_t k = 0; k < N; k++)
        slot[k] = k % 7 == 3 ? NO_SLOT : k;
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_OK);
    slot[300] = slot[299];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(300, 299, slot, dst);

    for (uint32_t k = 0; k < N; k++)
        slot[k] = k % 7 == 3 ? NO_SLOT : N - 1 - k;
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_OK);
    slot[300] = slot[299];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(300, 299, slot, dst);
    /* descending, but the last output lands back on the first */
    slot[300] = N - 1 - 300;
    slot[N - 1] = slot[0];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(N - 1, 0, slot, dst);

    for (uint32_t k = 0; k < N; k++)
        slot[k] = k * 7 % N; /* 7 and 600 are coprime: a permutation */
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_OK);
    slot[N - 1] = slot[0];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(N - 1, 0, slot, dst);
}

/* Up to 16 outputs bound in mixed address order are sorted by insertion:
 * disjoint ones (with empty outputs bound to NULL among them) pass, and an
 * overlap between any two, adjacent in the array or at its two ends, is
 * found and named. */
Test(execute, few_split_outputs_in_mixed_order)
{
    enum { N = 16 };
    uint32_t slot[N];
    unsigned char dst[N];
    for (uint32_t k = 0; k < N; k++)
        slot[k] = k == 5 ? NO_SLOT : k * 5 % N; /* 5 and 16 are coprime: mixed order */
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_OK);
    slot[N - 1] = slot[0];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(N - 1, 0, slot, dst);
    slot[N - 1] = (N - 1) * 5 % N; /* disjoint again */
    slot[8] = slot[7];
    expect_status(split_to_slots(N, slot, dst, sizeof dst), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(8, 7, slot, dst);
}

/* 100,000 one-byte outputs bound in a random order: disjoint ones split
 * right; two bound to the same byte, far apart in the array, are found. */
Test(execute, overlap_among_100000_outputs_out_of_order)
{
    enum { N = 100000 };
    uint32_t *slot = malloc(N * sizeof *slot);
    unsigned char *dst = malloc(N);
    cr_assert(slot != NULL && dst != NULL);
    for (uint32_t k = 0; k < N; k++)
        slot[k] = k;
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (uint32_t k = N - 1; k > 0; k--) { /* Fisher-Yates with xorshift64 */
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        const uint32_t j = (uint32_t)(state % (k + 1));
        const uint32_t t = slot[k];
        slot[k] = slot[j];
        slot[j] = t;
    }
    expect_status(split_to_slots(N, slot, dst, N), TMV_OK);
    slot[71234] = slot[123];
    expect_status(split_to_slots(N, slot, dst, N), TMV_ERR_OVERLAP);
    expect_outputs_overlap_message(71234, 123, slot, dst);
    free(dst);
    free(slot);
}

Test(execute, inputs_overlapping_each_other_accepted)
{
    const int32_t src[2] = {1, 2};
    int32_t dst[4];
    tmv_tensor_desc in[2] = {TENSOR(I32, 2), TENSOR(I32, 2)};
    tmv_tensor_desc out = TENSOR(I32, 4);
    tmv_join_desc j = {2, in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_status(tmv_execute(&d, (const void *[]){src, src}, (void *[]){dst}), TMV_OK);
    cr_assert(memcmp(dst, (const int32_t[]){1, 2, 1, 2}, sizeof dst) == 0);
}

/* ---- status names -------------------------------------------------------- */

Test(status, every_status_named)
{
    cr_assert_str_eq(tmv_status_string(TMV_OK), "TMV_OK");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_INVALID_ARGUMENT), "TMV_ERR_INVALID_ARGUMENT");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_OVERLAP), "TMV_ERR_OVERLAP");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_INDEX_OUT_OF_RANGE), "TMV_ERR_INDEX_OUT_OF_RANGE");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_OUT_OF_MEMORY), "TMV_ERR_OUT_OF_MEMORY");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_UNSUPPORTED_ISA), "TMV_ERR_UNSUPPORTED_ISA");
    cr_assert_str_eq(tmv_status_string(TMV_ERR_UNSUPPORTED), "TMV_ERR_UNSUPPORTED");
}

Test(status, unknown_status_named)
{
    cr_assert_str_eq(tmv_status_string((tmv_status)1000), "unknown status");
    cr_assert_str_eq(tmv_status_string((tmv_status)-1), "unknown status");
}
