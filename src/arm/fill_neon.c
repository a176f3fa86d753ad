/* fill_neon.c - NEON broadcast fills for TILE: copy shapes whose inner dim repeats a period of up to 64 bytes (source stride 0) into a packed row. */
#include "kernels.h"
#include "neon_util.h"
#include "walk.h"

/* The inner dim repeats one element (the period, P <= 64 bytes) n times
 * into packed destination bytes, at least 64 of them; outer dims any. */
bool tmv_copy_fill_neon_accepts(const tmv_copy_shape *s)
{
    if (s->rank < 1)
        return false;
    const uint32_t i = s->rank - 1;
    const uint64_t p = s->elem_bytes;
    return s->src_strides[i] == 0 && s->dst_strides[i] == p && p <= 64 && s->sizes[i] * p >= 64;
}

/* Four registers hold bytes 0..63 of the repeated period: pattern[k] is
 * period[k mod P]. Written at every multiple of L = P * floor(64 / P), they
 * lay the period down in phase; consecutive stores overlap by 64 - L bytes
 * with equal values. */
typedef struct pattern {
    uint8x16_t v[4];
    uint64_t   step;   /* L */
} pattern;

static inline pattern make_pattern(const uint8_t *period, uint64_t p)
{
    pattern pat;
    pat.step = p * (64 / p);
    /* the element-width periods: one broadcast, no byte loop (the memcpy
     * round trip keeps the bytes in memory order on any endianness) */
    uint16_t h;
    uint32_t w;
    uint64_t d;
    if (p == 1) {
        pat.v[0] = vdupq_n_u8(period[0]);
    } else if (p == 2) {
        memcpy(&h, period, 2);
        pat.v[0] = vreinterpretq_u8_u16(vdupq_n_u16(h));
    } else if (p == 4) {
        memcpy(&w, period, 4);
        pat.v[0] = vreinterpretq_u8_u32(vdupq_n_u32(w));
    } else if (p == 8) {
        memcpy(&d, period, 8);
        pat.v[0] = vreinterpretq_u8_u64(vdupq_n_u64(d));
    } else {
        uint8_t bytes[64];
        memcpy(bytes, period, (size_t)p);
        for (uint64_t k = p; k < 64; k++)
            bytes[k] = bytes[k - p];
        for (int r = 0; r < 4; r++)
            pat.v[r] = vld1q_u8(bytes + 16 * r);
        return pat;
    }
    pat.v[1] = pat.v[2] = pat.v[3] = pat.v[0];
    return pat;
}

/* n bytes (n >= 64) of the pattern at dst; the last < 64 bytes start at a
 * multiple of P, so they are the pattern's first bytes. */
static inline void fill_row(const pattern *pat, uint8_t *dst, uint64_t n)
{
    uint64_t off = 0;
    for (; off + 64 <= n; off += pat->step) {
        vst1q_u8(dst + off, pat->v[0]);
        vst1q_u8(dst + off + 16, pat->v[1]);
        vst1q_u8(dst + off + 32, pat->v[2]);
        vst1q_u8(dst + off + 48, pat->v[3]);
    }
    if (off < n) {
        uint8_t bytes[64];
        for (int r = 0; r < 4; r++)
            vst1q_u8(bytes + 16 * r, pat->v[r]);
        tmv_neon_copy_short(dst + off, bytes, n - off);
    }
}

void tmv_copy_fill_neon(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t i = s->rank - 1;
    const uint64_t p = s->elem_bytes, n = s->sizes[i] * p;
    tmv_walk walk;
    tmv_walk_init(&walk, s, i);
    do {
        const pattern pat = make_pattern(src + walk.src, p);
        fill_row(&pat, dst + walk.dst, n);
    } while (tmv_walk_next(&walk));
}
