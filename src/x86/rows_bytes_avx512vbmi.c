/* rows_bytes_avx512vbmi.c - row-wise JOIN / SPLIT of packed pieces of any byte counts by the byte-permute rows engine (rows_bytes_avx512vbmi.h): the shapes it takes, its tables made at create. */
#define TMV_VEC_AVX512VBMI
#include "rows_bytes_avx512vbmi.h"

/* Packed rows within rows_bytes_fit's limits, or any packed rows the wide
 * blocks take (joined rows of up to 170 bytes) that no zip network does:
 * eight 7-byte pieces at 8 KiB, one row a block, lost to the column moves
 * (0.08 against 0.12 x memcpy); nine rows a wide block took 190 ns against
 * their 458. Blocks of two rows (pieces of 31 bytes) lost to them at 8 KiB
 * (0.84-0.89x) as much as they won at 1 MiB (1.06-1.11x), so three rows at
 * least. A zip network shuffles each vector log2(n) times where a wide
 * block permutes and blends it n - 1 times: eight 16-byte pieces took 153
 * ns here, 75 in AVX-512's network. (Measured on JOIN; SPLIT's wide blocks
 * are the same work the other way round.) */
static bool rows_bytes_shape(const tmv_rows_shape *s)
{
    if (!tmv_rows_packed(s))
        return false;
    if (rows_bytes_fit(s->piece_count, s->joined_bytes))
        return true;
    if (tmv_rows_zip_shape(s, 1, 64))
        return false;
    uint64_t bytes[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < s->piece_count; p++)
        bytes[p] = s->pieces[p].bytes;
    return wide_block_rows(s->piece_count, bytes, s->joined_bytes) >= 3;
}

static void rows_bytes_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    _Static_assert(sizeof(rows_bytes_plan) <= TMV_KERNEL_STATE_BYTES, "byte plan exceeds the kernel state");
    uint64_t bytes[TMV_ROWS_MAX_STREAMS], offsets[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < s->piece_count; p++) {
        bytes[p] = s->pieces[p].bytes;
        offsets[p] = s->pieces[p].offset;
    }
    rows_bytes_plan_make(state, s->piece_count, bytes, offsets, s->joined_bytes, join);
    rows_bytes_wide_make(state, offsets, join);
}

/* The family's run (rows_x86.h): each direction its own instances. */
static void rows_bytes_run(const tmv_rows_shape *s, void *const *pieces, uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    if (join)
        rows_bytes_any(s->state, s->rows, st.at, st.joined, true, 1, 0, 0, false);
    else
        rows_bytes_any(s->state, s->rows, st.at, st.joined, false, 1, 0, 0, false);
}

TMV_JOIN_ROWS_KERNEL(bytes_avx512vbmi, rows_bytes_shape, rows_bytes, prepared)
TMV_SPLIT_ROWS_KERNEL(bytes_avx512vbmi, rows_bytes_shape, rows_bytes, prepared)
