/* rows_bytes_avx512vbmi.h - the AVX-512 VBMI byte-permute rows engine: row-wise JOIN / SPLIT of 2..16 packed pieces of any byte counts whose joined row fits a vector, one masked vpermb per piece per vector of joined rows or, for up to 8 pieces, two-source permutes over wide blocks of rows; its plan and tables, made at create, and its loops. The row kernels (rows_bytes_avx512vbmi.c) and the runs copies (runs_bytes_avx512vbmi.c) run it; each includes it after defining TMV_VEC_AVX512VBMI.
 *
 * The zip networks and lane permutes take pieces of one power-of-two width;
 * other pieces (3, 7 or 31 bytes, or pieces of different sizes, as a JOIN
 * of channel groups in NHWC has) went to the column moves, one move per
 * piece per row (3-byte pieces: about 0.6 ns a piece, 0.05 x memcpy at
 * 8 KiB). Here a block is the L = 64 / R joined rows of R bytes that fit in
 * a vector, and the L rows of each piece are one load: JOIN builds the
 * joined vector from the n piece vectors by merge-masked byte permutes,
 * SPLIT permutes the joined vector once per piece. The byte tables are
 * built at create (prepare).
 *
 * A JOIN of at most 8 pieces moves its rows in wide blocks where they
 * hold at least two rows and more than a vector of joined rows: as many
 * rows as fill one vector of the widest piece (up to 512 joined bytes),
 * each piece's rows one load, each joined vector a vpermt2b per pair of
 * pieces and a blend per pair after the first; the rows left then go in
 * blocks of one vector of rows, or, past 64 joined bytes, masked wide ones.
 * Eight 3-byte pieces took 8 loads and 8 permutes per two rows; a wide
 * block of 21 rows takes 8 loads and 32 permutes (8 KiB: 655 -> 211 ns).
 * Joined rows of more than 64 bytes move only in wide blocks. SPLIT takes
 * the same wide blocks the other way round: the block's joined vectors
 * loaded, each piece's vector a vpermt2b per pair of them and a blend per
 * pair after the first, stored whole. A vector of joined rows at a time
 * stored each piece's few rows in 16- or 32-byte stores, half of them
 * across a line: three 1-byte pieces at 8 KiB took 181 ns, 82 in wide
 * blocks of 64 rows (eight 3-byte pieces at 1 MiB: 49.1 -> 24.3 us). A
 * first try of this, in an earlier sitting, was measured 1.3-2.4x slower
 * and taken out. On the rows one row a block cannot take (below), with
 * masked piece stores, a vector of rows was 1.18-1.23x on eight 7-byte
 * pieces and 0.46-0.50x on three of 16 bytes against the column moves, so
 * SPLIT does not take them.
 *
 * Whole vectors are loaded and stored while 64 bytes remain in every
 * buffer of the step (a store's bytes past the block are written again by
 * the next block, always inside this call's rows, so a parallel part never
 * touches its neighbour's); the last blocks are masked: page-safe where the
 * call's buffers end (mask_page_x86.h), plain where a runs copy's next
 * position follows (rows_bytes_inner_tail). No streaming stores: a block is
 * not a whole line. */
#ifndef TMV_ROWS_BYTES_AVX512VBMI_H
#define TMV_ROWS_BYTES_AVX512VBMI_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rows_x86.h"
#include "mask_page_x86.h"

#define WIDE_PIECES 8                            /* wide blocks: at most four pairs of pieces */
#define WIDE_VECTORS 8                           /* and at most 512 joined bytes */

