/* transpose_small_avx512vbmi.c - AVX-512 VBMI transpose of blocks of at most 128 bytes: each side's bytes moved into (out of) two to four vectors by masked loads (stores), a row at a time or a vector of its span at a time; vpermt2b picks each output vector.
 *
 * SPACE_TO_DEPTH and DEPTH_TO_SPACE of short rows (NCHW with W / B of a few
 * elements; NHWC's CRD order, whose C channels of one output pixel lie B * B
 * elements apart; any layout at small sizes) are (de)interleaves of rows too
 * short for the interleave kernels' vectors and transposes too small for the
 * transpose kernels' tiles, so each element was a copy of its own (copy_w1:
 * 0.013 x memcpy for a u8 DEPTH_TO_SPACE of B 8 at 8 KiB). Here a block is
 * the whole n x m transpose (the shape's two inner dims, n * m * w <= 128
 * bytes). Each side is either packed (its rows side by side in two vectors,
 * a move per row) or, where its rows are short and close together, the span
 * of memory they lie in (up to 256 bytes, four vectors, a move per vector,
 * masked to the block's bytes), whichever is fewer moves. A side whose rows
 * are contiguous in memory is one row of the block's bytes. The tables are
 * the same for every block, so they are made once per call.
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
#include "store_ahead_x86.h"

#define SMALL_BYTES 128   /* a block: two vectors */
#define SMALL_SPAN 256    /* a side moved as its span: four vectors */
#define SMALL_VECTORS 4

/* The shape (transpose_x86.h): inner dim n elements, destination stride w,
 * source stride S; dim rank-2 m elements, source stride w, destination
 * stride D. */
bool tmv_transpose_small_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    const uint64_t n = s->sizes[s->rank - 1], m = s->sizes[s->rank - 2];
    return n >= 2 && m >= 2 && n * m * s->elem_bytes <= SMALL_BYTES;
}

/* How one side's bytes reach the registers: either packed, each row's bytes
 * side by side in at most two vectors and moved a row at a time, or as the
 * span they lie in, up to four vectors moved whole, masked to the block's
 * bytes, whichever is fewer moves. A side whose rows are short and close
 * together (NHWC's CRD DEPTH_TO_SPACE reads 16 rows of 8 bytes 16 bytes
 * apart) is four span moves where packing it was sixteen row moves. */
typedef struct small_side {
    uint64_t rows, row_bytes, pitch;   /* as moved: a contiguous side is one row */
    bool     span;       /* moved as its span */
    unsigned vectors;    /* registers the side fills: 2 packed, 1-4 as a span */
    uint64_t reg_pitch;  /* register bytes from one of the block's rows to the next */
} small_side;

static small_side side_of(uint64_t rows, uint64_t row_bytes, uint64_t pitch)
{
    small_side d = {rows, row_bytes, pitch, false, 2, row_bytes};
    if (pitch == row_bytes) { /* contiguous: one row, packed and span alike */
        d.rows = 1;
        d.row_bytes = rows * row_bytes;
        d.pitch = 0;
        return d;
    }
    const uint64_t span = (rows - 1) * pitch + row_bytes;
    const unsigned span_vectors = (unsigned)((span + 63) / 64);
    if (pitch > row_bytes && span <= SMALL_SPAN && span_vectors < rows) {
        d.span = true;
        d.vectors = span_vectors;
        d.reg_pitch = pitch;
    }
    return d;
}

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

/* Each vector's moves apart, so that the vectors stay in registers. */
typedef struct small_plan {
    __m512i    idx[SMALL_VECTORS];  /* per output byte, its input byte's low 7 bits */
    __mmask64  high[SMALL_VECTORS]; /* output bytes whose input byte is in vectors 2-3 */
    unsigned   in_vectors, out_vectors;
    unsigned   loads[SMALL_VECTORS], stores[SMALL_VECTORS];
    small_move load[SMALL_VECTORS][64], store[SMALL_VECTORS][64];   /* a vector meets at most 64 rows */
} small_plan;

/* The moves of one side into or out of vector h: a packed side's rows'
 * bytes within it, each at its row's address; a span's bytes of the block
 * within it, at the block's address. */
static unsigned side_moves(small_move *mv, const small_side *d, unsigned h)
{
    const uint64_t vlo = 64u * h, vhi = vlo + 64;
    if (d->span) {
        __mmask64 mask = 0;
        for (uint64_t r = 0; r < d->rows; r++) {
            const uint64_t lo = r * d->pitch, hi = lo + d->row_bytes;
            const uint64_t a = lo > vlo ? lo : vlo, b = hi < vhi ? hi : vhi;
            if (a < b)
                mask |= range_mask(a - vlo, b - vlo);
        }
        mv[0] = (small_move){mask, (int64_t)vlo};
        return mask != 0;
    }
    unsigned k = 0;
    for (uint64_t r = 0; r < d->rows; r++) {
        const uint64_t lo = r * d->row_bytes, hi = lo + d->row_bytes;
        const uint64_t a = lo > vlo ? lo : vlo, b = hi < vhi ? hi : vhi;
        if (a < b)
            mv[k++] = (small_move){range_mask(a - vlo, b - vlo), (int64_t)(r * d->pitch) - (int64_t)(lo - vlo)};
    }
    return k;
}

