/* fill_avx512.c - AVX-512 power-of-two pattern fills (fill_x86.h), for the rows only it moves in whole registers: patterns of 33 to 64 bytes in rows of one to four vectors (fill_rows_short), which AVX2's fill loads and stores in halves a row at a time. */
#define TMV_VEC_AVX512
#include "fill_x86.h"

void tmv_fill_pow2_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_pow2(s, src, dst); }

bool tmv_fill_pow2_avx512_accepts(const tmv_copy_shape *s)
{
    if (!fill_shape_pow2(s) || tmv_shape_bytes(s) >= s->tuning->stream_threshold)
        return false;
    const uint64_t p = s->elem_bytes, len = s->sizes[s->rank - 1] * p;
    return p > 32 && p <= TMV_VB && len >= TMV_VB && len <= 4 * TMV_VB;
}
