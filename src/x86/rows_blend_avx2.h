/* rows_blend_avx2.h - row-wise JOIN past the stream threshold of pieces of 32 bytes and more that are no whole lines: the joined rows written once, in order, a 64-byte line at a time with streaming stores, each 32-byte half one load or, where it spans two piece rows, two loads and a blend (AVX2; the kernel: rows_join_avx2.c).
 *
 * A memcpy per piece per row (join_rows/scalar) or the column moves write
 * through the cache, which at DRAM size reads every output line for
 * ownership before writing it: JOIN nhwc 8x1000B u8 at 64 MiB ran 0.52-0.56
 * x best copy, inner 8x100B 0.72. Streaming each piece's row as it is
 * leaves two partial lines a piece, written through the cache between the
 * streamed ones, and lost or tied (rows_long.h). Here the output is
 * produced in its own order, so every line is whole: the 32 bytes at the
 * writer's place come from the stretch (a piece's row) it stands in, or,
 * when fewer than 32 are left there, from its rest and the next stretch's
 * first bytes: a load at the rest (reaching up to 31 bytes past it), a load
 * ending where the next stretch's share ends (reaching back before it), and
 * a byte blend. Every stretch being 32 bytes or more, no half spans three.
 *
 * The loads reach into the neighbouring rows of the same source, which
 * hold those bytes for every row but the first and the last where rows are
 * at least 32 bytes apart (the shapes ask that): the output's lines that
 * draw on those (and the partial lines at either end of a call) go through
 * memcpy per stretch instead, through the cache. */
#ifndef TMV_ROWS_BLEND_AVX2_H
#define TMV_ROWS_BLEND_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../rows_long.h"
#include "rows_zip_x86.h"

/* An output of rows of `width` bytes as stretches: row r is, for k <
 * count, len[k] bytes at base[k] + r * pitch[k], side by side (JOIN's
 * joined rows: a stretch per piece). */
typedef struct tmv_rows_blend_seq {
    const uint8_t *base[TMV_ROWS_MAX_STREAMS];
    uint64_t       pitch[TMV_ROWS_MAX_STREAMS], len[TMV_ROWS_MAX_STREAMS];
    unsigned       count;
    uint64_t       width;
} tmv_rows_blend_seq;

/* The writer's place: `left` bytes from cur are what is left of stretch k
 * of row `row`. */
typedef struct tmv_rows_blend_at {
    const uint8_t *cur;
    uint64_t       left, row;
    unsigned       k;
} tmv_rows_blend_at;

/* The place of output byte pos. */
static inline tmv_rows_blend_at tmv_rows_blend_seek(const tmv_rows_blend_seq *q, uint64_t pos)
{
    tmv_rows_blend_at at = {NULL, 0, pos / q->width, 0};
    uint64_t col = pos % q->width;
    while (col >= q->len[at.k])
        col -= q->len[at.k++];
    at.cur = q->base[at.k] + at.row * q->pitch[at.k] + col;
    at.left = q->len[at.k] - col;
    return at;
}

/* On to the start of the next stretch. */
static inline void tmv_rows_blend_next(const tmv_rows_blend_seq *q, tmv_rows_blend_at *at)
{
    if (++at->k == q->count) {
        at->k = 0;
        at->row++;
    }
    at->cur = q->base[at->k] + at->row * q->pitch[at->k];
    at->left = q->len[at->k];
}

/* Output bytes [x, y) to out + x by a memcpy per stretch: no load reaches
 * past what it copies. */
static inline void tmv_rows_blend_plain(const tmv_rows_blend_seq *q, uint8_t *out, uint64_t x, uint64_t y)
{
    if (x >= y)
        return;
    tmv_rows_blend_at at = tmv_rows_blend_seek(q, x);
    for (;;) {
        const uint64_t n = at.left < y - x ? at.left : y - x;
        memcpy(out + x, at.cur, (size_t)n);
        x += n;
        if (x == y)
            return;
        tmv_rows_blend_next(q, &at);
    }
}

/* The 32 output bytes at the writer's place, which moves past them. */
__attribute__((always_inline)) static inline __m256i tmv_rows_blend_32(const tmv_rows_blend_seq *q,
                                                                       tmv_rows_blend_at *at)
{
    /* edge + 32 - k: lanes from k on all ones, the blend's second source */
    static const int8_t edge[64] = {0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
                                    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
                                    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)at->cur);
    if (at->left > 32) {
        at->cur += 32;
        at->left -= 32;
        return a;
    }
    const uint64_t k = at->left;
    tmv_rows_blend_next(q, at);
    if (k == 32)
        return a;
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(at->cur - k));
    const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(edge + 32 - k));
    at->cur += 32 - k;
    at->left -= 32 - k; /* stays above 0: the stretch has 32 bytes or more */
    return _mm256_blendv_epi8(a, b, m);
}

