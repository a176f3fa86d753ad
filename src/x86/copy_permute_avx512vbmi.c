/* copy_permute_avx512vbmi.c - copies and broadcasts of elements of up to 32 bytes whose inner dims write a dense block of 96-512 bytes (or up to eight rows of one) from at most eight 64-byte source windows: per block a masked load per window and, per vector, a byte permute per window pair and a blend, from tables built at create.
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
 * Periods that divide the dim are preferred; when none gives a block, the
 * dim is cut into blocks of k periods and a tail of the rest, with tables
 * of its own: DEPTH_TO_SPACE of NHWC, CRD, C3 u8 writes output rows of 26
 * pixel pairs from 312 source bytes (five windows), which no divisor of
 * 26 cuts into blocks of 96 bytes or more; 21 pairs and a tail of 5 do.
 *
 * A block may also be the rows of one dim outside those (up to eight),
 * each row its own vectors from the windows all rows share, where that
 * does less work per byte (permute_plan_make): DEPTH_TO_SPACE of NHWC in
 * CRD order writes B image rows from each input pixel, and B4 C16 u8,
 * four 64-byte rows from one pixel's 256 bytes, took 76 us at 1 MiB by the
 * grouped transposes, 25 as one block of four rows.
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

#define BLOCK_MAX 512                    /* bytes of a block: 8 vectors */
/* Blocks of fewer bytes cost a block's loads for too few stores; with a
 * tail, whose blocks are sized to the windows (below), most of a vector
 * (DEPTH_TO_SPACE NHWC CRD C3 u8, B = 4: five pixel quads, 60 bytes). */
#define BLOCK_MIN 96
#define BLOCK_MIN_TAIL 48
/* Elements it takes: wider ones move as fast in runs. Up to 16 bytes,
 * TILE's rows of three f64 (a 24-byte element once the row is folded in)
 * went to fill_pattern, 204 ns at 8 KiB and 26.9 us at 1 MiB repeated
 * three times, where this takes 129 ns and 17.6 us; up to 32, 23 sweep
 * plans changed, 15 faster (to 1.59x), 4 slower (TILE inner 3x8 f64 at
 * 1 MiB 0.70x: fill_pattern is rated 2.2x its time there), geometric
 * mean 1.145 (tmv-plan-regret, two rounds). Bytes and 2-byte
 * elements were left to the (de)interleave kernels' lane shuffles
 * (DEPTH_TO_SPACE nchw B2 C3 u8 in L1: 535 ns by copy_interleave/avx2, 755
 * here) until SPACE_TO_DEPTH of NHWC, CRD, C3 u8 showed the other side: a
 * per-pixel transpose of 2 x 2 x 3 bytes, 4.5 us by
 * copy_deinterleave_rows/avx512vbmi at 8 KiB, 0.27 us here; the cost
 * model chooses between them. */
#define ELEM_MAX 32
#define VECTORS_MAX (BLOCK_MAX / 64)
#define WINDOWS_MAX 8                    /* per block: four vpermt2b pairs, held in registers */
#define WINDOWS_FEW 4                    /* what a block is first looked for with */
#define PAIRS_MAX (WINDOWS_MAX / 2)

typedef struct permute_vector {
    __m512i  idx;                        /* per byte: its byte in its window pair (bit 6: the pair's second) */
    uint64_t pair[PAIRS_MAX - 1];        /* bytes taken from pairs 1, 2 and 3 */
    uint64_t store;                      /* bytes of the vector inside the block */
    uint64_t dst;                        /* its offset from the block's destination base */
} permute_vector;

typedef struct permute_plan {
    permute_vector vec[VECTORS_MAX];
    uint64_t       win_offset[WINDOWS_MAX];   /* from the block's source base, bytes; unused: 0 */
    uint64_t       win_mask[WINDOWS_MAX];     /* the window's bytes the block reads; unused: none */
    unsigned       vectors, windows;
    /* what the tables were built for: the inner `dims` dims of the shape and,
     * when periods > 1, that many periods of the dim outside them */
    uint64_t       elem_bytes;
    uint32_t       dims;
    uint64_t       periods;
    uint64_t       sizes[TMV_SHAPE_MAX_DIMS], src_strides[TMV_SHAPE_MAX_DIMS], dst_strides[TMV_SHAPE_MAX_DIMS];
    /* rows > 1: the block is that many rows of those bytes, one per index
     * of dim row_dim (outside them), which the walk leaves out */
    uint64_t       rows, row_size, row_src, row_dst;
    uint32_t       row_dim;
} permute_plan;

