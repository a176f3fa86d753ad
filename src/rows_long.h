/* rows_long.h - which row-wise JOIN/SPLIT shapes are a few long pieces past the stream threshold (the stream kernels' shape, every ISA). */
#ifndef TMV_ROWS_LONG_H
#define TMV_ROWS_LONG_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"

/* Pieces of at least this many bytes per row go to the stream kernels when
 * the output is past the stream threshold (JOIN / SPLIT along the outer
 * axis: one row of a few large pieces), each piece copied with streaming
 * stores: at DRAM size on x86, split outer/8x/f32 went from 5.1 to 3.1 ms
 * (memcpy of the same bytes: 4.0-4.9 ms), join outer/2x/f32 from 4.3 to
 * 3.2 ms. */
#define TMV_ROWS_STREAM_MIN 4096

/* Whether the stream kernels take the shape (with the threshold of the call). */
static inline bool tmv_rows_stream_shape(const tmv_rows_shape *s, uint64_t stream_threshold)
{
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes < TMV_ROWS_STREAM_MIN)
            return false;
    return s->rows * s->joined_bytes >= stream_threshold;
}

#endif
