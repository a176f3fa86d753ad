/* gather_avx512.c - AVX-512 GATHER_ND: min/max index check, 64-byte row copies, and offsets computed 16 tuples at a time (32-bit) or 8 (64-bit) for element gathers and row copies. */
#include <immintrin.h>

#include "gather_x86.h"
#include "kernels_x86.h"

/* The check keeps the lane-wise minimum and maximum of the index stream per
 * table position, in the nv = period / lanes (<= 7) vectors of one period,
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
        /* the table's unsigned bounds are sign-flipped: flip the maximum alike */
        if (w4) {
            const __m512i hi = _mm512_loadu_si512(&b->hi.i32[v * lanes]);
            const __m512i x = _mm512_xor_si512(mx[v], _mm512_set1_epi32((int32_t)(uint32_t)b->flip));
            bad |= _mm512_cmpgt_epi32_mask(x, hi);
            if (sgn)
                bad |= _mm512_cmplt_epi32_mask(mn[v], _mm512_loadu_si512(&b->lo.i32[v * lanes]));
        } else {
            const __m512i hi = _mm512_loadu_si512(&b->hi.i64[v * lanes]);
            const __m512i x = _mm512_xor_si512(mx[v], _mm512_set1_epi64((int64_t)b->flip));
            bad |= _mm512_cmpgt_epi64_mask(x, hi);
            if (sgn)
                bad |= _mm512_cmplt_epi64_mask(mn[v], _mm512_loadu_si512(&b->lo.i64[v * lanes]));
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

/* ---- 32-bit offsets: when every input offset is below 2^31 (the usual
 * case), 16 tuples per step with vpmulld instead of vpmullq (slow on Zen 4)
 * and one 16-lane gather: r3 elements at L2 size went from 0.054 to 0.08 x
 * memcpy (i32 indices). Scalar loads from the same offsets were 5-10%
 * slower. */

/* Whether every input offset the gather can form, plus its element, fits
 * int32 (false with an empty dim: nothing to gather from). */
static inline bool offsets_fit_32(const tmv_gather_shape *s)
{
    uint64_t max = s->slice.elem_bytes;
    for (uint32_t d = 0; d < s->pos_rank + s->k; d++) {
        const bool pos = d < s->pos_rank;
        const uint64_t n = pos ? s->pos_sizes[d] : s->dim_sizes[d - s->pos_rank];
        const uint64_t stride = pos ? s->pos_input_strides[d] : s->dim_strides[d - s->pos_rank];
        if (n == 0 || n > INT32_MAX || stride > INT32_MAX)   /* and no overflow below */
            return false;
        max += (n - 1) * stride;
    }
    return max <= INT32_MAX;
}

/* The indices of 16 tuples (k <= 4) as 32-bit values in 2 vectors (k <= 2)
 * or 4; `values` of them are read, the rest are zero. Checked 64-bit indices fit as they are
 * (every dim is below 2^31): their low halves are picked. Clamped ones are
 * narrowed saturating, which the clamp then maps to the same position. */
static inline void load_block32(__m512i v[4], const uint8_t *idx, uint64_t values, uint32_t k,
                                tmv_dtype type, bool clamp)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    for (uint32_t q = 0; q < (k > 2 ? 4u : 2u); q++) {
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
        if (!clamp)
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
 * read when not full. k, type, clamp and full are constants per instance. */
static inline __m512i offsets32(const comp32 *c, const uint8_t *idx, __m512i base, uint64_t left,
                                uint32_t k, tmv_dtype type, bool clamp, bool full)
{
    const bool is_signed = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    const __m512i one = _mm512_set1_epi32(1);
    __m512i v[4];
    load_block32(v, idx, (full ? 16 : left) * k, k, type, clamp);
    __m512i off = base;
    for (uint32_t j = 0; j < k; j++) {
        __m512i x = _mm512_permutex2var_epi32(v[0], c->at[j], v[1]);
        if (k > 2)
            x = _mm512_mask_blend_epi32(c->upper[j], x, _mm512_permutex2var_epi32(v[2], c->at[j], v[3]));
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

/* One block of 16 tuples of elements (the first `left` when not full): a
 * 16-lane gather and a full-vector store. */
static inline void block32(const comp32 *c, const uint8_t *idx, __m512i base, const uint8_t *input,
                           uint8_t *out, uint64_t left, uint32_t k, tmv_dtype type, bool clamp,
                           uint64_t w, bool full)
{
    const __mmask16 m = full ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
    const __m512i off = offsets32(c, idx, base, left, k, type, clamp, full);
    if (w == 4) {
        const __m512i g = full ? _mm512_i32gather_epi32(off, input, 1)
                               : _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, off, input, 1);
        _mm512_mask_storeu_epi32(out, m, g);
    } else {
        const __m512i g0 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)m,
                                                       _mm512_castsi512_si256(off), input, 1);
        const __m512i g1 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)(m >> 8),
                                                       _mm512_extracti64x4_epi64(off, 1), input, 1);
        _mm512_mask_storeu_epi64(out, (__mmask8)m, g0);
        _mm512_mask_storeu_epi64(out + 64, (__mmask8)(m >> 8), g1);
    }
}

