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

/* Moves n runs of w bytes, run i from s + i * sp to d + i * dp. */
typedef void tmv_copy_column_fn(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t n, size_t w);

/* Each column of shape s's inner dim (runs of elem_bytes) through `column`
 * (a constant at each call: always inlined, so it inlines too). The dim
 * outside the inner one is a plain loop and the odometer walks the rest:
 * stepping the odometer per run cost about 2 ns, most of a short run's
 * time (the portable copies do the same, portable_copy.c). */
__attribute__((always_inline)) static inline void tmv_copy_by_columns(const tmv_copy_shape *s, const uint8_t *src,
                                                                      uint8_t *dst, tmv_copy_column_fn *column)
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
        for (uint64_t m = 0; m < mids; m++, from += mid_src, to += mid_dst)
            column(to, dst_stride, from, src_stride, n, w);
    } while (tmv_walk_next(&walk));
}

#endif
