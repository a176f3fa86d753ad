/* gather_avx512.c - AVX-512 GATHER_ND kernels: element gathers and row copies (rows of 16 bytes or more, or 3-15 that are not one element), from offsets computed 16 tuples at a time (32-bit) or 8 (64-bit). */
#include <immintrin.h>

/* In this order, the order the code had as one file: gcc's inlining into the
 * kernels, under its growth limits, follows the order of definition. */
#include "gather_check_avx512.h"
#include "gather_row_copy_avx512.h"
#include "gather_elements64_avx512.h"
#include "gather_offsets32_avx512.h"
#include "gather_x86.h"

/* ------------------------------------------------------------ rows */

bool tmv_gather_rows_avx512_accepts(const tmv_gather_shape *s)
{
    return s->slice.rank == 0 && (s->slice.elem_bytes >= 16 || tmv_gx_short_row(s->slice.elem_bytes));
}

/* ------------------------------------------------------------ elements */

/* One block of 16 tuples of 8-byte elements (the first `left`): two 8-lane
 * gathers under the block's mask. */
static inline void block32_w8(const comp32 *c, const uint8_t *idx, __m512i base, const uint8_t *input,
                              uint8_t *out, uint64_t left, uint32_t k, tmv_dtype type, bool clamp, bool full)
{
    const __mmask16 m = full ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
    const __m512i off = offsets32(c, idx, base, left, k, type, clamp, full, NULL);
    const __m512i g0 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)m,
                                                   _mm512_castsi512_si256(off), input, 1);
    const __m512i g1 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), (__mmask8)(m >> 8),
                                                   _mm512_extracti64x4_epi64(off, 1), input, 1);
    _mm512_mask_storeu_epi64(out, (__mmask8)m, g0);
    _mm512_mask_storeu_epi64(out + 64, (__mmask8)(m >> 8), g1);
}

/* A packed run (k <= 4, a constant here) with a contiguous output of 4- or
 * 8-byte elements and 32-bit offsets. 4-byte elements: scalar loads and
 * stores, 16 at a time from a block's offsets vector (Zen 4's vpgatherdd is
 * microcode and stalls the offset work around it: r3 f32 elements at L1 size
 * went from 3.37 to 2.9 us, at L2 from 132 to 116 us). Block by block, gcc
 * reads the offsets out of the vector and the next block's offset work
 * overlaps the loads; whole chunks of 32, 64 or 256 offsets through memory
 * first took 2.8-3.9 us and 128-149 us. */
static inline void elements32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                  uint8_t *output, uint32_t k, tmv_dtype type, bool clamp)
{
    const uint64_t n = r->count;
    uint8_t *out = output + r->out_off;
    offsets32_walk ow;
    offsets32_walk_init(&ow, s, r, k, type);
    if (s->slice.elem_bytes == 4) {
        uint32_t o[16];
        uint64_t i = 0;
        for (; i + 16 <= n; i += 16, out += 64) {
            offsets32_chunk(&ow, o, 16, k, type, clamp, NULL);
            for (unsigned l = 0; l < 16; l++)
                memcpy(out + 4 * l, input + o[l], 4);
        }
        if (i < n) {
            offsets32_chunk(&ow, o, n - i, k, type, clamp, NULL);
            for (uint64_t l = 0; l < n - i; l++)
                memcpy(out + 4 * l, input + o[l], 4);
        }
        return;
    }
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16, ow.idx += ow.block_bytes, out += 128) {
        block32_w8(&ow.c, ow.idx, ow.base, input, out, 16, k, type, clamp, true);
        ow.base = _mm512_add_epi32(ow.base, ow.step16);
    }
    if (i < n)
        block32_w8(&ow.c, ow.idx, ow.base, input, out, n - i, k, type, clamp, false);
}

/* Instances per k and clamp. */
static inline void elements32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, tmv_dtype type, bool clamp)
{
    switch (s->k) {
    case 1: elements32_run(s, r, input, output, 1, type, clamp); break;
    case 2: elements32_run(s, r, input, output, 2, type, clamp); break;
    case 3: elements32_run(s, r, input, output, 3, type, clamp); break;
    default: elements32_run(s, r, input, output, 4, type, clamp); break;
    }
}

