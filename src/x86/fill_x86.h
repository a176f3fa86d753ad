/* fill_x86.h - TILE's broadcast copies (inner dim with source stride 0), written once for SSE2, AVX2 and AVX-512.
 *
 * Static inline only. The including file defines exactly one of
 * TMV_VEC_SSE2, TMV_VEC_AVX2 or TMV_VEC_AVX512 (the set it is compiled
 * for) and wraps the entry points at the bottom in its exported kernels.
 * AVX-512 exports the power-of-two fill only for patterns of 33 to 64
 * bytes in rows of one to four vectors (fill_avx512.c), which it moves as
 * fill_rows_short does (a load and the stores) where AVX2 takes two
 * vectors a pattern and a row at a time: TILE 3d 4x16 by {2, 2, 1} u8 at
 * 8 KiB 128 -> 40 ns. On the other TILE cases it ran as fast as AVX2's
 * (within 1% in alternating runs, before fill_rows_short); the VBMI
 * pattern fill uses the helpers at 512 bits.
 * Two shapes are served:
 *  - pattern fills: the inner dim is contiguous in the output (dst stride ==
 *    elem_bytes), so each row is r copies of one power-of-two pattern of
 *    1..64 bytes; the pattern is broadcast into registers once per row and
 *    only stores follow;
 *  - periods under 16 bytes that are no power of two (AVX2):
 *    a lane-local shuffle spreads the pattern over a vector, stored at a
 *    stride that is a multiple of the period;
 *  - block repeats too big for the cache (elements over 64 bytes, output at
 *    least the tuning record's stream_threshold): each copy is streamed past the cache. */
#ifndef TMV_FILL_X86_H
#define TMV_FILL_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../walk.h"
#include "stream_x86.h"
#include "vec_x86.h"

/* Splats of a 1-, 2-, 4- or 8-byte element (w a constant at every use). */
#define TMV_FV_SET1(w, x) MM(set1_epi##w)(x)
#if defined(TMV_VEC_AVX512)
#define TMV_FV_SET1_64(x) _mm512_set1_epi64(x)
#else
#define TMV_FV_SET1_64(x) MM(set1_epi64x)(x)
#endif

/* Vectors per 64-byte line: the unit of the store loops. */
#define TMV_FV_LINE (64 / TMV_VB)


/* ---- accepts ---- */

/* Rows of the inner dim that repeat one element contiguously. */
static inline bool fill_is_pattern_row(const tmv_copy_shape *s)
{
    if (s->rank == 0)
        return false;
    uint32_t in = s->rank - 1;
    return s->src_strides[in] == 0 && s->dst_strides[in] == s->elem_bytes;
}

static inline bool fill_shape_pow2(const tmv_copy_shape *s)
{
    uint64_t p = s->elem_bytes;
    return fill_is_pattern_row(s) && p <= 64 && (p & (p - 1)) == 0;
}

/* Repeats of an element over 64 bytes into an output too big to cache; the
 * smaller ones run at memcpy speed already through the portable kernel. */
/* Blocks of whole 64-byte lines, or long enough that the partial lines at
 * their ends do not count: streamed, a block whose end shares a line with
 * the next one writes that line twice with ordinary stores between
 * streaming ones, which ran 0.33-0.46 x the best copy on blocks of 100 and
 * 400 bytes (against 1.0-1.5 on blocks of 64-byte multiples; tmv-bench
 * --tmv_sweep=full --benchmark_filter='tile/3d/4x(100|16)-.*64MiB'). */
#define FILL_STREAM_PARTIAL_BLOCK_MIN 4096

static inline bool fill_shape_block_stream(const tmv_copy_shape *s)
{
    return s->rank > 0 && s->src_strides[s->rank - 1] == 0 && s->elem_bytes > 64 &&
           (s->elem_bytes % 64 == 0 || s->elem_bytes >= FILL_STREAM_PARTIAL_BLOCK_MIN) &&
           tmv_shape_bytes(s) >= s->tuning->stream_threshold;
}

/* ---- pattern fills ---- */

/* One 64-byte line of the pattern, from row offset 0 (all equal when the
 * pattern fits in a vector). */
typedef struct tmv_fill_line {
    tmv_v v[TMV_FV_LINE];
} tmv_fill_line;

