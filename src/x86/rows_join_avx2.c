/* rows_join_avx2.c - row-wise JOIN on AVX2: the unpack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register. */
#include "rows_x86.h"

bool tmv_join_rows_zip_avx2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_zip_avx2_shape(s);
}

void tmv_join_rows_zip_avx2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = (uint8_t *)(uintptr_t)srcs[s->pieces[p].buffer]; /* read only: join is true */
    tmv_rows_join_columns(s, srcs, dst, tmv_rows_zip_avx2_any(s, streams, dst, true, s->tuning->stream_threshold),
                          s->tuning->stream_threshold);
}
