/* gather_row_stream_x86.h - the SSE2 and AVX2 GATHER_ND streaming row copy, at the set's width (vec_x86.h). */
#ifndef TMV_GATHER_ROW_STREAM_X86_H
#define TMV_GATHER_ROW_STREAM_X86_H

#include "vec_x86.h"

/* Aligned destination, bytes a multiple of TMV_VB. */
static inline void tmv_gx_stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += TMV_VB)
        v_stream(dst + i, v_load(src + i));
}

#endif
