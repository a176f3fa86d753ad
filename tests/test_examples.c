/* test_examples.c - docs/SPEC.md's seed examples and hand-checked cases, expected values written out. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and MAP_NORESERVE */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "test_util.h"

/* Packed descriptions of rank 4 are the common case below. */
#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static tmv_tensor_desc packed(tmv_dtype dtype, uint32_t dim_count, const uint32_t *sizes)
{
    return tu_tensor(dtype, dim_count, sizes, NULL);
}

/* One output, of out_bytes: the shape of every operator but SPLIT. */
static void expect_one_output(const char *what, const tmv_op_desc *desc, const void *const *inputs,
                              const void *expected, size_t out_bytes)
{
    tu_expect_outputs(what, desc, inputs, 1, &out_bytes, &expected);
}

static void expect_join(const char *what, uint32_t count, const tmv_tensor_desc *inputs,
                        const tmv_tensor_desc *output, uint32_t axis, const void *const *in,
                        const void *expected, size_t out_bytes)
{
    tmv_join_desc join = {count, inputs, output, axis};
    tmv_op_desc desc = {TMV_OP_JOIN, &join, 0};
    expect_one_output(what, &desc, in, expected, out_bytes);
}

static void expect_split(const char *what, const tmv_tensor_desc *input, uint32_t count,
                         const tmv_tensor_desc *outputs, uint32_t axis, const void *in, const size_t *out_bytes,
                         const void *const *expected)
{
    tmv_split_desc split = {input, count, outputs, axis};
    tmv_op_desc desc = {TMV_OP_SPLIT, &split, 0};
    tu_expect_outputs(what, &desc, &in, count, out_bytes, expected);
}

/* One input, one output: the shape of most operators. */
static void expect_single(const char *what, const tmv_op_desc *desc, const void *input, const void *expected,
                          size_t out_bytes)
{
    expect_one_output(what, desc, &input, expected, out_bytes);
}

/* ---------------------------------------------------------------- JOIN */

Test(join, spec_example_axis3)
{
    const uint32_t a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12, 13, 14};
    const uint32_t out[] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    tmv_tensor_desc ins[] = {packed(TMV_DTYPE_UINT32, 4, SIZES(1, 1, 2, 3)),
                             packed(TMV_DTYPE_UINT32, 4, SIZES(1, 1, 2, 4))};
    tmv_tensor_desc o = packed(TMV_DTYPE_UINT32, 4, SIZES(1, 1, 2, 7));
    expect_join("join axis 3", 2, ins, &o, 3, (const void *[]){a, b}, out, sizeof out);
}

/* The three-input example along axes 1, 2 and 3 (FLOAT32 bit patterns of small integers). */
static void join_three(uint32_t axis, const uint32_t *out_sizes, const float *expected_values)
{
    const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, c[] = {9, 10, 11, 12};
    const uint32_t *in_sizes = SIZES(1, 1, 2, 2);
    tmv_tensor_desc ins[3];
    for (int i = 0; i < 3; i++)
        ins[i] = packed(TMV_DTYPE_FLOAT32, 4, in_sizes);
    tmv_tensor_desc o = packed(TMV_DTYPE_FLOAT32, 4, out_sizes);
    expect_join("join of three", 3, ins, &o, axis, (const void *[]){a, b, c}, expected_values,
                12 * sizeof(float));
}

