/* gather_neon.c - NEON GATHER_ND of contiguous slices: index tuples resolved a batch ahead with prefetch, slices copied inline. */
#include <string.h>

#include "gather_check.h"
#include "gather_index.h"
#include "gather_walk.h"
#include "kernels.h"
#include "neon_util.h"

/* Tuples resolved before any of their slices is copied: enough to cover a
 * memory latency with prefetches, small enough for the stack and L1. */
#define BATCH 32

/* The slice is one run of bytes (normalization folded it to rank 0). */
bool tmv_gather_neon_accepts(const tmv_gather_shape *s)
{
    return s->slice.rank == 0;
}

bool tmv_gather_check_neon(const tmv_gather_shape *s, const uint8_t *indices)
{
    return !tmv_gather_must_check(s) || tmv_gather_indices_in_range(s, indices);
}

tmv_status tmv_gather_neon(const tmv_gather_shape *s, const uint8_t *input, const uint8_t *indices,
                           uint8_t *output)
{
    /* Checking first keeps the output untouched on error. */
    if (tmv_gather_must_check(s)) {
        tmv_status status = tmv_gather_check(s, indices);
        if (status != TMV_OK)
            return status;
    }
    const uint64_t bytes = s->slice.elem_bytes;
    uint64_t src[BATCH], dst[BATCH];
    tmv_gather_pos p;
    tmv_gather_pos_init(&p);
    for (bool more = true; more;) {
        unsigned n = 0;
        do {
            const uint64_t off = tmv_gather_pos_source(s, indices, &p);
            /* random slices miss the cache; start every load of the batch now */
            __builtin_prefetch(input + off);
            src[n] = off;
            dst[n] = p.output_off;
            n++;
            more = tmv_gather_pos_next(s, &p);
        } while (more && n < BATCH);
        for (unsigned t = 0; t < n; t++)
            tmv_neon_copy_bytes(output + dst[t], input + src[t], bytes);
    }
    return TMV_OK;
}
