/* copy_x86.h - the B-way row (de)interleave behind SPACE_TO_DEPTH / DEPTH_TO_SPACE, written once for SSE2, AVX2 and AVX-512.
 *
 * Static inline only. The including file defines exactly one of
 * TMV_COPY_SSE2, TMV_COPY_AVX2, TMV_COPY_AVX512 or TMV_COPY_AVX512VBMI (the
 * set it is compiled for) and then wraps the entry points at the bottom in
 * its exported kernel. The same intrinsic names exist at 128, 256 and 512
 * bits (MM(packus_epi16) is _mm_, _mm256_ or _mm512_packus_epi16), so one
 * body serves all sets; what differs is how a lane-local shuffle is made
 * whole-vector (nothing, vpermq, or a two-source permute) and how a row's
 * tail is done (masked on AVX-512, else one overlapping vector). */
#ifndef TMV_COPY_X86_H
#define TMV_COPY_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../walk.h"

#if defined(TMV_COPY_AVX512VBMI)
#define TMV_COPY_AVX512
#endif

#if defined(TMV_COPY_AVX512)
typedef __m512i tmv_v;
#define TMV_VB 64
#define MM(op) _mm512_##op
#define TMV_SI(op) _mm512_##op##_si512
#define TMV_CAST_PS(v) _mm512_castsi512_ps(v)
#define TMV_CAST_SI(v) _mm512_castps_si512(v)
#define TMV_MASKED 1      /* byte-masked loads and stores for row tails */
#define TMV_PERM2 1       /* two-source full-vector permutes */
#elif defined(TMV_COPY_AVX2)
typedef __m256i tmv_v;
#define TMV_VB 32
#define MM(op) _mm256_##op
#define TMV_SI(op) _mm256_##op##_si256
#define TMV_CAST_PS(v) _mm256_castsi256_ps(v)
#define TMV_CAST_SI(v) _mm256_castps_si256(v)
#elif defined(TMV_COPY_SSE2)
typedef __m128i tmv_v;
#define TMV_VB 16
#define MM(op) _mm_##op
#define TMV_SI(op) _mm_##op##_si128
#define TMV_CAST_PS(v) _mm_castsi128_ps(v)
#define TMV_CAST_SI(v) _mm_castps_si128(v)
#else
#error "define the kernel set before including copy_x86.h"
#endif

static inline tmv_v v_load(const uint8_t *p) { return TMV_SI(loadu)((const tmv_v *)(const void *)p); }
static inline void v_store(uint8_t *p, tmv_v v) { TMV_SI(storeu)((tmv_v *)(void *)p, v); }

/* Per-call constants: permute indices, built once per kernel call. */
typedef struct tmv_vctx {
#if defined(TMV_PERM2)
    tmv_v even, odd, lo, hi;   /* two-source index vectors */
    tmv_v chain[3][2];         /* B = 3: output j's permute for source vector k = 1, 2 */
#endif
#if defined(TMV_COPY_AVX512)
    tmv_v fix_even;            /* qword order making lane-local packs whole (w = 1 without VBMI) */
    tmv_v fix_lo;              /* qword order before lane-local unpacks (w = 1 without VBMI) */
#endif
    int unused;
} tmv_vctx;

#if defined(TMV_PERM2)
/* A two-source index vector of elements of w bytes: element i is f[i]. */
static inline tmv_v v_index(const uint16_t *f, size_t w)
{
    uint8_t bytes[64];
    for (size_t i = 0; i < 64 / w; i++) {
        uint64_t value = f[i];
        memcpy(bytes + i * w, &value, w);   /* little-endian: the low w bytes */
    }
    return v_load(bytes);
}

static inline tmv_v v_perm2(tmv_v a, tmv_v idx, tmv_v b, size_t w)
{
    switch (w) {
#if defined(TMV_COPY_AVX512VBMI)
    case 1: return _mm512_permutex2var_epi8(a, idx, b);
#endif
    case 2: return _mm512_permutex2var_epi16(a, idx, b);
    case 4: return _mm512_permutex2var_epi32(a, idx, b);
    default: return _mm512_permutex2var_epi64(a, idx, b);
    }
}

