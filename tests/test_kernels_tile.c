/* test_kernels_tile.c - TILE's broadcast-copy kernels (src/x86/fill_*.c) against the reference on an edge matrix, once per kernel set, and which kernel each shape gets. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

/* One element width per dtype, plus floats for their NaN payloads. */
static const tmv_dtype dtypes[] = {TMV_DTYPE_UINT8, TMV_DTYPE_INT16, TMV_DTYPE_FLOAT32, TMV_DTYPE_UINT64,
                                   TMV_DTYPE_FLOAT16, TMV_DTYPE_FLOAT64};

/* ------------------------------------------------ hand-made cases */

/* A TILE case in casegen's form, so casegen's guarded outputs and its
 * comparison with the reference apply. The input ends where a PROT_NONE page
 * begins, as in casegen (cg_case_free unmaps it). */
static cg_case *tile_case(tmv_dtype dtype, uint32_t n, const uint32_t *in_sizes, const uint32_t *in_strides,
                          const uint32_t *repeats, const uint32_t *out_strides, uint64_t seed)
{
    cg_case *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    c->seed = seed;
    c->options = cg_default_options();
    c->op.type = TMV_OP_TILE;
    c->expect = TMV_OK;
    c->input_count = c->output_count = 1;
    for (uint32_t d = 0; d < n; d++) {
        c->sizes[0][d] = in_sizes[d];
        c->sizes[1][d] = in_sizes[d] * repeats[d];
        c->repeats[d] = repeats[d];
        if (in_strides)
            c->strides[0][d] = in_strides[d];
        if (out_strides)
            c->strides[1][d] = out_strides[d];
    }
    c->tensors[0] = tu_tensor(dtype, n, c->sizes[0], in_strides ? c->strides[0] : NULL);
    c->tensors[1] = tu_tensor(dtype, n, c->sizes[1], out_strides ? c->strides[1] : NULL);
    c->layouts[0] = in_strides ? "strided" : "packed";
    c->layouts[1] = out_strides ? "padded" : "packed";
    c->tile = (tmv_tile_desc){&c->tensors[0], &c->tensors[1], n, c->repeats};
    c->op.desc = &c->tile;

    size_t len = cg_extent_bytes(&c->tensors[0]), page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (len + page - 1) / page * page;
    unsigned char *map = mmap(NULL, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(map, MAP_FAILED);
    cr_assert_eq(mprotect(map + body, page, PROT_NONE), 0);
    cg_region *r = &c->inputs[0];
    *r = (cg_region){map, body + page, map + body - len, len, 0};
    cg_rng rng = {seed};
    for (size_t i = 0; i < len; i++)
        r->data[i] = (unsigned char)cg_rng_next(&rng);
    c->in_ptrs[0] = r->data;
    return c;
}

/* Holds the library to the reference on one tile_case. */
static void check_tile(tmv_dtype dtype, uint32_t n, const uint32_t *in_sizes, const uint32_t *in_strides,
                       const uint32_t *repeats, const uint32_t *out_strides, uint64_t seed)
{
    cg_case *c = tile_case(dtype, n, in_sizes, in_strides, repeats, out_strides, seed);
    tu_check_case(c);
    cg_case_free(c);
}

/* ------------------------------------------------ repeat the innermost dim */

/* {rows, c} tiled {1, r}: rows of r copies of a c-element period; the input
 * packed, padded or broadcast along the rows, the output packed or padded. */
static void run_inner_matrix(tmv_isa isa, void *ctx)
{
    (void)isa;
    (void)ctx;
    static const uint32_t repeats[] = {1, 2, 3, 4, 5, 67};
    static const uint32_t rows_list[] = {1, 2, 5};
    uint64_t seed = 1;
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++) {
        uint32_t w = (uint32_t)cg_dtype_size(dtypes[t]);
        for (uint32_t c = 1; c * w <= 70; c++) {
            for (size_t ri = 0; ri < sizeof repeats / sizeof repeats[0]; ri++, seed++) {
                uint32_t r = repeats[ri], rows = rows_list[seed % 3], layout = (uint32_t)(seed % 4);
                uint32_t in_sizes[2] = {rows, c}, reps[2] = {1, r};
                uint32_t in_padded[2] = {c + 3, 1}, in_broadcast[2] = {0, 1};
                uint32_t out_padded[2] = {c * r + 1 + (uint32_t)(seed % 7), 1};
                const uint32_t *in_strides = layout == 1 ? in_padded : layout == 2 ? in_broadcast : NULL;
                const uint32_t *out_strides = (seed / 4) % 2 ? out_padded : NULL;
                check_tile(dtypes[t], 2, in_sizes, in_strides, reps, out_strides, seed);
            }
        }
    }
}

