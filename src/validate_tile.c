/* validate_tile.c - TILE's rules (docs/SPEC.md 4): output sizes = input sizes * repeats. */
#include "error.h"
#include "validate.h"
#include "validate_common.h"

static tmv_status check_repeats(const tmv_tile_desc *desc, const tmv_tensor *input)
{
    if (desc->repeats_count != input->dim_count)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tile: repeats_count is %u but input.dim_count is %u",
                        desc->repeats_count, input->dim_count);
    if (desc->repeats == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tile: repeats is NULL but repeats_count is %u",
                        desc->repeats_count);
    return TMV_OK;
}

static tmv_status check_tile_sizes(const tmv_tensor *input, const tmv_tensor *output,
                                   const uint32_t *repeats)
{
    for (uint32_t d = 0; d < input->dim_count; d++) {
        uint64_t want = (uint64_t)input->sizes[d] * repeats[d]; /* < 2^64 */
        if (output->sizes[d] != want)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "tile: output.sizes[%u] is %u but input.sizes[%u] %u * repeats[%u] %u "
                            "is %llu", d, output->sizes[d], d, input->sizes[d], d, repeats[d],
                            (unsigned long long)want);
    }
    return TMV_OK;
}

static tmv_status check_tile(const tmv_tile_desc *desc, tmv_op *op)
{
    static const char *const name = "tile";
    tmv_status status;
    tmv_tensor *input = &op->inputs[0], *output = &op->outputs[0];
    if ((status = tmv_init_tensor(input, desc->input, name, "input")) != TMV_OK ||
        (status = tmv_init_output_tensor(output, desc->output, name, "output")) != TMV_OK ||
        (status = tmv_expect_same_dtype(name, "output", output, "input", input)) != TMV_OK ||
        (status = tmv_expect_same_dim_count(name, "output", output, "input", input)) != TMV_OK ||
        (status = check_repeats(desc, input)) != TMV_OK ||
        (status = check_tile_sizes(input, output, desc->repeats)) != TMV_OK)
        return status;
    for (uint32_t d = 0; d < input->dim_count; d++)
        op->repeats[d] = desc->repeats[d];
    return TMV_OK;
}

tmv_status tmv_validate_tile(const tmv_tile_desc *desc, tmv_op **out)
{
    tmv_op *op = tmv_op_alloc(TMV_OP_TILE, 1, 1);
    return tmv_validate_finish(op, op == NULL ? TMV_ERR_OUT_OF_MEMORY : check_tile(desc, op), out);
}

tmv_status tmv_infer_tile(const tmv_tile_desc *desc, uint32_t *dim_count, uint32_t *sizes)
{
    tmv_tensor input;
    tmv_status status;
    if ((status = tmv_init_tensor(&input, desc->input, "tile", "input")) != TMV_OK ||
        (status = check_repeats(desc, &input)) != TMV_OK)
        return status;
    for (uint32_t d = 0; d < input.dim_count; d++) {
        uint64_t size = (uint64_t)input.sizes[d] * desc->repeats[d]; /* < 2^64 */
        if (size > UINT32_MAX)
            return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                            "tile: input.sizes[%u] %u * repeats[%u] %u is %llu, more than a uint32_t "
                            "size holds", d, input.sizes[d], d, desc->repeats[d], (unsigned long long)size);
        sizes[d] = (uint32_t)size;
    }
    *dim_count = input.dim_count;
    return TMV_OK;
}
