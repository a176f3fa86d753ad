/* rows_zip_padded_avx2.h - row-wise JOIN and SPLIT of 2, 4 or 8 equal packed pieces of 3, 5, 6 or 7 bytes, or of 3 pieces of 1 to 8 bytes: each piece's rows padded to slots of 1 to 8 bytes by a byte shuffle (three pieces also padded to four), the AVX2 zip network on the slots, and the padding squeezed out again (AVX2 set; the kernels: rows_x86.h).
 *
 * The zip network (rows_zip_avx2.h) takes 2, 4 or 8 pieces of a power of
 * two bytes. Others went to the column moves, a load and a store per piece
 * per row (JOIN inner 8x3B u8 at 1 MiB: 0.13 x best copy), to the byte
 * shuffles (JOIN's joined rows up to 16 bytes, rows_shuffle_avx2.h: 2x3B
 * at 0.49, 3x4B f32 at 0.31), or, for SPLIT, to one byte-permute copy per
 * piece (2x3B: 0.46, 8x3B: 0.21, 3x4B f32: 0.47). Here a lane (16 bytes)
 * takes 16 / W rows of a piece, whose w-byte rows are the lane's first
 * 16 / W * w bytes: one vpshufb spreads them into W-byte slots (W the power
 * of two from w up), the network zips (JOIN) or unzips (SPLIT) the slots
 * as it would pieces of W bytes, and one vpshufb per lane packs the rows
 * back to w bytes. Three pieces run as four, the fourth all zeros (JOIN)
 * or dropped (SPLIT): the joined side's vpshufb also takes the empty slot
 * out, or leaves it zero (a lane holds whole joined rows of four slots up
 * to 4-byte slots, half a row of 8-byte ones). JOIN inner 3x8B went to
 * three strided 8-byte copies (0.51-0.57 at 1 MiB). Each lane is loaded and stored as a 16-byte vector at its
 * real offset, so an access reaches past its lane's real bytes into the
 * next lane's, which that lane's own store (later, in address order)
 * writes again. The blocks stop while the rows after them cover that reach
 * in every buffer, and the column moves take the rest: no access leaves
 * the call's rows. No streaming stores: the stores overlap. */
#ifndef TMV_ROWS_ZIP_PADDED_AVX2_H
#define TMV_ROWS_ZIP_PADDED_AVX2_H

#include "rows_zip_avx2.h"

/* The widest of 2, 4 or 8 pieces padded: 9 to 15 bytes would take 16-byte
 * slots, where the network has no stage and the column moves need only
 * two moves a row. */
#define TMV_ROWS_PADDED_MAX_W 7

/* 2, 4 or 8 equal packed pieces of 3, 5, 6 or 7 bytes; or 3 of 1 to 8
 * bytes, whose joined rows the network builds as rows of four slots, the
 * fourth empty. */
static inline bool tmv_rows_zip_padded_avx2_shape(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes, n = s->piece_count;
    const bool padded = (n == 2 || n == 4 || n == 8) && w >= 3 && w <= TMV_ROWS_PADDED_MAX_W && (w & (w - 1)) != 0;
    return (padded || (n == 3 && w <= 8)) && tmv_rows_equal_pieces(s);
}

/* The vpshufb tables of a lane. A lane holds S = 16 / W slots of W bytes
 * in rows of np slots, the first n of each row real pieces of w bytes,
 * which lie packed in memory: expand spreads the packed bytes into their
 * slots (zero elsewhere), squeeze packs them back. A piece's own rows are
 * n = np = 1. Where a row is wider than a lane (three pieces in 8-byte
 * slots, four a row), a lane holds half a row: the second half's one real
 * piece lies where the first half's first does, and its empty slot where
 * the second, so the first half's tables serve both (SPLIT drops what
 * lands in the empty slot; JOIN's next store writes again what the
 * squeeze kept of it); only where a lane starts differs. Built at create:
 * built per call, the tables cost more than the blocks of an 8 KiB JOIN
 * (2x7B u8: 300 -> 500-720 ns). */
