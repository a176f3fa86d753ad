/* rows_x86.h - static inline helpers of the x86 row-wise JOIN/SPLIT kernels: fixed-size column moves (SSE2) and the permute plan of the interleave kernels (AVX-512). */
#ifndef TMV_ROWS_X86_H
#define TMV_ROWS_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "stream_x86.h"

/* ------------------------------------------------------------ columns */

/* Widest piece the column kernels take: above it a row is long enough for
 * memcpy's own loop to be as fast. */
#define TMV_ROWS_COLUMN_MAX 64
/* Joined bytes per block of rows: each piece's column of a block is copied
 * in turn, so the block's joined rows must stay in L1 between columns. */
#define TMV_ROWS_BLOCK_BYTES 2048
#define TMV_ROWS_BLOCK_MIN_ROWS 4

/* Rows per block for the column kernels. */
static inline uint64_t tmv_rows_block(const tmv_rows_shape *s)
{
    uint64_t n = TMV_ROWS_BLOCK_BYTES / (s->joined_pitch ? s->joined_pitch : 1);
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

/* Copies one piece's column: `rows` runs of w bytes (1 <= w <= 64), from s
 * every sp bytes to d every dp bytes. */
static inline void tmv_rows_column(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp,
                                   uint64_t rows, size_t w)
{
    if (w == 1) {
        for (uint64_t r = 0; r < rows; r++)
            d[r * dp] = s[r * sp];
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
 * to 4.8-4.9 ms (memcpy 3.9-4.4). */
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
            bits |= (uintptr_t)pieces[piece->buffer] | block * piece->bytes;
        else
            bits |= (uintptr_t)pieces[piece->buffer] | piece->bytes | piece->pitch;
    }
    return bits % 64 == 0;
}

/* Rows [first, rows) of a JOIN: each piece's column of a block of rows in
 * turn, with moves of its width (a memcpy per piece per row costs a call for
 * a few bytes); the block is small enough that its joined rows stay in L1
 * from column to column and its streams read in runs DRAM serves well. */
static inline void tmv_rows_join_columns(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst,
                                         uint64_t first, uint64_t stream_threshold)
{
    const uint64_t block = tmv_rows_block(s);
    const bool nt = tmv_rows_columns_stream(s, srcs, dst, true, stream_threshold);
    for (uint64_t r0 = first; r0 < s->rows; r0 += block) {
        const uint64_t rows = s->rows - r0 < block ? s->rows - r0 : block;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            const uint8_t *src = (const uint8_t *)srcs[piece->buffer] + r0 * piece->pitch;
            uint8_t *d = dst + r0 * s->joined_pitch + piece->offset;
            if (nt)
                tmv_rows_column_lines(d, s->joined_pitch, src, piece->pitch, rows, (size_t)piece->bytes);
            else
                tmv_rows_column(d, s->joined_pitch, src, piece->pitch, rows, (size_t)piece->bytes);
        }
    }
    if (nt)
        _mm_sfence();
}

/* Rows [first, rows) of a SPLIT, as the JOIN: one piece's column of a block
 * at a time (streaming to memory, of tmv_rows_split_stream_block rows). */
static inline void tmv_rows_split_columns(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts,
                                          uint64_t first, uint64_t stream_threshold)
{
    const bool nt = tmv_rows_columns_stream(s, (const void *const *)dsts, NULL, false, stream_threshold);
    const uint64_t block = nt ? tmv_rows_split_stream_block(s) : tmv_rows_block(s);
    for (uint64_t r0 = first; r0 < s->rows; r0 += block) {
        const uint64_t rows = s->rows - r0 < block ? s->rows - r0 : block;
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            uint8_t *dst = (uint8_t *)dsts[piece->buffer] + r0 * piece->pitch;
            const uint8_t *from = src + r0 * s->joined_pitch + piece->offset;
            if (nt)
                tmv_rows_column_lines(dst, piece->pitch, from, s->joined_pitch, rows, (size_t)piece->bytes);
            else
                tmv_rows_column(dst, piece->pitch, from, s->joined_pitch, rows, (size_t)piece->bytes);
        }
    }
    if (nt)
        _mm_sfence();
}

/* ------------------------------------------------------------ long pieces */

/* Pieces of at least this many bytes per row go to the stream kernels when
 * the output is past the stream threshold (JOIN / SPLIT along the outer
 * axis: one row of a few large pieces), each piece through tmv_stream_copy:
 * at DRAM size split outer/8x/f32 went from 5.1 to 3.1 ms (memcpy of the
 * same bytes: 4.0-4.9 ms), join outer/2x/f32 from 4.3 to 3.2 ms. */
#define TMV_ROWS_STREAM_MIN 4096

/* Whether the stream kernels take the shape (with the threshold of the call). */
static inline bool tmv_rows_stream_shape(const tmv_rows_shape *s, uint64_t stream_threshold)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes < TMV_ROWS_STREAM_MIN)
            return false;
    return s->rows * s->joined_bytes >= stream_threshold;
}

/* ------------------------------------------------------- zip networks */

/* The most pieces (streams) a row kernel takes. */
#define TMV_ROWS_MAX_STREAMS 16

