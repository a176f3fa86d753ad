/* copy_permute_plan_avx512vbmi.c - copy_permute's plans (copy_permute_plan_avx512vbmi.h): the search for a shape's block, its windows and its vectors' permute tables; the kernel, and why it works so, in copy_permute_avx512vbmi.c. */
#include "copy_permute_plan_avx512vbmi.h"

#include <string.h>

/* The least of off[0..n) at or above `from`; UINT64_MAX if none. Eight at
 * a time: this runs at create, for every block size a plan tries. */
static uint64_t least_from(const uint64_t *off, unsigned n, uint64_t from)
{
    const __m512i floor = _mm512_set1_epi64((long long)from);
    __m512i least = _mm512_set1_epi64(-1);
    for (unsigned i = 0; i < n; i += 8) {
        const __mmask8 in = n - i >= 8 ? 0xff : (__mmask8)((1u << (n - i)) - 1);
        const __m512i v = _mm512_maskz_loadu_epi64(in, off + i);
        least = _mm512_mask_min_epu64(least, in & _mm512_cmpge_epu64_mask(v, floor), least, v);
    }
    return _mm512_reduce_min_epu64(least);
}

/* The offsets of windows of `width` bytes (64, or HALF_BYTES for a
 * halves plan's runs) that cover off[0..n): greedy from the least offset,
 * each next one from the least offset the windows before leave, which
 * takes the fewest. Returns how many, 0 if more than `most` (at most
 * 2 * WINDOWS_MAX). */
static unsigned cover(const uint64_t *off, unsigned n, unsigned most, uint64_t width, uint64_t *start)
{
    unsigned w = 0;
    for (uint64_t least = least_from(off, n, 0); least != UINT64_MAX; least = least_from(off, n, least + width)) {
        if (w == most)
            return 0;
        start[w++] = least;
    }
    return w;
}

/* The windows a plan may load (`most`) as runs a cover counts: a halves
 * plan's window is two runs. */
static unsigned most_runs(unsigned most, bool halves)
{
    return halves ? 2 * most : most;
}

static uint64_t run_width(bool halves)
{
    return halves ? HALF_BYTES : 64;
}

/* How many windows' runs a block of `periods` periods of the dim outside
 * s's inner `dims` (or of those dims alone, periods 1), `bytes` bytes,
 * reads; 0 if more than `most` windows. */
static unsigned block_windows(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                              unsigned most, bool halves)
{
    uint64_t off[BLOCK_MAX], start[2 * WINDOWS_MAX];
    return tmv_block_offsets(s, dims, periods, off, bytes)
               ? cover(off, (unsigned)bytes, most_runs(most, halves), run_width(halves), start)
               : 0;
}

/* A block with a tail, when no dividing one is found: of the most inner
 * dims that write densely, the whole block if it reads at most `most`
 * windows, else its outermost dim (if it is the first of them) cut into
 * blocks of the periods that fill their vectors best among those that do,
 * and at least BLOCK_MIN_TAIL bytes. A block of more periods reads at
 * least the windows of one of fewer (it holds its bytes, and the greedy
 * cover is the least), so the most periods `most` windows hold is a binary
 * search. */
static bool tail_block_of(const tmv_copy_shape *s, unsigned most_windows, bool halves, uint32_t *dims,
                          uint64_t *periods, uint64_t *bytes)
{
    tmv_dense_block b;
    for (uint32_t j = s->rank; j > 0; j--) {
        if (!tmv_dense_block_of(s, j, &b))
            continue;
        const uint64_t t = b.bytes, n = b.n, u = t / n;   /* u: bytes per period */
        uint64_t most = 0;   /* the most periods that read at most most_windows windows */
        if (!b.cuts) {
            most = t <= BLOCK_MAX && block_windows(s, j, 1, t, most_windows, halves) != 0 ? n : 0;
        } else if (u <= BLOCK_MAX && block_windows(s, j - 1, 1, u, most_windows, halves) != 0) {
            /* one period fits: search */
            uint64_t hi = BLOCK_MAX / u < n ? BLOCK_MAX / u : n;
            most = 1;
            while (most < hi) {
                const uint64_t k = (most + hi + 1) / 2;
                if (block_windows(s, j - 1, k, k * u, most_windows, halves) != 0)
                    most = k;
                else
                    hi = k - 1;
            }
        }
        if (most == n && t >= BLOCK_MIN_TAIL) {
            *dims = j;
            *periods = 1;
            *bytes = t;
            return true;
        }
        const uint64_t k = most == 0 || most == n ? 0 : tmv_block_periods(n, u, BLOCK_MIN_TAIL, most * u, true, 64);
        if (k != 0) {
            *dims = j - 1;
            *periods = k;
            *bytes = k * u;
            return true;
        }
    }
    return false;
}

