/* rows_columns_x86.h - the row kernels' fixed-size column moves (SSE2). */
#ifndef TMV_ROWS_COLUMNS_X86_H
#define TMV_ROWS_COLUMNS_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../rows_long.h"
#include "../rows_walk.h"
#include "stream_x86.h"

/* ------------------------------------------------------------ columns */

/* Widest piece the column kernels take: above it a row is long enough for
 * memcpy's own loop to be as fast. */
#define TMV_ROWS_COLUMN_MAX 64
/* Joined bytes per block of rows: each piece's column of a block is copied
 * in turn, so the block's joined rows and its pieces' rows must stay in L1
 * between columns; a quarter of L1 keeps both in half of it. Blocks of
 * 2 KiB made JOIN inner/8x64B at 8 KiB four rows a column and took 107 ns,
 * blocks of 8 KiB 70 (memcpy of the 8 KiB: 65). The default is for a CPU
 * that does not report its L1. */
#define TMV_ROWS_BLOCK_BYTES_DEFAULT 8192
#define TMV_ROWS_BLOCK_MIN_ROWS 4
/* Most rows per block once the step's bytes (read and written) outgrow L1,
 * so that its columns read from L2: the SSE2 columns at 512 KiB (JOIN and
 * SPLIT of 2-8 pieces of 48 or 64 bytes) took 5-30% less in blocks of 32
 * rows than in the quarter of L1 (64 rows of 128 bytes), and 3-10% more
 * while the step fits in L1; the AVX-512 columns read the same within 5%
 * either way. */
#define TMV_ROWS_BLOCK_MAX_ROWS_PAST_L1 32

/* L1's bytes, as the tuning record has them (four default blocks for a
 * CPU that does not report its L1). */
static inline uint64_t tmv_rows_l1_bytes(const tmv_rows_shape *s)
{
    const uint64_t l1 = s->tuning->cache_bytes[0];
    return l1 ? l1 : 4 * TMV_ROWS_BLOCK_BYTES_DEFAULT;
}

/* Rows per block for the column kernels. */
static inline uint64_t tmv_rows_block(const tmv_rows_shape *s)
{
    uint64_t n = tmv_rows_l1_bytes(s) / 4 / (s->joined_pitch ? s->joined_pitch : 1);
    return n > TMV_ROWS_BLOCK_MIN_ROWS ? n : TMV_ROWS_BLOCK_MIN_ROWS;
}

/* True if every piece is at most TMV_ROWS_COLUMN_MAX bytes wide. */
static inline bool tmv_rows_all_narrow(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes > TMV_ROWS_COLUMN_MAX)
            return false;
    return true;
}

/* Two overlapping moves of `chunk` bytes cover any width in [chunk, 2*chunk];
 * both are loaded before either is stored, and each stays inside the row.
 * chunk is a constant at every call, so the moves become single loads/stores. */
static inline void tmv_rows_column_pair(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp,
                                        uint64_t rows, size_t chunk, size_t w)
{
    const size_t second = w - chunk;
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
        if (chunk == 16) {
            __m128i a = _mm_loadu_si128((const __m128i *)s);
            __m128i b = _mm_loadu_si128((const __m128i *)(s + second));
            _mm_storeu_si128((__m128i *)d, a);
            _mm_storeu_si128((__m128i *)(d + second), b);
        } else {
            uint64_t a, b;
            memcpy(&a, s, chunk);
            memcpy(&b, s + second, chunk);
            memcpy(d, &a, chunk);
            memcpy(d + second, &b, chunk);
        }
    }
}

/* A column of w = 4, 8 or 16 bytes (a constant at every call): one move
 * a row, where the pairs below would make two. */
static inline void tmv_rows_column_single(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp,
                                          uint64_t rows, size_t w)
{
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
        if (w == 16) {
            _mm_storeu_si128((__m128i *)(void *)d, _mm_loadu_si128((const __m128i *)(const void *)s));
        } else {
            uint64_t a;
            memcpy(&a, s, w);
            memcpy(d, &a, w);
        }
    }
}

/* Copies one piece's column: `rows` runs of w bytes (1 <= w <= 64), from s
 * every sp bytes to d every dp bytes. */
