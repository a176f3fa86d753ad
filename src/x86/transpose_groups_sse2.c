/* transpose_groups_sse2.c - the SSE2 kernel for transposes whose short side comes in groups (transpose_groups_x86.h). */
#define TMV_VEC_SSE2
#include "transpose_groups_x86.h"

TMV_TRANSPOSE_GROUPS_KERNEL(sse2)
