/* gather_avx512.c - AVX-512 GATHER_ND: masked vector index check, 64-byte row copies, and element gathers with offsets computed in vectors. */
#include <immintrin.h>

#include "gather_x86.h"
#include "kernels_x86.h"

static bool check_values(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count)
{
    const uint64_t lanes = 64 / b->width;
    __mmask16 bad = 0;
    uint32_t t = 0;
    for (uint64_t i = 0; i < count; i += lanes) {
        const uint64_t left = count - i;
        const __mmask16 m = left >= lanes ? (__mmask16)((1u << lanes) - 1) : (__mmask16)((1u << left) - 1);
        if (b->width == 4) {
            const __m512i x = _mm512_xor_si512(_mm512_maskz_loadu_epi32(m, p + i * 4),
                                               _mm512_set1_epi32((int32_t)(uint32_t)b->flip));
            const __m512i lo = _mm512_loadu_si512(&b->lo.i32[t]), hi = _mm512_loadu_si512(&b->hi.i32[t]);
            bad |= _mm512_mask_cmplt_epi32_mask(m, x, lo) | _mm512_mask_cmpgt_epi32_mask(m, x, hi);
        } else {
            const __m512i x = _mm512_xor_si512(_mm512_maskz_loadu_epi64((__mmask8)m, p + i * 8),
                                               _mm512_set1_epi64((int64_t)b->flip));
            const __m512i lo = _mm512_loadu_si512(&b->lo.i64[t]), hi = _mm512_loadu_si512(&b->hi.i64[t]);
            bad |= _mm512_mask_cmplt_epi64_mask((__mmask8)m, x, lo) |
                   _mm512_mask_cmpgt_epi64_mask((__mmask8)m, x, hi);
        }
        t += (uint32_t)lanes;
        if (t == b->period)
            t = 0;
    }
    return bad == 0;
}

/* ------------------------------------------------------------ rows */

/* Rows of at least 64 bytes: 64-byte vectors, the last one overlapping. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    uint64_t i = 0;
    for (; i + 128 <= bytes; i += 128) {
        const __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 64);
        _mm512_storeu_si512(dst + i, a);
        _mm512_storeu_si512(dst + i + 64, b);
    }
    if (i + 64 <= bytes) {
        _mm512_storeu_si512(dst + i, _mm512_loadu_si512(src + i));
        i += 64;
    }
    if (i < bytes)
        _mm512_storeu_si512(dst + bytes - 64, _mm512_loadu_si512(src + bytes - 64));
}

/* Aligned destination, bytes a multiple of 64. */
static inline void stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += 64)
        _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512(src + i));
}

bool tmv_gather_rows_accepts_avx512(const tmv_gather_shape *s)
{
    return s->slice.rank == 0 && s->slice.elem_bytes >= 64;
}

tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output)
{
    bool streamed;
    tmv_status status = tmv_gx_rows(s, input, indices, output, 64, check_values, copy_row, stream_row,
                                    &streamed);
    if (streamed)
        _mm_sfence();
    return status;
}

/* ------------------------------------------------------------ elements */

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
         * vpgatherqd (5.5 vs 6.3 us for 4096 4-byte elements from L1). */
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

static inline void elements_vector(const tmv_gather_shape *s, const tmv_gx_run *r,
                                         const uint8_t *input, uint8_t *output, tmv_dtype type)
{
    if (s->clamp)
        elements_vector_run(s, r, input, output, type, true);
    else
        elements_vector_run(s, r, input, output, type, false);
}

bool tmv_gather_elements_accepts_avx512(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

tmv_status tmv_gather_elements_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                      const uint8_t *indices, uint8_t *output)
{
    tmv_status status = tmv_gx_check(s, indices, 64, check_values);
    if (status != TMV_OK)
        return status;
    const uint64_t w = s->slice.elem_bytes;
    tmv_gx_iter it;
    tmv_gx_iter_init(&it, s, indices);
    do {
        const tmv_gx_run *r = &it.run;
        if ((w != 4 && w != 8) || s->k > 4 || (r->count > 1 && r->out_step != w) ||
            !tmv_gx_run_packed(s, r, tmv_gx_index_width(s))) {
            tmv_gx_elements_run(s, r, input, output);
            continue;
        }
        switch (s->index_type) {
        case TMV_DTYPE_INT32: elements_vector(s, r, input, output, TMV_DTYPE_INT32); break;
        case TMV_DTYPE_INT64: elements_vector(s, r, input, output, TMV_DTYPE_INT64); break;
        case TMV_DTYPE_UINT32: elements_vector(s, r, input, output, TMV_DTYPE_UINT32); break;
        default: elements_vector(s, r, input, output, TMV_DTYPE_UINT64); break;
        }
    } while (tmv_gx_iter_next(&it, s));
    return TMV_OK;
}