static inline void fill_line_load(tmv_fill_line *l, const uint8_t *src, uint64_t p)
{
    tmv_v v;
    uint16_t x16;
    uint32_t x32;
    uint64_t x64;
    switch (p) {
    case 1: v = TMV_FV_SET1(8, (char)src[0]); break;
    case 2: memcpy(&x16, src, 2); v = TMV_FV_SET1(16, (short)x16); break;
    case 4: memcpy(&x32, src, 4); v = TMV_FV_SET1(32, (int)x32); break;
    case 8: memcpy(&x64, src, 8); v = TMV_FV_SET1_64((long long)x64); break;
#if TMV_VB >= 32
    case 16: {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)src);
#if TMV_VB == 64
        v = _mm512_broadcast_i32x4(x);
#else
        v = _mm256_broadcastsi128_si256(x);
#endif
        break;
    }
#endif
#if TMV_VB == 64
    case 32: v = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)(const void *)src)); break;
#endif
    default:
        /* p is a multiple of the vector: the line is p / TMV_VB vectors, repeated */
        for (unsigned j = 0; j < TMV_FV_LINE; j++)
            l->v[j] = v_load(src + (j * TMV_VB) % p);
        return;
    }
    for (unsigned j = 0; j < TMV_FV_LINE; j++)
        l->v[j] = v;
}

/* A row shorter than a vector (the pattern is shorter still): its length is
 * a multiple of the power-of-two pattern, so every piece taken by the bits
 * of len, largest first, starts at pattern offset 0. */
static inline void fill_short(uint8_t *row, uint64_t len, tmv_v v)
{
#if TMV_VB == 64
    _mm512_mask_storeu_epi8(row, _bzhi_u64(~0ull, (unsigned)len), v);
#else
#if TMV_VB == 32
    __m128i x = _mm256_castsi256_si128(v);
    if (len & 16) {
        _mm_storeu_si128((__m128i *)(void *)row, x);
        row += 16;
    }
#else
    __m128i x = v;
#endif
    uint64_t q = (uint64_t)_mm_cvtsi128_si64(x);
    if (len & 8) {
        memcpy(row, &q, 8);
        row += 8;
    }
    if (len & 4) {
        memcpy(row, &q, 4);
        row += 4;
    }
    if (len & 2) {
        memcpy(row, &q, 2);
        row += 2;
    }
    if (len & 1)
        *row = (uint8_t)q;
#endif
}

/* Fills len bytes (a multiple of p) of row with v, which holds whole
 * patterns (p <= vector). Every offset that is a multiple of p holds the same
 * vector, so the stores go to aligned vectors after one unaligned head, and
 * the last one may overlap. */
static inline void fill_row_stores(uint8_t *row, uint64_t len, tmv_v v, uint64_t p)
{
    if (len < TMV_VB) {
        fill_short(row, len, v);
        return;
    }
    uint64_t i = 0, misalign = (uintptr_t)row & (TMV_VB - 1);
    if (misalign != 0 && ((uintptr_t)row & (p - 1)) == 0) {
        v_store(row, v);
        i = TMV_VB - misalign;
    }
    for (; i + 2 * TMV_VB <= len; i += 2 * TMV_VB) {
        v_store(row + i, v);
        v_store(row + i + TMV_VB, v);
    }
    if (i + TMV_VB <= len) {
        v_store(row + i, v);
        i += TMV_VB;
    }
    if (i < len) {
#if TMV_VB == 64
        _mm512_mask_storeu_epi8(row + i, _bzhi_u64(~0ull, (unsigned)(len - i)), v);
#else
        v_store(row + len - TMV_VB, v);
#endif
    }
}

/* As fill_row_stores, with non-temporal stores for the whole cache lines
 * when asked. A line is written either by regular or by non-temporal stores,
 * never both: mixing them in one line costs a flush of the line each time. */
static inline void fill_row_vector(uint8_t *row, uint64_t len, tmv_v v, uint64_t p, bool stream)
{
    if (!stream || ((uintptr_t)row & (p - 1)) != 0 || len < 128) {
        fill_row_stores(row, len, v, p);
        return;
    }
    /* the head is a multiple of p (p divides both 64 and the row's address) */
    uint64_t i = (uint64_t)(-(uintptr_t)row) & 63;
    /* (no empty calls: even a store with an empty mask touches its line) */
    if (i != 0)
        fill_row_stores(row, i, v, p);
    for (; i + 64 <= len; i += 64)
        for (unsigned j = 0; j < TMV_FV_LINE; j++)
            v_stream(row + i + j * TMV_VB, v);
    if (i < len)
        fill_row_stores(row + i, len - i, v, p);
}

/* Fills len bytes of row with copies of a pattern of one line (64 bytes,
 * wider than a vector): whole lines, streamed if asked and the row starts a line. */
