/* gather_avx2.c - AVX2 GATHER_ND rows: vector index check and 32-byte row copies (elements stay on the SSE2 kernel: on Zen 4 scalar loads beat hardware gathers, see gather_avx512.c). */
#include <immintrin.h>

#include "gather_x86.h"

static bool check_values(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count)
{
    const uint64_t lanes = 32 / b->width, full = count / lanes * lanes;
    const __m256i flip = b->width == 4 ? _mm256_set1_epi32((int32_t)(uint32_t)b->flip)
                                       : _mm256_set1_epi64x((int64_t)b->flip);
    __m256i bad = _mm256_setzero_si256();
    uint32_t t = 0;
    for (uint64_t i = 0; i < full; i += lanes) {
        const __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(p + i * b->width)), flip);
        if (b->width == 4) {
            const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)&b->lo.i32[t]);
            const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)&b->hi.i32[t]);
            bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi32(lo, x), _mm256_cmpgt_epi32(x, hi)));
        } else {
            const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)&b->lo.i64[t]);
            const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)&b->hi.i64[t]);
            bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi64(lo, x), _mm256_cmpgt_epi64(x, hi)));
        }
        t += (uint32_t)lanes;
        if (t == b->period)
            t = 0;
    }
    return _mm256_testz_si256(bad, bad) && tmv_gx_check_tail(b, p, full, count);
}

/* Rows of at least 32 bytes: 32-byte vectors, the last one overlapping. */
static inline void copy_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
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

/* Aligned destination, bytes a multiple of 32. */
static inline void stream_row(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += 32)
        _mm256_stream_si256((__m256i *)(void *)(dst + i),
                            _mm256_loadu_si256((const __m256i *)(const void *)(src + i)));
}

void tmv_gather_rows_avx2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 32, true, false);
}

bool tmv_gather_rows_avx2_accepts(const tmv_gather_shape *s)
{
    return s->slice.rank == 0 && s->slice.elem_bytes >= 32;
}

bool tmv_gather_check_avx2(const tmv_gather_shape *s, const uint8_t *indices)
{
    return tmv_gx_in_range(s, indices, check_values);
}

tmv_status tmv_gather_rows_avx2(const tmv_gather_shape *s, const uint8_t *input,
                                const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_rows_fenced(s, input, indices, output, 32, check_values, copy_row, stream_row);
}
