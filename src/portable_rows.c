/* portable_rows.c - plain-C row-wise JOIN and SPLIT: each joined row assembled or taken apart in one pass. */
#include <string.h>

#include "kernels.h"

bool tmv_join_rows_scalar_accepts(const tmv_rows_shape *s)
{
    (void)s;
    return true;
}

bool tmv_split_rows_scalar_accepts(const tmv_rows_shape *s)
{
    (void)s;
    return true;
}

void tmv_join_rows_scalar(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    for (uint64_t r = 0; r < s->rows; r++) {
        uint8_t *row = dst + r * s->joined_pitch;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            const uint8_t *src = srcs[piece->buffer];
            memcpy(row + piece->offset, src + r * piece->pitch, (size_t)piece->bytes);
        }
    }
}

void tmv_split_rows_scalar(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    for (uint64_t r = 0; r < s->rows; r++) {
        const uint8_t *row = src + r * s->joined_pitch;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            uint8_t *dst = dsts[piece->buffer];
            memcpy(dst + r * piece->pitch, row + piece->offset, (size_t)piece->bytes);
        }
    }
}
