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

Test(tensor, desc_null)
{
    tmv_tensor_desc t = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, NULL);
    expect_invalid(&d, "join", "output");
}

Test(tensor, unknown_dtype)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR((tmv_dtype)99, 2, 3)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs[1].dtype is 99");
    in[1].dtype = (tmv_dtype)0;
    expect_invalid(&d, "join", "inputs[1].dtype");
}

Test(tensor, dim_count_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 3);
    out.dim_count = 0;
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "output.dim_count");
}

Test(tensor, dim_count_above_eight)
{
    const uint32_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 2, 3};
    tmv_tensor_desc in = {I32, 9, nine, NULL}, out = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "inputs[0].dim_count");
}

Test(tensor, sizes_null)
{
    tmv_tensor_desc in = {I32, 2, NULL, NULL}, out = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "inputs[0].sizes");
}

Test(tensor, packed_extent_overflows)
{
    tmv_tensor_desc t = TENSOR(I32, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &t, &t);
    expect_invalid(&d, "join", "extent");
}

Test(tensor, strided_extent_overflows)
{
    const uint32_t strides[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 1};
    tmv_tensor_desc in = STRIDED(I32, strides, 0xFFFFFFFFu, 0xFFFFFFFFu, 2);
    tmv_tensor_desc out = TENSOR(I32, 0xFFFFFFFFu, 0xFFFFFFFFu, 2);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "extent");
}

Test(tensor, output_zero_stride_on_size_above_one)
{
    const uint32_t strides[2] = {0, 1};
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = STRIDED(I32, strides, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "output.strides[0]");
}

Test(tensor, output_overlapping_rows)
{
    const uint32_t strides[2] = {2, 1};
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = STRIDED(I32, strides, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_invalid(&d, "join", "output.strides");
}

Test(tensor, output_zero_stride_on_size_one_accepted)
{
    const uint32_t strides[3] = {0, 3, 1};
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 3), out = STRIDED(I32, strides, 1, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_created(&d);
}

Test(tensor, input_broadcast_and_overlapping_rows_accepted)
{
    const uint32_t broadcast[2] = {0, 1}, overlapping[2] = {1, 1};
    const int32_t src[4] = {1, 2, 3, 4};
    int32_t dst[6];
    tmv_tensor_desc in = STRIDED(I32, broadcast, 2, 3), out = TENSOR(I32, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    const void *ins[1] = {src};
    void *outs[1] = {dst};
    expect_status(tmv_execute(&d, ins, outs), TMV_OK);
    cr_assert(memcmp(dst, (const int32_t[]){1, 2, 3, 1, 2, 3}, sizeof dst) == 0);
    in.strides = overlapping;
    expect_status(tmv_execute(&d, ins, outs), TMV_OK);
    cr_assert(memcmp(dst, (const int32_t[]){1, 2, 3, 2, 3, 4}, sizeof dst) == 0);
}

Test(tensor, padded_output_accepted_and_padding_untouched)
{
    const uint32_t strides[2] = {5, 1};
    const int32_t src[6] = {1, 2, 3, 4, 5, 6};
    int32_t dst[10];
    fill_canary(dst, sizeof dst);
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = STRIDED(I32, strides, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){dst}), TMV_OK);
    cr_assert(memcmp(dst, src, 3 * sizeof *dst) == 0);
    cr_assert(memcmp(dst + 5, src + 3, 3 * sizeof *dst) == 0);
    cr_assert(is_canary(dst + 3, 2 * sizeof *dst), "padding after row 0 was written");
    cr_assert(is_canary(dst + 8, 2 * sizeof *dst), "padding after row 1 was written");
}

Test(tensor, transposed_output_accepted)
{
    const uint32_t strides[2] = {1, 2};
    const int32_t src[6] = {1, 2, 3, 4, 5, 6};
    int32_t dst[6];
    fill_canary(dst, sizeof dst);
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = STRIDED(I32, strides, 2, 3);
    tmv_join_desc j;
    tmv_op_desc d = copy_op(&j, &in, &out);
    expect_status(tmv_execute(&d, (const void *[]){src}, (void *[]){dst}), TMV_OK);
    cr_assert(memcmp(dst, (const int32_t[]){1, 4, 2, 5, 3, 6}, sizeof dst) == 0);
}