typedef struct rows_bytes_plan {
    unsigned n;                                  /* pieces */
    unsigned wide_rows;                          /* rows of a wide block, 0: none */
    unsigned wide_vectors;                       /* its joined vectors */
    uint64_t wide_fast_rows;                     /* rows a wide block needs left to move whole vectors */
    uint8_t  wide_idx[WIDE_VECTORS][64];         /* per joined vector, each byte's byte in its piece's block,
                                                    bit 6 the second piece of its pair */
    uint64_t wide_pair[WIDE_VECTORS][WIDE_PIECES / 2 - 1];   /* the bytes from pairs 1-3 */
    unsigned block_rows;                         /* L */
    uint64_t joined_bytes;                       /* R */
    unsigned width;                              /* bytes a piece's block is moved in: 16, 32 or 64 */
    uint64_t fast_rows;                          /* rows a block needs left to move whole widths */
    uint64_t piece_bytes[TMV_ROWS_MAX_STREAMS];  /* per row, in stream order */
    uint64_t mask[TMV_ROWS_MAX_STREAMS];         /* JOIN: the joined bytes of a block that piece p fills */
    uint8_t  idx[TMV_ROWS_MAX_STREAMS][64];      /* JOIN: per joined byte its byte in piece p's block; SPLIT: per
                                                    byte of piece p's block its joined byte */
} rows_bytes_plan;

/* 2..16 packed pieces, of any sizes, side by side in packed joined rows of
 * at most 64 bytes; of more than 32 bytes (one row a block) only for two
 * pieces. A block costs a permute per piece where the column moves cost a
 * move per piece per row, so one row a block lost to them for more pieces
 * (eight 7-byte pieces at 8 KiB: 0.08 against 0.12 x memcpy) and won from
 * two rows on (eight 3-byte pieces: 0.09 against 0.06) or for two pieces
 * (two of 31 bytes: 0.65 against 0.46; tmv-bench --tmv_sweep=full). The
 * cost model cannot tell these apart: the price per piece falls with the
 * rows a block holds, which no feature of a rows step is. */
static bool rows_bytes_fit(uint64_t pieces, uint64_t joined_bytes)
{
    return pieces >= 2 && pieces <= TMV_ROWS_MAX_STREAMS && joined_bytes <= 64 && (joined_bytes <= 32 || pieces == 2);
}

/* The rows of a JOIN's wide block (see the top): W = min(64 / widest,
 * 512 / R), none (0) unless that is at least two rows and more than a
 * vector of joined rows holds, for at most WIDE_PIECES pieces. */
static uint64_t wide_block_rows(unsigned n, const uint64_t *bytes, uint64_t R)
{
    uint64_t widest = 0;
    for (unsigned p = 0; p < n; p++)
        widest = bytes[p] > widest ? bytes[p] : widest;
    if (widest == 0)
        return 0;
    const uint64_t W = 64 / widest < 64 * WIDE_VECTORS / R ? 64 / widest : 64 * WIDE_VECTORS / R;
    return n <= WIDE_PIECES && W >= 2 && W > 64 / R ? W : 0;
}

/* The tables of n pieces of bytes[p] at offsets[p] in joined rows of R
 * bytes; none (block_rows 0) past 64, where only wide blocks move. */
static void rows_bytes_plan_make(rows_bytes_plan *pl, unsigned n, const uint64_t *bytes, const uint64_t *offsets,
                                 uint64_t R, bool join)
{
    const uint64_t L = 64 / R;
    uint64_t least = 64, widest = 0;
    pl->n = n;
    pl->block_rows = (unsigned)L;
    pl->joined_bytes = R;
    for (unsigned p = 0; p < n; p++) {
        const uint64_t u = bytes[p], off = offsets[p];
        pl->piece_bytes[p] = u;
        pl->mask[p] = 0;
        memset(pl->idx[p], 0, sizeof pl->idx[p]);
        least = u < least ? u : least;
        widest = u > widest ? u : widest;
        for (uint64_t r = 0; r < L; r++)
            for (uint64_t b = 0; b < u; b++) {
                const uint64_t j = r * R + off + b, q = r * u + b;
                if (join) {
                    pl->idx[p][j] = (uint8_t)q;
                    pl->mask[p] |= 1ull << j;
                } else {
                    pl->idx[p][q] = (uint8_t)j;
                }
            }
    }
    /* The pieces' blocks are loaded (JOIN) or stored (SPLIT) in the least
     * width that holds the widest: a 64-byte store per 7-byte piece made a
     * SPLIT into eight of them 1.7x slower than the column moves. Whole
     * widths while every piece has one left and the joined rows a vector. */
    pl->width = L * widest <= 16 ? 16 : L * widest <= 32 ? 32 : 64;
    const uint64_t piece_rows = (pl->width + least - 1) / least, joined_rows = (64 + R - 1) / R;
    pl->fast_rows = piece_rows > joined_rows ? piece_rows : joined_rows;
    pl->wide_rows = 0;
}

