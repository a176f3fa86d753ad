/* rows_join_avx2.c - row-wise JOIN on AVX2: the unpack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register. */
#define TMV_VEC_AVX2
#include "rows_x86.h"
#include "rows_zip_avx2.h"

bool tmv_join_rows_zip_avx2_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_zip_avx2_shape(s);
}

void tmv_join_rows_zip_avx2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, (void *const *)(uintptr_t)srcs, dst, &st);
    tmv_rows_join_columns(s, srcs, dst, tmv_rows_zip_lanes(s, st.at, st.joined, true, s->tuning->stream_threshold),
                          s->tuning->stream_threshold);
}
