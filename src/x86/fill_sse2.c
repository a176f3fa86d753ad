/* fill_sse2.c - SSE2 kernels for TILE's broadcast copies: power-of-two pattern fills and streamed block repeats (fill_x86.h). */
#define TMV_VEC_SSE2
#include "fill_x86.h"

void tmv_fill_pow2_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_pow2(s, src, dst); }
bool tmv_fill_pow2_sse2_streams(const tmv_copy_shape *s) { return tmv_fill_pow2_streams(s); }
void tmv_fill_block_stream_sse2(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst) { tmv_fill_block_stream(s, src, dst); }

/* A 16-byte pattern is one SSE2 vector: scalar copy_w16 makes the same stores. */
bool tmv_fill_pow2_sse2_accepts(const tmv_copy_shape *s) { return fill_shape_pow2(s) && s->elem_bytes != 16; }
/* The streamed block repeats are SSE2 only: they run at DRAM speed, which
 * wider vectors do not change (measured). */
bool tmv_fill_block_stream_sse2_accepts(const tmv_copy_shape *s) { return fill_shape_block_stream(s); }
