/* stream_neon.h - the 64-byte line store of the NEON streaming copies (stream_lines.h): non-temporal (STNP) on aarch64. */
#ifndef TMV_STREAM_NEON_H
#define TMV_STREAM_NEON_H

#include <stdint.h>

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

#endif
