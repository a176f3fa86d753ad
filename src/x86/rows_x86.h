/* rows_x86.h - what the x86 row-wise JOIN/SPLIT kernels use: column moves, the zip networks' plan, AVX-512's zip network and lane permutes (SSE2's and AVX2's networks, on vec_x86.h: rows_zip_sse2.h, rows_zip_avx2.h), and the macros that stamp out a set's kernels. */
#ifndef TMV_ROWS_X86_H
#define TMV_ROWS_X86_H

#include "rows_columns_x86.h"
#include "rows_zip_x86.h"
#include "rows_permute_avx512.h"
#include "rows_zip_avx512.h"

/* ------------------------------------------------------ the kernels
 * A row kernel is written once for both directions, in its family's
 * header, as functions of `join`:
 *   <kernel>_prepare(s, state, join)       (prepared kernels only)
 *   <kernel>_run(s, pieces, joined, join)
 * pieces being the pieces' buffers (JOIN's srcs, only read; SPLIT's dsts)
 * and joined the joined rows (JOIN's dst; SPLIT's src, only read). The
 * families: tmv_rows_zip_lanes (SSE2, AVX2: rows_zip_lanes_x86.h),
 * tmv_rows_zip (AVX-512, VBMI: rows_zip_avx512.h), tmv_rows_perm
 * (rows_permute_avx512.h), tmv_rows_narrow_columns and tmv_rows_stream
 * (rows_columns_x86.h), tmv_rows_wide_columns (rows_wide_columns_x86.h),
 * tmv_rows_lines (rows_lines_avx512.h), tmv_rows_blend (rows_blend_avx2.h,
 * JOIN only).
 * What differs between the sets that share a family is chosen by the
 * TMV_VEC_<SET> the kernel file defines; what a kernel accepts is a
 * predicate of the shape next to its family, with the measurements behind
 * it. The runs are always inlined, so each exported kernel compiles as its
 * own written-out body did. A set's rows_join_<set>.c and rows_split_<set>.c
 * stamp out its JOIN and its SPLIT kernels, a line each (name, accepts,
 * family, and stateless or prepared as in registry.inc), and the column
 * moves' streams tests (registry.inc's `streams_if`). The two
 * directions stay in two files: built as one, gcc inlined and cloned the
 * shared helpers differently. */

/* tmv_join_rows_<name> and its accepts (and, if prepared, its prepare). */
#define TMV_JOIN_ROWS_KERNEL(name, accepts, kernel, kind)                                        \
    TMV_ROWS_ACCEPTS(tmv_join_rows_##name, accepts)                                              \
    TMV_ROWS_PREPARE_##kind(tmv_join_rows_##name, kernel, true)                                  \
    void tmv_join_rows_##name(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst)    \
    {                                                                                            \
        kernel##_run(s, (void *const *)(uintptr_t)srcs, dst, true); /* srcs only read */         \
    }

/* tmv_split_rows_<name> and its accepts (and, if prepared, its prepare). */
#define TMV_SPLIT_ROWS_KERNEL(name, accepts, kernel, kind)                                       \
    TMV_ROWS_ACCEPTS(tmv_split_rows_##name, accepts)                                             \
    TMV_ROWS_PREPARE_##kind(tmv_split_rows_##name, kernel, false)                                \
    void tmv_split_rows_##name(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts)   \
    {                                                                                            \
        kernel##_run(s, dsts, (uint8_t *)(uintptr_t)src, false); /* src only read */             \
    }

/* tmv_<join|split>_rows_<name>_streams, for a row registered `streams_if`:
 * test(s, join). */
#define TMV_JOIN_ROWS_STREAMS(name, test)                                                        \
    bool tmv_join_rows_##name##_streams(const tmv_rows_shape *s)                                 \
    {                                                                                            \
        return test(s, true);                                                                    \
    }
#define TMV_SPLIT_ROWS_STREAMS(name, test)                                                       \
    bool tmv_split_rows_##name##_streams(const tmv_rows_shape *s)                                \
    {                                                                                            \
        return test(s, false);                                                                   \
    }

#define TMV_ROWS_ACCEPTS(fn, accepts)                                                            \
    bool fn##_accepts(const tmv_rows_shape *s)                                                   \
    {                                                                                            \
        return accepts(s);                                                                       \
    }

#define TMV_ROWS_PREPARE_stateless(fn, kernel, join)
#define TMV_ROWS_PREPARE_prepared(fn, kernel, join)                                              \
    void fn##_prepare(const tmv_rows_shape *s, void *state)                                      \
    {                                                                                            \
        kernel##_prepare(s, state, join);                                                        \
    }

#endif