/* The kernel's state: the block's plan and, when its periods do not divide
 * the split dim, the plan of the tail block of the remaining `periods`
 * (tail.vectors == 0: none). */
typedef struct permute_state {
    permute_plan block, tail;
} permute_state;

_Static_assert(sizeof(permute_state) <= TMV_KERNEL_STATE_BYTES, "permute plans exceed the kernel state");

/* The block the inner j dims of s write: its bytes, the size n of its
 * first dim (the shape's dim rank - j) and whether that dim is the one of
 * the largest destination stride, so the block can be cut into periods of
 * it. */
typedef struct dense_block {
    uint64_t bytes, n;
    bool     cuts;
} dense_block;

/* The inner j dims of s write a dense block: sorted by destination stride,
 * each dim's stride is the bytes of those inside it. */
static bool dense_block_of(const tmv_copy_shape *s, uint32_t j, dense_block *b)
{
    const uint32_t first = s->rank - j;
    uint64_t covered = s->elem_bytes;
    uint32_t used = 0, outermost = first;   /* used: bit d - first, dim d taken */
    for (uint32_t taken = 0; taken < j; taken++) {
        uint32_t d = first;
        while (d < s->rank && ((used >> (d - first) & 1u) || s->dst_strides[d] != covered))
            d++;
        if (d == s->rank || s->sizes[d] > (1ull << 40) / covered)
            return false;
        used |= 1u << (d - first);
        covered *= s->sizes[d];
        outermost = d;
    }
    *b = (dense_block){covered, s->sizes[first], outermost == first};
    return true;
}

/* Of the k <= n with least <= k * t <= limit (only divisors of n unless
 * `tail`), the one whose k * t bytes fill their vectors best (the larger
 * on ties); 0 if there is none. */
static uint64_t best_periods(uint64_t n, uint64_t t, uint64_t least, uint64_t limit, bool tail)
{
    uint64_t best = 0, best_fill = 0;
    for (uint64_t k = 1; k <= n && k * t <= limit; k++) {
        if (k * t < least || (!tail && n % k != 0))
            continue;
        const uint64_t bytes = k * t, fill = bytes * 1024 / ((bytes + 63) / 64 * 64);
        if (fill >= best_fill) {
            best = k;
            best_fill = fill;
        }
    }
    return best;
}

/* The block of s: the most inner dims that write densely, the outermost of
 * them (if it is the first of them in the shape) cut into `periods` of its
 * elements, a divisor, when they do not fit `limit` bytes whole; false
 * when no block of `least` bytes exists. */
static bool block_of(const tmv_copy_shape *s, uint64_t limit, uint64_t least, uint32_t *dims, uint64_t *periods,
                     uint64_t *bytes)
{
    dense_block b;
    for (uint32_t j = s->rank; j > 0; j--) {
        if (!dense_block_of(s, j, &b))
            continue;
        const uint64_t t = b.bytes, n = b.n;
        if (t <= limit && (!b.cuts || best_periods(n, t / n, least, limit, false) == n)) {
            *dims = j;
            *periods = 1;
            *bytes = t;
        } else if (b.cuts) {
            const uint64_t k = best_periods(n, t / n, least, limit, false);
            if (k == 0)
                continue;
            *dims = j - 1;
            *periods = k;
            *bytes = k * (t / n);
        } else {
            continue;
        }
        return *bytes >= least;
    }
    return false;
}

/* The source offset of each of the block's n bytes, from its source base:
 * the block's dims in the order they write (each one's destination stride
 * is the bytes of those before it), then `periods` of the dim outside them,
 * each a copy of the bytes so far, moved by its source stride. False if the
 * dims do not write n bytes densely. */
