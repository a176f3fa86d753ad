/* gather_walk.h - walking GATHER_ND's index tuples, for gather kernels of every ISA (static inline only). */
#ifndef TMV_GATHER_WALK_H
#define TMV_GATHER_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "gather_index.h"
#include "kernels.h"

/* Byte offsets of the current index tuple in the three tensors. */
typedef struct tmv_gather_pos {
    uint64_t idx[TMV_MAX_DIMS];
    uint64_t index_off, input_off, output_off;
} tmv_gather_pos;

static inline void tmv_gather_pos_init(tmv_gather_pos *p)
{
    for (uint32_t d = 0; d < TMV_MAX_DIMS; d++)
        p->idx[d] = 0;
    p->index_off = p->input_off = p->output_off = 0;
}

/* Steps to the next tuple; false after the last. */
static inline bool tmv_gather_pos_next(const tmv_gather_shape *s, tmv_gather_pos *p)
{
    for (uint32_t d = s->pos_rank; d-- > 0;) {
        if (++p->idx[d] < s->pos_sizes[d]) {
            p->index_off += s->pos_index_strides[d];
            p->input_off += s->pos_input_strides[d];
            p->output_off += s->pos_output_strides[d];
            return true;
        }
        p->index_off -= s->pos_index_strides[d] * (s->pos_sizes[d] - 1);
        p->input_off -= s->pos_input_strides[d] * (s->pos_sizes[d] - 1);
        p->output_off -= s->pos_output_strides[d] * (s->pos_sizes[d] - 1);
        p->idx[d] = 0;
    }
    return false;
}

/* Byte offset in the input of the slice the current tuple selects (its
 * indices already checked, or clamped). */
static inline uint64_t tmv_gather_pos_source(const tmv_gather_shape *s, const uint8_t *indices,
                                             const tmv_gather_pos *p)
{
    uint64_t off = p->input_off;
    for (uint32_t j = 0; j < s->k; j++) {
        uint64_t pos = 0;
        tmv_resolve_index(indices + p->index_off + j * s->index_stride, s->index_type, s->dim_sizes[j],
                          s->clamp, &pos);
        off += pos * s->dim_strides[j];
    }
    return off;
}

/* Whether the indices need a check pass before anything is written: always
 * unless clamping or already checked, and with clamping when an indexed dim
 * has no elements (nothing to clamp to). */
static inline bool tmv_gather_must_check(const tmv_gather_shape *s)
{
    if (s->checked)
        return false;
    bool must = !s->clamp;
    for (uint32_t j = 0; j < s->k; j++)
        must |= s->dim_sizes[j] == 0;
    return must;
}

#endif
