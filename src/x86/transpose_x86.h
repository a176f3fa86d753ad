/* transpose_x86.h - the 2-D transpose block of a strided copy (permuted / column-major inputs), written once for SSE2, AVX2 and AVX-512.
 *
 * Static inline only. The including file defines exactly one of
 * TMV_VEC_SSE2, TMV_VEC_AVX2 or TMV_VEC_AVX512 and wraps
 * the entry points at the bottom in its exported kernels.
 * The shape (see shape.h): inner dim n elements, destination stride w,
 * source stride S; dim rank-2 m elements, source stride w, destination
 * stride D. So the source holds n rows of m contiguous elements (pitch S),
 * the destination m rows of n (pitch D), and dst[i][j] = src[j][i].
 * A tile is L = 16/w source rows by one vector of columns: L loads, log2(L)
 * unpack stages inside each 128-bit lane (so the same network serves every
 * width), then every lane is 16 contiguous destination bytes of one row.
 * Tiles are walked in square panels small enough for L1, so both the rows
 * read and the rows written stay cached while a panel is done. */
#ifndef TMV_TRANSPOSE_X86_H
#define TMV_TRANSPOSE_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../walk.h"
#include "vec_x86.h"

#define TR_MM128(op) _mm_##op
#define TR_LOAD128(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* 128-bit lane k of v (k constant after unrolling; the switch keeps the
 * extract immediates literal for unoptimized builds). */
static inline __m128i tr_lane(tmv_v v, unsigned k)
{
#if TMV_VB == 64
    switch (k) {
    case 0: return _mm512_castsi512_si128(v);
    case 1: return _mm512_extracti32x4_epi32(v, 1);
    case 2: return _mm512_extracti32x4_epi32(v, 2);
    default: return _mm512_extracti32x4_epi32(v, 3);
    }
#elif TMV_VB == 32
    return k ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
#else
    (void)k;
    return v;
#endif
}
/* The 128-bit tiles' one lane. */
static inline __m128i tr_lane128(__m128i v, unsigned k)
{
    (void)k;
    return v;
}

/* r with its log2(l) low bits reversed: the source column the unpack network
 * leaves in register r of each lane. */
static inline unsigned tr_bitrev(unsigned r, unsigned l)
{
    unsigned out = 0;
    for (unsigned b = 1; b < l; b <<= 1, r >>= 1)
        out = (out << 1) | (r & 1u);
    return out;
}

/* One tile, at vector type VT (the set's vector, or 128 bits for narrower
 * column runs): l = 16/w rows of the source from src into l-element runs of
 * VB/w destination rows from dst. Row r starts at src + SRC_AT(S, r), the
 * destination row of column i at dst + DST_AT(D, i): S and D are pitches
 * (TR_PITCH) or tables of offsets (TR_TABLE, transpose_groups_x86.h). Each
 * stage interleaves register pairs (2p, 2p+1) at e bytes, low halves to p
 * and high to p + l/2, doubling e from w to 8; the registers end up holding
 * the columns in bit-reversed order. */
