/* rows_shuffle_avx2.h - row-wise JOIN of 2..16 packed pieces of any byte counts in packed joined rows of at most 16 bytes: a byte shuffle per piece per 16-byte block of rows (AVX2 set; the kernel: rows_x86.h).
 *
 * The unpack networks (rows_zip_avx2.h) take equal pieces of a power of
 * two bytes; others (three pieces of 3 bytes, or pieces of different
 * sizes, as a JOIN of channel groups in NHWC has) went to the column
 * moves, one move per piece per row: JOIN inner 2x3B u8 at 1 MiB ran at
 * 0.08-0.10 x best copy on a Zen 3, which has no VBMI for
 * join_rows_bytes. Here a block is L = 16 / R joined rows of R bytes, so
 * L rows of each piece: JOIN loads a piece's L rows as one 16-byte
 * vector, puts its bytes in their places of the block by vpshufb (zero
 * elsewhere), ors the pieces together and stores the block. The bytes a
 * store writes past its block belong to the next block's rows, which
 * write them again, so blocks run while 16 bytes of the call's rows
 * remain in every buffer, in order, and the column moves take the rows
 * after them. The tables are built at create. No streaming stores: a
 * block is not a whole line.
 *
 * Only JOIN: the same blocks the other way round store a vector per piece
 * per block, a few bytes each, where SPLIT lowered to copies writes each
 * piece's rows a whole vector at a time (copy_permute/avx2): SPLIT inner
 * 2x3B u8 at 8 KiB ran at 0.10 x memcpy against the copies' 0.19, and with
 * one row a block (rows of 9-16 bytes) at 0.77-1.06x the column moves. */
#ifndef TMV_ROWS_SHUFFLE_AVX2_H
#define TMV_ROWS_SHUFFLE_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "rows_columns_x86.h"
#include "rows_zip_avx2.h"

/* The longest joined row: one block holds a row at least. */
#define TMV_ROWS_SHUFFLE_MAX 16

typedef struct tmv_rows_shuffle_plan {
    uint64_t rows_per_block;                     /* L */
    uint64_t least;                              /* rows left that give the narrowest piece 16 bytes */
    _Alignas(16) uint8_t idx[TMV_ROWS_MAX_STREAMS][16];   /* per byte of a block, its byte in piece p's
                                                             vector (0x80: none) */
} tmv_rows_shuffle_plan;

/* 2..16 packed pieces in packed joined rows of at most 16 bytes, but the
 * unpack network's shapes (equal pieces of a power of two bytes: fewer
 * shuffles a byte there). */
static inline bool tmv_rows_shuffle_shape(const tmv_rows_shape *s)
{
    return tmv_rows_packed(s) && s->joined_bytes <= TMV_ROWS_SHUFFLE_MAX && !tmv_rows_zip_avx2_shape(s);
}

/* The tables (join is true: the kernel is JOIN's only). */
static inline void tmv_rows_shuffle_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    (void)join;
    tmv_rows_shuffle_plan *pl = state;
    const uint64_t R = s->joined_bytes, L = 16 / R;
    uint64_t narrowest = R;
    pl->rows_per_block = L;
    for (uint32_t p = 0; p < s->piece_count; p++) {
        const uint64_t b = s->pieces[p].bytes, off = s->pieces[p].offset;
        narrowest = b < narrowest ? b : narrowest;
        for (uint64_t k = 0; k < 16; k++) {   /* joined byte k: row k / R, column k % R */
            const bool mine = k < L * R && k % R >= off && k % R < off + b;
            pl->idx[p][k] = (uint8_t)(mine ? k / R * b + k % R - off : 0x80);
        }
    }
    pl->least = (16 + narrowest - 1) / narrowest;
}

/* `blocks` blocks of n pieces to d, piece p's rows at at[p], step[p]
 * bytes a block. Always inlined with n a constant at the calls that
 * unroll it, so the pieces' pointers and tables stay in registers
 * (with n a variable, each block stored the pointers back to the stack). */
__attribute__((always_inline)) static inline void tmv_rows_shuffle_blocks(const tmv_rows_shuffle_plan *pl,
                                                                          uint8_t *const *at, const uint64_t *step,
                                                                          uint8_t *d, uint64_t blocks,
                                                                          uint64_t block, uint32_t n)
{
    for (uint64_t k = 0; k < blocks; k++, d += block) {
        __m128i v = _mm_setzero_si128();
        for (uint32_t p = 0; p < n; p++) {
            const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(at[p] + k * step[p]));
            v = _mm_or_si128(v, _mm_shuffle_epi8(x, _mm_load_si128((const __m128i *)(const void *)pl->idx[p])));
        }
        _mm_storeu_si128((__m128i *)(void *)d, v);
    }
}

/* The kernel (join is true; pieces are the JOIN's sources, only read). */
__attribute__((always_inline)) static inline void tmv_rows_shuffle_run(const tmv_rows_shape *s, void *const *pieces,
                                                                       uint8_t *joined, bool join)
{
    const tmv_rows_shuffle_plan *pl = s->state;
    const uint32_t n = s->piece_count;
    const uint64_t L = pl->rows_per_block;
    uint8_t *at[TMV_ROWS_MAX_STREAMS];
    uint64_t step[TMV_ROWS_MAX_STREAMS];
    for (uint32_t p = 0; p < n; p++) {
        at[p] = (uint8_t *)pieces[s->pieces[p].buffer];
        step[p] = L * s->pieces[p].bytes;
    }
    const uint64_t blocks = s->rows >= pl->least ? (s->rows - pl->least) / L + 1 : 0;
    const uint64_t block = L * s->joined_bytes;
    switch (n) {
    case 2: tmv_rows_shuffle_blocks(pl, at, step, joined, blocks, block, 2); break;
    case 3: tmv_rows_shuffle_blocks(pl, at, step, joined, blocks, block, 3); break;
    case 4: tmv_rows_shuffle_blocks(pl, at, step, joined, blocks, block, 4); break;
    default: tmv_rows_shuffle_blocks(pl, at, step, joined, blocks, block, n); break;
    }
    if (blocks * L < s->rows)
        tmv_rows_narrow_columns(s, pieces, joined, join, blocks * L, s->tuning->stream_threshold);
}

#endif
