/* stream_x86.h - a copy that writes its destination's whole 64-byte lines with streaming stores (SSE2: every x86 set). */
#ifndef TMV_STREAM_X86_H
#define TMV_STREAM_X86_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "../stream_lines.h"

/* 64 bytes from s to d (d 64-byte aligned): four 16-byte streaming stores. */
static inline void tmv_stream_line_sse2(uint8_t *d, const uint8_t *s)
{
    for (unsigned i = 0; i < 64; i += 16)
        _mm_stream_si128((__m128i *)(void *)(d + i), _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
}

/* n bytes from s to d: d's whole 64-byte lines with non-temporal stores,
 * the partial lines at either end with memcpy. For outputs past
 * the tuning record's stream_threshold, which would not stay in cache: skipping the reads
 * for ownership is what beats glibc's memcpy there (it writes through the
 * cache below about three quarters of the L3). The caller fences. */
static inline void tmv_stream_copy(uint8_t *d, const uint8_t *s, uint64_t n)
{
    tmv_stream_copy_lines(d, s, n, tmv_stream_line_sse2);
}

#endif