enum { TMV_PADDED_EXPAND, TMV_PADDED_SQUEEZE, TMV_PADDED_JOINED_EXPAND, TMV_PADDED_JOINED_SQUEEZE };

typedef struct tmv_rows_padded_plan {
    _Alignas(16) uint8_t table[4][16];
} tmv_rows_padded_plan;

/* The lanes' phases: 2 where a lane holds half a row with empty slots,
 * else 1 (every lane alike). */
static inline unsigned tmv_rows_padded_phases(unsigned W, unsigned n, unsigned np)
{
    return np > 16 / W && n < np ? np / (16 / W) : 1;
}

/* Real bytes of a lane's row before the lane, for its phase. */
static inline unsigned tmv_rows_padded_skip(unsigned w, unsigned W, unsigned n, unsigned phase)
{
    const unsigned first = phase * (16 / W);
    return (first < n ? first : n) * w;
}

/* Real bytes in a lane of that phase. */
static inline unsigned tmv_rows_padded_real(unsigned w, unsigned W, unsigned n, unsigned np, unsigned phase)
{
    const unsigned S = 16 / W, first = phase * S;
    if (S >= np)
        return S / np * n * w;
    return first < n ? (n - first < S ? n - first : S) * w : 0;
}

/* A lane's table (its first phase). */
static inline void tmv_rows_padded_table(uint8_t *t, unsigned w, unsigned W, unsigned n, unsigned np, bool expand)
{
    const unsigned real = tmv_rows_padded_real(w, W, n, np, 0);
    for (unsigned j = 0; j < 16; j++) {
        if (expand) {
            const unsigned slot = j / W, piece = slot % np, b = j % W;
            t[j] = (uint8_t)(piece < n && b < w ? slot / np * n * w + piece * w + b : 0x80);
        } else {
            const unsigned k = j / w;   /* the lane's k-th real slot */
            t[j] = (uint8_t)(j < real ? (k / n * np + k % n) * W + j % w : 0x80);
        }
    }
}

/* The power of two from x up (x at most 8). */
static inline unsigned tmv_rows_padded_pow2(uint64_t x)
{
    return x <= 1 ? 1 : x <= 2 ? 2 : x <= 4 ? 4 : 8;
}

/* The tables for the shape (join either way: the plan serves both). */
static inline void tmv_rows_zip_padded_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    (void)join;
    tmv_rows_padded_plan *pl = state;
    const unsigned w = (unsigned)s->pieces[0].bytes, n = s->piece_count;
    const unsigned W = tmv_rows_padded_pow2(w), np = tmv_rows_padded_pow2(n);
    tmv_rows_padded_table(pl->table[TMV_PADDED_EXPAND], w, W, 1, 1, true);
    tmv_rows_padded_table(pl->table[TMV_PADDED_SQUEEZE], w, W, 1, 1, false);
    tmv_rows_padded_table(pl->table[TMV_PADDED_JOINED_EXPAND], w, W, n, np, true);
    tmv_rows_padded_table(pl->table[TMV_PADDED_JOINED_SQUEEZE], w, W, n, np, false);
}

/* Table t of the plan, in both lanes. */
static inline __m256i tmv_rows_padded_tables(const tmv_rows_padded_plan *pl, unsigned t)
{
    return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)pl->table[t]));
}

/* A vector of two 16-byte loads (lo to the low lane), and its lanes stored
 * to two places. */
static inline __m256i tmv_rows_padded_load(const uint8_t *lo, const uint8_t *hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lo)),
                                   _mm_loadu_si128((const __m128i *)(const void *)hi), 1);
}

static inline void tmv_rows_padded_store(uint8_t *lo, uint8_t *hi, __m256i v)
{
    _mm_storeu_si128((__m128i *)(void *)lo, _mm256_castsi256_si128(v));
    _mm_storeu_si128((__m128i *)(void *)hi, _mm256_extracti128_si256(v, 1));
}

