/* test_kernels_copy.c - the x86 strided-copy kernels (SPACE_TO_DEPTH de-interleave, DEPTH_TO_SPACE
 * interleave) on hand-built edge shapes against the reference, once per kernel set, and which
 * kernel each set picks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "reference/reference.h"
#include "test_util.h"

/* ------------------------------------------------ one operator case */

static const tmv_dtype widths[] = {TMV_DTYPE_UINT8, TMV_DTYPE_FLOAT16, TMV_DTYPE_FLOAT32, TMV_DTYPE_FLOAT64};

/* Runs desc (one input, one output) on every kernel set through
 * tu_expect_outputs, with the reference's result as the expectation. */
static void check_against_reference(const char *what, const tmv_op_desc *desc, const tmv_tensor_desc *in,
                                    const tmv_tensor_desc *out)
{
    const size_t in_bytes = cg_extent_bytes(in), out_bytes = cg_extent_bytes(out);
    tu_guarded input = tu_guarded_new(in_bytes, NULL, 0);
    unsigned char *expected = malloc(out_bytes);
    cr_assert_not_null(expected);
    for (size_t i = 0; i < out_bytes; i++)
        expected[i] = tu_canary_at((int64_t)i);   /* gaps between rows keep their canaries */

    tmv_op *op;
    cr_assert_eq(tmv_op_create(desc, &op), TMV_OK, "%s: %s", what, tmv_last_error());
    const void *ins[] = {input.data};
    void *outs[] = {expected};
    cr_assert_eq(tmv_reference_execute(op, ins, outs), TMV_OK, "%s: reference failed", what);
    tmv_op_destroy(op);

    const void *expect[] = {expected};
    tu_expect_outputs(what, desc, ins, 1, &out_bytes, expect);
    free(expected);
    tu_guarded_free(&input);
}

typedef struct depth_case {
    bool     to_depth;
    tmv_dtype dtype;
    uint32_t b, x, y, c;
    bool     crd;
    uint32_t pad;   /* extra elements at the end of each spatial row (input of S2D, output of D2S) */
} depth_case;

/* Space {1, C, Y*B, X*B} (rows padded by pad) <-> depth {1, C*B*B, Y, X}. */
typedef struct depth_desc {
    uint32_t space_sizes[4], depth_sizes[4], space_strides[4];
    tmv_tensor_desc space, depth;
    tmv_space_to_depth_desc s2d;
    tmv_depth_to_space_desc d2s;
    tmv_op_desc op;
} depth_desc;

static void depth_build(const depth_case *k, depth_desc *d)
{
    const uint32_t h = k->y * k->b, w = k->x * k->b, row = w + k->pad;
    const uint32_t space_sizes[4] = {1, k->c, h, w};
    const uint32_t depth_sizes[4] = {1, k->c * k->b * k->b, k->y, k->x};
    const uint32_t space_strides[4] = {k->c * h * row, h * row, row, 1};
    memcpy(d->space_sizes, space_sizes, sizeof space_sizes);
    memcpy(d->depth_sizes, depth_sizes, sizeof depth_sizes);
    memcpy(d->space_strides, space_strides, sizeof space_strides);
    d->space = tu_tensor(k->dtype, 4, d->space_sizes, k->pad ? d->space_strides : NULL);
    d->depth = tu_tensor(k->dtype, 4, d->depth_sizes, NULL);
    const tmv_depth_space_order order =
        k->crd ? TMV_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH : TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    if (k->to_depth) {
        d->s2d = (tmv_space_to_depth_desc){&d->space, &d->depth, k->b, order};
        d->op = (tmv_op_desc){TMV_OP_SPACE_TO_DEPTH, &d->s2d, TMV_OP_FLAG_NONE};
    } else {
        d->d2s = (tmv_depth_to_space_desc){&d->depth, &d->space, k->b, order};
        d->op = (tmv_op_desc){TMV_OP_DEPTH_TO_SPACE, &d->d2s, TMV_OP_FLAG_NONE};
    }
}

