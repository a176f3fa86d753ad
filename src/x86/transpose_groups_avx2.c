/* transpose_groups_avx2.c - the AVX2 kernel for transposes whose short side comes in groups (transpose_groups_x86.h). */
#define TMV_VEC_AVX2
#include "transpose_groups_x86.h"

TMV_TRANSPOSE_GROUPS_KERNEL(avx2)