/* The tables for one geometry: byte b of element i of source row j is byte
 * b of element j of destination row i. */
static void small_plan_make(small_plan *pl, uint64_t n, uint64_t m, uint64_t w, uint64_t S, uint64_t D)
{
    const small_side in = side_of(n, m * w, S), out = side_of(m, n * w, D);
    uint8_t idx[SMALL_VECTORS * 64] = {0};
    for (uint64_t i = 0; i < m; i++)
        for (uint64_t j = 0; j < n; j++)
            for (uint64_t b = 0; b < w; b++)
                idx[i * out.reg_pitch + j * w + b] = (uint8_t)(j * in.reg_pitch + i * w + b);
    pl->in_vectors = in.vectors;
    pl->out_vectors = out.vectors;
    for (unsigned h = 0; h < SMALL_VECTORS; h++) {
        pl->idx[h] = _mm512_loadu_si512(idx + 64 * h);
        pl->high[h] = _mm512_movepi8_mask(pl->idx[h]);   /* input bytes 128-255: bit 7 */
        pl->loads[h] = h < in.vectors ? side_moves(pl->load[h], &in, h) : 0;
        pl->stores[h] = h < out.vectors ? side_moves(pl->store[h], &out, h) : 0;
    }
}

/* Zero-masked loads ORed together, so the rows' loads do not wait on each
 * other (merge-masked loads into one register made a chain of them). */
static inline __m512i gather_vector(const small_plan *pl, unsigned h, const uint8_t *src)
{
    __m512i v = _mm512_setzero_si512();
    for (unsigned k = 0; k < pl->loads[h]; k++) {
        const small_move *mv = &pl->load[h][k];
        v = _mm512_or_si512(v, _mm512_maskz_loadu_epi8(mv->mask, (const void *)((uintptr_t)src + (uintptr_t)mv->off)));
    }
    return v;
}

static inline void scatter_vector(const small_plan *pl, unsigned h, uint8_t *dst, __m512i v)
{
    for (unsigned k = 0; k < pl->stores[h]; k++) {
        const small_move *mv = &pl->store[h][k];
        _mm512_mask_storeu_epi8((void *)((uintptr_t)dst + (uintptr_t)mv->off), mv->mask, v);
    }
}

/* Output vector h: vpermt2b picks from two vectors (7 index bits); a span
 * of three or four takes the second pair's pick where bit 7 of the index
 * is set. */
static inline __m512i pick(const small_plan *pl, const __m512i *in, unsigned h, bool wide)
{
    const __m512i v = _mm512_permutex2var_epi8(in[0], pl->idx[h], in[1]);
    return wide ? _mm512_mask_blend_epi8(pl->high[h], v, _mm512_permutex2var_epi8(in[2], pl->idx[h], in[3])) : v;
}

/* Past the stream threshold, each block prefetches the source of the
 * block SMALL_LOADS_AHEAD bytes on (rounded to whole blocks) and, for
 * writing, the destination of the one TMV_STORE_AHEAD_BYTES on: its moves are
 * masked loads and partial masked stores, which Zen 5's prefetchers do not
 * follow and which merge slowly into lines not in L2 (store_ahead_x86.h).
 * NHWC SPACE_TO_DEPTH CRD B2 C16 f32 at 64 MiB ran 0.21 x best copy, 0.29
 * with the loads prefetched, 0.19 with the stores alone, 0.63-0.74 with
 * both; DEPTH_TO_SPACE B2 C64 u8 0.39-0.48 -> 0.60-0.68 (tmv-bench
 * --tmv_sweep=full, 2026-11-30). */
#define SMALL_LOADS_AHEAD 2048

__attribute__((always_inline)) static inline void small_prefetch(const small_plan *pl, const uint8_t *from,
                                                                 uint64_t ahead, unsigned vin, uint8_t *to,
                                                                 uint64_t store_ahead, unsigned vout)
{
    if (ahead != 0)
        for (unsigned h = 0; h < vin; h++)
            for (unsigned j = 0; j < pl->loads[h]; j++)
                _mm_prefetch((const char *)((uintptr_t)from + ahead + (uintptr_t)pl->load[h][j].off), _MM_HINT_T0);
    if (store_ahead != 0)
        for (unsigned h = 0; h < vout; h++)
            for (unsigned j = 0; j < pl->stores[h]; j++)
                tmv_prefetch_for_write((const void *)((uintptr_t)to + store_ahead + (uintptr_t)pl->store[h][j].off));
}

