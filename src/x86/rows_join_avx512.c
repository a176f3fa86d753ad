/* rows_join_avx512.c - row-wise JOIN: a zip network of equal packed pieces (2, 4, 8 or 16 pieces of 2 to 16 bytes), masked lane permutes (other counts up to 16, pieces of 2 or 4 bytes), whole-line writes gathered by masked loads (pieces that are not whole lines, past L1), and column moves of pieces up to 256 bytes (the kernels: rows_x86.h). */
#define TMV_VEC_AVX512
#include "rows_lines_avx512.h"
#include "rows_wide_columns_x86.h"
#include "rows_x86.h"

TMV_JOIN_ROWS_KERNEL(zip_avx512, tmv_rows_zip_avx512_join_shape, tmv_rows_zip, prepared)
TMV_JOIN_ROWS_KERNEL(interleave_avx512, tmv_rows_perm_avx512_shape, tmv_rows_perm, prepared)
TMV_JOIN_ROWS_KERNEL(lines_avx512, tmv_rows_lines_join_shape, tmv_rows_lines, prepared)
TMV_JOIN_ROWS_KERNEL(columns_avx512, tmv_rows_all_wide_columns, tmv_rows_wide_columns, stateless)
TMV_JOIN_ROWS_STREAMS(columns_avx512, tmv_rows_columns_streams)
