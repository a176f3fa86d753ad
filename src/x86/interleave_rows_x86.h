/* interleave_rows_x86.h - the row loops: one row at a time (of groups of B vectors, interleave_group_x86.h), short rows packed or gathered into whole vectors (AVX-512), and the walks of a block shape's rows. */
#ifndef TMV_INTERLEAVE_ROWS_X86_H
#define TMV_INTERLEAVE_ROWS_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../shape.h"
#include "../walk.h"
#include "interleave_net_x86.h"
#include "interleave_group_x86.h"
#include "interleave_shape_x86.h"

/* Row geometry shared by both directions: n elements of w bytes per vector. */
typedef struct tmv_rows {
    uint64_t x;         /* elements per plane row */
    uint64_t plane;     /* bytes between the B plane rows */
    uint64_t rows;      /* rows handled inline (the dim just outside the block) */
    uint64_t row_src, row_dst;
    bool nt;            /* the interleave's group stores non-temporal (rows_stream_ok) */
} tmv_rows;

/* SPACE_TO_DEPTH's row: b*x contiguous source elements to b plane rows of x. */
static inline void deinterleave_row(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                    const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    uint64_t i = 0;
    for (; i + n <= r->x; i += n)
        deinterleave_group(c, src + i * b * w, dst + i * w, r->plane, b, w, false);
    if (i == r->x)
        return;
#if defined(TMV_VEC_AVX512VBMI)
    const uint64_t tail = (r->x - i) * w;
    if (b * tail <= TMV_VB) {
        /* one vector: the planes' bytes to their slots by one permute, each
         * slot stored at its plane's place less the slot's offset (masked:
         * the bytes around it are not written, and faults on them are
         * suppressed). A row of 13 bytes from 52 (SPACE_TO_DEPTH nchw B4 C3
         * u8) took four loads, the network and four stores. */
        const unsigned slot = TMV_VB / b;
        const tmv_v v = _mm512_permutexvar_epi8(c->tail_de, _mm512_maskz_loadu_epi8(v_mask(b * tail), src + i * b * w));
        for (unsigned j = 0; j < b; j++)
            _mm512_mask_storeu_epi8(dst + i * w + j * r->plane - j * slot, v_mask(tail) << (j * slot), v);
        return;
    }
#endif
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
#if defined(TMV_VEC_AVX2)
    if (v_lane_split(b, w) && r->x - i <= n / 2) {
        i = r->x - n / 2;
        deinterleave_group(c, src + i * b * w, dst + i * w, r->plane, b, w, true);
        return;
    }
#endif
    /* x >= n (the kernel's accepts): redo the last whole group, overlapping. */
    i = r->x - n;
    deinterleave_group(c, src + i * b * w, dst + i * w, r->plane, b, w, false);
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
        interleave_group(c, src + i * w, dst + i * b * w, r->plane, b, w, r->nt, false);
    if (i == r->x)
        return;
#if defined(TMV_VEC_AVX512VBMI)
    const uint64_t tail = (r->x - i) * w;
    if (b * tail <= TMV_VB) {
        /* one vector, as deinterleave_row's tail the other way round */
        const unsigned slot = TMV_VB / b;
        tmv_v v = _mm512_setzero_si512();
        for (unsigned j = 0; j < b; j++)
            v = _mm512_mask_loadu_epi8(v, v_mask(tail) << (j * slot), src + i * w + j * r->plane - j * slot);
        _mm512_mask_storeu_epi8(dst + i * b * w, v_mask(b * tail), _mm512_permutexvar_epi8(c->tail_in, v));
        return;
    }
#endif
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
#if defined(TMV_VEC_AVX2)
    if (v_lane_split(b, w) && r->x - i <= n / 2) {
        i = r->x - n / 2;
        interleave_group(c, src + i * w, dst + i * b * w, r->plane, b, w, r->nt, true);
        return;
    }
#endif
    i = r->x - n;
    interleave_group(c, src + i * w, dst + i * b * w, r->plane, b, w, r->nt, false);
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

/* The same for runs of 128 or 256 bytes from plane rows of 16 or 32
 * (block_pack_dim): each of the b vectors within one run. A loop of its
 * own: as one with interleave_rows_packed, testing the run's length per
 * vector, DEPTH_TO_SPACE nchw B2 CRD C64 f32 in L1 (runs of 32 bytes) went
 * from 431 to 700 ns. */
static inline void interleave_rows_long(const tmv_vctx *c, const uint8_t *src, uint8_t *dst,
                                        const tmv_rows *r, unsigned b, size_t w)
{
    const uint64_t run = b * r->x * w, per_run = run / TMV_VB, group = b / per_run;
    const uint64_t step = r->row_dst, plane = r->plane, groups = r->rows / group;
    for (uint64_t g = 0; g < groups; g++, src += TMV_VB, dst += group * step) {
        tmv_v v[8];
        for (unsigned j = 0; j < b; j++)
            v[j] = v_load(src + j * plane);
        v_interleave(c, v, b, w);
        for (unsigned k = 0; k < b; k++)
            v_store(dst + k / per_run * step + k % per_run * TMV_VB, v[k]);
    }
    for (uint64_t y = groups * group; y < r->rows; y++, src += r->row_src, dst += r->row_dst)
        interleave_row(c, src, dst, r, b, w);
}
#endif

/* Whether the `lines` plane rows one group of gathered rows stores (the
 * de-interleave) or loads (the interleave), at multiples of `plane` and
 * `step` bytes from each other, all fall in one L1 set and fill its 8 ways:
 * both strides multiples of 4 KiB. SPACE_TO_DEPTH nchw B8 DCR C16 u8 at
 * 1 MiB (planes of 32 x 32 bytes, 16 KiB apart, each group storing two
 * rows 128 KiB apart in each of 8 planes) ran at 3.7 B/ns by the AVX-512
 * gathered rows, 34.8 by AVX2's row loop; DEPTH_TO_SPACE nchw B8 DCR C64 u8
 * at 1 MiB (a group loads 16 bytes from each of 32 lines of one set, and
 * the next group the next 16 of the same lines) at 9.5 B/ns, 37 as packed
 * rows (block_pack_dim). Smaller loads fared better: DEPTH_TO_SPACE nchw
 * B2 DCR C64 f32 in L1 (8 lines a group) took 138 ns gathered, 189 by the
 * row loop. */
static inline bool rows_share_a_set(uint64_t plane, uint64_t step, uint64_t lines)
{
    return plane % 4096 == 0 && step % 4096 == 0 && lines >= 8;
}

#if defined(TMV_MASKED)
/* The other side packed: the interleave's output (the de-interleave's
 * source) runs on across rows (row_dst, row_src = b*x*w), as for the
 * stream kernels, but each plane row is only 16 or 32 bytes (x*w), too
 * short for their two-load seams: NHWC DEPTH_TO_SPACE / SPACE_TO_DEPTH in
 * CRD order with B*w of 16 or 32 bytes (B4 f32 C3: per pixel three 16-byte
 * channel runs, one 48-byte row of masked loads, network and masked stores
 * each). One vector of each plane gathers TMV_VB/(x*w) rows by inserts, and
 * the b vectors the network makes are whole vectors of the output; the
 * de-interleave (inter false) goes the other way round, whole source
 * vectors to TMV_VB/(x*w) rows of each plane. The rows left over go one at
 * a time. Non-temporal stores past the stream threshold were slower (B4 f32
 * C3 at 64 MiB: 5.3 -> 6.2 ms): each output row starts 16-48 bytes into a
 * line, and its first rows went as plain stores. */
static inline void gathered_rows(const tmv_vctx *c, const uint8_t *src, uint8_t *dst, const tmv_rows *r,
                                 bool inter, unsigned b, size_t w)
{
    const uint64_t prow = r->x * w, per_vector = TMV_VB / prow, groups = r->rows / per_vector;
    const uint64_t plane = r->plane, step = inter ? r->row_src : r->row_dst;
    /* a group: per_vector rows on the planes' side, b whole vectors on the other */
    const uint64_t src_step = inter ? per_vector * step : b * TMV_VB;
    const uint64_t dst_step = inter ? b * TMV_VB : per_vector * step;
#pragma GCC unroll 2
    for (uint64_t g = 0; g < groups; g++, src += src_step, dst += dst_step) {
        tmv_v v[8];
        if (inter) {
            for (unsigned j = 0; j < b; j++)
                v[j] = v_load_rows(src + j * plane, step, prow);
            v_interleave(c, v, b, w);
            for (unsigned k = 0; k < b; k++)
                v_store(dst + k * TMV_VB, v[k]);
        } else {
            for (unsigned k = 0; k < b; k++)
                v[k] = v_load(src + k * TMV_VB);
            v_deinterleave(c, v, b, w);
            for (unsigned j = 0; j < b; j++)
                v_store_rows(dst + j * plane, step, prow, v[j]);
        }
    }
    for (uint64_t y = groups * per_vector; y < r->rows; y++, src += r->row_src, dst += r->row_dst) {
        if (inter)
            interleave_row(c, src, dst, r, b, w);
        else
            deinterleave_row(c, src, dst, r, b, w);
    }
}

/* The dim gathered_rows would take, whether or not its rows share a set
 * (-1: none): plane rows of 16 or 32 bytes, the other side's rows one after
 * another along the dim, at least two whole groups of them, and a block
 * size the network has (3 only with two-source permutes). As for
 * block_pack_dim, the dim is the one just outside the block or the next. */
static inline int gather_dim_of(const tmv_copy_shape *s, unsigned b, uint64_t w, bool inter)
{
    const uint64_t prow = (inter ? interleave_x(s) : deinterleave_x(s)) * w;
#if defined(TMV_PERM2)
    const bool three = b == 3 && v_use_perm2((size_t)w);
#else
    const bool three = false;
#endif
    if (!(b == 2 || three || b == 4 || b == 8) || !(prow == 16 || prow == 32))
        return -1;
    for (uint32_t d = s->rank - 2; d-- > 0 && d + 5 > s->rank;)
        if ((inter ? s->dst_strides[d] : s->src_strides[d]) == b * prow && s->sizes[d] >= 2 * TMV_VB / prow)
            return (int)d;
    return -1;
}

/* Whether the rows gathered_rows would take along dim d share a set. */
static inline bool gathered_share_a_set(const tmv_copy_shape *s, unsigned b, uint64_t w, bool inter, uint32_t d)
{
    const uint64_t prow = (inter ? interleave_x(s) : deinterleave_x(s)) * w;
    const uint64_t plane = inter ? s->src_strides[s->rank - 1] : s->dst_strides[s->rank - 2];
    return rows_share_a_set(plane, inter ? s->src_strides[d] : s->dst_strides[d], b * (TMV_VB / prow));
}

/* The dim whose rows gathered_rows takes (-1: none): gather_dim_of's, but
 * for a de-interleave whose rows share a set (an interleave's that do go
 * to the packed rows where its runs are long, block_pack_dim). With one
 * group and a row left per walk (TILE of three axes, 4x1 f64 by 3x3x3:
 * three rows), the row loop and a plan that copies the outer repeats took
 * 153 ns at 8 KiB, the gathered rows 305-318; with those last rows masked
 * as a group, 405-450. */
static inline int block_gather_dim(const tmv_copy_shape *s, unsigned b, uint64_t w, bool inter)
{
    const int d = gather_dim_of(s, b, w, inter);
    return d >= 0 && (inter || !gathered_share_a_set(s, b, w, inter, (uint32_t)d)) ? d : -1;
}

/* The dim whose rows {de,}interleave_rows_packed (interleave_rows_long the
 * long ones) takes (-1: none): runs of b*x elements of 16, 32 or 64 bytes
 * (the interleave also 128 or 256 from plane rows of 16 or 32), the plane
 * rows contiguous along the dim (in the destination for the de-interleave,
 * in the source for the interleave) and at least one whole group of them.
 * That dim is the one just outside the block or the next (DEPTH_TO_SPACE's
 * rows lie outside its block-row dim).
 * The long runs only where gathered_rows would load rows of one L1 set
 * (gathered_share_a_set): elsewhere those ran faster (DEPTH_TO_SPACE nchw B8
 * CRD C64 f32 at 1 MiB, planes 256 bytes apart: 22.5 us gathered, 35.1
 * packed; the same in DCR order, planes 16 KiB apart: 50.1 and 30.6). */
static inline int block_pack_dim(const tmv_copy_shape *s, unsigned b, uint64_t w, bool inter)
{
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s), run = b * x * w;
    const bool long_shape = inter && (x * w == 16 || x * w == 32) && (run == 128 || run == 256);
    const int gd = long_shape ? gather_dim_of(s, b, w, inter) : -1;
    const bool long_run = gd >= 0 && gathered_share_a_set(s, b, w, inter, (uint32_t)gd);
    if (!(b == 2 || b == 4 || b == 8) || !(run == 16 || run == 32 || run == 64 || long_run))
        return -1;
    for (uint32_t d = s->rank - 2; d-- > 0 && d + 5 > s->rank;)
        if ((inter ? s->src_strides[d] : s->dst_strides[d]) == x * w && s->sizes[d] >= b * TMV_VB / run)
            return (int)d;
    return -1;
}

