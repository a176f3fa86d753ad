/* gather_row_copy_avx512.h - the AVX-512 GATHER_ND row copies: rows of 64 bytes or more in 64-byte vectors, plain or streaming. */
#ifndef TMV_GATHER_ROW_COPY_AVX512_H
#define TMV_GATHER_ROW_COPY_AVX512_H

#include <immintrin.h>
#include <stdint.h>

/* Rows of at least 64 bytes: 64-byte vectors, the last one overlapping. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
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

/* Aligned destination, bytes a multiple of 64. */
static inline void stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += 64)
        _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512(src + i));
}

#endif
