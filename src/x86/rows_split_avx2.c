/* rows_split_avx2.c - row-wise SPLIT on AVX2: the unpack/pack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register. */
#include "../dispatch.h"
#include "kernels_x86.h"
#include "rows_x86.h"

bool tmv_split_rows_zip_accepts_avx2(const tmv_rows_shape *s)
{
    return tmv_rows_zip_avx2_shape(s);
}

void tmv_split_rows_zip_avx2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    uint8_t *joined = (uint8_t *)(uintptr_t)src; /* read only: join is false */
    tmv_rows_split_columns(s, src, dsts, tmv_rows_zip_avx2_any(s, streams, joined, false, tmv_stream_threshold()),
                           tmv_stream_threshold());
}
