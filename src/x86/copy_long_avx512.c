/* copy_long_avx512.c - strided copies of long runs (copy_long_x86.h), each by the set's vector loop instead of a memcpy call. */
#define TMV_VEC_AVX512
#include "../kernels.h"
#include "../walk_columns.h"
#include "copy_long_x86.h"

bool tmv_copy_long_avx512_accepts(const tmv_copy_shape *s) { return s->elem_bytes >= TMV_COPY_LONG_MIN; }

void tmv_copy_long_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    tmv_copy_by_columns(s, src, dst, tmv_copy_long_column, false);
}