Test(join, spec_example_three_inputs_axis1)
{
    const float out[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    join_three(1, SIZES(1, 3, 2, 2), out);
}

Test(join, spec_example_three_inputs_axis2)
{
    const float out[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    join_three(2, SIZES(1, 1, 6, 2), out);
}

Test(join, spec_example_three_inputs_axis3)
{
    const float out[] = {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12};
    join_three(3, SIZES(1, 1, 2, 6), out);
}

/* Broadcast input (stride 0 repeats one row), an empty piece bound as NULL,
 * and bit patterns a float conversion would change: signaling NaN, NaN
 * payload, -0.0. */
Test(join, broadcast_input_empty_piece_and_nan_bits)
{
    const uint32_t row[] = {0x7F800001u, 0x80000000u, 0x7FC12345u};
    const uint32_t last[] = {0xFFC00001u, 1u, 0x00000000u};
    const uint32_t out[] = {0x7F800001u, 0x80000000u, 0x7FC12345u, 0x7F800001u, 0x80000000u, 0x7FC12345u,
                            0xFFC00001u, 1u, 0x00000000u};
    tmv_tensor_desc ins[] = {tu_tensor(TMV_DTYPE_FLOAT32, 2, SIZES(2, 3), SIZES(0, 1)),
                             packed(TMV_DTYPE_FLOAT32, 2, SIZES(0, 3)),
                             packed(TMV_DTYPE_FLOAT32, 2, SIZES(1, 3))};
    tmv_tensor_desc o = packed(TMV_DTYPE_FLOAT32, 2, SIZES(3, 3));
    expect_join("join broadcast", 3, ins, &o, 0, (const void *[]){row, NULL, last}, out, sizeof out);
}

/* Output rows 5 elements apart, 3 used: the 2 gap elements must keep their
 * canary bytes. */
Test(join, padded_output_keeps_gap_canaries)
{
    const uint16_t a[] = {1, 2, 3}, b[] = {4, 5, 6};
    tmv_tensor_desc ins[] = {packed(TMV_DTYPE_UINT16, 2, SIZES(1, 3)), packed(TMV_DTYPE_UINT16, 2, SIZES(1, 3))};
    tmv_tensor_desc o = tu_tensor(TMV_DTYPE_UINT16, 2, SIZES(2, 3), SIZES(5, 1));
    /* elements at 0,1,2 and 5,6,7: extent 8 elements = 16 bytes, gap bytes 6..9 */
    unsigned char expected_bytes[16];
    const uint16_t values[8] = {1, 2, 3, 0, 0, 4, 5, 6};
    memcpy(expected_bytes, values, sizeof values);
    for (int i = 6; i < 10; i++)
        expected_bytes[i] = tu_canary_at(i);
    expect_join("join into padded rows", 2, ins, &o, 0, (const void *[]){a, b}, expected_bytes,
                sizeof expected_bytes);
}

/* --------------------------------------------------------------- SPLIT */

Test(split, spec_example_axis2)
{
    const int32_t in[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const int32_t o0[] = {1, 2, 3, 4}, o1[] = {5, 6}, o2[] = {7, 8, 9, 10, 11, 12};
    tmv_tensor_desc i = packed(TMV_DTYPE_INT32, 4, SIZES(1, 1, 6, 2));
    tmv_tensor_desc outs[] = {packed(TMV_DTYPE_INT32, 4, SIZES(1, 1, 2, 2)),
                              packed(TMV_DTYPE_INT32, 4, SIZES(1, 1, 1, 2)),
                              packed(TMV_DTYPE_INT32, 4, SIZES(1, 1, 3, 2))};
    expect_split("split axis 2", &i, 3, outs, 2, in, (const size_t[]){sizeof o0, sizeof o1, sizeof o2},
                 (const void *[]){o0, o1, o2});
}

Test(split, spec_example_axis3)
{
    const int64_t in[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const int64_t o0[] = {1, 3, 5, 7, 9, 11}, o1[] = {2, 4, 6, 8, 10, 12};
    tmv_tensor_desc i = packed(TMV_DTYPE_INT64, 4, SIZES(1, 1, 6, 2));
    tmv_tensor_desc outs[] = {packed(TMV_DTYPE_INT64, 4, SIZES(1, 1, 6, 1)),
                              packed(TMV_DTYPE_INT64, 4, SIZES(1, 1, 6, 1))};
    expect_split("split axis 3", &i, 2, outs, 3, in, (const size_t[]){sizeof o0, sizeof o1},
                 (const void *[]){o0, o1});
}

/* A transposed input (column-major {2,3}) split along the inner axis. */
Test(split, transposed_input)
{
    const uint8_t in[] = {1, 4, 2, 5, 3, 6}; /* [[1,2,3],[4,5,6]] stored column by column */
    const uint8_t o0[] = {1, 4}, o1[] = {2, 3, 5, 6};
    tmv_tensor_desc i = tu_tensor(TMV_DTYPE_UINT8, 2, SIZES(2, 3), SIZES(1, 2));
    tmv_tensor_desc outs[] = {packed(TMV_DTYPE_UINT8, 2, SIZES(2, 1)), packed(TMV_DTYPE_UINT8, 2, SIZES(2, 2))};
    expect_split("split transposed", &i, 2, outs, 1, in, (const size_t[]){sizeof o0, sizeof o1},
                 (const void *[]){o0, o1});
}

/* ---------------------------------------------------------------- TILE */

Test(tile, spec_example)
{
    const uint32_t in[] = {1, 2, 3, 4, 5, 6};
    const uint32_t out[] = {
        1, 2, 3, 1, 2, 3, 1, 2, 3,  4, 5, 6, 4, 5, 6, 4, 5, 6,
        1, 2, 3, 1, 2, 3, 1, 2, 3,  4, 5, 6, 4, 5, 6, 4, 5, 6,
        1, 2, 3, 1, 2, 3, 1, 2, 3,  4, 5, 6, 4, 5, 6, 4, 5, 6,
    };
    tmv_tensor_desc i = packed(TMV_DTYPE_UINT32, 4, SIZES(1, 1, 2, 3));
    tmv_tensor_desc o = packed(TMV_DTYPE_UINT32, 4, SIZES(1, 1, 6, 9));
    tmv_tile_desc tile = {&i, &o, 4, SIZES(1, 1, 3, 3)};
    tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    expect_single("tile spec example", &desc, in, out, sizeof out);
}

/* A repeat of 0 gives an output without elements: nothing is written, and
 * its buffer may be NULL. */
Test(tile, zero_repeat_writes_nothing)
{
    const uint16_t in[] = {1, 2};
    tmv_tensor_desc i = packed(TMV_DTYPE_FLOAT16, 2, SIZES(1, 2));
    tmv_tensor_desc o = packed(TMV_DTYPE_FLOAT16, 2, SIZES(0, 4));
    tmv_tile_desc tile = {&i, &o, 2, SIZES(0, 2)};
    tmv_op_desc desc = {TMV_OP_TILE, &tile, 0};
    const void *inputs[] = {in};
    void *outputs[] = {NULL};
    cr_assert_eq(tmv_execute(&desc, inputs, outputs), TMV_OK, "%s", tmv_last_error());
    size_t bytes = 0;
    const void *expected[] = {NULL};
    tu_expect_outputs("tile repeat 0", &desc, inputs, 1, &bytes, expected);
}

/* ----------------------------------------------- SPACE_TO_DEPTH / DEPTH_TO_SPACE */

/* The input of docs/SPEC.md section 5's examples, per order. */
static const uint32_t s2d_dcr_input[] = {
    0, 18, 1, 19, 2, 20,   36, 54, 37, 55, 38, 56,   3, 21, 4, 22, 5, 23,   39, 57, 40, 58, 41, 59,
    9, 27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65,   12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68,
};
static const uint32_t s2d_crd_input[] = {
    0, 9, 1, 10, 2, 11,    18, 27, 19, 28, 20, 29,   3, 12, 4, 13, 5, 14,   21, 30, 22, 31, 23, 32,
    36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65,  39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68,
};

/* Output {1,8,2,3}: channel k = [[9k .. 9k+2],[9k+3 .. 9k+5]], i.e. value
 * 9k + 3y + x, which is 0..71 counted with a hole of 3 per channel. */
static void depth_output(uint32_t out[48])
{
    for (uint32_t k = 0; k < 8; k++)
        for (uint32_t e = 0; e < 6; e++)
            out[k * 6 + e] = 9 * k + e;
}

/* SPACE_TO_DEPTH (to_depth) of `space` gives depth_output's values; DEPTH_TO_SPACE reads them back. */
static void depth_space_example(const char *what, bool to_depth, tmv_depth_space_order order,
                                const uint32_t *space)
{
    uint32_t depth[48];
    depth_output(depth);
    tmv_tensor_desc sp = packed(TMV_DTYPE_UINT32, 4, SIZES(1, 2, 4, 6));
    tmv_tensor_desc dp = packed(TMV_DTYPE_UINT32, 4, SIZES(1, 8, 2, 3));
    tmv_space_to_depth_desc s2d = {&sp, &dp, 2, order};
    tmv_depth_to_space_desc d2s = {&dp, &sp, 2, order};
    tmv_op_desc desc = to_depth ? (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &s2d, 0}
                                : (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &d2s, 0};
    expect_single(what, &desc, to_depth ? space : depth, to_depth ? depth : space, sizeof depth);
}

Test(space_to_depth, spec_example1_depth_column_row)
{
    depth_space_example("space_to_depth DCR", true, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, s2d_dcr_input);
}

Test(space_to_depth, spec_example2_column_row_depth)
{
    depth_space_example("space_to_depth CRD", true, TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH, s2d_crd_input);
}

Test(depth_to_space, spec_example1_read_backwards)
{
    depth_space_example("depth_to_space DCR", false, TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, s2d_dcr_input);
}

Test(depth_to_space, spec_example2_read_backwards)
{
    depth_space_example("depth_to_space CRD", false, TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH, s2d_crd_input);
}

/* ----------------------------------------------------------- GATHER_ND */

/* GATHER_ND with one input, one indices tensor, one output. */
static tmv_op_desc gather_desc(tmv_gather_nd_desc *g, tmv_tensor_desc t[3], uint32_t r, uint32_t q, uint32_t b,
                               uint32_t flags)
{
    *g = (tmv_gather_nd_desc){&t[0], &t[1], &t[2], r, q, b};
    return (tmv_op_desc){TMV_OP_GATHER_ND, g, flags};
}

/* Input {3,4,5,6,7} holding its own row-major positions, indices
 * {1,1,1,2,3} = tuples (0,1,2) and (2,3,4), q = 3, k = 3: output {1,1,2,6,7}
 * = the two {6,7} slabs at positions ((0*4+1)*5+2)*42 = 294 and
 * ((2*4+3)*5+4)*42 = 2478. */
Test(gather_nd, spec_shape_example)
{
    static uint32_t in[3 * 4 * 5 * 6 * 7];
    uint32_t out[2 * 42];
    const uint32_t idx[] = {0, 1, 2, 2, 3, 4};
    for (uint32_t i = 0; i < COUNT_OF(in); i++)
        in[i] = i;
    for (uint32_t i = 0; i < 42; i++) {
        out[i] = 294 + i;
        out[42 + i] = 2478 + i;
    }
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_UINT32, 5, SIZES(3, 4, 5, 6, 7)),
                           packed(TMV_DTYPE_UINT32, 5, SIZES(1, 1, 1, 2, 3)),
                           packed(TMV_DTYPE_UINT32, 5, SIZES(1, 1, 2, 6, 7))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 5, 3, 0, 0);
    expect_one_output("gather_nd shape example", &desc, (const void *[]){in, idx}, out, sizeof out);
}

/* Seed example 1 (input [[0,1],[2,3]], r = q = 2) with the indices stored as
 * `type`, read from `idx_bytes`, expecting rows `rows` of the input. */
static void gather_rows(const char *what, tmv_dtype type, const void *idx_bytes, uint32_t tuples,
                        const uint32_t *rows, uint32_t flags)
{
    const float in[] = {0, 1, 2, 3};
    float out[8];
    for (uint32_t p = 0; p < tuples; p++) {
        out[2 * p] = in[2 * rows[p]];
        out[2 * p + 1] = in[2 * rows[p] + 1];
    }
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_FLOAT32, 2, SIZES(2, 2)), packed(type, 2, SIZES(tuples, 1)),
                           packed(TMV_DTYPE_FLOAT32, 2, SIZES(tuples, 2))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 2, 2, 0, flags);
    expect_one_output(what, &desc, (const void *[]){in, idx_bytes}, out, tuples * 2 * sizeof(float));
}