/* Every block of the shape: the dim outside the block directly, the others
 * by the odometer. `vin` and `vout` (2 or 4: vectors a side may fill) and
 * `lists` are constants in each caller. Where every vector of both sides is
 * one move (a contiguous side, or a side moved as its span), a block is
 * straight-line code with its masks and offsets in registers, and a vector
 * a side does not fill has an empty mask (a masked move of no bytes touches
 * no memory); else (`lists`) each vector walks its list of row moves. The
 * lists' loops cost more than the moves: a block of 16 short rows took 40
 * cycles either way, and 12 as four span moves. */
__attribute__((always_inline)) static inline void each_block(const tmv_copy_shape *s, const small_plan *pl,
                                                             const uint8_t *src, uint8_t *dst, unsigned vin,
                                                             unsigned vout, bool lists, bool far)
{
    __mmask64 lm[SMALL_VECTORS], sm[SMALL_VECTORS];
    uintptr_t lo[SMALL_VECTORS], so[SMALL_VECTORS];
    for (unsigned h = 0; h < SMALL_VECTORS; h++) {
        lm[h] = pl->loads[h] ? pl->load[h][0].mask : 0;
        lo[h] = pl->loads[h] ? (uintptr_t)pl->load[h][0].off : 0;
        sm[h] = pl->stores[h] ? pl->store[h][0].mask : 0;
        so[h] = pl->stores[h] ? (uintptr_t)pl->store[h][0].off : 0;
    }
    const uint32_t blk = s->rank - 2, out = blk ? blk - 1 : 0;
    const uint64_t count = blk ? s->sizes[out] : 1, ss = blk ? s->src_strides[out] : 0,
                   ds = blk ? s->dst_strides[out] : 0;
    const uint64_t ahead = far ? tmv_ahead_in_blocks(SMALL_LOADS_AHEAD, ss) : 0;
    const uint64_t store_ahead = far ? tmv_ahead_in_blocks(TMV_STORE_AHEAD_BYTES, ds) : 0;
    tmv_walk walk;
    tmv_walk_init(&walk, s, out);
    do
        for (uint64_t k = 0; k < count; k++) {
            const uint8_t *from = src + walk.src + k * ss;
            uint8_t *to = dst + walk.dst + k * ds;
            if (far)
                small_prefetch(pl, from, ahead, vin, to, store_ahead, vout);
            __m512i in[SMALL_VECTORS] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                                         _mm512_setzero_si512()};
            for (unsigned h = 0; h < vin; h++)
                in[h] = lists ? gather_vector(pl, h, from)
                              : _mm512_maskz_loadu_epi8(lm[h], (const void *)((uintptr_t)from + lo[h]));
            for (unsigned h = 0; h < vout; h++) {
                const __m512i v = pick(pl, in, h, vin > 2);
                if (lists)
                    scatter_vector(pl, h, to, v);
                else
                    _mm512_mask_storeu_epi8((void *)((uintptr_t)to + so[h]), sm[h], v);
            }
        }
    while (tmv_walk_next(&walk));
}

/* Every vector of both sides is at most one move. */
static bool one_move_a_vector(const small_plan *pl)
{
    for (unsigned h = 0; h < SMALL_VECTORS; h++)
        if (pl->loads[h] > 1 || pl->stores[h] > 1)
            return false;
    return true;
}

/* The blocks, each side's vectors a constant; `far`: prefetching (a
 * constant: the calls below the threshold are the code without). */
__attribute__((always_inline)) static inline void small_blocks(const tmv_copy_shape *s, const small_plan *pl,
                                                               const uint8_t *src, uint8_t *dst, bool far)
{
    const bool wide_in = pl->in_vectors > 2, wide_out = pl->out_vectors > 2;
    if (!one_move_a_vector(pl)) {   /* row moves: packed on both sides but where a side is a span */
        if (wide_in || wide_out)
            each_block(s, pl, src, dst, 4, 4, true, far);
        else
            each_block(s, pl, src, dst, 2, 2, true, far);
    } else if (wide_in && wide_out) {
        each_block(s, pl, src, dst, 4, 4, false, far);
    } else if (wide_in) {
        each_block(s, pl, src, dst, 4, 2, false, far);
    } else if (wide_out) {
        each_block(s, pl, src, dst, 2, 4, false, far);
    } else {
        each_block(s, pl, src, dst, 2, 2, false, far);
    }
}

__attribute__((noinline)) static void small_far(const tmv_copy_shape *s, const small_plan *pl, const uint8_t *src,
                                                uint8_t *dst)
{
    small_blocks(s, pl, src, dst, true);
}

void tmv_transpose_small_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t in = s->rank - 1, blk = s->rank - 2;
    small_plan pl;
    small_plan_make(&pl, s->sizes[in], s->sizes[blk], s->elem_bytes, s->src_strides[in], s->dst_strides[blk]);
    if (tmv_shape_bytes(s) >= s->tuning->stream_threshold)
        small_far(s, &pl, src, dst);
    else
        small_blocks(s, &pl, src, dst, false);
}