static void depth_check(const depth_case *k)
{
    depth_desc d;
    depth_build(k, &d);
    char what[160];
    snprintf(what, sizeof what, "%s %s B=%u X=%u Y=%u C=%u %s pad=%u", k->to_depth ? "s2d" : "d2s",
             cg_dtype_name(k->dtype), k->b, k->x, k->y, k->c, k->crd ? "crd" : "dcr", k->pad);
    if (k->to_depth)
        check_against_reference(what, &d.op, &d.space, &d.depth);
    else
        check_against_reference(what, &d.op, &d.depth, &d.space);
}

/* X around every set's vector (16, 32 and 64 bytes) and the AVX-512 sets'
 * four-vector threshold, plus small and odd sizes. */
static unsigned edge_xs(size_t w, uint32_t *xs)
{
    unsigned n = 0;
    const uint32_t small[] = {1, 2, 3, 7, 13};
    for (unsigned i = 0; i < sizeof small / sizeof small[0]; i++)
        xs[n++] = small[i];
    const uint32_t vectors[] = {(uint32_t)(16 / w), (uint32_t)(32 / w), (uint32_t)(64 / w),
                                (uint32_t)(128 / w), (uint32_t)(256 / w)};
    for (unsigned i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        const uint32_t v = vectors[i];
        const uint32_t around[] = {v - 1, v, v + 1};
        for (unsigned j = 0; j < 3; j++) {
            bool seen = false;
            for (unsigned m = 0; m < n; m++)
                seen |= xs[m] == around[j];
            if (around[j] > 0 && !seen)
                xs[n++] = around[j];
        }
    }
    xs[n++] = (uint32_t)(3 * 64 / w + 5);   /* several whole vectors and an odd tail */
    return n;
}

static void depth_matrix(bool to_depth, tmv_dtype dtype)
{
    const uint32_t blocks[] = {2, 3, 4, 8, 5};
    uint32_t xs[32];
    const unsigned nx = edge_xs(cg_dtype_size(dtype), xs);
    for (unsigned bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++)
        for (unsigned xi = 0; xi < nx; xi++)
            for (int crd = 0; crd < 2; crd++) {
                const depth_case k = {to_depth, dtype, blocks[bi], xs[xi], 3, 2, crd, 0};
                depth_check(&k);
            }
    /* Padded spatial rows (strided S2D input / D2S output, gaps kept), one
     * output row (Y = 1), and one channel. */
    const uint32_t b_some[] = {2, 4};
    for (unsigned bi = 0; bi < 2; bi++)
        for (unsigned xi = 0; xi < nx; xi += 3) {
            const depth_case padded = {to_depth, dtype, b_some[bi], xs[xi], 2, 3, false, 5};
            const depth_case one_row = {to_depth, dtype, b_some[bi], xs[xi], 1, 1, true, 0};
            depth_check(&padded);
            depth_check(&one_row);
        }
}

Test(kernels_copy, space_to_depth_u8) { depth_matrix(true, TMV_DTYPE_UINT8); }
Test(kernels_copy, space_to_depth_f16) { depth_matrix(true, TMV_DTYPE_FLOAT16); }
Test(kernels_copy, space_to_depth_f32) { depth_matrix(true, TMV_DTYPE_FLOAT32); }
Test(kernels_copy, space_to_depth_f64) { depth_matrix(true, TMV_DTYPE_FLOAT64); }
Test(kernels_copy, depth_to_space_u8) { depth_matrix(false, TMV_DTYPE_UINT8); }
Test(kernels_copy, depth_to_space_f16) { depth_matrix(false, TMV_DTYPE_FLOAT16); }
Test(kernels_copy, depth_to_space_f32) { depth_matrix(false, TMV_DTYPE_FLOAT32); }
Test(kernels_copy, depth_to_space_f64) { depth_matrix(false, TMV_DTYPE_FLOAT64); }

/* The AVX-512 stream kernels: rows of at least a vector whose output runs on
 * across rows (seams at every offset in a vector, partial head and tail
 * groups, a padded S2D input), streams of 16 or more vectors per plane. Run
 * again with TENSORMOVE_STREAM_THRESHOLD=1 for the non-temporal path. */
