/* gather_check.c - the GATHER_ND index check every gather kernel may use: the first bad index, named. */
#include "gather_check.h"

#include <stdio.h>

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

bool tmv_gather_indices_in_range(const tmv_gather_shape *s, const uint8_t *indices)
{
    uint64_t tuple;
    uint32_t j;
    const uint8_t *at;
    return !find_bad_index(s, indices, &tuple, &j, &at);
}
