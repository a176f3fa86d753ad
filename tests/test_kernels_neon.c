/* test_kernels_neon.c - the NEON kernels' edge matrix (vector-length boundaries, block sizes, widths, fill periods, slice widths) against the reference, once per kernel set, and which NEON kernel each shape gets. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "reference/reference.h"
#include "test_util.h"

#define GUARD 64

static unsigned char *canary_area(size_t len)
{
    unsigned char *a = malloc(len + 2 * GUARD);
    cr_assert_not_null(a);
    for (size_t i = 0; i < len + 2 * GUARD; i++)
        a[i] = cg_canary_byte(i);
    return a;
}

/* Runs desc (inputs of in_bytes[i] bytes, from in_data[i] or patterned; one
 * output of out_bytes) through the library and the reference into equal
 * canary areas and compares every byte; under a NEON set, the plan must name
 * `kernel` (a name without its "/neon..." suffix) when it is not NULL. */
static void check(tmv_isa isa, const tmv_op_desc *desc, uint32_t ins, const size_t *in_bytes,
                  const void *const *in_data, size_t out_bytes, const char *kernel, const char *what)
{
    const void *in[2];
    tu_guarded guarded[2];
    for (uint32_t i = 0; i < ins; i++) {
        guarded[i] = tu_guarded_new(in_bytes[i], in_data ? in_data[i] : NULL, i);
        in[i] = guarded[i].data;
    }
    unsigned char *lib = canary_area(out_bytes), *ref = canary_area(out_bytes);
    void *lib_out[1] = {lib + GUARD}, *ref_out[1] = {ref + GUARD};

    tmv_op *op = NULL;
    cr_assert_eq(tmv_op_create(desc, &op), TMV_OK, "%s: %s", what, tmv_last_error());
    if (kernel != NULL && (isa == TMV_ISA_NEON || isa == TMV_ISA_NEON_SIMDE)) {
        char want[96];
        snprintf(want, sizeof want, "%s/%s", kernel, tmv_isa_name(isa));
        cr_assert(strstr(tmv_op_describe(op), want) != NULL, "%s: plan is \"%s\", expected %s", what,
                  tmv_op_describe(op), want);
    }
    cr_assert_eq(tmv_reference_execute(op, in, ref_out), TMV_OK, "%s", what);
    cr_assert_eq(tmv_op_execute(op, in, lib_out), TMV_OK, "%s: %s", what, tmv_last_error());
    tmv_op_destroy(op);
    for (size_t i = 0; i < out_bytes + 2 * GUARD; i++)
        if (lib[i] != ref[i])
            cr_assert_fail("set %s, %s: output byte %ld is 0x%02x, reference 0x%02x", tmv_isa_name(isa),
                           what, (long)i - GUARD, lib[i], ref[i]);
    free(lib);
    free(ref);
    for (uint32_t i = 0; i < ins; i++)
        tu_guarded_free(&guarded[i]);
}

static size_t elements(const uint32_t *sizes, uint32_t n)
{
    size_t count = 1;
    for (uint32_t d = 0; d < n; d++)
        count *= sizes[d];
    return count;
}

/* One dtype per element width the NEON kernels specialize. */
static const tmv_dtype widths[] = {TMV_DTYPE_UINT8, TMV_DTYPE_FLOAT16, TMV_DTYPE_FLOAT32, TMV_DTYPE_INT64};

/* Output columns around one vector (16 / w elements): below it the
 * portable kernel runs, at and above it the vector loop with its
 * overlapping last block. */
static uint32_t columns(size_t w, unsigned i)
{
    const uint32_t lanes = (uint32_t)(16 / w);
    const uint32_t list[] = {lanes - 1, lanes, lanes + 1, 2 * lanes - 1, 3 * lanes + 3};
    return list[i];
}
#define COLUMN_COUNT 5

