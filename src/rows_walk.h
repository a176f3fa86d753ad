/* rows_walk.h - row-wise JOIN / SPLIT one piece of one row at a time, with a kernel's copy (static inline only). */
#ifndef TMV_ROWS_WALK_H
#define TMV_ROWS_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"

/* Copies bytes from src to dst (non-overlapping). */
typedef void (*tmv_rows_copy_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes);

/* Row by row, so each joined row is written (JOIN) or read (SPLIT) once, in
 * order: each piece of the row from its buffer into the joined row (join),
 * or from the joined row into its buffer. `join` and `copy` are constants at
 * each call, so the loop inlines to one direction and one copy. The pieces'
 * buffers are only read when join is true, the joined tensor only when it is
 * false. */
static inline void tmv_rows_each_piece(const tmv_rows_shape *s, uint8_t *joined, const void *const *buffers,
                                       bool join, tmv_rows_copy_fn copy)
{
    for (uint64_t r = 0; r < s->rows; r++) {
        uint8_t *row = joined + r * s->joined_pitch;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            uint8_t *at = (uint8_t *)(uintptr_t)buffers[piece->buffer] + r * piece->pitch;
            if (join)
                copy(row + piece->offset, at, piece->bytes);
            else
                copy(at, row + piece->offset, piece->bytes);
        }
    }
}

#endif