Test(gather_nd, spec_seed_example1)
{
    const uint32_t idx[] = {1, 0};
    const uint32_t in[] = {0, 1, 2, 3}, out[] = {2, 3, 0, 1};
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_UINT32, 2, SIZES(2, 2)), packed(TMV_DTYPE_UINT32, 2, SIZES(2, 1)),
                           packed(TMV_DTYPE_UINT32, 2, SIZES(2, 2))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 2, 2, 0, 0);
    expect_one_output("gather_nd seed example 1", &desc, (const void *[]){in, idx}, out, sizeof out);
}

Test(gather_nd, spec_seed_example2_batch)
{
    const int16_t in[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const int64_t idx[] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    const int16_t out[] = {0, 3, 7, 4, 9, 10};
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_INT16, 4, SIZES(1, 3, 2, 2)),
                           packed(TMV_DTYPE_INT64, 4, SIZES(1, 3, 2, 2)),
                           packed(TMV_DTYPE_INT16, 4, SIZES(1, 1, 3, 2))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 3, 3, 1, 0);
    expect_one_output("gather_nd seed example 2", &desc, (const void *[]){in, idx}, out, sizeof out);
}

Test(gather_nd, each_index_type)
{
    const int32_t i32[] = {1, 0, 1};
    const int64_t i64[] = {0, 1, 1};
    const uint32_t u32[] = {1, 1, 0};
    const uint64_t u64[] = {0, 0, 1};
    gather_rows("INT32 indices", TMV_DTYPE_INT32, i32, 3, SIZES(1, 0, 1), 0);
    gather_rows("INT64 indices", TMV_DTYPE_INT64, i64, 3, SIZES(0, 1, 1), 0);
    gather_rows("UINT32 indices", TMV_DTYPE_UINT32, u32, 3, SIZES(1, 1, 0), 0);
    gather_rows("UINT64 indices", TMV_DTYPE_UINT64, u64, 3, SIZES(0, 0, 1), 0);
}

