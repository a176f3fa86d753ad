/* rows_x86.h - what the x86 row-wise JOIN/SPLIT kernels use: column moves, the zip networks' plan, AVX-512's zip network and lane permutes (SSE2's and AVX2's networks, on vec_x86.h: rows_zip_sse2.h, rows_zip_avx2.h). */
#ifndef TMV_ROWS_X86_H
#define TMV_ROWS_X86_H

#include "rows_columns_x86.h"
#include "rows_zip_x86.h"
#include "rows_permute_avx512.h"
#include "rows_zip_avx512.h"

#endif
