/* create_typed.c - tmv_op_create_<op>: the typed entry points, each one generic tmv_op_create call. */
#include "tensormove.h"

static tmv_status create_typed(tmv_op_type type, const void *desc, uint32_t flags, tmv_op **out)
{
    const tmv_op_desc generic = {type, desc, flags};
    return tmv_op_create(&generic, out);
}

tmv_status tmv_op_create_join(const tmv_join_desc *desc, uint32_t flags, tmv_op **out)
{
    return create_typed(TMV_OP_JOIN, desc, flags, out);
}

tmv_status tmv_op_create_split(const tmv_split_desc *desc, uint32_t flags, tmv_op **out)
{
    return create_typed(TMV_OP_SPLIT, desc, flags, out);
}

tmv_status tmv_op_create_tile(const tmv_tile_desc *desc, uint32_t flags, tmv_op **out)
{
    return create_typed(TMV_OP_TILE, desc, flags, out);
}

tmv_status tmv_op_create_space_to_depth(const tmv_space_to_depth_desc *desc, uint32_t flags,
                                        tmv_op **out)
{
    return create_typed(TMV_OP_SPACE_TO_DEPTH, desc, flags, out);
}

tmv_status tmv_op_create_depth_to_space(const tmv_depth_to_space_desc *desc, uint32_t flags,
                                        tmv_op **out)
{
    return create_typed(TMV_OP_DEPTH_TO_SPACE, desc, flags, out);
}

tmv_status tmv_op_create_gather_nd(const tmv_gather_nd_desc *desc, uint32_t flags, tmv_op **out)
{
    return create_typed(TMV_OP_GATHER_ND, desc, flags, out);
}
