/* fill_doubling_avx2.c - TILE's repeats of an element of any width by a doubling row, copied by AVX2's vector loop (fill_doubling_x86.h). */
#define TMV_VEC_AVX2
#include "fill_doubling_x86.h"

bool tmv_fill_doubling_avx2_accepts(const tmv_copy_shape *s) { return tmv_fill_doubling_shape(s); }
bool tmv_fill_doubling_avx2_streams(const tmv_copy_shape *s) { return tmv_fill_doubling_repeats(s); }
void tmv_fill_doubling_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_doubling_vectors(s, src, dst); }
