/* rows_split_avx512vbmi.c - row-wise SPLIT into 2..16 packed one-byte pieces: a byte unzip network (2, 4, 8, 16 pieces) or masked vpermb (other counts) (the kernels: rows_x86.h). */
#define TMV_VEC_AVX512VBMI
#include "rows_x86.h"

TMV_SPLIT_ROWS_KERNEL(zip_avx512vbmi, tmv_rows_zip_vbmi_shape, tmv_rows_zip, prepared)
TMV_SPLIT_ROWS_KERNEL(interleave_avx512vbmi, tmv_rows_perm_vbmi_shape, tmv_rows_perm, prepared)