Test(kernels_tile, inner_matrix) { tu_for_each_isa(run_inner_matrix, NULL); }

/* A single element broadcast along the repeated dim ({rows, c} with stride 0
 * on c): rows that are fills of one element, any width. */
static void run_element_broadcast(tmv_isa isa, void *ctx)
{
    (void)isa;
    (void)ctx;
    uint64_t seed = 1000;
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++)
        for (uint32_t c = 1; c <= 40; c += 3, seed++) {
            uint32_t in_sizes[2] = {3, c}, in_strides[2] = {1, 0}, reps[2] = {1 + (uint32_t)(seed % 3), 3};
            check_tile(dtypes[t], 2, in_sizes, in_strides, reps, NULL, seed);
        }
}

Test(kernels_tile, element_broadcast) { tu_for_each_isa(run_element_broadcast, NULL); }

/* ------------------------------------------------ outer dims and all dims */

/* {a, b} tiled {r, 1} (blocks repeated), {r, s} and a 3-D all-dims tile, with
 * packed and padded outputs. */
static void run_outer_and_all(tmv_isa isa, void *ctx)
{
    (void)isa;
    (void)ctx;
    static const uint32_t blocks[][2] = {{1, 1}, {1, 3}, {2, 5}, {3, 16}, {4, 17}, {7, 33}, {1, 70}};
    uint64_t seed = 2000;
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (uint32_t r = 1; r <= 9; r += 4, seed++) {
                uint32_t in_sizes[2] = {blocks[b][0], blocks[b][1]};
                uint32_t reps_outer[2] = {r, 1}, reps_both[2] = {r, 1 + (uint32_t)(seed % 4)};
                uint32_t out_padded[2] = {blocks[b][1] * reps_both[1] + 2, 1};
                check_tile(dtypes[t], 2, in_sizes, NULL, reps_outer, NULL, seed);
                check_tile(dtypes[t], 2, in_sizes, NULL, reps_both, seed % 2 ? out_padded : NULL, seed);
            }
    static const uint32_t in3[][3] = {{2, 4, 16}, {3, 1, 5}, {2, 3, 7}};
    for (size_t t = 0; t < sizeof dtypes / sizeof dtypes[0]; t++)
        for (size_t i = 0; i < sizeof in3 / sizeof in3[0]; i++, seed++) {
            uint32_t reps[3] = {1 + (uint32_t)(seed % 5), 2, 4}, padded[3] = {0, 0, 1};
            uint32_t in_strides[3] = {in3[i][1] * in3[i][2], in3[i][2], 1};
            padded[1] = in3[i][2] * reps[2] + 3;
            padded[0] = padded[1] * in3[i][1] * reps[1];
            check_tile(dtypes[t], 3, in3[i], seed % 2 ? in_strides : NULL, reps, seed % 3 ? NULL : padded, seed);
        }
}

Test(kernels_tile, outer_and_all_dims) { tu_for_each_isa(run_outer_and_all, NULL); }

/* Long rows: many lines and groups, heads at every alignment through padded
 * output rows, and (with the suite's low threshold) the streaming paths. */
static void run_long_rows(tmv_isa isa, void *ctx)
{
    (void)isa;
    (void)ctx;
    static const uint32_t periods[] = {1, 3, 7, 12, 16, 24, 31, 48, 61, 64, 65, 96};
    uint64_t seed = 3000;
    for (size_t i = 0; i < sizeof periods / sizeof periods[0]; i++)
        for (uint32_t pad = 0; pad < 4; pad++, seed++) {
            uint32_t c = periods[i], r = 1000 / c + 5, rows = 3;
            uint32_t in_sizes[2] = {rows, c}, reps[2] = {1, r}, out_strides[2] = {c * r + pad * 21, 1};
            check_tile(TMV_DTYPE_UINT8, 2, in_sizes, NULL, reps, pad ? out_strides : NULL, seed);
        }
}

Test(kernels_tile, long_rows) { tu_for_each_isa(run_long_rows, NULL); }