/* The reordering stages, from stage s (units of `unit` bytes, a whole
 * number of vec-byte vectors) on, applied to vector labels: JOIN zips groups
 * A and B of m vectors unit by unit (c vectors a unit). pos[i] is the joined
 * vector of network vector i within a block of n vectors. */
static inline void tmv_rows_vector_order(unsigned n, unsigned s, unsigned unit, unsigned vec, unsigned *pos)
{
    unsigned label[TMV_ROWS_MAX_STREAMS], next[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        label[i] = i;
    for (; (1u << s) < n; s++, unit *= 2) {
        const unsigned m = 1u << s, c = unit / vec;
        for (unsigned g = 0; g < n; g += 2 * m)
            for (unsigned u0 = 0; u0 < m; u0 += c)
                for (unsigned i = 0; i < c; i++) {
                    next[g + 2 * u0 + i] = label[g + u0 + i];
                    next[g + 2 * u0 + c + i] = label[g + m + u0 + i];
                }
        memcpy(label, next, sizeof label);
    }
    for (unsigned o = 0; o < n; o++)
        pos[label[o]] = o;
}

/* n = 2^k equal packed streams of w bytes interleave in k stages: stage s
 * zips pairs of groups of 2^s streams already interleaved, at a unit of
 * w*2^s bytes (one two-source shuffle per output vector, so k shuffles per
 * vector instead of n). Stages whose unit is a whole vector (vec bytes) or
 * more only reorder vectors: they become the order in which vectors are
 * stored (JOIN) or loaded (SPLIT, which runs the stages backwards). Returns
 * the number of shuffling stages; pos[i] is the joined vector of network
 * vector i within a block. */
static inline unsigned tmv_rows_zip_order(unsigned n, unsigned w, unsigned vec, unsigned *pos)
{
    unsigned s = 0, unit = w;
    while ((1u << s) < n && unit < vec) {
        s++;
        unit *= 2;
    }
    tmv_rows_vector_order(n, s, unit, vec, pos);
    return s;
}

/* True if the shape is 2..16 packed pieces of one width, a power of two
 * from min_w to max_w bytes, in a packed joined tensor: n streams to
 * interleave element by element. */
static inline bool tmv_rows_equal_packed(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    const uint64_t w = s->pieces[0].bytes;
    if (s->piece_count > 16 || w < min_w || w > max_w || (w & (w - 1)) != 0 || s->joined_pitch != s->joined_bytes)
        return false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes != w || s->pieces[p].pitch != w || s->pieces[p].offset != p * w)
            return false;
    return true;
}

/* The same with 2, 4, 8 or 16 pieces: the zip networks' shapes. */
static inline bool tmv_rows_zip_shape(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    return (s->piece_count & (s->piece_count - 1)) == 0 && tmv_rows_equal_packed(s, min_w, max_w);
}

/* The shuffling stages of the 16-byte network (SSE2, and AVX2 per lane):
 * min(log2 n, log2(16 / w)), none for 16-byte pieces. */
static inline unsigned tmv_rows_network_stages(unsigned n, unsigned w)
{
    const unsigned lg_n = n >= 16 ? 4 : n >= 8 ? 3 : n >= 4 ? 2 : 1;
    const unsigned lg_v = w >= 16 ? 0 : w >= 8 ? 1 : w >= 4 ? 2 : w >= 2 ? 3 : 4;
    return lg_n < lg_v ? lg_n : lg_v;
}

/* Pair p (of n / 2) of stage st: JOIN zips v[a] and v[b] into the low and
 * high halves t[lo] and t[hi]; SPLIT, running the stages backwards, unzips
 * them into the even and odd units. */
typedef struct tmv_rows_pair {
    unsigned a, b, lo, hi;
} tmv_rows_pair;

static inline tmv_rows_pair tmv_rows_stage_pair(unsigned st, unsigned p, bool join)
{
    const unsigned m = 1u << st, g = p / m * 2 * m, i = p % m;
    return join ? (tmv_rows_pair){g + i, g + m + i, g + 2 * i, g + 2 * i + 1}
                : (tmv_rows_pair){g + 2 * i, g + 2 * i + 1, g + i, g + m + i};
}

/* SSE2 zip of unit u (bytes, below 16): the low or high halves of a and b
 * interleaved unit by unit. */
static inline __m128i tmv_rows_zip_sse2(unsigned u, bool hi, __m128i a, __m128i b)
{
    switch (u) {
    case 1: return hi ? _mm_unpackhi_epi8(a, b) : _mm_unpacklo_epi8(a, b);
    case 2: return hi ? _mm_unpackhi_epi16(a, b) : _mm_unpacklo_epi16(a, b);
    case 4: return hi ? _mm_unpackhi_epi32(a, b) : _mm_unpacklo_epi32(a, b);
    default: return hi ? _mm_unpackhi_epi64(a, b) : _mm_unpacklo_epi64(a, b);
    }
}

/* SSE2 unzip of unit u (below 16): the even (odd) units of a:b. SSE2 has no
 * byte shuffle, so narrow units move through packs of masked or shifted
 * halves (sign-extended first where the pack saturates signed). */
