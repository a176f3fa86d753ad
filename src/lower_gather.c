/* lower_gather.c - GATHER_ND onto one slice gather: tuple positions, indexed dims, and the slice copy. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lower.h"

/* Drops size-1 tuple-position dims and merges neighbours that step all three
 * tensors as one dim, keeping their order (error messages count tuples in it),
 * so kernels see the longest possible innermost run of tuples. Leaves at
 * least one dim (size 1, strides 0, for a single tuple). */
static void normalize_positions(tmv_gather_shape *g)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < g->pos_rank; d++) {
        if (g->pos_sizes[d] == 1)
            continue;
        uint64_t size = g->pos_sizes[d];
        if (n > 0 && g->pos_index_strides[n - 1] == g->pos_index_strides[d] * size &&
            g->pos_input_strides[n - 1] == g->pos_input_strides[d] * size &&
            g->pos_output_strides[n - 1] == g->pos_output_strides[d] * size) {
            g->pos_sizes[n - 1] *= size;
            g->pos_index_strides[n - 1] = g->pos_index_strides[d];
            g->pos_input_strides[n - 1] = g->pos_input_strides[d];
            g->pos_output_strides[n - 1] = g->pos_output_strides[d];
            continue;
        }
        g->pos_sizes[n] = size;
        g->pos_index_strides[n] = g->pos_index_strides[d];
        g->pos_input_strides[n] = g->pos_input_strides[d];
        g->pos_output_strides[n] = g->pos_output_strides[d];
        n++;
    }
    if (n == 0) {
        g->pos_sizes[0] = 1;
        g->pos_index_strides[0] = g->pos_input_strides[0] = g->pos_output_strides[0] = 0;
        n = 1;
    }
    g->pos_rank = n;
}

tmv_status tmv_lower_gather_nd(tmv_op *op)
{
    const tmv_tensor *in = &op->inputs[0], *ind = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = in->dim_count, r = op->input_dim_count, q = op->indices_dim_count;
    const uint32_t b = op->batch_dim_count, k = ind->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - b - k); /* meaningful output dims */
    const uint64_t e = in->elem_size, ie = ind->elem_size;

    tmv_gather_shape *g = calloc(1, sizeof *g);
    if (g == NULL)
        return tmv_fail(TMV_ERR_OUT_OF_MEMORY, "gather_nd: out of memory planning");
    op->gather = g;

    g->pos_rank = q - 1;
    for (uint32_t j = 0; j + 1 < q; j++) {
        g->pos_sizes[j] = ind->sizes[n - q + j];
        g->pos_index_strides[j] = ind->strides[n - q + j] * ie;
        g->pos_input_strides[j] = j < b ? in->strides[n - r + j] * e : 0;
        g->pos_output_strides[j] = out->strides[n - m + j] * e;
    }
    normalize_positions(g);
    g->k = k;
    g->index_type = ind->dtype;
    g->index_stride = ind->strides[n - 1] * ie;
    g->first_indexed_dim = n - r + b;
    for (uint32_t j = 0; j < k; j++) {
        g->dim_sizes[j] = in->sizes[n - r + b + j];
        g->dim_strides[j] = in->strides[n - r + b + j] * e;
    }
    g->clamp = (op->flags & TMV_OP_FLAG_CLAMP_INDICES) != 0;

    g->slice.elem_bytes = e;
    g->slice.rank = r - b - k;
    for (uint32_t t = 0; t < g->slice.rank; t++) {
        g->slice.sizes[t] = in->sizes[n - r + b + k + t];
        g->slice.src_strides[t] = in->strides[n - r + b + k + t] * e;
        g->slice.dst_strides[t] = out->strides[n - m + (q - 1) + t] * e;
    }
    tmv_shape_normalize(&g->slice); /* the output has elements, so the slice does */
    g->slice.tuning = g->tuning = &op->tuning;
    g->slice_copy = tmv_pick_copy_stateless(op->isa, &g->slice)->fn.copy.run;

    tmv_status status = tmv_plan_reserve(op, 1);
    if (status != TMV_OK)
        return status;
    tmv_step *step = &op->steps[op->step_count++];
    step->kind = TMV_STEP_GATHER;
    tmv_step_use(step, tmv_pick(TMV_PRIMITIVE_GATHER, op->isa, g));
    step->u.gather.shape = g;
    return tmv_plan_prepare(op, step, g, &g->state);
}
