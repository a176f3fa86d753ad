/* gather_avx2.c - AVX2 GATHER_ND: vector index check, then rows by 32-byte copies (16-31 bytes by two 16-byte moves, 3-15 by scalar moves) or single elements by scalar loads (on Zen 4 those beat hardware gathers, see gather_avx512.c). */
#define TMV_VEC_AVX2
#include "gather_row_stream_x86.h"
#include "gather_table_check_x86.h"
#include "gather_elements_x86.h"

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

/* Single elements. Runs of packed single 32-bit signed indices (the
 * embedding lookup's shape) with offsets that fit 32 bits: 8 offsets at a
 * time in a vector, then 8 scalar loads and stores of the element, in one
 * loop. Through SSE2's two passes (offsets of a chunk into memory, then the
 * copies; gcc vectorizes the first for AVX2) 4-byte elements from a 64 KiB
 * table ran at 0.37-0.43 x the random-loads bound at 8 KiB and 1 MiB, here
 * at 0.78-0.91. The rest take those two passes. */
void tmv_gather_elements_avx2_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 32, true, tmv_gx_offsets_fit_32(s));
}

/* One such run, elements of w bytes (a constant per instance), clamping
 * out-of-range indices if clamp (DirectML's policy; else they were checked). */
__attribute__((always_inline)) static inline void elements_fused(const tmv_gather_shape *s, const tmv_gx_run *r,
                                                                const uint8_t *input, uint8_t *output,
                                                                size_t w, bool clamp)
{
    const uint64_t n = r->count;
    const __m256i size = _mm256_set1_epi32((int32_t)s->dim_sizes[0]);
    const __m256i stride = _mm256_set1_epi32((int32_t)s->dim_strides[0]);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i step8 = _mm256_set1_epi32((int32_t)(uint32_t)(8 * r->in_step));
    __m256i base = _mm256_add_epi32(_mm256_set1_epi32((int32_t)r->in_base),
                                    _mm256_mullo_epi32(lane, _mm256_set1_epi32((int32_t)r->in_step)));
    const uint8_t *idx = r->idx;
    uint8_t *out = output + r->out_off;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8, idx += 32, out += 8 * w) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)idx);
        if (clamp)
            x = _mm256_min_epi32(_mm256_max_epi32(x, _mm256_sub_epi32(_mm256_setzero_si256(), size)),
                                 _mm256_sub_epi32(size, _mm256_set1_epi32(1)));
        x = _mm256_add_epi32(x, _mm256_and_si256(size, _mm256_srai_epi32(x, 31)));   /* -1 is the last */
        uint32_t o[8];
        _mm256_storeu_si256((__m256i *)(void *)o, _mm256_add_epi32(base, _mm256_mullo_epi32(x, stride)));
        base = _mm256_add_epi32(base, step8);
        for (unsigned l = 0; l < 8; l++)
            memcpy(out + w * l, input + o[l], w);
    }
    if (i < n) {
        tmv_gx_run tail = *r;
        tail.idx += i * 4;
        tail.in_base += i * r->in_step;
        tail.out_off += i * w;
        tail.count = n - i;
        tmv_gx_elements_run(s, &tail, input, output);
    }
}

static inline void elements_fused_w(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                    uint8_t *output, bool clamp)
{
    switch (s->slice.elem_bytes) {
    case 1: elements_fused(s, r, input, output, 1, clamp); break;
    case 2: elements_fused(s, r, input, output, 2, clamp); break;
    case 4: elements_fused(s, r, input, output, 4, clamp); break;
    default: elements_fused(s, r, input, output, 8, clamp); break;
    }
}

static inline void elements_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output)
{
    const bool fused = s->k == 1 && s->index_type == TMV_DTYPE_INT32 && tmv_gx_state_of(s)->fit32 &&
                       (r->count < 2 || (r->idx_step == 4 && r->out_step == s->slice.elem_bytes));
    if (!fused)
        tmv_gx_elements_run(s, r, input, output);
    else if (s->clamp)
        elements_fused_w(s, r, input, output, true);
    else
        elements_fused_w(s, r, input, output, false);
}

bool tmv_gather_elements_avx2_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

tmv_status tmv_gather_elements_avx2(const tmv_gather_shape *s, const uint8_t *input,
                                    const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_elements(s, input, indices, output, tmv_gx_check_table, elements_run);
}