/* The wide blocks' tables (see the top), when they hold more rows than a
 * vector of joined rows does: rows of W = min(64 / widest, 512 / R). A
 * JOIN's are per joined vector (each byte's byte in its pair of piece
 * vectors), a SPLIT's per piece (each byte's byte in its pair of joined
 * vectors); the masks of pairs 1-3 the same way. */
static void rows_bytes_wide_make(rows_bytes_plan *pl, const uint64_t *offsets, bool join)
{
    const unsigned n = pl->n;
    const uint64_t R = pl->joined_bytes, W = wide_block_rows(n, pl->piece_bytes, R);
    if (W == 0)
        return;
    uint64_t least = 64;
    for (unsigned p = 0; p < n; p++)
        least = pl->piece_bytes[p] < least ? pl->piece_bytes[p] : least;
    const unsigned V = (unsigned)((W * R + 63) / 64);
    memset(pl->wide_idx, 0, sizeof pl->wide_idx);
    memset(pl->wide_pair, 0, sizeof pl->wide_pair);
    for (unsigned p = 0; p < n; p++) {
        const uint64_t u = pl->piece_bytes[p];
        for (uint64_t q = 0; q < W * u; q++) {   /* byte q of piece p's block */
            const uint64_t j = q / u * R + offsets[p] + q % u, v = j / 64;   /* its joined byte, vector */
            if (join) {
                pl->wide_idx[v][j % 64] = (uint8_t)(q | (p % 2) << 6);
                if (p >= 2)
                    pl->wide_pair[v][p / 2 - 1] |= 1ull << (j % 64);
            } else {
                pl->wide_idx[p][q] = (uint8_t)(j % 64 | (v % 2) << 6);
                if (v >= 2)
                    pl->wide_pair[p][v / 2 - 1] |= 1ull << q;
            }
        }
    }
    const uint64_t piece_rows = (64 + least - 1) / least, joined_rows = (64 * V + R - 1) / R;
    pl->wide_rows = (unsigned)W;
    pl->wide_vectors = V;
    pl->wide_fast_rows = piece_rows > joined_rows ? piece_rows : joined_rows;
}

/* One vector from the first 2 * pairs of v: pair 0's bytes, each other
 * pair's blended in. */
__attribute__((always_inline)) static inline __m512i wide_vector(const __m512i *v, __m512i idx, const uint64_t *pair,
                                                                 unsigned pairs)
{
    __m512i r = _mm512_permutex2var_epi8(v[0], idx, v[1]);
    for (unsigned k = 1; k < pairs; k++)
        r = _mm512_mask_blend_epi8(pair[k - 1], r, _mm512_permutex2var_epi8(v[2 * k], idx, v[2 * k + 1]));
    return r;
}

/* The last rows of a JOIN or SPLIT whose joined rows exceed 64 bytes, in
 * masked wide blocks (shorter rows finish in blocks of one vector of rows,
 * whose masked tail costs less on a few rows). Out of line: it is never
 * hot. No pointer is formed past the rows. */
