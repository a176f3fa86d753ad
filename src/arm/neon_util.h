/* neon_util.h - the NEON intrinsics (native on aarch64, SIMDe-emulated on x86) and static inline helpers shared by the NEON kernel files. */
#ifndef TMV_NEON_UTIL_H
#define TMV_NEON_UTIL_H

#include <stdint.h>
#include <string.h>

#include "../move_run.h"

/* On aarch64 the NEON API itself; elsewhere (the x86 "neon-simde" test set)
 * SIMDe's implementation of it, which emulates each intrinsic with the
 * baseline SSE2, so one source serves both sets. */
#if defined(__aarch64__)
#include <arm_neon.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
/* SIMDe 0.7.4's emulated vld3q fills its result element by element, which
 * GCC 12 reports as a use of uninitialized values once inlined. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <simde/arm/neon.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

/* Copies n <= 64 bytes between non-overlapping buffers without leaving
 * them: two overlapping loads and stores of the largest size that fits
 * (move_run.h's halves below 16 bytes; no libc call, no byte loop). */
static inline void tmv_neon_copy_short(uint8_t *dst, const uint8_t *src, uint64_t n)
{
    if (n >= 16 && n <= 64) {
        uint8x16_t last = vld1q_u8(src + n - 16);
        for (uint64_t i = 0; i + 16 < n; i += 16)
            vst1q_u8(dst + i, vld1q_u8(src + i));
        vst1q_u8(dst + n - 16, last);
    } else if (n >= 8 && n < 16) {
        tmv_move_halves(dst, src, n, 8);
    } else if (n >= 4 && n < 8) {
        tmv_move_halves(dst, src, n, 4);
    } else if (n >= 2 && n < 4) {
        tmv_move_halves(dst, src, n, 2);
    } else if (n == 1) {
        *dst = *src;
    }
}

/* Any n: long copies with memcpy, which is already the fastest way there. */
static inline void tmv_neon_copy_bytes(uint8_t *dst, const uint8_t *src, uint64_t n)
{
    if (n <= 64)
        tmv_neon_copy_short(dst, src, n);
    else
        memcpy(dst, src, (size_t)n);
}

#endif
