/* fill_doubling_x86.h - TILE's doubling fill (fill_doubling.h) with the set's vector loop (copy_long_x86.h) in place of memcpy calls; past the stream threshold the chunk's repeats are streamed (stream_x86.h). */
#ifndef TMV_FILL_DOUBLING_X86_H
#define TMV_FILL_DOUBLING_X86_H

#include "../fill_doubling.h"
#include "copy_long_x86.h"
#include "stream_x86.h"

static inline void tmv_fill_doubling_vectors(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    if (tmv_shape_bytes(s) < s->tuning->stream_threshold) {
        tmv_fill_doubling(s, src, dst, tmv_copy_long, tmv_copy_long);
        return;
    }
    tmv_fill_doubling(s, src, dst, tmv_copy_long, tmv_stream_copy);
    _mm_sfence();
}

#endif