/* The window of the block's that holds source offset o (the first), and
 * o's byte in it: a halves plan's low half is its bytes 0-31, its high
 * half 32-63 (the high half of an odd last window is never reached: every
 * offset lies in a run before it). */
static unsigned window_of(const permute_plan *pl, uint64_t o, uint64_t *in_window)
{
    for (unsigned w = 0;; w++) {
        if (o - pl->win_offset[w] < run_width(pl->halves)) {
            *in_window = o - pl->win_offset[w];
            return w;
        }
        if (pl->halves && o - pl->win_high[w] < HALF_BYTES) {
            *in_window = HALF_BYTES + (o - pl->win_high[w]);
            return w;
        }
    }
}

/* Vector v's tables for its n bytes at source offsets o: each byte's window
 * (window_of), its place in the window's pair (one index vector serves
 * every pair: the bytes of the others are blended away) and the masks of
 * the bytes of pairs 1-3. */
static void vector_make(permute_plan *pl, unsigned v, const uint64_t *o, unsigned n, uint64_t dst)
{
    permute_vector *pv = &pl->vec[v];
    pv->dst = dst;
    uint8_t idx[64] = {0};
    for (unsigned i = 0; i < n; i++) {
        uint64_t in_window;
        const unsigned w = window_of(pl, o[i], &in_window);
        idx[i] = (uint8_t)(in_window | (w % 2) << 6);
        if (w >= 2)
            pv->pair[w / 2 - 1] |= 1ull << i;
        pl->win_mask[w] |= 1ull << in_window;
    }
    pv->idx = _mm512_loadu_si512(idx);
    pv->store = n == 64 ? ~0ull : (1ull << n) - 1;
}

/* The rows of a block: `rows` indices of dim `dim` (rows 1: none). */
typedef struct block_rows {
    uint64_t rows;
    uint32_t dim;
} block_rows;

static const block_rows no_rows = {1, 0};

/* The tables of a block of `periods` periods of s's dim outside its inner
 * `dims` (or of those dims alone, periods 1), `bytes` bytes, in each of
 * r's rows, into pl; false if it reads more than `most` windows (of
 * halves, if `halves`) or makes more than VECTORS_MAX vectors. */
static bool plan_tables(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                        const block_rows *r, unsigned most, bool halves, permute_plan *pl)
{
    uint64_t off[BLOCK_MAX], start[2 * WINDOWS_MAX];
    const uint64_t per_row = (bytes + 63) / 64;
    if (r->rows * per_row > VECTORS_MAX || !tmv_block_offsets(s, dims, periods, off, bytes))
        return false;
    const uint64_t row_src = r->rows > 1 ? s->src_strides[r->dim] : 0;
    const uint64_t row_dst = r->rows > 1 ? s->dst_strides[r->dim] : 0;
    for (uint64_t i = 1; i < r->rows; i++)
        for (uint64_t b = 0; b < bytes; b++)
            off[i * bytes + b] = off[b] + i * row_src;
    memset(pl, 0, sizeof *pl);
    const unsigned runs = cover(off, (unsigned)(r->rows * bytes), most_runs(most, halves), run_width(halves), start);
    if (runs == 0)
        return false;
    pl->halves = halves;
    pl->windows = halves ? (runs + 1) / 2 : runs;
    for (unsigned w = 0; w < pl->windows; w++) {
        pl->win_offset[w] = start[halves ? 2 * w : w];
        pl->win_high[w] = halves && 2 * w + 1 < runs ? start[2 * w + 1] : 0;
    }
    pl->vectors = (unsigned)(r->rows * per_row);
    for (uint64_t i = 0; i < r->rows; i++)
        for (uint64_t v = 0; v < per_row; v++)
            vector_make(pl, (unsigned)(i * per_row + v), off + i * bytes + 64 * v,
                        (unsigned)(bytes - 64 * v < 64 ? bytes - 64 * v : 64), i * row_dst + 64 * v);
    pl->rows = r->rows;
    pl->row_dim = r->dim;
    pl->row_size = r->rows > 1 ? s->sizes[r->dim] : 1;
    pl->row_src = row_src;
    pl->row_dst = row_dst;
    tmv_block_dims_keep(&pl->inner, s, dims, periods);
    return true;
}

/* Builds the tables of the block tmv_block_of chose (and of the tail block
 * its periods leave) into st; false if it reads more than `most` windows. */
static bool permute_plan_try(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                             const block_rows *r, unsigned most, bool halves, permute_state *st)
{
    memset(&st->tail, 0, sizeof st->tail);
    if (!plan_tables(s, dims, periods, bytes, r, most, halves, &st->block))
        return false;
    const uint64_t rest = periods > 1 ? s->sizes[s->rank - dims - 1] % periods : 0;
    /* the tail reads a part of what the block reads: no more windows */
    return rest == 0 || plan_tables(s, dims, rest, rest * (bytes / periods), r, most, halves, &st->tail);
}

