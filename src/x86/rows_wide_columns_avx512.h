/* rows_wide_columns_avx512.h - column moves of row-wise JOIN/SPLIT pieces up to four zmm wide and AVX-512's columns kernel (rows_{join,split}_avx512.c). */
#ifndef TMV_ROWS_WIDE_COLUMNS_AVX512_H
#define TMV_ROWS_WIDE_COLUMNS_AVX512_H

#include <immintrin.h>

#include "rows_columns_x86.h"

/* The widest piece the wide columns take: four 64-byte moves a row. Above
 * it a memcpy per piece per row is as fast. Below it memcpy's call costs
 * more than the moves: JOIN and SPLIT of 100- and 256-byte pieces ran
 * 0.3-0.6 x memcpy of the whole through a memcpy per piece (tmv-bench
 * --tmv_sweep). */
#define TMV_ROWS_WIDE_COLUMN_MAX 256

/* True if every piece is at most TMV_ROWS_WIDE_COLUMN_MAX bytes wide. */
static inline bool tmv_rows_all_wide_columns(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes > TMV_ROWS_WIDE_COLUMN_MAX)
            return false;
    return true;
}

/* A column of pieces up to TMV_ROWS_WIDE_COLUMN_MAX bytes: up to 64 bytes
 * the SSE2 moves, above them 64-byte moves, the last one ending at the
 * piece's end (overlapping the one before: both buffers are distinct, so
 * the order of loads and stores does not matter). */
static inline void tmv_rows_column_wide(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows,
                                        size_t w)
{
    if (w <= TMV_ROWS_COLUMN_MAX) {
        tmv_rows_column(d, dp, s, sp, rows, w);
        return;
    }
    const size_t last = w - 64;
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
        for (size_t i = 0; i < last; i += 64)
            _mm512_storeu_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
        _mm512_storeu_si512((void *)(d + last), _mm512_loadu_si512((const void *)(s + last)));
    }
}

/* AVX-512's columns kernel (rows_x86.h): every piece's column by the wide
 * moves, in row order past the stream threshold (tmv_rows_unstreamed_block);
 * it takes pieces of at most TMV_ROWS_WIDE_COLUMN_MAX bytes
 * (tmv_rows_all_wide_columns). */
__attribute__((always_inline)) static inline void tmv_rows_wide_columns_run(const tmv_rows_shape *s,
                                                                            void *const *pieces, uint8_t *joined,
                                                                            bool join)
{
    tmv_rows_columns_by(s, pieces, joined, join, 0, s->tuning->stream_threshold, tmv_rows_column_wide, true);
}

#endif