static void depth_stream_matrix(bool to_depth, tmv_dtype dtype)
{
    const uint32_t v = (uint32_t)(64 / cg_dtype_size(dtype));   /* elements per vector */
    const uint32_t xs[] = {v, v + 1, v + 5, 2 * v - 1, 3 * v + 7};
    const uint32_t blocks[] = {2, 3, 4, 8};
    for (unsigned bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++)
        for (unsigned xi = 0; xi < sizeof xs / sizeof xs[0]; xi += blocks[bi] == 8 ? 2 : 1)
            for (int crd = 0; crd < 2; crd++) {
                const depth_case k = {to_depth, dtype, blocks[bi], xs[xi], 17, 2, crd, 0};
                depth_check(&k);
                if (to_depth && !crd) {
                    const depth_case padded = {to_depth, dtype, blocks[bi], xs[xi], 17, 2, false, 3};
                    depth_check(&padded);
                }
            }
}

Test(kernels_copy, space_to_depth_stream)
{
    for (unsigned wi = 0; wi < 4; wi++)
        depth_stream_matrix(true, widths[wi]);
    /* Long streams (of several segments when streaming, one plane row each): ranges that start
     * mid-stream, both orders, a padded input. No plane here is a whole number of 64-byte lines, so
     * streaming, every plane after the first is stored realigned. */
    const depth_case longs[] = {
        {true, TMV_DTYPE_UINT8, 2, 200, 100, 2, false, 0}, {true, TMV_DTYPE_UINT8, 2, 200, 100, 2, true, 0},
        {true, TMV_DTYPE_UINT8, 2, 201, 100, 2, false, 7}, {true, TMV_DTYPE_FLOAT32, 4, 21, 60, 2, false, 0},
        {true, TMV_DTYPE_FLOAT32, 4, 21, 60, 2, true, 0},  {true, TMV_DTYPE_FLOAT64, 2, 37, 70, 3, false, 1},
    };
    for (unsigned i = 0; i < sizeof longs / sizeof longs[0]; i++)
        depth_check(&longs[i]);
}

/* AVX2's chunk streams (B*w = 16 bytes, rows not a whole number of
 * vectors): groups across row seams at every column, the overlapping last
 * group, padded rows, both orders. */
Test(kernels_copy, space_to_depth_chunks)
{
    const depth_case chunks[] = {
        {true, TMV_DTYPE_FLOAT32, 4, 11, 11, 3, true, 0},  {true, TMV_DTYPE_FLOAT32, 4, 11, 11, 3, false, 0},
        {true, TMV_DTYPE_FLOAT32, 4, 9, 5, 2, false, 3},   {true, TMV_DTYPE_FLOAT64, 2, 5, 7, 2, true, 0},
        {true, TMV_DTYPE_FLOAT64, 2, 7, 9, 2, false, 1},   {true, TMV_DTYPE_FLOAT16, 8, 17, 5, 2, true, 0},
        {true, TMV_DTYPE_FLOAT16, 8, 23, 3, 1, false, 2},
    };
    for (unsigned i = 0; i < sizeof chunks / sizeof chunks[0]; i++)
        depth_check(&chunks[i]);
}

Test(kernels_copy, depth_to_space_stream)
{
    for (unsigned wi = 0; wi < 4; wi++)
        depth_stream_matrix(false, widths[wi]);
}

/* DEPTH_TO_SPACE in DCR order whose planes lie a multiple of 4 KiB apart and
 * whose plane rows are 16 or 32 bytes: the AVX-512 packed rows with output
 * runs of 128 or 256 bytes (block_pack_dim), several vectors to a run, and
 * rows left over past the whole groups (Y = 18). */
Test(kernels_copy, depth_to_space_planes_in_one_set)
{
    const depth_case planes[] = {
        {false, TMV_DTYPE_UINT8, 8, 16, 16, 16, false, 0},   {false, TMV_DTYPE_UINT8, 8, 16, 18, 128, false, 0},
        {false, TMV_DTYPE_UINT8, 4, 32, 8, 16, false, 0},    {false, TMV_DTYPE_FLOAT16, 8, 8, 16, 16, false, 0},
        {false, TMV_DTYPE_FLOAT32, 8, 8, 8, 16, false, 0},   {false, TMV_DTYPE_FLOAT32, 4, 8, 16, 16, false, 0},
    };
    for (unsigned i = 0; i < sizeof planes / sizeof planes[0]; i++)
        depth_check(&planes[i]);
}

/* Planes of rows shorter than a vector, larger than one stage segment
 * (copy_(de)interleave_planes: the last vector of a segment's last rows
 * reaching into the next segment's, the last segment's ending with the
 * tensor), and one segment each: B = 3 with 64 channels at 1 MiB (rows of
 * 42 bytes, 2688 of them), B = 2 and 4, 2-byte elements, both orders. */
