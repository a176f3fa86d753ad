/* rows_stream_neon.c - NEON row-wise JOIN / SPLIT of long pieces past the stream threshold, each piece copied with non-temporal stores. */
#include "kernels.h"
#include "rows_long.h"
#include "stream_neon.h"

bool tmv_join_rows_stream_neon_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_join_rows_stream_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    for (uint64_t r = 0; r < s->rows; r++)
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            tmv_neon_stream_copy(dst + r * s->joined_pitch + piece->offset,
                                 (const uint8_t *)srcs[piece->buffer] + r * piece->pitch, piece->bytes);
        }
}

bool tmv_split_rows_stream_neon_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_split_rows_stream_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    for (uint64_t r = 0; r < s->rows; r++)
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            tmv_neon_stream_copy((uint8_t *)dsts[piece->buffer] + r * piece->pitch,
                                 src + r * s->joined_pitch + piece->offset, piece->bytes);
        }
}
