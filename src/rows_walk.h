/* rows_walk.h - row-wise JOIN / SPLIT one piece of one row at a time, with a kernel's copy (static inline only). */
#ifndef TMV_ROWS_WALK_H
#define TMV_ROWS_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"

/* Copies bytes from src to dst (non-overlapping). */
typedef void (*tmv_rows_copy_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes);

/* The most pieces a walk reads into locals (tmv_rows_locals). */
#define TMV_ROWS_WALK_LOCAL 16

/* A row-wise step's pieces, read into locals before its loops: read
 * through the shape, the compiler must read them again after each copy's
 * stores (they may alias it), and the next copy's loads wait on that chain
 * of loads (the shape, its pieces, the buffer table). Eight 1000-byte
 * pieces a row at 1 MiB: 19.2 us through the shape, 18.0 from locals. */
typedef struct tmv_rows_locals {
    uint8_t *base[TMV_ROWS_WALK_LOCAL];   /* each piece's buffer */
    uint64_t bytes[TMV_ROWS_WALK_LOCAL];
    uint64_t pitch[TMV_ROWS_WALK_LOCAL];
    uint64_t offset[TMV_ROWS_WALK_LOCAL];
    bool     uniform;                     /* one length and pitch, packed in order */
} tmv_rows_locals;

/* Reads s's pieces (buffers: the JOIN inputs or SPLIT outputs) into l;
 * false, l untouched, if there are more than it holds. */
static inline bool tmv_rows_locals_read(const tmv_rows_shape *s, const void *const *buffers, tmv_rows_locals *l)
{
    const uint32_t n = s->piece_count;
    if (n > TMV_ROWS_WALK_LOCAL)
        return false;
    bool uniform = true;
    for (uint32_t p = 0; p < n; p++) {
        const tmv_rows_piece *piece = &s->pieces[p];
        l->base[p] = (uint8_t *)(uintptr_t)buffers[piece->buffer];
        l->bytes[p] = piece->bytes;
        l->pitch[p] = piece->pitch;
        l->offset[p] = piece->offset;
        uniform = uniform && piece->bytes == l->bytes[0] && piece->pitch == l->pitch[0] &&
                  piece->offset == p * l->bytes[0];
    }
    l->uniform = uniform;
    return true;
}

/* Row by row, so each joined row is written (JOIN) or read (SPLIT) once, in
 * order: each piece of the row from its buffer into the joined row (join),
 * or from the joined row into its buffer. `join` and `copy` are constants at
 * each call, so the loop inlines to one direction and one copy. The pieces'
 * buffers are only read when join is true, the joined tensor only when it is
 * false.
 *
 * The pieces come from locals (tmv_rows_locals); pieces of one length keep
 * it in a register (eight 1000-byte pieces at 1 MiB: 18.0 -> 17.0 us). A
 * single row (and pieces past the locals) goes straight through the shape:
 * reading the locals cost 5 ns of the 39 a JOIN of two 4 KiB pieces took. */
static inline void tmv_rows_each_piece(const tmv_rows_shape *s, uint8_t *joined, const void *const *buffers,
                                       bool join, tmv_rows_copy_fn copy)
{
    const uint64_t rows = s->rows, joined_pitch = s->joined_pitch;
    const uint32_t n = s->piece_count;
    tmv_rows_locals l;
    if (rows == 1 || !tmv_rows_locals_read(s, buffers, &l)) {
        for (uint64_t r = 0; r < rows; r++) {
            uint8_t *row = joined + r * joined_pitch;
            for (uint32_t p = 0; p < n; p++) {
                const tmv_rows_piece *piece = &s->pieces[p];
                uint8_t *at = (uint8_t *)(uintptr_t)buffers[piece->buffer] + r * piece->pitch;
                if (join)
                    copy(row + piece->offset, at, piece->bytes);
                else
                    copy(at, row + piece->offset, piece->bytes);
            }
        }
        return;
    }
    if (l.uniform) {
        const uint64_t w = l.bytes[0], piece_pitch = l.pitch[0];
        for (uint64_t r = 0; r < rows; r++) {
            uint8_t *in_row = joined + r * joined_pitch;
            for (uint32_t p = 0; p < n; p++, in_row += w) {
                uint8_t *at = l.base[p] + r * piece_pitch;
                if (join)
                    copy(in_row, at, w);
                else
                    copy(at, in_row, w);
            }
        }
        return;
    }
    for (uint64_t r = 0; r < rows; r++) {
        uint8_t *row = joined + r * joined_pitch;
        for (uint32_t p = 0; p < n; p++) {
            uint8_t *at = l.base[p] + r * l.pitch[p];
            if (join)
                copy(row + l.offset[p], at, l.bytes[p]);
            else
                copy(at, row + l.offset[p], l.bytes[p]);
        }
    }
}

#endif
