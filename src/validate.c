/* validate.c - create's validation entry point: the tmv_op_desc checks every operator shares, then the operator's own rules. */
#include "error.h"
#include "validate.h"

static bool is_known_op_type(tmv_op_type type)
{
    switch (type) {
    case TMV_OP_JOIN: case TMV_OP_SPLIT: case TMV_OP_TILE: case TMV_OP_SPACE_TO_DEPTH:
    case TMV_OP_DEPTH_TO_SPACE: case TMV_OP_GATHER_ND:
        return true;
    }
    return false;
}

tmv_status tmv_check_op_desc(const tmv_op_desc *desc, const char *caller)
{
    if (desc == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: desc is NULL", caller);
    /* The type comes before desc->desc so that later messages can name the operator. */
    if (!is_known_op_type(desc->type))
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: desc->type is %d, which is no tmv_op_type", caller,
                        (int)desc->type);
    const char *name = tmv_op_name(desc->type);
    if ((desc->flags & ~(uint32_t)TMV_OP_FLAG_CLAMP_INDICES) != 0)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT,
                        "%s: flags is 0x%x; bits 0x%x are no tmv_op_flags", name, desc->flags,
                        desc->flags & ~(uint32_t)TMV_OP_FLAG_CLAMP_INDICES);
    if (desc->desc == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "%s: desc->desc is NULL", name);
    return TMV_OK;
}

tmv_status tmv_validate_finish(tmv_op *op, tmv_status status, tmv_op **out)
{
    if (status != TMV_OK) {
        tmv_op_destroy(op);
        return status;
    }
    *out = op;
    return TMV_OK;
}

static tmv_status validate_by_type(const tmv_op_desc *desc, tmv_op **out)
{
    switch (desc->type) {
    case TMV_OP_JOIN: return tmv_validate_join(desc->desc, out);
    case TMV_OP_SPLIT: return tmv_validate_split(desc->desc, out);
    case TMV_OP_TILE: return tmv_validate_tile(desc->desc, out);
    case TMV_OP_SPACE_TO_DEPTH: return tmv_validate_space_to_depth(desc->desc, out);
    case TMV_OP_DEPTH_TO_SPACE: return tmv_validate_depth_to_space(desc->desc, out);
    case TMV_OP_GATHER_ND: return tmv_validate_gather_nd(desc->desc, out);
    }
    return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: desc->type is %d, which is no tmv_op_type",
                    (int)desc->type);
}

tmv_status tmv_validate(const tmv_op_desc *desc, tmv_op **out)
{
    if (out == NULL)
        return tmv_fail(TMV_ERR_INVALID_ARGUMENT, "tmv_op_create: out is NULL");
    *out = NULL;
    tmv_status status = tmv_check_op_desc(desc, "tmv_op_create");
    if (status == TMV_OK)
        status = validate_by_type(desc, out);
    if (status == TMV_OK)
        (*out)->flags = desc->flags;
    return status;
}
