/* copy_x86.h - the B-way row (de)interleave behind SPACE_TO_DEPTH / DEPTH_TO_SPACE, written once for SSE2, AVX2 and AVX-512.
 *
 * Static inline only, but for three static out-of-line functions
 * (seq_load_pieces, stream_run_interleave, stream_run_deinterleave; internal
 * linkage keeps each set's copy its own). The including file defines exactly one of
 * TMV_COPY_SSE2, TMV_COPY_AVX2, TMV_COPY_AVX512 or TMV_COPY_AVX512VBMI (the
 * set it is compiled for) and then wraps the entry points at the bottom in
 * its exported kernel. The same intrinsic names exist at 128, 256 and 512
 * bits (MM(packus_epi16) is _mm_, _mm256_ or _mm512_packus_epi16), so one
 * body serves all sets; what differs is how a lane-local shuffle is made
 * whole-vector (nothing, lane-split loads or vpermq, or a two-source
 * permute) and how a row's tail is done (masked on AVX-512, else one
 * overlapping vector). AVX-512
 * also walks shapes whose output runs on across rows as streams of whole
 * vectors (see "streams" below), non-temporal from the tuning record's stream_threshold on. */
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
/* A two-source index vector of elements of w bytes: element i is f[i]. Only
 * the B = 3 tables are built this way (a scalar loop per call). */
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

static inline tmv_v v_add(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return _mm512_add_epi8(a, b);
    case 2: return _mm512_add_epi16(a, b);
    case 4: return _mm512_add_epi32(a, b);
    default: return _mm512_add_epi64(a, b);
    }
}

static inline tmv_v v_set1(uint64_t x, size_t w)
{
    switch (w) {
    case 1: return _mm512_set1_epi8((char)x);
    case 2: return _mm512_set1_epi16((short)x);
    case 4: return _mm512_set1_epi32((int)x);
    default: return _mm512_set1_epi64((long long)x);
    }
}

/* Element i = i, at width w: widened from one constant byte ramp, so the
 * index vectors cost a few instructions per call instead of table loops. */
static inline tmv_v v_iota(size_t w)
{
    static const uint8_t ramp[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
    switch (w) {
    case 1: return v_load(ramp);
    case 2: return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)ramp));
    case 4: return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)ramp));
    default: return _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(const void *)ramp));
    }
}
#endif