Test(gather_nd, negative_indices_count_from_the_end)
{
    const int32_t i32[] = {-1, -2, 0};
    const int64_t i64[] = {-2, -1, 1};
    gather_rows("INT32 negative indices", TMV_DTYPE_INT32, i32, 3, SIZES(1, 0, 0), 0);
    gather_rows("INT64 negative indices", TMV_DTYPE_INT64, i64, 3, SIZES(0, 1, 1), 0);
}

/* Without the clamp flag each of these must fail before writing anything. */
static void expect_out_of_range(const char *what, tmv_dtype type, const void *idx)
{
    const float in[] = {0, 1, 2, 3};
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_FLOAT32, 2, SIZES(2, 2)), packed(type, 2, SIZES(2, 1)),
                           packed(TMV_DTYPE_FLOAT32, 2, SIZES(2, 2))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 2, 2, 0, 0);
    const void *inputs[] = {in, idx};
    size_t bytes = 4 * sizeof(float);
    tu_expect_execute_failure(what, &desc, inputs, 1, &bytes, TMV_ERR_INDEX_OUT_OF_RANGE);
}

Test(gather_nd, out_of_range_fails_and_writes_nothing)
{
    const int32_t i32_high[] = {0, 2}, i32_low[] = {-3, 0};
    const int64_t i64_low[] = {1, INT64_MIN};
    const uint32_t u32_high[] = {0xFFFFFFFFu, 0};
    const uint64_t u64_wrap[] = {0, (1ull << 32) + 1}; /* low 32 bits are in range */
    expect_out_of_range("INT32 index 2 of 2", TMV_DTYPE_INT32, i32_high);
    expect_out_of_range("INT32 index -3 of 2", TMV_DTYPE_INT32, i32_low);
    expect_out_of_range("INT64 index INT64_MIN", TMV_DTYPE_INT64, i64_low);
    expect_out_of_range("UINT32 index 0xFFFFFFFF", TMV_DTYPE_UINT32, u32_high);
    expect_out_of_range("UINT64 index 2^32 + 1", TMV_DTYPE_UINT64, u64_wrap);
}