__attribute__((noinline)) static void rows_bytes_wide_tail(const rows_bytes_plan *pl, uint64_t rows, uint8_t **at,
                                                           uint8_t *joined, bool join)
{
    const uint64_t W = pl->wide_rows, R = pl->joined_bytes;
    const unsigned n = pl->n, V = pl->wide_vectors;
    const unsigned pairs = join ? (n + 1) / 2 : (V + 1) / 2;   /* of piece vectors, of joined vectors */
    __m512i v[WIDE_PIECES > WIDE_VECTORS ? WIDE_PIECES : WIDE_VECTORS];
    for (uint64_t r = 0; r < rows;) {
        const uint64_t t = rows - r < W ? rows - r : W;
        for (unsigned k = 0; k < 2 * pairs; k++) {   /* an odd count's last: zeros */
            if (join) {
                const uint64_t bytes = k < n ? t * pl->piece_bytes[k] : 0;
                v[k] = tmv_load_first(k < n ? at[k] : joined, (int64_t)bytes);
                if (k < n)
                    at[k] += bytes;
            } else {
                v[k] = tmv_load_first(64 * k < t * R ? joined + 64 * k : joined, (int64_t)(t * R) - 64 * (int64_t)k);
            }
        }
        for (unsigned k = 0; join ? k < V && 64 * k < t * R : k < n; k++) {   /* joined vectors, pieces */
            const __m512i out = wide_vector(v, _mm512_loadu_si512(pl->wide_idx[k]), pl->wide_pair[k], pairs);
            const uint64_t bytes = join ? t * R - 64 * k : t * pl->piece_bytes[k];
            tmv_store_first(join ? joined + 64 * k : at[k], (int64_t)bytes, out);
            if (!join)
                at[k] += bytes;
        }
        r += t;
        joined += t * R;
    }
}

/* A JOIN's wide blocks while wide_fast_rows rows are left: returns the
 * rows done, the pieces' pointers moved past them. n (<= WIDE_PIECES) is
 * a constant; idx, the byte tables (wide_idx), read by the caller. The
 * loop's bound is read into a local first, and its vectors unrolled with
 * a test each: a byte store may alias the plan, so the compiler read the
 * plan again after every store and the loop's test and permutes waited on
 * those loads (JOIN inner 2x3B u8 at 8 KiB 134 -> 89 ns, 3x3B 157 -> 108;
 * the same for the loop bounds below). */
__attribute__((always_inline)) static inline uint64_t rows_bytes_wide(const rows_bytes_plan *pl, unsigned n,
                                                                    uint64_t rows, uint8_t **at, uint8_t *joined,
                                                                    const __m512i *idx)
{
    const uint64_t W = pl->wide_rows, block = W * pl->joined_bytes, fast = pl->wide_fast_rows;
    const unsigned V = pl->wide_vectors;
    uint64_t step[WIDE_PIECES], r = 0;
    for (unsigned p = 0; p < n; p++)
        step[p] = W * pl->piece_bytes[p];
    for (; rows - r >= fast; r += W, joined += block) {
        __m512i v[WIDE_PIECES];
        for (unsigned p = 0; p < WIDE_PIECES; p++)
            v[p] = p < n ? _mm512_loadu_si512(at[p]) : _mm512_setzero_si512();
#pragma GCC unroll 8
        for (unsigned k = 0; k < WIDE_VECTORS; k++)
            if (k < V)
                _mm512_storeu_si512(joined + 64 * k, wide_vector(v, idx[k], pl->wide_pair[k], (n + 1) / 2));
        for (unsigned p = 0; p < n; p++)
            at[p] += step[p];
    }
    return r;
}

/* A SPLIT's wide blocks while wide_fast_rows rows are left: the block's V
 * joined vectors loaded, each piece's vector from their `pairs` pairs and
 * stored whole; returns the rows done, the pieces' pointers moved past
 * them. n (<= WIDE_PIECES) and pairs are constants; idx, the byte tables
 * (wide_idx), read by the caller. */
__attribute__((always_inline)) static inline uint64_t rows_bytes_wide_split(const rows_bytes_plan *pl, unsigned n,
                                                                          unsigned pairs, uint64_t rows,
                                                                          uint8_t **at, const uint8_t *joined,
                                                                          const __m512i *idx)
{
    const uint64_t W = pl->wide_rows, block = W * pl->joined_bytes;
    const unsigned V = pl->wide_vectors;
    uint64_t step[WIDE_PIECES], r = 0;
    for (unsigned p = 0; p < n; p++)
        step[p] = W * pl->piece_bytes[p];
    for (const uint64_t fast = pl->wide_fast_rows; rows - r >= fast; r += W, joined += block) {
        __m512i v[WIDE_VECTORS];
        for (unsigned k = 0; k < 2 * pairs; k++)
            v[k] = k < V ? _mm512_loadu_si512(joined + 64 * k) : _mm512_setzero_si512();
        for (unsigned p = 0; p < n; p++) {
            _mm512_storeu_si512(at[p], wide_vector(v, idx[p], pl->wide_pair[p], pairs));
            at[p] += step[p];
        }
    }
    return r;
}