static inline void v_ctx_init(tmv_vctx *c, size_t w, unsigned b)
{
#if defined(TMV_PERM2)
    const unsigned n = 64 / (unsigned)w;   /* elements per vector */
    const tmv_v i = v_iota(w), one = v_set1(1, w);
    /* i / 2 in every width: the 16-bit shift's stray top bit is masked off
     * for bytes (all indices are below 128). */
    const tmv_v half = _mm512_and_si512(_mm512_srli_epi16(i, 1), v_set1(w == 1 ? 0x7f : 0x7fff, w));
    /* n where i is odd: a byte subtract 0 - 1 sets the low byte, enough for n < 256 */
    const tmv_v odd_n = _mm512_and_si512(_mm512_sub_epi8(_mm512_setzero_si512(), _mm512_and_si512(i, one)),
                                         v_set1(n, w));
    c->even = v_add(i, i, w);                             /* even of a:b */
    c->odd = v_add(c->even, one, w);                      /* odd of a:b */
    c->lo = _mm512_or_si512(half, odd_n);                 /* interleave low halves */
    c->hi = v_add(c->lo, v_set1(n / 2, w), w);            /* interleave high halves */
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
            for (unsigned e = 0; e < n; e++) {
                unsigned src = 3 * e + j, q = src / n, r = src % n;
                g[0][e] = (uint16_t)(q == 0 ? r : q == 1 ? n + r : 0);
                g[1][e] = (uint16_t)(q == 2 ? n + r : e);
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
    (void)c;
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

/* Lane-local pack results [a0 b0 | a1 b1 | ...] in qwords, put in
 * whole-vector order. Nothing to do with one lane (SSE2) or with AVX2's
 * lane-split loads (see v_load_group). */
static inline tmv_v lane_fix(const tmv_vctx *c, tmv_v v)
{
#if defined(TMV_COPY_AVX512)
    return _mm512_permutexvar_epi64(c->fix_even, v);
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

/* Source vector k of a de-interleave group of b vectors at src. AVX2 loads
 * it lane-split: lane 0 the k-th 16 bytes of the group's first half, lane 1
 * of its second half. The lane-local unzips then de-interleave each half
 * as SSE2 would and their results are whole vectors in order, with no
 * cross-lane fix after every round (B = 4: 8 shuffles a group instead of
 * 16). */
static inline tmv_v v_load_group(const uint8_t *src, unsigned k, unsigned b)
{
#if defined(TMV_COPY_AVX2)
    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * k));
    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(src + 16 * (b + k)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
#else
    (void)b;
    return v_load(src + k * TMV_VB);
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
    /* The shape in locals and a count, two groups per iteration: in the
     * flattened caller this loop had its invariants spilled, and this took
     * the 8 KiB SPACE_TO_DEPTH from 147 ns to 116 ns (unrolling 4: no more). */
    const uint64_t step = r->row_src, plane = r->plane, groups = r->rows / group;
#pragma GCC unroll 2
    for (uint64_t g = 0; g < groups; g++, src += group * step, dst += TMV_VB) {
        tmv_v v[8];
        for (unsigned k = 0; k < b; k++)
            v[k] = v_load_rows(src + k * per_vector * step, step, run);
        v_deinterleave(c, v, b, w);
        for (unsigned j = 0; j < b; j++)
            v_store(dst + j * plane, v[j]);
    }
    for (uint64_t y = groups * group; y < r->rows; y++, src += r->row_src, dst += r->row_dst)
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
    const uint64_t step = r->row_dst, plane = r->plane, groups = r->rows / group;   /* see deinterleave_rows_packed */
#pragma GCC unroll 2
    for (uint64_t g = 0; g < groups; g++, src += TMV_VB, dst += group * step) {
        tmv_v v[8];
        for (unsigned j = 0; j < b; j++)
            v[j] = v_load(src + j * plane);
        v_interleave(c, v, b, w);
        for (unsigned k = 0; k < b; k++)
            v_store_rows(dst + k * per_vector * step, step, run, v[k]);
    }
    for (uint64_t y = groups * group; y < r->rows; y++, src += r->row_src, dst += r->row_dst)
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
/* ---- streams: the rows of a block shape as one run of whole vectors ----
 *
 * In NCHW the side of the copy whose rows follow each other in memory (the
 * de-interleave's planes, the interleave's output) is one contiguous stream
 * across many short rows. Walking that stream in whole vectors makes every
 * store full (and alignable for non-temporal stores), and the other side's
 * row seams cost a second masked load instead of a masked store per row. */

/* The rows of the other side: row (r1, r0) at r1*s1 + r0*s0, len bytes each. */
typedef struct tmv_seq {
    uint64_t len, r0s, s0, s1;
} tmv_seq;

/* A position in a tmv_seq: row at offset row (outer: its r1's row 0), off bytes in. */
typedef struct tmv_cursor {
    uint64_t outer, row, off, r0;
} tmv_cursor;

static inline void seq_next_row(const tmv_seq *q, tmv_cursor *c)
{
    c->off = 0;
    if (++c->r0 < q->r0s) {
        c->row += q->s0;
    } else {
        c->r0 = 0;
        c->outer += q->s1;
        c->row = c->outer;
    }
}

static inline void seq_advance(const tmv_seq *q, tmv_cursor *c, uint64_t bytes)
{
    c->off += bytes;
    while (c->off >= q->len) {
        const uint64_t over = c->off - q->len;
        seq_next_row(q, c);
        c->off = over;
    }
}

/* The want (<= 64) bytes at c, from as many rows as they span (rows
 * seq_long). A piece for vector bytes [filled, ...) is loaded from its row
 * start minus filled with those bytes masked in: every row but the first
 * starts 64 or more bytes in, so that address stays inside the tensor.
 * Kept out of line (static, so private to the set's file): it serves only
 * seams and partial groups, and inlined it crowded the whole-vector loop. */
__attribute__((noinline)) static tmv_v seq_load_pieces(const tmv_seq *q, tmv_cursor c, const uint8_t *base, uint64_t want)
{
    uint64_t filled = q->len - c.off < want ? q->len - c.off : want;
    tmv_v v = _mm512_maskz_loadu_epi8(v_mask(filled), base + c.row + c.off);
    while (filled < want) {
        seq_next_row(q, &c);
        const uint64_t n = q->len < want - filled ? q->len : want - filled;
        const __mmask64 m = v_mask(filled + n) & ~v_mask(filled);
        v = _mm512_mask_loadu_epi8(v, m, base + c.row - filled);
        filled += n;
    }
    return v;
}

/* The offset of the row after c's. */
static inline uint64_t seq_next_offset(const tmv_seq *q, const tmv_cursor *c)
{
    return c->r0 + 1 < q->r0s ? c->row + q->s0 : c->outer + q->s1;
}

/* The next 64 bytes of the rows at c (there are that many; rows seq_long):
 * one load, or at a seam two masked loads. */
static inline tmv_v seq_load64(const tmv_seq *q, const tmv_cursor *c, const uint8_t *base)
{
    if (c->off + 64 <= q->len)
        return v_load(base + c->row + c->off);
    const uint64_t first = q->len - c->off;
    const tmv_v v = _mm512_maskz_loadu_epi8(v_mask(first), base + c->row + c->off);
    return _mm512_mask_loadu_epi8(v, ~v_mask(first), base + seq_next_offset(q, c) - first);
}

/* Moves c 64 bytes on (rows seq_long: into the next row at most). */
static inline void seq_step64(const tmv_seq *q, tmv_cursor *c)
{
    c->off += 64;
    if (c->off >= q->len) {
        const uint64_t over = c->off - q->len;
        seq_next_row(q, c);
        c->off = over;
    }
}

/* A full vector to an output stream: non-temporal when streaming (dst aligned). */
static inline void stream_store(uint8_t *dst, tmv_v v, bool nt)
{
    if (nt)
        _mm512_stream_si512((void *)dst, v);
    else
        v_store(dst, v);
}

/* Elements before the stream at dst reaches a 64-byte boundary (every
 * pointer in the stream moves in steps of `step` bytes per element); false
 * when it never does. */
static inline bool stream_head(const uint8_t *dst, uint64_t step, uint64_t *head)
{
    const uint64_t mis = (64 - ((uintptr_t)dst & 63)) & 63;
    *head = mis / step;
    return mis % step == 0;
}

/* SPACE_TO_DEPTH's partial group: k < n elements of each plane. */
static inline void deinterleave_part(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                     uint8_t *dst, uint64_t k, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned i = 0; i < b; i++) {
        const uint64_t before = (uint64_t)i * TMV_VB, bytes = b * k * w;
        const uint64_t want = bytes > before ? (bytes - before < 64 ? bytes - before : 64) : 0;
        v[i] = _mm512_setzero_si512();
        if (want) {
            v[i] = seq_load_pieces(q, *cur, src, want);
            seq_advance(q, cur, want);
        }
    }
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        _mm512_mask_storeu_epi8(dst + j * plane, v_mask(k * w), v[j]);
}

/* SPACE_TO_DEPTH's next whole group: b source vectors at cur, de-interleaved into v. */
static inline void deinterleave_load(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                     tmv_v *v, unsigned b, size_t w)
{
#pragma GCC unroll 8
    for (unsigned i = 0; i < b; i++) {
        v[i] = seq_load64(q, cur, src);
        seq_step64(q, cur);
    }
    v_deinterleave(c, v, b, w);
}

/* The next whole group to one vector of each plane at dst (plain stores). */
static inline void deinterleave_whole(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                      uint8_t *dst, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    deinterleave_load(c, q, cur, src, v, b, w);
#pragma GCC unroll 8
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

/* Non-temporal stores need 64-byte aligned lines, but b planes whose
 * distance is no multiple of 64 (a u8 plane of 2365 x 2364) are not aligned
 * alike. The stream's groups are then aligned for plane 0, and each other
 * plane's vector is stored shifted by the `mis` bytes that plane lies past
 * a line: the line's first mis bytes from the plane's previous vector, the
 * rest from this one (a two-source permute). Only the stream's first line
 * and its last vector's leftover go as masked plain stores: plain stores
 * in every segment made the stream 2x slower than no streaming at all
 * (the non-temporal stores then met lines the plain ones had brought in). */
typedef struct tmv_realign {
    tmv_v    idx[8];   /* two-source (previous, current) indices of the shift */
    uint64_t mis[8];   /* bytes past a line when plane 0's store is aligned */
} tmv_realign;

/* False when some plane needs a shift this set cannot make (bytes without
 * VBMI, or a shift by part of an element). */
static inline bool realign_init(tmv_realign *ra, uint64_t plane, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    for (unsigned j = 0; j < b; j++) {
        ra->mis[j] = j * plane % 64;
        if (ra->mis[j] % w != 0 || (ra->mis[j] != 0 && !v_use_perm2(w)))
            return false;
        ra->idx[j] = v_add(v_iota(w), v_set1(n - ra->mis[j] / w, w), w);
    }
    return true;
}

/* The next whole group to the planes at dst, non-temporal: `first` is the
 * stream's first group (the shifted planes' lines before it are not ours);
 * prev holds each plane's previous vector and gets this one. */
static inline void realign_whole(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                 uint8_t *dst, uint64_t plane, const tmv_realign *ra, tmv_v *prev, unsigned b,
                                 size_t w, bool first)
{
    tmv_v v[8];
    deinterleave_load(c, q, cur, src, v, b, w);
#pragma GCC unroll 8
    for (unsigned j = 0; j < b; j++) {
        uint8_t *at = dst + j * plane;
        const uint64_t mis = ra->mis[j];
        if (mis == 0) {
            _mm512_stream_si512((void *)at, v[j]);
            continue;
        }
        /* first: nothing carried; the permute's bytes from it are masked off */
        const tmv_v line = v_perm2(first ? v[j] : prev[j], ra->idx[j], v[j], w);
        if (first)
            _mm512_mask_storeu_epi8(at - mis, ~v_mask(mis), line);
        else
            _mm512_stream_si512((void *)(at - mis), line);
        prev[j] = v[j];
    }
}

/* The shifted planes' last mis bytes, just before dst (where the groups ended). */
static inline void realign_flush(uint8_t *dst, uint64_t plane, const tmv_v *prev, const tmv_realign *ra,
                                 unsigned b)
{
    for (unsigned j = 0; j < b; j++)
        if (ra->mis[j] != 0)
            _mm512_mask_storeu_epi8(dst + j * plane - 64, ~v_mask(64 - ra->mis[j]), prev[j]);
}

/* SPACE_TO_DEPTH: elements [begin, end) of each of b contiguous planes of
 * `total` from the source rows (b*x elements each, along the seq). The
 * first `head` elements go as a partial group (aligning plane 0 for the
 * non-temporal stores, made when ra is not NULL, with the shifted planes'
 * carries in prev); after it, ranges start and end on whole vectors but at
 * the end of the planes. */
static inline void deinterleave_stream(const tmv_vctx *c, const tmv_seq *q, uint64_t x, const uint8_t *src,
                                       uint8_t *dst, uint64_t begin, uint64_t end, uint64_t total, uint64_t head,
                                       uint64_t plane, unsigned b, size_t w, const tmv_realign *ra, tmv_v *prev)
{
    const uint64_t n = TMV_VB / w;
    tmv_cursor cur = {0, begin / x * q->s0, begin % x * b * w, begin / x};
    uint64_t done = begin;
    if (done < head) {
        deinterleave_part(c, q, &cur, src, dst + done * w, head - done, plane, b, w);
        done = head;
    }
    if (ra) {
        for (; done + n <= end; done += n)
            realign_whole(c, q, &cur, src, dst + done * w, plane, ra, prev, b, w, done == head);
        if (end == total && done > head)
            realign_flush(dst + done * w, plane, prev, ra, b);
    } else if (w == 1) {
        /* Bytes run two groups per iteration (measured 2-4% faster in L2);
         * wider elements, whose shorter rows put a seam in most groups,
         * lost as much that way. */
#pragma GCC unroll 2
        for (; done + n <= end; done += n)
            deinterleave_whole(c, q, &cur, src, dst + done * w, plane, b, w);
    } else {
        for (; done + n <= end; done += n)
            deinterleave_whole(c, q, &cur, src, dst + done * w, plane, b, w);
    }
    if (done < end)
        deinterleave_part(c, q, &cur, src, dst + done * w, end - done, plane, b, w);
}

/* SPACE_TO_DEPTH's streams, `total` elements per plane, at each position of
 * the dims outside the seq. The dim just outside it (DCR's and CRD's block
 * row) is looped inside segments of the streams: its streams read
 * interleaved source rows, so together they read the source in order
 * instead of each sweeping all of it.
 *
 * In cache a segment is 16 KiB of source, in whole vectors: the block rows'
 * passes over it then meet its lines still in L1 (B = 2 in L2: +10%; 8 and
 * 32 KiB lost that again). Streaming to memory it is one plane row, each
 * segment starting at the whole group nearest below its row, so the source
 * is read in order: two rows per segment read it as 0, 2, 1, 3, ... and ran
 * at half the speed at B = 2 (5.1 against 2.6 ms for 64 MiB; memcpy 4.0). */
static inline uint64_t segment_start(uint64_t k, uint64_t seg, uint64_t head, uint64_t n, bool rows)
{
    if (k == 0)
        return 0;
    if (!rows)
        return k * seg + head;
    return k * seg > head ? head + (k * seg - head) / n * n : head;
}

static inline void deinterleave_streams(const tmv_vctx *c, const tmv_copy_shape *s, const tmv_seq *q,
                                        const uint8_t *src, uint8_t *dst, uint64_t x, uint64_t total,
                                        uint64_t plane, unsigned b, size_t w, bool nt)
{
    const uint64_t n = TMV_VB / w;
    const bool mid = s->rank >= 4;
    const uint32_t m = mid ? s->rank - 4 : 0;
    const uint64_t mids = mid ? s->sizes[m] : 1, mid_src = mid ? s->src_strides[m] : 0;
    const uint64_t mid_dst = mid ? s->dst_strides[m] : 0;
    tmv_realign ra;
    tmv_v prev[8][8];   /* each block row's carries (the stream's first group sets them) */
    const bool realign = nt && mids <= 8 && realign_init(&ra, plane, b, w);
    const uint64_t seg = nt ? x : ((16384 / (b * w * mids)) / n + 1) * n;
    tmv_walk walk;
    tmv_walk_init(&walk, s, m);
    do {
        for (uint64_t k = 0; k * seg < total; k++) {
            for (uint64_t i = 0; i < mids; i++) {
                uint8_t *d = dst + walk.dst + i * mid_dst;
                uint64_t head = 0;
                const bool aligned = realign && stream_head(d, w, &head);
                head = aligned && head < total ? head : aligned ? total : 0;
                const uint64_t begin = segment_start(k, seg, head, n, nt);
                const uint64_t next = segment_start(k + 1, seg, head, n, nt);
                const uint64_t end = (k + 1) * seg < total && next < total ? next : total;
                if (begin < end)
                    deinterleave_stream(c, q, x, src + walk.src + i * mid_src, d, begin, end, total, head, plane,
                                        b, w, aligned ? &ra : NULL, prev[aligned ? i : 0]);
            }
        }
    } while (tmv_walk_next(&walk));
}

/* DEPTH_TO_SPACE's partial group: k < n elements of each plane. */
static inline void interleave_part(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                   uint8_t *dst, uint64_t k, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = seq_load_pieces(q, *cur, src + j * plane, k * w);
    seq_advance(q, cur, k * w);
    v_interleave(c, v, b, w);
    for (unsigned i = 0; i < b; i++) {
        const uint64_t before = (uint64_t)i * TMV_VB, bytes = b * k * w;
        _mm512_mask_storeu_epi8(dst + before, v_mask(bytes > before ? bytes - before : 0), v[i]);
    }
}

/* DEPTH_TO_SPACE: `total` elements of each of b planes (rows of x elements
 * along the seq, plane bytes apart) interleave to one contiguous stream. */
static inline void interleave_stream(const tmv_vctx *c, const tmv_seq *q, const uint8_t *src, uint8_t *dst,
                                     uint64_t total, uint64_t plane, unsigned b, size_t w, bool nt)
{
    const uint64_t n = TMV_VB / w;
    tmv_cursor cur = {0, 0, 0, 0};
    uint64_t done = 0, head = 0;
    if (nt && stream_head(dst, b * w, &head)) {
        head = head < total ? head : total;
        if (head)
            interleave_part(c, q, &cur, src, dst, head, plane, b, w);
        done = head;
    } else {
        nt = false;
    }
    for (; done + n <= total; done += n) {
        tmv_v v[8];
#pragma GCC unroll 8
        for (unsigned j = 0; j < b; j++)
            v[j] = seq_load64(q, &cur, src + j * plane);
        seq_step64(q, &cur);
        v_interleave(c, v, b, w);
#pragma GCC unroll 8
        for (unsigned i = 0; i < b; i++)
            stream_store(dst + done * b * w + i * TMV_VB, v[i], nt);
    }
    if (done < total)
        interleave_part(c, q, &cur, src, dst + done * b * w, total - done, plane, b, w);
}

/* How a block shape streams (stream_dims returns 0 if it does not): the seq
 * of rows of the other side, the rows' count, and how many dims (from the
 * innermost) the stream covers. The de-interleave streams along the dim just
 * outside the block when its planes' rows follow each other; the
 * interleave along the dim outside the block when its output rows do, and
 * the next one too when that continues the output. */
static inline uint32_t stream_dims(const tmv_copy_shape *s, bool inter, unsigned b, uint64_t w, tmv_seq *q,
                                   uint64_t *rows)
{
    if (s->rank < 3)
        return 0;
    const uint32_t r = s->rank - 3;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t run = inter ? b * x * w : x * w;   /* output bytes of one row */
    if (s->dst_strides[r] != run)
        return 0;
    *q = (tmv_seq){inter ? x * w : b * x * w, s->sizes[r], s->src_strides[r], 0};
    *rows = s->sizes[r];
    if (inter && r > 0 && s->dst_strides[r - 1] == run * s->sizes[r]) {
        q->s1 = s->src_strides[r - 1];
        *rows *= s->sizes[r - 1];
        return 4;
    }
    q->s1 = s->src_strides[r] * s->sizes[r];   /* unused: the seq never wraps */
    return 3;
}

/* Rows for seq_load64's two-load seam: a vector long, and every row but
 * the first 64 or more bytes in, so the second address stays in the tensor. */
static inline bool seq_long(const tmv_seq *q, uint32_t dims)
{
    return q->len >= 64 && q->s0 >= 64 && (dims == 3 || q->s1 >= 64);
}

static inline void stream_shape(const tmv_vctx *c, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w)
{
    tmv_seq q = {0, 0, 0, 0};
    uint64_t rows = 0;
    const uint32_t dims = stream_dims(s, inter, b, w, &q, &rows);
    const bool nt = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t plane = inter ? s->src_strides[s->rank - 1] : s->dst_strides[s->rank - 2];
    if (inter) {
        tmv_walk walk;
        tmv_walk_init(&walk, s, s->rank - dims);
        do
            interleave_stream(c, &q, src + walk.src, dst + walk.dst, rows * x, plane, b, w, nt);
        while (tmv_walk_next(&walk));
    } else {
        deinterleave_streams(c, s, &q, src, dst, x, rows * x, plane, b, w, nt);
    }
    if (nt)
        _mm_sfence();
}

/* A stream shape, instantiated for each block size at the constant width w. */
static inline void stream_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
#if defined(TMV_PERM2)
    if (b == 3 && inter)
        v_ctx_chain_interleave(&c, w);
#endif
    switch (b) {
    case 2: stream_shape(&c, s, src, dst, inter, 2, w); break;
#if defined(TMV_PERM2)
    case 3: stream_shape(&c, s, src, dst, inter, 3, w); break;
#endif
    case 4: stream_shape(&c, s, src, dst, inter, 4, w); break;
    default: stream_shape(&c, s, src, dst, inter, 8, w); break;
    }
}

/* Whether a block shape of block size b goes to the stream kernels: rows of
 * at least a vector (shorter ones cost a masked load per piece), streams of
 * at least 16 vectors per plane (the partial head and tail groups are slow),
 * and then where they measured faster than the row kernels (bench
 * space_to_depth / depth_to_space, L2 and DRAM): always when streaming to
 * memory; in cache, the de-interleave for B >= 4, bytes with vpermt2b, or
 * streams of 64 vectors or more (B = 2 gains a few percent on those and
 * loses on shorter ones), and the interleave except bytes at B >= 4. */
static inline bool stream_ok(const tmv_copy_shape *s, bool inter, unsigned b)
{
    const size_t w = (size_t)s->elem_bytes;
    tmv_seq q = {0, 0, 0, 0};
    uint64_t rows = 0;
#if defined(TMV_PERM2)
    const bool perm2 = v_use_perm2(w);
#else
    const bool perm2 = false;
#endif
    if (!(b == 2 || (b == 3 && perm2) || b == 4 || b == 8))
        return false;
#if defined(TMV_COPY_AVX512VBMI)
    if (inter && b != 3)
        return false;   /* vpermt2b interleaves no faster than AVX-512's unpacks */
#endif
    const uint32_t dims = stream_dims(s, inter, b, w, &q, &rows);
    if (dims == 0 || !seq_long(&q, dims))
        return false;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t vectors = rows * x / (TMV_VB / w);   /* whole vectors per plane */
    if (vectors < 16)
        return false;
    if (tmv_shape_bytes(s) >= s->tuning->stream_threshold)
        return true;
    return inter ? !(w == 1 && b >= 4) : perm2 && (b >= 4 || w == 1 || vectors >= 64);
}

static inline void stream_widths(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                 unsigned widths, unsigned b)
{
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) stream_width(s, src, dst, inter, b, 1); break;
    case 2: if (widths & 4u) stream_width(s, src, dst, inter, b, 2); break;
    case 4: if (widths & 16u) stream_width(s, src, dst, inter, b, 4); break;
    default: if (widths & 256u) stream_width(s, src, dst, inter, b, 8); break;
    }
}

