/* copy_kinds.c - the copy primitives a normalized shape belongs to, decided once at create. */
#include "copy_kinds.h"

#include "kernels.h"

/* The inner dim repeats one source element (source stride 0): TILE's
 * broadcasts, a pattern into a packed row or a block repeated. */
static bool is_fill(const tmv_copy_shape *s)
{
    return s->rank >= 1 && s->src_strides[s->rank - 1] == 0;
}

/* The two inner dims swap: contiguous along the block dim in the source and
 * along the inner dim in the destination, neither broadcast. A B-way
 * (de)interleave is the special case where one side is B <= 8. */
static bool is_transpose(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return false;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes;
    return (w == 1 || w == 2 || w == 4 || w == 8) && s->dst_strides[in] == w && s->src_strides[blk] == w &&
           s->src_strides[in] != 0 && s->dst_strides[blk] != 0;
}

uint32_t tmv_copy_primitives(const tmv_copy_shape *s)
{
    uint32_t mask = 1u << TMV_PRIMITIVE_COPY;
    if (is_fill(s))
        mask |= 1u << TMV_PRIMITIVE_FILL;
    if (tmv_deinterleave_block(s) != 0)
        mask |= 1u << TMV_PRIMITIVE_DEINTERLEAVE;
    if (tmv_interleave_block(s) != 0)
        mask |= 1u << TMV_PRIMITIVE_INTERLEAVE;
    if (is_transpose(s))
        mask |= 1u << TMV_PRIMITIVE_TRANSPOSE;
    return mask;
}