static inline __m128i tmv_rows_unzip_sse2(unsigned u, bool odd, __m128i a, __m128i b)
{
    switch (u) {
    case 1:
        if (odd)
            return _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
        return _mm_packus_epi16(_mm_and_si128(a, _mm_set1_epi16(0xff)), _mm_and_si128(b, _mm_set1_epi16(0xff)));
    case 2:
        if (odd)
            return _mm_packs_epi32(_mm_srai_epi32(a, 16), _mm_srai_epi32(b, 16));
        return _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(a, 16), 16), _mm_srai_epi32(_mm_slli_epi32(b, 16), 16));
    case 4: /* the shuffle control is an immediate, even unoptimized: one call per parity */
        if (odd)
            return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
        return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
    default: return odd ? _mm_unpackhi_epi64(a, b) : _mm_unpacklo_epi64(a, b);
    }
}

/* Whole 16-byte blocks (16/w rows) of the shape through the SSE2 network;
 * n and w are constants at each call. Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_zip_run_sse2(const tmv_rows_shape *s, unsigned n, unsigned w, uint8_t *const *streams, uint8_t *joined,
                      bool join, bool nt)
{
    unsigned pos[16];
    tmv_rows_zip_order(n, w, 16, pos);
    const unsigned k = tmv_rows_network_stages(n, w);
    const uint64_t blocks = s->rows / (16 / w);
    for (uint64_t b = 0; b < blocks; b++) {
        __m128i v[16], t[16];
#pragma GCC unroll 16
        for (unsigned i = 0; i < n; i++)
            v[i] = _mm_loadu_si128((const __m128i *)(join ? streams[i] + 16 * b : joined + 16 * (b * n + pos[i])));
#pragma GCC unroll 4
        for (unsigned step = 0; step < k; step++) {
            const unsigned st = join ? step : k - 1 - step, unit = w << st;
#pragma GCC unroll 8
            for (unsigned p = 0; p < n / 2; p++) {
                const tmv_rows_pair q = tmv_rows_stage_pair(st, p, join);
                t[q.lo] = join ? tmv_rows_zip_sse2(unit, false, v[q.a], v[q.b]) : tmv_rows_unzip_sse2(unit, false, v[q.a], v[q.b]);
                t[q.hi] = join ? tmv_rows_zip_sse2(unit, true, v[q.a], v[q.b]) : tmv_rows_unzip_sse2(unit, true, v[q.a], v[q.b]);
            }
#pragma GCC unroll 16
            for (unsigned i = 0; i < n; i++)
                v[i] = t[i];
        }
#pragma GCC unroll 16
        for (unsigned o = 0; o < n; o++)
        {
            __m128i *dst = (__m128i *)(join ? joined + 16 * (b * n + pos[o]) : streams[o] + 16 * b);
            if (nt)
                _mm_stream_si128(dst, v[o]);
            else
                _mm_storeu_si128(dst, v[o]);
        }
    }
    if (nt)
        _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
    return blocks * (16 / w);
}

/* Whether a zip network's output reaching stream_threshold bytes is written
 * with streaming stores: a JOIN's joined rows aligned to a vector (whole
 * lines in order, as memcpy does at that size); a SPLIT's streams each on a
 * line, which they then fill with consecutive blocks (64 MiB, split
 * inner/8x4B/f32: 5.3 -> 3.3-3.4 ms, inner/2x4B on SSE2 4.3-4.6 -> 3.0; memcpy
 * 3.8-4.1 ms). */
static inline bool tmv_rows_zip_stream(const tmv_rows_shape *s, uint8_t *const *streams, const uint8_t *joined,
                                       bool join, uint64_t stream_threshold, uintptr_t vec)
{
    uintptr_t bases = join ? (uintptr_t)joined % vec : 0;
    for (unsigned i = 0; !join && i < s->piece_count; i++)
        bases |= (uintptr_t)streams[i] % 64;
    return s->rows * s->joined_bytes >= stream_threshold && bases == 0;
}

/* Dispatches (n, w) to constants for tmv_rows_zip_run_sse2, streaming as
 * tmv_rows_zip_stream says. */
static inline uint64_t tmv_rows_zip_sse2_any(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined,
                                             bool join, uint64_t stream_threshold)
{
    const bool nt = tmv_rows_zip_stream(s, streams, joined, join, stream_threshold, 16);
#define TMV_ROWS_ZIP_W(n)                                                              \
    switch (s->pieces[0].bytes) {                                                      \
    case 1: return nt ? tmv_rows_zip_run_sse2(s, n, 1, streams, joined, join, true)    \
                      : tmv_rows_zip_run_sse2(s, n, 1, streams, joined, join, false);  \
    case 2: return nt ? tmv_rows_zip_run_sse2(s, n, 2, streams, joined, join, true)    \
                      : tmv_rows_zip_run_sse2(s, n, 2, streams, joined, join, false);  \
    case 4: return nt ? tmv_rows_zip_run_sse2(s, n, 4, streams, joined, join, true)    \
                      : tmv_rows_zip_run_sse2(s, n, 4, streams, joined, join, false);  \
    default: return nt ? tmv_rows_zip_run_sse2(s, n, 8, streams, joined, join, true)   \
                       : tmv_rows_zip_run_sse2(s, n, 8, streams, joined, join, false); \
    }
    switch (s->piece_count) {
    case 2: TMV_ROWS_ZIP_W(2)
    case 4: TMV_ROWS_ZIP_W(4)
    default: TMV_ROWS_ZIP_W(8)
    }
#undef TMV_ROWS_ZIP_W
}