static inline void fill_row_line(uint8_t *row, uint64_t len, const tmv_fill_line *l, bool stream)
{
    if (stream && ((uintptr_t)row & 63) == 0) {
        for (uint64_t i = 0; i < len; i += 64)
            for (unsigned j = 0; j < TMV_FV_LINE; j++)
                v_stream(row + i + j * TMV_VB, l->v[j]);
    } else {
        for (uint64_t i = 0; i < len; i += 64)
            for (unsigned j = 0; j < TMV_FV_LINE; j++)
                v_store(row + i + j * TMV_VB, l->v[j]);
    }
}

/* A pattern of half a line wider than a vector (SSE2's 32 bytes) is a line
 * of two copies; a row of an odd count of them ends with half a line. */
static inline void fill_row_wide(uint8_t *row, uint64_t len, const tmv_fill_line *l, bool stream)
{
    uint64_t lines = len & ~(uint64_t)63;
    fill_row_line(row, lines, l, stream);
    for (uint64_t i = lines, j = 0; i < len; i += TMV_VB, j++)
        v_store(row + i, l->v[j]);
}

/* A fill shape's rows: the dim outside the inner one, stepped by pointer
 * in the row loops, and the dims outside it, which the walk steps (its
 * rank `walk_rank`): the walk's odometer per row cost more than a short
 * row's stores. `len` is a row's bytes for pattern p. */
typedef struct fill_rows {
    uint32_t walk_rank;
    uint64_t len, rows, src_step, dst_step;
} fill_rows;

static inline fill_rows fill_rows_of(const tmv_copy_shape *s, uint64_t p)
{
    const uint32_t in = s->rank - 1, outer = in > 0 ? in - 1 : 0;
    return (fill_rows){.walk_rank = outer,
                       .len = s->sizes[in] * p,
                       .rows = in > 0 ? s->sizes[outer] : 1,
                       .src_step = in > 0 ? s->src_strides[outer] : 0,
                       .dst_step = in > 0 ? s->dst_strides[outer] : 0};
}

/* Rows of one to four vectors (a pattern of at most a vector), not
 * streamed: each row's vectors stored unaligned, the last one ending on
 * the row's end, with the count a constant. fill_row_vector's checks per
 * row (streaming, the head's alignment, the tail) cost more than the two
 * stores of a 64-byte row: TILE of a u8 column by 64 (128 rows) at 8 KiB
 * took 350 ns against 123 for memcpy, a loop of the stores alone 80-90. */
__attribute__((always_inline)) static inline void fill_rows_short(const uint8_t *from, uint8_t *row, uint64_t rows,
                                                                  uint64_t src_step, uint64_t dst_step, uint64_t p,
                                                                  uint64_t len, unsigned vectors)
{
    tmv_fill_line line;
    for (uint64_t r = 0; r < rows; r++, from += src_step, row += dst_step) {
        fill_line_load(&line, from, p);
        for (unsigned k = 0; k + 1 < vectors; k++)
            v_store(row + k * TMV_VB, line.v[0]);
        v_store(row + len - TMV_VB, line.v[0]);
    }
}

/* The same with the count of vectors a row takes (1 to 4) a constant. */
__attribute__((always_inline)) static inline void fill_rows_short_by_count(const uint8_t *from, uint8_t *row,
                                                                           uint64_t rows, uint64_t src_step,
                                                                           uint64_t dst_step, uint64_t p,
                                                                           uint64_t len, unsigned vectors)
{
    switch (vectors) {
    case 1: fill_rows_short(from, row, rows, src_step, dst_step, p, len, 1); break;
    case 2: fill_rows_short(from, row, rows, src_step, dst_step, p, len, 2); break;
    case 3: fill_rows_short(from, row, rows, src_step, dst_step, p, len, 3); break;
    default: fill_rows_short(from, row, rows, src_step, dst_step, p, len, 4); break;
    }
}

/* The rows of a pow2 shape: those of the dim outside the inner one by
 * pointer steps, the dims outside them by the walk. Always inlined, so that
 * p is a constant at each call: per row, the walk's odometer and the switch
 * on p in fill_line_load cost more than the stores of a short row (TILE of
 * a u8 column by 64, 128 rows: 300 ns, 2.3 a row). */
