/* portable_gather.c - plain-C GATHER_ND: check every index, then copy one slice per index tuple. */
#include "gather_check.h"
#include "gather_walk.h"
#include "kernels.h"

bool tmv_gather_scalar_accepts(const tmv_gather_shape *s)
{
    (void)s;
    return true;
}

bool tmv_gather_check_scalar(const tmv_gather_shape *s, const uint8_t *indices)
{
    return !tmv_gather_must_check(s) || tmv_gather_indices_in_range(s, indices);
}

tmv_status tmv_gather_scalar(const tmv_gather_shape *s, const uint8_t *input,
                               const uint8_t *indices, uint8_t *output)
{
    /* Checking first keeps the output untouched on error. */
    if (tmv_gather_must_check(s)) {
        tmv_status status = tmv_gather_check(s, indices);
        if (status != TMV_OK)
            return status;
    }
    tmv_gather_pos p;
    tmv_gather_pos_init(&p);
    do {
        s->slice_copy(&s->slice, input + tmv_gather_pos_source(s, indices, &p), output + p.output_off);
    } while (tmv_gather_pos_next(s, &p));
    return TMV_OK;
}
