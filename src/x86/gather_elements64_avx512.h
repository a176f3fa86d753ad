/* gather_elements64_avx512.h - AVX-512 GATHER_ND element runs with 64-bit offsets: those of 8 index tuples at a time computed in a vector. */
#ifndef TMV_GATHER_ELEMENTS64_AVX512_H
#define TMV_GATHER_ELEMENTS64_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gather_x86.h"

/* The indices of up to 8 tuples, k <= 4: up to 32 values in four vectors
 * (two for 32-bit indices), loaded under a mask so that nothing past the
 * run's last value is read. */
typedef struct tuple_block {
    __m512i v[4];
} tuple_block;

static inline void load_block(tuple_block *t, const uint8_t *idx, uint64_t values, bool is32)
{
    const uint64_t per = is32 ? 16 : 8;
    for (unsigned q = 0; q < (is32 ? 2u : 4u); q++) {
        const uint64_t first = q * per, n = values > first ? values - first : 0;
        const __mmask16 m = n >= per ? (__mmask16)((1u << per) - 1) : (__mmask16)((1u << n) - 1);
        t->v[q] = is32 ? _mm512_maskz_loadu_epi32(m, idx + first * 4)
                       : _mm512_maskz_loadu_epi64((__mmask8)m, idx + first * 8);
    }
}

/* Per component: where its value sits in a block, and its dim. */
typedef struct component {
    __m512i at;       /* lane l: l * k + j (for 32-bit indices, as 32-bit lanes) */
    __m512i n, stride;
} component;

static inline void components_init(component *c, const tmv_gather_shape *s, bool is32)
{
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    for (uint32_t j = 0; j < s->k; j++) {
        const __m512i at = _mm512_add_epi64(_mm512_mullo_epi64(lane, _mm512_set1_epi64(s->k)),
                                            _mm512_set1_epi64(j));
        c[j].at = is32 ? _mm512_zextsi256_si512(_mm512_cvtepi64_epi32(at)) : at;
        c[j].n = _mm512_set1_epi64((int64_t)s->dim_sizes[j]);
        c[j].stride = _mm512_set1_epi64((int64_t)s->dim_strides[j]);
    }
}

/* Component c of the block's 8 tuples as 64-bit lanes, picked by permutes. */
static inline __m512i block_component(const tuple_block *t, const component *c, tmv_dtype type)
{
    if (type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32) {
        const __m256i x = _mm512_castsi512_si256(_mm512_permutex2var_epi32(t->v[0], c->at, t->v[1]));
        return type == TMV_DTYPE_INT32 ? _mm512_cvtepi32_epi64(x) : _mm512_cvtepu32_epi64(x);
    }
    const __m512i lo = _mm512_permutex2var_epi64(t->v[0], c->at, t->v[1]);
    const __m512i hi = _mm512_permutex2var_epi64(t->v[2], c->at, t->v[3]);
    return _mm512_mask_blend_epi64(_mm512_cmpge_epu64_mask(c->at, _mm512_set1_epi64(16)), lo, hi);
}

/* Input offsets of the block's tuples: the sum of each component's position
 * times its dim stride, negative indices counted from the end, clamped first
 * with the flag. type and clamp are constants per caller. */
static inline __m512i block_offsets(const tuple_block *t, const component *c, uint32_t k,
                                    __m512i base, tmv_dtype type, bool clamp)
{
    const bool is_signed = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    const __m512i one = _mm512_set1_epi64(1);
    __m512i off = base;
    for (uint32_t j = 0; j < k; j++) {
        __m512i x = block_component(t, &c[j], type);
        if (is_signed) {
            if (clamp)
                x = _mm512_min_epi64(_mm512_max_epi64(x, _mm512_sub_epi64(_mm512_setzero_si512(), c[j].n)),
                                     _mm512_sub_epi64(c[j].n, one));
            x = _mm512_mask_add_epi64(x, _mm512_movepi64_mask(x), x, c[j].n);
        } else if (clamp) {
            x = _mm512_min_epu64(x, _mm512_sub_epi64(c[j].n, one));
        }
        off = _mm512_add_epi64(off, _mm512_mullo_epi64(x, c[j].stride));
    }
    return off;
}

/* A packed run (k <= 4) with a contiguous output of 4- or 8-byte elements:
 * offsets of 8 tuples per step computed in a vector. */
static inline void elements_vector_run(const tmv_gather_shape *s, const tmv_gx_run *r,
                                       const uint8_t *input, uint8_t *output, tmv_dtype type,
                                       bool clamp)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const uint32_t k = s->k;
    const uint64_t tuple_bytes = k * (is32 ? 4 : 8), w = s->slice.elem_bytes;
    component c[4];
    components_init(c, s, is32);
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i step8 = _mm512_set1_epi64((int64_t)(8 * r->in_step));
    __m512i base = _mm512_add_epi64(_mm512_set1_epi64((int64_t)r->in_base),
                                    _mm512_mullo_epi64(lane, _mm512_set1_epi64((int64_t)r->in_step)));
    uint8_t *out = output + r->out_off;
    for (uint64_t i = 0; i < r->count; i += 8) {
        const uint64_t left = r->count - i;
        tuple_block t;
        load_block(&t, r->idx + i * tuple_bytes, (left >= 8 ? 8 : left) * k, is32);
        const __m512i off = block_offsets(&t, c, k, base, type, clamp);
        /* Scalar loads from the vector's offsets: on Zen 4 they beat
         * vpgatherqd (5.5 vs 6.3 us for 4096 4-byte elements from L1);
         * with 32-bit offsets a 16-lane vpgatherdd matches or beats them
         * (elements32_run). */
        uint64_t o[8];
        _mm512_storeu_si512(o, off);
        const unsigned lanes = left >= 8 ? 8 : (unsigned)left;
        if (w == 4)
            for (unsigned l = 0; l < lanes; l++)
                memcpy(out + (i + l) * 4, input + o[l], 4);
        else
            for (unsigned l = 0; l < lanes; l++)
                memcpy(out + (i + l) * 8, input + o[l], 8);
        base = _mm512_add_epi64(base, step8);
    }
}

#endif
