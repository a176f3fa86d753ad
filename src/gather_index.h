/* gather_index.h - reading one GATHER_ND index and turning it into a position (shared by all gather kernels). */
#ifndef TMV_GATHER_INDEX_H
#define TMV_GATHER_INDEX_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tensormove.h"

/* The raw index at p: value in *v, true if the type is signed. */
static inline bool tmv_read_index(const uint8_t *p, tmv_dtype type, int64_t *sv, uint64_t *uv)
{
    switch (type) {
    case TMV_DTYPE_INT32: { int32_t x; memcpy(&x, p, 4); *sv = x; return true; }
    case TMV_DTYPE_INT64: { int64_t x; memcpy(&x, p, 8); *sv = x; return true; }
    case TMV_DTYPE_UINT32: { uint32_t x; memcpy(&x, p, 4); *uv = x; return false; }
    default: { uint64_t x; memcpy(&x, p, 8); *uv = x; return false; }
    }
}

/* The position an index selects in a dim of `size` elements (SPEC section 6):
 * negative signed indices count from the end; with clamp, out-of-range ones
 * are clamped (signed into [-size, size-1], then made non-negative; unsigned
 * to size-1). Returns false if the index is out of range and not clamped, or
 * if size is 0 (nothing to select). */
static inline bool tmv_resolve_index(const uint8_t *p, tmv_dtype type, uint64_t size, bool clamp,
                                     uint64_t *pos)
{
    int64_t sv = 0;
    uint64_t uv = 0;
    if (size == 0)
        return false;
    if (tmv_read_index(p, type, &sv, &uv)) {
        /* size < 2^32, so -size and size fit int64 */
        int64_t n = (int64_t)size;
        if (sv < -n || sv >= n) {
            if (!clamp)
                return false;
            sv = sv < -n ? -n : n - 1;
        }
        *pos = (uint64_t)(sv < 0 ? sv + n : sv);
        return true;
    }
    if (uv >= size) {
        if (!clamp)
            return false;
        uv = size - 1;
    }
    *pos = uv;
    return true;
}

#endif