/* The block of whole vectors that loads the fewest window pairs, the
 * largest of those: of the most inner dims that write densely, k periods
 * of the outermost (if it is the first of them) whose k * u bytes are a
 * multiple of 64, at most BLOCK_MAX and reading at most `most` windows,
 * the periods the k do not divide a tail block. A block whose last vector
 * is stored in part writes the next block's first from a misaligned
 * address, both across a line: TILE inner 3x2 f32 (rows of 24 bytes, 341
 * of them) took blocks of 11 rows, 264 bytes from three windows, 177 ns at
 * 8 KiB; blocks of 8 rows, three whole vectors from two windows, one
 * permute each, and a tail of 5 rows take 103 (memcpy 53; blocks of 16
 * rows, two pairs, 120). Only where the tail comes once in at least
 * WHOLE_BLOCKS_PER_TAIL blocks: TILE 3d [28, 4, 1] f64 by {1, 3, 3} writes
 * 288 bytes a position, one block of five vectors from one window (106
 * ns at 8 KiB), and as a block of three and a tail of two took 173. */
#define WHOLE_BLOCKS_PER_TAIL 4

static bool whole_block_plan(const tmv_copy_shape *s, unsigned most, permute_state *st)
{
    tmv_dense_block b;
    for (uint32_t j = s->rank; j > 0; j--) {
        if (!tmv_dense_block_of(s, j, &b) || !b.cuts)
            continue;
        const uint64_t n = b.n, u = b.bytes / n;
        uint64_t periods = 0;
        unsigned pairs = 0;
        for (uint64_t k = 1; k <= n && k * u <= BLOCK_MAX; k++) {
            const unsigned w = k * u % 64 == 0 ? block_windows(s, j - 1, k, k * u, most, false) : 0;
            if (w == 0)
                continue;
            if (periods != 0 && (w + 1) / 2 > pairs)
                break;
            periods = k;
            pairs = (w + 1) / 2;
        }
        if (periods == n)
            return permute_plan_try(s, j, 1, b.bytes, &no_rows, most, false, st);
        if (periods != 0 && n / periods >= WHOLE_BLOCKS_PER_TAIL)
            return permute_plan_try(s, j - 1, periods, periods * u, &no_rows, most, false, st);
    }
    return false;
}

/* The largest block that reads at most `most` windows: of whole vectors
 * (whole_block_plan); else of at most 512, 256 or 128 bytes, of periods
 * that divide their dim, if any; else with a tail (tail_block_of:
 * DEPTH_TO_SPACE NHWC CRD C3 u8, B = 3: 7 of the 17 pixel triples of a
 * row, 63 bytes from four windows, twice, and a tail of 3). */
static bool permute_plan_within(const tmv_copy_shape *s, unsigned most, bool halves, permute_state *st)
{
    uint32_t dims;
    uint64_t periods, bytes;
    if (!halves && whole_block_plan(s, most, st))
        return true;
    for (uint64_t limit = BLOCK_MAX; limit >= 2 * 64; limit /= 2)
        if (tmv_block_of(s, limit, BLOCK_MIN, 64, false, &dims, &periods, &bytes) &&
            permute_plan_try(s, dims, periods, bytes, &no_rows, most, halves, st))
            return true;
    return tail_block_of(s, most, halves, &dims, &periods, &bytes) &&
           permute_plan_try(s, dims, periods, bytes, &no_rows, most, halves, st);
}

/* The same with the block made of the rows of dim d (2 to VECTORS_MAX
 * of them), which the walk would otherwise give a block each: their
 * vectors share the block's windows. A row's bytes are cut to fit
 * BLOCK_MAX / rows, and the block then holds BLOCK_MIN bytes in all. */
static bool permute_plan_rows(const tmv_copy_shape *s, uint32_t d, unsigned most, permute_state *st)
{
    const block_rows r = {s->sizes[d], d};
    uint32_t dims;
    uint64_t periods, bytes;
    /* rows share windows only when their sources lie within a block's reach */
    if (r.rows < 2 || r.rows > VECTORS_MAX || s->src_strides[d] == 0 || s->src_strides[d] * (r.rows - 1) >= BLOCK_MAX)
        return false;
    for (uint64_t limit = BLOCK_MAX; limit >= 2 * 64; limit /= 2)
        if (tmv_block_of(s, limit / r.rows, (BLOCK_MIN + r.rows - 1) / r.rows, 64, false, &dims, &periods, &bytes) &&
            d + dims + (periods > 1) < s->rank && permute_plan_try(s, dims, periods, bytes, &r, most, false, st))
            return true;
    return false;
}