Test(gather_nd, out_of_range_message_names_index)
{
    const float in[] = {0, 1, 2, 3};
    float out[4];
    const int32_t idx[] = {0, 7};
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_FLOAT32, 2, SIZES(2, 2)), packed(TMV_DTYPE_INT32, 2, SIZES(2, 1)),
                           packed(TMV_DTYPE_FLOAT32, 2, SIZES(2, 2))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 2, 2, 0, 0);
    const void *inputs[] = {in, idx};
    void *outputs[] = {out};
    cr_assert_eq(tmv_execute(&desc, inputs, outputs), TMV_ERR_INDEX_OUT_OF_RANGE);
    cr_assert_not_null(strstr(tmv_last_error(), "7"), "message \"%s\" does not name the value 7", tmv_last_error());
}

/* Clamped: too large selects the last row, too negative the first. */
Test(gather_nd, clamp_flag_clamps)
{
    const int32_t i32[] = {5, -7, -2};
    const int64_t i64[] = {INT64_MIN, INT64_MAX, -1};
    const uint32_t u32[] = {2, 0xFFFFFFFFu, 0};
    const uint64_t u64[] = {UINT64_MAX, (1ull << 32), 1};
    gather_rows("INT32 clamped", TMV_DTYPE_INT32, i32, 3, SIZES(1, 0, 0), TMV_OP_FLAG_CLAMP_INDICES);
    gather_rows("INT64 clamped", TMV_DTYPE_INT64, i64, 3, SIZES(0, 1, 1), TMV_OP_FLAG_CLAMP_INDICES);
    gather_rows("UINT32 clamped", TMV_DTYPE_UINT32, u32, 3, SIZES(1, 1, 0), TMV_OP_FLAG_CLAMP_INDICES);
    gather_rows("UINT64 clamped", TMV_DTYPE_UINT64, u64, 3, SIZES(1, 1, 1), TMV_OP_FLAG_CLAMP_INDICES);
}