/* Uses the two-source permutes for width w (else lane-local shuffles). */
static inline bool v_use_perm2(size_t w)
{
#if defined(TMV_COPY_AVX512VBMI)
    (void)w;
    return true;
#else
    return w >= 2;
#endif
}
#endif

static inline void v_ctx_init(tmv_vctx *c, size_t w, unsigned b)
{
    memset(c, 0, sizeof *c);
#if defined(TMV_PERM2)
    const unsigned n = 64 / (unsigned)w;   /* elements per vector */
    uint16_t f[4][64];
    for (unsigned i = 0; i < n; i++) {
        f[0][i] = (uint16_t)(2 * i);                              /* even of a:b */
        f[1][i] = (uint16_t)(2 * i + 1);                          /* odd of a:b */
        f[2][i] = (uint16_t)(i / 2 + (i & 1) * n);                /* interleave low halves */
        f[3][i] = (uint16_t)(n / 2 + i / 2 + (i & 1) * n);        /* interleave high halves */
    }
    c->even = v_index(f[0], w);
    c->odd = v_index(f[1], w);
    c->lo = v_index(f[2], w);
    c->hi = v_index(f[3], w);
    if (b == 3) {
        /* De-interleave: output j element i is input element 3i + j, in
         * vector q = (3i + j) / n. Step k = 1 takes q = 0 from a, q = 1 from
         * b; step k = 2 keeps what it has and takes q = 2 from c.
         * Interleave: output k element i is row (kn + i) % 3, position
         * (kn + i) / 3, built the same way over the three rows. The entries
         * are filled for the de-interleave here; the interleave has its own
         * (see v_ctx_chain_interleave). */
        for (unsigned j = 0; j < 3; j++) {
            uint16_t g[2][64];
            for (unsigned i = 0; i < n; i++) {
                unsigned src = 3 * i + j, q = src / n, r = src % n;
                g[0][i] = (uint16_t)(q == 0 ? r : q == 1 ? n + r : 0);
                g[1][i] = (uint16_t)(q == 2 ? n + r : i);
            }
            c->chain[j][0] = v_index(g[0], w);
            c->chain[j][1] = v_index(g[1], w);
        }
    }
#endif
#if defined(TMV_COPY_AVX512)
    c->fix_even = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    c->fix_lo = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
#endif
    (void)w;
    (void)b;
}

#if defined(TMV_PERM2)
/* The B = 3 interleave's indices (replacing the de-interleave's). */
static inline void v_ctx_chain_interleave(tmv_vctx *c, size_t w)
{
    const unsigned n = 64 / (unsigned)w;
    for (unsigned k = 0; k < 3; k++) {
        uint16_t g[2][64];
        for (unsigned i = 0; i < n; i++) {
            unsigned pos = k * n + i, row = pos % 3, at = pos / 3;
            g[0][i] = (uint16_t)(row == 0 ? at : row == 1 ? n + at : 0);
            g[1][i] = (uint16_t)(row == 2 ? n + at : i);
        }
        c->chain[k][0] = v_index(g[0], w);
        c->chain[k][1] = v_index(g[1], w);
    }
}
#endif

/* ---- the four two-vector steps, for elements of w bytes ---- */

/* Lane-local even / odd elements: per 128-bit lane, those of a then those of b. */
static inline tmv_v lane_even(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: {
        const tmv_v m = MM(set1_epi16)(0x00ff);
        return MM(packus_epi16)(TMV_SI(and)(a, m), TMV_SI(and)(b, m));
    }
    case 2: return MM(packs_epi32)(MM(srai_epi32)(MM(slli_epi32)(a, 16), 16),
                                   MM(srai_epi32)(MM(slli_epi32)(b, 16), 16));
    case 4: return TMV_CAST_SI(MM(shuffle_ps)(TMV_CAST_PS(a), TMV_CAST_PS(b), 0x88));
    default: return MM(unpacklo_epi64)(a, b);
    }
}

