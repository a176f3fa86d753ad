/* rows_split_avx512vbmi.c - row-wise SPLIT into 2..16 packed one-byte pieces: a byte unzip network (2, 4, 8, 16 pieces) or masked vpermb (other counts). */
#include "../dispatch.h"
#include "kernels_x86.h"
#include "rows_x86.h"

bool tmv_split_rows_zip_accepts_avx512vbmi(const tmv_rows_shape *s)
{
    return tmv_rows_zip_shape(s, 1, 1);
}

void tmv_split_rows_zip_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    tmv_rows_zip(s, 1, streams, (uint8_t *)(uintptr_t)src, false, tmv_stream_threshold()); /* read only */
}

bool tmv_split_rows_interleave_accepts_avx512vbmi(const tmv_rows_shape *s)
{
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, 1, 1);
}

void tmv_split_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_perm pl;
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    tmv_rows_perm_init(&pl, s, false);
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    tmv_rows_perm_run(&pl, 1, s->rows, streams, (uint8_t *)(uintptr_t)src, false); /* read only */
}