/* The vector path for one packed run: 32-bit offsets where they fit. */
static inline void elements_vector(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                   uint8_t *output, tmv_dtype type, bool fit32)
{
    if (fit32) {
        if (s->clamp)
            elements32(s, r, input, output, type, true);
        else
            elements32(s, r, input, output, type, false);
    } else if (s->clamp) {
        elements_vector_run(s, r, input, output, type, true);
    } else {
        elements_vector_run(s, r, input, output, type, false);
    }
}

void tmv_gather_elements_avx512_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gx_prepare(s, state, 64, false, offsets_fit_32(s));
}

void tmv_gather_rows_avx512_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gather_elements_avx512_prepare(s, state);
}

bool tmv_gather_elements_avx512_accepts(const tmv_gather_shape *s)
{
    return tmv_gx_elements_accepts(s);
}

bool tmv_gather_check_avx512(const tmv_gather_shape *s, const uint8_t *indices)
{
    return tmv_gx_in_range(s, indices, check_values);
}

/* One run: the vector paths take packed runs of 4- or 8-byte elements with
 * k <= 4 and a contiguous output, the scalar loads the rest. */
static inline void elements_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output)
{
    const uint64_t w = s->slice.elem_bytes;
    if ((w != 4 && w != 8) || s->k > 4 || (r->count > 1 && r->out_step != w) ||
        !tmv_gx_run_packed(s, r, tmv_gx_index_width(s))) {
        tmv_gx_elements_run(s, r, input, output);
        return;
    }
    const bool fit32 = tmv_gx_state_of(s)->fit32;
    switch (s->index_type) {
    case TMV_DTYPE_INT32: elements_vector(s, r, input, output, TMV_DTYPE_INT32, fit32); break;
    case TMV_DTYPE_INT64: elements_vector(s, r, input, output, TMV_DTYPE_INT64, fit32); break;
    case TMV_DTYPE_UINT32: elements_vector(s, r, input, output, TMV_DTYPE_UINT32, fit32); break;
    default: elements_vector(s, r, input, output, TMV_DTYPE_UINT64, fit32); break;
    }
}

tmv_status tmv_gather_elements_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                      const uint8_t *indices, uint8_t *output)
{
    return tmv_gx_elements(s, input, indices, output, check_values, elements_run);
}

/* ------------------------------------------------------------ rows, 32-bit offsets */

/* Tuples per chunk of the 32-bit row path: all offsets of a chunk are
 * computed (one vector block after the other) into a buffer before its first
 * row is copied, so the copy loop is a load and a store per 64 bytes. */
#define CHUNK32 256

/* A packed run of rows (k <= 4, a constant here) with 32-bit offsets, a
 * chunk's offsets first. No prefetch: the outputs this path takes are below
 * the stream threshold, and on Zen 4 a prefetch of a cached row cost 0.4 ns
 * (8 KiB output from a 3.2 MB table: 93 ns bare, 144 ns prefetching every
 * row first) while for 8192 rows from L3/L2 the out-of-order window already
 * overlaps the misses (1.33 vs 1.31 ns per row with a 16-row prefetch
 * distance). With check (a constant; the run is one chunk, of 32-bit
 * indices, not clamped), the indices are checked as their offsets are
 * computed: false if one is out of range, before anything is written. */
/* The rows at a chunk's offsets, in a loop per size class with the moves
 * fixed: size branches inside the loop cost more than the moves (16-byte
 * rows from a 64 KiB table, 8 KiB output: 1.43 ns a row through copy_row,
 * 0.70 in a loop of their own). */
static inline void copy_rows(uint8_t *out, uint64_t out_step, const uint8_t *input, const uint32_t *o,
                             uint64_t count, uint64_t bytes)
{
    if (bytes == 64)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            _mm512_storeu_si512(out, _mm512_loadu_si512(input + o[i]));
    else if (bytes == 16)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            _mm_storeu_si128((__m128i *)(void *)out, _mm_loadu_si128((const __m128i *)(const void *)(input + o[i])));
    else if (bytes < 16)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            tmv_gx_copy_short(out, input + o[i], bytes);
    else if (bytes <= 32)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            copy_pair16(out, input + o[i], bytes);
    else if (bytes < 64)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            copy_pair32(out, input + o[i], bytes);
    else
        for (uint64_t i = 0; i < count; i++, out += out_step)
            copy_row(out, input + o[i], bytes);
}