Test(kernels_copy, depth_space_planes_segments)
{
    const depth_case planes[] = {
        {false, TMV_DTYPE_UINT8, 3, 42, 42, 64, false, 0}, {true, TMV_DTYPE_UINT8, 3, 42, 40, 64, true, 0},
        {false, TMV_DTYPE_UINT8, 2, 50, 45, 64, true, 0},  {true, TMV_DTYPE_UINT8, 2, 50, 45, 64, false, 0},
        {false, TMV_DTYPE_FLOAT16, 3, 20, 32, 40, false, 0}, {true, TMV_DTYPE_FLOAT16, 4, 30, 16, 16, true, 0},
        {false, TMV_DTYPE_UINT8, 8, 11, 11, 1, false, 0},  {true, TMV_DTYPE_UINT8, 8, 11, 11, 1, false, 0},
        {false, TMV_DTYPE_UINT8, 4, 13, 13, 3, true, 0},   {true, TMV_DTYPE_UINT8, 4, 13, 13, 3, false, 0},
    };
    for (unsigned i = 0; i < sizeof planes / sizeof planes[0]; i++)
        depth_check(&planes[i]);
}

/* JOIN of transposed (column-major) inputs: the 2-D transpose shape. */
Test(kernels_copy, join_transposed_inputs)
{
    const uint32_t rows_list[] = {1, 3, 4, 5, 8, 9, 16, 17, 33};
    const uint32_t cols_list[] = {1, 4, 7, 16, 19};
    for (unsigned wi = 0; wi < 4; wi++)
        for (unsigned ri = 0; ri < sizeof rows_list / sizeof rows_list[0]; ri++)
            for (unsigned ci = 0; ci < sizeof cols_list / sizeof cols_list[0]; ci++) {
                const uint32_t r = rows_list[ri], c = cols_list[ci];
                const uint32_t a_sizes[] = {r, c}, a_strides[] = {1, r};
                const uint32_t b_sizes[] = {r, c + 1};
                const uint32_t out_sizes[] = {r, 2 * c + 1};
                tmv_tensor_desc inputs[] = {tu_tensor(widths[wi], 2, a_sizes, a_strides),
                                            tu_tensor(widths[wi], 2, b_sizes, NULL)};
                tmv_tensor_desc output = tu_tensor(widths[wi], 2, out_sizes, NULL);
                tmv_join_desc join = {.input_count = 2, .inputs = inputs, .output = &output, .axis = 1};
                tmv_op_desc desc = {TMV_OP_JOIN, &join, TMV_OP_FLAG_NONE};

                const size_t a_bytes = cg_extent_bytes(&inputs[0]), b_bytes = cg_extent_bytes(&inputs[1]);
                const size_t out_bytes = cg_extent_bytes(&output);
                tu_guarded a = tu_guarded_new(a_bytes, NULL, 0), b = tu_guarded_new(b_bytes, NULL, 1);
                unsigned char *expected = malloc(out_bytes);
                cr_assert_not_null(expected);
                tmv_op *op;
                cr_assert_eq(tmv_op_create(&desc, &op), TMV_OK, "%s", tmv_last_error());
                const void *ins[] = {a.data, b.data};
                void *outs[] = {expected};
                cr_assert_eq(tmv_reference_execute(op, ins, outs), TMV_OK);
                tmv_op_destroy(op);
                char what[96];
                snprintf(what, sizeof what, "join transposed %s %ux%u", cg_dtype_name(widths[wi]), r, c);
                const void *expect[] = {expected};
                tu_expect_outputs(what, &desc, ins, 1, &out_bytes, expect);
                free(expected);
                tu_guarded_free(&a);
                tu_guarded_free(&b);
            }
}

/* ------------------------------------------------ copy_lanes/avx512, run directly */

/* copy_lanes/avx512 on B-way de-interleaves and interleaves of 16- and
 * 32-byte elements (B = 2, 4, 8), three rows of x elements a plane, rows
 * and planes padded (the padding keeps its canaries), with and without
 * streaming stores (rows and planes then on lines: past the stream
 * threshold the kernel takes no other shape): every byte against the
 * strided loop, its source ending at a guard page and its output too. The
 * planner takes the kernel where the cost model prices it lowest, so the
 * shapes here reach it whatever the model says. */