/* ---- JOIN ---------------------------------------------------------------- */

Test(join, input_count_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 3);
    tmv_join_desc j = {0, &in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "input_count");
}

/* A count above TMV_MAX_PIECES is rejected before the op, sized by it, is
 * allocated: UINT32_MAX would otherwise ask calloc for hundreds of GiB and
 * fail with TMV_ERR_OUT_OF_MEMORY. inputs holds 2 descriptions; none is read. */
Test(join, input_count_above_max)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {UINT32_MAX, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "input_count");
    cr_assert_str_eq(tmv_last_error(),
                     "join: input_count is 4294967295 but must be at most TMV_MAX_PIECES (1048576)");
    j.input_count = TMV_MAX_PIECES + 1;
    expect_invalid(&d, "join", "input_count is 1048577");
}

/* TMV_MAX_PIECES itself passes the count check: with every description
 * malformed (zeroed: dtype 0), the first input is what fails. */
Test(join, input_count_at_max_accepted)
{
    tmv_tensor_desc *in = calloc(TMV_MAX_PIECES, sizeof *in);
    cr_assert_not_null(in);
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {TMV_MAX_PIECES, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs[0].dtype");
    free(in);
}

Test(join, inputs_null)
{
    tmv_tensor_desc out = TENSOR(I32, 2, 3);
    tmv_join_desc j = {2, NULL, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs");
}

Test(join, axis_out_of_range)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 2};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "axis");
    j.axis = 0xFFFFFFFFu;
    expect_invalid(&d, "join", "axis");
}

Test(join, dtype_mismatch)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(TMV_DTYPE_FLOAT32, 2, 3)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs[1].dtype");
}

Test(join, dim_count_mismatch)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 1, 2, 3)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs[1].dim_count");
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

Test(join, axis_sum_too_small)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 4)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "output.sizes[1]");
}

Test(join, axis_sum_too_large)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 2)};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "axis");
}

Test(join, axis_sum_wrapping_32_bits)
{
    /* 2^31 + 2^31 is 0 in 32 bits: only a 64-bit sum sees the mismatch. */
    tmv_tensor_desc in[2] = {TENSOR(TMV_DTYPE_UINT8, 0x80000000u, 1),
                             TENSOR(TMV_DTYPE_UINT8, 0x80000000u, 1)};
    tmv_tensor_desc out = TENSOR(TMV_DTYPE_UINT8, 0, 1);
    tmv_join_desc j = {2, in, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "4294967296");
}

Test(join, input_element_malformed)
{
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), {I32, 2, NULL, NULL}};
    tmv_tensor_desc out = TENSOR(I32, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "inputs[1].sizes");
}

Test(join, output_self_overlapping)
{
    const uint32_t strides[2] = {3, 1};
    tmv_tensor_desc in[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)};
    tmv_tensor_desc out = STRIDED(I32, strides, 2, 6);
    tmv_join_desc j = {2, in, &out, 1};
    tmv_op_desc d = make_op(TMV_OP_JOIN, &j);
    expect_invalid(&d, "join", "output.strides");
}

/* ---- SPLIT --------------------------------------------------------------- */

Test(split, output_count_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 3);
    tmv_split_desc s = {&in, 0, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "output_count");
}

Test(split, output_count_above_max)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)};
    tmv_split_desc s = {&in, UINT32_MAX, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "output_count");
    cr_assert_str_eq(tmv_last_error(),
                     "split: output_count is 4294967295 but must be at most TMV_MAX_PIECES (1048576)");
    s.output_count = TMV_MAX_PIECES + 1;
    expect_invalid(&d, "split", "output_count is 1048577");
    s.outputs = NULL; /* the count comes first */
    expect_invalid(&d, "split", "output_count is 1048577");
}

