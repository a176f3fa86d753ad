/* rows_long_avx512.c - row-wise JOIN / SPLIT of long pieces by AVX512's vector loop (the kernel: rows_long_x86.h). */
#define TMV_VEC_AVX512
#include "rows_long_x86.h"

TMV_JOIN_ROWS_KERNEL(long_avx512, tmv_rows_all_long, tmv_rows_long, stateless)
TMV_SPLIT_ROWS_KERNEL(long_avx512, tmv_rows_all_long, tmv_rows_long, stateless)