/* The documented choice: an output without elements uses no index, so even
 * an out-of-range one is not checked. */
Test(gather_nd, empty_output_checks_no_index)
{
    const float in[] = {0, 1, 2, 3};
    const int32_t idx[] = {9, 9};
    tmv_tensor_desc t[] = {packed(TMV_DTYPE_FLOAT32, 3, SIZES(1, 2, 0)), packed(TMV_DTYPE_INT32, 3, SIZES(1, 2, 1)),
                           packed(TMV_DTYPE_FLOAT32, 3, SIZES(1, 2, 0))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 2, 2, 0, 0);
    (void)in;
    const void *inputs[] = {NULL, idx};
    void *outputs[] = {NULL};
    cr_assert_eq(tmv_execute(&desc, inputs, outputs), TMV_OK, "%s", tmv_last_error());
}

/* ------------------------------------------------------ many pieces */

/* JOIN and SPLIT of 100,000 u8 pieces, on every kernel set:
 *   packed   whole {n} <-> pieces {1} (the row-wise plan);
 *   strided  whole {2, n} with strides {1, 2} <-> pieces {2, 1} (a copy per piece).
 * Either way piece k holds the whole's bytes [k * b, k * b + b) (b = piece
 * bytes). The pieces' buffers share one arena, piece k at slot[k] * b, in
 * ascending, descending or shuffled slot order; the written buffer (arena or
 * whole) has TU_GUARD canary bytes on each side, which must survive. */
#define MANY_PIECES 100000u

typedef enum many_order { MANY_ASCENDING, MANY_DESCENDING, MANY_SHUFFLED } many_order;

typedef struct many_case {
    bool       join, strided;
    many_order order;
} many_case;

static void fill_guarded(unsigned char *base, size_t bytes)
{
    for (size_t i = 0; i < bytes + 2 * TU_GUARD; i++)
        base[i] = tu_canary_at((int64_t)i - TU_GUARD);
}

