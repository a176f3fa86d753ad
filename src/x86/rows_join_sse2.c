/* rows_join_sse2.c - row-wise JOIN on SSE2: an unpack network for 2, 4, 8 or 16 equal packed pieces of 1..8 bytes, fixed-size column moves for any pieces up to 64 bytes. */
#include "../dispatch.h"
#include "kernels_x86.h"
#include "rows_x86.h"

/* Rows [first, rows): each piece's column of a block of rows in turn, with
 * moves of its width (a memcpy per piece per row costs a call for a few
 * bytes); the block is small enough that its joined rows stay in L1 from
 * column to column and its streams read in runs DRAM serves well. */
static void join_columns(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst, uint64_t first)
{
    const uint64_t block = tmv_rows_block(s);
    for (uint64_t r0 = first; r0 < s->rows; r0 += block) {
        const uint64_t rows = s->rows - r0 < block ? s->rows - r0 : block;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            const uint8_t *src = (const uint8_t *)srcs[piece->buffer] + r0 * piece->pitch;
            tmv_rows_column(dst + r0 * s->joined_pitch + piece->offset, s->joined_pitch, src, piece->pitch,
                            rows, (size_t)piece->bytes);
        }
    }
}

bool tmv_join_rows_zip_accepts_sse2(const tmv_rows_shape *s)
{
    return s->piece_count <= 8 && tmv_rows_zip_shape(s, 1, 8);
}

void tmv_join_rows_zip_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    uint8_t *streams[16] = {NULL};
    for (uint32_t p = 0; p < s->piece_count; p++)
        streams[p] = (uint8_t *)(uintptr_t)srcs[s->pieces[p].buffer]; /* read only: join is true */
    join_columns(s, srcs, dst, tmv_rows_zip_sse2_any(s, streams, dst, true, tmv_stream_threshold()));
}

bool tmv_join_rows_columns_accepts_sse2(const tmv_rows_shape *s)
{
    return tmv_rows_all_narrow(s);
}

void tmv_join_rows_columns_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    join_columns(s, srcs, dst, 0);
}
