/* kernels_neon.h - declarations of the NEON kernels, one block per source file. */
#ifndef TMV_KERNELS_NEON_H
#define TMV_KERNELS_NEON_H

#include "../kernels.h"

#endif
