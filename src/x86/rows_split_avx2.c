/* rows_split_avx2.c - row-wise SPLIT on AVX2: the unpack/pack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register. */
#define TMV_VEC_AVX2
#include "rows_x86.h"
#include "rows_zip_avx2.h"

/* Not for outputs past the stream threshold: there SSE2's network (pieces
 * up to 8 bytes) and column moves (16 bytes), streaming as well, were
 * faster (64 MiB: split inner/2x4B/f32 3.0 against 3.6-4.0 ms, inner/2x16B
 * 3.4 against 4.0, inner/8x16B 4.8 against 5.4). */
bool tmv_split_rows_zip_avx2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_zip_avx2_shape(s) && s->rows * s->joined_bytes < s->tuning->stream_threshold;
}

void tmv_split_rows_zip_avx2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_split_columns(s, src, dsts, tmv_rows_zip_lanes(s, st.at, st.joined, false, s->tuning->stream_threshold),
                           s->tuning->stream_threshold);
}
