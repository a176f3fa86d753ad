/* interleave_chunk_x86.h - AVX2's chunk streams: SPACE_TO_DEPTH with b*w = 16 in whole groups across row seams. */
#ifndef TMV_INTERLEAVE_CHUNK_X86_H
#define TMV_INTERLEAVE_CHUNK_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"
#include "interleave_net_x86.h"
#include "interleave_shape_x86.h"

#if defined(TMV_VEC_AVX2)
/* ---- chunk streams (AVX2): SPACE_TO_DEPTH with b*w = 16 ----
 *
 * There one x position of a source row (its b elements) is one 16-byte
 * chunk, and v_load_group's lane-split loads take a chunk at a time, so a
 * group may start at any element of a plane's stream across rows (plane
 * rows contiguous) with a row seam on a chunk boundary. Where x is no
 * multiple of a vector that saves the row kernel's overlapping group per
 * row (B = 4 f32, x = 11: 16 groups a plane instead of 22; bench
 * space_to_depth B4 f32 L2: crd 0.53 -> 0.62, dcr 0.53 -> 0.70 x memcpy).
 * Rows hold a vector or more (the AVX2 kernel's accepts). */
static inline bool chunk_ok(const tmv_copy_shape *s, unsigned b)
{
    const uint64_t w = s->elem_bytes, x = deinterleave_x(s);
    return b * w == 16 && s->rank >= 3 && s->dst_strides[s->rank - 3] == x * w && x % (TMV_VB / w) != 0;
}

/* The offset of chunk col of the row at offset ro, col < 2x: past x, in the next row. */
static inline uint64_t chunk_at(uint64_t ro, uint64_t col, uint64_t x, uint64_t row_src)
{
    return col < x ? ro + col * 16 : ro + row_src + (col - x) * 16;
}

/* The group of elements from column col of the row at offset ro (x >= n
 * elements a row: it reaches one row further at most). */
static inline void chunk_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst, uint64_t ro, uint64_t col,
                               uint64_t x, uint64_t row_src, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    /* v_load_group's loads at chunk offsets (written out: through one
     * shared helper gcc built both loops 15-20% slower) */
    for (unsigned k = 0; k < b; k++) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(src + chunk_at(ro, col + k, x, row_src)));
        const __m128i hi =
            _mm_loadu_si128((const __m128i *)(const void *)(src + chunk_at(ro, col + b + k, x, row_src)));
        v[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

/* Each plane's stream in whole groups, the last one overlapping back from its end. */
static inline void chunk_shape(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
    const uint32_t r = s->rank - 3;
    const uint64_t n = TMV_VB / w, x = deinterleave_x(s), plane = s->dst_strides[s->rank - 2];
    const uint64_t row_src = s->src_strides[r], total = s->sizes[r] * x;
    tmv_walk walk;
    tmv_walk_init(&walk, s, r);
    do {
        const uint8_t *sp = src + walk.src;
        uint8_t *dp = dst + walk.dst;
        uint64_t ro = 0, col = 0, e = 0;
        for (; e + n <= total; e += n) {
            chunk_group(&c, sp, dp + e * w, ro, col, x, row_src, plane, b, w);
            col += n;
            if (col >= x) {
                col -= x;
                ro += row_src;
            }
        }
        if (e < total) {
            e = total - n;
            chunk_group(&c, sp, dp + e * w, e / x * row_src, e % x, x, row_src, plane, b, w);
        }
    } while (tmv_walk_next(&walk));
}

static inline void chunk_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    switch (s->elem_bytes) {
    case 2: chunk_shape(s, src, dst, 8, 2); break;
    case 4: chunk_shape(s, src, dst, 4, 4); break;
    default: chunk_shape(s, src, dst, 2, 8); break;
    }
}
#endif

#endif
