/* copy_avx2.c - AVX2 copy kernels: SPACE_TO_DEPTH's row de-interleave and DEPTH_TO_SPACE's interleave. */
#define TMV_VEC_AVX2
#include "copy_x86.h"

TMV_COPY_INTERLEAVE_KERNELS(avx2, 0x116u)
bool tmv_copy_interleave_avx2_streams(const tmv_copy_shape *s) { return block_streams(s, true); }
