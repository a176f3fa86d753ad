/* rows_wide_columns_x86.h - column moves of row-wise JOIN/SPLIT pieces up to 256 bytes by 32-byte and, on AVX-512, 64-byte moves: the AVX2 and AVX-512 columns kernels (rows_{join,split}_<set>.c) and copy_runs (copy_runs_<set>.c). */
#ifndef TMV_ROWS_WIDE_COLUMNS_X86_H
#define TMV_ROWS_WIDE_COLUMNS_X86_H

#include <immintrin.h>

#include "rows_columns_x86.h"
#include "vec_x86.h"

/* The widest piece the wide columns take: four 64-byte moves a row (eight
 * 32-byte ones on AVX2). Above it a memcpy per piece per row is as fast.
 * Below it memcpy's call costs more than the moves: JOIN and SPLIT of 100-
 * and 256-byte pieces ran 0.3-0.6 x memcpy of the whole through a memcpy
 * per piece (tmv-bench --tmv_sweep), on AVX-512 and on AVX2 alike. */
#define TMV_ROWS_WIDE_COLUMN_MAX 256

/* True if every piece is at most TMV_ROWS_WIDE_COLUMN_MAX bytes wide. */
static inline bool tmv_rows_all_wide_columns(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes > TMV_ROWS_WIDE_COLUMN_MAX)
            return false;
    return true;
}

/* AVX2's columns kernel's shapes: tmv_rows_all_wide_columns with a piece of
 * 32 bytes or more. Narrower pieces all take the SSE2 moves, which the
 * SSE2 columns kernel makes in blocks of rows; here, past the stream
 * threshold, rows go in order (tmv_rows_unstreamed_block), and eight 3-byte
 * pieces at 64 MiB ran 0.06 x best-copy against its 0.26. */
static inline bool tmv_rows_wide_columns_avx2_shape(const tmv_rows_shape *s)
{
    bool wide = false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        wide |= s->pieces[p].bytes >= 32;
    return wide && tmv_rows_all_wide_columns(s);
}

/* One move of `chunk` = 32 or TMV_VB bytes (a constant at every call) from
 * a to b; aligned or not. */
static inline void tmv_rows_move_wide(uint8_t *b, const uint8_t *a, size_t chunk)
{
    if (chunk == TMV_VB)
        v_store(b, v_load(a));
    else
        _mm256_storeu_si256((__m256i *)(void *)b, _mm256_loadu_si256((const __m256i *)(const void *)a));
}

/* A column of w in [chunk, 2*chunk] bytes, chunk = 32 or 64 (a constant at
 * every call): one move a row where w is the chunk, else two overlapping
 * ones (source and destination are distinct buffers, so their order does
 * not matter). */
static inline void tmv_rows_column_pair_wide(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows,
                                             size_t chunk, size_t w)
{
    const size_t second = w - chunk;
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
        tmv_rows_move_wide(d, s, chunk);
        if (second != 0)
            tmv_rows_move_wide(d + second, s + second, chunk);
    }
}

/* A column of w in (64, 128] bytes as four 32-byte moves a row, the last
 * two ending at the piece's end. */
static inline void tmv_rows_column_quarters(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows,
                                            size_t w)
{
    for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
        tmv_rows_move_wide(d, s, 32);
        tmv_rows_move_wide(d + 32, s + 32, 32);
        tmv_rows_move_wide(d + w - 64, s + w - 64, 32);
        tmv_rows_move_wide(d + w - 32, s + w - 32, 32);
    }
}

/* A column of pieces up to TMV_ROWS_WIDE_COLUMN_MAX bytes: under 32 bytes
 * the SSE2 moves; up to 2 * TMV_VB one or two 32- or TMV_VB-byte moves a
 * row (a piece of 64 bytes took four 16-byte moves, and JOIN inner/8x64B at
 * 8 KiB ran 0.29 x memcpy, 0.86 with one); on AVX2 up to 128 four 32-byte
 * moves; above, TMV_VB-byte moves, the last one ending at the piece's end.
 * Moves overlap where w is not a multiple of theirs: both buffers are
 * distinct, so the order of loads and stores does not matter. */
static inline void tmv_rows_column_wide(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t rows,
                                        size_t w)
{
    if (w < 32) {
        tmv_rows_column(d, dp, s, sp, rows, w);
    } else if (w == 32) {
        tmv_rows_column_pair_wide(d, dp, s, sp, rows, 32, 32);
    } else if (w < 64) {
        tmv_rows_column_pair_wide(d, dp, s, sp, rows, 32, w);
    } else if (w == TMV_VB) {
        tmv_rows_column_pair_wide(d, dp, s, sp, rows, TMV_VB, TMV_VB);
    } else if (w <= 2 * TMV_VB) {
        tmv_rows_column_pair_wide(d, dp, s, sp, rows, TMV_VB, w);
    } else if (TMV_VB == 32 && w <= 128) {
        tmv_rows_column_quarters(d, dp, s, sp, rows, w);
    } else {
        const size_t last = w - TMV_VB;
        for (uint64_t r = 0; r < rows; r++, d += dp, s += sp) {
            for (size_t i = 0; i < last; i += TMV_VB)
                tmv_rows_move_wide(d + i, s + i, TMV_VB);
            tmv_rows_move_wide(d + last, s + last, TMV_VB);
        }
    }
}

/* The same but that on AVX-512 a column of 65 to 128 bytes goes in four
 * 32-byte moves, as on AVX2, instead of two 64-byte ones: for steps that
 * do not fit L1 (tmv_rows_columns_past_l1). There the four took 0.81-0.98x the time of the two at 1
 * MiB for every JOIN and SPLIT of 100-byte pieces of the full sweep (SPLIT
 * 8x100B u8 0.64 -> 0.73 x best copy) and 0.88-0.96x at 64 MiB, but at 8
 * KiB, in L1, 1.05x (up to 1.14x: SPLIT 2x100B; Zen 5, 2026-11-30). Both
 * store the same bytes with about as many stores across a line; why the
 * wide stores lose once the lines come from L2 or further was not found. */
static inline void tmv_rows_column_wide_past_l1(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp,
                                                uint64_t rows, size_t w)
{
    if (w > 64 && w <= 128)
        tmv_rows_column_quarters(d, dp, s, sp, rows, w);
    else
        tmv_rows_column_wide(d, dp, s, sp, rows, w);
}

/* Whether a step whose source and destination span working_set bytes
 * takes tmv_rows_column_wide_past_l1 (l1: L1's bytes, 0 if unknown). */
static inline bool tmv_rows_columns_past_l1(uint64_t working_set, uint64_t l1)
{
    return TMV_VB == 64 && l1 != 0 && working_set > l1;
}

/* The AVX2 and AVX-512 columns kernel (rows_x86.h): every piece's column by
 * the wide moves, in row order past the stream threshold (tmv_rows_unstreamed_block);
 * it takes pieces of at most TMV_ROWS_WIDE_COLUMN_MAX bytes
 * (tmv_rows_all_wide_columns). */
__attribute__((always_inline)) static inline void tmv_rows_wide_columns_run(const tmv_rows_shape *s,
                                                                            void *const *pieces, uint8_t *joined,
                                                                            bool join)
{
    if (tmv_rows_columns_past_l1(2 * s->rows * s->joined_bytes, s->tuning->cache_bytes[0]))
        tmv_rows_columns_by(s, pieces, joined, join, 0, s->tuning->stream_threshold, tmv_rows_column_wide_past_l1,
                            true);
    else
        tmv_rows_columns_by(s, pieces, joined, join, 0, s->tuning->stream_threshold, tmv_rows_column_wide, true);
}

#endif
