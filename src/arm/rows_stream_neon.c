/* rows_stream_neon.c - NEON row-wise JOIN / SPLIT of long pieces past the stream threshold, each piece copied with non-temporal stores. */
#include "kernels.h"
#include "rows_long.h"
#include "stream_lines.h"
#include "stream_neon.h"

bool tmv_join_rows_stream_neon_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_join_rows_stream_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_stream_lines(s, dst, (void *const *)(uintptr_t)srcs, true, tmv_neon_stream_line); /* srcs only read */
}

bool tmv_split_rows_stream_neon_accepts(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

void tmv_split_rows_stream_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_stream_lines(s, (uint8_t *)(uintptr_t)src, dsts, false, tmv_neon_stream_line); /* src only read */
}
