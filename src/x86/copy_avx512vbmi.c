/* copy_avx512vbmi.c - AVX-512 VBMI (byte elements only: vpermt2b) copy kernels: SPACE_TO_DEPTH's row de-interleave and DEPTH_TO_SPACE's interleave. */
#define TMV_VEC_AVX512VBMI
#include "copy_x86.h"

TMV_COPY_INTERLEAVE_KERNELS(avx512vbmi, 0x2u)
