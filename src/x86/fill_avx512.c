/* fill_avx512.c - AVX512 kernels for TILE's broadcast copies: power-of-two pattern fills (fill_x86.h). */
#define TMV_FILL_AVX512
#include "fill_x86.h"
#include "kernels_x86.h"

void tmv_fill_pow2_avx512(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_pow2(s, src, dst); }
