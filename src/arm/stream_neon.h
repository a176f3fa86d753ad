/* stream_neon.h - a copy that writes its destination's whole 64-byte lines with non-temporal stores (STNP) on aarch64. */
#ifndef TMV_STREAM_NEON_H
#define TMV_STREAM_NEON_H

#include <stdint.h>
#include <string.h>

#include "neon_util.h"

/* 64 bytes from s to d (d 64-byte aligned): four loads, two non-temporal
 * store pairs. NEON has no intrinsic for STNP, hence the asm; the x86 build
 * of these files (SIMDe, a test set) stores normally. */
static inline void tmv_neon_stream_line(uint8_t *d, const uint8_t *s)
{
    const uint8x16_t a = vld1q_u8(s), b = vld1q_u8(s + 16), c = vld1q_u8(s + 32), e = vld1q_u8(s + 48);
#if defined(__aarch64__)
    __asm__ volatile("stnp %q[a], %q[b], [%[d]]\n\t"
                     "stnp %q[c], %q[e], [%[d], #32]"
                     :
                     : [a] "w"(a), [b] "w"(b), [c] "w"(c), [e] "w"(e), [d] "r"(d)
                     : "memory");
#else
    vst1q_u8(d, a);
    vst1q_u8(d + 16, b);
    vst1q_u8(d + 32, c);
    vst1q_u8(d + 48, e);
#endif
}

/* n bytes from s to d: d's whole 64-byte lines with non-temporal stores, the
 * partial lines at either end with memcpy. For outputs past the tuning
 * record's stream_threshold, which would not stay in cache. */
static inline void tmv_neon_stream_copy(uint8_t *d, const uint8_t *s, uint64_t n)
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
        tmv_neon_stream_line(d, s);
    memcpy(d, s, (size_t)n);
}

#endif
