/* rows_neon.c - NEON row-wise JOIN / SPLIT: equal one-element pieces as an interleave / de-interleave, short pieces with inline vector copies. */
#include "interleave_neon.h"
#include "kernels.h"
#include "rows_walk.h"

/* JOIN / SPLIT rows of 2..4 equal pieces of one element each, all packed:
 * the joined tensor is the pieces interleaved element by element. */
static bool rows_interleavable(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes;
    if (!tmv_neon_interleavable(w, s->piece_count, s->rows) || s->joined_pitch != s->piece_count * w)
        return false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes != w || s->pieces[p].pitch != w)
            return false;
    return true;
}

bool tmv_join_rows_interleave_neon_accepts(const tmv_rows_shape *s) { return rows_interleavable(s); }
bool tmv_split_rows_deinterleave_neon_accepts(const tmv_rows_shape *s) { return rows_interleavable(s); }

void tmv_join_rows_interleave_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    const uint8_t *planes[4];
    for (uint32_t p = 0; p < s->piece_count; p++)
        planes[p] = srcs[s->pieces[p].buffer];
    const tmv_neon_shuffle shuffle = tmv_neon_shuffle_make(s->pieces[0].bytes, s->piece_count, false);
    tmv_neon_interleave_row(&shuffle, planes, dst, s->rows);
}

void tmv_split_rows_deinterleave_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    uint8_t *planes[4];
    for (uint32_t p = 0; p < s->piece_count; p++)
        planes[p] = dsts[s->pieces[p].buffer];
    const tmv_neon_shuffle shuffle = tmv_neon_shuffle_make(s->pieces[0].bytes, s->piece_count, true);
    tmv_neon_deinterleave_row(&shuffle, src, planes, s->rows);
}

/* Pieces of at most 64 bytes: a libc memcpy call per piece and row would
 * cost more than the copy itself, so each is a couple of inline loads and
 * stores. Longer pieces stay with the portable kernel's memcpy. Row by row,
 * like the portable kernel, so each joined row is written once, in order. */
static bool rows_short(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes > 64)
            return false;
    return true;
}

bool tmv_join_rows_short_neon_accepts(const tmv_rows_shape *s) { return rows_short(s); }
bool tmv_split_rows_short_neon_accepts(const tmv_rows_shape *s) { return rows_short(s); }

void tmv_join_rows_short_neon(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_each_piece(s, dst, srcs, true, tmv_neon_copy_bytes);
}

void tmv_split_rows_short_neon(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_each_piece(s, (uint8_t *)(uintptr_t)src, (const void *const *)dsts, false, tmv_neon_copy_bytes);
}
