/* rows_split_sse2.c - row-wise SPLIT on SSE2: an unpack/pack network for 2, 4 or 8 equal packed pieces of 1..8 bytes, fixed-size column moves for any pieces up to 64 bytes, streaming copies of pieces of 4 KiB and more to memory. */
#define TMV_VEC_SSE2
#include "rows_x86.h"
#include "rows_zip_sse2.h"

bool tmv_split_rows_zip_sse2_accepts(const tmv_rows_shape *s)
{
    return s->piece_count <= 8 && tmv_rows_zip_shape(s, 1, 8);
}

void tmv_split_rows_zip_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_split_columns(s, src, dsts, tmv_rows_zip_lanes(s, st.at, st.joined, false, s->tuning->stream_threshold),
                           s->tuning->stream_threshold);
}

bool tmv_split_rows_stream_sse2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_split_rows_stream_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_stream_lines(s, (uint8_t *)(uintptr_t)src, dsts, false, tmv_stream_line_sse2); /* src only read */
    _mm_sfence();
}

bool tmv_split_rows_columns_sse2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_all_narrow(s);
}

void tmv_split_rows_columns_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_split_columns(s, src, dsts, 0, s->tuning->stream_threshold);
}