/* A packed run (k <= 4, a constant here) with a contiguous output of 4- or
 * 8-byte elements and 32-bit offsets. */
static inline void elements32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                  uint8_t *output, uint32_t k, tmv_dtype type, bool clamp)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const uint64_t block_bytes = 16 * k * (is32 ? 4 : 8), w = s->slice.elem_bytes;
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    comp32 c;
    comp32_init(&c, s, k);
    const __m512i step16 = _mm512_set1_epi32((int32_t)(uint32_t)(16 * r->in_step));
    __m512i base = _mm512_add_epi32(_mm512_set1_epi32((int32_t)r->in_base),
                                    _mm512_mullo_epi32(lane, _mm512_set1_epi32((int32_t)r->in_step)));
    const uint8_t *idx = r->idx;
    uint8_t *out = output + r->out_off;
    uint64_t i = 0;
    for (; i + 16 <= r->count; i += 16, idx += block_bytes, out += 16 * w) {
        if (w == 4)
            block32(&c, idx, base, input, out, 16, k, type, clamp, 4, true);
        else
            block32(&c, idx, base, input, out, 16, k, type, clamp, 8, true);
        base = _mm512_add_epi32(base, step16);
    }
    if (i < r->count)
        block32(&c, idx, base, input, out, r->count - i, k, type, clamp, w, false);
}

/* Instances per k and clamp. */
static inline void elements32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, tmv_dtype type, bool clamp)
{
    switch (s->k) {
    case 1: elements32_run(s, r, input, output, 1, type, clamp); break;
    case 2: elements32_run(s, r, input, output, 2, type, clamp); break;
    case 3: elements32_run(s, r, input, output, 3, type, clamp); break;
    default: elements32_run(s, r, input, output, 4, type, clamp); break;
    }
}

/* The vector path for one packed run: 32-bit offsets where they fit. */
static inline void elements_vector(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                   uint8_t *output, tmv_dtype type, bool fit32)
{
    if (fit32) {
        if (s->clamp)
            elements32(s, r, input, output, type, true);
        else
            elements32(s, r, input, output, type, false);
    } else if (s->clamp) {
        elements_vector_run(s, r, input, output, type, true);
    } else {
        elements_vector_run(s, r, input, output, type, false);
    }
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
    const bool fit32 = offsets_fit_32(s);
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
        case TMV_DTYPE_INT32: elements_vector(s, r, input, output, TMV_DTYPE_INT32, fit32); break;
        case TMV_DTYPE_INT64: elements_vector(s, r, input, output, TMV_DTYPE_INT64, fit32); break;
        case TMV_DTYPE_UINT32: elements_vector(s, r, input, output, TMV_DTYPE_UINT32, fit32); break;
        default: elements_vector(s, r, input, output, TMV_DTYPE_UINT64, fit32); break;
        }
    } while (tmv_gx_iter_next(&it, s));
    return TMV_OK;
}

/* ------------------------------------------------------------ rows, 32-bit offsets */

/* A packed run of rows (k <= 4, a constant here) with 32-bit offsets: the
 * offsets of the next block of 16 rows are computed, and the rows'
 * first lines prefetched, while the current block is copied. bytes == 64 is
 * a constant instance (one vector per row). */
