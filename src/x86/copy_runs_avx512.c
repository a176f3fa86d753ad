/* copy_runs_avx512.c - strided copies of runs (elements) of 17 to 128 bytes by 32- and 64-byte moves, the last one of a run overlapping the one before.
 *
 * NHWC SPACE_TO_DEPTH / DEPTH_TO_SPACE move runs of B * C elements (the
 * ResNet stem, B4 C3 f32: 48 bytes; EfficientDet's, B2 C3 f32: 24), TILE
 * moves rows of channels, and no vector kernel takes such widths. Below
 * TMV_MOVE_RUN_MAX the portable copy_runs moves them by SSE2 halves (four
 * 16-byte loads and stores for 48 bytes), above it by a memcpy call per run
 * (the ResNet stem: 0.31 x memcpy); here a run of 33-64 bytes is two 32-byte
 * moves and one of 65-128 two 64-byte moves (four 32-byte ones past L1),
 * the same column moves as AVX-512's JOIN / SPLIT columns kernel
 * (rows_wide_columns_x86.h). No streaming stores: the runs are not whole
 * lines. */
#define TMV_VEC_AVX512
#include "../walk_columns.h"
#include "rows_wide_columns_x86.h"

bool tmv_copy_runs_avx512_accepts(const tmv_copy_shape *s) { return tmv_copy_runs_shape(s); }

/* The runs of the innermost dim at every position of the others, a column
 * of them at a time (walk_columns.h). */
void tmv_copy_runs_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const bool turn = tmv_copy_columns_turn(s);
    if (tmv_rows_columns_past_l1(2 * tmv_shape_bytes(s), s->tuning->cache_bytes[0]))
        tmv_copy_by_columns(s, src, dst, tmv_rows_column_wide_past_l1, turn);
    else
        tmv_copy_by_columns(s, src, dst, tmv_rows_column_wide, turn);
}