#define TR_PITCH(pitch, i) ((i) * (pitch))
#define TR_TABLE(table, i) ((table)[i])
#define TR_TILE_FN(name, VT, MM, LOAD, LANE, VB, SRC_T, SRC_AT, DST_T, DST_AT)              \
    static inline void name(const uint8_t *src, SRC_T S, uint8_t *dst, DST_T D,           \
                            unsigned w, bool nt)                                          \
    {                                                                                     \
        const unsigned l = 16 / w;                                                        \
        VT x[16], t[16];                                                                  \
        _Pragma("GCC unroll 16") for (unsigned r = 0; r < l; r++) x[r] = LOAD(src + SRC_AT(S, r)); \
        for (unsigned e = w; e < 16; e *= 2) {                                            \
            _Pragma("GCC unroll 8") for (unsigned p = 0; p < l / 2; p++) {                \
                const VT a = x[2 * p], b = x[2 * p + 1];                                  \
                switch (e) {                                                              \
                case 1: t[p] = MM(unpacklo_epi8)(a, b); t[p + l / 2] = MM(unpackhi_epi8)(a, b); break;   \
                case 2: t[p] = MM(unpacklo_epi16)(a, b); t[p + l / 2] = MM(unpackhi_epi16)(a, b); break; \
                case 4: t[p] = MM(unpacklo_epi32)(a, b); t[p + l / 2] = MM(unpackhi_epi32)(a, b); break; \
                default: t[p] = MM(unpacklo_epi64)(a, b); t[p + l / 2] = MM(unpackhi_epi64)(a, b); break; \
                }                                                                         \
            }                                                                             \
            _Pragma("GCC unroll 16") for (unsigned r = 0; r < l; r++) x[r] = t[r];        \
        }                                                                                 \
        _Pragma("GCC unroll 16") for (unsigned r = 0; r < l; r++) {                       \
            const unsigned c = tr_bitrev(r, l);                                           \
            _Pragma("GCC unroll 4") for (unsigned k = 0; k < (VB) / 16; k++) {           \
                __m128i *d = (__m128i *)(void *)(dst + DST_AT(D, k * l + c));                 \
                if (nt)                                                                   \
                    _mm_stream_si128(d, LANE(x[r], k));                                   \
                else                                                                      \
                    _mm_storeu_si128(d, LANE(x[r], k));                                   \
            }                                                                             \
        }                                                                                 \
    }

TR_TILE_FN(tr_tile, tmv_v, MM, v_load, tr_lane, TMV_VB, uint64_t, TR_PITCH, uint64_t, TR_PITCH)
#if TMV_VB > 16
TR_TILE_FN(tr_tile128, __m128i, TR_MM128, TR_LOAD128, tr_lane128, 16, uint64_t, TR_PITCH, uint64_t, TR_PITCH)
#endif

#if TMV_VB == 64
/* A whole-vector tile of 4- and 8-byte elements: l = 64/w source rows to l
 * destination rows of one vector each: lane-local unpacks, then two rounds
 * of 128-bit lane shuffles, and full-vector stores instead of four 16-byte
 * lane stores per register. join transposed/2x64cols/f32 ran no faster on
 * AVX-512's lane tiles than on AVX2's; on these, L1 size 0.29 -> 0.40 x
 * memcpy, DRAM 0.67 -> 0.70, L2 unchanged (0.44-0.49; it moves with where
 * the pages land in the 1 MiB L2: 0.61 in some runs). The rows are loaded
 * into x (tr_square_load), transposed in place (tr_square_shuffle) and
 * stored (tr_square_store); the rows' and destination rows' addresses are
 * the caller's, a pitch or a table (transpose_groups_x86.h). */
__attribute__((always_inline)) static inline unsigned tr_square_rows(unsigned w)
{
    return 64 / w;
}

/* x[r] = source row r, which starts at src + off[r] (off NULL: r * pitch). */
__attribute__((always_inline)) static inline void tr_square_load(__m512i x[16], const uint8_t *src, uint64_t pitch,
                                                                const uint64_t *off, unsigned w)
{
    _Pragma("GCC unroll 16") for (unsigned r = 0; r < tr_square_rows(w); r++)
        x[r] = _mm512_loadu_si512(src + (off != NULL ? off[r] : r * pitch));
}