static void lanes_case(const tmv_kernel *k, bool inter, uint64_t w, uint64_t b, uint64_t x, uint64_t plane,
                       bool stream, size_t shift)
{
    const uint64_t rows = 3, group_row = (b * x * w + 48 + 63) / 64 * 64, plane_row = (b * plane + 16 + 63) / 64 * 64;
    const uint64_t src_row = inter ? plane_row : group_row, dst_row = inter ? group_row : plane_row;
    const size_t src_bytes = (size_t)(rows * src_row), dst_bytes = (size_t)(rows * dst_row) + shift;
    const tmv_tuning t = {.stream_threshold = stream ? 1 : UINT64_MAX, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
    tmv_copy_shape s = {.rank = 3, .elem_bytes = w, .tuning = &t};
    s.sizes[0] = rows, s.src_strides[0] = src_row, s.dst_strides[0] = dst_row;
    if (inter) {
        s.sizes[1] = x, s.src_strides[1] = w, s.dst_strides[1] = b * w;
        s.sizes[2] = b, s.src_strides[2] = plane, s.dst_strides[2] = w;
    } else {
        s.sizes[1] = b, s.src_strides[1] = w, s.dst_strides[1] = plane;
        s.sizes[2] = x, s.src_strides[2] = b * w, s.dst_strides[2] = w;
    }
    if (stream && !inter && plane % 64 != 0) {
        cr_assert(!k->fn.copy.accepts(&s), "planes of %llu bytes taken past the stream threshold",
                  (unsigned long long)plane);
        return;
    }
    cr_assert(k->fn.copy.accepts(&s), "w=%llu b=%llu x=%llu not accepted", (unsigned long long)w,
              (unsigned long long)b, (unsigned long long)x);
    tu_guarded src = tu_guarded_new(src_bytes, NULL, 7), dst = tu_guarded_new(dst_bytes, NULL, 0);
    unsigned char *expected = malloc(dst_bytes);
    cr_assert_not_null(expected);
    for (size_t i = 0; i < dst_bytes; i++)
        expected[i] = dst.data[i] = tu_canary_at((int64_t)i);
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t p = 0; p < b; p++)
            for (uint64_t e = 0; e < x; e++)
                for (uint64_t y = 0; y < w; y++) {
                    const uint64_t groups = e * b * w + p * w + y, planes = p * plane + e * w + y;
                    expected[shift + r * dst_row + (inter ? groups : planes)] =
                        src.data[r * src_row + (inter ? planes : groups)];
                }
    k->fn.copy.run(&s, src.data, dst.data + shift);
    for (size_t i = 0; i < dst_bytes; i++)
        cr_assert_eq(dst.data[i], expected[i], "%s w=%llu b=%llu x=%llu plane=%llu stream=%d shift=%zu: byte %zu",
                     inter ? "interleave" : "de-interleave", (unsigned long long)w, (unsigned long long)b,
                     (unsigned long long)x, (unsigned long long)plane, stream, shift, i);
    free(expected);
    tu_guarded_free(&src);
    tu_guarded_free(&dst);
}

Test(kernels_copy, lanes_of_16_and_32_bytes)
{
    const tmv_kernel *k = tu_runnable_kernel("copy_lanes/avx512");
    if (k == NULL)
        cr_skip_test("copy_lanes/avx512: this CPU does not run the avx512 set");
    const uint64_t xs[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 17};
    for (uint64_t w = 16; w <= 32; w *= 2)
        for (uint64_t b = 2; b <= 8; b *= 2)
            for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++)
                for (int inter = 0; inter < 2; inter++) {
                    const uint64_t line = (xs[i] * w + 63) / 64 * 64;
                    lanes_case(k, inter, w, b, xs[i], line, true, 0);
                    lanes_case(k, inter, w, b, xs[i], line, true, 16);   /* no row on a line: not streamed */
                    lanes_case(k, inter, w, b, xs[i], line, false, 0);
                    lanes_case(k, inter, w, b, xs[i], xs[i] * w + 16, false, 0);
                    lanes_case(k, inter, w, b, xs[i], xs[i] * w + 16, true, 0);
                }
}
