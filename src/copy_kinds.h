/* copy_kinds.h - what a normalized copy shape is (fill, B-way (de)interleave, 2-D transpose, plain copy): the copy primitives it belongs to. */
#ifndef TMV_COPY_KINDS_H
#define TMV_COPY_KINDS_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"

/* B of a B-way de-interleave of rows (SPACE_TO_DEPTH's block) of elements
 * of any width w, 0 if s is not one: inner dim x elements, source stride
 * B*w, destination stride w; dim rank-2 B <= 8 elements, source stride w,
 * any destination stride (the plane step). */
static inline unsigned tmv_deinterleave_block_any(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[blk];
    if (b > 8 || s->src_strides[in] != b * w || s->dst_strides[in] != w || s->src_strides[blk] != w)
        return 0;
    return (unsigned)b;
}

/* B of a B-way interleave of rows (DEPTH_TO_SPACE's block) of elements of
 * any width w, 0 if s is not one: inner dim B <= 8 elements, any source
 * stride (the plane step), destination stride w; dim rank-2 x elements,
 * source stride w, destination stride B*w. */
static inline unsigned tmv_interleave_block_any(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[in];
    if (b > 8 || s->dst_strides[in] != w || s->src_strides[blk] != w || s->dst_strides[blk] != b * w)
        return 0;
    return (unsigned)b;
}

/* The element widths of the DEINTERLEAVE and INTERLEAVE primitives: 1, 2,
 * 4 and 8 bytes (wider runs are copies: copy_lanes, the runs kernels). */
static inline bool tmv_interleave_width(uint64_t w)
{
    return w == 1 || w == 2 || w == 4 || w == 8;
}

/* B of a B-way de-interleave of rows of 1-, 2-, 4- or 8-byte elements (the
 * DEINTERLEAVE primitive), 0 if s is not one. */
static inline unsigned tmv_deinterleave_block(const tmv_copy_shape *s)
{
    return tmv_interleave_width(s->elem_bytes) ? tmv_deinterleave_block_any(s) : 0;
}

/* B of a B-way interleave of rows of 1-, 2-, 4- or 8-byte elements (the
 * INTERLEAVE primitive), 0 if s is not one. */
static inline unsigned tmv_interleave_block(const tmv_copy_shape *s)
{
    return tmv_interleave_width(s->elem_bytes) ? tmv_interleave_block_any(s) : 0;
}

/* The copy primitives (kernels.h) whose geometry s has, as a mask of
 * 1u << TMV_PRIMITIVE_*; TMV_PRIMITIVE_COPY, which takes any shape, always. */
uint32_t tmv_copy_primitives(const tmv_copy_shape *s);

#endif
