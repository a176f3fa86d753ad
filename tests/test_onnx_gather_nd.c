/* test_onnx_gather_nd.c - tmv_gather_nd_desc_from_onnx: the ONNX GatherND spec's examples, an embedding lookup and unequal ranks against hand loops, strided data, a scalar output, every rejection with its message. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

#define SIZES(...) ((const uint32_t[]){__VA_ARGS__})
#define COUNT(...) ((uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))
#define TENSOR(dt, ...) ((tmv_tensor_desc){(dt), COUNT(__VA_ARGS__), SIZES(__VA_ARGS__), NULL})
#define I32 TMV_DTYPE_INT32
#define I64 TMV_DTYPE_INT64

/* The helper's description of data and indices: it succeeds, pads to n
 * dimensions with these sizes and counts the ONNX ranks. */
static void describe(const tmv_tensor_desc *data, const tmv_tensor_desc *indices, uint32_t batch_dims,
                     tmv_gather_nd_onnx *g, uint32_t n, const uint32_t *input_sizes,
                     const uint32_t *indices_sizes, const uint32_t *output_sizes)
{
    cr_assert_eq(tmv_gather_nd_desc_from_onnx(data, indices, batch_dims, g), TMV_OK, "%s",
                 tmv_last_error());
    cr_assert_eq(g->desc.input, &g->input);
    cr_assert_eq(g->desc.indices, &g->indices);
    cr_assert_eq(g->desc.output, &g->output);
    cr_assert_eq(g->desc.input_dim_count, data->dim_count);
    cr_assert_eq(g->desc.indices_dim_count, indices->dim_count);
    cr_assert_eq(g->desc.batch_dim_count, batch_dims);
    cr_assert_eq(g->output.dtype, data->dtype);
    cr_assert_eq(g->input.dim_count, n);
    cr_assert_eq(g->indices.dim_count, n);
    cr_assert_eq(g->output.dim_count, n);
    cr_assert_arr_eq(g->input.sizes, input_sizes, n * sizeof *input_sizes);
    cr_assert_arr_eq(g->indices.sizes, indices_sizes, n * sizeof *indices_sizes);
    cr_assert_arr_eq(g->output.sizes, output_sizes, n * sizeof *output_sizes);
}

/* g's description compiled and executed on the caller's unpadded buffers. */
static void run(const tmv_gather_nd_onnx *g, const void *data_buf, const void *indices_buf, void *out)
{
    tmv_op *op;
    cr_assert_eq(tmv_op_create_gather_nd(&g->desc, TMV_OP_FLAG_NONE, &op), TMV_OK, "%s", tmv_last_error());
    const void *ins[] = {data_buf, indices_buf};
    void *outs[] = {out};
    const tmv_status status = tmv_op_execute(op, ins, outs);
    tmv_op_destroy(op);
    cr_assert_eq(status, TMV_OK, "%s", tmv_last_error());
}

/* ---- the examples of ONNX's GatherND operator page ------------------------ */

