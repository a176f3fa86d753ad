/* rows_split_avx512.c - row-wise SPLIT into equal packed pieces: an unzip network (2, 4, 8 or 16 pieces of 2 to 16 bytes) or masked lane permutes (other counts up to 16, pieces of 2 or 4 bytes). */
#include "rows_x86.h"

bool tmv_split_rows_zip_avx512_accepts(const tmv_rows_shape *s)
{
    /* Where a vector holds more than 16 joined bytes of a row, zmm needs
     * more stages than SSE2's xmm, and the SSE2 network measured faster. */
    const uint64_t w = s->pieces[0].bytes;
    return tmv_rows_zip_shape(s, 2, 16) && (w == 16 || w * s->piece_count <= 16 || s->piece_count == 16);
}

/* Lanes of 2 bytes for 2-byte pieces, else of 4. */
static unsigned zip_lane(const tmv_rows_shape *s)
{
    return s->pieces[0].bytes == 2 ? 2 : 4;
}

void tmv_split_rows_zip_avx512_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_zip_prepare(s, state, zip_lane(s), false);
}

void tmv_split_rows_zip_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    uint8_t *joined = (uint8_t *)(uintptr_t)src; /* read only: join is false */
    if (zip_lane(s) == 2)
        tmv_rows_zip(s, 2, streams, joined, false, s->tuning->stream_threshold);
    else
        tmv_rows_zip(s, 4, streams, joined, false, s->tuning->stream_threshold);
}

bool tmv_split_rows_interleave_avx512_accepts(const tmv_rows_shape *s)
{
    /* Wider pieces: the fixed-size column moves measured faster. */
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, 2, 4);
}

void tmv_split_rows_interleave_avx512_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, false);
}

void tmv_split_rows_interleave_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    const tmv_rows_perm *pl = s->state;
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    uint8_t *joined = (uint8_t *)(uintptr_t)src; /* read only: join is false */
    if (pl->unit == 2) /* a constant unit per call, so each permute is one instruction */
        tmv_rows_perm_run(pl, 2, s->rows, streams, joined, false);
    else
        tmv_rows_perm_run(pl, 4, s->rows, streams, joined, false);
}