/* The same, its pairs ((V + 1) / 2) a constant in each case. */
__attribute__((always_inline)) static inline uint64_t rows_bytes_wide_split_pairs(const rows_bytes_plan *pl,
                                                                                unsigned n, uint64_t rows,
                                                                                uint8_t **at, const uint8_t *joined,
                                                                                const __m512i *idx)
{
    switch ((pl->wide_vectors + 1) / 2) {
    case 1: return rows_bytes_wide_split(pl, n, 1, rows, at, joined, idx);
    case 2: return rows_bytes_wide_split(pl, n, 2, rows, at, joined, idx);
    case 3: return rows_bytes_wide_split(pl, n, 3, rows, at, joined, idx);
    default: return rows_bytes_wide_split(pl, n, 4, rows, at, joined, idx);
    }
}

/* A piece's block: the low `width` bytes of a vector. */
static inline __m512i load_width(const uint8_t *p, unsigned width)
{
    if (width == 16)
        return _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)p));
    if (width == 32)
        return _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p));
    return _mm512_loadu_si512(p);
}

static inline void store_width(uint8_t *p, unsigned width, __m512i v)
{
    if (width == 16)
        _mm_storeu_si128((__m128i *)(void *)p, _mm512_castsi512_si128(v));
    else if (width == 32)
        _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v));
    else
        _mm512_storeu_si512(p, v);
}

/* The last rows, fewer than a block needs to move whole widths, in masked
 * blocks of L rows. Out of line, with n at run time: it runs once a call
 * (a runs copy's: after its last position, or after each where its
 * positions do not tile their buffers), and its page-safe masked accesses
 * (mask_page_x86.h) may call out, which inlined cost the loops above their
 * registers (SPLIT inner 3x8B u8 at 8 KiB 86 -> 98 ns). */
__attribute__((noinline)) static void rows_bytes_last(const rows_bytes_plan *pl, uint64_t rows, uint8_t **at,
                                                      uint8_t *joined, bool join)
{
    const unsigned n = pl->n;
    const uint64_t L = pl->block_rows, block = L * pl->joined_bytes;
    for (uint64_t r = 0; r < rows; r += L, joined += block) {
        const uint64_t t = rows - r < L ? rows - r : L;
        if (join) {
            __m512i acc = _mm512_setzero_si512();
            for (unsigned p = 0; p < n; p++) {
                const __m512i v = tmv_load_first(at[p], (int64_t)(t * pl->piece_bytes[p]));
                acc = _mm512_mask_permutexvar_epi8(acc, pl->mask[p], _mm512_loadu_si512(pl->idx[p]), v);
                at[p] += L * pl->piece_bytes[p];
            }
            tmv_store_first(joined, (int64_t)(t * pl->joined_bytes), acc);
        } else {
            const __m512i v = tmv_load_first(joined, (int64_t)(t * pl->joined_bytes));
            for (unsigned p = 0; p < n; p++) {
                tmv_store_first(at[p], (int64_t)(t * pl->piece_bytes[p]),
                                _mm512_permutexvar_epi8(_mm512_loadu_si512(pl->idx[p]), v));
                at[p] += L * pl->piece_bytes[p];
            }
        }
    }
}

/* The rows of rows_bytes_inner_tail's blocks for positions of `rows`. */
static inline uint64_t rows_bytes_tail_rows(const rows_bytes_plan *pl, uint64_t rows)
{
    return rows < pl->block_rows ? rows : pl->block_rows;
}

/* The last rows of a position that the call's buffers go on past (see
 * rows_bytes_count), from row r: blocks of T = min(L, rows) rows under
 * masks fixed for the call (tmask: T rows of each piece, jmask: of the
 * joined rows), the last moved back to end on the position's last row,
 * writing again rows the block before it wrote. Inline and with no page
 * test (mask_page_x86.h): the bytes past these rows are the next rows of
 * the same buffers, in pages the call touches. Out of line and page-safe,
 * once a position (rows_bytes_last), they were 37% of DEPTH_TO_SPACE NHWC
 * DCR B3 C3 u8 at 8 KiB, its vector tables reloaded after every call. */
