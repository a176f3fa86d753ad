/* rows_x86.h - everything the x86 row-wise JOIN/SPLIT kernels use: column moves, zip networks, lane permutes. */
#ifndef TMV_ROWS_X86_H
#define TMV_ROWS_X86_H

#include "rows_columns_x86.h"
#include "rows_zip_x86.h"
#include "rows_zip_avx2.h"
#include "rows_permute_avx512.h"
#include "rows_zip_avx512.h"

#endif