/* ----------------------------------------------------- network (AVX2) */
#if defined(__AVX2__)

/* The SSE2 network's steps on both 128-bit lanes at once (every unpack and
 * pack of AVX2 stays within its lane): zip of unit u below 16 bytes ... */
static inline __m256i tmv_rows_zip_avx2(unsigned u, bool hi, __m256i a, __m256i b)
{
    switch (u) {
    case 1: return hi ? _mm256_unpackhi_epi8(a, b) : _mm256_unpacklo_epi8(a, b);
    case 2: return hi ? _mm256_unpackhi_epi16(a, b) : _mm256_unpacklo_epi16(a, b);
    case 4: return hi ? _mm256_unpackhi_epi32(a, b) : _mm256_unpacklo_epi32(a, b);
    default: return hi ? _mm256_unpackhi_epi64(a, b) : _mm256_unpacklo_epi64(a, b);
    }
}

/* ... and unzip (see tmv_rows_unzip_sse2). */
static inline __m256i tmv_rows_unzip_avx2(unsigned u, bool odd, __m256i a, __m256i b)
{
    switch (u) {
    case 1:
        if (odd)
            return _mm256_packus_epi16(_mm256_srli_epi16(a, 8), _mm256_srli_epi16(b, 8));
        return _mm256_packus_epi16(_mm256_and_si256(a, _mm256_set1_epi16(0xff)),
                                   _mm256_and_si256(b, _mm256_set1_epi16(0xff)));
    case 2:
        if (odd)
            return _mm256_packs_epi32(_mm256_srai_epi32(a, 16), _mm256_srai_epi32(b, 16));
        return _mm256_packs_epi32(_mm256_srai_epi32(_mm256_slli_epi32(a, 16), 16),
                                  _mm256_srai_epi32(_mm256_slli_epi32(b, 16), 16));
    case 4:
        if (odd)
            return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
        return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
    default: return odd ? _mm256_unpackhi_epi64(a, b) : _mm256_unpacklo_epi64(a, b);
    }
}

/* Lanes `lo` (0 or 1) of a and of b, as the low and high lanes. */
static inline __m256i tmv_rows_lanes_avx2(__m256i a, __m256i b, unsigned lo)
{
    return lo ? _mm256_permute2x128_si256(a, b, 0x31) : _mm256_permute2x128_si256(a, b, 0x20);
}

/* Whole pairs of 16-byte blocks (32/w rows) through the SSE2 network, the
 * two blocks of a pair in the two lanes of each register: a stream's 32
 * bytes are one load or store, and one lane exchange per joined vector
 * moves the pair's joined 16-byte vectors into place (pos as in SSE2). n and
 * w (up to 16 bytes) are constants at each call. Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_zip_run_avx2(const tmv_rows_shape *s, unsigned n, unsigned w, uint8_t *const *streams, uint8_t *joined,
                      bool join, bool nt)
{
    unsigned pos[16], inv[16];
    tmv_rows_zip_order(n, w, 16, pos);
    for (unsigned i = 0; i < n; i++)
        inv[pos[i]] = i;
    const unsigned k = tmv_rows_network_stages(n, w);
    const uint64_t pairs = s->rows / (32 / w);
    for (uint64_t b = 0; b < pairs; b++) {
        __m256i v[8], t[8];
        uint8_t *block = joined + 32 * n * b;   /* the pair's joined bytes: 16-byte vectors q = lane * n + pos */
        if (join) {
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++)
                v[i] = _mm256_loadu_si256((const __m256i *)(const void *)(streams[i] + 32 * b));
        } else {
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++) {
                /* joined vector pos[i] of each block: lanes of the 32-byte loads at q / 2 */
                const __m256i y0 = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32 * (pos[i] / 2)));
                const __m256i y1 = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32 * ((n + pos[i]) / 2)));
                v[i] = tmv_rows_lanes_avx2(y0, y1, pos[i] % 2);
            }
        }
