/* fill_doubling_avx2.c - TILE's repeats of an element of any width by a doubling row (fill_doubling.h), each doubling by the set's vector loop (copy_long_x86.h) instead of a memcpy call; past the stream threshold the chunk's repeats are streamed. */
#define TMV_VEC_AVX2
#include "../fill_doubling.h"
#include "copy_long_x86.h"
#include "stream_x86.h"

bool tmv_fill_doubling_avx2_accepts(const tmv_copy_shape *s) { return tmv_fill_doubling_shape(s); }

void tmv_fill_doubling_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    if (tmv_shape_bytes(s) < s->tuning->stream_threshold) {
        tmv_fill_doubling(s, src, dst, tmv_copy_long, tmv_copy_long);
        return;
    }
    tmv_fill_doubling(s, src, dst, tmv_copy_long, tmv_stream_copy);
    _mm_sfence();
}
