/* gather_check.c - the GATHER_ND index check every gather kernel may use: the first bad index, named. */
#include "gather_check.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "gather_index.h"
#include "gather_walk.h"

static tmv_status report_bad_index(const tmv_gather_shape *s, const uint8_t *at, uint64_t tuple, uint32_t j)
{
    int64_t sv = 0;
    uint64_t uv = 0;
    char value[32];
    if (tmv_read_index(at, s->index_type, &sv, &uv))
        snprintf(value, sizeof value, "%lld", (long long)sv);
    else
        snprintf(value, sizeof value, "%llu", (unsigned long long)uv);
    return tmv_fail(TMV_ERR_INDEX_OUT_OF_RANGE,
                    "gather_nd: index tuple %llu, component %u, is %s, outside input dimension %u "
                    "of size %llu",
                    (unsigned long long)tuple, j, value, s->first_indexed_dim + j,
                    (unsigned long long)s->dim_sizes[j]);
}

/* The first tuple with an index out of range: its number, component and
 * address. Returns false if there is none. */
static bool find_bad_index(const tmv_gather_shape *s, const uint8_t *indices, uint64_t *tuple_out, uint32_t *j_out,
                           const uint8_t **at_out)
{
    tmv_gather_pos p;
    tmv_gather_pos_init(&p);
    uint64_t tuple = 0;
    do {
        for (uint32_t j = 0; j < s->k; j++) {
            const uint8_t *at = indices + p.index_off + j * s->index_stride;
            uint64_t pos;
            if (!tmv_resolve_index(at, s->index_type, s->dim_sizes[j], s->clamp, &pos)) {
                *tuple_out = tuple, *j_out = j, *at_out = at;
                return true;
            }
        }
        tuple++;
    } while (tmv_gather_pos_next(s, &p));
    return false;
}

tmv_status tmv_gather_check(const tmv_gather_shape *s, const uint8_t *indices)
{
    uint64_t tuple;
    uint32_t j;
    const uint8_t *at;
    return find_bad_index(s, indices, &tuple, &j, &at) ? report_bad_index(s, at, tuple, j) : TMV_OK;
}

/* An index as a signed 64-bit value: 32-bit types extended by their sign,
 * 64-bit ones as they are (an unsigned one of 2^63 or more reads negative,
 * which the bounds below reject as they must). */
__attribute__((always_inline)) static inline int64_t index_value(const uint8_t *p, tmv_dtype type)
{
    if (type == TMV_DTYPE_INT32) {
        int32_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    if (type == TMV_DTYPE_UINT32) {
        uint32_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    int64_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* Whether the indices of one component over a run of n >= 1 tuples,
 * `stride` bytes apart, all select within a dim of `size` elements: their
 * least and greatest value against the bounds, a loop with no branch on the
 * values (several times faster than resolving each index). Always inlined
 * with a constant type, so each type gets its own loop. */
__attribute__((always_inline)) static inline bool run_of_type_in_range(const uint8_t *p, uint64_t n,
                                                                       uint64_t stride, tmv_dtype type,
                                                                       uint64_t size)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint64_t t = 0; t < n; t++) {
        const int64_t v = index_value(p + t * stride, type);
        lo = v < lo ? v : lo, hi = v > hi ? v : hi;
    }
    const int64_t bound = (int64_t)size; /* size < 2^32 */
    const bool signed_type = type == TMV_DTYPE_INT32 || type == TMV_DTYPE_INT64;
    return lo >= (signed_type ? -bound : 0) && hi < bound;
}

static bool run_in_range(const uint8_t *p, uint64_t n, uint64_t stride, tmv_dtype type, uint64_t size)
{
    switch (type) {
    case TMV_DTYPE_INT32: return run_of_type_in_range(p, n, stride, TMV_DTYPE_INT32, size);
    case TMV_DTYPE_INT64: return run_of_type_in_range(p, n, stride, TMV_DTYPE_INT64, size);
    case TMV_DTYPE_UINT32: return run_of_type_in_range(p, n, stride, TMV_DTYPE_UINT32, size);
    default: return run_of_type_in_range(p, n, stride, TMV_DTYPE_UINT64, size);
    }
}

/* Steps the tuple position over every dim but the innermost; false after the last. */
static bool next_run(const tmv_gather_shape *s, uint64_t *idx, uint64_t *off)
{
    for (uint32_t d = s->pos_rank - 1; d-- > 0;) {
        if (++idx[d] < s->pos_sizes[d]) {
            *off += s->pos_index_strides[d];
            return true;
        }
        *off -= s->pos_index_strides[d] * (s->pos_sizes[d] - 1);
        idx[d] = 0;
    }
    return false;
}

bool tmv_gather_indices_in_range(const tmv_gather_shape *s, const uint8_t *indices)
{
    for (uint32_t d = 0; d < s->pos_rank; d++)
        if (s->pos_sizes[d] == 0)
            return true; /* no tuple */
    for (uint32_t j = 0; j < s->k; j++)
        if (s->dim_sizes[j] == 0)
            return false; /* nothing to select, clamped or not */
    if (s->clamp)
        return true;
    const uint32_t inner = s->pos_rank - 1;
    uint64_t idx[TMV_MAX_DIMS] = {0}, off = 0;
    do {
        for (uint32_t j = 0; j < s->k; j++)
            if (!run_in_range(indices + off + j * s->index_stride, s->pos_sizes[inner], s->pos_index_strides[inner],
                              s->index_type, s->dim_sizes[j]))
                return false;
    } while (next_run(s, idx, &off));
    return true;
}
