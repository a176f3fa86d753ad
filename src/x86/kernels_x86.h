/* kernels_x86.h - declarations of the x86 kernels (SSE2, AVX2, AVX-512), one block per source file. */
#ifndef TMV_KERNELS_X86_H
#define TMV_KERNELS_X86_H

#include "../kernels.h"

#endif