/* Examples 1 to 5, INT32 data and INT64 indices; `want` as the page prints it. */
Test(onnx_gather_nd, onnx_examples)
{
    const int32_t matrix[] = {0, 1, 2, 3};              /* [[0,1],[2,3]] */
    const int32_t cube[] = {0, 1, 2, 3, 4, 5, 6, 7};    /* [[[0,1],[2,3]],[[4,5],[6,7]]] */
    const struct {
        tmv_tensor_desc data, indices;
        const int32_t  *data_buf;
        const int64_t  *idx;
        uint32_t        batch_dims, n, output_rank;
        const uint32_t *input_sizes, *indices_sizes, *output_sizes;
        const int32_t  *want;
        uint32_t        want_count;
    } examples[] = {
        {TENSOR(I32, 2, 2), TENSOR(I64, 2, 2), matrix, (const int64_t[]){0, 0, 1, 1}, 0, 2, 1,
         SIZES(2, 2), SIZES(2, 2), SIZES(1, 2), (const int32_t[]){0, 3}, 2},
        {TENSOR(I32, 2, 2), TENSOR(I64, 2, 1), matrix, (const int64_t[]){1, 0}, 0, 2, 2,
         SIZES(2, 2), SIZES(2, 1), SIZES(2, 2), (const int32_t[]){2, 3, 0, 1}, 4},
        {TENSOR(I32, 2, 2, 2), TENSOR(I64, 2, 2), cube, (const int64_t[]){0, 1, 1, 0}, 0, 3, 2,
         SIZES(2, 2, 2), SIZES(1, 2, 2), SIZES(1, 2, 2), (const int32_t[]){2, 3, 4, 5}, 4},
        {TENSOR(I32, 2, 2, 2), TENSOR(I64, 2, 1, 2), cube, (const int64_t[]){0, 1, 1, 0}, 0, 3, 3,
         SIZES(2, 2, 2), SIZES(2, 1, 2), SIZES(2, 1, 2), (const int32_t[]){2, 3, 4, 5}, 4},
        {TENSOR(I32, 2, 2, 2), TENSOR(I64, 2, 1), cube, (const int64_t[]){1, 0}, 1, 3, 2,
         SIZES(2, 2, 2), SIZES(1, 2, 1), SIZES(1, 2, 2), (const int32_t[]){2, 3, 4, 5}, 4},
    };
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        tmv_gather_nd_onnx g;
        describe(&examples[e].data, &examples[e].indices, examples[e].batch_dims, &g, examples[e].n,
                 examples[e].input_sizes, examples[e].indices_sizes, examples[e].output_sizes);
        cr_assert_eq(g.output_rank, examples[e].output_rank, "example %zu", e + 1);
        int32_t out[4];
        run(&g, examples[e].data_buf, examples[e].idx, out);
        cr_assert_arr_eq(out, examples[e].want, examples[e].want_count * sizeof(int32_t),
                         "example %zu", e + 1);
    }
}

/* ---- larger cases against hand loops -------------------------------------- */

#define ROWS 500
#define WIDTH 16

/* data [500,16] float32 (as bit patterns), indices [4,8,1] int64: output
 * [4,8,16], output[a][b][t] = data[indices[a][b][0]][t]. */
Test(onnx_gather_nd, embedding_lookup)
{
    static uint32_t table[ROWS * WIDTH], out[4 * 8 * WIDTH], want[4 * 8 * WIDTH];
    int64_t idx[4 * 8];
    for (uint32_t e = 0; e < ROWS * WIDTH; e++)
        table[e] = 0x3f800000u + e * 2654435761u;   /* distinct float bit patterns */
    for (uint32_t p = 0; p < 4 * 8; p++)
        idx[p] = p % 3 == 2 ? -(int64_t)(p * 13 % ROWS) - 1 : (int64_t)(p * 37 % ROWS);
    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = 0; b < 8; b++) {
            const int64_t v = idx[a * 8 + b];
            const uint32_t row = (uint32_t)(v < 0 ? v + ROWS : v);
            for (uint32_t t = 0; t < WIDTH; t++)
                want[(a * 8 + b) * WIDTH + t] = table[row * WIDTH + t];
        }
    const tmv_tensor_desc data = TENSOR(TMV_DTYPE_FLOAT32, ROWS, WIDTH), indices = TENSOR(I64, 4, 8, 1);
    tmv_gather_nd_onnx g;
    describe(&data, &indices, 0, &g, 3, SIZES(1, ROWS, WIDTH), SIZES(4, 8, 1), SIZES(4, 8, WIDTH));
    cr_assert_eq(g.output_rank, 3);
    memset(out, 0xa5, sizeof out);
    run(&g, table, idx, out);
    cr_assert_arr_eq(out, want, sizeof want);
}

/* data [2,5,3] with batch_dims 1 and indices [2,1] (q < r): output [2,3],
 * output[a][t] = data[a][indices[a][0]][t]; the indices are padded. */
