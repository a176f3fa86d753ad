/* fill_avx2.c - AVX2 kernels for TILE's broadcast copies: power-of-two pattern fills and short periods (fill_x86.h). */
#define TMV_VEC_AVX2
#include "fill_x86.h"

void tmv_fill_pow2_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_pow2(s, src, dst); }
bool tmv_fill_pow2_avx2_streams(const tmv_copy_shape *s) { return tmv_fill_pow2_streams(s); }
void tmv_fill_period_avx2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_period(s, src, dst); }
bool tmv_fill_pow2_avx2_accepts(const tmv_copy_shape *s) { return fill_shape_pow2(s); }
bool tmv_fill_period_avx2_accepts(const tmv_copy_shape *s) { return fill_shape_period(s); }
