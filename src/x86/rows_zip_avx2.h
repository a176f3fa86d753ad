/* rows_zip_avx2.h - the AVX2 zip network: pairs of 16-byte blocks, one in each 128-bit lane, through the unpack network of rows_zip_lanes_x86.h. */
#ifndef TMV_ROWS_ZIP_AVX2_H
#define TMV_ROWS_ZIP_AVX2_H

/* Pieces of 1 to 16 bytes (tmv_rows_zip_avx2_shape). */
#define TMV_ROWS_ZIP_MAX_W 16
#include "rows_zip_lanes_x86.h"

/* Lanes `lo` (0 or 1) of a and of b, as the low and high lanes. */
static inline __m256i tmv_rows_lanes_avx2(__m256i a, __m256i b, unsigned lo)
{
    return lo ? _mm256_permute2x128_si256(a, b, 0x31) : _mm256_permute2x128_si256(a, b, 0x20);
}

/* AVX2's pass (rows_zip_lanes_x86.h): whole pairs of 16-byte blocks (32/w
 * rows) through the lane network, the two blocks of a pair in the two lanes
 * of each register: a stream's 32 bytes are one load or store, and one lane
 * exchange per joined vector moves the pair's joined 16-byte vectors into
 * place (pos as in SSE2). n and w (up to 16 bytes) are constants at each
 * call. Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_zip_pass(const tmv_rows_shape *s, unsigned n, unsigned w, uint8_t *const *streams, uint8_t *joined,
                  bool join, bool nt)
{
    unsigned pos[16], inv[16];
    tmv_rows_zip_order(n, w, 16, pos);
    for (unsigned i = 0; i < n; i++)
        inv[pos[i]] = i;
    const unsigned k = tmv_rows_network_stages(n, w);
    const uint64_t pairs = s->rows / (32 / w);
    for (uint64_t b = 0; b < pairs; b++) {
        __m256i v[8];
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
        tmv_rows_zip_lanes_network(v, n, w, k, join);
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

/* SPLIT's: not for outputs past the stream threshold, where SSE2's network
 * (pieces up to 8 bytes) and column moves (16 bytes), streaming as well,
 * were faster (64 MiB: split inner/2x4B/f32 3.0 against 3.6-4.0 ms,
 * inner/2x16B 3.4 against 4.0, inner/8x16B 4.8 against 5.4). */
__attribute__((always_inline)) static inline bool tmv_rows_zip_avx2_split_shape(const tmv_rows_shape *s)
{
    return tmv_rows_zip_avx2_shape(s) && s->rows * s->joined_bytes < s->tuning->stream_threshold;
}

#endif