__attribute__((always_inline)) static inline void fill_pow2_rows(const tmv_copy_shape *s, const uint8_t *src,
                                                                 uint8_t *dst, uint64_t p, bool stream)
{
    const fill_rows fr = fill_rows_of(s, p);
    const uint64_t len = fr.len, rows = fr.rows, src_step = fr.src_step, dst_step = fr.dst_step;
    tmv_fill_line line;
    tmv_walk walk;
    tmv_walk_init(&walk, s, fr.walk_rank);
    /* rows of 1 to 4 vectors by fill_rows_short, 0 for the others */
    const unsigned vectors =
        len >= TMV_VB && len <= 4 * TMV_VB && p <= TMV_VB && !stream ? (unsigned)((len + TMV_VB - 1) / TMV_VB) : 0;
    do {
        const uint8_t *from = src + walk.src;
        uint8_t *row = dst + walk.dst;
        if (vectors != 0) {
            fill_rows_short_by_count(from, row, rows, src_step, dst_step, p, len, vectors);
            continue;
        }
        for (uint64_t r = 0; r < rows; r++, from += src_step, row += dst_step) {
            fill_line_load(&line, from, p);
            if (p <= TMV_VB)
                fill_row_vector(row, len, line.v[0], p, stream);
            else
                fill_row_wide(row, len, &line, stream);
        }
    } while (tmv_walk_next(&walk));
}

/* Whether tmv_fill_pow2 streams s's rows past the stream threshold, its
 * destination taken as line-aligned: rows of at least two lines of a
 * pattern of a vector or less (fill_row_vector), rows of whole lines
 * starting on one of a wider one (fill_row_line). */
static inline bool tmv_fill_pow2_streams(const tmv_copy_shape *s)
{
    const uint32_t in = s->rank - 1;
    const uint64_t p = s->elem_bytes, len = s->sizes[in] * p;
    if (p <= TMV_VB)
        return len >= 128;
    for (uint32_t d = 0; d < in; d++)
        if (s->dst_strides[d] % 64 != 0)
            return false;
    return len >= 64;
}

static inline void tmv_fill_pow2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const bool stream = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    switch (s->elem_bytes) {
    case 1: fill_pow2_rows(s, src, dst, 1, stream); break;
    case 2: fill_pow2_rows(s, src, dst, 2, stream); break;
    case 4: fill_pow2_rows(s, src, dst, 4, stream); break;
    case 8: fill_pow2_rows(s, src, dst, 8, stream); break;
    default: fill_pow2_rows(s, src, dst, s->elem_bytes, stream); break;
    }
    if (stream)
        _mm_sfence();
}

/* ---- short periods that are no power of two (AVX2) ---- */

/* A period p < 16 that does not divide a vector (a 3-byte pixel, a 12-byte
 * float3): its bytes, broadcast to both 16-byte lanes, are shuffled
 * lane-locally (vpshufb) into a vector holding the pattern from phase 0,
 * which is stored every q = p * floor(32 / p) bytes (each store overlaps the
 * last with the same values); a second vector, at the phase of the row's
 * last 32 bytes, ends the row. The same code on zmm measured slower (tile
 * inner/3x64/u8 at L2: 1.04 vs 1.16 x memcpy), so every set from AVX2 up
 * runs the AVX2 kernel; VBMI's vpermb kernel keeps the other periods. The
 * shape test is plain C: the VBMI kernel uses it to leave these shapes. */
#define TMV_FILL_PERIOD_BYTES 32
static inline bool fill_shape_period(const tmv_copy_shape *s)
{
    const uint64_t p = s->elem_bytes;
    return fill_is_pattern_row(s) && p < 16 && (p & (p - 1)) != 0 &&
           s->sizes[s->rank - 1] * p >= TMV_FILL_PERIOD_BYTES;
}

#if TMV_VB == TMV_FILL_PERIOD_BYTES

/* Byte i: (base + i) mod p, for base < p < 16, by binary long division on
 * 16-bit lanes (base + i < 80 < p << 5): a few instructions once per call. */
static inline tmv_v fill_mod_p(unsigned base, unsigned p)
{
    const __m256i iota = _mm256_set_epi16(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m256i lo = _mm256_add_epi16(iota, _mm256_set1_epi16((short)base));
    __m256i hi = _mm256_add_epi16(lo, _mm256_set1_epi16(16));
    for (int k = 4; k >= 0; k--) {
        const __m256i d = _mm256_set1_epi16((short)(p << k));
        lo = _mm256_min_epu16(lo, _mm256_sub_epi16(lo, d));
        hi = _mm256_min_epu16(hi, _mm256_sub_epi16(hi, d));
    }
    /* packus interleaves the 128-bit lanes of its sources: put them back in order */
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
}

/* The n bytes at src (n a constant, 2 <= n <= 8) as a little-endian value,
 * by two overlapping loads that stay inside them: assembling them on the
 * stack instead stalled every row on a failed store-to-load forward. */
static inline uint64_t fill_load_le(const uint8_t *src, unsigned n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        return a | (uint64_t)b << (8 * (n - 4));
    }
    uint16_t a, b;
    memcpy(&a, src, 2);
    memcpy(&b, src + n - 2, 2);
    return a | (uint64_t)b << (8 * (n - 2));
}

