/* interleave_shape_x86.h - the plane-row length of a B-way row (de)interleave shape (which shapes are: copy_kinds.h). */
#ifndef TMV_INTERLEAVE_SHAPE_X86_H
#define TMV_INTERLEAVE_SHAPE_X86_H

#include <stdint.h>

#include "../copy_kinds.h"
#include "../kernels.h"

/* x of either block shape: the plane-row length in elements. */
static inline uint64_t deinterleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 1]; }
static inline uint64_t interleave_x(const tmv_copy_shape *s) { return s->sizes[s->rank - 2]; }

#endif
