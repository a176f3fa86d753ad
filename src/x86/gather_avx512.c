/* gather_avx512.c - AVX-512 GATHER_ND: min/max index check, 64-byte row copies, and offsets computed 16 tuples at a time (32-bit) or 8 (64-bit) for element gathers and row copies. */
#include <immintrin.h>

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

bool tmv_gather_rows_avx512_accepts(const tmv_gather_shape *s)
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
 * case), 16 tuples per step with vpmulld instead of vpmullq (slow on Zen 4):
 * r3 elements at L2 size went from 0.054 to 0.08 x memcpy (i32 indices). */

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
 * or k; `values` of them are read, the rest are zero. Checked 64-bit indices fit as they are
 * (every dim is below 2^31): their low halves are picked. Clamped ones are
 * narrowed saturating, which the clamp then maps to the same position. */
static inline void load_block32(__m512i v[4], const uint8_t *idx, uint64_t values, uint32_t k,
                                tmv_dtype type, bool clamp)
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
 * read when not full. With bad (32-bit index types, not clamping), the lanes
 * of out-of-range tuples are or-ed into *bad. k, type, clamp, full and
 * whether bad is NULL are constants per instance. */
static inline __m512i offsets32(const comp32 *c, const uint8_t *idx, __m512i base, uint64_t left,
                                uint32_t k, tmv_dtype type, bool clamp, bool full, __mmask16 *bad)
{
    const bool is_signed = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    const __m512i one = _mm512_set1_epi32(1);
    __m512i v[4];
    load_block32(v, idx, (full ? 16 : left) * k, k, type, clamp);
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

/* Tuples per chunk of the 32-bit row path: all offsets of a chunk are
 * computed (one vector block after the other) into a buffer before its first
 * row is copied, so the copy loop is a load and a store per 64 bytes. */
#define CHUNK32 256

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

/* One block of 16 tuples of 8-byte elements (the first `left`): two 8-lane
 * gathers under the block's mask. */
static inline void block32_w8(const comp32 *c, const uint8_t *idx, __m512i base, const uint8_t *input,
                              uint8_t *out, uint64_t left, uint32_t k, tmv_dtype type, bool clamp, bool full)
{
    const __mmask16 m = full ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
    const __m512i off = offsets32(c, idx, base, left, k, type, clamp, full, NULL);
    const __m512i g0 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)m,
                                                   _mm512_castsi512_si256(off), input, 1);
    const __m512i g1 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)(m >> 8),
                                                   _mm512_extracti64x4_epi64(off, 1), input, 1);
    _mm512_mask_storeu_epi64(out, (__mmask8)m, g0);
    _mm512_mask_storeu_epi64(out + 64, (__mmask8)(m >> 8), g1);
}

/* A packed run (k <= 4, a constant here) with a contiguous output of 4- or
 * 8-byte elements and 32-bit offsets. 4-byte elements: scalar loads and
 * stores, 16 at a time from a block's offsets vector (Zen 4's vpgatherdd is
 * microcode and stalls the offset work around it: r3 f32 elements at L1 size
 * went from 3.37 to 2.9 us, at L2 from 132 to 116 us). Block by block, gcc
 * reads the offsets out of the vector and the next block's offset work
 * overlaps the loads; whole chunks of 32, 64 or 256 offsets through memory
 * first took 2.8-3.9 us and 128-149 us. */
static inline void elements32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                  uint8_t *output, uint32_t k, tmv_dtype type, bool clamp)
{
    const uint64_t n = r->count;
    uint8_t *out = output + r->out_off;
    offsets32_walk ow;
    offsets32_walk_init(&ow, s, r, k, type);
    if (s->slice.elem_bytes == 4) {
        uint32_t o[16];
        uint64_t i = 0;
        for (; i + 16 <= n; i += 16, out += 64) {
            offsets32_chunk(&ow, o, 16, k, type, clamp, NULL);
            for (unsigned l = 0; l < 16; l++)
                memcpy(out + 4 * l, input + o[l], 4);
        }
        if (i < n) {
            offsets32_chunk(&ow, o, n - i, k, type, clamp, NULL);
            for (uint64_t l = 0; l < n - i; l++)
                memcpy(out + 4 * l, input + o[l], 4);
        }
        return;
    }
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16, ow.idx += ow.block_bytes, out += 128) {
        block32_w8(&ow.c, ow.idx, ow.base, input, out, 16, k, type, clamp, true);
        ow.base = _mm512_add_epi32(ow.base, ow.step16);
    }
    if (i < n)
        block32_w8(&ow.c, ow.idx, ow.base, input, out, n - i, k, type, clamp, false);
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

void tmv_gather_elements_avx512_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 64, false, offsets_fit_32(s));
}

void tmv_gather_rows_avx512_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gather_elements_avx512_prepare(s, state);
}

bool tmv_gather_elements_avx512_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