#pragma GCC unroll 4
        for (unsigned step = 0; step < k; step++) {
            const unsigned st = join ? step : k - 1 - step, unit = w << st;
#pragma GCC unroll 4
            for (unsigned p = 0; p < n / 2; p++) {
                const tmv_rows_pair q = tmv_rows_stage_pair(st, p, join);
                t[q.lo] = join ? tmv_rows_zip_avx2(unit, false, v[q.a], v[q.b]) : tmv_rows_unzip_avx2(unit, false, v[q.a], v[q.b]);
                t[q.hi] = join ? tmv_rows_zip_avx2(unit, true, v[q.a], v[q.b]) : tmv_rows_unzip_avx2(unit, true, v[q.a], v[q.b]);
            }
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++)
                v[i] = t[i];
        }
        if (join) {
            /* 32-byte vector j holds 16-byte vectors 2j and 2j + 1: both of lane 2j / n */
#pragma GCC unroll 8
            for (unsigned j = 0; j < n; j++) {
                const unsigned lane = 2 * j / n, p0 = 2 * j % n;
                const __m256i y = tmv_rows_lanes_avx2(v[inv[p0]], v[inv[p0 + 1]], lane);
                __m256i *dst = (__m256i *)(void *)(block + 32 * j);
                if (nt)
                    _mm256_stream_si256(dst, y);
                else
                    _mm256_storeu_si256(dst, y);
            }
        } else {
#pragma GCC unroll 8
            for (unsigned o = 0; o < n; o++)
                _mm256_storeu_si256((__m256i *)(void *)(streams[o] + 32 * b), v[o]);
        }
    }
    if (nt)
        _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
    return pairs * (32 / w);
}
/* Dispatches (n, w) to constants for tmv_rows_zip_run_avx2; streaming
 * stores as in tmv_rows_zip_sse2_any. */
static inline uint64_t tmv_rows_zip_avx2_any(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined,
                                             bool join, uint64_t stream_threshold)
{
    const bool nt = tmv_rows_zip_stream(s, streams, joined, join, stream_threshold, 32);
    const unsigned n = s->piece_count;
    switch (n * 32 + (unsigned)s->pieces[0].bytes + (nt ? 1024 : 0)) {
#define TMV_ROWS_ZIP_AVX2(n, w)                                                                            \
    case n * 32 + w: return tmv_rows_zip_run_avx2(s, n, w, streams, joined, join, false);                 \
    case n * 32 + w + 1024: return tmv_rows_zip_run_avx2(s, n, w, streams, joined, join, true);
    TMV_ROWS_ZIP_AVX2(2, 1) TMV_ROWS_ZIP_AVX2(2, 2) TMV_ROWS_ZIP_AVX2(2, 4) TMV_ROWS_ZIP_AVX2(2, 8) TMV_ROWS_ZIP_AVX2(2, 16)
    TMV_ROWS_ZIP_AVX2(4, 1) TMV_ROWS_ZIP_AVX2(4, 2) TMV_ROWS_ZIP_AVX2(4, 4) TMV_ROWS_ZIP_AVX2(4, 8) TMV_ROWS_ZIP_AVX2(4, 16)
    TMV_ROWS_ZIP_AVX2(8, 1) TMV_ROWS_ZIP_AVX2(8, 2) TMV_ROWS_ZIP_AVX2(8, 4) TMV_ROWS_ZIP_AVX2(8, 8) TMV_ROWS_ZIP_AVX2(8, 16)
#undef TMV_ROWS_ZIP_AVX2
    default: return 0;   /* not a shape tmv_rows_zip_avx2_shape takes */
    }
}

/* 2, 4 or 8 equal packed pieces of 1 to 16 bytes, where the lane exchanges
 * pay: 16-byte pieces (1.5-1.9x SSE2's column moves at L2 size) and joined
 * rows of at most 16 bytes (2x4B: +10-14%); with more than 16 joined bytes
 * per row of narrower pieces (8x4B) they cost more than the wider loads
 * gain (4-5% slower than SSE2 at L2 size). */
static inline bool tmv_rows_zip_avx2_shape(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes;
    return s->piece_count <= 8 && tmv_rows_zip_shape(s, 1, 16) && (w == 16 || w * s->piece_count <= 16);
}
#endif

/* -------------------------------------------------- interleave (AVX-512) */
#if defined(__AVX512F__) && defined(__AVX512BW__)

/* Other stream counts (not a power of two) of 1, 2 or 4 bytes: a block of
 * 64 bytes from each stream is n vectors of the joined tensor, and each
 * vector on one side is built from the vectors of the other side by masked
 * lane permutes (lanes of the piece width), one per contributing vector.
 * The plan is those indices and masks. */
typedef struct tmv_rows_perm {
    unsigned n;                               /* vectors per block on each side */
    unsigned unit;                            /* lane bytes: the piece width */
    uint64_t joined_bytes;                    /* bytes per joined row */
    uint8_t  idx[TMV_ROWS_MAX_STREAMS][64];   /* lane indices per output vector */
    unsigned first[TMV_ROWS_MAX_STREAMS + 1]; /* entries of output o: [first[o], first[o+1]) */
    uint8_t  from[TMV_ROWS_MAX_STREAMS * TMV_ROWS_MAX_STREAMS];
    uint64_t mask[TMV_ROWS_MAX_STREAMS * TMV_ROWS_MAX_STREAMS];
} tmv_rows_perm;

/* Builds the plan into a kernel state (the interleave kernels' prepare).
 * Walks one block's joined lanes in order: lane g of the block is lane
 * g % lanes of joined vector g / lanes, and lane `row` of stream `p`. */
