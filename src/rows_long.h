/* rows_long.h - which row-wise JOIN/SPLIT shapes the stream kernels take past the stream threshold: a few long pieces, or pieces of whole lines (every ISA). */
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

/* Shorter pieces stream too where every piece is whole lines at line
 * offsets (tmv_rows_whole_lines) and holds this many bytes: then only the
 * lines at either end of a piece are partial, and only where the buffers
 * are not 64-byte aligned. JOIN inner 8x256B at 16 and 64 MiB, AVX2 set,
 * Zen 3: 1.48-1.51x by geometric mean against a memcpy per piece (SPLIT
 * 1.08x); 8x256B u8 at 64 MiB with the joined buffer 16 bytes past a line,
 * 7.55 -> 5.24 ms. Pieces of 100 or 1000 bytes (not whole lines) streamed
 * lost or tied: 0.67-0.82x, 0.88-1.09x (their JOIN streams whole lines of
 * the joined rows instead on AVX2: rows_blend_avx2.h). */
#define TMV_ROWS_STREAM_LINES_MIN 256

/* True if every piece is whole lines at line offsets in rows of whole
 * lines. */
static inline bool tmv_rows_whole_lines(const tmv_rows_shape *s)
{
    uint64_t bits = s->joined_pitch;
    for (uint32_t p = 0; p < s->piece_count; p++)
        bits |= s->pieces[p].bytes | s->pieces[p].offset | s->pieces[p].pitch;
    return bits % 64 == 0;
}

/* Whether the stream kernels take the shape (with the threshold of the call). */
static inline bool tmv_rows_stream_shape(const tmv_rows_shape *s, uint64_t stream_threshold)
{
    const uint64_t least = tmv_rows_whole_lines(s) ? TMV_ROWS_STREAM_LINES_MIN : TMV_ROWS_STREAM_MIN;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes < least)
            return false;
    return s->rows * s->joined_bytes >= stream_threshold;
}

#endif
