/* interleave_planes_x86.h - the AVX-512 (de)interleave of planes whose rows are shorter than a vector: each plane moved in whole vectors across its rows, through a stage that holds the other side's rows in the order the planes give them.
 *
 * NCHW DEPTH_TO_SPACE interleaves B planes (block column j) into output
 * rows of W*B elements, one row per plane row; SPACE_TO_DEPTH is the
 * inverse. Where a plane row is shorter than a vector (W / B of 11 bytes
 * at 8 KiB, 42 at 1 MiB with 64 channels), the row kernels run the network
 * on a vector a row, mostly empty, transpose_small moves a block of B short
 * rows at a time, and the streams (interleave_stream_x86.h) refuse rows
 * that short (seq_long). But a plane's rows follow each other in memory,
 * so each block row's (i) B planes (de)interleave as runs of whole vectors
 * from (into) a stage on the stack: that block row's rows of the other
 * side, one after the other. That side has the block rows' rows in turn
 * (row 0 of i = 0, 1, ..., then row 1), so a second pass copies the rows
 * out of (into) the stage in that order, a vector at a time, each row's last
 * vector reaching into the next row (written after it: no masked move).
 * That is two passes over the bytes, and it pays where the network's
 * vectors would be mostly empty: DEPTH_TO_SPACE nchw B8 DCR C1 u8 at 8 KiB
 * (rows of 11 bytes) took 194 ns against copy_permute's 492. The cost
 * model decides (priced rows).
 *
 * The interleave's shape: dims rank-4 (rows: a plane row of x elements on
 * each, source stride x*w), rank-3 (the block rows), the block (x, b).
 * The de-interleave's: rank-4 (the block rows), rank-3 (rows, destination
 * stride x*w), the block (b, x). */
#ifndef TMV_INTERLEAVE_PLANES_X86_H
#define TMV_INTERLEAVE_PLANES_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"
#include "interleave_net_x86.h"
#include "interleave_shape_x86.h"

#if defined(TMV_MASKED)
/* The stage: a segment of each block row's interleaved rows, in order. */
#define PLANES_STAGE_BYTES 16384

/* The least of each plane a segment covers, unless one segment takes the
 * planes whole: shorter segments read B planes of every block row as that
 * many short runs, which the prefetchers do not follow once the source is
 * out of L2. SPACE_TO_DEPTH nchw B8 DCR C16 u8 at 1 MiB (segments of 7
 * rows of 32 bytes, 64 planes) took 60 us against AVX2's 29, rated 21. */
#define PLANES_SEGMENT_MIN_BYTES 1024

/* k elements of b planes (plane bytes apart, from src) interleaved into
 * out, whole vectors (the last one's bytes past the k elements' are
 * stage room). */
static inline void planes_interleave(const tmv_vctx *c, const uint8_t *src, uint64_t plane, uint8_t *out,
                                     uint64_t k, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    tmv_v v[8];
    uint64_t e = 0;
    for (; e + n <= k; e += n) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < b; j++)
            v[j] = v_load(src + j * plane + e * w);
        v_interleave(c, v, b, w);
#pragma GCC unroll 8
        for (unsigned i = 0; i < b; i++)
            v_store(out + e * b * w + i * TMV_VB, v[i]);
    }
    if (e < k) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < b; j++)
            v[j] = _mm512_maskz_loadu_epi8(v_mask((k - e) * w), src + j * plane + e * w);
        v_interleave(c, v, b, w);
#pragma GCC unroll 8
        for (unsigned i = 0; i < b; i++)
            if (i * TMV_VB < (k - e) * b * w)
                v_store(out + e * b * w + i * TMV_VB, v[i]);
    }
}

/* One row of len bytes, in whole vectors: the last one reaching past the
 * row (`reach`), else ending with it; `to_stage`: the row goes into the
 * stage (which has room past every row), else out of it. */
static inline void planes_move(uint8_t *to, const uint8_t *from, uint64_t len, bool reach, bool to_stage)
{
    uint64_t o = 0;
    for (; o + TMV_VB <= len; o += TMV_VB)
        v_store(to + o, v_load(from + o));
    if (o == len)
        return;
    if (reach)
        v_store(to + o, v_load(from + o));
    else if (len >= TMV_VB)
        v_store(to + len - TMV_VB, v_load(from + len - TMV_VB));
    else if (to_stage)
        v_store(to, _mm512_maskz_loadu_epi8(v_mask(len), from));
    else
        _mm512_mask_storeu_epi8(to, v_mask(len), v_load(from));
}