/* x's l rows of l elements, transposed in place: x[i] becomes column i. */
__attribute__((always_inline)) static inline void tr_square_shuffle(__m512i x[16], unsigned w)
{
    __m512i t[16];
    if (w == 4) {
        /* t[2p + k], lane L: rows 2p, 2p+1 of columns 4L + 2k, 4L + 2k + 1 */
        _Pragma("GCC unroll 8") for (unsigned p = 0; p < 8; p++) {
            t[2 * p] = _mm512_unpacklo_epi32(x[2 * p], x[2 * p + 1]);
            t[2 * p + 1] = _mm512_unpackhi_epi32(x[2 * p], x[2 * p + 1]);
        }
        /* x[4q + k], lane L: column 4L + k of rows 4q .. 4q+3 */
        _Pragma("GCC unroll 4") for (unsigned q = 0; q < 4; q++) {
            x[4 * q] = _mm512_unpacklo_epi64(t[4 * q], t[4 * q + 2]);
            x[4 * q + 1] = _mm512_unpackhi_epi64(t[4 * q], t[4 * q + 2]);
            x[4 * q + 2] = _mm512_unpacklo_epi64(t[4 * q + 1], t[4 * q + 3]);
            x[4 * q + 3] = _mm512_unpackhi_epi64(t[4 * q + 1], t[4 * q + 3]);
        }
    } else {
        /* x[2p + k], lane L: column 2L + k of rows 2p, 2p+1 */
        _Pragma("GCC unroll 4") for (unsigned p = 0; p < 4; p++) {
            t[2 * p] = _mm512_unpacklo_epi64(x[2 * p], x[2 * p + 1]);
            t[2 * p + 1] = _mm512_unpackhi_epi64(x[2 * p], x[2 * p + 1]);
        }
        _Pragma("GCC unroll 8") for (unsigned r = 0; r < 8; r++) x[r] = t[r];
    }
    /* Now x[g*k1 + k] (k < k1 = 16/w columns per lane, g < 4 row groups of
     * 16/w rows), lane L, holds column k1*L + k of row group g. Two rounds
     * of lane shuffles gather a column's four groups in order. */
    const unsigned k1 = 16 / w;
    _Pragma("GCC unroll 4") for (unsigned k = 0; k < k1; k++) {
        const __m512i a = x[k], b = x[k1 + k], c = x[2 * k1 + k], d = x[3 * k1 + k];
        const __m512i ab02 = _mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(2, 0, 2, 0));   /* a0 a2 b0 b2 */
        const __m512i ab13 = _mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        const __m512i cd02 = _mm512_shuffle_i64x2(c, d, _MM_SHUFFLE(2, 0, 2, 0));
        const __m512i cd13 = _mm512_shuffle_i64x2(c, d, _MM_SHUFFLE(3, 1, 3, 1));
        t[k] = _mm512_shuffle_i64x2(ab02, cd02, _MM_SHUFFLE(2, 0, 2, 0));            /* lane 0: a0 b0 c0 d0 */
        t[2 * k1 + k] = _mm512_shuffle_i64x2(ab02, cd02, _MM_SHUFFLE(3, 1, 3, 1));   /* lane 2 */
        t[k1 + k] = _mm512_shuffle_i64x2(ab13, cd13, _MM_SHUFFLE(2, 0, 2, 0));       /* lane 1 */
        t[3 * k1 + k] = _mm512_shuffle_i64x2(ab13, cd13, _MM_SHUFFLE(3, 1, 3, 1));   /* lane 3 */
    }
    _Pragma("GCC unroll 16") for (unsigned r = 0; r < 4 * k1; r++) x[r] = t[r];
}

/* Destination row r of x to dst + off[r] (off NULL: r * pitch); nt:
 * streaming stores (every row 64-byte aligned). */
__attribute__((always_inline)) static inline void tr_square_store(const __m512i x[16], uint8_t *dst, uint64_t pitch,
                                                                 const uint64_t *off, unsigned w, bool nt)
{
    _Pragma("GCC unroll 16") for (unsigned r = 0; r < tr_square_rows(w); r++) {
        void *d = dst + (off != NULL ? off[r] : r * pitch);
        if (nt)
            _mm512_stream_si512(d, x[r]);
        else
            _mm512_storeu_si512(d, x[r]);
    }
}

static inline void tr_square(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w, bool nt)
{
    __m512i x[16];
    tr_square_load(x, src, S, NULL, w);
    tr_square_shuffle(x, w);
    tr_square_store(x, dst, D, NULL, w, nt);
}
#endif

/* dst[i][j] = src[j][i] for i in [i0, i1), j in [j0, j1), element by element
 * along destination rows: the edges the tiles leave. */
static inline void tr_scalar(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w,
                             uint64_t i0, uint64_t i1, uint64_t j0, uint64_t j1)
{
    for (uint64_t i = i0; i < i1; i++)
        for (uint64_t j = j0; j < j1; j++) {
            const uint8_t *s = src + j * S + i * w;
            uint8_t *d = dst + i * D + j * w;
            switch (w) {
            case 1: *d = *s; break;
            case 2: memcpy(d, s, 2); break;
            case 4: memcpy(d, s, 4); break;
            default: memcpy(d, s, 8); break;
            }
        }
}

