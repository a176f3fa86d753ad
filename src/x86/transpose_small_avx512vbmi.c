/* transpose_small_avx512vbmi.c - AVX-512 VBMI transpose of blocks of at most 128 bytes: the block's rows gathered into two vectors by masked loads, one vpermt2b per output vector, rows scattered by masked stores.
 *
 * SPACE_TO_DEPTH and DEPTH_TO_SPACE of short rows (NCHW with W / B of a few
 * elements; any layout at small sizes) are (de)interleaves of rows too short
 * for the interleave kernels' vectors and transposes too small for the
 * transpose kernels' tiles, so each element was a copy of its own (copy_w1:
 * 0.013 x memcpy for a u8 DEPTH_TO_SPACE of B 8 at 8 KiB). Here a block is
 * the whole n x m transpose (the shape's two inner dims, n * m * w <= 128
 * bytes): its n source rows are packed side by side into 128 bytes (two
 * vectors), permuted into its m destination rows packed the same way, and
 * stored. A side whose rows are contiguous in memory is one row of the
 * block's bytes. The tables are the same for every block, so they are made
 * once per call.
 *
 * A row's bytes go to (or come from) their place in a vector by one masked
 * load or store at the row's address less that place: the masked-off bytes
 * before and after are neither read nor written, and AVX-512 suppresses
 * faults on them, so no guard is needed at the buffers' ends. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"

#define SMALL_BYTES 128   /* a block: two vectors */

/* The shape (transpose_x86.h): inner dim n elements, destination stride w,
 * source stride S; dim rank-2 m elements, source stride w, destination
 * stride D. */
bool tmv_transpose_small_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    const uint64_t n = s->sizes[s->rank - 1], m = s->sizes[s->rank - 2];
    return n >= 2 && m >= 2 && n * m * s->elem_bytes <= SMALL_BYTES;
}

/* One side's rows: `count` rows of `bytes`, `pitch` apart in memory and
 * packed `bytes` apart in the block. */
typedef struct small_rows {
    uint64_t count, bytes, pitch;
} small_rows;

/* Bytes [lo, hi) of a vector, 0 <= lo <= hi <= 64. */
static inline __mmask64 range_mask(uint64_t lo, uint64_t hi)
{
    const uint64_t below_hi = hi >= 64 ? ~0ull : (1ull << hi) - 1, below_lo = (1ull << lo) - 1;
    return below_hi & ~below_lo;
}

/* One masked load or store of a block's vector: the lanes `mask`, at the
 * block's address plus `off` (a row's address less the lanes' place in the
 * vector: may lie before the buffer, formed as an integer and never
 * dereferenced outside the mask). */
typedef struct small_move {
    __mmask64 mask;
    int64_t   off;
} small_move;

/* Each vector's moves apart, so that the two vectors stay in registers. */
typedef struct small_plan {
    __m512i    idx[2];   /* per output byte, its input byte (0..127) */
    unsigned   loads[2], stores[2];
    small_move load[2][SMALL_BYTES], store[2][SMALL_BYTES];
} small_plan;

/* The moves of one side's rows into or out of vector h: each row's bytes
 * within it. */
static unsigned side_moves(small_move *mv, const small_rows *r, unsigned h)
{
    unsigned k = 0;
    for (uint64_t row = 0; row < r->count; row++) {
        const uint64_t lo = row * r->bytes, hi = lo + r->bytes, vlo = 64u * h, vhi = vlo + 64;
        const uint64_t a = lo > vlo ? lo : vlo, b = hi < vhi ? hi : vhi;
        if (a < b)
            mv[k++] = (small_move){range_mask(a - vlo, b - vlo), (int64_t)(row * r->pitch) - (int64_t)(lo - vlo)};
    }
    return k;
}

/* The tables for one geometry: packed, input byte j*m*w + i*w + b (source
 * row j) is output byte i*n*w + j*w + b (destination row i). */
static void small_plan_make(small_plan *pl, uint64_t n, uint64_t m, uint64_t w, uint64_t S, uint64_t D)
{
    const uint64_t total = n * m * w;
    const small_rows in = S == m * w ? (small_rows){1, total, 0} : (small_rows){n, m * w, S};
    const small_rows out = D == n * w ? (small_rows){1, total, 0} : (small_rows){m, n * w, D};
    uint8_t idx[SMALL_BYTES] = {0};
    for (uint64_t i = 0; i < m; i++)
        for (uint64_t j = 0; j < n; j++)
            for (uint64_t b = 0; b < w; b++)
                idx[i * n * w + j * w + b] = (uint8_t)(j * m * w + i * w + b);
    pl->idx[0] = _mm512_loadu_si512(idx);
    pl->idx[1] = _mm512_loadu_si512(idx + 64);
    for (unsigned h = 0; h < 2; h++) {
        pl->loads[h] = side_moves(pl->load[h], &in, h);
        pl->stores[h] = side_moves(pl->store[h], &out, h);
    }
}

/* Zero-masked loads ORed together, so the rows' loads do not wait on each
 * other (merge-masked loads into one register made a chain of them). */
static inline __m512i gather_half(const small_plan *pl, unsigned h, const uint8_t *src)
{
    __m512i v = _mm512_setzero_si512();
    for (unsigned k = 0; k < pl->loads[h]; k++) {
        const small_move *mv = &pl->load[h][k];
        v = _mm512_or_si512(v, _mm512_maskz_loadu_epi8(mv->mask, (const void *)((uintptr_t)src + (uintptr_t)mv->off)));
    }
    return v;
}

static inline void scatter_half(const small_plan *pl, unsigned h, uint8_t *dst, __m512i v)
{
    for (unsigned k = 0; k < pl->stores[h]; k++) {
        const small_move *mv = &pl->store[h][k];
        _mm512_mask_storeu_epi8((void *)((uintptr_t)dst + (uintptr_t)mv->off), mv->mask, v);
    }
}

static inline void small_block(const small_plan *pl, const uint8_t *src, uint8_t *dst)
{
    const __m512i v0 = gather_half(pl, 0, src), v1 = gather_half(pl, 1, src);
    scatter_half(pl, 0, dst, _mm512_permutex2var_epi8(v0, pl->idx[0], v1));
    scatter_half(pl, 1, dst, _mm512_permutex2var_epi8(v0, pl->idx[1], v1));
}

void tmv_transpose_small_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    small_plan pl;
    small_plan_make(&pl, s->sizes[in], s->sizes[blk], s->elem_bytes, s->src_strides[in], s->dst_strides[blk]);
    if (blk == 0) {
        small_block(&pl, src, dst);
        return;
    }
    /* The dim outside the block directly, the others by the odometer. */
    const uint32_t out = blk - 1;
    const uint64_t count = s->sizes[out], ss = s->src_strides[out], ds = s->dst_strides[out];
    tmv_walk walk;
    tmv_walk_init(&walk, s, out);
    do
        for (uint64_t k = 0; k < count; k++)
            small_block(&pl, src + walk.src + k * ss, dst + walk.dst + k * ds);
    while (tmv_walk_next(&walk));
}
