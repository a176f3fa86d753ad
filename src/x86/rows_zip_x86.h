/* rows_zip_x86.h - the zip networks' plan (stages, vector order, shapes) and the SSE2 network. */
#ifndef TMV_ROWS_ZIP_X86_H
#define TMV_ROWS_ZIP_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"

/* ------------------------------------------------------- zip networks */

/* The most pieces (streams) a row kernel takes. */
#define TMV_ROWS_MAX_STREAMS 16

/* A network's operands: the pieces' buffers in piece order (streams) and
 * the joined rows. A struct, so that each kernel's stream array keeps its
 * bound (gcc unrolls the filling loop by it). */
typedef struct tmv_rows_streams {
    uint8_t *at[TMV_ROWS_MAX_STREAMS];
    uint8_t *joined;
} tmv_rows_streams;

/* JOIN's operands: the pieces' sources, only read (the networks take one
 * stream type for both directions), and dst. */
static inline void tmv_rows_join_streams(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst,
                                         tmv_rows_streams *st)
{
    *st = (tmv_rows_streams){{NULL}, dst};
    for (uint32_t p = 0; p < s->piece_count; p++)
        st->at[p] = (uint8_t *)(uintptr_t)srcs[s->pieces[p].buffer];
}

/* SPLIT's operands: the pieces' destinations, and src (only read). */
static inline void tmv_rows_split_streams(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts,
                                          tmv_rows_streams *st)
{
    *st = (tmv_rows_streams){{NULL}, (uint8_t *)(uintptr_t)src};
    for (uint32_t p = 0; p < s->piece_count; p++)
        st->at[p] = dsts[s->pieces[p].buffer];
}

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

/* The same with the other counts, 3 to 15 pieces: the lane permutes' shapes. */
static inline bool tmv_rows_perm_shape(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, min_w, max_w);
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

/* Block b (16/w rows) through the SSE2 network: v[o] is what goes to
 * output vector o (stream o's block b, or joined block position pos[o]). */
__attribute__((always_inline)) static inline void
tmv_rows_zip_block_sse2(unsigned n, unsigned w, unsigned k, const unsigned *pos, uint8_t *const *streams,
                        const uint8_t *joined, bool join, uint64_t b, __m128i *v)
{
    __m128i t[16];
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
    uint64_t b = 0;
    /* A streaming SPLIT writes each output a whole 64-byte line at a time
     * (4 blocks; its streams start on lines, tmv_rows_zip_stream): one
     * vector per output in turn kept n write-combining buffers filling at
     * once, and with the outputs at one offset within their pages they
     * evicted each other half full (64 MiB, 8 outputs of 4 B per row:
     * 13 ms, against 4.2 ms with the outputs 64 bytes apart). */
    for (; nt && !join && b + 4 <= blocks; b += 4) {
        __m128i v[4][16];
#pragma GCC unroll 4
        for (unsigned j = 0; j < 4; j++)
            tmv_rows_zip_block_sse2(n, w, k, pos, streams, joined, false, b + j, v[j]);
#pragma GCC unroll 16
        for (unsigned o = 0; o < n; o++)
#pragma GCC unroll 4
            for (unsigned j = 0; j < 4; j++)
                _mm_stream_si128((__m128i *)(streams[o] + 16 * (b + j)), v[j][o]);
    }
    for (; b < blocks; b++) {
        __m128i v[16];
        tmv_rows_zip_block_sse2(n, w, k, pos, streams, joined, join, b, v);
#pragma GCC unroll 16
        for (unsigned o = 0; o < n; o++) {
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

#endif