static inline void tmv_rows_column(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp,
                                   uint64_t rows, size_t w)
{
    if (w == 1) {
        for (uint64_t r = 0; r < rows; r++)
            d[r * dp] = s[r * sp];
    } else if (w == 16) {
        tmv_rows_column_single(d, dp, s, sp, rows, 16);
    } else if (w == 8) {
        tmv_rows_column_single(d, dp, s, sp, rows, 8);
    } else if (w == 4) {
        tmv_rows_column_single(d, dp, s, sp, rows, 4);
    } else if (w <= 4) {
        tmv_rows_column_pair(d, dp, s, sp, rows, 2, w);
    } else if (w <= 8) {
        tmv_rows_column_pair(d, dp, s, sp, rows, 4, w);
    } else if (w <= 16) {
        tmv_rows_column_pair(d, dp, s, sp, rows, 8, w);
    } else if (w <= 32) {
        tmv_rows_column_pair(d, dp, s, sp, rows, 16, w);
    } else {
        /* 33..64 bytes: the first 32 and the last 32, overlapping */
        tmv_rows_column_pair(d, dp, s, sp, rows, 16, 32);
        tmv_rows_column_pair(d + (w - 32), dp, s + (w - 32), sp, rows, 16, 32);
    }
}

/* A column whose rows are whole 64-byte lines at line-aligned
 * destinations, with non-temporal stores. */
static inline void tmv_rows_column_lines(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows,
                                         size_t w)
{
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp)
        for (size_t i = 0; i < w; i += 16)
            _mm_stream_si128((__m128i *)(void *)(d + i), _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
}

/* Rows per block of a SPLIT's columns streaming to memory: 512 bytes of
 * joined rows (at least one row), measured at 64 MiB (memcpy 3.9-4.3 ms):
 * split inner/8x64B/f32 took 4.5-4.7 ms a row at a time and 6.4-8.5 ms in
 * blocks of 2 to 32 rows; inner/2x64B/f32 took 3.2-3.4 ms in blocks of 4 to
 * 16 rows, 4.6 ms a row at a time. */
static inline uint64_t tmv_rows_split_stream_block(const tmv_rows_shape *s)
{
    return s->joined_pitch > 0 && s->joined_pitch < 512 ? 512 / s->joined_pitch : 1;
}

/* Whether the columns write whole lines only, so that past the stream
 * threshold they write non-temporally: a JOIN's pieces are whole 64-byte
 * lines of line-aligned joined rows; a SPLIT's piece outputs start on a line
 * and each block of a column (tmv_rows_split_stream_block rows) is whole
 * lines: rows of whole lines, or contiguous rows of 16-byte multiples. At
 * DRAM size, join inner/8x64B/f32 went from 0.57 to 1.44-1.48 x memcpy,
 * split from 0.43-0.59 to 1.05; split inner/8x16B/f32 on SSE2 from 5.2-5.6
 * to 4.8-4.9 ms (memcpy 3.9-4.4). With pieces and joined NULL, the
 * shape's part alone (the buffers taken as line-aligned): the cost model's
 * question (tmv_rows_columns_streams). */
static inline bool tmv_rows_columns_stream(const tmv_rows_shape *s, const void *const *pieces,
                                           const uint8_t *joined, bool join, uint64_t stream_threshold)
{
    if (s->rows * s->joined_bytes < stream_threshold)
        return false;
    uintptr_t bits = join ? (uintptr_t)joined | s->joined_pitch : 0;
    const uint64_t block = tmv_rows_split_stream_block(s);
    for (uint32_t p = 0; p < s->piece_count; p++) {
        const tmv_rows_piece *piece = &s->pieces[p];
        if (join)
            bits |= piece->bytes | piece->offset;
        else if (piece->pitch == piece->bytes && piece->bytes % 16 == 0)
            bits |= (pieces ? (uintptr_t)pieces[piece->buffer] : 0) | block * piece->bytes;
        else
            bits |= (pieces ? (uintptr_t)pieces[piece->buffer] : 0) | piece->bytes | piece->pitch;
    }
    return bits % 64 == 0;
}

/* Whether the columns kernels stream shape s (a JOIN's if join), given
 * line-aligned buffers. */
static inline bool tmv_rows_columns_streams(const tmv_rows_shape *s, bool join)
{
    return tmv_rows_columns_stream(s, NULL, NULL, join, s->tuning->stream_threshold);
}