/* Rows [0, k) of each block row's stage stream (stride bytes apart) out to
 * the other side at `other` or, to_stage, in from it, every row's vectors
 * reaching past it: the rows of planes_copy but its last few, by whole
 * vectors, in loops with no branch but their own. One vector a row (rows
 * of at most 64 bytes) has a loop of its own. Through planes_move, whose
 * branches each row took, DEPTH_TO_SPACE nchw B3 DCR u8 took 685 ns at
 * 30x30 C16 (rows of 30 bytes), 4773 at 42x42 C64 and 51.9 us at 126x129
 * C64 (1 MiB); here 412, 3115 and 41.7 us; SPACE_TO_DEPTH's B3 at 30x30
 * C16 565 -> 425 ns. */
static inline void planes_copy_reaching(uint8_t *stage, uint8_t *other, uint64_t stride, uint64_t len,
                                        uint64_t groups, uint64_t k, bool to_stage)
{
    const uint64_t vectors = (len + TMV_VB - 1) / TMV_VB;
    for (uint64_t q = 0; q < k; q++, other += groups * len) {
        uint8_t *at = stage + q * len;
        for (uint64_t g = 0; g < groups; g++, at += stride) {
            uint8_t *to = to_stage ? at : other + g * len;
            const uint8_t *from = to_stage ? other + g * len : at;
            if (vectors == 1)
                v_store(to, v_load(from));
            else
                for (uint64_t v = 0; v < vectors; v++)
                    v_store(to + v * TMV_VB, v_load(from + v * TMV_VB));
        }
    }
}

/* Rows [0, k) of each block row's stage stream (stride bytes apart) out to
 * the other side at dst or, dst NULL, in from it at src, where they follow
 * each other in memory order (row q of block row g at (q * groups + g) *
 * len), in that
 * order, each row's last vector reaching past it into rows moved after it
 * (the stage's next row, the other side's next one), but for the last rows
 * (`last`: the other side ends with them), whose last vector ends with
 * them. Gathering aligned output vectors from the rows instead ran 1.5x
 * slower (each seam a branch the predictor missed). Out of line: inlined
 * into the flattened kernel, the loop kept its counters on the stack (1.7
 * ns a row of 90 bytes, 1.2 out of line). */
__attribute__((noinline)) static void planes_copy(uint8_t *stage, uint8_t *dst, const uint8_t *src, uint64_t stride,
                                                  uint64_t len, uint64_t groups, uint64_t k, bool last)
{
    const uint64_t reach = (TMV_VB + len - 1) / len;   /* rows a vector from a row's start may reach into */
    const uint64_t reaching = last ? (k * groups > reach ? k * groups - reach : 0) : k * groups;
    const uint64_t whole = reaching / groups;   /* rows q whose every block row's row reaches */
    if (dst)
        planes_copy_reaching(stage, dst, stride, len, groups, whole, false);
    else
        planes_copy_reaching(stage, (uint8_t *)(uintptr_t)src, stride, len, groups, whole, true);
    uint64_t t = whole * groups;
    for (uint64_t q = whole; q < k; q++)
        for (uint64_t g = 0; g < groups; g++, t++) {
            uint8_t *at = stage + g * stride + q * len;
            if (dst)
                planes_move(dst + t * len, at, len, t < reaching, false);
            else
                planes_move(at, src + t * len, len, t < reaching, true);
        }
}

/* The de-interleave's second pass: k elements of b planes (plane bytes
 * apart, at dst) from the stage stream at in. */
static inline void planes_deinterleave(const tmv_vctx *c, const uint8_t *in, uint8_t *dst, uint64_t plane,
                                       uint64_t k, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    tmv_v v[8];
    uint64_t e = 0;
    for (; e + n <= k; e += n) {
#pragma GCC unroll 8
        for (unsigned i = 0; i < b; i++)
            v[i] = v_load(in + e * b * w + i * TMV_VB);
        v_deinterleave(c, v, b, w);
#pragma GCC unroll 8
        for (unsigned j = 0; j < b; j++)
            v_store(dst + j * plane + e * w, v[j]);
    }
    if (e < k) {
        const uint64_t bytes = (k - e) * b * w;
#pragma GCC unroll 8
        for (unsigned i = 0; i < b; i++)
            v[i] = _mm512_maskz_loadu_epi8(v_mask(bytes > i * TMV_VB ? bytes - i * TMV_VB : 0),
                                           in + e * b * w + i * TMV_VB);
        v_deinterleave(c, v, b, w);
#pragma GCC unroll 8
        for (unsigned j = 0; j < b; j++)
            _mm512_mask_storeu_epi8(dst + j * plane + e * w, v_mask((k - e) * w), v[j]);
    }
}

