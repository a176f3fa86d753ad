/* gather_elements_x86.h - the x86 element gathers' shared loop: single elements (1, 2, 4 or 8 bytes) by scalar loads, every index checked first (SSE2's and AVX2's kernels, and AVX-512's for the runs its vectors do not take). */
#ifndef TMV_GATHER_ELEMENTS_X86_H
#define TMV_GATHER_ELEMENTS_X86_H

#include "gather_x86.h"

/* Single elements: a load and a store of a constant width. */
static inline void tmv_gx_copy_1(uint8_t *dst, const uint8_t *src, uint64_t bytes) { (void)bytes; memcpy(dst, src, 1); }
static inline void tmv_gx_copy_2(uint8_t *dst, const uint8_t *src, uint64_t bytes) { (void)bytes; memcpy(dst, src, 2); }
static inline void tmv_gx_copy_4(uint8_t *dst, const uint8_t *src, uint64_t bytes) { (void)bytes; memcpy(dst, src, 4); }
static inline void tmv_gx_copy_8(uint8_t *dst, const uint8_t *src, uint64_t bytes) { (void)bytes; memcpy(dst, src, 8); }

/* One run of single-element slices (1, 2, 4 or 8 bytes) with scalar loads. */
static inline void tmv_gx_elements_run(const tmv_gather_shape *s, const tmv_gx_run *r,
                                       const uint8_t *input, uint8_t *output)
{
    switch (s->slice.elem_bytes) {
    case 1: tmv_gx_copy_run(s, r, input, output, 1, TMV_GX_ELEM_PREFETCH, 1, tmv_gx_copy_1); break;
    case 2: tmv_gx_copy_run(s, r, input, output, 2, TMV_GX_ELEM_PREFETCH, 1, tmv_gx_copy_2); break;
    case 4: tmv_gx_copy_run(s, r, input, output, 4, TMV_GX_ELEM_PREFETCH, 1, tmv_gx_copy_4); break;
    default: tmv_gx_copy_run(s, r, input, output, 8, TMV_GX_ELEM_PREFETCH, 1, tmv_gx_copy_8); break;
    }
}

typedef void (*tmv_gx_run_fn)(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output);

/* The element kernels' driver: every index checked before anything is
 * written, then `run` (a constant, inlined) on each run of tuples. */
__attribute__((always_inline)) static inline tmv_status tmv_gx_elements(const tmv_gather_shape *s,
                                                                       const uint8_t *input,
                                                                       const uint8_t *indices, uint8_t *output,
                                                                       tmv_gx_check_fn check, tmv_gx_run_fn run)
{
    tmv_status status = tmv_gx_check(s, indices, check);
    if (status != TMV_OK)
        return status;
    tmv_gx_iter it;
    tmv_gx_iter_init(&it, s, indices);
    do
        run(s, &it.run, input, output);
    while (tmv_gx_iter_next(&it, s));
    return TMV_OK;
}

static inline bool tmv_gx_elements_accepts(const tmv_gather_shape *s)
{
    const uint64_t w = s->slice.elem_bytes;
    return s->slice.rank == 0 && (w == 1 || w == 2 || w == 4 || w == 8);
}

#endif