/* One m x n transpose block, in panels of pi source columns by pj source
 * rows (multiples of every tile side). Square panels of 64-128 bytes a side
 * keep both sides in L1. A copy that comes from memory (`far`) with short
 * destination rows (n * w <= 256, as for column-major inputs of few columns)
 * reads its long source rows in 4 KiB runs instead, which keeps the
 * prefetchers streaming; from L2 the square panels are faster. With `nt`
 * (an output past the stream threshold), a panel's whole destination lines
 * are written by consecutive tiles with streaming stores, sparing the reads
 * for ownership (join transposed/2x64cols/f32 at DRAM size: 0.46 -> 0.65-0.73
 * x memcpy); panels whose lines are not all theirs keep regular stores. */
/* Source rows [j, j + l) of columns [i, i1): lane tiles, then the edge. */
static inline void tr_strip(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w, uint64_t i,
                            uint64_t i1, uint64_t j)
{
    const uint64_t l = 16 / w, c = TMV_VB / w;
    for (; i + c <= i1; i += c)
        tr_tile(src + j * S + i * w, S, dst + i * D + j * w, D, w, false);
#if TMV_VB > 16
    for (; i + l <= i1; i += l)
        tr_tile128(src + j * S + i * w, S, dst + i * D + j * w, D, w, false);
#endif
    tr_scalar(src, S, dst, D, w, i, i1, j, j + l);
}

/* Source rows per whole-vector tile: AVX-512's square tiles for 4- and
 * 8-byte elements, else the lane tiles' 16/w. */
static inline uint64_t tr_tile_rows(unsigned w)
{
#if TMV_VB == 64
    if (w >= 4)
        return 64 / w;
#endif
    return 16 / w;
}

/* One whole-vector tile of tr_tile_rows(w) source rows. */
static inline void tr_whole(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w, bool nt)
{
#if TMV_VB == 64
    if (w >= 4) {
        tr_square(src, S, dst, D, w, nt);
        return;
    }
#endif
    tr_tile(src, S, dst, D, w, nt);
}

/* One m x n transpose block, in panels of pi source columns by pj source
 * rows (multiples of every tile side). Square panels of 64-128 bytes a side
 * keep both sides in L1. A copy that comes from memory (`far`) with short
 * destination rows (n * w <= 256, as for column-major inputs of few columns)
 * reads its long source rows in 4 KiB runs instead, which keeps the
 * prefetchers streaming; from L2 the square panels are faster. With `nt`
 * (an output past the stream threshold), a panel's whole destination lines
 * are written by consecutive tiles with streaming stores, sparing the reads
 * for ownership (join transposed/2x64cols/f32 at DRAM size: 0.46 -> 0.65-0.73
 * x memcpy); panels whose lines are not all theirs keep regular stores. */
