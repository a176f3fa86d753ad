/* copy_permute_avx2.c - copies and broadcasts of elements of up to 8 bytes whose inner dims write a dense block of 32-512 bytes: per 32-byte vector, a byte shuffle of each of its (at most twelve) pairs of 16-byte source windows, one window per lane, or-ed together, from tables built at create.
 *
 * The AVX-512 VBMI set moves such blocks with copy_permute/avx512vbmi's
 * 64-byte window permutes; a CPU without it (Zen 2 and 3, most Intel
 * client parts) had nothing between the byte-by-byte copy and the
 * (de)interleaves' fixed shapes: SPACE_TO_DEPTH of NHWC, CRD, C3 u8, B2
 * writes each output pixel from two 6-byte runs and ran copy_w1 at 0.008 x
 * memcpy at 8 KiB on a Zen 3. vpshufb shuffles within 16-byte lanes, so
 * here each lane of an output vector takes its bytes from 16-byte windows
 * of the source (the fewest that hold them, starting at a lane's least
 * source byte), each pair of windows (one for each lane) is loaded as one
 * vector, shuffled to its bytes (the others zeroed) and or-ed in. Every
 * vector takes the plan's most pairs (those past a lane's windows shuffle
 * to nothing), so the loops have a constant count.
 *
 * The block is the most inner dims that write densely (with periods of
 * the dim outside them when they exceed 512 bytes, permute_block.h; when
 * no count of periods that fills vectors divides that dim, its last
 * periods are one more block, over bytes of the one before, which it
 * writes again with the same values); the block's last vector, when the
 * block is not a whole number of them, is likewise its last 32 bytes.
 * Windows never leave the block's source span (the plan clamps them to
 * its last byte), so no load leaves the source.
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
#include "copy_permute_plan_avx2.h"

/* The last shape this thread made a plan for, and the plan: the planner
 * asks accepts, features and prepare of one shape in turn at create. */
static _Thread_local struct {
    bool           valid, ok;
    tmv_copy_shape key;
    permute2_plan  plan;
} last_plan;

/* tmv_permute2_plan_make through last_plan: the plan of s, NULL if none. */
static const permute2_plan *permute2_plan_of(const tmv_copy_shape *s)
{
    if (!last_plan.valid || !tmv_shape_same_geometry(&last_plan.key, s)) {
        last_plan.key = *s;
        last_plan.ok = tmv_permute2_plan_make(s, &last_plan.plan);
        last_plan.valid = true;
    }
    return last_plan.ok ? &last_plan.plan : NULL;
}

void tmv_copy_permute_avx2_prepare(const tmv_copy_shape *s, void *state)
{
    const permute2_plan *pl = permute2_plan_of(s);
    if (pl != NULL)
        memcpy(state, pl, sizeof *pl);
}

bool tmv_copy_permute_avx2_accepts(const tmv_copy_shape *s)
{
    return permute2_plan_of(s) != NULL;
}

/* The dims outside the block: its outermost dim counting whole blocks of
 * `periods`. */
static void outer_of(const permute2_plan *pl, const tmv_copy_shape *s, tmv_copy_shape *outer)
{
    *outer = *s;
    outer->rank = s->rank - pl->inner.dims;
    if (pl->inner.periods > 1) {
        const uint32_t d = outer->rank - 1;
        outer->sizes[d] /= pl->inner.periods;
        outer->src_strides[d] *= pl->inner.periods;
        outer->dst_strides[d] *= pl->inner.periods;
    }
}

/* The periods past the whole blocks of the split dim (0: none, or no split
 * dim), which one more block, of its last `periods` periods, moves. */
static uint64_t rest_of(const permute2_plan *pl, const tmv_copy_shape *s)
{
    return pl->inner.periods > 1 ? s->sizes[s->rank - pl->inner.dims - 1] % pl->inner.periods : 0;
}

/* Priced on its blocks, the window pairs they load and shuffle (lines) and
 * the vectors they store (pieces). */
void tmv_copy_permute_avx2_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    const permute2_plan *pl = permute2_plan_of(s);
    if (pl == NULL)
        return;
    tmv_copy_shape sorted = *s, outer;
    if (pl->by_destination)
        tmv_permute_dims_by_destination(&sorted);
    outer_of(pl, &sorted, &outer);
    double blocks = 1;
    for (uint32_t d = 0; d + 1 < outer.rank; d++)
        blocks *= (double)outer.sizes[d];
    if (outer.rank > 0)
        blocks *= (double)(outer.sizes[outer.rank - 1] + (rest_of(pl, &sorted) != 0));
    f->blocks = blocks;
    f->lines = blocks * pl->vectors * pl->entries;
    f->pieces = blocks * pl->vectors;
}

/* The tables were built for s's inner dims (and at least `periods` periods
 * of the dim outside them). */
static bool plan_fits(const permute2_plan *pl, const tmv_copy_shape *s)
{
    uint64_t cut;
    return pl != NULL && pl->vectors != 0 && tmv_block_dims_match(&pl->inner, s, &cut) &&
           (pl->inner.periods == 1 || cut >= pl->inner.periods);
}