static inline tmv_v lane_odd(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return MM(packus_epi16)(MM(srli_epi16)(a, 8), MM(srli_epi16)(b, 8));
    case 2: return MM(packs_epi32)(MM(srai_epi32)(a, 16), MM(srai_epi32)(b, 16));
    case 4: return TMV_CAST_SI(MM(shuffle_ps)(TMV_CAST_PS(a), TMV_CAST_PS(b), 0xdd));
    default: return MM(unpackhi_epi64)(a, b);
    }
}

/* Lane-local pack results [a0 b0 | a1 b1 | ...] in qwords, put in whole-vector order. */
static inline tmv_v lane_fix(const tmv_vctx *c, tmv_v v)
{
#if defined(TMV_COPY_AVX512)
    return _mm512_permutexvar_epi64(c->fix_even, v);
#elif defined(TMV_COPY_AVX2)
    (void)c;
    return _mm256_permute4x64_epi64(v, 0xd8);
#else
    (void)c;
    return v;
#endif
}

/* A vector's qwords arranged so that lane-local unpacks take whole halves. */
static inline tmv_v lane_spread(const tmv_vctx *c, tmv_v v)
{
#if defined(TMV_COPY_AVX512)
    return _mm512_permutexvar_epi64(c->fix_lo, v);
#elif defined(TMV_COPY_AVX2)
    (void)c;
    return _mm256_permute4x64_epi64(v, 0xd8);
#else
    (void)c;
    return v;
#endif
}

static inline tmv_v lane_unpacklo(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return MM(unpacklo_epi8)(a, b);
    case 2: return MM(unpacklo_epi16)(a, b);
    case 4: return MM(unpacklo_epi32)(a, b);
    default: return MM(unpacklo_epi64)(a, b);
    }
}

static inline tmv_v lane_unpackhi(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return MM(unpackhi_epi8)(a, b);
    case 2: return MM(unpackhi_epi16)(a, b);
    case 4: return MM(unpackhi_epi32)(a, b);
    default: return MM(unpackhi_epi64)(a, b);
    }
}

/* De-interleave by 2: *e = even elements of a:b, *o = odd ones. */
static inline void v_unzip(const tmv_vctx *c, tmv_v a, tmv_v b, tmv_v *e, tmv_v *o, size_t w)
{
#if defined(TMV_PERM2)
    if (v_use_perm2(w)) {
        *e = v_perm2(a, c->even, b, w);
        *o = v_perm2(a, c->odd, b, w);
        return;
    }
#endif
    *e = lane_fix(c, lane_even(a, b, w));
    *o = lane_fix(c, lane_odd(a, b, w));
}

/* Interleave by 2: *l = a0 b0 a1 b1 ... of the low halves, *h of the high halves. */
static inline void v_zip(const tmv_vctx *c, tmv_v a, tmv_v b, tmv_v *l, tmv_v *h, size_t w)
{
#if defined(TMV_PERM2)
    if (v_use_perm2(w)) {
        *l = v_perm2(a, c->lo, b, w);
        *h = v_perm2(a, c->hi, b, w);
        return;
    }
#endif
    a = lane_spread(c, a);
    b = lane_spread(c, b);
    *l = lane_unpacklo(a, b, w);
    *h = lane_unpackhi(a, b, w);
}

/* ---- B vectors at a time ---- */

#if defined(TMV_PERM2)
/* B = 3 either way: each output vector is two chained two-source permutes of
 * the three inputs, with the index tables in c->chain (set per direction). */