Test(split, output_count_at_max_accepted)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc *out = calloc(TMV_MAX_PIECES, sizeof *out);
    cr_assert_not_null(out);
    tmv_split_desc s = {&in, TMV_MAX_PIECES, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs[0].dtype");
    free(out);
}

Test(split, outputs_null)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3);
    tmv_split_desc s = {&in, 2, NULL, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs");
}

Test(split, input_null)
{
    tmv_tensor_desc out = TENSOR(I32, 2, 3);
    tmv_split_desc s = {NULL, 1, &out, 0};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "input");
}

Test(split, axis_out_of_range)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 2, 3)};
    tmv_split_desc s = {&in, 2, out, 2};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "axis");
}

Test(split, dtype_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2, 3), TENSOR(TMV_DTYPE_UINT32, 2, 3)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs[1].dtype");
}

Test(split, dim_count_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 1, 2, 3), TENSOR(I32, 2, 3)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs[0].dim_count");
}

Test(split, non_axis_size_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2, 3), TENSOR(I32, 1, 3)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs[1].sizes[0] is 1 but input.sizes[0] is 2");
}

Test(split, axis_sum_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 1, 6, 2);
    tmv_tensor_desc out[3] = {TENSOR(I32, 1, 1, 2, 2), TENSOR(I32, 1, 1, 1, 2),
                              TENSOR(I32, 1, 1, 2, 2)};
    tmv_split_desc s = {&in, 3, out, 2};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "input.sizes[2]");
}

Test(split, axis_sum_wrapping_32_bits)
{
    tmv_tensor_desc in = TENSOR(TMV_DTYPE_UINT8, 1, 0);
    tmv_tensor_desc out[2] = {TENSOR(TMV_DTYPE_UINT8, 1, 0x80000000u),
                              TENSOR(TMV_DTYPE_UINT8, 1, 0x80000000u)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "4294967296");
}

Test(split, output_self_overlapping)
{
    const uint32_t strides[2] = {1, 1};
    tmv_tensor_desc in = TENSOR(I32, 2, 6);
    tmv_tensor_desc out[2] = {TENSOR(I32, 2, 3), STRIDED(I32, strides, 2, 3)};
    tmv_split_desc s = {&in, 2, out, 1};
    tmv_op_desc d = make_op(TMV_OP_SPLIT, &s);
    expect_invalid(&d, "split", "outputs[1].strides");
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

Test(tile, repeats_count_too_large)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 3);
    tmv_tile_desc t = {&in, &out, 9, SIZES(1, 1, 1, 1, 1, 1, 1, 1, 1)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "repeats_count");
}

Test(tile, repeats_null)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 2, 3);
    tmv_tile_desc t = {&in, &out, 2, NULL};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "repeats");
}

Test(tile, output_size_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 1, 2, 3), out = TENSOR(I32, 1, 1, 6, 8);
    tmv_tile_desc t = {&in, &out, 4, SIZES(1, 1, 3, 3)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "output.sizes[3]");
}

Test(tile, output_size_wrapping_32_bits)
{
    /* 0x10000 * 0x10000 is 0 in 32 bits. */
    tmv_tensor_desc in = TENSOR(TMV_DTYPE_UINT8, 0x10000u), out = TENSOR(TMV_DTYPE_UINT8, 0);
    tmv_tile_desc t = {&in, &out, 1, SIZES(0x10000u)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "4294967296");
}

Test(tile, dtype_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(TMV_DTYPE_FLOAT32, 2, 3);
    tmv_tile_desc t = {&in, &out, 2, SIZES(1, 1)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "dtype");
}

Test(tile, dim_count_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 3), out = TENSOR(I32, 1, 2, 3);
    tmv_tile_desc t = {&in, &out, 2, SIZES(1, 1)};
    tmv_op_desc d = make_op(TMV_OP_TILE, &t);
    expect_invalid(&d, "tile", "dim_count");
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