static void many_pieces_on_isa(tmv_isa isa, void *ctx)
{
    const many_case *c = ctx;
    const uint32_t n = MANY_PIECES, b = c->strided ? 2 : 1;
    const size_t bytes = (size_t)n * b;
    uint32_t whole_sizes[2] = {n, 0}, piece_sizes[2] = {1, 0};
    if (c->strided) {
        whole_sizes[0] = 2, whole_sizes[1] = n;
        piece_sizes[0] = 2, piece_sizes[1] = 1;
    }
    const uint32_t rank = c->strided ? 2 : 1;
    tmv_tensor_desc whole = tu_tensor(TMV_DTYPE_UINT8, rank, whole_sizes, c->strided ? SIZES(1, 2) : NULL);
    tmv_tensor_desc *pieces = malloc(n * sizeof *pieces);
    uint32_t *slot = malloc(n * sizeof *slot);
    void **piece_bufs = malloc(n * sizeof *piece_bufs);
    unsigned char *whole_base = malloc(bytes + 2 * TU_GUARD), *arena_base = malloc(bytes + 2 * TU_GUARD);
    cr_assert(pieces && slot && piece_bufs && whole_base && arena_base);
    unsigned char *whole_buf = whole_base + TU_GUARD, *arena = arena_base + TU_GUARD;

    uint64_t state = 0x2545F4914F6CDD1Du;
    for (uint32_t k = 0; k < n; k++)
        slot[k] = c->order == MANY_DESCENDING ? n - 1 - k : k;
    for (uint32_t k = n - 1; c->order == MANY_SHUFFLED && k > 0; k--) { /* Fisher-Yates, xorshift64 */
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        const uint32_t j = (uint32_t)(state % (k + 1)), t = slot[k];
        slot[k] = slot[j];
        slot[j] = t;
    }
    for (uint32_t k = 0; k < n; k++) {
        pieces[k] = tu_tensor(TMV_DTYPE_UINT8, rank, piece_sizes, NULL);
        piece_bufs[k] = arena + (size_t)slot[k] * b;
    }

    /* The read side gets a pattern, the written side canaries. */
    unsigned char *src = c->join ? arena : whole_buf;
    fill_guarded(c->join ? whole_base : arena_base, bytes);
    for (size_t i = 0; i < bytes; i++)
        src[i] = (unsigned char)(i * 131u + (i >> 8) + 7u);

    tmv_join_desc join = {n, pieces, &whole, rank - 1};
    tmv_split_desc split = {&whole, n, pieces, rank - 1};
    tmv_op_desc desc = c->join ? (tmv_op_desc){TMV_OP_JOIN, &join, 0} : (tmv_op_desc){TMV_OP_SPLIT, &split, 0};
    tmv_op *op = NULL;
    tmv_status s = tmv_op_create(&desc, &op);
    cr_assert_eq(s, TMV_OK, "create: %s: %s", tmv_status_string(s), tmv_last_error());
    const void *whole_in[] = {whole_buf};
    void *whole_out[] = {whole_buf};
    s = c->join ? tmv_op_execute(op, (const void *const *)piece_bufs, whole_out)
                : tmv_op_execute(op, whole_in, piece_bufs);
    cr_assert_eq(s, TMV_OK, "execute (%s): %s: %s", tmv_op_describe(op), tmv_status_string(s), tmv_last_error());

    const unsigned char *written = c->join ? whole_base : arena_base;
    for (int64_t i = -TU_GUARD; i < 0; i++)
        cr_assert_eq(written[i + TU_GUARD], tu_canary_at(i), "kernel set %s: guard byte %lld written",
                     tmv_isa_name(isa), (long long)i);
    for (int64_t i = 0; i < TU_GUARD; i++)
        cr_assert_eq(written[TU_GUARD + bytes + i], tu_canary_at((int64_t)bytes + i),
                     "kernel set %s: guard byte %zu written", tmv_isa_name(isa), bytes + (size_t)i);
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < b; i++) {
            const unsigned char in_piece = arena[(size_t)slot[k] * b + i], in_whole = whole_buf[(size_t)k * b + i];
            cr_assert_eq(in_piece, in_whole, "kernel set %s (%s): piece %u byte %u is 0x%02x in the piece, "
                         "0x%02x in the whole", tmv_isa_name(isa), tmv_op_describe(op), k, i, in_piece, in_whole);
        }
    tmv_op_destroy(op);
    free(arena_base);
    free(whole_base);
    free(piece_bufs);
    free(slot);
    free(pieces);
}

