/* interleave_neon.h - NEON rows interleaved from / de-interleaved into 2..4 planes, widths 1, 2, 4, 8 (static inline, for the copy and the JOIN/SPLIT row kernels). */
#ifndef TMV_INTERLEAVE_NEON_H
#define TMV_INTERLEAVE_NEON_H

#include <stdbool.h>
#include <stdint.h>

#include "neon_util.h"

/* Every (width, B) pair is one table lookup per output vector: TBL over the
 * B input vectors with byte indices made once per call. Byte vectors only,
 * so no element-typed pointer (vld4q_u32 and the like) ever meets the
 * unaligned addresses tensors may have. */
typedef struct tmv_neon_shuffle {
    uint64_t   w, b, lanes;   /* element bytes, planes, elements per vector */
    uint8x16_t idx[4];
} tmv_neon_shuffle;

/* log2 of a width the kernels handle (1, 2, 4, 8), else -1. */
static inline int tmv_neon_width_index(uint64_t w)
{
    switch (w) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    }
    return -1;
}

/* One whole vector per plane at least, so every row takes the vector path. */
static inline bool tmv_neon_interleavable(uint64_t w, uint64_t b, uint64_t n)
{
    return tmv_neon_width_index(w) >= 0 && b >= 2 && b <= 4 && n >= 16 / w;
}

/* De-interleave: output vector j, byte m is element x = m / w, byte m % w, of
 * plane j, found at (x * B + j) * w + m % w of the B input vectors.
 * Interleave: output vector v, byte m is joined element e = (16 v + m) / w,
 * i.e. element e / B of plane e % B: byte 16 (e % B) + (e / B) w + m % w. */
static inline tmv_neon_shuffle tmv_neon_shuffle_make(uint64_t w, uint64_t b, bool deinterleave)
{
    tmv_neon_shuffle s = {w, b, 16 / w, {vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)}};
    uint8_t idx[16];
    for (uint64_t v = 0; v < b; v++) {
        for (uint64_t m = 0; m < 16; m++) {
            const uint64_t e = (16 * v + m) / w;
            idx[m] = (uint8_t)(deinterleave ? (m / w * b + v) * w + m % w
                                            : 16 * (e % b) + e / b * w + m % w);
        }
        s.idx[v] = vld1q_u8(idx);
    }
    return s;
}

/* Output vector v of the lookup over in[0..b); b is a constant wherever
 * this is inlined, so the branches fold away. */
static inline uint8x16_t tmv_neon_lookup(const uint8x16_t *in, uint8x16_t idx, uint64_t b)
{
    if (b == 2) {
        const uint8x16x2_t t = {{in[0], in[1]}};
        return vqtbl2q_u8(t, idx);
    }
    if (b == 3) {
        const uint8x16x3_t t = {{in[0], in[1], in[2]}};
        return vqtbl3q_u8(t, idx);
    }
    const uint8x16x4_t t = {{in[0], in[1], in[2], in[3]}};
    return vqtbl4q_u8(t, idx);
}

/* One row: n >= lanes elements per plane, b planes (a constant: each caller
 * below names 2, 3 or 4, so the inner loops unroll and stay in registers),
 * `packed` the b planes' elements interleaved. De-interleaving (inter
 * false) reads packed and writes the planes, interleaving the other way
 * round; inter is a constant too, so each instance loads from one side and
 * stores to the other only. The last block overlaps the one before it
 * instead of a scalar tail: it stays inside the row and rewrites a few
 * elements with the same values. Pointer arrays let JOIN/SPLIT pieces act
 * as planes. */
__attribute__((always_inline)) static inline void
tmv_neon_row_b(const tmv_neon_shuffle *s, uint8_t *packed, uint8_t *const *planes, uint64_t n, const uint64_t b,
               bool inter)
{
    const uint64_t lanes = s->lanes, w = s->w;
    uint8x16_t in[4] = {vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)};
    for (uint64_t x = 0;; x += lanes) {
        if (x + lanes > n)
            x = n - lanes;
        for (uint64_t k = 0; k < b; k++)
            in[k] = vld1q_u8(inter ? planes[k] + x * w : packed + x * b * w + 16 * k);
        for (uint64_t k = 0; k < b; k++)
            vst1q_u8(inter ? packed + x * b * w + 16 * k : planes[k] + x * w, tmv_neon_lookup(in, s->idx[k], b));
        if (x + lanes == n)
            return;
    }
}

/* src (read only) to the planes dst. */
static inline void tmv_neon_deinterleave_row(const tmv_neon_shuffle *s, const uint8_t *src,
                                             uint8_t *const *dst, uint64_t n)
{
    uint8_t *packed = (uint8_t *)(uintptr_t)src;
    switch (s->b) {
    case 2: tmv_neon_row_b(s, packed, dst, n, 2, false); break;
    case 3: tmv_neon_row_b(s, packed, dst, n, 3, false); break;
    default: tmv_neon_row_b(s, packed, dst, n, 4, false); break;
    }
}

/* The planes src (read only) to dst. */
static inline void tmv_neon_interleave_row(const tmv_neon_shuffle *s, const uint8_t *const *src,
                                           uint8_t *dst, uint64_t n)
{
    uint8_t *const *planes = (uint8_t *const *)(uintptr_t)src;
    switch (s->b) {
    case 2: tmv_neon_row_b(s, dst, planes, n, 2, true); break;
    case 3: tmv_neon_row_b(s, dst, planes, n, 3, true); break;
    default: tmv_neon_row_b(s, dst, planes, n, 4, true); break;
    }
}

#endif