static inline void tmv_rows_perm_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    _Static_assert(sizeof(tmv_rows_perm) <= TMV_KERNEL_STATE_BYTES, "permute plan exceeds the kernel state");
    tmv_rows_perm *pl = state;
    const unsigned n = s->piece_count, u = (unsigned)s->pieces[0].bytes, lanes = 64 / u;
    uint64_t masks[TMV_ROWS_MAX_STREAMS][TMV_ROWS_MAX_STREAMS];
    memset(masks, 0, sizeof masks);
    pl->n = n;
    pl->unit = u;
    pl->joined_bytes = s->joined_bytes;
    unsigned row = 0, p = 0;
    for (unsigned g = 0; g < n * lanes; g++) {
        const unsigned jv = g / lanes, jl = g % lanes;
        const unsigned out = join ? jv : p, in = join ? p : jv, out_lane = join ? jl : row;
        const unsigned in_lane = join ? row : jl;
        for (unsigned b = 0; b < u; b++) /* little-endian lane of u bytes */
            pl->idx[out][out_lane * u + b] = b == 0 ? (uint8_t)in_lane : 0;
        masks[out][in] |= 1ull << out_lane;
        if (++p == n) {
            p = 0;
            row++;
        }
    }
    unsigned e = 0;
    for (unsigned o = 0; o < n; o++) {
        pl->first[o] = e;
        for (unsigned i = 0; i < n; i++)
            if (masks[o][i]) {
                pl->from[e] = (uint8_t)i;
                pl->mask[e++] = masks[o][i];
            }
    }
    pl->first[n] = e;
}

/* Merge-masked lane permute of u-byte lanes (u a constant after inlining). */
static inline __m512i tmv_rows_permute(unsigned u, __m512i acc, uint64_t mask, __m512i idx, __m512i v)
{
    switch (u) {
#if defined(__AVX512VBMI__)
    case 1: return _mm512_mask_permutexvar_epi8(acc, (__mmask64)mask, idx, v);
#endif
    case 2: return _mm512_mask_permutexvar_epi16(acc, (__mmask32)mask, idx, v);
    default: return _mm512_mask_permutexvar_epi32(acc, (__mmask16)mask, idx, v);
    }
}

/* Bytes [0, n) of a vector, n clamped to [0, 64]. */
static inline __mmask64 tmv_rows_bytes_mask(int64_t n)
{
    return n <= 0 ? 0 : n >= 64 ? ~(__mmask64)0 : _bzhi_u64(~0ull, (unsigned)n);
}

/* One block: 64 bytes of each stream, 64*n of the joined tensor; `join`
 * says which side is read. With `tail`, only the first stream_valid bytes of
 * each stream and joined_valid of the joined block are touched, and no
 * pointer is formed to a vector that holds none of them. */
static inline void tmv_rows_perm_block(const tmv_rows_perm *pl, unsigned u, uint8_t *const *streams,
                                       uint8_t *joined, bool join, bool tail, int64_t stream_valid,
                                       int64_t joined_valid)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < pl->n; i++) {
        const int64_t valid = join ? stream_valid : joined_valid - 64 * (int64_t)i;
        if (!tail)
            v[i] = _mm512_loadu_si512(join ? streams[i] : joined + 64 * i);
        else if (valid <= 0)
            v[i] = _mm512_setzero_si512();
        else
            v[i] = _mm512_maskz_loadu_epi8(tmv_rows_bytes_mask(valid), join ? streams[i] : joined + 64 * i);
    }
    for (unsigned o = 0; o < pl->n; o++) {
        const int64_t valid = join ? joined_valid - 64 * (int64_t)o : stream_valid;
        if (tail && valid <= 0)
            continue;
        const __m512i idx = _mm512_loadu_si512(pl->idx[o]);
        __m512i acc = _mm512_setzero_si512();
        for (unsigned e = pl->first[o]; e < pl->first[o + 1]; e++)
            acc = tmv_rows_permute(u, acc, pl->mask[e], idx, v[pl->from[e]]);
        uint8_t *dst = join ? joined + 64 * o : streams[o];
        if (tail)
            _mm512_mask_storeu_epi8(dst, tmv_rows_bytes_mask(valid), acc);
        else
            _mm512_storeu_si512(dst, acc);
    }
}

/* Runs the interleave over all rows: streams (the pieces, in order) advance
 * 64 bytes per block, the joined tensor 64*n. */
