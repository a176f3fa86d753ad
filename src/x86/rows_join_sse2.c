/* rows_join_sse2.c - row-wise JOIN on SSE2: an unpack network for 2, 4 or 8 equal packed pieces of 1..8 bytes, fixed-size column moves for any pieces up to 64 bytes, streaming copies of pieces of 4 KiB and more to memory. */
#define TMV_VEC_SSE2
#include "rows_x86.h"
#include "rows_zip_sse2.h"

bool tmv_join_rows_zip_sse2_accepts(const tmv_rows_shape *s)
{
    return s->piece_count <= 8 && tmv_rows_zip_shape(s, 1, 8);
}

void tmv_join_rows_zip_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, (void *const *)(uintptr_t)srcs, dst, &st);
    tmv_rows_join_columns(s, srcs, dst, tmv_rows_zip_lanes(s, st.at, st.joined, true, s->tuning->stream_threshold),
                          s->tuning->stream_threshold);
}

bool tmv_join_rows_stream_sse2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_join_rows_stream_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_stream_lines(s, dst, (void *const *)(uintptr_t)srcs, true, tmv_stream_line_sse2); /* srcs only read */
    _mm_sfence();
}

bool tmv_join_rows_columns_sse2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_all_narrow(s);
}

void tmv_join_rows_columns_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_join_columns(s, srcs, dst, 0, s->tuning->stream_threshold);
}