/* Vector v of a block: the or of its `entries` shuffled window pairs. */
__attribute__((always_inline)) static inline __m256i permute2_vector(const permute2_plan *restrict pl,
                                                                   const uint8_t *src, unsigned v, unsigned entries)
{
    __m256i r = _mm256_setzero_si256();
    for (unsigned e = 0; e < entries; e++) {
        const uint64_t win = pl->win[v * entries + e];
        const __m256i w = _mm256_loadu2_m128i((const __m128i *)(src + (win >> 32)),
                                              (const __m128i *)(src + (uint32_t)win));
        r = _mm256_or_si256(r, _mm256_shuffle_epi8(w, pl->ctl[v * entries + e]));
    }
    return r;
}

/* One block. `full`: PERMUTE2_VECTORS_MAX whole vectors, each at 32 v: a
 * loop of constant count, unrolled, with no offset read per store (the
 * offsets and tables are loads of their own: each vector of one pair
 * costs five loads and a store, and a loop of those ran at a third of the
 * speed of the same shuffles with constant offsets, in a microbenchmark). */
__attribute__((always_inline)) static inline void permute2_block(const permute2_plan *restrict pl,
                                                                 const uint8_t *src, uint8_t *restrict dst,
                                                                 unsigned entries, bool full)
{
    if (full && entries * PERMUTE2_VECTORS_MAX <= PERMUTE2_SLOTS) {   /* (a full block has at most four pairs) */
#pragma GCC unroll 16
        for (unsigned v = 0; v < PERMUTE2_VECTORS_MAX; v++)
            _mm256_storeu_si256((__m256i *)(dst + 32 * v), permute2_vector(pl, src, v, entries));
        return;
    }
    /* pl->vectors: a plan holds at most PERMUTE2_SLOTS pairs, which the
     * bound tells the compiler (else it warns of slots past the tables) */
    const unsigned vectors = pl->vectors < PERMUTE2_SLOTS / entries ? pl->vectors : PERMUTE2_SLOTS / entries;
    for (unsigned v = 0; v < vectors; v++)
        _mm256_storeu_si256((__m256i *)(dst + pl->dst[v]), permute2_vector(pl, src, v, entries));
}

/* The blocks of the outer walk, the innermost outer dim in a loop; then,
 * when `rest` periods of it are left, the block of its last periods (at
 * (rest - periods) periods past the last whole block). */
__attribute__((always_inline)) static inline void permute2_blocks(const permute2_plan *pl,
                                                                  const tmv_copy_shape *outer, uint64_t rest,
                                                                  const uint8_t *src, uint8_t *dst,
                                                                  unsigned entries, bool full)
{
    if (outer->rank == 0) {
        permute2_block(pl, src, dst, entries, full);
        return;
    }
    const uint32_t in = outer->rank - 1;
    const uint64_t n = outer->sizes[in], ss = outer->src_strides[in], ds = outer->dst_strides[in];
    /* the last block's offsets from the last whole one's: rest periods on, less a block's */
    const uint64_t back = pl->inner.periods - rest, rs = ss - back * (ss / pl->inner.periods), rd = ds - back * (ds / pl->inner.periods);
    tmv_walk walk;
    tmv_walk_init(&walk, outer, in);
    do {
        for (uint64_t i = 0; i < n; i++)
            permute2_block(pl, src + walk.src + i * ss, dst + walk.dst + i * ds, entries, full);
        if (rest != 0)
            permute2_block(pl, src + walk.src + (n - 1) * ss + rs, dst + walk.dst + (n - 1) * ds + rd, entries, full);
    } while (tmv_walk_next(&walk));
}

/* permute2_blocks with the plan's entries a constant. */
__attribute__((always_inline)) static inline void permute2_entries(const permute2_plan *pl,
                                                                   const tmv_copy_shape *outer, uint64_t rest,
                                                                   const uint8_t *src, uint8_t *dst, bool full)
{
    switch (pl->entries) {
    case 1: permute2_blocks(pl, outer, rest, src, dst, 1, full); break;
    case 2: permute2_blocks(pl, outer, rest, src, dst, 2, full); break;
    case 3: permute2_blocks(pl, outer, rest, src, dst, 3, full); break;
    case 4: permute2_blocks(pl, outer, rest, src, dst, 4, full); break;
    case 5: permute2_blocks(pl, outer, rest, src, dst, 5, full); break;
    case 6: permute2_blocks(pl, outer, rest, src, dst, 6, full); break;
    case 7: permute2_blocks(pl, outer, rest, src, dst, 7, full); break;
    case 8: permute2_blocks(pl, outer, rest, src, dst, 8, full); break;
    case 9: permute2_blocks(pl, outer, rest, src, dst, 9, full); break;
    case 10: permute2_blocks(pl, outer, rest, src, dst, 10, full); break;
    case 11: permute2_blocks(pl, outer, rest, src, dst, 11, full); break;
    default: permute2_blocks(pl, outer, rest, src, dst, 12, full); break;
    }
}

void tmv_copy_permute_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const permute2_plan *pl = s->state;
    tmv_copy_shape sorted, outer;
    if (pl != NULL && pl->by_destination) {
        sorted = *s;
        tmv_permute_dims_by_destination(&sorted);
        s = &sorted;
    }
    if (!plan_fits(pl, s)) {
        tmv_copy_memcpy_scalar(s, src, dst);
        return;
    }
    outer_of(pl, s, &outer);
    if (pl->vectors == PERMUTE2_VECTORS_MAX && pl->dst[PERMUTE2_VECTORS_MAX - 1] == 32 * (PERMUTE2_VECTORS_MAX - 1))
        permute2_entries(pl, &outer, rest_of(pl, s), src, dst, true);
    else
        permute2_entries(pl, &outer, rest_of(pl, s), src, dst, false);
}
