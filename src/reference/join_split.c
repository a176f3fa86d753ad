/* join_split.c - reference JOIN and SPLIT (docs/SPEC.md sections 2 and 3), element by element. */
#include "reference.h"

#include "coords.h"

/* JOIN: output coordinate i along axis belongs to the input k whose slab
 * [offset_k, offset_k + sizes[axis]) holds it; the source coordinate is i
 * with offset_k taken off along axis. */
tmv_status tmv_reference_join(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *out = &op->outputs[0];
    const uint32_t axis = op->axis;
    uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS];
    for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
        uint32_t k = 0, offset = 0;
        /* Pieces of size 0 are skipped over: no coordinate falls in them. */
        while (coord[axis] >= offset + op->inputs[k].sizes[axis]) {
            offset += op->inputs[k].sizes[axis];
            k++;
        }
        memcpy(src, coord, sizeof src);
        src[axis] -= offset;
        ref_copy_element(out, outputs[0], coord, &op->inputs[k], inputs[k], src);
    }
    return TMV_OK;
}

/* SPLIT: output k receives the input slab along axis starting at the sum of
 * the sizes of outputs 0..k-1. */
tmv_status tmv_reference_split(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *in = &op->inputs[0];
    const uint32_t axis = op->axis;
    uint32_t offset = 0;
    for (uint32_t k = 0; k < op->output_count; k++) {
        const tmv_tensor *out = &op->outputs[k];
        uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS];
        for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
            memcpy(src, coord, sizeof src);
            src[axis] += offset;
            ref_copy_element(out, outputs[k], coord, in, inputs[0], src);
        }
        offset += out->sizes[axis];
    }
    return TMV_OK;
}