/* A packed block shape: the rows along dim pd, the dim between it and the
 * block (if any) looped here, the rest walked; `gathered`: the rows go to
 * gathered_rows. */
static inline void packed_shape(const tmv_vctx *c, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w, uint32_t pd, uint64_t x, uint64_t plane,
                                bool gathered)
{
    const tmv_rows r = {x, plane, s->sizes[pd], s->src_strides[pd], s->dst_strides[pd], false};
    const bool mid = pd + 4 == s->rank;
    const uint64_t mids = mid ? s->sizes[pd + 1] : 1;
    const uint64_t mid_src = mid ? s->src_strides[pd + 1] : 0, mid_dst = mid ? s->dst_strides[pd + 1] : 0;
    tmv_walk walk;
    tmv_walk_init(&walk, s, pd);
    do {
        for (uint64_t m = 0; m < mids; m++) {
            const uint8_t *sp = src + walk.src + m * mid_src;
            uint8_t *dp = dst + walk.dst + m * mid_dst;
            if (gathered)
                gathered_rows(c, sp, dp, &r, inter, b, w);
            else if (inter && b * x * w > TMV_VB)
                interleave_rows_long(c, sp, dp, &r, b, w);
            else if (inter)
                interleave_rows_packed(c, sp, dp, &r, b, w);
            else
                deinterleave_rows_packed(c, sp, dp, &r, b, w);
        }
    } while (tmv_walk_next(&walk));
}