static inline void tr_block(const uint8_t *src, uint64_t S, uint8_t *dst, uint64_t D, unsigned w,
                            uint64_t m, uint64_t n, bool far, bool nt)
{
    const uint64_t l = 16 / w, c = TMV_VB / w, tl = tr_tile_rows(w);
    const bool narrow = far && n * w <= 256;
    /* AVX-512's square tiles take panels of one tile of source rows by 512
     * bytes: more rows at once (with pitches of 4 KiB, all in one L1 set)
     * read slower; join transposed/2x64cols/f32 at L2 size took 19.7 us
     * instead of 24.1 in 32 x 32 panels (memcpy 10.7). */
    const bool square = tl > l;
    const uint64_t pi = narrow ? 4096 / w : square ? 512 / w : (w <= 2 ? 64 : 128 / w);
    const uint64_t pj = narrow ? 64 / w : square ? tl : pi;
    for (uint64_t i0 = 0; i0 < m; i0 += pi) {
        const uint64_t i1 = i0 + pi < m ? i0 + pi : m;
        for (uint64_t j0 = 0; j0 < n; j0 += pj) {
            const uint64_t j1 = j0 + pj < n ? j0 + pj : n;
            if (nt && j1 - j0 == pj && ((uintptr_t)(dst + j0 * w) & 63) == 0 && D % 64 == 0) {
                uint64_t i = i0;
                for (; i + c <= i1; i += c)
                    for (uint64_t j = j0; j < j1; j += tl)
                        tr_whole(src + j * S + i * w, S, dst + i * D + j * w, D, w, true);
                /* the columns left (fewer than a whole tile's: all of them
                 * for 8 columns of f32 on AVX-512) by the lane tiles, as
                 * below; element by element, DEPTH_TO_SPACE nhwc B8 crd C16
                 * f32 at 64 MiB (16 x 8 blocks) took 15.6 ms, 3.2x AVX2's */
                for (uint64_t j = j0; j < j1; j += l)
                    tr_strip(src, S, dst, D, w, i, i1, j);
                continue;
            }
            uint64_t j = j0;
            for (; j + tl <= j1; j += tl) {
                uint64_t i = i0;
                for (; i + c <= i1; i += c)
                    tr_whole(src + j * S + i * w, S, dst + i * D + j * w, D, w, false);
                for (uint64_t jj = j; jj < j + tl; jj += l)
                    tr_strip(src, S, dst, D, w, i, i1, jj);
            }
            for (; j + l <= j1; j += l)
                tr_strip(src, S, dst, D, w, i0, i1, j);
            tr_scalar(src, S, dst, D, w, i0, i1, j, j1);
        }
    }
}

/* Whether tr_block streams shape s's panels, its destination taken as
 * line-aligned: destination rows (and the blocks the walk starts) whole
 * lines apart, and columns for at least a line. */
static inline bool tr_streams(const tmv_copy_shape *s)
{
    for (uint32_t d = 0; d + 1 < s->rank; d++)
        if (s->dst_strides[d] % 64 != 0)
            return false;
    return s->sizes[s->rank - 1] * s->elem_bytes >= 64;
}

/* ---- accepts ---- */

/* Widths in `widths` (bit w for w bytes), both block sides at least 8 and a
 * 128-bit tile (the transpose geometry itself is the planner's test,
 * copy_kinds.h: a shape reaches this kernel only if it has it). */
static inline bool tr_accepts(const tmv_copy_shape *s, unsigned widths)
{
    const uint64_t w = s->elem_bytes, n = s->sizes[s->rank - 1], m = s->sizes[s->rank - 2];
    const uint64_t min = 16 / w > 8 ? 16 / w : 8;
    return (widths >> w & 1u) && n >= min && m >= min;
}

static inline void tr_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, unsigned w)
{
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    const uint64_t S = s->src_strides[in], D = s->dst_strides[blk], n = s->sizes[in], m = s->sizes[blk];
    /* beyond the L2 of a core (1 MiB on the targets) with its source */
    const bool far = tmv_shape_bytes(s) >= ((uint64_t)1 << 20);
    const bool nt = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    tmv_walk walk;
    tmv_walk_init(&walk, s, blk);
    do
        tr_block(src + walk.src, S, dst + walk.dst, D, w, m, n, far, nt);
    while (tmv_walk_next(&walk));
    if (nt)
        _mm_sfence();
}

/* Dispatches on the width so each instance has w constant. */
static inline void tr_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    switch (s->elem_bytes) {
    case 1: tr_width(s, src, dst, 1); break;
    case 2: tr_width(s, src, dst, 2); break;
    case 4: tr_width(s, src, dst, 4); break;
    default: tr_width(s, src, dst, 8); break;
    }
}

/* The exported kernel of a set for the widths in `widths`: tmv_copy_transpose_<set>, its accepts
 * and its streams test. */
#define TMV_TRANSPOSE_KERNELS(set, widths)                                                     \
    bool tmv_copy_transpose_##set##_accepts(const tmv_copy_shape *s) { return tr_accepts(s, widths); } \
    bool tmv_copy_transpose_##set##_streams(const tmv_copy_shape *s) { return tr_streams(s); }  \
    void tmv_copy_transpose_##set(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)   \
    {                                                                                         \
        tr_run(s, src, dst);                                                                  \
    }

#endif