/* Moves one piece's column: `rows` runs of w bytes from s every sp bytes to
 * d every dp bytes (tmv_rows_column, or a set's wider moves). */
typedef void tmv_rows_column_fn(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows, size_t w);

/* One piece's column of `rows` rows: own is the piece's first row, row
 * its place in the joined tensor's first; streaming (nt) or by column(). */
__attribute__((always_inline)) static inline void tmv_rows_column_of(uint8_t *own, uint64_t own_pitch, uint8_t *row,
                                                                     uint64_t joined_pitch, uint64_t rows,
                                                                     uint64_t bytes, bool join, bool nt,
                                                                     tmv_rows_column_fn *column)
{
    uint8_t *d = join ? row : own;
    const uint8_t *from = join ? own : row;
    const uint64_t d_pitch = join ? joined_pitch : own_pitch, from_pitch = join ? own_pitch : joined_pitch;
    if (nt)
        tmv_rows_column_lines(d, d_pitch, from, from_pitch, rows, (size_t)bytes);
    else
        column(d, d_pitch, from, from_pitch, rows, (size_t)bytes);
}

/* Rows [first, rows) of a JOIN (join: buffers are the pieces' sources,
 * only read) or a SPLIT (their destinations): each piece's column of a
 * block of rows in turn, with moves of its width (a memcpy per piece per
 * row costs a call for a few bytes), streaming (nt) or by column(). The
 * pieces come from locals where they fit and there is more than a block
 * (tmv_rows_locals; JOIN 8x100B at 1 MiB, 15 rows a block: 21.2 -> 18.9
 * us; a single block, as at 8 KiB, gains nothing for their reading). Always
 * inlined: join and column are constants at each call. */
__attribute__((always_inline)) static inline void tmv_rows_columns(const tmv_rows_shape *s, uint8_t *joined,
                                                                   void *const *buffers, bool join, uint64_t first,
                                                                   uint64_t block, bool nt, tmv_rows_column_fn *column)
{
    const uint64_t all = s->rows, joined_pitch = s->joined_pitch;
    const uint32_t n = s->piece_count;
    tmv_rows_locals l;
    if (all - first > block && tmv_rows_locals_read(s, (const void *const *)buffers, &l)) {
        for (uint64_t r0 = first; r0 < all; r0 += block) {
            const uint64_t rows = all - r0 < block ? all - r0 : block;
            for (uint32_t p = 0; p < n; p++)
                tmv_rows_column_of(l.base[p] + r0 * l.pitch[p], l.pitch[p], joined + r0 * joined_pitch + l.offset[p],
                                   joined_pitch, rows, l.bytes[p], join, nt, column);
        }
    } else {
        for (uint64_t r0 = first; r0 < all; r0 += block) {
            const uint64_t rows = all - r0 < block ? all - r0 : block;
            for (uint32_t p = 0; p < n; p++) {
                const tmv_rows_piece *piece = &s->pieces[p];
                tmv_rows_column_of((uint8_t *)buffers[piece->buffer] + r0 * piece->pitch, piece->pitch,
                                   joined + r0 * joined_pitch + piece->offset, joined_pitch, rows, piece->bytes, join,
                                   nt, column);
            }
        }
    }
    if (nt)
        _mm_sfence();
}

/* The rows of a block when the columns do not stream: tmv_rows_block, at
 * most TMV_ROWS_BLOCK_MAX_ROWS_PAST_L1 once the step outgrows L1; and when
 * the output reaches stream_threshold bytes but the columns cannot stream
 * it (pieces that are not whole lines), with in_order, one row, so that
 * each joined row is written (JOIN) or read (SPLIT) once, in order, as a
 * memcpy per piece does. The wide columns need it: in blocks of 4 rows, 8
 * pieces of 100 bytes at 64 MiB ran 0.34-0.39 x best-copy, in order
 * 0.55-0.68 (memcpy per piece: 0.51-0.63). */
static inline uint64_t tmv_rows_unstreamed_block(const tmv_rows_shape *s, uint64_t stream_threshold, bool in_order)
{
    const uint64_t bytes = s->rows * s->joined_bytes;
    if (in_order && bytes >= stream_threshold)
        return 1;
    const uint64_t block = tmv_rows_block(s);
    return 2 * bytes > tmv_rows_l1_bytes(s) && block > TMV_ROWS_BLOCK_MAX_ROWS_PAST_L1 ? TMV_ROWS_BLOCK_MAX_ROWS_PAST_L1 : block;
}

