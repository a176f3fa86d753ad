/* copy_permute_avx512vbmi.c - copy_permute and copy_permute_placed (AVX-512 VBMI): copies and broadcasts of elements of up to 32 bytes whose inner dims write a dense block of 96-512 bytes (or up to eight rows of one) from at most eight 64-byte source windows (or windows of two 32-byte runs): per block a masked load per window (run) and, per vector, a byte permute per window pair and a blend, from tables built at create.
 *
 * SPACE_TO_DEPTH of NHWC tensors with one channel writes each output pixel
 * from B runs of B x C elements, one per input row: three 12-byte runs for
 * B = 3 in f32. The run copies moved them one at a time (0.12 x memcpy at
 * 8 KiB). Here the innermost destination-dense dims form a block (with k
 * periods of the next dim when whole dims do not fit 512 bytes: five
 * pixels, 180 bytes, from three windows, one per input row); the block's
 * windows are loaded once, masked to the bytes it reads (no load leaves
 * the source), and held in registers, and each of its vectors is a
 * vpermt2b per window pair and a blend per pair after the first. Blocks
 * that read at most four windows are looked for first, cut to 256, 128
 * or 96 bytes if need be; only where none exists, blocks of up to eight:
 * SPACE_TO_DEPTH of NCHW, B2 C16 u8, 22 x 22 pixels, writes each channel's
 * four output planes (484 bytes) from its 484 input bytes, eight windows,
 * which the row loop moved as 352 rows of 22 bytes (586 ns at 8 KiB).
 *
 * A dim of source stride 0 (TILE's repeats) is no different: its bytes
 * repeat source bytes, and a whole TILE whose rows expand a few source
 * bytes each is one step (TILE 3d [n, 4, 1] u8 by {1, 3, 3}, 36 bytes a row
 * from 4: 944 ns in two steps at 8 KiB, 100 ns here). Where a dedicated
 * fill or interleave does the same with a permute a vector and no tables,
 * the cost model keeps it.
 *
 * Blocks of whole vectors are preferred (every store whole, and on a
 * line where the output starts on one), of the fewest window pairs, with
 * a tail of the periods they leave, where the dim holds at least four of
 * them (TILE inner {341, 3} f32 by {1, 2}: blocks of 8 rows, three
 * vectors from two windows, 177 -> 103 ns at 8 KiB against blocks of 11
 * rows with a part vector each); then periods that divide the dim; when
 * none gives a block, the dim is cut into blocks of k periods and a tail
 * of the rest, with tables of its own: DEPTH_TO_SPACE of NHWC, CRD, C3 u8
 * writes output rows of 26 pixel pairs from 312 source bytes (five
 * windows), which no divisor of 26 cuts into blocks of 96 bytes or more;
 * 21 pairs and a tail of 5 do.
 *
 * A block may also be the rows of one dim outside those (up to eight),
 * each row its own vectors from the windows all rows share, where that
 * does less work per byte (tmv_permute_plan_make): DEPTH_TO_SPACE of NHWC in
 * CRD order writes B image rows from each input pixel, and B4 C16 u8,
 * four 64-byte rows from one pixel's 256 bytes, took 76 us at 1 MiB by the
 * grouped transposes, 25 as one block of four rows.
 *
 * Where no block of whole windows exists, a block's windows may be two
 * 32-byte runs each (halves), loaded apart and joined in a register, and
 * where the shape's normal order keeps a dim that writes densely out of
 * the block (its transpose block, shape.h), its dims may be taken by
 * destination stride: SPACE_TO_DEPTH of NHWC, CRD, B3 C64 u8 moved byte by
 * byte (339 us at 1 MiB), and by destination in blocks of 32 channels from
 * five windows of halves takes 42 us. Both run out of line, with the rows
 * plans (permute_placed), and the rows and halves plans are registered
 * apart, as copy_permute_placed/avx512vbmi, to be priced apart.
 *
 * The tables depend on the block's dims only. A part of a step that a
 * parallel execute cut, or any shape whose inner dims differ from the
 * prepared ones, is moved by the portable copy instead. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"
#include "../walk.h"
#include "copy_permute_plan_avx512vbmi.h"
#include "store_ahead_x86.h"

/* The last shape this thread made a plan for, and the plan: the planner
 * asks accepts, features and prepare of one shape in turn at create, and
 * each search tries every block size and, failing four windows, again for
 * eight (three searches made SPACE_TO_DEPTH nchw B2 CRD C16 u8 at 8 KiB
 * take 10.7 us to create, against 2.7 before the eight-window pass). The
 * plan depends on the shape's dims alone, not its tuning or state. */