static void depth_space(tmv_isa isa, void *ctx)
{
    (void)ctx;
    for (size_t d = 0; d < sizeof widths / sizeof widths[0]; d++) {
        const size_t w = cg_dtype_size(widths[d]);
        for (uint32_t b = 2; b <= 5; b++)
            for (unsigned x = 0; x < COLUMN_COUNT; x++)
                for (int order = 0; order < 2; order++)
                    for (int to_depth = 0; to_depth < 2; to_depth++) {
                        const uint32_t cols = columns(w, x);
                        uint32_t space[4] = {1, 2, 2 * b, cols * b}, depth[4] = {1, 2 * b * b, 2, cols};
                        tmv_tensor_desc ts = tu_tensor(widths[d], 4, space, NULL);
                        tmv_tensor_desc td = tu_tensor(widths[d], 4, depth, NULL);
                        tmv_space_to_depth_desc s2d = {&ts, &td, b, (tmv_depth_space_order)order};
                        tmv_depth_to_space_desc d2s = {&td, &ts, b, (tmv_depth_space_order)order};
                        tmv_op_desc desc = {to_depth ? TMV_OP_SPACE_TO_DEPTH : TMV_OP_DEPTH_TO_SPACE,
                                            to_depth ? (const void *)&s2d : (const void *)&d2s, 0};
                        const size_t bytes = elements(space, 4) * w;
                        const bool vector = b <= 4 && cols >= 16 / w;
                        char what[96];
                        snprintf(what, sizeof what, "%s %s B=%u cols=%u %s",
                                 to_depth ? "space_to_depth" : "depth_to_space", cg_dtype_name(widths[d]),
                                 b, cols, order ? "CRD" : "DCR");
                        check(isa, &desc, 1, &bytes, NULL, bytes,
                              vector ? (to_depth ? "copy_deinterleave" : "copy_interleave") : NULL, what);
                    }
    }
}

Test(kernels_neon, depth_space)
{
    tu_for_each_isa(depth_space, NULL);
}

/* TILE along the inner axis: the period is one input row (1..64 bytes and
 * one wider), the output row is around the 64 bytes of one register set. */
static void tile(tmv_isa isa, void *ctx)
{
    (void)ctx;
    for (size_t d = 0; d < sizeof widths / sizeof widths[0]; d++) {
        const size_t w = cg_dtype_size(widths[d]);
        for (uint32_t period = 1; period * w <= 72; period++)
            for (uint32_t target = 48; target <= 200; target += 19) {
                const uint32_t reps = (uint32_t)((target + period * w - 1) / (period * w));
                uint32_t in_sizes[2] = {3, period}, out_sizes[2] = {3, period * reps}, repeats[2] = {1, reps};
                tmv_tensor_desc ti = tu_tensor(widths[d], 2, in_sizes, NULL);
                tmv_tensor_desc to = tu_tensor(widths[d], 2, out_sizes, NULL);
                tmv_tile_desc td = {&ti, &to, 2, repeats};
                tmv_op_desc desc = {TMV_OP_TILE, &td, 0};
                const size_t in_bytes = elements(in_sizes, 2) * w, out_bytes = elements(out_sizes, 2) * w;
                const bool fill = reps > 1 && period * w <= 64 && (size_t)reps * period * w >= 64;
                char what[96];
                snprintf(what, sizeof what, "tile %s period %u x%u", cg_dtype_name(widths[d]), period, reps);
                check(isa, &desc, 1, &in_bytes, NULL, out_bytes, fill ? "copy_fill" : NULL, what);
            }
    }
}

Test(kernels_neon, tile)
{
    tu_for_each_isa(tile, NULL);
}

/* GATHER_ND of whole rows of a {rows, cols} input: slices of 1..80 bytes,
 * more tuples than one prefetch batch, negative and clamped indices. */
static void gather(tmv_isa isa, void *ctx)
{
    (void)ctx;
    enum { ROWS = 23, TUPLES = 70 };
    int64_t idx[TUPLES];
    for (int t = 0; t < TUPLES; t++)
        idx[t] = (t * 7) % (2 * ROWS) - ROWS + (t % 5 == 0 ? 40 : 0);   /* some out of range */
    for (size_t d = 0; d < sizeof widths / sizeof widths[0]; d++) {
        const size_t w = cg_dtype_size(widths[d]);
        for (uint32_t cols = 1; cols * w <= 80; cols += (cols * w < 20 ? 1 : 7)) {
            uint32_t in_sizes[2] = {ROWS, cols}, ind_sizes[2] = {TUPLES, 1}, out_sizes[2] = {TUPLES, cols};
            tmv_tensor_desc ti = tu_tensor(widths[d], 2, in_sizes, NULL);
            tmv_tensor_desc tx = tu_tensor(TMV_DTYPE_INT64, 2, ind_sizes, NULL);
            tmv_tensor_desc to = tu_tensor(widths[d], 2, out_sizes, NULL);
            tmv_gather_nd_desc gd = {&ti, &tx, &to, 2, 2, 0};
            tmv_op_desc desc = {TMV_OP_GATHER_ND, &gd, TMV_OP_FLAG_CLAMP_INDICES};
            const size_t in_bytes[2] = {elements(in_sizes, 2) * w, sizeof idx};
            const void *data[2] = {NULL, idx};
            char what[96];
            snprintf(what, sizeof what, "gather_nd %s slice of %u", cg_dtype_name(widths[d]), cols);
            check(isa, &desc, 2, in_bytes, data, elements(out_sizes, 2) * w, "gather", what);
        }
    }
}

Test(kernels_neon, gather)
{
    tu_for_each_isa(gather, NULL);
}