/* A packed shape, instantiated for each block size at the constant width w. */
static inline void packed_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w, uint32_t pd, bool gathered)
{
    tmv_vctx c;
    v_ctx_for(&c, w, b, inter && gathered);
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t plane = inter ? s->src_strides[s->rank - 1] : s->dst_strides[s->rank - 2];
    switch (b) {
    case 2: packed_shape(&c, s, src, dst, inter, 2, w, pd, x, plane, gathered); break;
#if defined(TMV_PERM2)
    case 3:
        if (gathered && v_use_perm2(w))   /* only gathered rows take B = 3 (block_gather_dim) */
            packed_shape(&c, s, src, dst, inter, 3, w, pd, x, plane, gathered);
        break;
#endif
    case 4: packed_shape(&c, s, src, dst, inter, 4, w, pd, x, plane, gathered); break;
    default: packed_shape(&c, s, src, dst, inter, 8, w, pd, x, plane, gathered); break;
    }
}

/* The widths of a packed (gathered: false) or gathered shape. */
static inline void packed_widths(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                 unsigned widths, unsigned b, uint32_t pd, bool gathered)
{
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) packed_width(s, src, dst, inter, b, 1, pd, gathered); break;
    case 2: if (widths & 4u) packed_width(s, src, dst, inter, b, 2, pd, gathered); break;
    case 4: if (widths & 16u) packed_width(s, src, dst, inter, b, 4, pd, gathered); break;
    default: if (widths & 256u) packed_width(s, src, dst, inter, b, 8, pd, gathered); break;
    }
}

