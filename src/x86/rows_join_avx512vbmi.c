/* rows_join_avx512vbmi.c - row-wise JOIN of 2..16 packed one-byte pieces: a byte zip network (2, 4, 8, 16 pieces) or masked vpermb (other counts). */
#include "rows_x86.h"

bool tmv_join_rows_zip_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_zip_shape(s, 1, 1);
}

void tmv_join_rows_zip_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_zip_prepare(s, state, 1, true);
}

void tmv_join_rows_zip_avx512vbmi(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = (uint8_t *)(uintptr_t)srcs[s->pieces[p].buffer]; /* read only: join is true */
    tmv_rows_zip(s, 1, streams, dst, true, s->tuning->stream_threshold);
}

bool tmv_join_rows_interleave_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, 1, 1);
}

void tmv_join_rows_interleave_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, true);
}

void tmv_join_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    uint8_t *streams[TMV_ROWS_MAX_STREAMS] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = (uint8_t *)(uintptr_t)srcs[s->pieces[p].buffer]; /* read only: join is true */
    tmv_rows_perm_run(s->state, 1, s->rows, streams, dst, true);
}
