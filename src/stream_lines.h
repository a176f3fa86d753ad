/* stream_lines.h - copies whose destination's whole 64-byte lines go through an ISA's non-temporal line store: one range, and the rows of a row-wise JOIN/SPLIT of long pieces (every ISA). */
#ifndef TMV_STREAM_LINES_H
#define TMV_STREAM_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

/* 64 bytes from s to d (d 64-byte aligned) with non-temporal stores. */
typedef void tmv_stream_line_fn(uint8_t *d, const uint8_t *s);

/* n bytes from s to d: d's whole 64-byte lines through `line`, the partial
 * lines at either end with memcpy. Always inlined, so that `line` (a
 * constant at each call) is inlined into the loop too. */
__attribute__((always_inline)) static inline void tmv_stream_copy_lines(uint8_t *d, const uint8_t *s, uint64_t n,
                                                                        tmv_stream_line_fn *line)
{
    const uint64_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (n < head + 64) {
        memcpy(d, s, (size_t)n);
        return;
    }
    /* The partial lines only when there are some: with the string
     * operations left to libc (-mstringop-strategy=libcall), a memcpy of 0
     * bytes is still a call, two for every 128-byte block TILE streams. */
    if (head) {
        memcpy(d, s, (size_t)head);
        d += head;
        s += head;
        n -= head;
    }
    for (; n >= 64; n -= 64, d += 64, s += 64)
        line(d, s);
    if (n)
        memcpy(d, s, (size_t)n);
}

/* Row-wise JOIN (join: buffers are the pieces' sources, only read) or SPLIT
 * (buffers are their destinations) of shape s: each piece of each row one
 * tmv_stream_copy_lines between its buffer and the joined rows. */
__attribute__((always_inline)) static inline void tmv_rows_stream_lines(const tmv_rows_shape *s, uint8_t *joined,
                                                                        void *const *buffers, bool join,
                                                                        tmv_stream_line_fn *line)
{
    for (uint64_t r = 0; r < s->rows; r++)
        for (uint32_t p = 0; p < s->piece_count; p++) {
            const tmv_rows_piece *piece = &s->pieces[p];
            uint8_t *row = joined + r * s->joined_pitch + piece->offset;
            uint8_t *own = (uint8_t *)buffers[piece->buffer] + r * piece->pitch;
            if (join)
                tmv_stream_copy_lines(row, own, piece->bytes, line);
            else
                tmv_stream_copy_lines(own, row, piece->bytes, line);
        }
}

#endif