/* A plan's window loads per byte it stores. */
static double plan_loads_per_byte(const permute_plan *pl)
{
    uint64_t bytes = 0;
    for (unsigned v = 0; v < pl->vectors; v++)
        bytes += (uint64_t)__builtin_popcountll(pl->vec[v].store);
    return (double)pl->windows / (double)bytes;
}

/* Every vector of the plan is stored whole. */
static bool plan_whole(const permute_plan *pl)
{
    for (unsigned v = 0; v < pl->vectors; v++)
        if (pl->vec[v].store != ~0ull)
            return false;
    return true;
}

/* A block of at most four windows if there is one, else of at most eight:
 * two pairs of windows cost a vector two permutes, four pairs four, so a
 * block cut smaller to read four windows moves its bytes with fewer. Then
 * the same made of rows of one outer dim (permute_plan_rows), taken when
 * it loads at most half the windows per byte it stores of a plain block of
 * more than one window (rows whose vectors are stored in part only in
 * place of a plain block whose vectors are too, not where no plain block
 * exists: in place of the halves plan below DEPTH_TO_SPACE nhwc B8 CRD C16
 * f32 took 87 us against 33 at 1 MiB, and in place of TILE inner
 * {341, 3} f32 by {1, 2}'s blocks of three whole vectors they took 137 ns
 * against 112 at 8 KiB; SPACE_TO_DEPTH nchw B2 DCR C16 u8 at 8 KiB, blocks
 * of five 11-byte output rows from four windows, 345 ns, takes 246-256 as
 * rows of its block column, whose two rows read the same windows a byte
 * apart):
 * DEPTH_TO_SPACE of NHWC in CRD order writes B image rows from each input
 * pixel, B4 C16 u8 four 64-byte rows from one 256-byte pixel, which as
 * blocks of one row loaded the pixel's four windows for each row. A plain
 * block of one window has no loads to share, and a rows plan's vectors
 * are placed from its tables (permute_placed): TILE 3d [4, 4, 1] u8 by
 * {8, 8, 8} at 8 KiB, blocks of 256 bytes from one window, ran 109 ns as
 * a rows plan, 52 as a permute of a slice and its replicas. Rows
 * plans taken on fewer permutes per byte alone, with rows of part vectors,
 * made 66 sweep rows of TILE and NHWC SPACE_TO_DEPTH 5-30% slower.
 * Failing all, windows of two 32-byte halves: SPACE_TO_DEPTH of NHWC,
 * CRD, B3 C64 u8 (by destination, below) writes each pixel's channels from
 * nine source runs 64 bytes apart, a block of 32 channels from nine
 * windows, so no block of whole windows exists and it moved byte by byte
 * (copy_w1); its nine 32-byte runs are five windows of halves. */
static bool permute_plan_of_order(const tmv_copy_shape *s, permute_state *st)
{
    const bool plain =
        permute_plan_within(s, WINDOWS_FEW, false, st) || permute_plan_within(s, WINDOWS_MAX, false, st);
    const bool plain_whole = plain && plan_whole(&st->block);
    double least = plain ? plan_loads_per_byte(&st->block) : 0;
    bool rows = false;
    permute_state rowed;
    for (uint32_t d = 0; d < s->rank; d++)
        if (permute_plan_rows(s, d, WINDOWS_FEW, &rowed) || permute_plan_rows(s, d, WINDOWS_MAX, &rowed)) {
            const double loads = plan_loads_per_byte(&rowed.block);
            const bool shares = plain && st->block.windows > 1 && 2 * loads <= least;
            const bool taken = plan_whole(&rowed.block) || (plain && !plain_whole);
            if (taken && (rows ? loads < least : !plain || shares)) {
                *st = rowed;
                least = loads;
                rows = true;
            }
        }
    return plain || rows || permute_plan_within(s, WINDOWS_FEW, true, st) ||
           permute_plan_within(s, WINDOWS_MAX, true, st);
}

/* The plan of s's dims in their order, else by destination: the normal
 * order puts a transpose block innermost (shape.h), which may keep a dim
 * that writes densely out of the block. SPACE_TO_DEPTH of NHWC, CRD, B3
 * C64 u8 is [.., by (dst 3), c (src 1, dst 9), bx (dst 1)]: by its
 * destination, the channels can be cut into periods of the block by, bx. */
bool tmv_permute_plan_make(const tmv_copy_shape *s, permute_state *st)
{
    if (s->rank == 0 || s->elem_bytes > ELEM_MAX)
        return false;
    if (permute_plan_of_order(s, st))
        return true;
    tmv_copy_shape sorted = *s;
    if (!tmv_permute_dims_by_destination(&sorted) || !permute_plan_of_order(&sorted, st))
        return false;
    st->block.by_destination = st->tail.by_destination = true;
    return true;
}