/* Rows a lane's 16-byte access of `bytes` real bytes reaches past them, in
 * rows of `row` bytes. */
static inline uint64_t tmv_rows_padded_reach(uint64_t bytes, uint64_t row)
{
    return (16 - bytes + row - 1) / row;
}

/* Where joined vector q of a pair starts: the real bytes of the cycles of
 * phases before it (with two phases, a cycle is a joined row), plus those
 * of its row before it. */
static inline uint64_t tmv_rows_padded_at(unsigned q, unsigned w, unsigned W, unsigned n, unsigned np)
{
    const unsigned phases = tmv_rows_padded_phases(W, n, np);
    const unsigned cycle = phases == 1 ? tmv_rows_padded_real(w, W, n, np, 0) : n * w;
    return (uint64_t)(q / phases) * cycle + tmv_rows_padded_skip(w, W, n, q % phases);
}

/* Whole pairs of lanes (32 / W rows) through the network of np streams on
 * W-byte slots, as tmv_rows_zip_pass does for pieces of W bytes; streams n
 * to np - 1 are empty (JOIN zips zeros, SPLIT drops them). Joined vector q
 * of a pair is lane * np + pos, as there. n, np, w and W are constants at
 * each call. Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_padded_pass(const tmv_rows_shape *s, unsigned n, unsigned np, unsigned w, unsigned W,
                     uint8_t *const *streams, uint8_t *joined, bool join)
{
    unsigned pos[8], inv[8];
    tmv_rows_zip_order(np, W, 16, pos);
    for (unsigned i = 0; i < np; i++)
        inv[pos[i]] = i;
    const unsigned k = tmv_rows_network_stages(np, W);
    const uint64_t lane = 16 / W * w;                       /* a lane's bytes of one piece */
    const unsigned phases = tmv_rows_padded_phases(W, n, np);
    uint64_t reach = tmv_rows_padded_reach(lane, w);
    for (unsigned ph = 0; ph < phases; ph++) {
        const uint64_t r = tmv_rows_padded_reach(tmv_rows_padded_real(w, W, n, np, ph), n * w);
        reach = r > reach ? r : reach;
    }
    const uint64_t pairs = s->rows > reach ? (s->rows - reach) / (32 / W) : 0;
    const tmv_rows_padded_plan *pl = s->state;
    const __m256i expand = tmv_rows_padded_tables(pl, TMV_PADDED_EXPAND);
    const __m256i squeeze = tmv_rows_padded_tables(pl, TMV_PADDED_SQUEEZE);
    const __m256i jexpand = tmv_rows_padded_tables(pl, TMV_PADDED_JOINED_EXPAND);
    const __m256i jsqueeze = tmv_rows_padded_tables(pl, TMV_PADDED_JOINED_SQUEEZE);
    for (uint64_t b = 0; b < pairs; b++) {
        __m256i v[8];
        uint8_t *block = joined + 2 * n * lane * b;
        if (join) {
#pragma GCC unroll 8
            for (unsigned i = 0; i < np; i++) {
                if (i >= n) {
                    v[i] = _mm256_setzero_si256();
                    continue;
                }
                const uint8_t *at = streams[i] + 2 * lane * b;
                v[i] = tmv_rows_padded_load(at, at + lane);
                if (w != W)
                    v[i] = _mm256_shuffle_epi8(v[i], expand);
            }
        } else {
#pragma GCC unroll 8
            for (unsigned i = 0; i < np; i++)
                v[i] = _mm256_shuffle_epi8(tmv_rows_padded_load(block + tmv_rows_padded_at(pos[i], w, W, n, np),
                                                                block + tmv_rows_padded_at(np + pos[i], w, W, n, np)),
                                           jexpand);
        }
        tmv_rows_zip_lanes_network(v, np, W, k, join);
        if (join) {
            /* joined vector q of the pair is lane q / np of v[inv[q % np]]:
             * stored in order of q, so that each store's reach is written
             * again by the next, with no lane exchange */
#pragma GCC unroll 8
            for (unsigned i = 0; i < np; i++)
                v[i] = _mm256_shuffle_epi8(v[i], jsqueeze);
#pragma GCC unroll 8
            for (unsigned q = 0; q < np; q++)
                _mm_storeu_si128((__m128i *)(void *)(block + tmv_rows_padded_at(q, w, W, n, np)),
                                 _mm256_castsi256_si128(v[inv[q]]));
#pragma GCC unroll 8
            for (unsigned q = 0; q < np; q++)
                _mm_storeu_si128((__m128i *)(void *)(block + tmv_rows_padded_at(np + q, w, W, n, np)),
                                 _mm256_extracti128_si256(v[inv[q]], 1));
        } else {
#pragma GCC unroll 8
            for (unsigned o = 0; o < n; o++) {
                uint8_t *at = streams[o] + 2 * lane * b;
                tmv_rows_padded_store(at, at + lane, w != W ? _mm256_shuffle_epi8(v[o], squeeze) : v[o]);
            }
        }
    }
    return pairs * (32 / W);
}