static inline void v_permute3(const tmv_vctx *c, tmv_v *v, size_t w)
{
    tmv_v out[3];
    for (unsigned j = 0; j < 3; j++)
        out[j] = v_perm2(v_perm2(v[0], c->chain[j][0], v[1], w), c->chain[j][1], v[2], w);
    for (unsigned j = 0; j < 3; j++)
        v[j] = out[j];
}
#endif

/* v[0..b) hold b*n consecutive elements; afterwards v[j] holds elements
 * j, j+b, j+2b, ... For b a power of two: log2(b) rounds of unzipping pairs. */
static inline void v_deinterleave(const tmv_vctx *c, tmv_v *v, unsigned b, size_t w)
{
#if defined(TMV_PERM2)
    if (b == 3) {
        v_permute3(c, v, w);
        return;
    }
#endif
    for (unsigned round = 1; round < b; round *= 2) {
        tmv_v u[8];
        for (unsigned p = 0; p < b / 2; p++)
            v_unzip(c, v[2 * p], v[2 * p + 1], &u[p], &u[p + b / 2], w);
        for (unsigned j = 0; j < b; j++)
            v[j] = u[j];
    }
}

/* The inverse: v[j] holds n elements of row j; afterwards v[0..b) hold the
 * rows interleaved (row 0's first, row 1's first, ...). */
static inline void v_interleave(const tmv_vctx *c, tmv_v *v, unsigned b, size_t w)
{
#if defined(TMV_PERM2)
    if (b == 3) {
        v_permute3(c, v, w);
        return;
    }
#endif
    for (unsigned round = 1; round < b; round *= 2) {
        tmv_v u[8];
        for (unsigned p = 0; p < b / 2; p++)
            v_zip(c, v[p], v[p + b / 2], &u[2 * p], &u[2 * p + 1], w);
        for (unsigned j = 0; j < b; j++)
            v[j] = u[j];
    }
}

#if defined(TMV_MASKED)
static inline __mmask64 v_mask(uint64_t bytes)
{
    return bytes >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << bytes) - 1;
}
#endif

/* ---- rows ---- */

/* Row geometry shared by both directions: n elements of w bytes per vector. */
typedef struct tmv_rows {
    uint64_t x;         /* elements per plane row */
    uint64_t plane;     /* bytes between the B plane rows */
    uint64_t rows;      /* rows handled inline (the dim just outside the block) */
    uint64_t row_src, row_dst;
} tmv_rows;

/* One group: b*n source elements at src -> n elements at each dst + j*plane. */
static inline void deinterleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                      uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned k = 0; k < b; k++)
        v[k] = v_load(src + k * TMV_VB);
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

static inline void interleave_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                    uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = v_load(src + j * plane);
    v_interleave(c, v, b, w);
    for (unsigned k = 0; k < b; k++)
        v_store(dst + k * TMV_VB, v[k]);
}

/* SPACE_TO_DEPTH's row: b*x contiguous source elements to b plane rows of x. */
static inline void deinterleave_row(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                    const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    uint64_t i = 0;
    for (; i + n <= r->x; i += n)
        deinterleave_group(c, src + i * b * w, dst + i * w, r->plane, b, w);
    if (i == r->x)
        return;
#if defined(TMV_MASKED)
    const uint64_t rem = (r->x - i) * w;   /* bytes of each plane row left */
    tmv_v v[8];
    for (unsigned k = 0; k < b; k++) {
        const uint64_t before = (uint64_t)k * TMV_VB;
        const uint64_t have = b * rem > before ? b * rem - before : 0;
        v[k] = _mm512_maskz_loadu_epi8(v_mask(have), src + i * b * w + before);
    }
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        _mm512_mask_storeu_epi8(dst + i * w + j * r->plane, v_mask(rem), v[j]);
#else
    /* x >= n (the kernel's accepts): redo the last whole group, overlapping. */
    i = r->x - n;
    deinterleave_group(c, src + i * b * w, dst + i * w, r->plane, b, w);
#endif
}

