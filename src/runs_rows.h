/* runs_rows.h - a copy that interleaves or de-interleaves B streams of runs, run as one row-wise JOIN or SPLIT per position of its outer dims: what the copy kernels that hand such copies to a set's row kernels share (static inline only).
 *
 * SPACE_TO_DEPTH / DEPTH_TO_SPACE of NHWC tensors in DCR order move runs of
 * B * C elements (YOLOv5's u8 stem: 6-byte runs), which no (de)interleave
 * kernel takes (they want elements of 1, 2, 4 or 8 bytes), so copy_runs
 * moved each run on its own. At each position of the dims outside the two
 * inner ones, the B streams are the pieces of x joined rows of B runs: a
 * JOIN (interleave) or a SPLIT (de-interleave) of B pieces of w bytes,
 * which the row kernels' networks move several rows at a time. */
#ifndef TMV_RUNS_ROWS_H
#define TMV_RUNS_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "walk.h"

/* The most streams: the row kernels' most pieces. */
#define TMV_RUNS_MAX_STREAMS 16

/* B, the streams of a B-way interleave of runs (`inter`: inner dim B
 * streams, any source stride, destination stride w; dim rank-2 x runs,
 * source stride w, destination stride B * w) or de-interleave (inner dim x
 * runs, source stride B * w, destination stride w; dim rank-2 B streams,
 * source stride w, any destination stride), w the shape's element bytes;
 * 0 if s is neither or B is over TMV_RUNS_MAX_STREAMS. */
static inline unsigned tmv_runs_streams(const tmv_copy_shape *s, bool inter)
{
    if (s->rank < 2)
        return 0;
    const uint32_t in = s->rank - 1, out = s->rank - 2;
    const uint64_t w = s->elem_bytes, b = s->sizes[inter ? in : out];
    const bool geometry = inter ? s->dst_strides[in] == w && s->src_strides[out] == w && s->dst_strides[out] == b * w
                                : s->src_strides[in] == b * w && s->dst_strides[in] == w && s->src_strides[out] == w;
    return geometry && b >= 2 && b <= TMV_RUNS_MAX_STREAMS ? (unsigned)b : 0;
}

/* The row-wise JOIN / SPLIT of one position of a runs copy: its pieces,
 * and the tuning record its row kernel reads. */
typedef struct tmv_runs_rows {
    tmv_rows_piece pieces[TMV_RUNS_MAX_STREAMS];
    tmv_rows_shape rows;
    tmv_tuning     tuning;
    uint32_t       streams_dim, runs_dim;
    bool           inter;
} tmv_runs_rows;

/* r->rows for copy s (tmv_runs_streams(s, inter) != 0): B pieces of w bytes
 * packed in joined rows of B * w, x rows, the row kernel's state `state`.
 * Whether the row kernels stream is decided by the whole copy's output
 * against the stream threshold, not by one position's rows. r must not be
 * moved while r->rows is in use (it points into r). */
static inline void tmv_runs_rows_init(tmv_runs_rows *r, const tmv_copy_shape *s, bool inter, const void *state)
{
    r->inter = inter;
    r->streams_dim = inter ? s->rank - 1 : s->rank - 2;
    r->runs_dim = inter ? s->rank - 2 : s->rank - 1;
    const uint32_t b = (uint32_t)s->sizes[r->streams_dim];
    const uint64_t w = s->elem_bytes;
    for (uint32_t p = 0; p < b; p++)
        r->pieces[p] = (tmv_rows_piece){.buffer = p, .bytes = w, .offset = p * w, .pitch = w};
    r->tuning = *s->tuning;
    r->tuning.stream_threshold = tmv_shape_bytes(s) >= s->tuning->stream_threshold ? 0 : UINT64_MAX;
    r->rows = (tmv_rows_shape){.rows = s->sizes[r->runs_dim],
                               .joined_pitch = b * w,
                               .joined_bytes = b * w,
                               .piece_count = b,
                               .pieces = r->pieces,
                               .tuning = &r->tuning,
                               .state = state};
}

/* Runs the copy: at every position of its outer dims, join (interleave)
 * or split (de-interleave) of its B streams, each stream's rows `stride`
 * bytes apart on the streams' side. */
static inline void tmv_runs_as_rows(const tmv_runs_rows *r, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                    tmv_join_rows_run *join, tmv_split_rows_run *split)
{
    const uint32_t b = r->rows.piece_count;
    const uint64_t stride = r->inter ? s->src_strides[r->streams_dim] : s->dst_strides[r->streams_dim];
    tmv_walk walk;
    tmv_walk_init(&walk, s, s->rank - 2);
    do {
        void *at[TMV_RUNS_MAX_STREAMS];
        const uint8_t *from = src + walk.src;
        uint8_t *to = dst + walk.dst;
        for (uint32_t p = 0; p < b; p++)
            at[p] = r->inter ? (void *)(uintptr_t)(from + p * stride) : to + p * stride; /* JOIN's streams only read */
        if (r->inter)
            join(&r->rows, (const void *const *)at, to);
        else
            split(&r->rows, from, at);
    } while (tmv_walk_next(&walk));
}

#endif
