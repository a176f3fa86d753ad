/* gather_sse2.c - SSE2 GATHER_ND: vector index check, then row slices with 16-byte copies (scalar moves under 16 bytes) or single elements with scalar loads. */
#define TMV_VEC_SSE2
#include "gather_row_stream_x86.h"
#include "gather_table_check_x86.h"
#include "gather_elements_x86.h"

/* Rows of at least 16 bytes: 16-byte vectors, the last one overlapping;
 * shorter ones (tmv_gx_short_row) by scalar moves.
 * From 1 KiB on libc's memcpy (wider vectors where the CPU has them) wins:
 * 4096-byte rows at L1 size ran at 0.45 x memcpy with 16-byte vectors. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if (bytes >= 1024) {
        memcpy(dst, src, bytes);
        return;
    }
    if (bytes < 16) {
        tmv_move_run(dst, src, bytes);
        return;
    }
    uint64_t i = 0;
    for (; i + 64 <= bytes; i += 64) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 16));
        const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 32));
        const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 48));
        _mm_storeu_si128((__m128i *)(void *)(dst + i), a);
        _mm_storeu_si128((__m128i *)(void *)(dst + i + 16), b);
        _mm_storeu_si128((__m128i *)(void *)(dst + i + 32), c);
        _mm_storeu_si128((__m128i *)(void *)(dst + i + 48), d);
    }
    for (; i + 16 <= bytes; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(dst + i),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
    if (i < bytes)
        _mm_storeu_si128((__m128i *)(void *)(dst + bytes - 16),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + bytes - 16)));
}

void tmv_gather_rows_sse2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 16, true, false);
}

void tmv_gather_elements_sse2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gather_rows_sse2_prepare(s, state);
}

bool tmv_gather_rows_sse2_accepts(const tmv_gather_shape *s)
{
    return s->slice.rank == 0 && (s->slice.elem_bytes >= 16 || tmv_gx_short_row(s->slice.elem_bytes));
}

tmv_status tmv_gather_rows_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_rows_fenced(s, input, indices, output, 16, tmv_gx_check_table, copy_row, tmv_gx_stream_row);
}

bool tmv_gather_elements_sse2_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

bool tmv_gather_check_sse2(const tmv_gather_shape *s, const uint8_t *indices)
{
    return tmv_gx_in_range(s, indices, tmv_gx_check_table);
}

tmv_status tmv_gather_elements_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_elements(s, input, indices, output, tmv_gx_check_table, tmv_gx_elements_run);
}
