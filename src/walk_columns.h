/* walk_columns.h - a strided copy as columns of runs: the inner dim's runs at every position of the others, moved by a kernel's column mover (static inline only). */
#ifndef TMV_WALK_COLUMNS_H
#define TMV_WALK_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk.h"

/* The longest run the wide-run kernels (copy_runs/<set>) take: two 64-byte
 * moves. Runs of 256 bytes (NHWC SPACE_TO_DEPTH B4 C64 u8) went 0.67 ->
 * 0.59-0.62 x best-copy at 64 MiB against a memcpy call each. */
#define TMV_COPY_RUNS_MAX 128

/* The wide-run kernels' shapes: runs of 17-128 bytes, none read twice along
 * the inner dim: a run repeated along a line is a fill, whose kernels keep
 * it in registers (TILE all/2x4x16 f32 in L1: 123 ns by fill_pow2/avx2 and
 * two copies, 167 ns by copy_runs/avx512, which the cost model priced
 * lower). */
static inline bool tmv_copy_runs_shape(const tmv_copy_shape *s)
{
    return s->elem_bytes > 16 && s->elem_bytes <= TMV_COPY_RUNS_MAX &&
           (s->rank == 0 || s->src_strides[s->rank - 1] != 0);
}

/* A column of fewer runs than this costs its mover's call more than its
 * moves (a function call, the width's branches, a loop that exits after a
 * few turns), and the dim outside it, if longer, takes the columns instead
 * (tmv_copy_columns_turn). */
#define TMV_COPY_COLUMN_TURN_RUNS 8
/* ... so long as that dim spans at most this on either side, so that the
 * inner dim's passes over it (one a column) find its lines in L1. */
#define TMV_COPY_COLUMN_TURN_SPAN 16384

/* Whether shape s's columns run along the dim outside the inner one: the
 * inner dim is shorter than TMV_COPY_COLUMN_TURN_RUNS and that dim longer,
 * within TMV_COPY_COLUMN_TURN_SPAN. NHWC SPACE_TO_DEPTH's inner dim is the
 * block row (B runs of B * C elements, one from each of B input rows), the
 * dim outside it the output row: the ResNet stem (B4 C3 f32, 48-byte runs)
 * by copy_runs/avx512 took 1185 ns at 56x56 by columns of 4 runs, 723 by
 * columns of 14, and 21.1 against 14.5 us at 224x224 (its model zoo size).
 * copy_long's runs of 256 bytes and more (B4 C64 u8) gained nothing: it
 * keeps its columns. The cost model still prices copy_runs by the columns
 * of the inner dim (cost.h's lines): priced by the turned columns with the
 * prices fitted before, SPACE_TO_DEPTH nhwc B2 DCR C3 f32 at 8 KiB was
 * rated 146 ns, ran 208, and took the plan from interleave_runs (185);
 * refitted, the prices per call and column doubled and moved 47 JOIN and
 * SPLIT steps between plans (tmv-plan-regret). */
static inline bool tmv_copy_columns_turn(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return false;
    const uint32_t mid = s->rank - 2;
    const uint64_t n = s->sizes[mid + 1], m = s->sizes[mid];
    return n < TMV_COPY_COLUMN_TURN_RUNS && m > n && m * s->src_strides[mid] <= TMV_COPY_COLUMN_TURN_SPAN &&
           m * s->dst_strides[mid] <= TMV_COPY_COLUMN_TURN_SPAN;
}

/* Moves n runs of w bytes, run i from s + i * sp to d + i * dp. */
typedef void tmv_copy_column_fn(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t n, size_t w);

/* Each column of shape s's inner dim (runs of elem_bytes) through `column`
 * (a constant at each call: always inlined, so it inlines too). The dim
 * outside the inner one is a plain loop and the odometer walks the rest:
 * stepping the odometer per run cost about 2 ns, most of a short run's
 * time (the portable copies do the same, portable_copy.c). With turn
 * (tmv_copy_columns_turn's), the columns run along the dim outside the
 * inner one, the inner dim is the plain loop. */
__attribute__((always_inline)) static inline void tmv_copy_by_columns(const tmv_copy_shape *s, const uint8_t *src,
                                                                      uint8_t *dst, tmv_copy_column_fn *column,
                                                                      bool turn)
{
    const size_t w = (size_t)s->elem_bytes;
    if (s->rank == 0) {
        column(dst, 0, src, 0, 1, w);
        return;
    }
    const uint32_t inner = s->rank - 1;
    const uint64_t n = s->sizes[inner], src_stride = s->src_strides[inner], dst_stride = s->dst_strides[inner];
    if (inner == 0) {
        column(dst, dst_stride, src, src_stride, n, w);
        return;
    }
    const uint32_t mid = inner - 1;
    const uint64_t mids = s->sizes[mid], mid_src = s->src_strides[mid], mid_dst = s->dst_strides[mid];
    tmv_walk walk;
    tmv_walk_init(&walk, s, mid);
    do {
        const uint8_t *from = src + walk.src;
        uint8_t *to = dst + walk.dst;
        if (turn)
            for (uint64_t i = 0; i < n; i++, from += src_stride, to += dst_stride)
                column(to, mid_dst, from, mid_src, mids, w);
        else
            for (uint64_t m = 0; m < mids; m++, from += mid_src, to += mid_dst)
                column(to, dst_stride, from, src_stride, n, w);
    } while (tmv_walk_next(&walk));
}

#endif