static inline void tmv_rows_perm_run(const tmv_rows_perm *pl, unsigned u, uint64_t rows,
                                     uint8_t *const *streams, uint8_t *joined, bool join)
{
    const unsigned n = pl->n;
    const uint64_t block_rows = 64 / pl->unit, blocks = rows / block_rows;
    uint8_t *s[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        s[i] = streams[i];
    for (uint64_t b = 0; b < blocks; b++) {
        tmv_rows_perm_block(pl, u, s, joined, join, false, 0, 0);
        for (unsigned i = 0; i < n; i++)
            s[i] += 64;
        joined += 64 * n;
    }
    const uint64_t left = rows - blocks * block_rows;
    if (left != 0)
        tmv_rows_perm_block(pl, u, s, joined, join, true, (int64_t)(left * pl->unit),
                            (int64_t)(left * pl->joined_bytes));
}

/* ---- power-of-two stream counts: a zip network ----
 * n = 2^k streams interleave in k stages: stage s zips pairs of groups of
 * 2^s streams already interleaved, at a unit of w*2^s bytes (one vpermt2 per
 * output vector, so k per 64 bytes instead of n). Stages whose unit is 64
 * bytes or more only reorder whole vectors: they become the order in which
 * vectors are stored (JOIN) or loaded (SPLIT). SPLIT runs the stages
 * backwards, unzipping. */
#define TMV_ROWS_MAX_STAGES 4
typedef struct tmv_rows_zip_plan {
    unsigned stages;                           /* stages that permute (unit < 64) */
    uint8_t  idx[TMV_ROWS_MAX_STAGES][2][64];  /* per stage: lo/hi (zip) or even/odd (unzip) */
    unsigned pos[TMV_ROWS_MAX_STREAMS];        /* joined vector of network vector i */
} tmv_rows_zip_plan;

/* Index vectors for lanes of e bytes (e divides the piece width w), and the
 * vector order of the reordering stages. */
static inline void tmv_rows_zip_init(tmv_rows_zip_plan *z, unsigned n, unsigned w, unsigned e, bool join)
{
    const unsigned lanes = 64 / e;
    unsigned s = 0, unit = w;
    for (; (1u << s) < n && unit < 64; s++, unit *= 2) {
        const unsigned per = unit / e; /* lanes per unit */
        for (unsigned half = 0; half < 2; half++)
            for (unsigned q = 0; q < lanes; q++) {
                const unsigned t = q / per, sub = q % per;
                unsigned from;
                if (join) /* unit t of the lo/hi half takes unit t/2 of A (even t) or B (odd t) */
                    from = (t & 1) * lanes + (t / 2 + half * (64 / unit) / 2) * per + sub;
                else /* even (half 0) or odd units of the pair A:B */
                    from = (2 * t + half) * per + sub;
                for (unsigned b = 0; b < e; b++)
                    z->idx[s][half][q * e + b] = b == 0 ? (uint8_t)from : 0;
            }
    }
    z->stages = s;
    /* SPLIT runs the same map the other way, so both take pos from JOIN's. */
    tmv_rows_vector_order(n, s, unit, 64, z->pos);
}

/* Two-source lane permute of e-byte lanes (e a constant after inlining). */
static inline __m512i tmv_rows_permute2(unsigned e, __m512i a, __m512i idx, __m512i b)
{
    switch (e) {
#if defined(__AVX512VBMI__)
    case 1: return _mm512_permutex2var_epi8(a, idx, b);
#endif
    case 2: return _mm512_permutex2var_epi16(a, idx, b);
    default: return _mm512_permutex2var_epi32(a, idx, b);
    }
}

/* The k permuting stages on n vectors (lanes of e bytes), in place. */
__attribute__((always_inline)) static inline void tmv_rows_zip_network(__m512i *v, const __m512i (*idx)[2],
                                                                       unsigned n, unsigned k, unsigned e, bool join)
{
    __m512i t[TMV_ROWS_MAX_STREAMS];
    /* One loop of n / 2 pairs per stage: a constant trip count, which every
     * compiler unrolls fully (nested group and member loops, whose counts
     * depend on the stage, were unrolled at run time by clang: 17 copies of
     * the network and minutes to compile). */
#pragma GCC unroll 4
    for (unsigned step = 0; step < k; step++) {
        const unsigned st = join ? step : k - 1 - step;
#pragma GCC unroll 8
        for (unsigned p = 0; p < n / 2; p++) {
            const tmv_rows_pair q = tmv_rows_stage_pair(st, p, join);
            t[q.lo] = tmv_rows_permute2(e, v[q.a], idx[st][0], v[q.b]);
            t[q.hi] = tmv_rows_permute2(e, v[q.a], idx[st][1], v[q.b]);
        }
#pragma GCC unroll 16
        for (unsigned i = 0; i < n; i++)
            v[i] = t[i];
    }
}

/* One whole block through the network (n vectors, k permuting stages, lanes
 * of e bytes: all constants at each call, so loops unroll and v stays in
 * registers). */
__attribute__((always_inline)) static inline void
tmv_rows_zip_block(const tmv_rows_zip_plan *z, const __m512i (*idx)[2], unsigned n, unsigned k, unsigned e,
                   uint8_t *const *streams, uint8_t *joined, bool join, bool nt)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
#pragma GCC unroll 16
    for (unsigned i = 0; i < n; i++)
        v[i] = _mm512_loadu_si512(join ? streams[i] : joined + 64 * z->pos[i]);
    tmv_rows_zip_network(v, idx, n, k, e, join);
#pragma GCC unroll 16
    for (unsigned o = 0; o < n; o++) {
        uint8_t *dst = join ? joined + 64 * z->pos[o] : streams[o];
        if (nt)
            _mm512_stream_si512((void *)dst, v[o]);
        else
            _mm512_storeu_si512(dst, v[o]);
    }
}

/* The last, partial block of a call: only the first stream_valid bytes of
 * each stream and joined_valid of the joined block are touched, and no
 * pointer is formed to a vector that holds none of them. One copy serves
 * every network (n, k and e at run time): it runs once per call, and its
 * byte-masked accesses are what sanitizers instrument lane by lane, so a copy
 * per network made the kernel files take minutes to compile under ASan. */