#if defined(TMV_MASKED)
/* One vector of TMV_VB / run source rows of run bytes (16, 32 or 64), step bytes apart. */
static inline tmv_v v_load_rows(const uint8_t *src, uint64_t step, uint64_t run)
{
    if (run == 64)
        return v_load(src);
    if (run == 32)
        return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)src)),
                                  _mm256_loadu_si256((const __m256i *)(const void *)(src + step)), 1);
    tmv_v v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)src));
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + step)), 1);
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + 2 * step)), 2);
    return _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(src + 3 * step)), 3);
}

/* The inverse: stores a vector as TMV_VB / run rows of run bytes, step bytes apart. */
static inline void v_store_rows(uint8_t *dst, uint64_t step, uint64_t run, tmv_v v)
{
    if (run == 64) {
        v_store(dst, v);
    } else if (run == 32) {
        _mm256_storeu_si256((__m256i *)(void *)dst, _mm512_castsi512_si256(v));
        _mm256_storeu_si256((__m256i *)(void *)(dst + step), _mm512_extracti64x4_epi64(v, 1));
    } else {
        _mm_storeu_si128((__m128i *)(void *)dst, _mm512_castsi512_si128(v));
        _mm_storeu_si128((__m128i *)(void *)(dst + step), _mm512_extracti32x4_epi32(v, 1));
        _mm_storeu_si128((__m128i *)(void *)(dst + 2 * step), _mm512_extracti32x4_epi32(v, 2));
        _mm_storeu_si128((__m128i *)(void *)(dst + 3 * step), _mm512_extracti32x4_epi32(v, 3));
    }
}

/* SPACE_TO_DEPTH's rows whose b*x-element source runs are 16, 32 or 64 bytes
 * and whose plane rows follow each other in the destination (row_dst = x*w):
 * b vectors hold the runs of b*TMV_VB/run rows, which de-interleave to one
 * whole vector of each plane, instead of one short masked store per plane
 * and row. Leftover rows go one at a time. */
static inline void deinterleave_rows_packed(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                            const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t run = b * r->x * w, per_vector = TMV_VB / run, group = b * per_vector;
    uint64_t y = 0;
    for (; y + group <= r->rows; y += group, src += group * r->row_src, dst += TMV_VB) {
        tmv_v v[8];
        for (unsigned k = 0; k < b; k++)
            v[k] = v_load_rows(src + k * per_vector * r->row_src, r->row_src, run);
        v_deinterleave(c, v, b, w);
        for (unsigned j = 0; j < b; j++)
            v_store(dst + j * r->plane, v[j]);
    }
    for (; y < r->rows; y++, src += r->row_src, dst += r->row_dst)
        deinterleave_row(c, src, dst, r, b, w);
}
#endif

/* DEPTH_TO_SPACE's row: b plane rows of x elements to b*x contiguous ones. */
static inline void interleave_row(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                  const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    uint64_t i = 0;
    for (; i + n <= r->x; i += n)
        interleave_group(c, src + i * w, dst + i * b * w, r->plane, b, w);
    if (i == r->x)
        return;
#if defined(TMV_MASKED)
    const uint64_t rem = (r->x - i) * w;
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = _mm512_maskz_loadu_epi8(v_mask(rem), src + i * w + j * r->plane);
    v_interleave(c, v, b, w);
    for (unsigned k = 0; k < b; k++) {
        const uint64_t before = (uint64_t)k * TMV_VB;
        const uint64_t have = b * rem > before ? b * rem - before : 0;
        _mm512_mask_storeu_epi8(dst + i * b * w + before, v_mask(have), v[k]);
    }
#else
    i = r->x - n;
    interleave_group(c, src + i * w, dst + i * b * w, r->plane, b, w);
#endif
}

#if defined(TMV_MASKED)
/* DEPTH_TO_SPACE's rows whose b*x-element destination runs are 16, 32 or 64
 * bytes and whose plane rows follow each other in the source (row_src = x*w):
 * one whole vector of each plane interleaves to the runs of b*TMV_VB/run rows. */