/* The p bytes at src (p a constant, 3 <= p < 16) in the low bytes, nothing
 * past them read. */
static inline __m128i fill_load_period(const uint8_t *src, unsigned p)
{
    if (p <= 8)
        return _mm_cvtsi64_si128((long long)fill_load_le(src, p));
    uint64_t lo, hi;
    memcpy(&lo, src, 8);
    memcpy(&hi, src + p - 8, 8);   /* bytes p-8 .. p-1: shift out the ones lo has */
    return _mm_set_epi64x((long long)(hi >> (8 * (16 - p))), (long long)lo);
}

/* x (the pattern in its low p bytes) in both lanes, shuffled by idx. */
static inline tmv_v fill_spread(__m128i x, tmv_v idx)
{
    return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(x), idx);
}

/* The rows of a period shape for a constant p (fill_rows_of: with the
 * walk's odometer per row, TILE inner 3x8 f32 at 8 KiB, 85 rows of 96
 * bytes, took 480 ns). */
static inline void fill_period_rows(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned p)
{
    const fill_rows fr = fill_rows_of(s, p);
    const uint64_t len = fr.len, q = TMV_VB / p * p, rows = fr.rows, src_step = fr.src_step, dst_step = fr.dst_step;
    const tmv_v idx = fill_mod_p(0, p), idx_end = fill_mod_p((p - TMV_VB % p) % p, p);
    tmv_walk walk;
    tmv_walk_init(&walk, s, fr.walk_rank);
    do {
        const uint8_t *from = src + walk.src;
        uint8_t *row = dst + walk.dst;
        for (uint64_t r = 0; r < rows; r++, from += src_step, row += dst_step) {
            const __m128i x = fill_load_period(from, p);
            const tmv_v v = fill_spread(x, idx);
            /* every byte before the last store's start is covered: stores are q <= VB apart */
            for (uint64_t i = 0; i + TMV_VB <= len; i += q)
                v_store(row + i, v);
            v_store(row + len - TMV_VB, fill_spread(x, idx_end));
        }
    } while (tmv_walk_next(&walk));
}

static inline void tmv_fill_period(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    switch (s->elem_bytes) { /* a constant p per instance: the period loads become plain loads */
    case 3: fill_period_rows(s, src, dst, 3); break;
    case 5: fill_period_rows(s, src, dst, 5); break;
    case 6: fill_period_rows(s, src, dst, 6); break;
    case 7: fill_period_rows(s, src, dst, 7); break;
    case 9: fill_period_rows(s, src, dst, 9); break;
    case 10: fill_period_rows(s, src, dst, 10); break;
    case 11: fill_period_rows(s, src, dst, 11); break;
    case 12: fill_period_rows(s, src, dst, 12); break;
    case 13: fill_period_rows(s, src, dst, 13); break;
    case 14: fill_period_rows(s, src, dst, 14); break;
    default: fill_period_rows(s, src, dst, 15); break;
    }
}
#endif

/* ---- block repeats, streamed ---- */

static inline void tmv_fill_block_stream(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t in = s->rank - 1;
    const uint64_t e = s->elem_bytes, n = s->sizes[in], step = s->dst_strides[in];
    tmv_walk walk;
    tmv_walk_init(&walk, s, in);
    do {
        uint8_t *d = dst + walk.dst;
        const uint8_t *from = src + walk.src;
        if ((((uintptr_t)d | step | e) & 63) == 0) {
            /* Whole lines at whole lines: no partial-line work per block
             * (a 128-byte block repeated into 64 MiB: 22-26 B/ns through
             * tmv_stream_copy, 33 for memcpy of each block). */
            for (uint64_t r = 0; r < n; r++, d += step)
                for (uint64_t l = 0; l < e; l += 64)
                    tmv_stream_line_sse2(d + l, from + l);
        } else {
            for (uint64_t r = 0; r < n; r++)
                tmv_stream_copy(d + r * step, from, e);
        }
    } while (tmv_walk_next(&walk));
    _mm_sfence();
}

#endif
