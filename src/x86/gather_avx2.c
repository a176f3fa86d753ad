/* gather_avx2.c - AVX2 GATHER_ND: vector index check, then rows by 32-byte copies (16-31 bytes by two 16-byte moves, 3-15 by scalar moves) or single elements by scalar loads (on Zen 4 those beat hardware gathers, see gather_avx512.c). */
#define TMV_VEC_AVX2
#include "gather_row_stream_x86.h"
#include "gather_table_check_x86.h"

/* Rows of at least 32 bytes: 32-byte vectors, the last one overlapping;
 * 16 to 31 bytes two overlapping 16-byte moves; shorter ones
 * (tmv_gx_short_row) scalar moves. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if (bytes < 16) {
        tmv_move_run(dst, src, bytes);
        return;
    }
    if (bytes < 32) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src);
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + bytes - 16));
        _mm_storeu_si128((__m128i *)(void *)dst, a);
        _mm_storeu_si128((__m128i *)(void *)(dst + bytes - 16), b);
        return;
    }
    uint64_t i = 0;
    for (; i + 64 <= bytes; i += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32));
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), a);
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 32), b);
    }
    if (i + 32 <= bytes) {
        _mm256_storeu_si256((__m256i *)(void *)(dst + i),
                            _mm256_loadu_si256((const __m256i *)(const void *)(src + i)));
        i += 32;
    }
    if (i < bytes)
        _mm256_storeu_si256((__m256i *)(void *)(dst + bytes - 32),
                            _mm256_loadu_si256((const __m256i *)(const void *)(src + bytes - 32)));
}

void tmv_gather_rows_avx2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 32, true, false);
}

bool tmv_gather_rows_avx2_accepts(const tmv_gather_shape *s)
{
    return s->slice.rank == 0 && (s->slice.elem_bytes >= 16 || tmv_gx_short_row(s->slice.elem_bytes));
}

bool tmv_gather_check_avx2(const tmv_gather_shape *s, const uint8_t *indices)
{
    return tmv_gx_in_range(s, indices, tmv_gx_check_table);
}

tmv_status tmv_gather_rows_avx2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_rows_fenced(s, input, indices, output, 32, tmv_gx_check_table, copy_row, tmv_gx_stream_row);
}

/* Single elements: SSE2's loop, compiled for AVX2 (gcc vectorizes the
 * offsets of packed single indices, and the check is 32 bytes a step). */
void tmv_gather_elements_avx2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gather_rows_avx2_prepare(s, state);
}

bool tmv_gather_elements_avx2_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

tmv_status tmv_gather_elements_avx2(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_elements(s, input, indices, output, tmv_gx_check_table, tmv_gx_elements_run);
}
