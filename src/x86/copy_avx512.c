/* copy_avx512.c - AVX-512 (F, BW, DQ, VL) copy kernels: SPACE_TO_DEPTH's row de-interleave and DEPTH_TO_SPACE's interleave. */
#define TMV_VEC_AVX512
#include "copy_x86.h"

TMV_COPY_INTERLEAVE_KERNELS(avx512, 0x116u)
