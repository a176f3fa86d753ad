/* gather_sse2.c - SSE2 GATHER_ND: vector index check, then row slices with 16-byte copies or single elements with scalar loads. */
#include <emmintrin.h>

#include "gather_x86.h"

/* Signed 64-bit a > b per lane, which SSE2 lacks: the high dwords decide
 * (signed) unless equal, then the low dwords (unsigned). */
static inline __m128i gt_epi64(__m128i a, __m128i b)
{
    const __m128i bias = _mm_set1_epi32(INT32_MIN);
    const __m128i gts = _mm_cmpgt_epi32(a, b);
    const __m128i gtu = _mm_cmpgt_epi32(_mm_xor_si128(a, bias), _mm_xor_si128(b, bias));
    const __m128i eq = _mm_cmpeq_epi32(a, b);
    const __m128i lo_up = _mm_shuffle_epi32(gtu, _MM_SHUFFLE(2, 2, 0, 0));
    const __m128i r = _mm_or_si128(gts, _mm_and_si128(eq, lo_up));
    return _mm_shuffle_epi32(r, _MM_SHUFFLE(3, 3, 1, 1));
}

static bool check_values(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count)
{
    const uint64_t lanes = 16 / b->width, full = count / lanes * lanes;
    const __m128i flip = b->width == 4 ? _mm_set1_epi32((int32_t)(uint32_t)b->flip)
                                       : _mm_set1_epi64x((int64_t)b->flip);
    __m128i bad = _mm_setzero_si128();
    uint32_t t = 0;
    for (uint64_t i = 0; i < full; i += lanes) {
        const __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + i * b->width)), flip);
        if (b->width == 4) {
            const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)&b->lo.i32[t]);
            const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)&b->hi.i32[t]);
            bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmplt_epi32(x, lo), _mm_cmpgt_epi32(x, hi)));
        } else {
            const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)&b->lo.i64[t]);
            const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)&b->hi.i64[t]);
            bad = _mm_or_si128(bad, _mm_or_si128(gt_epi64(lo, x), gt_epi64(x, hi)));
        }
        t += (uint32_t)lanes;
        if (t == b->period)
            t = 0;
    }
    return _mm_movemask_epi8(bad) == 0 && tmv_gx_check_tail(b, p, full, count);
}

/* Rows of at least 16 bytes: 16-byte vectors, the last one overlapping.
 * From 1 KiB on libc's memcpy (wider vectors where the CPU has them) wins:
 * 4096-byte rows at L1 size ran at 0.45 x memcpy with 16-byte vectors. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    if (bytes >= 1024) {
        memcpy(dst, src, bytes);
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

/* Aligned destination, bytes a multiple of 16. */
static inline void stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + i),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
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
    return s->slice.rank == 0 && s->slice.elem_bytes >= 16;
}

tmv_status tmv_gather_rows_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_rows_fenced(s, input, indices, output, 16, check_values, copy_row, stream_row);
}

bool tmv_gather_elements_sse2_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

bool tmv_gather_check_sse2(const tmv_gather_shape *s, const uint8_t *indices)
{
    return tmv_gx_in_range(s, indices, check_values);
}

tmv_status tmv_gather_elements_sse2(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output)
{
    tmv_status status = tmv_gx_check(s, indices, check_values);
    if (status != TMV_OK)
        return status;
    tmv_gx_iter it;
    tmv_gx_iter_init(&it, s, indices);
    do
        tmv_gx_elements_run(s, &it.run, input, output);
    while (tmv_gx_iter_next(&it, s));
    return TMV_OK;
}
