/* copy_runs_avx2.c - strided copies of runs (elements) of 33 to 64 bytes by two overlapping 32-byte moves: copy_runs/avx512 for the sets without AVX-512.
 *
 * The runs of NHWC SPACE_TO_DEPTH / DEPTH_TO_SPACE (B * C elements: the
 * ResNet stem's 48 bytes) and of TILE's rows of channels otherwise go to a
 * memcpy call each above TMV_MOVE_RUN_MAX (32 bytes); up to it the portable
 * copy_runs moves them by the same 16-byte halves this kernel would, and
 * ran EfficientDet's stem (24-byte runs, 24 MiB) at 0.25 x best-copy
 * against 0.19 here (TENSORMOVE_ISA=avx2 tmv-bench --tmv_zoo). Nor runs
 * over 64 bytes: the U-Net fp16 skip JOIN's 128-byte runs took four 32-byte
 * moves each and ran 0.82-0.84 x best-copy, against 1.01-1.07 by a memcpy
 * call each, whose loop on this AVX-512 machine moves 64 bytes at a time.
 * No streaming stores: the runs are not whole lines. */
#define TMV_VEC_AVX2
#include "../kernels.h"
#include "../move_run.h"
#include "../walk_columns.h"
#include "rows_wide_columns_x86.h"

/* The longest run taken: two 32-byte moves (the columns kernel's moves,
 * rows_wide_columns_x86.h). */
#define COPY_RUNS_AVX2_MAX 64

bool tmv_copy_runs_avx2_accepts(const tmv_copy_shape *s)
{
    return tmv_copy_runs_shape(s) && s->elem_bytes > TMV_MOVE_RUN_MAX && s->elem_bytes <= COPY_RUNS_AVX2_MAX;
}

/* The runs of the innermost dim at every position of the others, a column
 * of them at a time (walk_columns.h). */
void tmv_copy_runs_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    tmv_copy_by_columns(s, src, dst, tmv_rows_column_wide, tmv_copy_columns_turn(s));
}
