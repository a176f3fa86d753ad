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
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_zip(s, 1, st.at, st.joined, false, s->tuning->stream_threshold);
}

bool tmv_split_rows_interleave_avx512vbmi_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_perm_shape(s, 1, 1);
}

void tmv_split_rows_interleave_avx512vbmi_prepare(const tmv_rows_shape *s, void *state)
{
    tmv_rows_perm_prepare(s, state, false);
}

void tmv_split_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, dsts, (uint8_t *)(uintptr_t)src, &st);
    tmv_rows_perm_run(s->state, 1, s->rows, st.at, st.joined, false);
}