__attribute__((always_inline)) static inline void rows_bytes_inner_tail(const rows_bytes_plan *pl, unsigned n,
                                                                      uint64_t rows, uint64_t r, uint8_t **at,
                                                                      uint8_t *joined, bool join,
                                                                      const __m512i *idx, const __mmask64 *tmask,
                                                                      __mmask64 jmask)
{
    const uint64_t T = rows_bytes_tail_rows(pl, rows), R = pl->joined_bytes;
    for (; r < rows; r += T) {
        const uint64_t back = rows - r < T ? T - (rows - r) : 0;   /* rows the block starts before r */
        uint8_t *const j = joined - back * R;
        if (join) {
            __m512i acc = _mm512_setzero_si512();
            for (unsigned p = 0; p < n; p++)
                acc = _mm512_mask_permutexvar_epi8(
                    acc, pl->mask[p], idx[p], _mm512_maskz_loadu_epi8(tmask[p], at[p] - back * pl->piece_bytes[p]));
            _mm512_mask_storeu_epi8(j, jmask, acc);
        } else {
            const __m512i v = _mm512_maskz_loadu_epi8(jmask, j);
            for (unsigned p = 0; p < n; p++)
                _mm512_mask_storeu_epi8(at[p] - back * pl->piece_bytes[p], tmask[p], _mm512_permutexvar_epi8(idx[p], v));
        }
        for (unsigned p = 0; p < n; p++)
            at[p] += T * pl->piece_bytes[p];
        joined += T * R;
    }
}

/* The rows of one position, the pieces' rows at at[] (moved on): n (a
 * constant after inlining) pieces, the byte tables (idx, widx: the wide
 * blocks') and steps read by the caller. `join` says which side is read;
 * `inner`, that the buffers go on past the position's rows (its last rows
 * then take rows_bytes_inner_tail under the masks tmask and jmask). */
__attribute__((always_inline)) static inline void rows_bytes_position(const rows_bytes_plan *pl, unsigned n,
                                                                    uint64_t rows, uint8_t **at, uint8_t *joined,
                                                                    bool join, const __m512i *idx,
                                                                    const __m512i *widx, const uint64_t *step,
                                                                    bool inner, const __mmask64 *tmask,
                                                                    __mmask64 jmask)
{
    uint64_t r = 0;
    if (!join && n <= WIDE_PIECES && pl->wide_rows != 0) {
        r = rows_bytes_wide_split_pairs(pl, n, rows, at, joined, widx);
        joined += r * pl->joined_bytes;
        if (pl->block_rows == 0) {   /* joined rows past 64 bytes: only wide blocks */
            rows_bytes_wide_tail(pl, rows - r, at, joined, false);
            return;
        }
    }
    if (join && n <= WIDE_PIECES && pl->wide_rows != 0) {
        r = rows_bytes_wide(pl, n, rows, at, joined, widx);
        joined += r * pl->joined_bytes;
        if (pl->block_rows == 0) {   /* joined rows past 64 bytes: only wide blocks */
            rows_bytes_wide_tail(pl, rows - r, at, joined, true);
            return;
        }
    }
    const uint64_t L = pl->block_rows, block = L * pl->joined_bytes;
    const unsigned width = pl->width;
    for (const uint64_t fast = pl->fast_rows; rows - r >= fast; r += L, joined += block) {
        if (join) {
            __m512i acc = _mm512_setzero_si512();
            for (unsigned p = 0; p < n; p++) {
                acc = _mm512_mask_permutexvar_epi8(acc, pl->mask[p], idx[p], load_width(at[p], width));
                at[p] += step[p];
            }
            _mm512_storeu_si512(joined, acc);
        } else {
            const __m512i v = _mm512_loadu_si512(joined);
            for (unsigned p = 0; p < n; p++) {
                store_width(at[p], width, _mm512_permutexvar_epi8(idx[p], v));
                at[p] += step[p];
            }
        }
    }
    if (inner)
        rows_bytes_inner_tail(pl, n, rows, r, at, joined, join, idx, tmask, jmask);
    else
        rows_bytes_last(pl, rows - r, at, joined, join);
}

