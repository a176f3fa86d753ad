/* rows_split_avx512vbmi.c - row-wise SPLIT into 2..16 packed one-byte pieces: a byte unzip network (2, 4, 8, 16 pieces) or masked vpermb (other counts). */
#include "rows_x86.h"

bool tmv_split_rows_zip_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_zip_shape(s, 1, 1);
}

void tmv_split_rows_zip_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_zip_prepare(s, state, 1, false);
}

void tmv_split_rows_zip_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    tmv_rows_zip(s, 1, streams, (uint8_t *)(uintptr_t)src, false, s->tuning->stream_threshold); /* read only */
}

bool tmv_split_rows_interleave_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, 1, 1);
}

void tmv_split_rows_interleave_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, false);
}

void tmv_split_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = dsts[s->pieces[p].buffer];
    tmv_rows_perm_run(s->state, 1, s->rows, streams, (uint8_t *)(uintptr_t)src, false); /* read only */
}
