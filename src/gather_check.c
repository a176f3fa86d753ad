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

tmv_status tmv_gather_check(const tmv_gather_shape *s, const uint8_t *indices)
{
    tmv_gather_pos p;
    tmv_gather_pos_init(&p);
    uint64_t tuple = 0;
    do {
        for (uint32_t j = 0; j < s->k; j++) {
            const uint8_t *at = indices + p.index_off + j * s->index_stride;
            uint64_t pos;
            if (!tmv_resolve_index(at, s->index_type, s->dim_sizes[j], s->clamp, &pos))
                return report_bad_index(s, at, tuple, j);
        }
        tuple++;
    } while (tmv_gather_pos_next(s, &p));
    return TMV_OK;
}