static _Thread_local struct {
    bool           valid, ok;
    tmv_copy_shape key;
    permute_state  st;
} last_plan;

/* tmv_permute_plan_make through last_plan: the plan of s, false if none. */
static const permute_state *permute_plan_of(const tmv_copy_shape *s)
{
    if (!last_plan.valid || !tmv_shape_same_geometry(&last_plan.key, s)) {
        last_plan.key = *s;
        last_plan.ok = tmv_permute_plan_make(s, &last_plan.st);
        last_plan.valid = true;
    }
    return last_plan.ok ? &last_plan.st : NULL;
}

/* A plan whose vectors are placed from its tables (permute_placed): rows
 * or halves. */
static bool plan_placed(const permute_plan *pl)
{
    return pl->rows > 1 || pl->halves;
}

void tmv_copy_permute_avx512vbmi_prepare(const tmv_copy_shape *s, void *state)
{
    const permute_state *st = permute_plan_of(s);
    if (st != NULL)
        memcpy(state, st, sizeof *st);
}

void tmv_copy_permute_placed_avx512vbmi_prepare(const tmv_copy_shape *s, void *state)
{
    tmv_copy_permute_avx512vbmi_prepare(s, state);
}

/* s with its dims in the order the plan was made for: sorted by
 * destination stride into *sorted where the plan asks for it. */
static const tmv_copy_shape *plan_order(const permute_state *st, const tmv_copy_shape *s, tmv_copy_shape *sorted)
{
    if (!st->block.by_destination)
        return s;
    *sorted = *s;
    tmv_permute_dims_by_destination(sorted);
    return sorted;
}

/* The shapes of plain plans here, of placed plans (rows, halves) as
 * copy_permute_placed/avx512vbmi, the same code under a profile of its
 * own: a placed block's vectors take their offsets and masks from the
 * tables and are more often stored in part, and priced as the plain blocks
 * the rows plan of SPACE_TO_DEPTH nchw B4 DCR C3 u8 at 8 KiB was rated 208
 * ns and ran 322-436 (its own fit: 302), in place of a planes kernel's
 * 226. Priced apart, five sweep plans changed at 8 KiB, 0.87x the time
 * (tmv-plan-regret, 2026-12-01). */
bool tmv_copy_permute_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    const permute_state *st = permute_plan_of(s);
    return st != NULL && !plan_placed(&st->block);
}

bool tmv_copy_permute_placed_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    const permute_state *st = permute_plan_of(s);
    return st != NULL && plan_placed(&st->block);
}

/* Priced by its own blocks (tails counted), the windows they load (lines)
 * and the permutes of the vectors they store (pieces: one per window pair
 * a vector takes): a block of 60 bytes from four windows costs about what
 * one of 126 does. Counted a vector each, a plan of two pairs was priced
 * as one of one: TILE inner {170, 3} f64 by {1, 2} in blocks of 4 rows
 * (192 bytes, one pair) ran 117 ns at 8 KiB against 143 in blocks of 10
 * (480 bytes, two pairs), but was rated 153 against 127, and the replica
 * copies (two steps, 143 ns) were taken. Counted by permutes and refitted,
 * the fit's median error went 10.4-11.1% -> 9.5-10.2% (three fits), and of
 * the 1360 cases of tmv-plan-regret at 8 KiB and 1 MiB, 11 took this
 * kernel where they had not, 0.52-0.93x the time (TILE 3d [n, 4, 1] u16
 * by {2, 2, 2} at 1 MiB 17.0 -> 8.9 us), and five took it or left it for
 * 1.04-1.39x (TILE inner {227, 3} f32 by {1, 3} at 8 KiB, rated 128 here
 * and 164 by fill_period, which comes first in the registry and is kept
 * unless another is rated under 0.75 of it: 127 -> 175 ns). (Counted so before
 * blocks of whole vectors, the single permute of TILE 3d [n, 4, 1] u8 by
 * {8, 1, 8} at 8 KiB, 70.6 ns, was rated under a permute of a slice and
 * fill_doubling's replicas, 48.3, and six TILE plans went 0.68-0.89x.) */
