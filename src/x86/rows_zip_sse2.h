/* rows_zip_sse2.h - the SSE2 zip network: 16-byte blocks of 16/w rows through the unpack network of rows_zip_lanes_x86.h. */
#ifndef TMV_ROWS_ZIP_SSE2_H
#define TMV_ROWS_ZIP_SSE2_H

/* Pieces of 1 to 8 bytes (tmv_rows_zip_sse2_shape). */
#define TMV_ROWS_ZIP_MAX_W 8
#include "rows_zip_lanes_x86.h"

/* SSE2's zip shapes: 2, 4 or 8 pieces of 1 to 8 bytes. */
__attribute__((always_inline)) static inline bool tmv_rows_zip_sse2_shape(const tmv_rows_shape *s)
{
    return s->piece_count <= 8 && tmv_rows_zip_shape(s, 1, 8);
}

/* Block b (16/w rows) through the SSE2 network: v[o] is what goes to
 * output vector o (stream o's block b, or joined block position pos[o]). */
__attribute__((always_inline)) static inline void
tmv_rows_zip_block_sse2(unsigned n, unsigned w, unsigned k, const unsigned *pos, uint8_t *const *streams,
                        const uint8_t *joined, bool join, uint64_t b, __m128i *v)
{
#pragma GCC unroll 16
    for (unsigned i = 0; i < n; i++)
        v[i] = _mm_loadu_si128((const __m128i *)(join ? streams[i] + 16 * b : joined + 16 * (b * n + pos[i])));
    tmv_rows_zip_lanes_network(v, n, w, k, join);
}

/* SSE2's pass (rows_zip_lanes_x86.h): whole 16-byte blocks (16/w rows) of
 * the shape through the network; n and w are constants at each call.
 * Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_zip_pass(const tmv_rows_shape *s, unsigned n, unsigned w, uint8_t *const *streams, uint8_t *joined,
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

#endif