static tmv_op_desc s2d_op(tmv_space_to_depth_desc *s, const tmv_tensor_desc *in,
                          const tmv_tensor_desc *out, uint32_t block_size)
{
    *s = (tmv_space_to_depth_desc){in, out, block_size, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    return make_op(TMV_OP_SPACE_TO_DEPTH, s);
}

static tmv_op_desc d2s_op(tmv_depth_to_space_desc *s, const tmv_tensor_desc *in,
                          const tmv_tensor_desc *out, uint32_t block_size)
{
    *s = (tmv_depth_to_space_desc){in, out, block_size, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    return make_op(TMV_OP_DEPTH_TO_SPACE, s);
}

Test(space_to_depth, input_not_4d)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 4, 6), out = TENSOR(I32, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "input.dim_count is 3");
}

Test(space_to_depth, output_not_4d)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 1, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "output.dim_count is 5");
}

Test(space_to_depth, block_size_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 1, 2, 4, 6);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 0);
    expect_invalid(&d, "space_to_depth", "block_size");
}

Test(space_to_depth, unknown_order)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    s.order = (tmv_depth_space_order)2;
    expect_invalid(&d, "space_to_depth", "order");
    s.order = (tmv_depth_space_order)-1;
    expect_invalid(&d, "space_to_depth", "order");
}

Test(space_to_depth, height_not_divisible_message)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 5, 6), out = TENSOR(I32, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "block_size");
    cr_assert_str_eq(tmv_last_error(),
                     "space_to_depth: input.sizes[2] (H) is 5, not divisible by block_size 2");
}

Test(space_to_depth, width_not_divisible)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 7), out = TENSOR(I32, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "input.sizes[3] (W) is 7");
}

Test(space_to_depth, output_channels_wrong)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 1, 4, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "output.sizes[1]");
}

Test(space_to_depth, output_batch_wrong)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 2, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "output.sizes[0]");
}

Test(space_to_depth, output_spatial_wrong)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(I32, 1, 8, 2, 6);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "output.sizes[3]");
}

Test(space_to_depth, dtype_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 2, 4, 6), out = TENSOR(TMV_DTYPE_INT16, 1, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_invalid(&d, "space_to_depth", "dtype");
}

Test(space_to_depth, channels_wrapping_32_bits)
{
    /* C*B*B = 0x10000 * 0x10000^2 = 2^48, which is 0 in 32 bits. */
    tmv_tensor_desc in = TENSOR(I32, 1, 0x10000u, 0, 0), out = TENSOR(I32, 1, 0, 0, 0);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 0x10000u);
    expect_invalid(&d, "space_to_depth", "output.sizes[1]");
}

Test(space_to_depth, channels_wrapping_64_bits)
{
    /* C*B*B = 4 * (2^31)^2 = 2^64, which is 0 in 64 bits. */
    tmv_tensor_desc in = TENSOR(I32, 1, 4, 0, 0), out = TENSOR(I32, 1, 0, 0, 0);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 0x80000000u);
    expect_invalid(&d, "space_to_depth", "output.sizes[1]");
}

Test(space_to_depth, empty_accepted_with_null_buffers)
{
    tmv_tensor_desc in = TENSOR(I32, 0, 2, 4, 6), out = TENSOR(I32, 0, 8, 2, 3);
    tmv_space_to_depth_desc s;
    tmv_op_desc d = s2d_op(&s, &in, &out, 2);
    expect_status(tmv_execute(&d, (const void *[]){NULL}, (void *[]){NULL}), TMV_OK);
}

Test(depth_to_space, input_not_4d)
{
    tmv_tensor_desc in = TENSOR(I32, 8, 2, 3), out = TENSOR(I32, 1, 2, 4, 6);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    expect_invalid(&d, "depth_to_space", "input.dim_count");
}

Test(depth_to_space, block_size_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 8, 2, 3), out = TENSOR(I32, 1, 8, 2, 3);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 0);
    expect_invalid(&d, "depth_to_space", "block_size");
}