static inline void interleave_rows_packed(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                          const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t run = b * r->x * w, per_vector = TMV_VB / run, group = b * per_vector;
    uint64_t y = 0;
    for (; y + group <= r->rows; y += group, src += TMV_VB, dst += group * r->row_dst) {
        tmv_v v[8];
        for (unsigned j = 0; j < b; j++)
            v[j] = v_load(src + j * r->plane);
        v_interleave(c, v, b, w);
        for (unsigned k = 0; k < b; k++)
            v_store_rows(dst + k * per_vector * r->row_dst, r->row_dst, run, v[k]);
    }
    for (; y < r->rows; y++, src += r->row_src, dst += r->row_dst)
        interleave_row(c, src, dst, r, b, w);
}
#endif

/* ---- shapes (see shape.h: the two innermost dims are the block) ---- */

/* Block size of a SPACE_TO_DEPTH de-interleave shape (0 if it is not one):
 * inner dim x elements, source stride b*w, destination stride w; dim rank-2
 * b elements, source stride w, any destination stride (the plane step). */
static inline unsigned deinterleave_block(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[blk];
    if ((w != 1 && w != 2 && w != 4 && w != 8) || b > 8 || s->src_strides[in] != b * w ||
        s->dst_strides[in] != w || s->src_strides[blk] != w)
        return 0;
    return (unsigned)b;
}

/* Block size of a DEPTH_TO_SPACE interleave shape (0 if it is not one):
 * inner dim b elements, any source stride (the plane step), destination
 * stride w; dim rank-2 x elements, source stride w, destination stride b*w. */
static inline unsigned interleave_block(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[in];
    if ((w != 1 && w != 2 && w != 4 && w != 8) || b > 8 || s->dst_strides[in] != w ||
        s->src_strides[blk] != w || s->dst_strides[blk] != b * w)
        return 0;
    return (unsigned)b;
}

/* x of either block shape: the plane-row length in elements. */
static inline uint64_t deinterleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 1]; }
static inline uint64_t interleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 2]; }

#if defined(TMV_MASKED)
/* The dim whose rows {de,}interleave_rows_packed takes (-1: none): runs of
 * b*x elements of 16, 32 or 64 bytes, the plane rows contiguous along the
 * dim (in the destination for the de-interleave, in the source for the
 * interleave) and at least one whole group of them. That dim is the one just
 * outside the block or the next (DEPTH_TO_SPACE's rows lie outside its
 * block-row dim). */
static inline int block_pack_dim(const tmv_copy_shape *s, unsigned b, uint64_t w, bool inter)
{
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s), run = b * x * w;
    if (!(b == 2 || b == 4 || b == 8) || !(run == 16 || run == 32 || run == 64))
        return -1;
    for (uint32_t d = s->rank - 2; d-- > 0 && d + 5 > s->rank;)
        if ((inter ? s->src_strides[d] : s->dst_strides[d]) == x * w && s->sizes[d] >= b * TMV_VB / run)
            return (int)d;
    return -1;
}

/* A packed block shape: the rows along dim pd, the dim between it and the
 * block (if any) looped here, the rest walked. */
static inline void packed_shape(const tmv_vctx *c, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w, uint32_t pd, uint64_t x, uint64_t plane)
{
    const tmv_rows r = {x, plane, s->sizes[pd], s->src_strides[pd], s->dst_strides[pd]};
    const bool mid = pd + 4 == s->rank;
    const uint64_t mids = mid ? s->sizes[pd + 1] : 1;
    const uint64_t mid_src = mid ? s->src_strides[pd + 1] : 0, mid_dst = mid ? s->dst_strides[pd + 1] : 0;
    tmv_walk walk;
    tmv_walk_init(&walk, s, pd);
    do {
        for (uint64_t m = 0; m < mids; m++) {
            const uint8_t *sp = src + walk.src + m * mid_src;
            uint8_t *dp = dst + walk.dst + m * mid_dst;
            if (inter)
                interleave_rows_packed(c, sp, dp, &r, b, w);
            else
                deinterleave_rows_packed(c, sp, dp, &r, b, w);
        }
    } while (tmv_walk_next(&walk));
}

