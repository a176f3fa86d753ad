/* transpose_groups_avx512.c - the AVX512 kernel for transposes whose short side comes in groups (transpose_groups_x86.h). */
#define TMV_VEC_AVX512
#include "transpose_groups_x86.h"

TMV_TRANSPOSE_GROUPS_KERNEL(avx512)
