/* shape.h - normalized byte-strided copy shapes: the common currency of plans and kernels. */
#ifndef TMV_SHAPE_H
#define TMV_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "tuning.h"

/* TILE views each of up to 8 dims as (repeat, period): 16 dims. */
#define TMV_SHAPE_MAX_DIMS 16

/* A copy of sizes[0] x ... x sizes[rank-1] elements of elem_bytes bytes each
 * from src + sum(i[d] * src_strides[d]) to dst + sum(i[d] * dst_strides[d]),
 * dim 0 outermost. After normalization: no size-1 dims, no two adjacent dims
 * that could merge, the innermost dim not contiguous in both, dims ordered by
 * descending destination stride (writes move forward), and elem_bytes grown
 * to cover any run contiguous in both. rank 0 is a single elem_bytes copy.
 * One exception to the order: when the innermost dim is not contiguous in the
 * source, the dim with the smallest non-zero source stride is moved next to
 * it, so the two innermost dims form a 2-D transpose block (the shape of
 * SPACE_TO_DEPTH's de-interleave and DEPTH_TO_SPACE's interleave). */
typedef struct tmv_copy_shape {
    uint32_t rank;
    uint64_t elem_bytes;
    uint64_t sizes[TMV_SHAPE_MAX_DIMS];
    uint64_t src_strides[TMV_SHAPE_MAX_DIMS];  /* bytes; 0 broadcasts */
    uint64_t dst_strides[TMV_SHAPE_MAX_DIMS];  /* bytes */
    const tmv_tuning *tuning;                  /* the plan's tuning record (kernels.h) */
    const void       *state;                   /* the kernel's prepared tables (kernels.h), or NULL */
} tmv_copy_shape;

/* Normalizes s in place (see above). Returns false if some size is 0: the
 * copy moves nothing. */
bool tmv_shape_normalize(tmv_copy_shape *s);

/* a and b move the same elements the same way: rank, element bytes, sizes
 * and strides alike (their tuning and state are not compared). */
bool tmv_shape_same_geometry(const tmv_copy_shape *a, const tmv_copy_shape *b);

/* Swaps dims d - 1 and d of s (0 < d < rank): sizes and both strides. */
void tmv_shape_swap_dims(tmv_copy_shape *s, uint32_t d);

/* Orders dims [0, end) of s by descending source stride, stably (dims from
 * end in keep their place): walked in that order, those dims read the
 * source forward. */
void tmv_shape_order_by_source(tmv_copy_shape *s, uint32_t end);

/* Total bytes the copy writes. */
uint64_t tmv_shape_bytes(const tmv_copy_shape *s);

/* The bytes the copy's source positions span, first to last element
 * (strides of 0 read the same bytes again; a broadcast spans few). */
uint64_t tmv_shape_source_extent(const tmv_copy_shape *s);

#endif
