/* copy_sse2.c - SSE2 copy kernels: SPACE_TO_DEPTH's row de-interleave and DEPTH_TO_SPACE's interleave. */
#define TMV_VEC_SSE2
#include "copy_x86.h"

TMV_COPY_INTERLEAVE_KERNELS(sse2, 0x116u)
