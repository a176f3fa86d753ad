/* gather_row_stream_x86.h - the SSE2 and AVX2 GATHER_ND streaming row copy, at the set's width (vec_x86.h). */
#ifndef TMV_GATHER_ROW_STREAM_X86_H
#define TMV_GATHER_ROW_STREAM_X86_H

#include "gather_x86.h"
#include "vec_x86.h"

/* A destination and bytes multiples of TMV_VB, or of 16 (tmv_gx_run_streams):
 * then by 16-byte stores. */
static inline void tmv_gx_stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if ((((uintptr_t)dst | bytes) & (TMV_VB - 1)) == 0) {
        for (uint64_t i = 0; i < bytes; i += TMV_VB)
            v_stream(dst + i, v_load(src + i));
        return;
    }
    tmv_gx_stream_row16(dst, src, bytes);
}

#endif