static inline void rows32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, uint32_t k, tmv_dtype type, bool clamp, uint64_t bytes)
{
    const bool is32 = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32;
    const uint64_t block_bytes = 16 * k * (is32 ? 4 : 8), n = r->count;
    const unsigned lines = bytes / 64 < TMV_GX_ROW_LINES ? (unsigned)(bytes / 64) : TMV_GX_ROW_LINES;
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    comp32 c;
    comp32_init(&c, s, k);
    const __m512i step16 = _mm512_set1_epi32((int32_t)(uint32_t)(16 * r->in_step));
    __m512i base = _mm512_add_epi32(_mm512_set1_epi32((int32_t)r->in_base),
                                    _mm512_mullo_epi32(lane, _mm512_set1_epi32((int32_t)r->in_step)));
    uint32_t o[2][16];
    _mm512_storeu_si512(o[0], n >= 16 ? offsets32(&c, r->idx, base, 16, k, type, clamp, true)
                                       : offsets32(&c, r->idx, base, n, k, type, clamp, false));
    uint8_t *out = output + r->out_off;
    for (uint64_t i = 0, b = 0; i < n; i += 16, b ^= 1) {
        const uint64_t next = i + 16;
        if (next < n) {
            base = _mm512_add_epi32(base, step16);
            const uint8_t *idx = r->idx + (next / 16) * block_bytes;
            const __m512i off = n - next >= 16 ? offsets32(&c, idx, base, 16, k, type, clamp, true)
                                               : offsets32(&c, idx, base, n - next, k, type, clamp, false);
            _mm512_storeu_si512(o[b ^ 1], off);
        }
        const uint64_t end = n - i < 16 ? n - i : 16;
        for (uint64_t l = 0; l < end; l++, out += r->out_step)
            copy_row(out, input + o[b][l], bytes);
        /* the next block's rows: 64-byte rows at L2 size went from 0.57 to
         * 0.65 x memcpy with this prefetch */
        const uint64_t ahead = next >= n ? 0 : n - next < 16 ? n - next : 16;
        for (uint64_t l = 0; l < ahead; l++)
            for (unsigned q = 0; q < lines; q++)
                _mm_prefetch((const char *)input + o[b ^ 1][l] + 64 * q, _MM_HINT_T0);
    }
}

static inline void rows32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                          uint8_t *output, tmv_dtype type, bool clamp)
{
    const uint64_t bytes = s->slice.elem_bytes;
    switch (s->k) {
    case 1:
        if (bytes == 64)
            rows32_run(s, r, input, output, 1, type, clamp, 64);
        else
            rows32_run(s, r, input, output, 1, type, clamp, bytes);
        break;
    case 2: rows32_run(s, r, input, output, 2, type, clamp, bytes); break;
    case 3: rows32_run(s, r, input, output, 3, type, clamp, bytes); break;
    default: rows32_run(s, r, input, output, 4, type, clamp, bytes); break;
    }
}

static inline void rows32_typed(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output, tmv_dtype type)
{
    if (s->clamp)
        rows32(s, r, input, output, type, true);
    else
        rows32(s, r, input, output, type, false);
}

tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output)
{
    /* Outputs below the stream threshold with k <= 4 and 32-bit offsets
     * (embedding lookups): vector offsets; the rest, the shared row loop. */
    if (s->k <= 4 && tmv_gx_output_bytes(s) < tmv_stream_threshold() && offsets_fit_32(s)) {
        tmv_status status = tmv_gx_check(s, indices, 64, check_values);
        if (status != TMV_OK)
            return status;
        tmv_gx_iter it;
        tmv_gx_iter_init(&it, s, indices);
        do {
            const tmv_gx_run *r = &it.run;
            if (!tmv_gx_run_packed(s, r, tmv_gx_index_width(s))) {
                tmv_gx_copy_run(s, r, input, output, s->slice.elem_bytes, TMV_GX_ROW_PREFETCH,
                                TMV_GX_ROW_LINES, copy_row);
                continue;
            }
            switch (s->index_type) {
            case TMV_DTYPE_INT32: rows32_typed(s, r, input, output, TMV_DTYPE_INT32); break;
            case TMV_DTYPE_INT64: rows32_typed(s, r, input, output, TMV_DTYPE_INT64); break;
            case TMV_DTYPE_UINT32: rows32_typed(s, r, input, output, TMV_DTYPE_UINT32); break;
            default: rows32_typed(s, r, input, output, TMV_DTYPE_UINT64); break;
            }
        } while (tmv_gx_iter_next(&it, s));
        return TMV_OK;
    }
    bool streamed;
    tmv_status status = tmv_gx_rows(s, input, indices, output, 64, check_values, copy_row, stream_row,
                                    &streamed);
    if (streamed)
        _mm_sfence();
    return status;
}