/* Each direction flattened out of line on its own: in one function, a
 * change to either direction's loops moved the other's register
 * allocation (DEPTH_TO_SPACE in L2 lost 3-5% to a de-interleave change). */
__attribute__((noinline, flatten)) static void stream_run_interleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                     uint8_t *dst, unsigned widths, unsigned b)
{
    stream_widths(s, src, dst, true, widths, b);
}

__attribute__((noinline, flatten)) static void stream_run_deinterleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                       uint8_t *dst, unsigned widths, unsigned b)
{
    stream_widths(s, src, dst, false, widths, b);
}
#endif


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

#if defined(TMV_COPY_AVX2)
/* ---- chunk streams (AVX2): SPACE_TO_DEPTH with b*w = 16 ----
 *
 * There one x position of a source row (its b elements) is one 16-byte
 * chunk, and v_load_group's lane-split loads take a chunk at a time, so a
 * group may start at any element of a plane's stream across rows (plane
 * rows contiguous) with a row seam on a chunk boundary. Where x is no
 * multiple of a vector that saves the row kernel's overlapping group per
 * row (B = 4 f32, x = 11: 16 groups a plane instead of 22; bench
 * space_to_depth B4 f32 L2: crd 0.53 -> 0.62, dcr 0.53 -> 0.70 x memcpy).
 * Rows hold a vector or more (the AVX2 kernel's accepts). */
