/* vec_x86.h - the vector of the kernel set being built (tmv_v) and its width-generic loads, stores, masks and two-source permutes.
 *
 * The including file defines exactly one of TMV_VEC_SSE2, TMV_VEC_AVX2,
 * TMV_VEC_AVX512 or TMV_VEC_AVX512VBMI (the set it is compiled for). Every
 * x86 template (the interleave, fill and transpose headers) takes its vector
 * from here. The
 * same intrinsic names exist at 128, 256 and 512 bits (MM(packus_epi16) is
 * _mm_, _mm256_ or _mm512_packus_epi16), so one body serves all sets. */
#ifndef TMV_VEC_X86_H
#define TMV_VEC_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(TMV_VEC_AVX512VBMI)
#define TMV_VEC_AVX512
#endif

#if defined(TMV_VEC_AVX512)
typedef __m512i tmv_v;
#define TMV_VB 64
#define MM(op) _mm512_##op
#define TMV_SI(op) _mm512_##op##_si512
#define TMV_CAST_PS(v) _mm512_castsi512_ps(v)
#define TMV_CAST_SI(v) _mm512_castps_si512(v)
#define TMV_MASKED 1      /* byte-masked loads and stores for row tails */
#define TMV_PERM2 1       /* two-source full-vector permutes */
#elif defined(TMV_VEC_AVX2)
typedef __m256i tmv_v;
#define TMV_VB 32
#define MM(op) _mm256_##op
#define TMV_SI(op) _mm256_##op##_si256
#define TMV_CAST_PS(v) _mm256_castsi256_ps(v)
#define TMV_CAST_SI(v) _mm256_castps_si256(v)
#elif defined(TMV_VEC_SSE2)
typedef __m128i tmv_v;
#define TMV_VB 16
#define MM(op) _mm_##op
#define TMV_SI(op) _mm_##op##_si128
#define TMV_CAST_PS(v) _mm_castsi128_ps(v)
#define TMV_CAST_SI(v) _mm_castps_si128(v)
#else
#error "define the kernel set (TMV_VEC_<SET>) before including vec_x86.h or a template that uses it"
#endif

static inline tmv_v v_load(const uint8_t *p) { return TMV_SI(loadu)((const tmv_v *)(const void *)p); }
static inline void v_store(uint8_t *p, tmv_v v) { TMV_SI(storeu)((tmv_v *)(void *)p, v); }
/* A non-temporal store (p vector-aligned). */
static inline void v_stream(uint8_t *p, tmv_v v) { TMV_SI(stream)((tmv_v *)(void *)p, v); }

#if defined(TMV_PERM2)
/* A two-source index vector of elements of w bytes: element i is f[i]. Only
 * the B = 3 tables are built this way (a scalar loop per call). */
static inline tmv_v v_index(const uint16_t *f, size_t w)
{
    uint8_t bytes[64];
    for (size_t i = 0; i < 64 / w; i++) {
        uint64_t value = f[i];
        memcpy(bytes + i * w, &value, w);   /* little-endian: the low w bytes */
    }
    return v_load(bytes);
}

static inline tmv_v v_perm2(tmv_v a, tmv_v idx, tmv_v b, size_t w)
{
    switch (w) {
#if defined(TMV_VEC_AVX512VBMI)
    case 1: return _mm512_permutex2var_epi8(a, idx, b);
#endif
    case 2: return _mm512_permutex2var_epi16(a, idx, b);
    case 4: return _mm512_permutex2var_epi32(a, idx, b);
    default: return _mm512_permutex2var_epi64(a, idx, b);
    }
}

/* Uses the two-source permutes for width w (else lane-local shuffles). */
static inline bool v_use_perm2(size_t w)
{
#if defined(TMV_VEC_AVX512VBMI)
    (void)w;
    return true;
#else
    return w >= 2;
#endif
}

static inline tmv_v v_add(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return _mm512_add_epi8(a, b);
    case 2: return _mm512_add_epi16(a, b);
    case 4: return _mm512_add_epi32(a, b);
    default: return _mm512_add_epi64(a, b);
    }
}

static inline tmv_v v_set1(uint64_t x, size_t w)
{
    switch (w) {
    case 1: return _mm512_set1_epi8((char)x);
    case 2: return _mm512_set1_epi16((short)x);
    case 4: return _mm512_set1_epi32((int)x);
    default: return _mm512_set1_epi64((long long)x);
    }
}

/* Element i = i, at width w: widened from one constant byte ramp, so the
 * index vectors cost a few instructions per call instead of table loops. */
static inline tmv_v v_iota(size_t w)
{
    static const uint8_t ramp[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
    switch (w) {
    case 1: return v_load(ramp);
    case 2: return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)ramp));
    case 4: return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)ramp));
    default: return _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(const void *)ramp));
    }
}
#endif

#if defined(TMV_MASKED)
static inline __mmask64 v_mask(uint64_t bytes)
{
    return bytes >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << bytes) - 1;
}
#endif

#endif
