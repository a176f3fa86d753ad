/* rows_zip_padded_avx2.h - row-wise JOIN and SPLIT of 2, 4 or 8 equal packed pieces of 3, 5, 6 or 7 bytes: each piece's rows padded to slots of 4 or 8 bytes by a byte shuffle, the AVX2 zip network on the slots, and the padding squeezed out again (AVX2 set; the kernels: rows_x86.h).
 *
 * The zip network (rows_zip_avx2.h) takes pieces of a power of two bytes.
 * Others went to the column moves, a load and a store per piece per row
 * (JOIN inner 8x3B u8 at 1 MiB: 0.13 x best copy), to the byte shuffles
 * (JOIN's joined rows up to 16 bytes, rows_shuffle_avx2.h: 2x3B at
 * 0.49), or, for SPLIT, to one byte-permute copy per piece (2x3B: 0.46,
 * 8x3B: 0.21). Here a lane (16 bytes) takes 16 / W rows of a piece, whose
 * w-byte rows are the lane's first 16 / W * w bytes: one vpshufb spreads
 * them into W-byte slots (W the power of two above w), the network zips
 * (JOIN) or unzips (SPLIT) the slots as it would pieces of W bytes, and one
 * vpshufb per lane packs the rows back to w bytes. Each lane is loaded and
 * stored as a 16-byte vector at its real offset, so an access reaches
 * 16 - 16 / W * w bytes past its lane's rows: the next lane's, which its own
 * store (later, in address order) writes again. The blocks stop while the
 * rows after them cover that reach in every buffer, and the column moves
 * take the rest: no access leaves the call's rows. No streaming stores:
 * the stores overlap. */
#ifndef TMV_ROWS_ZIP_PADDED_AVX2_H
#define TMV_ROWS_ZIP_PADDED_AVX2_H

#include "rows_zip_avx2.h"

/* The widest piece padded: 9 to 15 bytes would take 16-byte slots, where
 * the column moves need only two moves a row. */
#define TMV_ROWS_PADDED_MAX_W 7

/* 2, 4 or 8 equal packed pieces of 3, 5, 6 or 7 bytes. */
static inline bool tmv_rows_zip_padded_avx2_shape(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes, n = s->piece_count;
    return (n == 2 || n == 4 || n == 8) && w >= 3 && w <= TMV_ROWS_PADDED_MAX_W && (w & (w - 1)) != 0 &&
           tmv_rows_equal_pieces(s);
}

/* The vpshufb table of a lane, in both lanes: rows of w bytes into slots of
 * W (expand), or back (squeeze). w and W are constants at each call. */
static inline __m256i tmv_rows_padded_table(unsigned w, unsigned W, bool expand)
{
    _Alignas(16) uint8_t t[16];
    for (unsigned j = 0; j < 16; j++) {
        if (expand)
            t[j] = (uint8_t)(j % W < w ? j / W * w + j % W : 0x80);
        else
            t[j] = (uint8_t)(j < 16 / W * w ? j / w * W + j % w : 0x80);
    }
    return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)t));
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

/* Whole pairs of lanes (32 / W rows) through the network on W-byte slots,
 * as tmv_rows_zip_pass does for pieces of W bytes; a 16-byte joined vector
 * q of a pair (lane * n + pos, as there) lies at q * 16 / W * w. n, w and W
 * are constants at each call. Returns the rows done. */
__attribute__((always_inline)) static inline uint64_t
tmv_rows_padded_pass(const tmv_rows_shape *s, unsigned n, unsigned w, unsigned W, uint8_t *const *streams,
                     uint8_t *joined, bool join)
{
    unsigned pos[8], inv[8];
    tmv_rows_zip_order(n, W, 16, pos);
    for (unsigned i = 0; i < n; i++)
        inv[pos[i]] = i;
    const unsigned k = tmv_rows_network_stages(n, W);
    const uint64_t lane = 16 / W * w;                       /* a lane's bytes of one piece */
    const uint64_t reach = (16 - lane + w - 1) / w;         /* rows a lane's access reaches past it */
    const uint64_t pairs = s->rows > reach ? (s->rows - reach) / (32 / W) : 0;
    const __m256i expand = tmv_rows_padded_table(w, W, true), squeeze = tmv_rows_padded_table(w, W, false);
    for (uint64_t b = 0; b < pairs; b++) {
        __m256i v[8];
        uint8_t *block = joined + 2 * n * lane * b;
        if (join) {
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++) {
                const uint8_t *at = streams[i] + 2 * lane * b;
                v[i] = _mm256_shuffle_epi8(tmv_rows_padded_load(at, at + lane), expand);
            }
        } else {
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++)
                v[i] = _mm256_shuffle_epi8(
                    tmv_rows_padded_load(block + pos[i] * lane, block + (n + pos[i]) * lane), expand);
        }
        tmv_rows_zip_lanes_network(v, n, W, k, join);
        if (join) {
            /* joined vector q of the pair is lane q / n of v[inv[q % n]]:
             * stored in order of q, so that each store's reach is written
             * again by the next, with no lane exchange */
#pragma GCC unroll 8
            for (unsigned i = 0; i < n; i++)
                v[i] = _mm256_shuffle_epi8(v[i], squeeze);
#pragma GCC unroll 8
            for (unsigned q = 0; q < n; q++)
                _mm_storeu_si128((__m128i *)(void *)(block + q * lane), _mm256_castsi256_si128(v[inv[q]]));
#pragma GCC unroll 8
            for (unsigned q = 0; q < n; q++)
                _mm_storeu_si128((__m128i *)(void *)(block + (n + q) * lane), _mm256_extracti128_si256(v[inv[q]], 1));
        } else {
#pragma GCC unroll 8
            for (unsigned o = 0; o < n; o++) {
                uint8_t *at = streams[o] + 2 * lane * b;
                tmv_rows_padded_store(at, at + lane, _mm256_shuffle_epi8(v[o], squeeze));
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
    case 3: return tmv_rows_padded_pass(s, n, 3, 4, at, joined, join);
    case 5: return tmv_rows_padded_pass(s, n, 5, 8, at, joined, join);
    case 6: return tmv_rows_padded_pass(s, n, 6, 8, at, joined, join);
    default: return tmv_rows_padded_pass(s, n, 7, 8, at, joined, join);
    }
}

/* The network on the shape's whole pairs of lanes (out of line, as
 * tmv_rows_zip_lanes). Returns the rows done. */
static inline uint64_t tmv_rows_padded(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined, bool join)
{
    switch (s->piece_count) {
    case 2: return tmv_rows_padded_by_width(s, 2, streams, joined, join);
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
