/* walk.h - an odometer over the outer dims of a copy shape, for kernels of every ISA (static inline only). */
#ifndef TMV_WALK_H
#define TMV_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "shape.h"

/* Walks dims [0, rank) of a shape (the caller handles the dims inside them),
 * keeping the byte offsets of the current position in source and destination.
 * Offsets only: no pointer is ever formed outside the buffers. */
typedef struct tmv_walk {
    const tmv_copy_shape *s;
    uint32_t              rank;
    uint64_t              idx[TMV_SHAPE_MAX_DIMS];
    uint64_t              src, dst;   /* byte offsets of the current position */
} tmv_walk;

static inline void tmv_walk_init(tmv_walk *w, const tmv_copy_shape *s, uint32_t rank)
{
    w->s = s;
    w->rank = rank;
    for (uint32_t d = 0; d < rank; d++)
        w->idx[d] = 0;
    w->src = w->dst = 0;
}

/* Steps to the next position; false after the last one. */
static inline bool tmv_walk_next(tmv_walk *w)
{
    const tmv_copy_shape *s = w->s;
    for (uint32_t d = w->rank; d-- > 0;) {
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