/* Runs a packed shape. Flattened: every width gets its own copy with all
 * helpers inlined (left to itself gcc called v_deinterleave and v_load_rows
 * out of line, at a third of the speed), while the row-at-a-time kernels keep
 * the inlining they were measured with (forcing it there lost up to 25%).
 * Packed and gathered rows are two functions, each with `gathered` a
 * constant: as one, with it a variable, SPACE_TO_DEPTH padded B2 C64 f32 in
 * L1 (packed rows) went from 181-193 to 306-436 ns. */
__attribute__((flatten)) static inline void packed_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                                       bool inter, unsigned widths, unsigned b, uint32_t pd)
{
    packed_widths(s, src, dst, inter, widths, b, pd, false);
}

/* Runs a gathered shape (block_gather_dim), flattened as packed_run. */
__attribute__((flatten)) static inline void gathered_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                                         bool inter, unsigned widths, unsigned b, uint32_t pd)
{
    packed_widths(s, src, dst, inter, widths, b, pd, true);
}
#endif

/* Walks the dims outside the block: the one just outside inline, the rest
 * through tmv_walk (once per inline run of rows, so small rows stay cheap). */
static inline tmv_rows rows_of(const tmv_copy_shape *s, uint64_t x, uint64_t plane)
{
    tmv_rows r = {x, plane, 1, 0, 0, false};
    if (s->rank >= 3) {
        r.rows = s->sizes[s->rank - 3];
        r.row_src = s->src_strides[s->rank - 3];
        r.row_dst = s->dst_strides[s->rank - 3];
    }
    return r;
}

