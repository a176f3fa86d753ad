/* gather_check_avx512.h - the AVX-512 GATHER_ND index check: each period position's minimum and maximum index, compared with its bounds once at the end. */
#ifndef TMV_GATHER_CHECK_AVX512_H
#define TMV_GATHER_CHECK_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "gather_x86.h"

/* The bounds of vector v of one period: lane l checks component
 * (v * lanes + l) % k, permuted from the k components' bounds kb (the
 * remainder by a multiply: exact for positions below 112 and k <= 8). */
static inline __m512i period_bounds(const int64_t *kb, uint32_t k, unsigned v, bool w4)
{
    const __mmask8 have = (__mmask8)((1u << k) - 1);
    if (w4) {
        const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const __m512i pos = _mm512_add_epi32(lane, _mm512_set1_epi32((int32_t)(v * 16)));
        const __m512i magic = _mm512_set1_epi32((int32_t)(65536 / k + 1));
        const __m512i q = _mm512_srli_epi32(_mm512_mullo_epi32(pos, magic), 16);
        const __m512i comp = _mm512_sub_epi32(pos, _mm512_mullo_epi32(q, _mm512_set1_epi32((int32_t)k)));
        const __m512i b = _mm512_castsi256_si512(_mm512_cvtepi64_epi32(_mm512_maskz_loadu_epi64(have, kb)));
        return _mm512_permutexvar_epi32(comp, b);
    }
    const __m512i pos = _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(v * 8));
    const __m512i q = _mm512_srli_epi64(_mm512_mullo_epi64(pos, _mm512_set1_epi64(65536 / k + 1)), 16);
    const __m512i comp = _mm512_sub_epi64(pos, _mm512_mullo_epi64(q, _mm512_set1_epi64(k)));
    return _mm512_permutexvar_epi64(comp, _mm512_maskz_loadu_epi64(have, kb));
}

/* The check keeps the lane-wise minimum and maximum of the index stream per
 * position in the period, in the nv = period / lanes (<= 7) vectors of one period,
 * and compares them with the bounds once at the end: two min/max ops per
 * vector instead of two compares against table rows. Unsigned indices need
 * only the maximum (their lower bound is 0). nv, w4 and sgn are constants
 * per instance. */
static inline bool check_minmax(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count,
                                unsigned nv, bool w4, bool sgn)
{
    const uint64_t lanes = w4 ? 16 : 8, group = nv * lanes;
    __m512i mn[7], mx[7];
    for (unsigned v = 0; v < nv; v++) {
        mn[v] = w4 ? _mm512_set1_epi32(INT32_MAX) : _mm512_set1_epi64(INT64_MAX);
        mx[v] = sgn ? (w4 ? _mm512_set1_epi32(INT32_MIN) : _mm512_set1_epi64(INT64_MIN))
                    : _mm512_setzero_si512();
    }
    uint64_t i = 0;
    for (; i + group <= count; i += group)
        for (unsigned v = 0; v < nv; v++) {
            const __m512i x = _mm512_loadu_si512(p + (i + v * lanes) * b->width);
            if (w4) {
                mx[v] = sgn ? _mm512_max_epi32(mx[v], x) : _mm512_max_epu32(mx[v], x);
                if (sgn)
                    mn[v] = _mm512_min_epi32(mn[v], x);
            } else {
                mx[v] = sgn ? _mm512_max_epi64(mx[v], x) : _mm512_max_epu64(mx[v], x);
                if (sgn)
                    mn[v] = _mm512_min_epi64(mn[v], x);
            }
        }
    for (unsigned v = 0; v < nv && i + v * lanes < count; v++) {
        const uint64_t left = count - i - v * lanes;
        const __mmask16 m = left >= lanes ? (__mmask16)((1u << lanes) - 1) : (__mmask16)((1u << left) - 1);
        const uint8_t *q = p + (i + v * lanes) * b->width;
        if (w4) {
            const __m512i x = _mm512_maskz_loadu_epi32(m, q);
            mx[v] = sgn ? _mm512_mask_max_epi32(mx[v], m, mx[v], x) : _mm512_mask_max_epu32(mx[v], m, mx[v], x);
            if (sgn)
                mn[v] = _mm512_mask_min_epi32(mn[v], m, mn[v], x);
        } else {
            const __m512i x = _mm512_maskz_loadu_epi64((__mmask8)m, q);
            mx[v] = sgn ? _mm512_mask_max_epi64(mx[v], (__mmask8)m, mx[v], x)
                        : _mm512_mask_max_epu64(mx[v], (__mmask8)m, mx[v], x);
            if (sgn)
                mn[v] = _mm512_mask_min_epi64(mn[v], (__mmask8)m, mn[v], x);
        }
    }
    __mmask16 bad = 0;
    for (unsigned v = 0; v < nv; v++) {
        /* the unsigned bounds are sign-flipped: flip the maximum alike */
        if (w4) {
            const __m512i hi = period_bounds(b->khi, b->k, v, true);
            const __m512i x = _mm512_xor_si512(mx[v], _mm512_set1_epi32((int32_t)(uint32_t)b->flip));
            bad |= _mm512_cmpgt_epi32_mask(x, hi);
            if (sgn)
                bad |= _mm512_cmplt_epi32_mask(mn[v], period_bounds(b->klo, b->k, v, true));
        } else {
            const __m512i hi = period_bounds(b->khi, b->k, v, false);
            const __m512i x = _mm512_xor_si512(mx[v], _mm512_set1_epi64((int64_t)b->flip));
            bad |= _mm512_cmpgt_epi64_mask(x, hi);
            if (sgn)
                bad |= _mm512_cmplt_epi64_mask(mn[v], period_bounds(b->klo, b->k, v, false));
        }
    }
    return bad == 0;
}

static inline bool check_nv(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count, unsigned nv)
{
    const bool sgn = b->flip == 0;
    if (b->width == 4)
        return sgn ? check_minmax(b, p, count, nv, true, true) : check_minmax(b, p, count, nv, true, false);
    return sgn ? check_minmax(b, p, count, nv, false, true) : check_minmax(b, p, count, nv, false, false);
}

static bool check_values(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count)
{
    switch (b->period / (64 / b->width)) {
    case 1: return check_nv(b, p, count, 1);
    case 2: return check_nv(b, p, count, 2);
    case 3: return check_nv(b, p, count, 3);
    case 4: return check_nv(b, p, count, 4);
    case 5: return check_nv(b, p, count, 5);
    case 6: return check_nv(b, p, count, 6);
    default: return check_nv(b, p, count, 7);
    }
}

#endif
