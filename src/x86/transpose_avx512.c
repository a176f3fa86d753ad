/* transpose_avx512.c - AVX-512 kernel for the 2-D transpose block of strided copies (transpose_x86.h).
 * Every width: lane tiles for bytes and 16-bit elements, square whole-vector
 * tiles for 4- and 8-byte ones. */
#define TMV_VEC_AVX512
#include "transpose_x86.h"

TMV_TRANSPOSE_KERNELS(avx512, 0x116u)