#if defined(TMV_VEC_AVX2) || defined(TMV_MASKED)
/* Whether the interleave rows store past the cache: an output of the
 * tuning record's stream_threshold or more whose every store is a whole
 * aligned vector or half. On AVX2: rows of whole half groups, of whole
 * groups for B = 3, so no overlapping tail; the destination and its row
 * strides aligned to 16 bytes, 32 for B = 3. At 64 MiB DEPTH_TO_SPACE nchw
 * B2 C1 f32 went from 7.1-7.7 ms to 4.0-4.4, B8 C1 f32 from 7.8-8.7 to
 * 4.6-5.4. On AVX-512 a row's groups are whole vectors from its start and
 * its tail is masked stores of lines of its own, so any row length, the
 * destination and its row strides aligned to 64 bytes (TILE inner 1x2 at
 * 64 MiB, each element twice: 0.86-0.97 -> 1.57-1.82 x best copy on an
 * Intel Xeon, whose reported L3 has the model take this kernel there).
 * The de-interleave's b plane rows lost streamed (SPACE_TO_DEPTH nchw B4
 * C1 f32 6.4-7.8 -> 8.5-9.0 ms, B8 C64 u8 17-24 -> 26-29), and again with
 * two groups a step, so that each plane's two stores fill a whole line
 * (B8 C16 u8 0.34 -> 0.29 x best copy, B8 C64 u8 0.27 -> 0.21; B2 gained
 * 0.39-0.44 -> 0.36-0.51): it writes through the cache. */
static inline bool rows_stream_ok(const tmv_copy_shape *s, const uint8_t *dst, unsigned b, size_t w, uint64_t x)
{
#if defined(TMV_MASKED)
    const uint64_t align = TMV_VB;
    (void)b;
    (void)w;
    (void)x;
#else
    const uint64_t n = TMV_VB / w, align = b == 3 ? 32 : 16;
    if (x % (b == 3 ? n : n / 2) != 0)
        return false;
#endif
    if (tmv_shape_bytes(s) < s->tuning->stream_threshold || (uintptr_t)dst % align != 0)
        return false;
    for (uint32_t d = 0; d + 2 < s->rank; d++)
        if (s->dst_strides[d] % align != 0)
            return false;
    return true;
}
#endif

