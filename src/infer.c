/* infer.c - tmv_infer_output_sizes: an output's sizes from a description's inputs and members, by create's rules. */
#include "error.h"
#include "validate.h"

static tmv_status infer_by_type(const tmv_op_desc *desc, uint32_t output, uint32_t *dim_count,
                                uint32_t *sizes)
{
    if (desc->type != TMV_OP_SPLIT && output != 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: output is %u but the operator has one output (0)",
                        tmv_op_name(desc->type), output);
    switch (desc->type) {
    case TMV_OP_JOIN: return tmv_infer_join(desc->desc, dim_count, sizes);
    case TMV_OP_SPLIT: return tmv_infer_split(desc->desc, output, dim_count, sizes);
    case TMV_OP_TILE: return tmv_infer_tile(desc->desc, dim_count, sizes);
    case TMV_OP_SPACE_TO_DEPTH: return tmv_infer_space_to_depth(desc->desc, dim_count, sizes);
    case TMV_OP_DEPTH_TO_SPACE: return tmv_infer_depth_to_space(desc->desc, dim_count, sizes);
    case TMV_OP_GATHER_ND: return tmv_infer_gather_nd(desc->desc, dim_count, sizes);
    }
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_infer_output_sizes: desc->type is %d, which is no tmv_op_type",
                    (int)desc->type);
}

tmv_status tmv_infer_output_sizes(const tmv_op_desc *desc, uint32_t output, uint32_t *dim_count,
                                  uint32_t sizes[TMV_MAX_DIMS])
{
    if (dim_count == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_infer_output_sizes: dim_count is NULL");
    *dim_count = 0;
    if (sizes == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_infer_output_sizes: sizes is NULL");
    uint32_t count = 0, inferred[TMV_MAX_DIMS];
    tmv_status status = tmv_check_op_desc(desc, "tmv_infer_output_sizes");
    if (status == TMV_OK)
        status = infer_by_type(desc, output, &count, inferred);
    if (status != TMV_OK)
        return status;
    for (uint32_t d = 0; d < count; d++)
        sizes[d] = inferred[d];
    *dim_count = count;
    return TMV_OK;
}
