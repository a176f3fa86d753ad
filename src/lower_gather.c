/* lower_gather.c - GATHER_ND onto one slice gather: tuple positions, indexed dims, and the slice copy. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lower.h"

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
    const tmv_copy_kernel *slice_kernel = tmv_pick_copy(op->isa, &g->slice);
    g->slice_copy = slice_kernel->run;

    tmv_status status = tmv_plan_reserve(op, 1);
    if (status != TMV_OK)
        return status;
    const tmv_gather_kernel *kernel = tmv_pick_gather(op->isa, g);
    tmv_step *step = &op->steps[op->step_count++];
    step->kind = TMV_STEP_GATHER;
    step->kernel = kernel->name;
    step->u.gather.run = kernel->run;
    step->u.gather.shape = g;
    return TMV_OK;
}