/* The pass with the width as a constant, on a local copy of the stream
 * pointers (as tmv_rows_lanes_by_stream). */
__attribute__((always_inline)) static inline uint64_t tmv_rows_padded_by_width(const tmv_rows_shape *s, unsigned n,
                                                                               uint8_t *const *streams,
                                                                               uint8_t *joined, bool join)
{
    uint8_t *at[8];
    for (unsigned i = 0; i < n; i++)
        at[i] = streams[i];
    switch (s->pieces[0].bytes) {
    case 3: return tmv_rows_padded_pass(s, n, n, 3, 4, at, joined, join);
    case 5: return tmv_rows_padded_pass(s, n, n, 5, 8, at, joined, join);
    case 6: return tmv_rows_padded_pass(s, n, n, 6, 8, at, joined, join);
    default: return tmv_rows_padded_pass(s, n, n, 7, 8, at, joined, join);
    }
}

/* Three pieces, as four with an empty one. */
static inline uint64_t tmv_rows_padded_three(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined,
                                             bool join)
{
    uint8_t *at[3] = {streams[0], streams[1], streams[2]};
    switch (s->pieces[0].bytes) {
    case 1: return tmv_rows_padded_pass(s, 3, 4, 1, 1, at, joined, join);
    case 2: return tmv_rows_padded_pass(s, 3, 4, 2, 2, at, joined, join);
    case 3: return tmv_rows_padded_pass(s, 3, 4, 3, 4, at, joined, join);
    case 4: return tmv_rows_padded_pass(s, 3, 4, 4, 4, at, joined, join);
    case 5: return tmv_rows_padded_pass(s, 3, 4, 5, 8, at, joined, join);
    case 6: return tmv_rows_padded_pass(s, 3, 4, 6, 8, at, joined, join);
    case 7: return tmv_rows_padded_pass(s, 3, 4, 7, 8, at, joined, join);
    default: return tmv_rows_padded_pass(s, 3, 4, 8, 8, at, joined, join);
    }
}

/* The network on the shape's whole pairs of lanes (out of line, as
 * tmv_rows_zip_lanes). Returns the rows done. */
static inline uint64_t tmv_rows_padded(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined, bool join)
{
    switch (s->piece_count) {
    case 2: return tmv_rows_padded_by_width(s, 2, streams, joined, join);
    case 3: return tmv_rows_padded_three(s, streams, joined, join);
    case 4: return tmv_rows_padded_by_width(s, 4, streams, joined, join);
    default: return tmv_rows_padded_by_width(s, 8, streams, joined, join);
    }
}

/* The kernel (rows_x86.h): the padded network, the rows after it by the
 * SSE2 column moves. */
__attribute__((always_inline)) static inline void tmv_rows_zip_padded_run(const tmv_rows_shape *s, void *const *pieces,
                                                                          uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    tmv_rows_narrow_columns(s, pieces, joined, join, tmv_rows_padded(s, st.at, st.joined, join),
                            s->tuning->stream_threshold);
}

#endif
