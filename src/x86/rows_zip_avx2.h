/* rows_zip_avx2.h - the SSE2 zip network on both 128-bit lanes of AVX2 registers. */
#ifndef TMV_ROWS_ZIP_AVX2_H
#define TMV_ROWS_ZIP_AVX2_H

#include "rows_zip_x86.h"

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

#endif
