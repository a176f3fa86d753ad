/* portable_rows.c - plain-C row-wise JOIN and SPLIT: each joined row assembled or taken apart in one pass. */
#include <string.h>

#include "kernels.h"
#include "rows_walk.h"

bool tmv_join_rows_scalar_accepts(const tmv_rows_shape *s)
{
    (void)s;
    return true;
}

bool tmv_split_rows_scalar_accepts(const tmv_rows_shape *s)
{
    (void)s;
    return true;
}

static inline void copy_memcpy(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    memcpy(dst, src, (size_t)bytes);
}

void tmv_join_rows_scalar(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)
{
    tmv_rows_each_piece(s, dst, srcs, true, copy_memcpy);
}

void tmv_split_rows_scalar(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)
{
    tmv_rows_each_piece(s, (uint8_t *)(uintptr_t)src, (const void *const *)dsts, false, copy_memcpy);
}
