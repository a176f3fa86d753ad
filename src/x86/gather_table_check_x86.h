/* gather_table_check_x86.h - the SSE2 and AVX2 index check: each vector of indices against a row of the bounds table, at the set's width (vec_x86.h). */
#ifndef TMV_GATHER_TABLE_CHECK_X86_H
#define TMV_GATHER_TABLE_CHECK_X86_H

#include "vec_x86.h"
#include "gather_x86.h"

/* Signed 64-bit a > b per lane. SSE2 lacks the compare: the high dwords
 * decide (signed) unless equal, then the low dwords (unsigned). */
static inline tmv_v tmv_gx_cmpgt_epi64(tmv_v a, tmv_v b)
{
#if defined(TMV_VEC_SSE2)
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    const __m128i gts = _mm_cmpgt_epi32(a, b);
    const __m128i gtu = _mm_cmpgt_epi32(_mm_xor_si128(a, bias), _mm_xor_si128(b, bias));
    const __m128i eq = _mm_cmpeq_epi32(a, b);
    const __m128i lo_up = _mm_shuffle_epi32(gtu, _MM_SHUFFLE(2, 2, 0, 0));
    const __m128i r = _mm_or_si128(gts, _mm_and_si128(eq, lo_up));
    return _mm_shuffle_epi32(r, _MM_SHUFFLE(3, 3, 1, 1));
#else
    return MM(cmpgt_epi64)(a, b);
#endif
}

/* True if every lane of v is zero. */
static inline bool tmv_gx_all_zero(tmv_v v)
{
#if defined(TMV_VEC_SSE2)
    return _mm_movemask_epi8(v) == 0;
#else
    return TMV_SI(testz)(v, v);
#endif
}

/* The set's tmv_gx_check_fn: lane i of each vector of indices against entry
 * i of the table row the vector starts at (the bounds of component i % k). */
static bool tmv_gx_check_table(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count)
{
    const uint64_t lanes = TMV_VB / b->width, full = count / lanes * lanes;
    const tmv_v flip = b->width == 4 ? MM(set1_epi32)((int32_t)(uint32_t)b->flip) : MM(set1_epi64x)((int64_t)b->flip);
    tmv_v bad = TMV_SI(setzero)();
    uint32_t t = 0;
    for (uint64_t i = 0; i < full; i += lanes) {
        const tmv_v x = TMV_SI(xor)(v_load(p + i * b->width), flip);
        if (b->width == 4) {
            const tmv_v lo = v_load((const uint8_t *)&b->lo.i32[t]);
            const tmv_v hi = v_load((const uint8_t *)&b->hi.i32[t]);
            bad = TMV_SI(or)(bad, TMV_SI(or)(MM(cmpgt_epi32)(lo, x), MM(cmpgt_epi32)(x, hi)));
        } else {
            const tmv_v lo = v_load((const uint8_t *)&b->lo.i64[t]);
            const tmv_v hi = v_load((const uint8_t *)&b->hi.i64[t]);
            bad = TMV_SI(or)(bad, TMV_SI(or)(tmv_gx_cmpgt_epi64(lo, x), tmv_gx_cmpgt_epi64(x, hi)));
        }
        t += (uint32_t)lanes;
        if (t == b->period)
            t = 0;
    }
    return tmv_gx_all_zero(bad) && tmv_gx_check_tail(b, p, full, count);
}

#endif
