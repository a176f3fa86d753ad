/* move_run.h - a run of 2 to 32 bytes moved by fixed-size loads and stores instead of a memcpy call (static inline only). */
#ifndef TMV_MOVE_RUN_H
#define TMV_MOVE_RUN_H

#include <stdint.h>
#include <string.h>

/* The longest run tmv_move_run takes. Up to it a call to memcpy, whose size
 * is only known at run time, costs more than the two moves: SPACE_TO_DEPTH
 * of a 3-channel u8 NHWC image (runs of 6 bytes) ran at 0.05 x memcpy with a
 * call per run, 0.10 with the moves. Above it glibc's memcpy wins: 128-byte
 * runs in 16-byte steps ran 0.67 x memcpy per run (a U-Net skip JOIN, fp16
 * NHWC, 64 channels; tmv-bench --tmv_zoo). */
#define TMV_MOVE_RUN_MAX 32

/* w bytes as two overlapping halves of `half` bytes, half <= w <= 2 * half
 * (half a constant at every call: each memcpy is one load or store). Both
 * halves are loaded before either is stored. */
static inline __attribute__((always_inline)) void tmv_move_halves(uint8_t *dst, const uint8_t *src, size_t w,
                                                                  size_t half)
{
    uint8_t head[16], tail[16];
    memcpy(head, src, half);
    memcpy(tail, src + w - half, half);
    memcpy(dst, head, half);
    memcpy(dst + w - half, tail, half);
}

/* Moves w bytes, 2 <= w <= TMV_MOVE_RUN_MAX, src and dst not overlapping. */
static inline void tmv_move_run(uint8_t *dst, const uint8_t *src, size_t w)
{
    if (w <= 4)
        tmv_move_halves(dst, src, w, 2);
    else if (w <= 8)
        tmv_move_halves(dst, src, w, 4);
    else if (w <= 16)
        tmv_move_halves(dst, src, w, 8);
    else
        tmv_move_halves(dst, src, w, 16);
}

#endif
