/* transpose_avx2.c - AVX2 kernel for the 2-D transpose block of strided copies (transpose_x86.h). */
#define TMV_VEC_AVX2
#include "transpose_x86.h"

TMV_TRANSPOSE_KERNELS(avx2, 0x116u)
