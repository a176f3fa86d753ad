/* tile.c - reference TILE (docs/SPEC.md section 4): output[i] = input[i mod input.sizes]. */
#include "reference.h"

#include "coords.h"

tmv_status tmv_reference_tile(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS];
    /* An output with elements implies every input size is > 0, so the
     * modulus below never divides by zero. */
    for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
        for (uint32_t d = 0; d < TMV_MAX_DIMS; d++)
            src[d] = coord[d] % in->sizes[d];
        ref_copy_element(out, outputs[0], coord, in, inputs[0], src);
    }
    return TMV_OK;
}