tmv_status tmv_gather_elements_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                      const uint8_t *indices, uint8_t *output)
{
    tmv_status status = tmv_gx_check(s, indices, check_values);
    if (status != TMV_OK)
        return status;
    const uint64_t w = s->slice.elem_bytes;
    const bool fit32 = tmv_gx_state_of(s)->fit32;
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

/* A packed run of rows (k <= 4, a constant here) with 32-bit offsets, a
 * chunk's offsets first. No prefetch: the outputs this path takes are below
 * the stream threshold, and on Zen 4 a prefetch of a cached row cost 0.4 ns
 * (8 KiB output from a 3.2 MB table: 93 ns bare, 144 ns prefetching every
 * row first) while for 8192 rows from L3/L2 the out-of-order window already
 * overlaps the misses (1.33 vs 1.31 ns per row with a 16-row prefetch
 * distance). With check (a constant; the run is one chunk, of 32-bit
 * indices, not clamped), the indices are checked as their offsets are
 * computed: false if one is out of range, before anything is written. */
static inline bool rows32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, uint32_t k, tmv_dtype type, bool clamp, uint64_t bytes,
                              bool check)
{
    const uint64_t n = r->count, out_step = r->out_step;
    uint8_t *out = output + r->out_off;
    offsets32_walk ow;
    offsets32_walk_init(&ow, s, r, k, type);
    uint32_t o[CHUNK32];
    __mmask16 bad = 0;
    for (uint64_t first = 0; first < n; first += CHUNK32) {
        const uint64_t count = n - first < CHUNK32 ? n - first : CHUNK32;
        offsets32_chunk(&ow, o, count, k, type, clamp, check ? &bad : NULL);
        if (bad != 0)
            return false;
        if (bytes == 64)   /* one vector per row, without copy_row's size branches */
            for (uint64_t i = 0; i < count; i++, out += out_step)
                _mm512_storeu_si512(out, _mm512_loadu_si512(input + o[i]));
        else
            for (uint64_t i = 0; i < count; i++, out += out_step)
                copy_row(out, input + o[i], bytes);
    }
    return true;
}

static inline bool rows32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                          uint8_t *output, tmv_dtype type, bool clamp, bool check)
{
    const uint64_t bytes = s->slice.elem_bytes;
    switch (s->k) {
    case 1: return rows32_run(s, r, input, output, 1, type, clamp, bytes, check);
    case 2: return rows32_run(s, r, input, output, 2, type, clamp, bytes, check);
    case 3: return rows32_run(s, r, input, output, 3, type, clamp, bytes, check);
    default: return rows32_run(s, r, input, output, 4, type, clamp, bytes, check);
    }
}

/* check as for rows32_run: only for 32-bit index types, without clamping. */
static inline bool rows32_typed(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output, bool check)
{
    switch (s->index_type) {
    case TMV_DTYPE_INT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_INT32, false, true)
                     : rows32(s, r, input, output, TMV_DTYPE_INT32, s->clamp, false);
    case TMV_DTYPE_UINT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_UINT32, false, true)
                     : rows32(s, r, input, output, TMV_DTYPE_UINT32, s->clamp, false);
    case TMV_DTYPE_INT64: return rows32(s, r, input, output, TMV_DTYPE_INT64, s->clamp, false);
    default: return rows32(s, r, input, output, TMV_DTYPE_UINT64, s->clamp, false);
    }
}

tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output)
{
    /* Outputs below the stream threshold with k <= 4 and 32-bit offsets
     * (embedding lookups): vector offsets; the rest, the shared row loop. */
    if (s->k <= 4 && tmv_gx_output_bytes(s) < s->tuning->stream_threshold && tmv_gx_state_of(s)->fit32) {
        tmv_gx_iter it;
        tmv_gx_iter_init(&it, s, indices);
        /* One packed run of 32-bit indices that fits a chunk (8 KiB of
         * 64-byte rows): checked along with its offsets, so the indices are
         * read once; 64-byte rows of an 8 KiB output went from 160 to
         * 134 ns (0.49 to 0.58 x memcpy). */
        if (!s->clamp && s->pos_rank == 1 && it.run.count <= CHUNK32 && tmv_gx_index_width(s) == 4 &&
            tmv_gx_run_packed(s, &it.run, 4))
            return rows32_typed(s, &it.run, input, output, true) ? TMV_OK
                                                                  : tmv_gather_check(s, indices);
        tmv_status status = tmv_gx_check(s, indices, check_values);
        if (status != TMV_OK)
            return status;
        do {
            const tmv_gx_run *r = &it.run;
            if (tmv_gx_run_packed(s, r, tmv_gx_index_width(s)))
                rows32_typed(s, r, input, output, false);
            else
                tmv_gx_copy_run(s, r, input, output, s->slice.elem_bytes, s->tuning->gather_prefetch,
                                TMV_GX_ROW_LINES, copy_row);
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