Test(onnx_gather_nd, batch_with_unequal_ranks)
{
    uint16_t data_buf[2 * 5 * 3], out[2 * 3], want[2 * 3];
    const uint32_t idx[] = {4, 1};
    for (uint16_t e = 0; e < 2 * 5 * 3; e++)
        data_buf[e] = (uint16_t)(1000 + e);
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t t = 0; t < 3; t++)
            want[a * 3 + t] = data_buf[(a * 5 + idx[a]) * 3 + t];
    const tmv_tensor_desc data = TENSOR(TMV_DTYPE_UINT16, 2, 5, 3), indices = TENSOR(TMV_DTYPE_UINT32, 2, 1);
    tmv_gather_nd_onnx g;
    describe(&data, &indices, 1, &g, 3, SIZES(2, 5, 3), SIZES(1, 2, 1), SIZES(1, 2, 3));
    cr_assert_eq(g.output_rank, 2);
    run(&g, data_buf, idx, out);
    cr_assert_arr_eq(out, want, sizeof want);
}

/* Strided data and indices keep their strides behind the padding. */
Test(onnx_gather_nd, strides_padded)
{
    /* data [3,2] in rows of 4 elements; indices [1] (q = 1, k = 1) read
     * through stride 1: output [2] = row indices[0]. */
    const uint32_t data_sizes[] = {3, 2}, data_strides[] = {4, 1};
    const uint32_t idx_sizes[] = {1}, idx_strides[] = {1};
    const tmv_tensor_desc data = {I32, 2, data_sizes, data_strides};
    const tmv_tensor_desc indices = {I32, 1, idx_sizes, idx_strides};
    const int32_t data_buf[] = {10, 11, -1, -1, 20, 21, -1, -1, 30, 31};
    const int32_t idx[] = {2};
    static const int32_t want[] = {30, 31};
    tmv_gather_nd_onnx g;
    describe(&data, &indices, 0, &g, 2, SIZES(3, 2), SIZES(1, 1), SIZES(1, 2));
    cr_assert_arr_eq(g.input.strides, data_strides, sizeof data_strides);
    cr_assert_eq(g.indices.strides[0], 0);   /* the padding */
    cr_assert_eq(g.indices.strides[1], 1);
    cr_assert_null(g.output.strides);
    int32_t out[2];
    run(&g, data_buf, idx, out);
    cr_assert_arr_eq(out, want, sizeof want);
}

/* ONNX Gather / WebNN gather along axis 1 as docs/ONNX.md describes it:
 * batch_dims 1, the indices broadcast over the batch dimension (stride 0)
 * with a trailing tuple length of 1. data [[0,1,2],[3,4,5]], indices [2,0]:
 * Gather(axis=1) gives [[2,0],[5,3]]. */
Test(onnx_gather_nd, gather_along_axis_1)
{
    const tmv_tensor_desc data = TENSOR(I32, 2, 3);
    const uint32_t idx_sizes[] = {2, 2, 1}, idx_strides[] = {0, 1, 1};
    const tmv_tensor_desc indices = {I64, 3, idx_sizes, idx_strides};
    const int32_t data_buf[] = {0, 1, 2, 3, 4, 5};
    const int64_t idx[] = {2, 0};
    static const int32_t want[] = {2, 0, 5, 3};
    tmv_gather_nd_onnx g;
    describe(&data, &indices, 1, &g, 3, SIZES(1, 2, 3), SIZES(2, 2, 1), SIZES(1, 2, 2));
    int32_t out[4];
    run(&g, data_buf, idx, out);
    cr_assert_arr_eq(out, want, sizeof want);
}

/* A tuple as long as data's rank with q = 1 gives ONNX a scalar: m = 0, an
 * output of n ones. */
Test(onnx_gather_nd, scalar_output)
{
    const tmv_tensor_desc data = TENSOR(I32, 2, 2), indices = TENSOR(I64, 2);
    const int64_t idx[] = {1, 0};
    tmv_gather_nd_onnx g;
    describe(&data, &indices, 0, &g, 2, SIZES(2, 2), SIZES(1, 2), SIZES(1, 1));
    cr_assert_eq(g.output_rank, 0);
    const int32_t data_buf[] = {0, 1, 2, 3};   /* [[0,1],[2,3]] */
    int32_t out[1];
    run(&g, data_buf, idx, out);
    cr_assert_eq(out[0], 2);   /* data[1][0] */
}