static inline bool rows32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, uint32_t k, tmv_dtype type, bool clamp, uint64_t bytes,
                              bool check)
{
    const uint64_t n = r->count, out_step = r->out_step;
    uint8_t *out = output + r->out_off;
    offsets32_walk ow;
    offsets32_walk_init(&ow, s, r, k, type);
    uint32_t o[CHUNK32];
    __mmask16 bad = 0;
    for (uint64_t first = 0; first < n; first += CHUNK32) {
        const uint64_t count = n - first < CHUNK32 ? n - first : CHUNK32;
        offsets32_chunk(&ow, o, count, k, type, clamp, check ? &bad : NULL);
        if (bad != 0)
            return false;
        copy_rows(out, out_step, input, o, count, bytes);
        out += count * out_step;
    }
    return true;
}

static inline bool rows32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                          uint8_t *output, tmv_dtype type, bool clamp, bool check)
{
    const uint64_t bytes = s->slice.elem_bytes;
    switch (s->k) {
    case 1: return rows32_run(s, r, input, output, 1, type, clamp, bytes, check);
    case 2: return rows32_run(s, r, input, output, 2, type, clamp, bytes, check);
    case 3: return rows32_run(s, r, input, output, 3, type, clamp, bytes, check);
    default: return rows32_run(s, r, input, output, 4, type, clamp, bytes, check);
    }
}

/* check as for rows32_run: only for 32-bit index types, without clamping. */
static inline bool rows32_typed(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output, bool check)
{
    switch (s->index_type) {
    case TMV_DTYPE_INT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_INT32, false, true)
                     : rows32(s, r, input, output, TMV_DTYPE_INT32, s->clamp, false);
    case TMV_DTYPE_UINT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_UINT32, false, true)
                     : rows32(s, r, input, output, TMV_DTYPE_UINT32, s->clamp, false);
    case TMV_DTYPE_INT64: return rows32(s, r, input, output, TMV_DTYPE_INT64, s->clamp, false);
    default: return rows32(s, r, input, output, TMV_DTYPE_UINT64, s->clamp, false);
    }
}

tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output)
{
    /* Outputs below the stream threshold with k <= 4 and 32-bit offsets
     * (embedding lookups): vector offsets; the rest, the shared row loop. */
    if (s->k <= 4 && tmv_gx_output_bytes(s) < s->tuning->stream_threshold && tmv_gx_state_of(s)->fit32) {
        tmv_gx_iter it;
        tmv_gx_iter_init(&it, s, indices);
        /* One packed run of 32-bit indices that fits a chunk (8 KiB of
         * 64-byte rows): checked along with its offsets, so the indices are
         * read once; 64-byte rows of an 8 KiB output went from 160 to
         * 134 ns (0.49 to 0.58 x memcpy). */
        if (!s->clamp && !s->checked && s->pos_rank == 1 && it.run.count <= CHUNK32 &&
            tmv_gx_index_width(s) == 4 && tmv_gx_run_packed(s, &it.run, 4))
            return rows32_typed(s, &it.run, input, output, true) ? TMV_OK
                                                                  : tmv_gather_check(s, indices);
        tmv_status status = tmv_gx_check(s, indices, check_values);
        if (status != TMV_OK)
            return status;
        do {
            const tmv_gx_run *r = &it.run;
            if (tmv_gx_run_packed(s, r, tmv_gx_index_width(s)))
                rows32_typed(s, r, input, output, false);
            else
                tmv_gx_copy_run(s, r, input, output, s->slice.elem_bytes, s->tuning->gather_prefetch,
                                TMV_GX_ROW_LINES, copy_row);
        } while (tmv_gx_iter_next(&it, s));
        return TMV_OK;
    }
    /* One call site: a second one for short rows changed the inlining, and 256-byte rows
     * streamed from DRAM lost 16% (zoo DLRM, 1.6 -> 1.9 ms). */
    return tmv_gx_rows_fenced(s, input, indices, output, s->slice.elem_bytes < 64 ? 16 : 64, check_values,
                              copy_row, stream_row);
}