/* One instance per piece count n (a constant after inlining), so the tables
 * and the pieces' pointers stay in registers: `positions` sets of `rows`
 * rows, the joined rows and each stream joined_step and stream_step bytes
 * further each (the positions of a runs copy, runs_bytes_avx512vbmi.c), the tables read once
 * for all of them: read for each position, after the last one's stores,
 * they took DEPTH_TO_SPACE NHWC DCR B3 C3 u8 at 8 KiB (positions of 17
 * rows) 531 ns against 387, SPACE_TO_DEPTH B3 C1 u8 at 1 MiB 28.2 us
 * against 23.9. `packed`: the positions' rows tile their buffers (each
 * stream's rows follow the one before, and the joined rows the same), so
 * every position but the last ends inside the call's bytes. */
__attribute__((always_inline)) static inline void rows_bytes_count(const rows_bytes_plan *pl, unsigned n, uint64_t rows,
                                                                 uint8_t *const *streams, uint8_t *joined, bool join,
                                                                 uint64_t positions, uint64_t joined_step,
                                                                 uint64_t stream_step, bool packed)
{
    __m512i idx[TMV_ROWS_MAX_STREAMS], widx[WIDE_VECTORS];
    uint64_t step[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < n; p++) {
        idx[p] = _mm512_loadu_si512(pl->idx[p]);
        step[p] = pl->block_rows * pl->piece_bytes[p];
    }
    const bool wide = n <= WIDE_PIECES && pl->wide_rows != 0;
    for (unsigned k = 0; k < WIDE_VECTORS; k++)   /* a JOIN's past V are zeros (rows_bytes_wide_make) */
        widx[k] = wide && k < (join ? WIDE_VECTORS : n) ? _mm512_loadu_si512(pl->wide_idx[k]) : _mm512_setzero_si512();
    const uint64_t T = rows_bytes_tail_rows(pl, rows);
    __mmask64 tmask[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < n; p++)
        tmask[p] = tmv_first_mask((int64_t)(T * pl->piece_bytes[p]));
    const __mmask64 jmask = tmv_first_mask((int64_t)(T * pl->joined_bytes));
    for (uint64_t i = 0; i < positions; i++) {
        uint8_t *at[TMV_ROWS_MAX_STREAMS];
        for (unsigned p = 0; p < n; p++)
            at[p] = streams[p] + i * stream_step;
        rows_bytes_position(pl, n, rows, at, joined + i * joined_step, join, idx, widx, step, packed && i + 1 < positions,
                            tmask, jmask);
    }
}

/* One instance per piece count (2..16). */
__attribute__((always_inline)) static inline void rows_bytes_any(const rows_bytes_plan *pl, uint64_t rows, uint8_t *const *streams,
                                                                 uint8_t *joined, bool join, uint64_t positions,
                                                                 uint64_t joined_step, uint64_t stream_step, bool packed)
{
    switch (pl->n) {
#define TMV_ROWS_BYTES_CASE(k) \
    case k: rows_bytes_count(pl, k, rows, streams, joined, join, positions, joined_step, stream_step, packed); break;
        TMV_ROWS_BYTES_CASE(2) TMV_ROWS_BYTES_CASE(3) TMV_ROWS_BYTES_CASE(4) TMV_ROWS_BYTES_CASE(5)
        TMV_ROWS_BYTES_CASE(6) TMV_ROWS_BYTES_CASE(7) TMV_ROWS_BYTES_CASE(8) TMV_ROWS_BYTES_CASE(9)
        TMV_ROWS_BYTES_CASE(10) TMV_ROWS_BYTES_CASE(11) TMV_ROWS_BYTES_CASE(12) TMV_ROWS_BYTES_CASE(13)
        TMV_ROWS_BYTES_CASE(14) TMV_ROWS_BYTES_CASE(15)
#undef TMV_ROWS_BYTES_CASE
    default: rows_bytes_count(pl, TMV_ROWS_MAX_STREAMS, rows, streams, joined, join, positions, joined_step,
                              stream_step, packed);
        break;
    }
}

#endif
