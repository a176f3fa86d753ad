/* interleave_group_x86.h - one group of B vectors (de)interleaved: its loads, the network, its stores (non-temporal on request), and AVX2's half groups. */
#ifndef TMV_INTERLEAVE_GROUP_X86_H
#define TMV_INTERLEAVE_GROUP_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interleave_net_x86.h"

/* Source vector k of a de-interleave group of b vectors at src. AVX2 loads
 * it, for b a power of two, lane-split: lane 0 the k-th 16 bytes of the
 * group's first half, lane 1 of its second half. The lane-local unzips then
 * de-interleave each half as SSE2 would and their results are whole vectors
 * in order, with no cross-lane fix after every round (B = 4: 8 shuffles a
 * group instead of 16). */
static inline tmv_v v_load_group(const uint8_t *src, unsigned k, unsigned b)
{
#if defined(TMV_VEC_AVX2)
    if (b == 3)   /* the B = 3 network permutes whole vectors */
        return v_load(src + k * TMV_VB);
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * k));
    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * (b + k)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
#else
    (void)b;
    return v_load(src + k * TMV_VB);
#endif
}

/* A vector stored at dst, non-temporal when nt (dst aligned to it: only
 * AVX2's rows set nt). */
static inline void v_store_nt(uint8_t *dst, tmv_v v, bool nt)
{
#if defined(TMV_VEC_AVX2)
    if (nt) {
        _mm256_stream_si256((__m256i *)(void *)dst, v);
        return;
    }
#endif
    (void)nt;
    v_store(dst, v);
}

#if defined(TMV_VEC_AVX2)
static inline void v_store16_nt(uint8_t *dst, __m128i v, bool nt)
{
    if (nt)
        _mm_stream_si128((__m128i *)(void *)dst, v);
    else
        _mm_storeu_si128((__m128i *)(void *)dst, v);
}
#endif

/* The inverse, for an interleave group: output vector k of the lane-local
 * zips holds the k-th 16 bytes of the group's first half in lane 0 and of
 * its second half in lane 1, stored there. B = 8 took 24 lane-crossing
 * vpermq a group when each round spread its inputs first; DEPTH_TO_SPACE
 * nchw B8 C3 u8 ran at half SSE2's speed at 1 MiB. */
static inline void v_store_group(uint8_t *dst, unsigned k, unsigned b, tmv_v v, bool nt)
{
#if defined(TMV_VEC_AVX2)
    if (b == 3) {   /* the B = 3 network permutes whole vectors */
        v_store_nt(dst + k * TMV_VB, v, nt);
        return;
    }
    v_store16_nt(dst + 16 * k, _mm256_castsi256_si128(v), nt);
    v_store16_nt(dst + 16 * (b + k), _mm256_extracti128_si256(v, 1), nt);
#else
    (void)b;
    v_store_nt(dst + k * TMV_VB, v, nt);
#endif
}

/* One group: b*n source elements at src -> n elements at each dst + j*plane. */
static inline void deinterleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                      uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned k = 0; k < b; k++)
        v[k] = v_load_group(src, k, b);
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

static inline void interleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                    uint64_t plane, unsigned b, size_t w, bool nt)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = v_load(src + j * plane);
    v_interleave(c, v, b, w);
    for (unsigned k = 0; k < b; k++)
        v_store_group(dst, k, b, v[k], nt);
}

#if defined(TMV_VEC_AVX2)
/* ---- half groups (AVX2, b a power of two) ----
 *
 * The lane-local networks take lane 0 through as SSE2 would, so a group of
 * n/2 elements a plane row is b 16-byte loads to the low lanes, the
 * network, and the low lanes stored. A row's tail of n/2 elements or fewer
 * takes one, ending at the row's end, instead of an overlapping whole
 * group: the same shuffles, half the loads and stores. A longer tail keeps
 * the whole group: two half groups are twice the shuffles (SPACE_TO_DEPTH
 * nchw B2 C1 f32 at 8 KiB, x = 22: 247 -> 332 ns). */
static inline tmv_v v_low_load(const uint8_t *src)
{
    return _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)src));
}

static inline void v_low_store(uint8_t *dst, tmv_v v, bool nt)
{
    v_store16_nt(dst, _mm256_castsi256_si128(v), nt);
}

static inline void deinterleave_half(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                     uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned k = 0; k < b; k++)
        v[k] = v_low_load(src + 16 * k);
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_low_store(dst + j * plane, v[j], false);
}

static inline void interleave_half(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                   uint64_t plane, unsigned b, size_t w, bool nt)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = v_low_load(src + j * plane);
    v_interleave(c, v, b, w);
    for (unsigned k = 0; k < b; k++)
        v_low_store(dst + 16 * k, v[k], nt);
}
#endif

#endif
