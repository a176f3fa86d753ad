/* rows_long_avx2.c - row-wise JOIN / SPLIT of pieces of two vectors and more, each piece of each row by the set's vector loop (copy_long_x86.h) instead of a memcpy call. */
#define TMV_VEC_AVX2
#include "../rows_walk.h"
#include "copy_long_x86.h"
#include "rows_x86.h"

static bool rows_all_long(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes < TMV_COPY_LONG_MIN)
            return false;
    return true;
}

/* The family's run (rows_x86.h); join is a constant in each kernel. */
__attribute__((always_inline)) static inline void rows_long_run(const tmv_rows_shape *s, void *const *pieces,
                                                                uint8_t *joined, bool join)
{
    tmv_rows_each_piece(s, joined, (const void *const *)pieces, join, tmv_copy_long);
}

TMV_JOIN_ROWS_KERNEL(long_avx2, rows_all_long, rows_long, stateless)
TMV_SPLIT_ROWS_KERNEL(long_avx2, rows_all_long, rows_long, stateless)