static void permute_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    const permute_state *st = permute_plan_of(s);
    if (st == NULL)
        return;
    tmv_copy_shape sorted;
    s = plan_order(st, s, &sorted);
    const permute_plan *pl = &st->block;
    const uint32_t outer = s->rank - pl->inner.dims - (pl->inner.periods > 1);
    double positions = 1, blocks, tails = 0;
    for (uint32_t d = 0; d < outer; d++)
        positions *= (double)s->sizes[d];
    positions /= (double)pl->rows;   /* the rows dim is in the block */
    if (pl->inner.periods > 1) {
        blocks = positions * (double)(s->sizes[outer] / pl->inner.periods);
        tails = st->tail.vectors != 0 ? positions : 0;
    } else {
        blocks = positions;
    }
    const double loads = pl->halves ? 2 : 1;   /* per window */
    f->blocks = blocks + tails;
    f->lines = loads * (blocks * pl->windows + tails * st->tail.windows);
    /* a rows or halves plan's tail takes the block's pairs (permute_placed) */
    const double pairs = (pl->windows + 1) / 2;
    const double tail_pairs = plan_placed(pl) ? pairs : (st->tail.windows + 1) / 2;
    f->pieces = blocks * pl->vectors * pairs + tails * st->tail.vectors * tail_pairs;
}

void tmv_copy_permute_avx512vbmi_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    permute_features(s, f);
}

void tmv_copy_permute_placed_avx512vbmi_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    permute_features(s, f);
}

/* The tables were built for s's inner dims (and a whole number of periods
 * of the dim outside them, and the tail's). */
static bool plan_fits(const permute_state *st, const tmv_copy_shape *s)
{
    if (st == NULL)
        return false;
    const permute_plan *pl = &st->block;
    uint64_t cut;
    if (pl->vectors == 0 || !tmv_block_dims_match(&pl->inner, s, &cut) ||
        (pl->inner.periods > 1 && cut % pl->inner.periods != st->tail.inner.periods))
        return false;
    const uint32_t from = s->rank - pl->inner.dims - (pl->inner.periods > 1);
    return pl->rows == 1 || (pl->row_dim < from && s->sizes[pl->row_dim] == pl->row_size &&
                             s->src_strides[pl->row_dim] == pl->row_src && s->dst_strides[pl->row_dim] == pl->row_dst);
}

/* A vector of a block from the first 2 * pairs of its windows: pair 0's
 * bytes, and each other pair's blended in. (Testing each vector for bytes
 * of one pair only, to skip a permute, saved 3-7% on TILE's expansions
 * and cost 4-10% on SPACE_TO_DEPTH of NHWC at 1 MiB.) */
__attribute__((always_inline)) static inline __m512i permute_vector_of(const permute_vector *pv, const __m512i *w,
                                                                     unsigned pairs)
{
    __m512i r = _mm512_permutex2var_epi8(w[0], pv->idx, w[1]);
    for (unsigned p = 1; p < pairs; p++)
        r = _mm512_mask_blend_epi8(pv->pair[p - 1], r, _mm512_permutex2var_epi8(w[2 * p], pv->idx, w[2 * p + 1]));
    return r;
}

/* A whole vector stored at dst: non-temporal if nt (a constant; dst then
 * on a vector boundary). */
__attribute__((always_inline)) static inline void permute_store(uint8_t *dst, __m512i r, bool nt)
{
    if (nt)
        _mm512_stream_si512((void *)dst, r);
    else
        _mm512_storeu_si512(dst, r);
}

/* One block: its windows loaded (masked to the bytes it reads; a window
 * past the block's last is a zero mask and loads nothing), each vector
 * permuted from its `pairs` window pairs and stored, whole ones streamed
 * if nt (permute_streams). `full`: the block is BLOCK_MAX bytes, every
 * vector stored whole, so the loop has a constant count and no test per
 * vector (TILE inner 1x2 u8 at 8 KiB, blocks of eight vectors from four
 * windows: 125 -> 98 ns). */