Test(depth_to_space, unknown_order)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 8, 2, 3), out = TENSOR(I32, 1, 2, 4, 6);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    s.order = (tmv_depth_space_order)7;
    expect_invalid(&d, "depth_to_space", "order is 7");
}

Test(depth_to_space, channels_not_divisible)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 6, 2, 3), out = TENSOR(I32, 1, 1, 4, 6);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    expect_invalid(&d, "depth_to_space", "input.sizes[1] (C) is 6");
}

Test(depth_to_space, block_square_wrapping_32_bits)
{
    /* B*B = 2^32 is 0 in 32 bits: a 32-bit check would divide by zero. */
    tmv_tensor_desc in = TENSOR(I32, 1, 5, 0, 0), out = TENSOR(I32, 1, 0, 0, 0);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 0x10000u);
    expect_invalid(&d, "depth_to_space", "input.sizes[1] (C) is 5");
}

Test(depth_to_space, output_shape_wrong)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 8, 2, 3), out = TENSOR(I32, 1, 2, 2, 6);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    expect_invalid(&d, "depth_to_space", "output.sizes[2] (H) is 2");
}

Test(depth_to_space, height_wrapping_32_bits)
{
    /* H*B = 2^31 * 2 is 0 in 32 bits. */
    tmv_tensor_desc in = TENSOR(TMV_DTYPE_UINT8, 1, 4, 0x80000000u, 0);
    tmv_tensor_desc out = TENSOR(TMV_DTYPE_UINT8, 1, 1, 0, 0);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    expect_invalid(&d, "depth_to_space", "4294967296");
}

Test(depth_to_space, dtype_mismatch)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 8, 2, 3), out = TENSOR(TMV_DTYPE_UINT32, 1, 2, 4, 6);
    tmv_depth_to_space_desc s;
    tmv_op_desc d = d2s_op(&s, &in, &out, 2);
    expect_invalid(&d, "depth_to_space", "dtype");
}

/* ---- GATHER_ND ----------------------------------------------------------- */

/* Seed example 2 of docs/SPEC.md 6 (r = q = 3, b = 1), in static storage so that
 * each test can break one member of it. */
static uint32_t seed2_input_sizes[4], seed2_indices_sizes[4], seed2_output_sizes[4];
static tmv_tensor_desc seed2_input, seed2_indices, seed2_output;
static tmv_gather_nd_desc seed2;

static tmv_op_desc seed2_op(void)
{
    memcpy(seed2_input_sizes, SIZES(1, 3, 2, 2), sizeof seed2_input_sizes);
    memcpy(seed2_indices_sizes, SIZES(1, 3, 2, 2), sizeof seed2_indices_sizes);
    memcpy(seed2_output_sizes, SIZES(1, 1, 3, 2), sizeof seed2_output_sizes);
    seed2_input = (tmv_tensor_desc){I32, 4, seed2_input_sizes, NULL};
    seed2_indices = (tmv_tensor_desc){I32, 4, seed2_indices_sizes, NULL};
    seed2_output = (tmv_tensor_desc){I32, 4, seed2_output_sizes, NULL};
    seed2 = (tmv_gather_nd_desc){&seed2_input, &seed2_indices, &seed2_output, 3, 3, 1};
    return make_op(TMV_OP_GATHER_ND, &seed2);
}