/* A packed shape, instantiated for each block size at the constant width w. */
static inline void packed_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w, uint32_t pd)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t plane = inter ? s->src_strides[s->rank - 1] : s->dst_strides[s->rank - 2];
    switch (b) {
    case 2: packed_shape(&c, s, src, dst, inter, 2, w, pd, x, plane); break;
    case 4: packed_shape(&c, s, src, dst, inter, 4, w, pd, x, plane); break;
    default: packed_shape(&c, s, src, dst, inter, 8, w, pd, x, plane); break;
    }
}

/* Runs a packed shape. Flattened: every width gets its own copy with all
 * helpers inlined (left to itself gcc called v_deinterleave and v_load_rows
 * out of line, at a third of the speed), while the row-at-a-time kernels keep
 * the inlining they were measured with (forcing it there lost up to 25%). */
__attribute__((flatten)) static inline void packed_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                                       bool inter, unsigned widths, unsigned b, uint32_t pd)
{
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) packed_width(s, src, dst, inter, b, 1, pd); break;
    case 2: if (widths & 4u) packed_width(s, src, dst, inter, b, 2, pd); break;
    case 4: if (widths & 16u) packed_width(s, src, dst, inter, b, 4, pd); break;
    default: if (widths & 256u) packed_width(s, src, dst, inter, b, 8, pd); break;
    }
}
#endif

/* Walks the dims outside the block: the one just outside inline, the rest
 * through tmv_walk (once per inline run of rows, so small rows stay cheap). */
static inline tmv_rows rows_of(const tmv_copy_shape *s, uint64_t x, uint64_t plane)
{
    tmv_rows r = {x, plane, 1, 0, 0};
    if (s->rank >= 3) {
        r.rows = s->sizes[s->rank - 3];
        r.row_src = s->src_strides[s->rank - 3];
        r.row_dst = s->dst_strides[s->rank - 3];
    }
    return r;
}

static inline void deinterleave_shape(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                      unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
    const tmv_rows r = rows_of(s, deinterleave_x(s), s->dst_strides[s->rank - 2]);
    tmv_walk walk;
    tmv_walk_init(&walk, s, s->rank >= 3 ? s->rank - 3 : 0);
    do {
        const uint8_t *sp = src + walk.src;
        uint8_t *dp = dst + walk.dst;
        for (uint64_t y = 0; y < r.rows; y++, sp += r.row_src, dp += r.row_dst)
            deinterleave_row(&c, sp, dp, &r, b, w);
    } while (tmv_walk_next(&walk));
}

static inline void interleave_shape(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                    unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
#if defined(TMV_PERM2)
    if (b == 3)
        v_ctx_chain_interleave(&c, w);
#endif
    const tmv_rows r = rows_of(s, interleave_x(s), s->src_strides[s->rank - 1]);
    tmv_walk walk;
    tmv_walk_init(&walk, s, s->rank >= 3 ? s->rank - 3 : 0);
    do {
        const uint8_t *sp = src + walk.src;
        uint8_t *dp = dst + walk.dst;
        for (uint64_t y = 0; y < r.rows; y++, sp += r.row_src, dp += r.row_dst)
            interleave_row(&c, sp, dp, &r, b, w);
    } while (tmv_walk_next(&walk));
}

/* Whether this set takes block size b, width w and rows of x elements.
 * Without masked tails a row must hold one whole vector. Zen 4 runs 512-bit
 * loads and stores as two 256-bit halves, so AVX-512 gains only where its
 * one-instruction two-source permutes replace AVX2's shuffle pairs by
 * enough to pay for the masked row tail: rows of at least four vectors, any
 * row for B = 3 (AVX2 has no kernel for it), and with vpermt2b any byte row
 * for B >= 3 of the de-interleave (measured: bench space_to_depth/depth_to_space, L2 and DRAM). */
