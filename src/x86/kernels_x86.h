/* kernels_x86.h - declarations of the x86 kernels (SSE2, AVX2, AVX-512), one block per source file. */
#ifndef TMV_KERNELS_X86_H
#define TMV_KERNELS_X86_H

#include "../kernels.h"

/* rows_{join,split}_{sse2,avx2,avx512,avx512vbmi}.c: row-wise JOIN / SPLIT */
bool tmv_join_rows_zip_accepts_sse2(const tmv_rows_shape *s);
void tmv_join_rows_zip_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_join_rows_stream_accepts_sse2(const tmv_rows_shape *s);
void tmv_join_rows_stream_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_join_rows_columns_accepts_sse2(const tmv_rows_shape *s);
void tmv_join_rows_columns_sse2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_split_rows_zip_accepts_sse2(const tmv_rows_shape *s);
void tmv_split_rows_zip_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
bool tmv_split_rows_stream_accepts_sse2(const tmv_rows_shape *s);
void tmv_split_rows_stream_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
bool tmv_split_rows_columns_accepts_sse2(const tmv_rows_shape *s);
void tmv_split_rows_columns_sse2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
bool tmv_join_rows_zip_accepts_avx2(const tmv_rows_shape *s);
void tmv_join_rows_zip_avx2(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
bool tmv_split_rows_zip_accepts_avx2(const tmv_rows_shape *s);
void tmv_split_rows_zip_avx2(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
bool tmv_join_rows_zip_accepts_avx512(const tmv_rows_shape *s);
void tmv_join_rows_zip_avx512(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
void tmv_join_rows_zip_prepare_avx512(const tmv_rows_shape *s, void *state);
bool tmv_join_rows_interleave_accepts_avx512(const tmv_rows_shape *s);
void tmv_join_rows_interleave_avx512(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
void tmv_join_rows_interleave_prepare_avx512(const tmv_rows_shape *s, void *state);
bool tmv_split_rows_zip_accepts_avx512(const tmv_rows_shape *s);
void tmv_split_rows_zip_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
void tmv_split_rows_zip_prepare_avx512(const tmv_rows_shape *s, void *state);
bool tmv_split_rows_interleave_accepts_avx512(const tmv_rows_shape *s);
void tmv_split_rows_interleave_avx512(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
void tmv_split_rows_interleave_prepare_avx512(const tmv_rows_shape *s, void *state);
bool tmv_join_rows_zip_accepts_avx512vbmi(const tmv_rows_shape *s);
void tmv_join_rows_zip_avx512vbmi(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
void tmv_join_rows_zip_prepare_avx512vbmi(const tmv_rows_shape *s, void *state);
bool tmv_join_rows_interleave_accepts_avx512vbmi(const tmv_rows_shape *s);
void tmv_join_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const void *const *srcs, uint8_t *dst);
void tmv_join_rows_interleave_prepare_avx512vbmi(const tmv_rows_shape *s, void *state);
bool tmv_split_rows_zip_accepts_avx512vbmi(const tmv_rows_shape *s);
void tmv_split_rows_zip_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
void tmv_split_rows_zip_prepare_avx512vbmi(const tmv_rows_shape *s, void *state);
bool tmv_split_rows_interleave_accepts_avx512vbmi(const tmv_rows_shape *s);
void tmv_split_rows_interleave_avx512vbmi(const tmv_rows_shape *s, const uint8_t *src, void *const *dsts);
void tmv_split_rows_interleave_prepare_avx512vbmi(const tmv_rows_shape *s, void *state);

/* copy_{sse2,avx2,avx512,avx512vbmi}.c: strided N-D copy - SPACE_TO_DEPTH's row
 * de-interleave and DEPTH_TO_SPACE's interleave (see copy_x86.h) */
bool tmv_copy_accepts_deinterleave_sse2(const tmv_copy_shape *s);
void tmv_copy_deinterleave_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_interleave_sse2(const tmv_copy_shape *s);
void tmv_copy_interleave_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_deinterleave_avx2(const tmv_copy_shape *s);
void tmv_copy_deinterleave_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_interleave_avx2(const tmv_copy_shape *s);
void tmv_copy_interleave_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_deinterleave_avx512(const tmv_copy_shape *s);
void tmv_copy_deinterleave_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_interleave_avx512(const tmv_copy_shape *s);
void tmv_copy_interleave_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_deinterleave_avx512vbmi(const tmv_copy_shape *s);
void tmv_copy_deinterleave_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_interleave_avx512vbmi(const tmv_copy_shape *s);
void tmv_copy_interleave_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

/* fill_{sse2,avx2,avx512}.c, fill_pattern_avx512vbmi.c: broadcast copies (inner
 * dim with source stride 0: TILE, broadcast inputs; see fill_x86.h) */
bool tmv_fill_accepts_pow2(const tmv_copy_shape *s);
bool tmv_fill_accepts_pow2_sse2(const tmv_copy_shape *s);
bool tmv_fill_accepts_block_stream(const tmv_copy_shape *s);
void tmv_fill_pow2_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_fill_block_stream_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_fill_pow2_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
void tmv_fill_period_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_fill_accepts_period_avx2(const tmv_copy_shape *s);
bool tmv_fill_accepts_pattern_vbmi(const tmv_copy_shape *s);
void tmv_fill_pattern_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

/* gather_{sse2,avx2,avx512}.c: GATHER_ND (see gather_x86.h): rows = slices of
 * one contiguous run of at least a vector; elements = one 1/2/4/8-byte element */
void tmv_gather_prepare_sse2(const tmv_gather_shape *s, void *state);
void tmv_gather_prepare_avx2(const tmv_gather_shape *s, void *state);
void tmv_gather_prepare_avx512(const tmv_gather_shape *s, void *state);
bool tmv_gather_rows_accepts_sse2(const tmv_gather_shape *s);
tmv_status tmv_gather_rows_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output);
bool tmv_gather_elements_accepts_sse2(const tmv_gather_shape *s);
tmv_status tmv_gather_elements_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output);
bool tmv_gather_rows_accepts_avx2(const tmv_gather_shape *s);
tmv_status tmv_gather_rows_avx2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output);
bool tmv_gather_rows_accepts_avx512(const tmv_gather_shape *s);
tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output);
bool tmv_gather_elements_accepts_avx512(const tmv_gather_shape *s);
tmv_status tmv_gather_elements_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                      const uint8_t *indices, uint8_t *output);

/* transpose_{sse2,avx2,avx512}.c: strided N-D copy - the 2-D transpose block
 * (permuted / column-major inputs; see transpose_x86.h) */
bool tmv_copy_accepts_transpose_sse2(const tmv_copy_shape *s);
void tmv_copy_transpose_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_transpose_avx2(const tmv_copy_shape *s);
void tmv_copy_transpose_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);
bool tmv_copy_accepts_transpose_avx512(const tmv_copy_shape *s);
void tmv_copy_transpose_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst);

#endif
