/* coords.h - the reference's only shared helper: walking coordinates and addressing elements. */
#ifndef TMV_REFERENCE_COORDS_H
#define TMV_REFERENCE_COORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../tensor.h"

/* Sets every coordinate of t to 0; false when t has no elements. */
static inline bool ref_first_coord(const tmv_tensor *t, uint32_t coord[TMV_MAX_DIMS])
{
    for (uint32_t d = 0; d < TMV_MAX_DIMS; d++)
        coord[d] = 0;
    return !t->empty;
}

/* Steps coord to the next one of t in row-major order (last dimension
 * fastest); false after the last. */
static inline bool ref_next_coord(const tmv_tensor *t, uint32_t coord[TMV_MAX_DIMS])
{
    for (uint32_t d = t->dim_count; d-- > 0;) {
        if (++coord[d] < t->sizes[d])
            return true;
        coord[d] = 0;
    }
    return false;
}

/* Byte offset of the element at coord. Fits size_t: validation bounded the
 * extent, and every in-range coordinate lies inside it. */
static inline size_t ref_byte_offset(const tmv_tensor *t, const uint32_t coord[TMV_MAX_DIMS])
{
    uint64_t elements = 0;
    for (uint32_t d = 0; d < t->dim_count; d++)
        elements += (uint64_t)coord[d] * t->strides[d];
    return (size_t)(elements * t->elem_size);
}

/* Bit-copies one element: never through a float, so NaN payloads survive. */
static inline void ref_copy_element(const tmv_tensor *dst_t, void *dst, const uint32_t dst_coord[TMV_MAX_DIMS],
                                    const tmv_tensor *src_t, const void *src,
                                    const uint32_t src_coord[TMV_MAX_DIMS])
{
    memcpy((unsigned char *)dst + ref_byte_offset(dst_t, dst_coord),
           (const unsigned char *)src + ref_byte_offset(src_t, src_coord), dst_t->elem_size);
}

#endif