static inline bool chunk_ok(const tmv_copy_shape *s, unsigned b)
{
    const uint64_t w = s->elem_bytes, x = deinterleave_x(s);
    return b * w == 16 && s->rank >= 3 && s->dst_strides[s->rank - 3] == x * w && x % (TMV_VB / w) != 0;
}

/* The offset of chunk col of the row at offset ro, col < 2x: past x, in the next row. */
static inline uint64_t chunk_at(uint64_t ro, uint64_t col, uint64_t x, uint64_t row_src)
{
    return col < x ? ro + col * 16 : ro + row_src + (col - x) * 16;
}

/* The group of elements from column col of the row at offset ro (x >= n
 * elements a row: it reaches one row further at most). */
static inline void chunk_group(const tmv_vctx *c, const uint8_t *src, uint8_t *dst, uint64_t ro, uint64_t col,
                               uint64_t x, uint64_t row_src, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    /* v_load_group's loads at chunk offsets (written out: through one
     * shared helper gcc built both loops 15-20% slower) */
    for (unsigned k = 0; k < b; k++) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(src + chunk_at(ro, col + k, x, row_src)));
        const __m128i hi =
            _mm_loadu_si128((const __m128i *)(const void *)(src + chunk_at(ro, col + b + k, x, row_src)));
        v[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

/* Each plane's stream in whole groups, the last one overlapping back from its end. */
static inline void chunk_shape(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_init(&c, w, b);
    const uint32_t r = s->rank - 3;
    const uint64_t n = TMV_VB / w, x = deinterleave_x(s), plane = s->dst_strides[s->rank - 2];
    const uint64_t row_src = s->src_strides[r], total = s->sizes[r] * x;
    tmv_walk walk;
    tmv_walk_init(&walk, s, r);
    do {
        const uint8_t *sp = src + walk.src;
        uint8_t *dp = dst + walk.dst;
        uint64_t ro = 0, col = 0, e = 0;
        for (; e + n <= total; e += n) {
            chunk_group(&c, sp, dp + e * w, ro, col, x, row_src, plane, b, w);
            col += n;
            if (col >= x) {
                col -= x;
                ro += row_src;
            }
        }
        if (e < total) {
            e = total - n;
            chunk_group(&c, sp, dp + e * w, e / x * row_src, e % x, x, row_src, plane, b, w);
        }
    } while (tmv_walk_next(&walk));
}

static inline void chunk_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    switch (s->elem_bytes) {
    case 2: chunk_shape(s, src, dst, 8, 2); break;
    case 4: chunk_shape(s, src, dst, 4, 4); break;
    default: chunk_shape(s, src, dst, 2, 8); break;
    }
}
#endif

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
    if (stream_ok(s, inter, b)) {
        if (inter)
            stream_run_interleave(s, src, dst, widths, b);
        else
            stream_run_deinterleave(s, src, dst, widths, b);
        return;
    }
    const int pd = block_pack_dim(s, b, s->elem_bytes, inter);
    if (pd >= 0) {
        packed_run(s, src, dst, inter, widths, b, (uint32_t)pd);
        return;
    }
