/* gather_row_copy_avx512.h - the AVX-512 GATHER_ND row copies: rows of 3 bytes or more, plain (64-byte vectors; under 64 bytes, a row's first and last 8, 16 or 32) or streaming. */
#ifndef TMV_GATHER_ROW_COPY_AVX512_H
#define TMV_GATHER_ROW_COPY_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#include "gather_x86.h"

/* Rows of 16 to 32 bytes: the first and the last 16 (the same 16 for a
 * 16-byte row). */
static inline void copy_pair16(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + bytes - 16));
    _mm_storeu_si128((__m128i *)(void *)dst, a);
    _mm_storeu_si128((__m128i *)(void *)(dst + bytes - 16), b);
}

/* Rows of 32 to 64 bytes: the first and the last 32. */
static inline void copy_pair32(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)src);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + bytes - 32));
    _mm256_storeu_si256((__m256i *)(void *)dst, a);
    _mm256_storeu_si256((__m256i *)(void *)(dst + bytes - 32), b);
}

/* Rows of 16 bytes or more: 64-byte vectors, the last one overlapping;
 * shorter ones (tmv_gx_short_row) by scalar moves. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if (bytes < 64) {   /* masks would cost a few plain moves on Zen 4 */
        if (bytes < 16)
            tmv_move_run(dst, src, bytes);
        else if (bytes <= 32)
            copy_pair16(dst, src, bytes);
        else
            copy_pair32(dst, src, bytes);
        return;
    }
    uint64_t i = 0;
    for (; i + 128 <= bytes; i += 128) {
        const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 64);
        _mm512_storeu_si512(dst + i, a);
        _mm512_storeu_si512(dst + i + 64, b);
    }
    if (i + 64 <= bytes) {
        _mm512_storeu_si512(dst + i, _mm512_loadu_si512(src + i));
        i += 64;
    }
    if (i < bytes)
        _mm512_storeu_si512(dst + bytes - 64, _mm512_loadu_si512(src + bytes - 64));
}

/* A destination and bytes multiples of 64, or of 16 (tmv_gx_run_streams):
 * then by 16-byte stores. */
static inline void stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if ((((uintptr_t)dst | bytes) & 63) == 0) {
        for (uint64_t i = 0; i < bytes; i += 64)
            _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512(src + i));
        return;
    }
    tmv_gx_stream_row16(dst, src, bytes);
}

#endif