static bool block_offsets(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t *off, uint64_t n)
{
    const uint32_t first = s->rank - dims;
    uint64_t covered = s->elem_bytes;
    uint32_t used = 0;   /* bit d - first: dim d taken */
    if (covered > n)
        return false;
    for (uint64_t b = 0; b < covered; b++)
        off[b] = b;
    for (uint32_t taken = 0; taken <= dims; taken++) {
        uint64_t size = periods, src_stride = first > 0 ? s->src_strides[first - 1] : 0;
        if (taken < dims) {
            uint32_t d = first;
            while (d < s->rank && ((used >> (d - first) & 1u) || s->dst_strides[d] != covered))
                d++;
            if (d == s->rank)
                return false;
            used |= 1u << (d - first);
            size = s->sizes[d];
            src_stride = s->src_strides[d];
        }
        if (size > n / covered)
            return false;
        for (uint64_t i = 1; i < size; i++)
            for (uint64_t x = 0; x < covered; x++)
                off[i * covered + x] = off[x] + i * src_stride;
        covered *= size;
    }
    return covered == n;
}

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

/* The offsets of 64-byte windows that cover off[0..n): greedy from the
 * least offset, each next one from the least offset the windows before
 * leave, which takes the fewest. Returns how many, 0 if more than
 * `most` (at most WINDOWS_MAX). */
static unsigned cover(const uint64_t *off, unsigned n, unsigned most, uint64_t *start)
{
    unsigned w = 0;
    for (uint64_t least = least_from(off, n, 0); least != UINT64_MAX; least = least_from(off, n, least + 64)) {
        if (w == most)
            return 0;
        start[w++] = least;
    }
    return w;
}

/* How many windows a block of `periods` periods of the dim outside s's
 * inner `dims` (or of those dims alone, periods 1), `bytes` bytes, reads;
 * 0 if more than `most`. */
static unsigned block_windows(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                              unsigned most)
{
    uint64_t off[BLOCK_MAX], start[WINDOWS_MAX];
    return block_offsets(s, dims, periods, off, bytes) ? cover(off, (unsigned)bytes, most, start) : 0;
}

/* A block with a tail, when no dividing one is found: of the most inner
 * dims that write densely, the whole block if it reads at most `most`
 * windows, else its outermost dim (if it is the first of them) cut into
 * blocks of the periods that fill their vectors best among those that do,
 * and at least BLOCK_MIN_TAIL bytes. A block of more periods reads at
 * least the windows of one of fewer (it holds its bytes, and the greedy
 * cover is the least), so the most periods `most` windows hold is a binary
 * search. */
