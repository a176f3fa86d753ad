/* transpose_avx512.c - AVX-512 kernel for the 2-D transpose block of strided copies (transpose_x86.h).
 * Bytes and 16-bit elements only: with four 128-bit lanes of lane-sized
 * stores per tile, 4- and 8-byte elements run no faster than AVX2's. */
#define TMV_TRANSPOSE_AVX512
#include "kernels_x86.h"
#include "transpose_x86.h"

TMV_TRANSPOSE_KERNELS(avx512, 0x6u)
