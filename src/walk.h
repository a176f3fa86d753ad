/* walk.h - an odometer over the outer dims of a copy shape, for kernels of every ISA (static inline only). */
#ifndef TMV_WALK_H
#define TMV_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"

/* Walks dims [0, rank) of a shape (the caller handles the dims inside them),
 * keeping the byte offsets of the current position in source and destination.
 * Offsets only: no pointer is ever formed outside the buffers.
 *
 * The innermost walked dim, the one that steps at every position, is copied
 * into the walk: read through the shape, its size and strides are read again
 * after every store of the kernel (the stores may alias the shape), and the
 * next position's offsets wait on that chain of loads (the walk's shape
 * pointer, then the shape). */
typedef struct tmv_walk {
    const tmv_copy_shape *s;
    uint32_t              rank;
    uint64_t              idx[TMV_SHAPE_MAX_DIMS];
    uint64_t              src, dst;   /* byte offsets of the current position */
    uint64_t              last_size, last_src, last_dst;   /* dim rank - 1's */
} tmv_walk;

static inline void tmv_walk_init(tmv_walk *w, const tmv_copy_shape *s, uint32_t rank)
{
    w->s = s;
    w->rank = rank;
    for (uint32_t d = 0; d < rank; d++)
        w->idx[d] = 0;
    w->src = w->dst = 0;
    w->last_size = rank ? s->sizes[rank - 1] : 0;
    w->last_src = rank ? s->src_strides[rank - 1] : 0;
    w->last_dst = rank ? s->dst_strides[rank - 1] : 0;
}

/* Steps to the next position; false after the last one. */
static inline bool tmv_walk_next(tmv_walk *w)
{
    if (w->rank == 0)
        return false;
    const uint32_t last = w->rank - 1;
    if (++w->idx[last] < w->last_size) {
        w->src += w->last_src;
        w->dst += w->last_dst;
        return true;
    }
    w->src -= w->last_src * (w->last_size - 1);
    w->dst -= w->last_dst * (w->last_size - 1);
    w->idx[last] = 0;
    const tmv_copy_shape *s = w->s;
    for (uint32_t d = last; d-- > 0;) {
        if (++w->idx[d] < s->sizes[d]) {
            w->src += s->src_strides[d];
            w->dst += s->dst_strides[d];
            return true;
        }
        w->src -= s->src_strides[d] * (s->sizes[d] - 1);
        w->dst -= s->dst_strides[d] * (s->sizes[d] - 1);
        w->idx[d] = 0;
    }
    return false;
}

#endif