static bool tail_block_of(const tmv_copy_shape *s, unsigned most_windows, uint32_t *dims, uint64_t *periods,
                          uint64_t *bytes)
{
    dense_block b;
    for (uint32_t j = s->rank; j > 0; j--) {
        if (!dense_block_of(s, j, &b))
            continue;
        const uint64_t t = b.bytes, n = b.n, u = t / n;   /* u: bytes per period */
        uint64_t most = 0;   /* the most periods that read at most most_windows windows */
        if (!b.cuts) {
            most = t <= BLOCK_MAX && block_windows(s, j, 1, t, most_windows) != 0 ? n : 0;
        } else if (u <= BLOCK_MAX && block_windows(s, j - 1, 1, u, most_windows) != 0) {   /* one period fits: search */
            uint64_t hi = BLOCK_MAX / u < n ? BLOCK_MAX / u : n;
            most = 1;
            while (most < hi) {
                const uint64_t k = (most + hi + 1) / 2;
                if (block_windows(s, j - 1, k, k * u, most_windows) != 0)
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
        const uint64_t k = most == 0 || most == n ? 0 : best_periods(n, u, BLOCK_MIN_TAIL, most * u, true);
        if (k != 0) {
            *dims = j - 1;
            *periods = k;
            *bytes = k * u;
            return true;
        }
    }
    return false;
}

/* Vector v's tables for its n bytes at source offsets o: each byte's window
 * (the first of the block's that holds it), its place in the window's pair
 * (one index vector serves every pair: the bytes of the others are blended
 * away) and the masks of the bytes of pairs 1-3. */
static void vector_make(permute_plan *pl, unsigned v, const uint64_t *o, unsigned n, uint64_t dst)
{
    permute_vector *pv = &pl->vec[v];
    pv->dst = dst;
    uint8_t idx[64] = {0};
    for (unsigned i = 0; i < n; i++) {
        unsigned w = 0;
        while (o[i] - pl->win_offset[w] >= 64)
            w++;
        const uint64_t in_window = o[i] - pl->win_offset[w];
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
 * r's rows, into pl; false if it reads more than `most` windows or makes
 * more than VECTORS_MAX vectors. */
static bool plan_tables(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                        const block_rows *r, unsigned most, permute_plan *pl)
{
    uint64_t off[BLOCK_MAX];
    const uint64_t per_row = (bytes + 63) / 64;
    if (r->rows * per_row > VECTORS_MAX || !block_offsets(s, dims, periods, off, bytes))
        return false;
    const uint64_t row_src = r->rows > 1 ? s->src_strides[r->dim] : 0;
    const uint64_t row_dst = r->rows > 1 ? s->dst_strides[r->dim] : 0;
    for (uint64_t i = 1; i < r->rows; i++)
        for (uint64_t b = 0; b < bytes; b++)
            off[i * bytes + b] = off[b] + i * row_src;
    memset(pl, 0, sizeof *pl);
    pl->windows = cover(off, (unsigned)(r->rows * bytes), most, pl->win_offset);
    if (pl->windows == 0)
        return false;
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
    pl->elem_bytes = s->elem_bytes;
    pl->dims = dims;
    pl->periods = periods;
    const uint32_t from = s->rank - dims - (periods > 1);
    for (uint32_t d = from; d < s->rank; d++) {
        pl->sizes[d - from] = s->sizes[d];
        pl->src_strides[d - from] = s->src_strides[d];
        pl->dst_strides[d - from] = s->dst_strides[d];
    }
    return true;
}

/* Builds the tables of the block block_of chose (and of the tail block
 * its periods leave) into st; false if it reads more than `most` windows. */
static bool permute_plan_try(const tmv_copy_shape *s, uint32_t dims, uint64_t periods, uint64_t bytes,
                             const block_rows *r, unsigned most, permute_state *st)
{
    memset(&st->tail, 0, sizeof st->tail);
    if (!plan_tables(s, dims, periods, bytes, r, most, &st->block))
        return false;
    const uint64_t rest = periods > 1 ? s->sizes[s->rank - dims - 1] % periods : 0;
    /* the tail reads a part of what the block reads: no more windows */
    return rest == 0 || plan_tables(s, dims, rest, rest * (bytes / periods), r, most, &st->tail);
}

/* The largest block that reads at most `most` windows: of at most 512,
 * 256 or 128 bytes, of periods that divide their dim, if any; else with a
 * tail (tail_block_of: DEPTH_TO_SPACE NHWC CRD C3 u8, B = 3: 7 of the 17
 * pixel triples of a row, 63 bytes from four windows, twice, and a tail of
 * 3). */
static bool permute_plan_within(const tmv_copy_shape *s, unsigned most, permute_state *st)
{
    uint32_t dims;
    uint64_t periods, bytes;
    for (uint64_t limit = BLOCK_MAX; limit >= 2 * 64; limit /= 2)
        if (block_of(s, limit, BLOCK_MIN, &dims, &periods, &bytes) &&
            permute_plan_try(s, dims, periods, bytes, &no_rows, most, st))
            return true;
    return tail_block_of(s, most, &dims, &periods, &bytes) &&
           permute_plan_try(s, dims, periods, bytes, &no_rows, most, st);
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
        if (block_of(s, limit / r.rows, (BLOCK_MIN + r.rows - 1) / r.rows, &dims, &periods, &bytes) &&
            d + dims + (periods > 1) < s->rank && permute_plan_try(s, dims, periods, bytes, &r, most, st))
            return true;
    return false;
}

/* A plan's window loads per byte it stores; 0 when a vector is stored in
 * part (rows plans take only whole ones). */
static double plan_loads_per_byte(const permute_plan *pl)
{
    for (unsigned v = 0; v < pl->vectors; v++)
        if (pl->vec[v].store != ~0ull)
            return 0;
    return (double)pl->windows / (64.0 * pl->vectors);
}

/* A block of at most four windows if there is one, else of at most eight:
 * two pairs of windows cost a vector two permutes, four pairs four, so a
 * block cut smaller to read four windows moves its bytes with fewer. Then
 * the same made of rows of one outer dim (permute_plan_rows), taken when
 * its vectors are all whole and it loads at most half the windows per byte:
 * DEPTH_TO_SPACE of NHWC in CRD order writes B image rows from each input
 * pixel, B4 C16 u8 four 64-byte rows from one 256-byte pixel, which as
 * blocks of one row loaded the pixel's four windows for each row. Rows
 * plans taken on fewer permutes per byte alone, with rows of part vectors,
 * made 66 sweep rows of TILE and NHWC SPACE_TO_DEPTH 5-30% slower. */
static bool permute_plan_make(const tmv_copy_shape *s, permute_state *st)
{
    if (s->rank == 0 || s->elem_bytes > ELEM_MAX)
        return false;
    const bool plain = permute_plan_within(s, WINDOWS_FEW, st) || permute_plan_within(s, WINDOWS_MAX, st);
    double least = plain ? plan_loads_per_byte(&st->block) : 0;
    bool rows = false;
    permute_state rowed;
    for (uint32_t d = 0; d < s->rank; d++)
        if (permute_plan_rows(s, d, WINDOWS_FEW, &rowed) || permute_plan_rows(s, d, WINDOWS_MAX, &rowed)) {
            const double loads = plan_loads_per_byte(&rowed.block);
            if (loads > 0 && (rows ? loads < least : !plain || (least > 0 && 2 * loads <= least))) {
                *st = rowed;
                least = loads;
                rows = true;
            }
        }
    return plain || rows;
}

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

/* permute_plan_make through last_plan: the plan of s, false if none. */
static const permute_state *permute_plan_of(const tmv_copy_shape *s)
{
    if (!last_plan.valid || !tmv_shape_same_geometry(&last_plan.key, s)) {
        last_plan.key = *s;
        last_plan.ok = permute_plan_make(s, &last_plan.st);
        last_plan.valid = true;
    }
    return last_plan.ok ? &last_plan.st : NULL;
}

void tmv_copy_permute_avx512vbmi_prepare(const tmv_copy_shape *s, void *state)
{
    const permute_state *st = permute_plan_of(s);
    if (st != NULL)
        memcpy(state, st, sizeof *st);
}

bool tmv_copy_permute_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    return permute_plan_of(s) != NULL;
}

/* Priced by its own blocks (tails counted), the windows they load (lines)
 * and the vectors they permute and store (pieces): a block of 60 bytes
 * from four windows costs about what one of 126 does. A vector of three or
 * four window pairs counts as one: counted by its permutes and refitted,
 * the row rated the single permute of TILE 3d [n, 4, 1] u8 by {8, 1, 8}
 * at 8 KiB (70.6 ns) under a permute of a slice and `fill_doubling`'s
 * replicas (48.3 ns), and six TILE plans went 0.68-0.89x. */
void tmv_copy_permute_avx512vbmi_features(const tmv_copy_shape *s, tmv_cost_features *f)
{
    const permute_state *st = permute_plan_of(s);
    if (st == NULL)
        return;
    const permute_plan *pl = &st->block;
    const uint32_t outer = s->rank - pl->dims - (pl->periods > 1);
    double positions = 1, blocks, tails = 0;
    for (uint32_t d = 0; d < outer; d++)
        positions *= (double)s->sizes[d];
    positions /= (double)pl->rows;   /* the rows dim is in the block */
    if (pl->periods > 1) {
        blocks = positions * (double)(s->sizes[outer] / pl->periods);
        tails = st->tail.vectors != 0 ? positions : 0;
    } else {
        blocks = positions;
    }
    f->blocks = blocks + tails;
    f->lines = blocks * pl->windows + tails * st->tail.windows;
    f->pieces = blocks * pl->vectors + tails * st->tail.vectors;
}

/* The tables were built for s's inner dims (and a whole number of periods
 * of the dim outside them, and the tail's). */
static bool plan_fits(const permute_state *st, const tmv_copy_shape *s)
{
    if (st == NULL)
        return false;
    const permute_plan *pl = &st->block;
    if (pl->vectors == 0 || pl->elem_bytes != s->elem_bytes || s->rank < pl->dims + (pl->periods > 1))
        return false;
    const uint32_t from = s->rank - pl->dims - (pl->periods > 1);
    for (uint32_t d = from; d < s->rank; d++) {
        const bool split = pl->periods > 1 && d == from;
        if ((split ? s->sizes[d] % pl->periods != st->tail.periods : s->sizes[d] != pl->sizes[d - from]) ||
            s->src_strides[d] != pl->src_strides[d - from] || s->dst_strides[d] != pl->dst_strides[d - from])
            return false;
    }
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

/* One block: its windows loaded (masked to the bytes it reads; a window
 * past the block's last is a zero mask and loads nothing), each vector
 * permuted from its `pairs` window pairs and stored. `full`: the block is
 * BLOCK_MAX bytes, every vector stored whole, so the loop has a constant
 * count and no test per vector (TILE inner 1x2 u8 at 8 KiB, blocks of
 * eight vectors from four windows: 125 -> 98 ns). */
__attribute__((always_inline)) static inline void permute_block(const permute_plan *pl, const uint8_t *src,
                                                                uint8_t *dst, unsigned pairs, bool full)
{
    __m512i w[WINDOWS_MAX];
    for (unsigned i = 0; i < 2 * pairs; i++)
        w[i] = _mm512_maskz_loadu_epi8(pl->win_mask[i], src + pl->win_offset[i]);
    if (full) {
#pragma GCC unroll 8
        for (unsigned v = 0; v < VECTORS_MAX; v++)
            _mm512_storeu_si512(dst + 64 * v, permute_vector_of(&pl->vec[v], w, pairs));
        return;
    }
    for (unsigned v = 0; v < pl->vectors; v++) {
        const permute_vector *pv = &pl->vec[v];
        const __m512i r = permute_vector_of(pv, w, pairs);
        if (pv->store == ~0ull)
            _mm512_storeu_si512(dst + 64 * v, r);
        else
            _mm512_mask_storeu_epi8(dst + 64 * v, pv->store, r);
    }
}

/* One block of a rows plan, each vector at its own offset. Apart from
 * permute_block, whose stores at 64 * v kept their speed only so (with the
 * offsets read from the tables, TILE inner 3x3 u8 at 1 MiB took 17.9 us,
 * 14.2 before). The block's vectors are whole (plan_loads_per_byte), a
 * tail's may not be. */
__attribute__((always_inline)) static inline void permute_rows_block(const permute_plan *pl, const uint8_t *src,
                                                                     uint8_t *dst, unsigned pairs)
{
    __m512i w[WINDOWS_MAX];
    for (unsigned i = 0; i < 2 * pairs; i++)
        w[i] = _mm512_maskz_loadu_epi8(pl->win_mask[i], src + pl->win_offset[i]);
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
    case 1: permute_block(pl, src, dst, 1, false); break;
    case 2: permute_block(pl, src, dst, 2, false); break;
    case 3: permute_block(pl, src, dst, 3, false); break;
    default: permute_block(pl, src, dst, 4, false); break;
    }
}

/* The blocks of the outer walk: the innermost outer dim in a loop (after
 * it, when `tail` is not NULL, its tail block), the others walked. `rows`
 * (a constant, as `full`): a rows plan's blocks. */
__attribute__((always_inline)) static inline void permute_blocks(const permute_plan *pl, const permute_plan *tail,
                                                                 const tmv_copy_shape *outer, const uint8_t *src,
                                                                 uint8_t *dst, unsigned pairs, bool full, bool rows)
{
    const uint32_t in = outer->rank - 1;
    const uint64_t n = outer->sizes[in], ss = outer->src_strides[in], ds = outer->dst_strides[in];
    tmv_walk walk;
    tmv_walk_init(&walk, outer, in);
    do {
        for (uint64_t i = 0; i < n; i++)
            if (rows)
                permute_rows_block(pl, src + walk.src + i * ss, dst + walk.dst + i * ds, pairs);
            else
                permute_block(pl, src + walk.src + i * ss, dst + walk.dst + i * ds, pairs, full);
        if (tail != NULL && rows)   /* at most the block's windows, so its pairs do */
            permute_rows_block(tail, src + walk.src + n * ss, dst + walk.dst + n * ds, pairs);
        else if (tail != NULL)
            permute_one(tail, src + walk.src + n * ss, dst + walk.dst + n * ds);
    } while (tmv_walk_next(&walk));
}

/* A rows plan, out of line: the plain plans' code stays as it was. One
 * block takes every pair (those past its windows load nothing). */
__attribute__((noinline)) static void permute_rows(const permute_plan *pl, const permute_plan *tail,
                                                   const tmv_copy_shape *outer, const uint8_t *src, uint8_t *dst)
{
    if (outer->rank == 0) {
        permute_rows_block(pl, src, dst, PAIRS_MAX);
        return;
    }
    switch (pairs_of(pl)) {
    case 1: permute_blocks(pl, tail, outer, src, dst, 1, false, true); break;
    case 2: permute_blocks(pl, tail, outer, src, dst, 2, false, true); break;
    case 3: permute_blocks(pl, tail, outer, src, dst, 3, false, true); break;
    default: permute_blocks(pl, tail, outer, src, dst, 4, false, true); break;
    }
}

/* permute_blocks with `full` a constant. */
__attribute__((always_inline)) static inline void permute_blocks_pairs(const permute_plan *pl,
                                                                       const permute_plan *tail,
                                                                       const tmv_copy_shape *outer,
                                                                       const uint8_t *src, uint8_t *dst,
                                                                       unsigned pairs, bool full)
{
    if (full)
        permute_blocks(pl, tail, outer, src, dst, pairs, true, false);
    else
        permute_blocks(pl, tail, outer, src, dst, pairs, false, false);
}

void tmv_copy_permute_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const permute_state *st = s->state;
    if (!plan_fits(st, s)) {
        tmv_copy_memcpy_scalar(s, src, dst);
        return;
    }
    const permute_plan *pl = &st->block, *tail = st->tail.vectors != 0 ? &st->tail : NULL;
    /* the outer walk: the dims outside the block but its rows dim, the
     * split dim counting its whole blocks of `periods` */
    tmv_copy_shape outer = *s;
    outer.rank = s->rank - pl->dims;
    if (pl->rows > 1) {
        for (uint32_t d = pl->row_dim; d + 1 < outer.rank; d++) {
            outer.sizes[d] = outer.sizes[d + 1];
            outer.src_strides[d] = outer.src_strides[d + 1];
            outer.dst_strides[d] = outer.dst_strides[d + 1];
        }
        outer.rank--;
    }
    if (pl->periods > 1) {
        const uint32_t d = outer.rank - 1;
        outer.sizes[d] /= pl->periods;
        outer.src_strides[d] *= pl->periods;
        outer.dst_strides[d] *= pl->periods;
    }
    if (pl->rows > 1) {
        permute_rows(pl, tail, &outer, src, dst);
        return;
    }
    const bool full = pl->vectors == VECTORS_MAX && pl->vec[VECTORS_MAX - 1].store == ~0ull;
    if (outer.rank == 0) {
        permute_one(pl, src, dst);
        return;
    }
    switch (pairs_of(pl)) {
    case 1: permute_blocks_pairs(pl, tail, &outer, src, dst, 1, full); break;
    case 2: permute_blocks_pairs(pl, tail, &outer, src, dst, 2, full); break;
    case 3: permute_blocks_pairs(pl, tail, &outer, src, dst, 3, full); break;
    default: permute_blocks_pairs(pl, tail, &outer, src, dst, 4, full); break;
    }
}
