/* copy_runs_blend_avx2.c - copy_runs_blend_stream/avx2: strided copies past the stream threshold whose runs are 32 bytes or more but no whole lines and whose output is dense, written in the output's own order a whole line at a time with streaming stores, each 32-byte half from one run or two (rows_blend_avx2.h).
 *
 * Past L3 a copy that writes through the cache reads every output line for
 * ownership first. NHWC SPACE_TO_DEPTH and DEPTH_TO_SPACE in DCR order
 * move runs of B * C elements (B3 C3 f32: 36 bytes, B8 C3 f32: 96) into a
 * dense output, and copy_runs moved them at 1.7-2.3x the memory floor at 64
 * MiB (tmv-plan-regret --sizes=64MiB). Streaming each run as it lies leaves
 * two partial lines a run, which lost to the plain moves
 * (copy_runs_stream_sse2.c). Here the output is produced line by line, as
 * JOIN's blend kernel produces joined rows: the output's inner dims are
 * rows of `count` stretches (the runs of the innermost dim, count its size,
 * when it has at most TMV_ROWS_MAX_STREAMS runs and the next dim's runs
 * are 32 bytes or more apart in the source: SPACE_TO_DEPTH's B runs of a
 * pixel; else one run a row, the innermost dim's runs being the rows:
 * DEPTH_TO_SPACE's runs of a block row). Each position of the dims outside
 * them is one call of tmv_rows_blend_write, whose first and last rows and
 * partial lines at either end go through memcpy. */
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"
#include "rows_blend_avx2.h"

/* Least output bytes of one call: each call writes up to two partial lines
 * and its first and last rows through the cache, between streamed lines. */
#define BLEND_CALL_MIN_BYTES 2048

/* How the shape's inner dims make blend rows: `inner` is the first of
 * them, `count` the stretches of a row. */
typedef struct blend_dims {
    uint32_t inner;
    uint64_t count, rows, pitch, step;   /* step: source bytes between a row's stretches */
} blend_dims;

static bool blend_dims_of(const tmv_copy_shape *s, blend_dims *b)
{
    if (s->rank == 0)
        return false;
    const uint32_t last = s->rank - 1;
    const uint64_t w = s->elem_bytes;
    if (s->dst_strides[last] != w)
        return false;
    if (s->rank >= 2 && s->sizes[last] <= TMV_ROWS_MAX_STREAMS && s->src_strides[last - 1] >= 32 &&
        s->dst_strides[last - 1] == w * s->sizes[last]) {
        *b = (blend_dims){last - 1, s->sizes[last], s->sizes[last - 1], s->src_strides[last - 1], s->src_strides[last]};
        return true;
    }
    *b = (blend_dims){last, 1, s->sizes[last], s->src_strides[last], 0};
    return b->pitch >= 32;
}

/* A broadcast (a dim read again, source stride 0: TILE) is left to the
 * plain moves: it reads little, and at 16 MiB its output stays in L3 where
 * streaming sends it to memory (TILE 3d 4x100 by 3x3x3 u16: 0.29 -> 1.0 ms
 * streamed; 1.65x the time at 64 MiB too). */
static bool reads_each_once(const tmv_copy_shape *s)
{
    for (uint32_t d = 0; d < s->rank; d++)
        if (s->src_strides[d] == 0 && s->sizes[d] > 1)
            return false;
    return true;
}

bool tmv_copy_runs_blend_stream_avx2_accepts(const tmv_copy_shape *s)
{
    blend_dims b;
    return s->elem_bytes >= 32 && s->elem_bytes % 64 != 0 && tmv_shape_bytes(s) >= s->tuning->stream_threshold &&
           reads_each_once(s) && blend_dims_of(s, &b) && b.rows >= 3 &&
           b.rows * b.count * s->elem_bytes >= BLEND_CALL_MIN_BYTES;
}

void tmv_copy_runs_blend_stream_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    blend_dims b;
    blend_dims_of(s, &b);
    tmv_rows_blend_seq q = {.count = (unsigned)b.count, .width = b.count * s->elem_bytes};
    for (unsigned k = 0; k < q.count; k++) {
        q.pitch[k] = b.pitch;
        q.len[k] = s->elem_bytes;
    }
    tmv_walk walk;
    tmv_walk_init(&walk, s, b.inner);
    do {
        for (unsigned k = 0; k < q.count; k++)
            q.base[k] = src + walk.src + k * b.step;
        tmv_rows_blend_write(&q, dst + walk.dst, b.rows);
    } while (tmv_walk_next(&walk));
    _mm_sfence();
}