Test(gather_nd, seed_example_2_accepted_and_correct)
{
    tmv_op_desc d = seed2_op();
    const int32_t input[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const int32_t indices[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    int32_t output[6];
    fill_canary(output, sizeof output);
    expect_status(tmv_execute(&d, (const void *[]){input, indices}, (void *[]){output}), TMV_OK);
    cr_assert(memcmp(output, (const int32_t[]){0, 3, 7, 4, 9, 10}, sizeof output) == 0);
}

Test(gather_nd, shape_example_accepted)
{
    tmv_tensor_desc in = TENSOR(I32, 3, 4, 5, 6, 7), idx = TENSOR(I32, 1, 1, 1, 2, 3);
    tmv_tensor_desc out = TENSOR(I32, 1, 1, 2, 6, 7);
    tmv_gather_nd_desc g = {&in, &idx, &out, 5, 3, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_created(&d);
}

Test(gather_nd, shape_example_misaligned_output)
{
    tmv_tensor_desc in = TENSOR(I32, 3, 4, 5, 6, 7), idx = TENSOR(I32, 1, 1, 1, 2, 3);
    tmv_tensor_desc out = TENSOR(I32, 1, 2, 6, 7, 1);
    tmv_gather_nd_desc g = {&in, &idx, &out, 5, 3, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_invalid(&d, "gather_nd", "{1,1,2,6,7}");
}

Test(gather_nd, indices_float_dtype)
{
    tmv_op_desc d = seed2_op();
    seed2_indices.dtype = TMV_DTYPE_FLOAT32;
    expect_invalid(&d, "gather_nd", "indices.dtype is FLOAT32");
}

Test(gather_nd, indices_narrow_int_dtype)
{
    tmv_op_desc d = seed2_op();
    seed2_indices.dtype = TMV_DTYPE_INT16;
    expect_invalid(&d, "gather_nd", "INT16");
    seed2_indices.dtype = TMV_DTYPE_UINT8;
    expect_invalid(&d, "gather_nd", "UINT8");
}

Test(gather_nd, index_dtypes_accepted)
{
    const tmv_dtype types[4] = {TMV_DTYPE_INT32, TMV_DTYPE_INT64, TMV_DTYPE_UINT32, TMV_DTYPE_UINT64};
    for (int i = 0; i < 4; i++) {
        tmv_op_desc d = seed2_op();
        seed2_indices.dtype = types[i];
        expect_created(&d);
    }
}

Test(gather_nd, output_dtype_mismatch)
{
    tmv_op_desc d = seed2_op();
    seed2_output.dtype = TMV_DTYPE_FLOAT32;
    expect_invalid(&d, "gather_nd", "output.dtype");
}

Test(gather_nd, indices_dim_count_mismatch)
{
    tmv_op_desc d = seed2_op();
    seed2_indices.dim_count = 3;
    seed2_indices.sizes = SIZES(3, 2, 2);
    seed2.indices_dim_count = 3;
    expect_invalid(&d, "gather_nd", "indices.dim_count");
}

Test(gather_nd, output_dim_count_mismatch)
{
    tmv_op_desc d = seed2_op();
    seed2_output.dim_count = 2;
    seed2_output.sizes = SIZES(3, 2);
    expect_invalid(&d, "gather_nd", "output.dim_count");
}

Test(gather_nd, input_dim_count_zero)
{
    tmv_op_desc d = seed2_op();
    seed2.input_dim_count = 0;
    expect_invalid(&d, "gather_nd", "input_dim_count is 0");
}

Test(gather_nd, input_dim_count_above_n)
{
    tmv_op_desc d = seed2_op();
    seed2.input_dim_count = 5;
    expect_invalid(&d, "gather_nd", "input_dim_count is 5");
}

Test(gather_nd, indices_dim_count_out_of_range)
{
    tmv_op_desc d = seed2_op();
    seed2.indices_dim_count = 0;
    expect_invalid(&d, "gather_nd", "indices_dim_count is 0");
    seed2.indices_dim_count = 0xFFFFFFFFu;
    expect_invalid(&d, "gather_nd", "indices_dim_count is 4294967295");
}

Test(gather_nd, leading_input_dim_not_one)
{
    tmv_op_desc d = seed2_op();
    seed2_input_sizes[0] = 2;
    expect_invalid(&d, "gather_nd", "input.sizes[0] is 2");
}

Test(gather_nd, leading_indices_dim_not_one)
{
    tmv_op_desc d = seed2_op();
    seed2.indices_dim_count = 2; /* indices {1,3,2,2}: sizes[1] = 3 now a leading dim */
    expect_invalid(&d, "gather_nd", "indices.sizes[1] is 3");
}

Test(gather_nd, tuple_length_zero)
{
    tmv_tensor_desc in = TENSOR(I32, 2, 2), idx = TENSOR(I32, 2, 0), out = TENSOR(I32, 2, 2);
    tmv_gather_nd_desc g = {&in, &idx, &out, 2, 2, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_invalid(&d, "gather_nd", "indices.sizes[1] (k");
}

Test(gather_nd, batch_dim_count_too_large)
{
    tmv_op_desc d = seed2_op();
    seed2.batch_dim_count = 3;
    expect_invalid(&d, "gather_nd", "batch_dim_count is 3");
}

Test(gather_nd, batch_plus_tuple_exceeds_input_dims)
{
    /* r = 2, b = 1, k = 2: b + k = 3 > r. */
    tmv_tensor_desc in = TENSOR(I32, 3, 4), idx = TENSOR(I32, 3, 2), out = TENSOR(I32, 1, 3);
    tmv_gather_nd_desc g = {&in, &idx, &out, 2, 2, 1};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_invalid(&d, "gather_nd", "batch_dim_count 1 + k 2");
}

Test(gather_nd, tuple_longer_than_input_dims)
{
    tmv_tensor_desc in = TENSOR(I32, 1, 4), idx = TENSOR(I32, 1, 2), out = TENSOR(I32, 1, 1);
    tmv_gather_nd_desc g = {&in, &idx, &out, 1, 1, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_invalid(&d, "gather_nd", "input_dim_count 1");
}

Test(gather_nd, batch_dims_differ)
{
    tmv_op_desc d = seed2_op();
    seed2_indices_sizes[1] = 2;
    expect_invalid(&d, "gather_nd", "batch dimension 0");
}

Test(gather_nd, output_needs_more_dims_than_n)
{
    /* n = 3, r = q = 3, b = 0, k = 1: (q-1) + (r-b-k) = 4 > 3. */
    tmv_tensor_desc in = TENSOR(I32, 2, 3, 4), idx = TENSOR(I32, 2, 2, 1);
    tmv_tensor_desc out = TENSOR(I32, 2, 3, 4);
    tmv_gather_nd_desc g = {&in, &idx, &out, 3, 3, 0};
    tmv_op_desc d = make_op(TMV_OP_GATHER_ND, &g);
    expect_invalid(&d, "gather_nd", "dimensions but dim_count is 3");
}

Test(gather_nd, output_shape_wrong)
{
    tmv_op_desc d = seed2_op();
    seed2_output_sizes[3] = 3;
    expect_invalid(&d, "gather_nd", "output.sizes[3] is 3 but must be 2");
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

Test(execute, inputs_array_null)
{
    tmv_op *op = create_copy_2x3();
    int32_t dst[6];
    fill_canary(dst, sizeof dst);
    expect_status(tmv_op_execute(op, NULL, (void *[]){dst}), TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions("join", "inputs");
    cr_assert(is_canary(dst, sizeof dst));
    tmv_op_destroy(op);
}

Test(execute, outputs_array_null)
{
    tmv_op *op = create_copy_2x3();
    int32_t src[6] = {0};
    expect_status(tmv_op_execute(op, (const void *[]){src}, NULL), TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions("join", "outputs");
    tmv_op_destroy(op);
}

Test(execute, null_input_buffer_for_nonempty_tensor)
{
    tmv_op *op = create_copy_2x3();
    int32_t dst[6];
    fill_canary(dst, sizeof dst);
    expect_status(tmv_op_execute(op, (const void *[]){NULL}, (void *[]){dst}),
                  TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions("join", "inputs[0]");
    cr_assert(is_canary(dst, sizeof dst));
    tmv_op_destroy(op);
}

Test(execute, null_output_buffer_for_nonempty_tensor)
{
    tmv_op *op = create_copy_2x3();
    int32_t src[6] = {0};
    expect_status(tmv_op_execute(op, (const void *[]){src}, (void *[]){NULL}),
                  TMV_ERR_INVALID_ARGUMENT);
    expect_message_mentions("join", "outputs[0]");
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
