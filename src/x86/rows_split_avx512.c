/* rows_split_avx512.c - row-wise SPLIT: an unzip network into equal packed pieces (2, 4, 8 or 16 pieces of 2 to 16 bytes), masked lane permutes (other counts up to 16, pieces of 2 or 4 bytes), and column moves of pieces up to 256 bytes. */
#include "rows_wide_columns_avx512.h"
#include "rows_x86.h"

bool tmv_split_rows_zip_avx512_accepts(const tmv_rows_shape *s)
{
    /* Where a vector holds more than 16 joined bytes of a row, zmm needs
     * more stages than SSE2's xmm, and the SSE2 network measured faster. */
    const uint64_t w = s->pieces[0].bytes;
    return tmv_rows_zip_shape(s, 2, 16) && (w == 16 || w * s->piece_count <= 16 || s->piece_count == 16);
}

void tmv_split_rows_zip_avx512_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_zip_prepare(s, state, tmv_rows_zip_lane(s), false);
}

void tmv_split_rows_zip_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_zip_2_or_4(s, &st, false);
}

bool tmv_split_rows_interleave_avx512_accepts(const tmv_rows_shape *s)
{
    /* Wider pieces: the fixed-size column moves measured faster. */
    return tmv_rows_perm_shape(s, 2, 4);
}

void tmv_split_rows_interleave_avx512_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, false);
}

void tmv_split_rows_interleave_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_perm_run_2_or_4(s, &st, false);
}

bool tmv_split_rows_columns_avx512_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_all_wide_columns(s);
}

void tmv_split_rows_columns_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_columns_by(s, dsts, (uint8_t *)(uintptr_t)src, false, 0, s->tuning->stream_threshold,
                        tmv_rows_column_wide, true);
}
