/* depth_space.c - reference SPACE_TO_DEPTH and DEPTH_TO_SPACE (docs/SPEC.md section 5) on {N,C,H,W}. */
#include "reference.h"

#include "coords.h"

/* The deep channel that holds space channel c at block offset (by, bx), for
 * C space channels: the two order formulas of docs/SPEC.md section 5. */
static uint32_t deep_channel(tmv_depth_space_order order, uint32_t block, uint32_t channels,
                             uint32_t c, uint32_t by, uint32_t bx)
{
    if (order == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW)
        return (by * block + bx) * channels + c;
    return c * block * block + by * block + bx;
}

/* The inverse of deep_channel: space channel and block offset of deep channel oc. */
static void split_deep_channel(tmv_depth_space_order order, uint32_t block, uint32_t channels,
                               uint32_t oc, uint32_t *c, uint32_t *by, uint32_t *bx)
{
    uint32_t in_block;
    if (order == TMV_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW) {
        *c = oc % channels;
        in_block = oc / channels;
    } else {
        *c = oc / (block * block);
        in_block = oc % (block * block);
    }
    *by = in_block / block;
    *bx = in_block % block;
}

/* input(n, c, y*B + by, x*B + bx) -> output(n, oc, y, x). */
tmv_status tmv_reference_space_to_depth(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t block = op->block_size, channels = in->sizes[1];
    uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS] = {0};
    for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
        uint32_t c, by, bx;
        split_deep_channel(op->order, block, channels, coord[1], &c, &by, &bx);
        src[0] = coord[0];
        src[1] = c;
        src[2] = coord[2] * block + by;
        src[3] = coord[3] * block + bx;
        ref_copy_element(out, outputs[0], coord, in, inputs[0], src);
    }
    return TMV_OK;
}

/* The same mapping read backwards: output(n, c, y*B + by, x*B + bx) <- input(n, oc, y, x). */
tmv_status tmv_reference_depth_to_space(const tmv_op *op, const void *const *inputs, void *const *outputs)
{
    const tmv_tensor *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t block = op->block_size, channels = out->sizes[1];
    uint32_t coord[TMV_MAX_DIMS], src[TMV_MAX_DIMS] = {0};
    for (bool more = ref_first_coord(out, coord); more; more = ref_next_coord(out, coord)) {
        uint32_t by = coord[2] % block, bx = coord[3] % block;
        src[0] = coord[0];
        src[1] = deep_channel(op->order, block, channels, coord[1], by, bx);
        src[2] = coord[2] / block;
        src[3] = coord[3] / block;
        ref_copy_element(out, outputs[0], coord, in, inputs[0], src);
    }
    return TMV_OK;
}