/* ---- rejections ----------------------------------------------------------- */

/* The call fails with TMV_ERR_INVALID_ARGUMENT and exactly this message, and
 * leaves *out zeroed. */
static void expect_rejected(const tmv_tensor_desc *data, const tmv_tensor_desc *indices,
                            uint32_t batch_dims, const char *message)
{
    tmv_gather_nd_onnx g;
    memset(&g, 0x5a, sizeof g);
    cr_assert_eq(tmv_gather_nd_desc_from_onnx(data, indices, batch_dims, &g), TMV_ERR_INVALID_ARGUMENT);
    cr_assert_str_eq(tmv_last_error(), message);
    static const tmv_gather_nd_onnx zero;
    cr_assert(memcmp(&g, &zero, sizeof g) == 0, "*out not zeroed after \"%s\"", message);
}

Test(onnx_gather_nd, rejects_out_null)
{
    const tmv_tensor_desc data = TENSOR(I32, 2, 2), indices = TENSOR(I64, 2, 1);
    cr_assert_eq(tmv_gather_nd_desc_from_onnx(&data, &indices, 0, NULL), TMV_ERR_INVALID_ARGUMENT);
    cr_assert_str_eq(tmv_last_error(), "gather_nd_desc_from_onnx: out is NULL");
}

/* Every rule the helper checks, one row each, in the order it checks them. */
Test(onnx_gather_nd, rejects_each_rule_with_its_message)
{
    const tmv_tensor_desc good = TENSOR(I32, 2, 2), no_dims = {I64, 0, SIZES(1), NULL};
    const struct {
        const tmv_tensor_desc *data, *indices;
        uint32_t batch_dims;
        const char *message;
    } rows[] = {
        {NULL, &good, 0, "gather_nd_desc_from_onnx: data is NULL"},
        {&good, &no_dims, 0, "gather_nd_desc_from_onnx: indices.dim_count is 0 but must be 1 to 8"},
        {&TENSOR(I32, 2, 2, 2), &TENSOR(I64, 2, 1), 2,
         "gather_nd_desc_from_onnx: batch_dims is 2 but must be less than data's rank 3 and "
         "indices' rank 2"},
        {&TENSOR(I32, 2, 2), &TENSOR(I64, 2, 3), 0,
         "gather_nd_desc_from_onnx: indices.sizes[1] (k, the index tuple length) is 3 but must be "
         "1 to 2 (data's rank 2 - batch_dims 0)"},
        {&TENSOR(I32, 2, 2, 2), &TENSOR(I64, 2, 3), 1,
         "gather_nd_desc_from_onnx: indices.sizes[1] (k, the index tuple length) is 3 but must be "
         "1 to 2 (data's rank 3 - batch_dims 1)"},
        {&TENSOR(I32, 2, 2), &TENSOR(I64, 2, 0), 0,
         "gather_nd_desc_from_onnx: indices.sizes[1] (k, the index tuple length) is 0 but must be "
         "1 to 2 (data's rank 2 - batch_dims 0)"},
        {&TENSOR(I32, 2, 3, 4), &TENSOR(I64, 2, 5, 1), 2,
         "gather_nd_desc_from_onnx: batch dimension 1: data.sizes[1] is 3 but indices.sizes[1] "
         "is 5"},
        /* r = 6, q = 5, k = 1: m = 4 + 5 = 9 > 8 */
        {&TENSOR(I32, 2, 2, 2, 2, 2, 2), &TENSOR(I64, 1, 1, 1, 1, 1), 0,
         "gather_nd_desc_from_onnx: the output's rank (q 5 - 1) + (r 6 - batch_dims 0 - k 1) is 9, "
         "more than TMV_MAX_DIMS (8)"},
        /* past the helper's own rules, GATHER_ND's, with inference's message */
        {&TENSOR(I32, 2, 2), &TENSOR(TMV_DTYPE_FLOAT32, 2, 1), 0,
         "gather_nd: indices.dtype is FLOAT32, not an index type (INT32, INT64, UINT32 or UINT64)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        expect_rejected(rows[i].data, rows[i].indices, rows[i].batch_dims, rows[i].message);
}
