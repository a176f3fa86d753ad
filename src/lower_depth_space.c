/* lower_depth_space.c - SPACE_TO_DEPTH and DEPTH_TO_SPACE as one 6-D permutation copy. */
#include <string.h>

#include "lower.h"

/* Dims of the permutation, outermost first: (n, c, y, by, x, bx), where the
 * space tensor is {N, C, Y*B, X*B} and the depth tensor {N, C*B*B, Y, X}. */
enum { N_, C_, Y_, BY_, X_, BX_, DIMS_ };

tmv_status tmv_lower_depth_space(tmv_op *op)
{
    bool to_depth = op->type == TMV_OP_SPACE_TO_DEPTH;
    const tmv_tensor *space = to_depth ? &op->inputs[0] : &op->outputs[0];
    const tmv_tensor *depth = to_depth ? &op->outputs[0] : &op->inputs[0];
    const uint64_t b = op->block_size, e = space->elem_size;
    const uint64_t c = space->sizes[1];
    uint64_t sizes[DIMS_] = {space->sizes[0], c, depth->sizes[2], b, depth->sizes[3], b};
    uint64_t in_space[DIMS_] = {
        space->strides[0], space->strides[1], space->strides[2] * b, space->strides[2],
        space->strides[3] * b, space->strides[3]};
    /* depth channel of (c, by, bx): DCR (by*B + bx)*C + c, CRD c*B*B + by*B + bx */
    uint64_t dc = depth->strides[1];
    bool dcr = op->order == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    uint64_t in_depth[DIMS_] = {
        depth->strides[0], dcr ? dc : dc * b * b, depth->strides[2], dcr ? dc * b * c : dc * b,
        depth->strides[3], dcr ? dc * c : dc};

    tmv_copy_shape s;
    memset(&s, 0, sizeof s);
    s.rank = DIMS_;
    s.elem_bytes = e;
    for (int d = 0; d < DIMS_; d++) {
        s.sizes[d] = sizes[d];
        s.src_strides[d] = (to_depth ? in_space[d] : in_depth[d]) * e;
        s.dst_strides[d] = (to_depth ? in_depth[d] : in_space[d]) * e;
    }
    tmv_status status = tmv_plan_reserve(op, 1);
    return status == TMV_OK ? tmv_plan_add_copy(op, s, 0, 0, 0, 0) : status;
}