static void expect_many_pieces(bool join, bool strided, many_order order)
{
    many_case c = {join, strided, order};
    tu_for_each_isa(many_pieces_on_isa, &c);
}

Test(split, many_100000_outputs_packed)
{
    expect_many_pieces(false, false, MANY_ASCENDING);
    expect_many_pieces(false, false, MANY_DESCENDING);
    expect_many_pieces(false, false, MANY_SHUFFLED);
}

Test(split, many_100000_outputs_strided)
{
    expect_many_pieces(false, true, MANY_ASCENDING);
    expect_many_pieces(false, true, MANY_SHUFFLED);
}

Test(join, many_100000_inputs_packed)
{
    expect_many_pieces(true, false, MANY_ASCENDING);
    expect_many_pieces(true, false, MANY_SHUFFLED);
}

Test(join, many_100000_inputs_strided)
{
    expect_many_pieces(true, true, MANY_ASCENDING);
    expect_many_pieces(true, true, MANY_SHUFFLED);
}

/* ------------------------------------------------------ beyond 4 GiB */

/* A sparse, never-touched-but-two-pages input whose second element lives at
 * element offset 2^31 (byte 8 GiB): 32-bit offset arithmetic would read
 * element 0 or fault. */
typedef struct huge_input {
    void  *map;
    size_t len;
} huge_input;

/* Skips the test where the mapping cannot be made. */
static huge_input map_huge(float first, float second)
{
    if (sizeof(size_t) < 8)
        cr_skip_test("needs a 64-bit size_t");
    huge_input h = {NULL, ((size_t)1 << 33) + sizeof(float)};
    h.map = mmap(NULL, h.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (h.map == MAP_FAILED)
        cr_skip_test("mmap of 8 GiB (MAP_NORESERVE) failed: cannot test offsets beyond 4 GiB here");
    ((float *)h.map)[0] = first;
    ((float *)h.map)[(size_t)1 << 31] = second;
    return h;
}

Test(beyond_4gib, join_reads_element_at_8gib)
{
    huge_input h = map_huge(1.5f, -2.5f);
    const float out[] = {1.5f, -2.5f};
    tmv_tensor_desc i = tu_tensor(TMV_DTYPE_FLOAT32, 1, SIZES(2), SIZES(1u << 31));
    tmv_tensor_desc o = packed(TMV_DTYPE_FLOAT32, 1, SIZES(2));
    expect_join("join of an 8 GiB-strided input", 1, &i, &o, 0, (const void *[]){h.map}, out, sizeof out);
    munmap(h.map, h.len);
}

Test(beyond_4gib, gather_nd_reads_element_at_8gib)
{
    huge_input h = map_huge(1.5f, -2.5f);
    const uint64_t idx[] = {1, 0, 1};
    const float out[] = {-2.5f, 1.5f, -2.5f};
    tmv_tensor_desc t[] = {tu_tensor(TMV_DTYPE_FLOAT32, 2, SIZES(1, 2), SIZES(7, 1u << 31)),
                           packed(TMV_DTYPE_UINT64, 2, SIZES(3, 1)), packed(TMV_DTYPE_FLOAT32, 2, SIZES(1, 3))};
    tmv_gather_nd_desc g;
    tmv_op_desc desc = gather_desc(&g, t, 1, 2, 0, 0);
    expect_one_output("gather_nd from an 8 GiB-strided input", &desc, (const void *[]){h.map, idx}, out, sizeof out);
    munmap(h.map, h.len);
}

/* tmv_dtype_size against docs/SPEC.md's table of element sizes (casegen's own copy
 * of it), and 0 for values that name no type. */
Test(api, dtype_size)
{
    for (int t = TMV_DTYPE_FLOAT32; t <= TMV_DTYPE_INT64; t++)
        cr_assert_eq((size_t)tmv_dtype_size((tmv_dtype)t), cg_dtype_size((tmv_dtype)t), "%s", cg_dtype_name((tmv_dtype)t));
    cr_assert_eq(tmv_dtype_size((tmv_dtype)0), 0u);
    cr_assert_eq(tmv_dtype_size((tmv_dtype)12), 0u);
}
