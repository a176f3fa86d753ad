/* rows_split_avx2.c - row-wise SPLIT on AVX2: the unpack/pack network for 2, 4 or 8 equal packed pieces of 1..16 bytes, two 16-byte blocks per register (the kernel: rows_x86.h). */
#define TMV_VEC_AVX2
#include "rows_x86.h"
#include "rows_zip_avx2.h"

TMV_SPLIT_ROWS_KERNEL(zip_avx2, tmv_rows_zip_avx2_split_shape, tmv_rows_zip_lanes, stateless)