__attribute__((noinline)) static void tmv_rows_zip_tail(const tmv_rows_zip_plan *z, const __m512i (*idx)[2],
                                                        unsigned n, unsigned k, unsigned e, uint8_t *const *streams,
                                                        uint8_t *joined, bool join, int64_t stream_valid,
                                                        int64_t joined_valid)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < TMV_ROWS_MAX_STREAMS; i++) { /* all of v, so no compiler sees one unset */
        const int64_t valid = i >= n ? 0 : join ? stream_valid : joined_valid - 64 * (int64_t)z->pos[i];
        v[i] = valid <= 0 ? _mm512_setzero_si512()
                          : _mm512_maskz_loadu_epi8(tmv_rows_bytes_mask(valid),
                                                    join ? streams[i] : joined + 64 * z->pos[i]);
    }
    tmv_rows_zip_network(v, idx, n, k, e, join);
    for (unsigned o = 0; o < n; o++) {
        const int64_t valid = join ? joined_valid - 64 * (int64_t)z->pos[o] : stream_valid;
        if (valid > 0)
            _mm512_mask_storeu_epi8(join ? joined + 64 * z->pos[o] : streams[o], tmv_rows_bytes_mask(valid), v[o]);
    }
}

/* The whole shape through the network; n, k, e and nt (streaming stores,
 * every output vector 64-byte aligned) are constants at each call. */
__attribute__((always_inline)) static inline void
tmv_rows_zip_run(const tmv_rows_shape *s, const tmv_rows_zip_plan *z, unsigned n, unsigned k, unsigned e,
                 uint8_t *const *streams, uint8_t *joined, bool join, bool nt)
{
    const uint64_t w = s->pieces[0].bytes;
    __m512i idx[TMV_ROWS_MAX_STAGES][2];
    for (unsigned st = 0; st < k; st++)
        for (unsigned h = 0; h < 2; h++)
            idx[st][h] = _mm512_loadu_si512(z->idx[st][h]);
    uint8_t *p[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        p[i] = streams[i];
    const uint64_t block_rows = 64 / w, blocks = s->rows / block_rows;
    for (uint64_t b = 0; b < blocks; b++) {
        tmv_rows_zip_block(z, (const __m512i(*)[2])idx, n, k, e, p, joined, join, nt);
        for (unsigned i = 0; i < n; i++)
            p[i] += 64;
        joined += 64 * n;
    }
    const uint64_t left = s->rows - blocks * block_rows;
    if (left != 0)
        tmv_rows_zip_tail(z, (const __m512i(*)[2])idx, n, k, e, p, joined, join, (int64_t)(left * w),
                          (int64_t)(left * s->joined_bytes));
    if (nt)
        _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
}

/* Dispatches (n, permuting stages) to constants. */
__attribute__((always_inline)) static inline void
tmv_rows_zip_nk(const tmv_rows_shape *s, const tmv_rows_zip_plan *z, unsigned e, uint8_t *const *streams,
                uint8_t *joined, bool join, bool nt)
{
    switch (s->piece_count * 8 + z->stages) {
    case 2 * 8 + 1: tmv_rows_zip_run(s, z, 2, 1, e, streams, joined, join, nt); break;
    case 4 * 8 + 2: tmv_rows_zip_run(s, z, 4, 2, e, streams, joined, join, nt); break;
    case 8 * 8 + 3: tmv_rows_zip_run(s, z, 8, 3, e, streams, joined, join, nt); break;
    case 8 * 8 + 2: tmv_rows_zip_run(s, z, 8, 2, e, streams, joined, join, nt); break;
    case 16 * 8 + 4: tmv_rows_zip_run(s, z, 16, 4, e, streams, joined, join, nt); break;
    case 16 * 8 + 3: tmv_rows_zip_run(s, z, 16, 3, e, streams, joined, join, nt); break;
    default: tmv_rows_zip_run(s, z, 16, 2, e, streams, joined, join, nt); break;
    }
}

/* Builds the network's plan into a kernel state (the zip kernels' prepare):
 * lanes of e bytes. */
static inline void tmv_rows_zip_prepare(const tmv_rows_shape *s, void *state, unsigned e, bool join)
{
    _Static_assert(sizeof(tmv_rows_zip_plan) <= TMV_KERNEL_STATE_BYTES, "zip plan exceeds the kernel state");
    tmv_rows_zip_init(state, s->piece_count, (unsigned)s->pieces[0].bytes, e, join);
}

/* Runs the network planned in s->state. Outputs of at least
 * stream_threshold bytes whose vectors all fall 64-byte aligned are written
 * with streaming stores: they would not stay in cache, and skipping the
 * reads for ownership is what keeps pace with memcpy (which streams at that
 * size too). */
__attribute__((always_inline)) static inline void
tmv_rows_zip(const tmv_rows_shape *s, unsigned e, uint8_t *const *streams, uint8_t *joined, bool join,
             uint64_t stream_threshold)
{
    const tmv_rows_zip_plan *z = s->state;
    if (tmv_rows_zip_stream(s, streams, joined, join, stream_threshold, 64))
        tmv_rows_zip_nk(s, z, e, streams, joined, join, true);
    else
        tmv_rows_zip_nk(s, z, e, streams, joined, join, false);
}

#endif /* AVX-512 */
#endif
