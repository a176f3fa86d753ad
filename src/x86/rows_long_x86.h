/* rows_long_x86.h - row-wise JOIN / SPLIT of long pieces (TMV_COPY_LONG_MIN bytes and more), each piece of each row by the set's vector loop (copy_long_x86.h) instead of a memcpy call; stamped into rows_long_<set>.c. */
#ifndef TMV_ROWS_LONG_X86_H
#define TMV_ROWS_LONG_X86_H

#include "../rows_walk.h"
#include "copy_long_x86.h"
#include "rows_x86.h"

static inline bool tmv_rows_all_long(const tmv_rows_shape *s)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes < TMV_COPY_LONG_MIN)
            return false;
    return true;
}

/* The family's run (rows_x86.h); join is a constant in each kernel. */
__attribute__((always_inline)) static inline void tmv_rows_long_run(const tmv_rows_shape *s, void *const *pieces,
                                                                    uint8_t *joined, bool join)
{
    tmv_rows_each_piece(s, joined, (const void *const *)pieces, join, tmv_copy_long);
}

#endif
