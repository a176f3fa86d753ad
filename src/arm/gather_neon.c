/* gather_neon.c - NEON GATHER_ND of contiguous slices: index tuples resolved a batch ahead with prefetch, slices copied inline. */
#include <string.h>

#include "gather_index.h"
#include "kernels_neon.h"
#include "neon_util.h"
#include "portable.h"

/* Tuples resolved before any of their slices is copied: enough to cover a
 * memory latency with prefetches, small enough for the stack and L1. */
#define BATCH 32

/* The slice is one run of bytes (normalization folded it to rank 0). */
bool tmv_gather_accepts_neon(const tmv_gather_shape *s)
{
    return s->slice.rank == 0;
}

/* Byte offsets of the current index tuple in the three tensors. */
typedef struct position {
    uint64_t idx[TMV_MAX_DIMS];
    uint64_t index_off, input_off, output_off;
} position;

/* Steps to the next tuple; false after the last. */
static inline bool next_position(const tmv_gather_shape *s, position *p)
{
    for (uint32_t d = s->pos_rank; d-- > 0;) {
        if (++p->idx[d] < s->pos_sizes[d]) {
            p->index_off += s->pos_index_strides[d];
            p->input_off += s->pos_input_strides[d];
            p->output_off += s->pos_output_strides[d];
            return true;
        }
        p->index_off -= s->pos_index_strides[d] * (s->pos_sizes[d] - 1);
        p->input_off -= s->pos_input_strides[d] * (s->pos_sizes[d] - 1);
        p->output_off -= s->pos_output_strides[d] * (s->pos_sizes[d] - 1);
        p->idx[d] = 0;
    }
    return false;
}

tmv_status tmv_gather_neon(const tmv_gather_shape *s, const uint8_t *input, const uint8_t *indices,
                           uint8_t *output)
{
    /* Checking every index first keeps the output untouched on error; with
     * clamping only an empty indexed dim can fail. */
    bool must_check = !s->clamp;
    for (uint32_t j = 0; j < s->k; j++)
        must_check |= s->dim_sizes[j] == 0;
    if (must_check) {
        tmv_status status = tmv_gather_check_portable(s, indices);
        if (status != TMV_OK)
            return status;
    }
    const uint64_t bytes = s->slice.elem_bytes;
    uint64_t src[BATCH], dst[BATCH];
    position p;
    memset(&p, 0, sizeof p);
    for (bool more = true; more;) {
        unsigned n = 0;
        do {
            uint64_t off = p.input_off;
            for (uint32_t j = 0; j < s->k; j++) {
                uint64_t pos = 0;
                tmv_resolve_index(indices + p.index_off + j * s->index_stride, s->index_type,
                                  s->dim_sizes[j], s->clamp, &pos);
                off += pos * s->dim_strides[j];
            }
            /* random slices miss the cache; start every load of the batch now */
            __builtin_prefetch(input + off);
            src[n] = off;
            dst[n] = p.output_off;
            n++;
            more = next_position(s, &p);
        } while (more && n < BATCH);
        for (unsigned t = 0; t < n; t++)
            tmv_neon_copy_bytes(output + dst[t], input + src[t], bytes);
    }
    return TMV_OK;
}
