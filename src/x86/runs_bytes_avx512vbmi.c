/* runs_bytes_avx512vbmi.c - copies that interleave or de-interleave B streams of runs (NHWC SPACE_TO_DEPTH / DEPTH_TO_SPACE in DCR order) run by the byte-permute rows engine (rows_bytes_avx512vbmi.h), a JOIN or SPLIT per position of the outer dims. */
#define TMV_VEC_AVX512VBMI
#include "../runs_rows.h"
#include "rows_bytes_avx512vbmi.h"

/* Each direction's instances, out of line (the row kernels' own, one
 * position a call, are rows_bytes_avx512vbmi.c's). */
__attribute__((noinline)) static void rows_bytes_join(const rows_bytes_plan *pl, uint64_t rows,
                                                      uint8_t *const *streams, uint8_t *joined, uint64_t positions,
                                                      uint64_t joined_step, uint64_t stream_step, bool packed)
{
    rows_bytes_any(pl, rows, streams, joined, true, positions, joined_step, stream_step, packed);
}

__attribute__((noinline)) static void rows_bytes_split(const rows_bytes_plan *pl, uint64_t rows,
                                                       uint8_t *const *streams, uint8_t *joined, uint64_t positions,
                                                       uint64_t joined_step, uint64_t stream_step, bool packed)
{
    rows_bytes_any(pl, rows, streams, joined, false, positions, joined_step, stream_step, packed);
}

/* ---- the same interleave as a copy: B-way (de)interleaves of runs ----
 * (runs_rows.h), run by the rows engine with its tables made at
 * create: made per call, they cost more than the copy of a small tensor
 * (DEPTH_TO_SPACE NHWC B3 C3 u8 at 8 KiB: 540 ns, 930 with the wide
 * blocks' tables). */

/* B, or 0 if the shape is no B-way (de)interleave of runs or its joined
 * rows of B * w bytes are not the rows engine's: those its blocks of one
 * vector take, or for up to WIDE_PIECES streams those its wide blocks take
 * (of at least three rows) where a position holds two wide blocks
 * (runs_wide). Four until the positions' tails went inline; with two,
 * three 8 KiB plans changed (tmv-plan-regret): DEPTH_TO_SPACE NHWC DCR B3
 * C1 f32 315 -> 248 ns and B4 C3 u8 308 -> 256 from copy_runs/scalar,
 * SPACE_TO_DEPTH B4 C3 u8 221 -> 241 from copy_permute. */
static unsigned runs_streams(const tmv_copy_shape *s, bool inter)
{
    const unsigned b = tmv_runs_streams(s, inter);
    const uint64_t w = s->elem_bytes, R = b * w;
    if (b == 0 || rows_bytes_fit(b, R))
        return b;
    uint64_t bytes[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < b; p++)
        bytes[p] = w;
    const uint64_t W = wide_block_rows(b, bytes, R), rows = s->sizes[inter ? s->rank - 2 : s->rank - 1];
    return W >= 3 && rows >= 2 * W ? b : 0;
}

bool tmv_interleave_runs_avx512vbmi_accepts(const tmv_copy_shape *s) { return runs_streams(s, true) != 0; }
bool tmv_deinterleave_runs_avx512vbmi_accepts(const tmv_copy_shape *s) { return runs_streams(s, false) != 0; }

/* The kernel state: the rows engine's plan for the prepared shape's
 * streams and runs. */
typedef struct runs_bytes_state {
    rows_bytes_plan plan;
    uint64_t        streams, run_bytes;
} runs_bytes_state;
_Static_assert(sizeof(runs_bytes_state) <= TMV_KERNEL_STATE_BYTES, "runs plan exceeds the kernel state");

/* Whether a runs copy moves its rows (`rows` a position) in the wide
 * blocks: where a position has the rows one of them needs to move whole
 * vectors (wide_fast_rows). Where four were asked for, and three streams
 * or more, the wide blocks took 0.80-0.88x the time of the blocks of one
 * vector at 1 MiB for B = 3 (NHWC DCR u8, C = 1 and 3, both directions)
 * and 1.11x on SPACE_TO_DEPTH B = 2 C = 3. Since a position's last rows
 * cost no call (rows_bytes_inner_tail), two streams and one block are
 * enough (tmv-plan-regret, geometric means of the kernel's steps; two
 * blocks, two streams: TILE inner 0.77x at 8 KiB and 0.88x at 1 MiB, TILE
 * 3d 0.80 and 0.92, DEPTH_TO_SPACE NHWC DCR B3 C3 u8 at 8 KiB, positions
 * of 17 rows and blocks of 7, 334 -> 245 ns; one block: the kernels' steps
 * 0.96x and 0.99x, the nchw steps of 1 MiB with long rows 0.36-0.78x).
 * Joined rows past 64 bytes move in wide blocks only (block_rows 0). */