/* A shape's geometry (the file's comment says which dims are which):
 * rows, block rows (groups), x, the other side's row length (len); k rows
 * a segment, each block row's stage `stride` bytes long (its k rows,
 * rounded up to whole vectors, and a vector of room for the copies'
 * vectors that reach past a row). */
typedef struct planes_geom {
    uint64_t rows, groups, x, len, k, stride;
} planes_geom;

static inline planes_geom planes_geom_of(const tmv_copy_shape *s, unsigned b, bool inter)
{
    const uint32_t r = s->rank;
    planes_geom g = {inter ? s->sizes[r - 4] : s->sizes[r - 3], inter ? s->sizes[r - 3] : s->sizes[r - 4],
                     inter ? s->sizes[r - 2] : s->sizes[r - 1], 0, 0, 0};
    g.len = g.x * b * s->elem_bytes;
    const uint64_t budget = PLANES_STAGE_BYTES / g.groups / TMV_VB * TMV_VB;
    g.k = budget > TMV_VB ? (budget - TMV_VB) / g.len : 0;
    g.k = g.k < g.rows ? g.k : g.rows;
    g.stride = (g.k * g.len + 2 * TMV_VB - 1) / TMV_VB * TMV_VB;
    return g;
}

/* Every position of the dims outside the block rows, a segment of k rows
 * at a time: the interleave runs each block row's planes into the stage,
 * then copies the rows out in the output's order; the de-interleave copies
 * the rows in, then runs the stage into each block row's planes. */
static inline void planes_shape(const tmv_vctx *c, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w)
{
    const uint32_t r = s->rank;
    const planes_geom g = planes_geom_of(s, b, inter);
    const uint64_t plane = inter ? s->src_strides[r - 1] : s->dst_strides[r - 2];
    const uint64_t gplanes = inter ? s->src_strides[r - 3] : s->dst_strides[r - 4];   /* block row to block row */
    const uint64_t pitch = g.groups * g.len;   /* dense (planes_accepts) */
    _Alignas(64) uint8_t stage[PLANES_STAGE_BYTES];
    tmv_walk walk;
    tmv_walk_init(&walk, s, r - 4);
    do
        for (uint64_t r0 = 0; r0 < g.rows; r0 += g.k) {
            const uint64_t kk = g.rows - r0 < g.k ? g.rows - r0 : g.k, at = r0 * g.x * w;
            const bool last = r0 + kk == g.rows;
            if (inter) {
                for (uint64_t i = 0; i < g.groups; i++)
                    planes_interleave(c, src + walk.src + i * gplanes + at, plane, stage + i * g.stride, kk * g.x,
                                      b, w);
                planes_copy(stage, dst + walk.dst + r0 * pitch, NULL, g.stride, g.len, g.groups, kk, last);
            } else {
                planes_copy(stage, NULL, src + walk.src + r0 * pitch, g.stride, g.len, g.groups, kk, last);
                for (uint64_t i = 0; i < g.groups; i++)
                    planes_deinterleave(c, stage + i * g.stride, dst + walk.dst + i * gplanes + at, plane,
                                        kk * g.x, b, w);
            }
        }
    while (tmv_walk_next(&walk));
}

/* The block sizes this set (de)interleaves at width w: the VBMI set (bytes)
 * B = 3 both ways and the de-interleave's B = 4 and 8 (vpermt2b), the
 * AVX-512 set any its network takes (its unpacks ran the interleave of
 * bytes at B = 2 and 8 in 0.7x and 0.93x the time of vpermt2b's zips). */
static inline bool planes_block(bool inter, unsigned b, size_t w)
{
#if defined(TMV_VEC_AVX512VBMI)
    return v_use_perm2(w) && (b == 3 || (!inter && (b == 4 || b == 8)));
#else
    (void)inter;
#if defined(TMV_PERM2)
    if (b == 3)
        return v_use_perm2(w);
#endif
    (void)w;
    return b == 2 || b == 4 || b == 8;
#endif
}

