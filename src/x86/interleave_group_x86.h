/* interleave_group_x86.h - one group of B vectors (de)interleaved: its loads, the network, its stores (non-temporal on request), whole or (AVX2) half. */
#ifndef TMV_INTERLEAVE_GROUP_X86_H
#define TMV_INTERLEAVE_GROUP_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interleave_net_x86.h"

/* Half groups (AVX2, lane-split groups: v_lane_split): the lane-local networks take lane
 * 0 through as SSE2 would, so a group of n/2 elements a plane row is b
 * 16-byte loads to the low lanes, the network, and the low lanes stored.
 * A row's tail of n/2 elements or fewer takes one, ending at the row's
 * end, instead of an overlapping whole group: the same shuffles, half the
 * loads and stores. A longer tail keeps the whole group: two half groups
 * are twice the shuffles (SPACE_TO_DEPTH nchw B2 C1 f32 at 8 KiB, x = 22:
 * 247 -> 332 ns). Other sets never ask for a half group. */

#if defined(TMV_VEC_AVX2)
/* Whether AVX2 splits a group of b elements of w bytes by lanes (so that
 * half groups exist): all but B = 3's dword permutes of whole vectors. */
static inline bool v_lane_split(unsigned b, size_t w) { return b != 3 || w < 4; }

static inline tmv_v v_low_load(const uint8_t *src)
{
    return _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)src));
}

static inline void v_store16_nt(uint8_t *dst, __m128i v, bool nt)
{
    if (nt)
        _mm_stream_si128((__m128i *)(void *)dst, v);
    else
        _mm_storeu_si128((__m128i *)(void *)dst, v);
}
#endif

/* A vector stored at dst, non-temporal when nt (dst aligned to it: only
 * the interleave's rows set nt, rows_stream_ok); its low 16 bytes alone
 * when half (AVX2). */
static inline void v_store_nt(uint8_t *dst, tmv_v v, bool nt, bool half)
{
#if defined(TMV_VEC_AVX2)
    if (half) {
        v_store16_nt(dst, _mm256_castsi256_si128(v), nt);
        return;
    }
    if (nt) {
        _mm256_stream_si256((__m256i *)(void *)dst, v);
        return;
    }
#elif defined(TMV_MASKED)
    if (nt) {
        _mm512_stream_si512((void *)dst, v);
        return;
    }
#endif
    (void)nt;
    (void)half;
    v_store(dst, v);
}

/* A plane row's vector of an interleave group: n elements, or n/2 to the low lanes when half. */
static inline tmv_v v_load_row(const uint8_t *src, bool half)
{
#if defined(TMV_VEC_AVX2)
    if (half)
        return v_low_load(src);
#endif
    (void)half;
    return v_load(src);
}

/* Source vector k of a de-interleave group of b vectors at src. AVX2 loads
 * it, but for B = 3's dwords, lane-split: lane 0 the k-th 16 bytes of the
 * group's first half, lane 1 of its second half (of a half group, lane 0
 * only). The lane-local unzips then de-interleave each half as SSE2 would
 * and their results are whole vectors in order, with no cross-lane fix
 * after every round (B = 4: 8 shuffles a group instead of 16). */
static inline tmv_v v_load_group(const uint8_t *src, unsigned k, unsigned b, size_t w, bool half)
{
#if defined(TMV_VEC_AVX2)
    if (!v_lane_split(b, w))
        return v_load(src + k * TMV_VB);
    const tmv_v lo = v_low_load(src + 16 * k);
    if (half)
        return lo;
    return _mm256_inserti128_si256(lo, _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * (b + k))), 1);
#else
    (void)b;
    (void)w;
    (void)half;
    return v_load(src + k * TMV_VB);
#endif
}

/* The inverse, for an interleave group: output vector k of the lane-local
 * zips holds the k-th 16 bytes of the group's first half in lane 0 and of
 * its second half in lane 1 (none in a half group), stored there. B = 8
 * took 24 lane-crossing vpermq a group when each round spread its inputs
 * first; DEPTH_TO_SPACE nchw B8 C3 u8 ran at half SSE2's speed at 1 MiB. */
static inline void v_store_group(uint8_t *dst, unsigned k, unsigned b, size_t w, tmv_v v, bool nt, bool half)
{
#if defined(TMV_VEC_AVX2)
    if (!v_lane_split(b, w)) {
        v_store_nt(dst + k * TMV_VB, v, nt, false);
        return;
    }
    v_store16_nt(dst + 16 * k, _mm256_castsi256_si128(v), nt);
    if (!half)
        v_store16_nt(dst + 16 * (b + k), _mm256_extracti128_si256(v, 1), nt);
#else
    (void)b;
    (void)w;
    (void)half;
    v_store_nt(dst + k * TMV_VB, v, nt, false);
#endif
}

/* One group: b*n source elements at src -> n elements at each dst + j*plane
 * (half: b*n/2 -> n/2). */
static inline void deinterleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                      uint64_t plane, unsigned b, size_t w, bool half)
{
    tmv_v v[8];
    for (unsigned k = 0; k < b; k++)
        v[k] = v_load_group(src, k, b, w, half);
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_store_nt(dst + j * plane, v[j], false, half);
}

/* The inverse: n elements (half: n/2) of each src + j*plane -> b*n at dst. */
static inline void interleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                    uint64_t plane, unsigned b, size_t w, bool nt, bool half)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = v_load_row(src + j * plane, half);
    v_interleave(c, v, b, w);
    for (unsigned k = 0; k < b; k++)
        v_store_group(dst, k, b, w, v[k], nt, half);
}

#endif