static bool runs_wide(const rows_bytes_plan *pl, uint64_t rows)
{
    return pl->wide_rows != 0 &&
           (pl->block_rows == 0 || rows >= pl->wide_fast_rows);   /* 0: wide only */
}

static void runs_prepare(const tmv_copy_shape *s, void *state, bool inter)
{
    runs_bytes_state *st = state;
    tmv_runs_rows r;
    tmv_runs_rows_init(&r, s, inter, NULL);
    uint64_t bytes[TMV_ROWS_MAX_STREAMS], offsets[TMV_ROWS_MAX_STREAMS];
    for (unsigned p = 0; p < r.rows.piece_count; p++) {
        bytes[p] = r.pieces[p].bytes;
        offsets[p] = r.pieces[p].offset;
    }
    rows_bytes_plan_make(&st->plan, r.rows.piece_count, bytes, offsets, r.rows.joined_bytes, inter);
    rows_bytes_wide_make(&st->plan, offsets, inter);
    if (!runs_wide(&st->plan, r.rows.rows))
        st->plan.wide_rows = 0;
    st->streams = r.rows.piece_count;
    st->run_bytes = s->elem_bytes;
}

void tmv_interleave_runs_avx512vbmi_prepare(const tmv_copy_shape *s, void *state) { runs_prepare(s, state, true); }
void tmv_deinterleave_runs_avx512vbmi_prepare(const tmv_copy_shape *s, void *state) { runs_prepare(s, state, false); }

/* A JOIN (`inter`) or SPLIT per position of the shape's outer dims, the
 * innermost of them in one call of the rows engine. A shape other than the
 * prepared one's streams and runs (a part a parallel execute cut across
 * them), or one with no state, goes to the portable copy. */
static void runs_run(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter)
{
    const runs_bytes_state *st = s->state;
    if (st == NULL || runs_streams(s, inter) != st->streams || s->elem_bytes != st->run_bytes) {
        tmv_copy_memcpy_scalar(s, src, dst);
        return;
    }
    tmv_runs_rows r;
    tmv_runs_rows_init(&r, s, inter, &st->plan);
    const uint64_t stride = inter ? s->src_strides[r.streams_dim] : s->dst_strides[r.streams_dim];
    const uint32_t outer = s->rank - 2, d = outer > 0 ? outer - 1 : 0;   /* d: the positions' dim */
    const uint64_t positions = outer > 0 ? s->sizes[d] : 1;
    const uint64_t src_step = outer > 0 ? s->src_strides[d] : 0, dst_step = outer > 0 ? s->dst_strides[d] : 0;
    const uint64_t n = r.rows.piece_count, stream_bytes = r.rows.rows * s->elem_bytes;   /* a stream's row */
    const bool packed = stride == stream_bytes && (inter ? src_step : dst_step) == n * stream_bytes &&
                        (inter ? dst_step : src_step) == n * stream_bytes;   /* rows_bytes_count */
    tmv_walk walk;
    tmv_walk_init(&walk, s, d);
    do {
        uint8_t *at[TMV_RUNS_MAX_STREAMS];
        const uint8_t *from = src + walk.src;
        uint8_t *to = dst + walk.dst;
        for (uint32_t p = 0; p < r.rows.piece_count; p++)
            at[p] = inter ? (uint8_t *)(uintptr_t)(from + p * stride) : to + p * stride;   /* JOIN's only read */
        if (inter)
            rows_bytes_join(&st->plan, r.rows.rows, at, to, positions, dst_step, src_step, packed);
        else
            rows_bytes_split(&st->plan, r.rows.rows, at, (uint8_t *)(uintptr_t)from, positions, src_step, dst_step,
                             packed);
    } while (tmv_walk_next(&walk));
}

void tmv_interleave_runs_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    runs_run(s, src, dst, true);
}

void tmv_deinterleave_runs_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    runs_run(s, src, dst, false);
}