static inline bool block_supported(bool inter, unsigned b, uint64_t w, uint64_t x)
{
    const uint64_t n = TMV_VB / w;
#if defined(TMV_COPY_AVX512VBMI)
    if (inter ? b != 3 : b == 2 && x < 4 * n)
        return false;   /* the interleave gained nothing over AVX2's unpacks but for B = 3 */
#elif defined(TMV_COPY_AVX512)
    if (b != 3 && x < 4 * n)
        return false;
#else
    if (x < n)
        return false;
#endif
    (void)inter;
#if defined(TMV_PERM2)
    if (b == 3)
        return v_use_perm2((size_t)w);
#endif
    return b == 2 || b == 4 || b == 8;
}

static inline void block_shape(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                               bool inter, unsigned b, size_t w)
{
    if (inter)
        interleave_shape(s, src, dst, b, w);
    else
        deinterleave_shape(s, src, dst, b, w);
}

/* One instantiation per block size for a constant width w. */
static inline void block_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                               bool inter, unsigned b, size_t w)
{
    switch (b) {
    case 2: block_shape(s, src, dst, inter, 2, w); break;
#if defined(TMV_PERM2)
    case 3:
        if (v_use_perm2(w))
            block_shape(s, src, dst, inter, 3, w);
        break;
#endif
    case 4: block_shape(s, src, dst, inter, 4, w); break;
    default: block_shape(s, src, dst, inter, 8, w); break;
    }
}

/* Runs an accepted block shape; `widths` (a constant: bit w set for each
 * element width this set has kernels for) keeps the others from being built. */
static inline void block_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                             bool inter, unsigned widths)
{
    const unsigned b = inter ? interleave_block(s) : deinterleave_block(s);
#if defined(TMV_MASKED)
    const int pd = block_pack_dim(s, b, s->elem_bytes, inter);
    if (pd >= 0) {
        packed_run(s, src, dst, inter, widths, b, (uint32_t)pd);
        return;
    }
#endif
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) block_width(s, src, dst, inter, b, 1); break;
    case 2: if (widths & 4u) block_width(s, src, dst, inter, b, 2); break;
    case 4: if (widths & 16u) block_width(s, src, dst, inter, b, 4); break;
    default: if (widths & 256u) block_width(s, src, dst, inter, b, 8); break;
    }
}

static inline bool block_accepts(const tmv_copy_shape *s, bool inter, unsigned widths)
{
    const unsigned b = inter ? interleave_block(s) : deinterleave_block(s);
    if (b == 0 || !(widths >> s->elem_bytes & 1u))
        return false;
#if defined(TMV_MASKED)
    if (block_pack_dim(s, b, s->elem_bytes, inter) >= 0)
        return true;
#endif
    return block_supported(inter, b, s->elem_bytes, inter ? interleave_x(s) : deinterleave_x(s));
}

/* The exported kernels of a set for the widths in `widths` (bit w for w bytes):
 * tmv_copy_{de,}interleave_<set> and their accepts. */
#define TMV_COPY_INTERLEAVE_KERNELS(set, widths)                                                 \
    bool tmv_copy_accepts_deinterleave_##set(const tmv_copy_shape *s)                           \
    {                                                                                           \
        return block_accepts(s, false, widths);                                                 \
    }                                                                                           \
    void tmv_copy_deinterleave_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) \
    {                                                                                           \
        block_run(s, src, dst, false, widths);                                                  \
    }                                                                                           \
    bool tmv_copy_accepts_interleave_##set(const tmv_copy_shape *s)                             \
    {                                                                                           \
        return block_accepts(s, true, widths);                                                  \
    }                                                                                           \
    void tmv_copy_interleave_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)   \
    {                                                                                           \
        block_run(s, src, dst, true, widths);                                                   \
    }

#endif