/* The shape whose dims outside the block the de-interleave walks: s
 * (the destination's order) or *by_source, s in the source's order.
 * In the destination's, SPACE_TO_DEPTH nchw reads each block row of a
 * plane in its own pass (rows of up to a few KiB, B rows apart: the
 * prefetchers start over at each) into B forward streams of output; in the
 * source's it reads forward into B*B streams. Past L2 that read pays for
 * B <= 4: the sweep's 64 MiB cases gained (B2 C64 u8 0.41 -> 0.92 x
 * best-copy, B4 C16 u8 0.34 -> 0.75, B3 C64 f32 0.41 -> 0.79), and at 1 MiB
 * those whose B*B streams of one row fall in distinct L1 sets (B2 C3 f32
 * 0.70 -> 1.11, B4 C3 u8 0.62 -> 0.99); where they share one (planes a
 * multiple of 4 KiB apart) the destination's order kept its lead below the
 * stream threshold (B8 C16 u8 at 1 MiB: 0.60 there, 0.34 by the source).
 * B8's 64 streams were a wash at 64 MiB (DCR C16 u8 0.37 -> 0.61, CRD C64
 * u8 0.60 -> 0.47). Inside L2 nothing is gained and the shorter inline row
 * loop (B rows) cost up to 2x at 8 KiB. */
static inline const tmv_copy_shape *deinterleave_walk(const tmv_copy_shape *s, unsigned b,
                                                      tmv_copy_shape *by_source)
{
    const uint64_t bytes = tmv_shape_bytes(s), l2 = s->tuning->cache_bytes[1];
    const bool streamed = bytes >= s->tuning->stream_threshold;
    /* decided before the copy where it can be: the calls inside L2 pay nothing */
    if (b > 4 || s->rank <= 3 || (!streamed && (l2 == 0 || bytes <= l2)))
        return s;
    *by_source = *s;
    tmv_shape_order_by_source(by_source, s->rank - 2);
    const tmv_copy_shape *o = by_source;
    if (!streamed && rows_share_a_set(o->dst_strides[o->rank - 2], o->dst_strides[o->rank - 3], (uint64_t)b * b))
        return s;
    return o;
}

/* A block shape row by row: interleaved (inter) or de-interleaved. Always
 * inlined (block_width, copy_x86.h), so each direction, block size and width
 * is a walk of its own with constant b and w. */
__attribute__((always_inline)) static inline void rows_shape(const tmv_copy_shape *s, const uint8_t *src,
                                                             uint8_t *dst, bool inter, unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_for(&c, w, b, inter);
    tmv_copy_shape by_source;
    if (!inter)
        s = deinterleave_walk(s, b, &by_source);
    tmv_rows r = inter ? rows_of(s, interleave_x(s), s->src_strides[s->rank - 1])
                       : rows_of(s, deinterleave_x(s), s->dst_strides[s->rank - 2]);
#if defined(TMV_VEC_AVX2) || defined(TMV_MASKED)
    r.nt = inter && rows_stream_ok(s, dst, b, w, r.x);
#endif
    tmv_walk walk;
    tmv_walk_init(&walk, s, s->rank >= 3 ? s->rank - 3 : 0);
    do {
        const uint8_t *sp = src + walk.src;
        uint8_t *dp = dst + walk.dst;
        for (uint64_t y = 0; y < r.rows; y++, sp += r.row_src, dp += r.row_dst) {
            if (inter)
                interleave_row(&c, sp, dp, &r, b, w);
            else
                deinterleave_row(&c, sp, dp, &r, b, w);
        }
    } while (tmv_walk_next(&walk));
    if (r.nt)
        _mm_sfence();
}

#endif
