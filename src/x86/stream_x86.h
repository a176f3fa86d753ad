/* stream_x86.h - a copy that writes its destination's whole 64-byte lines with streaming stores (SSE2: every x86 set). */
#ifndef TMV_STREAM_X86_H
#define TMV_STREAM_X86_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/* n bytes from s to d: d's whole 64-byte lines with non-temporal stores,
 * the partial lines at either end with memcpy. For outputs past
 * the tuning record's stream_threshold, which would not stay in cache: skipping the reads
 * for ownership is what beats glibc's memcpy there (it writes through the
 * cache below about three quarters of the L3). The caller fences. */
static inline void tmv_stream_copy(uint8_t *d, const uint8_t *s, uint64_t n)
{
    const uint64_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (n < head + 64) {
        memcpy(d, s, (size_t)n);
        return;
    }
    memcpy(d, s, (size_t)head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64)
        for (unsigned i = 0; i < 64; i += 16)
            _mm_stream_si128((__m128i *)(void *)(d + i), _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
    memcpy(d, s, (size_t)n);
}

#endif
