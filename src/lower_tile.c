/* lower_tile.c - TILE as one broadcast copy: each dim d becomes (repeat, period) with a 0 source stride on the repeat. */
#include <string.h>

#include "lower.h"

tmv_status tmv_lower_tile(tmv_op *op)
{
    const tmv_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    tmv_copy_shape s;
    memset(&s, 0, sizeof s);
    s.elem_bytes = in->elem_size;
    for (uint32_t d = 0; d < in->dim_count; d++) {
        uint64_t out_stride = out->strides[d] * out->elem_size;
        /* output coordinate r * sizes[d] + i reads input coordinate i */
        s.sizes[s.rank] = op->repeats[d];
        s.src_strides[s.rank] = 0;
        s.dst_strides[s.rank] = in->sizes[d] * out_stride;
        s.rank++;
        s.sizes[s.rank] = in->sizes[d];
        s.src_strides[s.rank] = in->strides[d] * in->elem_size;
        s.dst_strides[s.rank] = out_stride;
        s.rank++;
    }
    tmv_status status = tmv_plan_reserve(op, 1);
    if (status == TMV_OK)
        tmv_plan_add_copy(op, s, 0, 0, 0, 0);
    return status;
}
