/* transpose_sse2.c - SSE2 kernel for the 2-D transpose block of strided copies (transpose_x86.h). */
#define TMV_VEC_SSE2
#include "transpose_x86.h"

TMV_TRANSPOSE_KERNELS(sse2, 0x116u)
