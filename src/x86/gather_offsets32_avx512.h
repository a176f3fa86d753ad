/* gather_offsets32_avx512.h - AVX-512 GATHER_ND input offsets as 32-bit values, those of 16 index tuples at a time computed in a vector. */
#ifndef TMV_GATHER_OFFSETS32_AVX512_H
#define TMV_GATHER_OFFSETS32_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "gather_x86.h"

/* ---- 32-bit offsets: when every input offset is below 2^31 (the usual
 * case), 16 tuples per step with vpmulld instead of vpmullq (slow on Zen 4):
 * r3 elements at L2 size went from 0.054 to 0.08 x memcpy (i32 indices). */

/* The indices of 16 tuples (k <= 4) as 32-bit values in 2 vectors (k <= 2)
 * or k; `values` of them are read, the rest are zero. 64-bit indices
 * checked before fit as they are (every dim is below 2^31): their low
 * halves are picked. `saturate` (clamped ones, and those checked as their
 * offsets are computed) narrows them saturating: the clamp then maps a
 * value to the same position, and the check finds a value out of range
 * exactly when its index is (a dim below 2^31 holds neither INT32_MIN,
 * INT32_MAX nor UINT32_MAX). */
static inline void load_block32(__m512i v[4], const uint8_t *idx, uint64_t values, uint32_t k,
                                tmv_dtype type, bool saturate)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    for (uint32_t q = 0; q < (k > 2 ? k : 2); q++) {
        const uint64_t first = q * 16, n = values > first ? values - first : 0;
        if (is32) {
            const __mmask16 m = n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1);
            v[q] = _mm512_maskz_loadu_epi32(m, idx + first * 4);
            continue;
        }
        const uint64_t n1 = n > 8 ? n - 8 : 0;
        const __mmask8 m0 = n >= 8 ? (__mmask8)0xff : (__mmask8)((1u << n) - 1);
        const __mmask8 m1 = n1 >= 8 ? (__mmask8)0xff : (__mmask8)((1u << n1) - 1);
        const __m512i a = _mm512_maskz_loadu_epi64(m0, idx + first * 8);
        const __m512i b = _mm512_maskz_loadu_epi64(m1, idx + first * 8 + 64);
        if (!saturate)
            v[q] = _mm512_permutex2var_epi32(a, evens, b);
        else if (type == TMV_DTYPE_INT64)
            v[q] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtsepi64_epi32(a)), _mm512_cvtsepi64_epi32(b), 1);
        else
            v[q] = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtusepi64_epi32(a)), _mm512_cvtusepi64_epi32(b), 1);
    }
}

/* Per-run constants of the 32-bit path: component j of tuple l is value
 * at[j] = l * k + j of a block, in the upper pair of vectors where the mask
 * says so. */
typedef struct comp32 {
    __m512i   at[4], n[4], stride[4];
    __mmask16 upper[4];
} comp32;

static inline void comp32_init(comp32 *c, const tmv_gather_shape *s, uint32_t k)
{
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (uint32_t j = 0; j < k; j++) {
        c->at[j] = _mm512_add_epi32(_mm512_mullo_epi32(lane, _mm512_set1_epi32((int32_t)k)), _mm512_set1_epi32((int32_t)j));
        c->upper[j] = _mm512_cmpge_epu32_mask(c->at[j], _mm512_set1_epi32(32));
        c->n[j] = _mm512_set1_epi32((int32_t)s->dim_sizes[j]);
        c->stride[j] = _mm512_set1_epi32((int32_t)s->dim_strides[j]);
    }
}

/* base (lane l: the input offset of tuple l's batch) plus the offsets the
 * indices of a block of 16 tuples select; only the first `left` tuples are
 * read when not full. With bad (not clamping), the lanes
 * of out-of-range tuples are or-ed into *bad. k, type, clamp, full and
 * whether bad is NULL are constants per instance. */
static inline __m512i offsets32(const comp32 *c, const uint8_t *idx, __m512i base, uint64_t left,
                                uint32_t k, tmv_dtype type, bool clamp, bool full, __mmask16 *bad)
{
    const bool is_signed = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    const __m512i one = _mm512_set1_epi32(1);
    __m512i v[4];
    load_block32(v, idx, (full ? 16 : left) * k, k, type, clamp || bad != NULL);
    __m512i off = base;
    for (uint32_t j = 0; j < k; j++) {
        __m512i x = _mm512_permutex2var_epi32(v[0], c->at[j], v[1]);
        if (k == 3)   /* values 32..47 are all in v[2]: one single-source permute, no blend */
            x = _mm512_mask_permutexvar_epi32(x, c->upper[j], c->at[j], v[2]);
        else if (k > 3)
            x = _mm512_mask_blend_epi32(c->upper[j], x, _mm512_permutex2var_epi32(v[2], c->at[j], v[3]));
        if (bad != NULL)   /* lanes past `left` hold 0: in range */
            *bad |= is_signed ? _mm512_cmplt_epi32_mask(x, _mm512_sub_epi32(_mm512_setzero_si512(), c->n[j])) |
                                    _mm512_cmpge_epi32_mask(x, c->n[j])
                              : _mm512_cmpge_epu32_mask(x, c->n[j]);
        if (is_signed) {
            if (clamp)
                x = _mm512_min_epi32(_mm512_max_epi32(x, _mm512_sub_epi32(_mm512_setzero_si512(), c->n[j])),
                                     _mm512_sub_epi32(c->n[j], one));
            x = _mm512_mask_add_epi32(x, _mm512_movepi32_mask(x), x, c->n[j]);
        } else if (clamp) {
            x = _mm512_min_epu32(x, _mm512_sub_epi32(c->n[j], one));
        }
        off = _mm512_add_epi32(off, _mm512_mullo_epi32(x, c->stride[j]));
    }
    return off;
}
/* A packed run's 32-bit offsets, a block or chunk at a time. */
typedef struct offsets32_walk {
    comp32         c;
    __m512i        base, step16;
    const uint8_t *idx;
    uint64_t       block_bytes;
} offsets32_walk;

static inline void offsets32_walk_init(offsets32_walk *w, const tmv_gather_shape *s, const tmv_gx_run *r,
                                       uint32_t k, tmv_dtype type)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    comp32_init(&w->c, s, k);
    w->step16 = _mm512_set1_epi32((int32_t)(uint32_t)(16 * r->in_step));
    w->base = _mm512_add_epi32(_mm512_set1_epi32((int32_t)r->in_base),
                               _mm512_mullo_epi32(lane, _mm512_set1_epi32((int32_t)r->in_step)));
    w->idx = r->idx;
    w->block_bytes = 16 * k * (is32 ? 4 : 8);
}

/* The offsets of the next count tuples into o (room for count rounded up
 * to 16); a partial block only at the run's end. bad as for offsets32. */
static inline void offsets32_chunk(offsets32_walk *w, uint32_t *o, uint64_t count, uint32_t k, tmv_dtype type,
                                   bool clamp, __mmask16 *bad)
{
    uint64_t i = 0;
    for (; i + 16 <= count; i += 16) {
        _mm512_storeu_si512(o + i, offsets32(&w->c, w->idx, w->base, 16, k, type, clamp, true, bad));
        w->base = _mm512_add_epi32(w->base, w->step16);
        w->idx += w->block_bytes;
    }
    if (i < count)
        _mm512_storeu_si512(o + i, offsets32(&w->c, w->idx, w->base, count - i, k, type, clamp, false, bad));
}

#endif
