/* fill_doubling_avx512.c - TILE's repeats of an element of any width by a doubling row, copied by AVX512's vector loop (fill_doubling_x86.h). */
#define TMV_VEC_AVX512
#include "fill_doubling_x86.h"

bool tmv_fill_doubling_avx512_accepts(const tmv_copy_shape *s) { return tmv_fill_doubling_shape(s); }
bool tmv_fill_doubling_avx512_streams(const tmv_copy_shape *s) { return tmv_fill_doubling_repeats(s); }
void tmv_fill_doubling_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_doubling_vectors(s, src, dst); }
