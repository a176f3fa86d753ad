/* rows_join_avx2.c - row-wise JOIN on AVX2: the unpack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register, and of 3, 5, 6 or 7 bytes padded to slots of 4 or 8, of 9 to 31 bytes by moves that overlap, pieces of 32 bytes and more past the stream threshold by streamed blends, a byte shuffle per piece for other packed pieces in joined rows of up to 16 bytes, and column moves of pieces up to 256 bytes (the kernels: rows_x86.h). */
#define TMV_VEC_AVX2
#include "rows_x86.h"
#include "rows_zip_avx2.h"
#include "rows_zip_padded_avx2.h"
#include "rows_overlap_x86.h"
#include "rows_shuffle_avx2.h"
#include "rows_blend_avx2.h"
#include "rows_wide_columns_x86.h"

TMV_JOIN_ROWS_KERNEL(zip_avx2, tmv_rows_zip_avx2_shape, tmv_rows_zip_lanes, stateless)
TMV_JOIN_ROWS_KERNEL(padded_avx2, tmv_rows_zip_padded_avx2_shape, tmv_rows_zip_padded, prepared)
TMV_JOIN_ROWS_KERNEL(overlap_avx2, tmv_rows_overlap_shape, tmv_rows_overlap, stateless)
TMV_JOIN_ROWS_KERNEL(shuffle_avx2, tmv_rows_shuffle_shape, tmv_rows_shuffle, prepared)
TMV_JOIN_ROWS_KERNEL(blend_stream_avx2, tmv_rows_blend_shape, tmv_rows_blend, stateless)
TMV_JOIN_ROWS_KERNEL(columns_avx2, tmv_rows_wide_columns_avx2_shape, tmv_rows_wide_columns, stateless)
TMV_JOIN_ROWS_STREAMS(columns_avx2, tmv_rows_columns_streams)
