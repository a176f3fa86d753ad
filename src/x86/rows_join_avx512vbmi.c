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
    tmv_rows_streams st;
    tmv_rows_streams_of(s, (void *const *)(uintptr_t)srcs, dst, &st);
    tmv_rows_zip(s, 1, st.at, st.joined, true, s->tuning->stream_threshold);
}

bool tmv_join_rows_interleave_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_perm_shape(s, 1, 1);
}

void tmv_join_rows_interleave_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, true);
}

void tmv_join_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, (void *const *)(uintptr_t)srcs, dst, &st);
    tmv_rows_perm_run(s->state, 1, s->rows, st.at, st.joined, true);
}
