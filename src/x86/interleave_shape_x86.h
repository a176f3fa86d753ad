/* interleave_shape_x86.h - which copy shapes are B-way row (de)interleaves (see shape.h: the two innermost dims are the block), and their plane-row length. */
#ifndef TMV_INTERLEAVE_SHAPE_X86_H
#define TMV_INTERLEAVE_SHAPE_X86_H

#include <stdint.h>

#include "../kernels.h"

/* Block size of a SPACE_TO_DEPTH de-interleave shape (0 if it is not one):
 * inner dim x elements, source stride b*w, destination stride w; dim rank-2
 * b elements, source stride w, any destination stride (the plane step). */
static inline unsigned deinterleave_block(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[blk];
    if ((w != 1 && w != 2 && w != 4 && w != 8) || b > 8 || s->src_strides[in] != b * w ||
        s->dst_strides[in] != w || s->src_strides[blk] != w)
        return 0;
    return (unsigned)b;
}

/* Block size of a DEPTH_TO_SPACE interleave shape (0 if it is not one):
 * inner dim b elements, any source stride (the plane step), destination
 * stride w; dim rank-2 x elements, source stride w, destination stride b*w. */
static inline unsigned interleave_block(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[in];
    if ((w != 1 && w != 2 && w != 4 && w != 8) || b > 8 || s->dst_strides[in] != w ||
        s->src_strides[blk] != w || s->dst_strides[blk] != b * w)
        return 0;
    return (unsigned)b;
}

/* x of either block shape: the plane-row length in elements. */
static inline uint64_t deinterleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 1]; }
static inline uint64_t interleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 2]; }

#endif
