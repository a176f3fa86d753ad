/* fill_expand_avx512vbmi.c - AVX-512 VBMI expansion of short repeats: each element of a row repeated r times, r * w a power of two up to 64 bytes, one vpermb per output vector.
 *
 * TILE's column broadcasts ({.., X, 1} -> {.., X, r}) repeat every element a
 * few times. The fill kernels fill each element's run on its own (a row of
 * 64 bytes cost about 3.5 ns in fill_pow2/avx2: tmv-check-kernels
 * --calibrate) and the interleave kernels read the same row r times; here
 * every output vector is one permute of the 64 / r input bytes it expands.
 * Its row sits after the kernels that stream, for the cost model to take
 * below the stream threshold; but where the CPU reports an L3 far larger
 * than one core's share (260 MiB on an Intel Xeon VM), the model prices
 * steps past the threshold as L3 and takes it there too. So past the
 * threshold a row that starts on a vector boundary is stored streaming
 * (every vector but a masked last one is whole and aligned): TILE 3d
 * 4x1 by {2, 2, 1} f64 at 64 MiB ran 0.82 x best copy with plain stores. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"

/* The shape: inner dim r >= 2 copies of an element (source stride 0,
 * destination stride w), the dim outside it X elements, contiguous in the
 * source and in groups of r * w bytes in the destination. */
bool tmv_fill_expand_avx512vbmi_accepts(const tmv_copy_shape *s)
{
    if (s->rank < 2)
        return false;
    const uint32_t in = s->rank - 1, x = s->rank - 2;
    const uint64_t w = s->elem_bytes, group = s->sizes[in] * w;
    return s->sizes[in] >= 2 && s->src_strides[in] == 0 && s->dst_strides[in] == w && s->src_strides[x] == w &&
           s->dst_strides[x] == group && group <= 64 && (group & (group - 1)) == 0;
}

/* Byte i of an output vector comes from input byte (i / group) * w + i % w
 * (group and w powers of two, so shifts and masks; on 16-bit lanes, each
 * byte masked after the shift so its neighbour's bits do not leak in). */
static __m512i expand_index(unsigned group_log2, unsigned w_log2)
{
    static const uint8_t iota[64] __attribute__((aligned(64))) = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
    const __m512i i = _mm512_load_si512((const void *)iota);
    const __m512i group_index = _mm512_and_si512(_mm512_srli_epi16(i, group_log2),
                                                 _mm512_set1_epi8((char)(0xFF >> group_log2)));
    const __m512i byte_in_element = _mm512_and_si512(i, _mm512_set1_epi8((char)((1u << w_log2) - 1)));
    return _mm512_or_si512(_mm512_slli_epi16(group_index, w_log2), byte_in_element);
}

/* One row: `groups` groups of `group` bytes from groups * w input bytes.
 * Each vector reads exactly the input bytes it expands (masked: nothing
 * past the row is touched) and the last one stores only what is left;
 * the whole vectors streamed if nt (a constant; dst then on a vector
 * boundary). */
__attribute__((always_inline)) static inline void expand_row(const uint8_t *src, uint8_t *dst, uint64_t groups,
                                                             uint64_t group, uint64_t w, __m512i index, bool nt)
{
    const uint64_t out_bytes = groups * group, in_step = 64 / group * w;
    uint64_t done = 0;
    const __mmask64 in_mask = _bzhi_u64(~0ull, (unsigned)in_step);
    for (; done + 64 <= out_bytes; done += 64, src += in_step) {
        const __m512i v = _mm512_permutexvar_epi8(index, _mm512_maskz_loadu_epi8(in_mask, src));
        if (nt)
            _mm512_stream_si512((void *)(dst + done), v);
        else
            _mm512_storeu_si512((void *)(dst + done), v);
    }
    if (done < out_bytes) {
        const uint64_t left = out_bytes - done, in_left = left / group * w;
        const __m512i v = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)in_left), src);
        _mm512_mask_storeu_epi8(dst + done, _bzhi_u64(~0ull, (unsigned)left), _mm512_permutexvar_epi8(index, v));
    }
}

/* The rows stream where they start on a line: with a line-aligned
 * destination, where the strides of the dims outside them are whole lines
 * (and a row is at least one). */
bool tmv_fill_expand_avx512vbmi_streams(const tmv_copy_shape *s)
{
    const uint32_t x = s->rank - 2;
    for (uint32_t d = 0; d < x; d++)
        if (s->dst_strides[d] % 64 != 0)
            return false;
    return s->sizes[x] * s->sizes[s->rank - 1] * s->elem_bytes >= 64;
}

void tmv_fill_expand_avx512vbmi(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst)
{
    const uint32_t in = s->rank - 1, x = s->rank - 2;
    const uint64_t w = s->elem_bytes, group = s->sizes[in] * w;
    const __m512i index = expand_index((unsigned)__builtin_ctzll(group), (unsigned)__builtin_ctzll(w));
    const bool stream = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    bool streamed = false;
    tmv_walk walk;
    tmv_walk_init(&walk, s, x);
    do {
        uint8_t *row = dst + walk.dst;
        if (stream && ((uintptr_t)row & 63) == 0) {
            expand_row(src + walk.src, row, s->sizes[x], group, w, index, true);
            streamed = true;
        } else {
            expand_row(src + walk.src, row, s->sizes[x], group, w, index, false);
        }
    } while (tmv_walk_next(&walk));
    if (streamed)
        _mm_sfence();
}
