/* copy_runs_stream_sse2.c - copy_runs_stream/sse2: strided copies past the stream threshold whose runs are whole 64-byte lines, written with streaming stores.
 *
 * Past the stream threshold the best copy is a streaming one: it skips the
 * read for ownership of every destination line. A plain copy of 64 MiB ran
 * 7.6-7.9 ms here (Zen 3) and a streaming one 4.7-5.2, so a kernel that
 * writes through the cache can reach only about 0.65 x best-copy however
 * little else it does. The runs kernels (copy_w16, copy_runs, copy_memcpy)
 * all wrote through the cache: NHWC DEPTH_TO_SPACE B2 C64 u8 (128-byte
 * runs) ran at 0.62 x best-copy at 64 MiB. Streaming its runs as they are
 * took a loop of the shape from 9.8 to 7.1 ms (docs/PERFORMANCE.md, "Runs
 * of whole lines streamed").
 *
 * A streaming store of part of a line is slow unless the rest of the line
 * follows at once, when the write-combining buffer sends them as one line.
 * So the shapes taken are runs of whole lines at line-aligned strides.
 * Runs that end inside a line lose even where the next run finishes it (a
 * dense destination written forward), as the destination's order is then
 * the only one, and it may read the source in passes: NHWC DEPTH_TO_SPACE
 * B8 C3 f32 (96-byte runs) took 16.1 ms streamed against memcpy calls'
 * 9.6, B4 C1 f32 (16-byte runs) 13.4-14.4 against copy_w16's 8.7-9.8
 * (TENSORMOVE_ISA=avx2 tmv-plan-regret --sizes=64MiB). A fill (a run read
 * again along the line) is not a copy of runs and stays with the fill
 * kernels. SSE2 only: DRAM sets the speed, not the vector width. */
#include <string.h>

#include "../kernels.h"
#include "../walk_columns.h"
#include "stream_x86.h"

/* Runs of whole lines at strides of whole lines. */
static bool whole_lines(const tmv_copy_shape *s)
{
    if (s->elem_bytes % 64 != 0)
        return false;
    for (uint32_t d = 0; d < s->rank; d++)
        if (s->dst_strides[d] % 64 != 0)
            return false;
    return true;
}

bool tmv_copy_runs_stream_sse2_accepts(const tmv_copy_shape *s)
{
    return whole_lines(s) && (s->rank == 0 || s->src_strides[s->rank - 1] != 0) &&
           tmv_shape_bytes(s) >= s->tuning->stream_threshold;
}

/* n runs of w bytes (whole lines, d 64-byte aligned), each streamed by
 * stream_x86.h's copy: all of it whole lines, so no memcpy at either end. */
static void stream_column(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t n, size_t w)
{
    for (; n != 0; n--, d += dp, s += sp)
        tmv_stream_copy(d, s, w);
}

/* The same runs through the cache, for a destination the streaming stores
 * cannot take as it lies. */
static void plain_column(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t n, size_t w)
{
    for (; n != 0; n--, d += dp, s += sp)
        memcpy(d, s, w);
}

/* The runs are whole lines only on a 64-byte aligned destination: on any
 * other, every run would leave two partial lines.
 *
 * Whole lines may be written in any order. Of the two orders that walk one
 * side forward, the one whose innermost dim (outside the runs) is shorter
 * keeps both sides to a few forward streams; the other walks the far side
 * in passes that each skip most of it. NHWC DEPTH_TO_SPACE B8 C16 u8
 * (128-byte runs, an eighth of each 1 KiB input pixel per output row) read
 * in the destination's order went through each input row eight times:
 * 0.55 x best-copy at 64 MiB by memcpy calls, 0.29-0.40 streamed, 0.66-0.79
 * streamed in the source's order (inner dim: the block row, 8). NHWC
 * SPACE_TO_DEPTH B4 C16 u8 is the same copy the other way round: 1.06-1.11
 * in the destination's order (inner dim: the block row, 4), 0.72-0.78 in
 * the source's. */
void tmv_copy_runs_stream_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    if (((uintptr_t)dst & 63) != 0) {
        tmv_copy_by_columns(s, src, dst, plain_column, false);
        return;
    }
    tmv_copy_shape by_source;
    if (s->rank > 1) {
        by_source = *s;
        tmv_shape_order_by_source(&by_source, s->rank);
        if (by_source.sizes[s->rank - 1] < s->sizes[s->rank - 1])
            s = &by_source;
    }
    tmv_copy_by_columns(s, src, dst, stream_column, false);
    _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
}