/* Rows [first, rows) of a JOIN or a SPLIT by columns (tmv_rows_columns):
 * streaming to memory past the threshold where the columns write whole
 * lines (tmv_rows_columns_stream), in blocks whose joined rows stay in L1
 * from column to column and whose streams read in runs DRAM serves well
 * (JOIN), or of tmv_rows_split_stream_block rows (SPLIT). */
__attribute__((always_inline)) static inline void tmv_rows_columns_by(const tmv_rows_shape *s, void *const *pieces,
                                                                      uint8_t *joined, bool join, uint64_t first,
                                                                      uint64_t stream_threshold,
                                                                      tmv_rows_column_fn *column, bool in_order)
{
    const bool nt = tmv_rows_columns_stream(s, (const void *const *)pieces, joined, join, stream_threshold);
    const uint64_t block = nt ? (join ? tmv_rows_block(s) : tmv_rows_split_stream_block(s))
                              : tmv_rows_unstreamed_block(s, stream_threshold, in_order);
    tmv_rows_columns(s, joined, pieces, join, first, block, nt, column);
}

/* The same with the SSE2 column moves (pieces of at most
 * TMV_ROWS_COLUMN_MAX bytes), for a JOIN and for a SPLIT: gcc leaves them
 * out of line where two kernels of a file call them. */
static inline void tmv_rows_join_columns(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst,
                                         uint64_t first, uint64_t stream_threshold)
{
    tmv_rows_columns_by(s, (void *const *)(uintptr_t)srcs, dst, true, first, stream_threshold, tmv_rows_column, false);
}

static inline void tmv_rows_split_columns(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts,
                                          uint64_t first, uint64_t stream_threshold)
{
    tmv_rows_columns_by(s, dsts, (uint8_t *)(uintptr_t)src, false, first, stream_threshold, tmv_rows_column, false);
}

/* The one of direction join, for the kernels written once for both (join a
 * constant in each, so one call remains). Each call is hinted as always
 * taken: gcc kept the even odds it guesses for a plain branch on join in a
 * kernel's profile after the branch was gone, which halved the call's count
 * and changed the code around it. */
__attribute__((always_inline)) static inline void tmv_rows_narrow_columns(const tmv_rows_shape *s, void *const *pieces,
                                                                          uint8_t *joined, bool join, uint64_t first,
                                                                          uint64_t stream_threshold)
{
    if (__builtin_expect_with_probability(join, true, 1.0))
        tmv_rows_join_columns(s, (const void *const *)pieces, joined, first, stream_threshold);
    if (__builtin_expect_with_probability(!join, true, 1.0))
        tmv_rows_split_columns(s, joined, pieces, first, stream_threshold);
}

/* The SSE2 columns kernel (rows_x86.h): every piece's column by the SSE2
 * moves; it takes pieces of at most TMV_ROWS_COLUMN_MAX bytes
 * (tmv_rows_all_narrow). */
__attribute__((always_inline)) static inline void tmv_rows_narrow_columns_run(const tmv_rows_shape *s,
                                                                              void *const *pieces, uint8_t *joined,
                                                                              bool join)
{
    tmv_rows_narrow_columns(s, pieces, joined, join, 0, s->tuning->stream_threshold);
}

/* ------------------------------------------------------------- stream */

/* The stream kernel's shapes: a few long pieces, or pieces of whole lines,
 * past the tuning record's stream threshold (rows_long.h). */
__attribute__((always_inline)) static inline bool tmv_rows_long_shape(const tmv_rows_shape *s)
{
    return tmv_rows_stream_shape(s, s->tuning->stream_threshold);
}

/* The stream kernel (rows_x86.h): each piece's rows copied with streaming
 * stores, fenced before returning. */
__attribute__((always_inline)) static inline void tmv_rows_stream_run(const tmv_rows_shape *s, void *const *pieces,
                                                                      uint8_t *joined, bool join)
{
    tmv_rows_stream_lines(s, joined, pieces, join, tmv_stream_line_sse2);
    _mm_sfence();
}

#endif