/* (De)interleave shapes whose plane rows are shorter than a vector and
 * follow each other in memory, at least a vector a plane, whose other
 * side is dense (a block row's rows follow each other, the next row's
 * those), with segments of the planes whole or PLANES_SEGMENT_MIN_BYTES
 * long, in cache: past the stream
 * threshold the output would go through the cache, and no shape of the
 * sweep has rows that short there (not measured). TILE's broadcasts (plane
 * stride 0) are left to copy_permute (see block_accepts). */
static inline bool planes_accepts(const tmv_copy_shape *s, bool inter, unsigned widths)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
    const uint64_t w = s->elem_bytes;
    if (b == 0 || s->rank < 4 || !(widths >> w & 1u) || !planes_block(inter, b, (size_t)w))
        return false;
    const uint32_t r = s->rank;
    const planes_geom g = planes_geom_of(s, b, inter);
    const uint64_t *planes = inter ? s->src_strides : s->dst_strides, *other = inter ? s->dst_strides : s->src_strides;
    const uint32_t rows_dim = inter ? r - 4 : r - 3, groups_dim = inter ? r - 3 : r - 4;
    const bool whole = g.k == g.rows || g.k * g.x * w >= PLANES_SEGMENT_MIN_BYTES;
    return g.x * w < TMV_VB && g.k >= 1 && whole && planes[inter ? r - 1 : r - 2] != 0 && planes[rows_dim] == g.x * w &&
           g.rows * g.x * w >= TMV_VB && other[groups_dim] == g.len && other[rows_dim] == g.groups * g.len &&
           tmv_shape_bytes(s) < s->tuning->stream_threshold;
}

/* Its own work, for the cost model (TMV_KERNEL_PRICED): blocks, the
 * network's runs over a stage segment (a call of planes_(de)interleave,
 * whose partial group is most of it on short segments); lines, the rows
 * copied; pieces, the vectors through the network, once per round. */
static inline void planes_features(const tmv_copy_shape *s, bool inter, tmv_cost_features *f)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
    if (b == 0 || s->rank < 4)
        return;   /* not accepted */
    const planes_geom g = planes_geom_of(s, b, inter);
    if (g.k == 0)
        return;
    const uint64_t n = TMV_VB / s->elem_bytes, segments = (g.rows + g.k - 1) / g.k;
    const uint64_t last = g.rows - (segments - 1) * g.k;
    const uint64_t groups = (segments - 1) * ((g.k * g.x + n - 1) / n) + (last * g.x + n - 1) / n;
    const double positions = (double)tmv_shape_bytes(s) / (double)(g.rows * g.groups * g.len);
    const double rounds = b == 2 ? 1 : b == 8 ? 3 : 2;
    f->blocks = positions * (double)(segments * g.groups);
    f->lines = positions * (double)(g.rows * g.groups);
    f->pieces = positions * (double)(groups * g.groups * b) * rounds;
}

static inline void planes_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter, unsigned b,
                                size_t w)
{
    tmv_vctx c;
    v_ctx_for(&c, w, b, inter);
    switch (b) {
    case 2: planes_shape(&c, s, src, dst, inter, 2, w); break;
#if defined(TMV_PERM2)
    case 3: planes_shape(&c, s, src, dst, inter, 3, w); break;
#endif
    case 4: planes_shape(&c, s, src, dst, inter, 4, w); break;
    default: planes_shape(&c, s, src, dst, inter, 8, w); break;
    }
}

static inline void planes_widths(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                 unsigned widths)
{
    const unsigned b = inter ? tmv_interleave_block(s) : tmv_deinterleave_block(s);
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) planes_width(s, src, dst, inter, b, 1); break;
    case 2: if (widths & 4u) planes_width(s, src, dst, inter, b, 2); break;
    case 4: if (widths & 16u) planes_width(s, src, dst, inter, b, 4); break;
    default: if (widths & 256u) planes_width(s, src, dst, inter, b, 8); break;
    }
}

/* Each direction flattened out of line on its own, like the streams. */
__attribute__((noinline, flatten)) static void planes_run_interleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                     uint8_t *dst, unsigned widths)
{
    planes_widths(s, src, dst, true, widths);
}

__attribute__((noinline, flatten)) static void planes_run_deinterleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                       uint8_t *dst, unsigned widths)
{
    planes_widths(s, src, dst, false, widths);
}
#endif

#endif