__attribute__((always_inline)) static inline void permute_block(const permute_plan *pl, const uint8_t *src,
                                                                uint8_t *dst, unsigned pairs, bool full, bool nt)
{
    __m512i w[WINDOWS_MAX];
    for (unsigned i = 0; i < 2 * pairs; i++)
        w[i] = _mm512_maskz_loadu_epi8(pl->win_mask[i], src + pl->win_offset[i]);
    if (full) {
#pragma GCC unroll 8
        for (unsigned v = 0; v < VECTORS_MAX; v++)
            permute_store(dst + 64 * v, permute_vector_of(&pl->vec[v], w, pairs), nt);
        return;
    }
    for (unsigned v = 0; v < pl->vectors; v++) {
        const permute_vector *pv = &pl->vec[v];
        const __m512i r = permute_vector_of(pv, w, pairs);
        if (pv->store == ~0ull)
            permute_store(dst + 64 * v, r, nt);
        else
            _mm512_mask_storeu_epi8(dst + 64 * v, pv->store, r);
    }
}

/* Window i of a halves plan: its two 32-byte runs, each masked to the bytes
 * the block reads. */
static inline __m512i window_halves(const permute_plan *pl, const uint8_t *src, unsigned i)
{
    const __m256i lo = _mm256_maskz_loadu_epi8((__mmask32)pl->win_mask[i], src + pl->win_offset[i]);
    const __m256i hi = _mm256_maskz_loadu_epi8((__mmask32)(pl->win_mask[i] >> 32), src + pl->win_high[i]);
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* One block of a rows or halves plan, each vector at its own offset. Apart
 * from permute_block, whose stores at 64 * v kept their speed only so (with
 * the offsets read from the tables, TILE inner 3x3 u8 at 1 MiB took 17.9
 * us, 14.2 before). Its vectors may be stored in part (masked). */
__attribute__((always_inline)) static inline void permute_placed_block(const permute_plan *pl, const uint8_t *src,
                                                                       uint8_t *dst, unsigned pairs, bool halves)
{
    __m512i w[WINDOWS_MAX];
    for (unsigned i = 0; i < 2 * pairs; i++)
        w[i] = halves ? window_halves(pl, src, i) : _mm512_maskz_loadu_epi8(pl->win_mask[i], src + pl->win_offset[i]);
    for (unsigned v = 0; v < pl->vectors; v++) {
        const permute_vector *pv = &pl->vec[v];
        const __m512i r = permute_vector_of(pv, w, pairs);
        if (pv->store == ~0ull)
            _mm512_storeu_si512(dst + pv->dst, r);
        else
            _mm512_mask_storeu_epi8(dst + pv->dst, pv->store, r);
    }
}

/* The window pairs of a plan. */
static inline unsigned pairs_of(const permute_plan *pl)
{
    return (pl->windows + 1) / 2;
}

/* One block (not full), its pairs a constant in each case. */
__attribute__((always_inline)) static inline void permute_one(const permute_plan *pl, const uint8_t *src,
                                                              uint8_t *dst)
{
    switch (pairs_of(pl)) {
    case 1: permute_block(pl, src, dst, 1, false, false); break;
    case 2: permute_block(pl, src, dst, 2, false, false); break;
    case 3: permute_block(pl, src, dst, 3, false, false); break;
    default: permute_block(pl, src, dst, 4, false, false); break;
    }
}

/* How far ahead of a block its windows are prefetched, in source bytes,
 * rounded up to whole blocks: where the step's output reaches the stream
 * threshold. The windows are masked loads, and Zen 5's prefetchers did
 * not follow them: NHWC DEPTH_TO_SPACE CRD B3 C3 u8 at 16 MiB ran 0.39 x
 * best copy, 0.81-0.91 with them prefetched 2 KiB ahead, SPACE_TO_DEPTH
 * B2 C3 f32 at 64 MiB 0.36 -> 0.66 (1 KiB and 4 KiB ahead did the same);
 * at 1 MiB it changed nothing beyond noise (tmv-bench --tmv_sweep=full,
 * 2026-11-30). */
#define PERMUTE_PREFETCH_BYTES 2048

/* Prefetches the windows of the block whose source base is at. */
__attribute__((always_inline)) static inline void permute_prefetch(const permute_plan *pl, const uint8_t *at)
{
    for (unsigned k = 0; k < pl->windows; k++) {
        _mm_prefetch((const char *)(at + pl->win_offset[k]), _MM_HINT_T0);
        if (pl->halves)
            _mm_prefetch((const char *)(at + pl->win_high[k]), _MM_HINT_T0);
    }
}

/* The tables the block loops read (vectors, windows), copied to `to`,
 * which is returned; the plan's other fields are left out. */
__attribute__((always_inline)) static inline const permute_plan *permute_tables_copy(permute_plan *to,
                                                                                  const permute_plan *from)
{
    to->vectors = from->vectors;
    to->windows = from->windows;
    to->halves = from->halves;
    for (unsigned v = 0; v < from->vectors; v++)
        to->vec[v] = from->vec[v];
    for (unsigned k = 0; k < WINDOWS_MAX; k++) {   /* those past windows: empty masks, loading nothing */
        to->win_offset[k] = from->win_offset[k];
        to->win_mask[k] = from->win_mask[k];
        to->win_high[k] = from->win_high[k];
    }
    return to;
}

/* The blocks of the outer walk: the innermost outer dim in a loop (after
 * it, when `tail` is not NULL, its tail block), the others walked.
 * `placed` (a constant, as `full` and `halves`): a rows or halves plan's
 * blocks (permute_placed_block), of windows of halves if `halves`; each
 * block's windows prefetched `ahead` bytes on (0: none). The plans'
 * tables are copied to the stack first: a byte store may alias the kernel
 * state, so read through it the tables were read again after every store,
 * and the loads and the vector loop's test waited on them. A copy of the
 * whole plans (3 KiB, with their dims) went through a memcpy call; the
 * tables alone are about a kilobyte of vector moves (SPACE_TO_DEPTH NHWC
 * B3 CRD C3 f32 at 8 KiB 295 -> 225 ns copying the plans, 214 the tables;
 * at 1 MiB 39.1 -> 26.8 us). Declaring the plans restrict instead changed
 * nothing (gcc 12). */
__attribute__((always_inline)) static inline void permute_blocks(const permute_plan *pl, const permute_plan *tail,
                                                                 const tmv_copy_shape *outer, const uint8_t *src,
                                                                 uint8_t *dst, unsigned pairs, bool full, bool placed,
                                                                 bool halves, uint64_t ahead, bool nt)
{
    const uint32_t in = outer->rank - 1;
    const uint64_t n = outer->sizes[in], ss = outer->src_strides[in], ds = outer->dst_strides[in];
    permute_plan own, own_tail;
    pl = permute_tables_copy(&own, pl);
    tail = tail != NULL ? permute_tables_copy(&own_tail, tail) : NULL;
    tmv_walk walk;
    tmv_walk_init(&walk, outer, in);
    do {
        for (uint64_t i = 0; i < n; i++) {
            if (ahead != 0)
                permute_prefetch(pl, src + walk.src + i * ss + ahead);
            if (placed)
                permute_placed_block(pl, src + walk.src + i * ss, dst + walk.dst + i * ds, pairs, halves);
            else
                permute_block(pl, src + walk.src + i * ss, dst + walk.dst + i * ds, pairs, full, nt);
        }
        if (tail != NULL && placed)   /* at most the block's windows, so its pairs do */
            permute_placed_block(tail, src + walk.src + n * ss, dst + walk.dst + n * ds, pairs, halves);
        else if (tail != NULL)
            permute_one(tail, src + walk.src + n * ss, dst + walk.dst + n * ds);
    } while (tmv_walk_next(&walk));
}

/* permute_blocks of a rows or halves plan, its pairs a constant. */
__attribute__((always_inline)) static inline void permute_placed_pairs(const permute_plan *pl,
                                                                       const permute_plan *tail,
                                                                       const tmv_copy_shape *outer,
                                                                       const uint8_t *src, uint8_t *dst, bool halves,
                                                                       uint64_t ahead)
{
    switch (pairs_of(pl)) {
    case 1: permute_blocks(pl, tail, outer, src, dst, 1, false, true, halves, ahead, false); break;
    case 2: permute_blocks(pl, tail, outer, src, dst, 2, false, true, halves, ahead, false); break;
    case 3: permute_blocks(pl, tail, outer, src, dst, 3, false, true, halves, ahead, false); break;
    default: permute_blocks(pl, tail, outer, src, dst, 4, false, true, halves, ahead, false); break;
    }
}

/* A rows or halves plan (out of line in permute_placed_near: the plain
 * plans' code stays as it was). One block takes every pair (those past its
 * windows load nothing). */
__attribute__((always_inline)) static inline void permute_placed(const permute_plan *pl, const permute_plan *tail,
                                                                 const tmv_copy_shape *outer, const uint8_t *src,
                                                                 uint8_t *dst, uint64_t ahead)
{
    if (outer->rank == 0 && pl->halves)
        permute_placed_block(pl, src, dst, PAIRS_MAX, true);
    else if (outer->rank == 0)
        permute_placed_block(pl, src, dst, PAIRS_MAX, false);
    else if (pl->halves)
        permute_placed_pairs(pl, tail, outer, src, dst, true, ahead);
    else
        permute_placed_pairs(pl, tail, outer, src, dst, false, ahead);
}

__attribute__((noinline)) static void permute_placed_near(const permute_plan *pl, const permute_plan *tail,
                                                          const tmv_copy_shape *outer, const uint8_t *src,
                                                          uint8_t *dst)
{
    permute_placed(pl, tail, outer, src, dst, 0);
}

/* permute_blocks with `full` a constant. */
__attribute__((always_inline)) static inline void permute_blocks_pairs(const permute_plan *pl,
                                                                       const permute_plan *tail,
                                                                       const tmv_copy_shape *outer,
                                                                       const uint8_t *src, uint8_t *dst,
                                                                       unsigned pairs, bool full, uint64_t ahead,
                                                                       bool nt)
{
    if (full)
        permute_blocks(pl, tail, outer, src, dst, pairs, true, false, false, ahead, nt);
    else
        permute_blocks(pl, tail, outer, src, dst, pairs, false, false, false, ahead, nt);
}

/* The blocks of plan pl (and its tail) at every position of the outer
 * walk, each block's windows prefetched `ahead` bytes on (0: none, a
 * constant in the calls that do not prefetch, so theirs is the code
 * without: with a test per block, 8 KiB TILEs ran up to 1.19x slower);
 * a plain plan's whole vectors streamed if nt (a constant). */
__attribute__((always_inline)) static inline void permute_run(const permute_plan *pl, const permute_plan *tail,
                                                              const tmv_copy_shape *outer, const uint8_t *src,
                                                              uint8_t *dst, uint64_t ahead, bool nt)
{
    if (plan_placed(pl)) {
        if (ahead != 0)
            permute_placed(pl, tail, outer, src, dst, ahead);
        else
            permute_placed_near(pl, tail, outer, src, dst);
        return;
    }
    const bool full = pl->vectors == VECTORS_MAX && pl->vec[VECTORS_MAX - 1].store == ~0ull;
    if (outer->rank == 0) {
        permute_one(pl, src, dst);
        return;
    }
    switch (pairs_of(pl)) {
    case 1: permute_blocks_pairs(pl, tail, outer, src, dst, 1, full, ahead, nt); break;
    case 2: permute_blocks_pairs(pl, tail, outer, src, dst, 2, full, ahead, nt); break;
    case 3: permute_blocks_pairs(pl, tail, outer, src, dst, 3, full, ahead, nt); break;
    default: permute_blocks_pairs(pl, tail, outer, src, dst, 4, full, ahead, nt); break;
    }
}

/* permute_run for a step past the stream threshold, its windows prefetched. */
__attribute__((noinline)) static void permute_far(const permute_plan *pl, const permute_plan *tail,
                                                  const tmv_copy_shape *outer, const uint8_t *src, uint8_t *dst,
                                                  uint64_t ahead)
{
    permute_run(pl, tail, outer, src, dst, ahead, false);
}

/* permute_run streaming a plain plan's whole vectors (permute_streams),
 * its windows prefetched `ahead` bytes on (0: none). */
__attribute__((noinline)) static void permute_streamed(const permute_plan *pl, const permute_plan *tail,
                                                       const tmv_copy_shape *outer, const uint8_t *src, uint8_t *dst,
                                                       uint64_t ahead)
{
    if (ahead != 0)
        permute_run(pl, tail, outer, src, dst, ahead, true);
    else
        permute_run(pl, tail, outer, src, dst, 0, true);
    _mm_sfence();
}

/* The outer walk of plan pl over s: the dims outside the block but its
 * rows dim, the split dim counting its whole blocks of `periods`. */
static void permute_outer(const tmv_copy_shape *s, const permute_plan *pl, tmv_copy_shape *outer)
{
    *outer = *s;
    outer->rank = s->rank - pl->inner.dims;
    if (pl->rows > 1) {
        for (uint32_t d = pl->row_dim; d + 1 < outer->rank; d++) {
            outer->sizes[d] = outer->sizes[d + 1];
            outer->src_strides[d] = outer->src_strides[d + 1];
            outer->dst_strides[d] = outer->dst_strides[d + 1];
        }
        outer->rank--;
    }
    if (pl->inner.periods > 1) {
        const uint32_t d = outer->rank - 1;
        outer->sizes[d] /= pl->inner.periods;
        outer->src_strides[d] *= pl->inner.periods;
        outer->dst_strides[d] *= pl->inner.periods;
    }
}

/* Whether a step of `bytes` output bytes past the stream threshold
 * streams its stores: a plain plan (vectors at 64 * v) whose every vector
 * is stored whole, on vector boundaries (the destination and the outer
 * walk's strides), and reading at most half of what it writes: a
 * broadcast, whose reads stay in cache while every line it writes would
 * be read for ownership first. TILE
 * inner 3x8 u8 at 64 MiB (copy_permute, chosen where the CPU's reported
 * L3 prices the step as cache) went 0.98 -> 2.44 x best copy. Permutes
 * that read as much as they write went both ways (NHWC SPACE_TO_DEPTH
 * CRD B2 C16 f32 0.72 -> 1.06, B3 C3 f32 0.68 -> 0.59, DEPTH_TO_SPACE
 * CRD B2 C3 u8 0.69 -> 0.61), so they keep plain stores. */
static bool permute_streams(const tmv_copy_shape *s, uint64_t bytes, const permute_plan *pl,
                            const tmv_copy_shape *outer, const uint8_t *dst)
{
    if (plan_placed(pl) || outer->rank == 0 || ((uintptr_t)dst & 63) != 0)
        return false;
    for (unsigned v = 0; v < pl->vectors; v++)
        if (pl->vec[v].store != ~0ull)
            return false;
    for (uint32_t d = 0; d < outer->rank; d++)
        if (outer->dst_strides[d] % 64 != 0)
            return false;
    return 2 * tmv_shape_source_extent(s) <= bytes;
}

static void permute_copy(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const permute_state *st = s->state;
    tmv_copy_shape sorted;
    if (st != NULL)
        s = plan_order(st, s, &sorted);
    if (!plan_fits(st, s)) {
        tmv_copy_memcpy_scalar(s, src, dst);
        return;
    }
    const permute_plan *pl = &st->block, *tail = st->tail.vectors != 0 ? &st->tail : NULL;
    tmv_copy_shape outer;
    permute_outer(s, pl, &outer);
    const uint64_t ss = outer.rank > 0 ? outer.src_strides[outer.rank - 1] : 0;
    const uint64_t bytes = tmv_shape_bytes(s);
    const bool past = bytes >= s->tuning->stream_threshold, far = ss != 0 && past;
    const uint64_t ahead = far ? tmv_ahead_in_blocks(PERMUTE_PREFETCH_BYTES, ss) : 0;
    if (past && permute_streams(s, bytes, pl, &outer, dst))
        permute_streamed(pl, tail, &outer, src, dst, ahead);
    else if (far)
        permute_far(pl, tail, &outer, src, dst, ahead);
    else
        permute_run(pl, tail, &outer, src, dst, 0, false);
}

/* permute_streams of the shape, its destination taken as line-aligned
 * (the cost model's question, kernels.h). */
bool tmv_copy_permute_avx512vbmi_streams(const tmv_copy_shape *s)
{
    const permute_state *st = permute_plan_of(s);
    if (st == NULL)
        return false;
    tmv_copy_shape sorted, outer;
    const tmv_copy_shape *in_order = plan_order(st, s, &sorted);
    permute_outer(in_order, &st->block, &outer);
    return permute_streams(in_order, tmv_shape_bytes(in_order), &st->block, &outer, NULL);
}

void tmv_copy_permute_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    permute_copy(s, src, dst);
}

void tmv_copy_permute_placed_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    permute_copy(s, src, dst);
}