/* The output's `rows` rows (three or more) to out: the whole 64-byte
 * lines that draw on no first or last row of a source by blends, streamed,
 * the rest by tmv_rows_blend_plain. The caller fences. */
__attribute__((always_inline)) static inline void tmv_rows_blend_write(const tmv_rows_blend_seq *q, uint8_t *out,
                                                                       uint64_t rows)
{
    uint64_t a = q->width, b = (rows - 1) * q->width;
    a += (64 - ((uintptr_t)(out + a) & 63)) & 63;
    b -= (uintptr_t)(out + b) & 63;
    if (a >= b) {
        tmv_rows_blend_plain(q, out, 0, rows * q->width);
        return;
    }
    tmv_rows_blend_plain(q, out, 0, a);
    tmv_rows_blend_at at = tmv_rows_blend_seek(q, a);
    for (uint64_t p = a; p < b; p += 64) {
        const __m256i lo = tmv_rows_blend_32(q, &at), hi = tmv_rows_blend_32(q, &at);
        _mm256_stream_si256((__m256i *)(void *)(out + p), lo);
        _mm256_stream_si256((__m256i *)(void *)(out + p + 32), hi);
    }
    tmv_rows_blend_plain(q, out, b, rows * q->width);
}

/* The shapes: 1 to TMV_ROWS_MAX_STREAMS packed pieces in offset order, each
 * of 32 bytes or more with rows 32 bytes or more apart (so that a load's
 * reach of up to 31 bytes stays within the source's neighbouring rows: a
 * broadcast's rows, 0 apart, are one row, and a reach past it leaves the
 * tensor), joined into rows without a gap, that are no whole
 * lines (the column moves and the stream kernels store those whole) and
 * that the stream kernels do not take (pieces of TMV_ROWS_STREAM_MIN
 * bytes), past the stream threshold, with three rows or more.
 *
 * JOIN only. SPLIT the same way (each piece's rows one output, the pieces
 * taking turns on 16 KiB of joined rows) lost to the column moves and to a
 * memcpy per piece on every case of the full sweep at 64 MiB: 2x100B u8
 * 0.82 -> 0.69 x best copy, 3x1000B f32 0.73 -> 0.52, 8x100B u8 0.80 ->
 * 0.26; turns on 256 KiB, or none, lost as much or more. Several streamed
 * outputs at once are what AVX-512's lines kernel does on Intel, where it
 * won; on this Zen 3 one streamed output is what wins. */
static inline bool tmv_rows_blend_shape(const tmv_rows_shape *s)
{
    if (s->piece_count < 1 || s->piece_count > TMV_ROWS_MAX_STREAMS || s->rows < 3 || tmv_rows_whole_lines(s) ||
        s->joined_pitch != s->joined_bytes)
        return false;
    uint64_t at = 0;
    for (uint32_t p = 0; p < s->piece_count; p++) {
        const tmv_rows_piece *q = &s->pieces[p];
        if (q->bytes < 32 || q->offset != at || q->pitch < 32)
            return false;
        at += q->bytes;
    }
    return !tmv_rows_stream_shape(s, s->tuning->stream_threshold) &&
           s->rows * s->joined_bytes >= s->tuning->stream_threshold;
}

/* The family's run (rows_x86.h), stamped for JOIN only: the pieces are
 * JOIN's sources. */
__attribute__((always_inline)) static inline void tmv_rows_blend_run(const tmv_rows_shape *s, void *const *pieces,
                                                                     uint8_t *joined, bool join)
{
    (void)join;
    tmv_rows_blend_seq q = {.count = s->piece_count, .width = s->joined_bytes};
    for (uint32_t p = 0; p < s->piece_count; p++) {
        q.base[p] = (const uint8_t *)pieces[s->pieces[p].buffer];
        q.pitch[p] = s->pieces[p].pitch;
        q.len[p] = s->pieces[p].bytes;
    }
    tmv_rows_blend_write(&q, joined, s->rows); /* past the threshold: accepted only there */
    _mm_sfence();
}

#endif