#endif
#if defined(TMV_COPY_AVX2)
    if (!inter && chunk_ok(s, b)) {
        chunk_run(s, src, dst);
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
    if (stream_ok(s, inter, b) || block_pack_dim(s, b, s->elem_bytes, inter) >= 0)
        return true;
#endif
    return block_supported(inter, b, s->elem_bytes, inter ? interleave_x(s) : deinterleave_x(s));
}

/* The exported kernels of a set for the widths in `widths` (bit w for w bytes):
 * tmv_copy_{de,}interleave_<set> and their accepts. */
#define TMV_COPY_INTERLEAVE_KERNELS(set, widths)                                                 \
    bool tmv_copy_deinterleave_##set##_accepts(const tmv_copy_shape *s)                           \
    {                                                                                           \
        return block_accepts(s, false, widths);                                                 \
    }                                                                                           \
    void tmv_copy_deinterleave_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) \
    {                                                                                           \
        block_run(s, src, dst, false, widths);                                                  \
    }                                                                                           \
    bool tmv_copy_interleave_##set##_accepts(const tmv_copy_shape *s)                             \
    {                                                                                           \
        return block_accepts(s, true, widths);                                                  \
    }                                                                                           \
    void tmv_copy_interleave_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)   \
    {                                                                                           \
        block_run(s, src, dst, true, widths);                                                   \
    }

#endif
