/* rows_overlap_x86.h - row-wise JOIN and SPLIT of 2 to 16 equal packed pieces of 9 to 31 bytes, each piece's row one 16- or 32-byte move that reaches into the bytes the next move writes (AVX2 set; the kernels: rows_x86.h).
 *
 * No network takes pieces of 9 to 15 bytes (the padded zip's slots would be
 * 16 bytes, leaving it nothing to do) nor of 17 to 31, and the column moves
 * move such a piece's row as two overlapping moves of 8 or 16 bytes, two
 * loads and two stores. Packed pieces with contiguous rows leave no gap:
 * after a piece's row in a joined row comes the next piece's (or the next
 * joined row's first), after a piece's row its next row. So, rows in order
 * and pieces in order within a row, one move of V bytes (16, or 32 past 16
 * bytes) writes the row and V - w bytes of what the next move writes again;
 * its load reads as far into what follows it. Only the last row, whose
 * moves would reach past the call's rows, goes to the column moves. No
 * streaming stores: the stores overlap (nor could the columns stream
 * pieces of these widths: they are no whole lines). */
#ifndef TMV_ROWS_OVERLAP_X86_H
#define TMV_ROWS_OVERLAP_X86_H

#include "rows_x86.h"

/* Equal packed pieces with contiguous rows, of 9 to 31 bytes but 16 (a
 * piece of 16 is one move anyway): a move reaches V - w <= w bytes past
 * its piece's row, so only into the next one. */
static inline bool tmv_rows_overlap_shape(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes;
    return w >= 9 && w <= 31 && w != 16 && tmv_rows_equal_pieces(s);
}

/* One row of a piece: V bytes from `from` to `to`. */
__attribute__((always_inline)) static inline void tmv_rows_overlap_move(uint8_t *to, const uint8_t *from, unsigned V)
{
    if (V == 16)
        _mm_storeu_si128((__m128i *)to, _mm_loadu_si128((const __m128i *)from));
    else
        _mm256_storeu_si256((__m256i *)to, _mm256_loadu_si256((const __m256i *)from));
}

/* Rows [0, rows - 1) of n pieces, V bytes a move; the rows done. */
__attribute__((always_inline)) static inline uint64_t tmv_rows_overlap_pass(const tmv_rows_shape *s, unsigned n,
                                                                           uint8_t *const *streams, uint8_t *joined,
                                                                           bool join, unsigned V)
{
    const uint64_t w = s->pieces[0].bytes, done = s->rows ? s->rows - 1 : 0;
    uint8_t *row = joined;
    for (uint64_t r = 0; r < done; r++, row += s->joined_pitch)
        for (unsigned p = 0; p < n; p++) {
            uint8_t *own = streams[p] + r * w;
            if (join)
                tmv_rows_overlap_move(row + p * w, own, V);
            else
                tmv_rows_overlap_move(own, row + p * w, V);
        }
    return done;
}

/* The pass with the move's width, and the piece counts of SPACE_TO_DEPTH's
 * blocks (2, 3, 4) as constants. */
__attribute__((always_inline)) static inline uint64_t tmv_rows_overlap_by_count(const tmv_rows_shape *s,
                                                                               uint8_t *const *streams,
                                                                               uint8_t *joined, bool join, unsigned V)
{
    switch (s->piece_count) {
    case 2: return tmv_rows_overlap_pass(s, 2, streams, joined, join, V);
    case 3: return tmv_rows_overlap_pass(s, 3, streams, joined, join, V);
    case 4: return tmv_rows_overlap_pass(s, 4, streams, joined, join, V);
    default: return tmv_rows_overlap_pass(s, s->piece_count, streams, joined, join, V);
    }
}

/* The overlap kernel (rows_x86.h): every row but the last by the moves
 * that overlap, the last by the SSE2 column moves. */
__attribute__((always_inline)) static inline void tmv_rows_overlap_run(const tmv_rows_shape *s, void *const *pieces,
                                                                       uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    const uint64_t done = s->pieces[0].bytes < 16 ? tmv_rows_overlap_by_count(s, st.at, st.joined, join, 16)
                                                   : tmv_rows_overlap_by_count(s, st.at, st.joined, join, 32);
    tmv_rows_narrow_columns(s, pieces, joined, join, done, s->tuning->stream_threshold);
}

#endif
