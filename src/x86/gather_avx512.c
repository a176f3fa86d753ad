/* gather_avx512.c - AVX-512 GATHER_ND kernels: element gathers and row copies (rows of 16 bytes or more, or 3-15 that are not one element), from offsets computed 16 tuples at a time (32-bit) or 8 (64-bit). */
#include <immintrin.h>

/* In this order, the order the code had as one file: gcc's inlining into the
 * kernels, under its growth limits, follows the order of definition. */
#include "gather_check_avx512.h"
#include "gather_row_copy_avx512.h"
#include "gather_elements64_avx512.h"
#include "gather_offsets32_avx512.h"
#include "gather_x86.h"
#include "gather_elements_x86.h"

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
    tmv_gx_prepare(s, state, 64, false, tmv_gx_offsets_fit_32(s));
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

/* The offsets of two chunks, the current one and the next: row j of a run
 * at ring[j % RING32]. */
#define RING32 (2 * CHUNK32)

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
            tmv_move_run(out, input + o[i], bytes);
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

/* The same with non-temporal stores (the caller checked the destinations
 * and the size, as for stream_row). */
static inline void stream_rows(uint8_t *out, uint64_t out_step, const uint8_t *input, const uint32_t *o,
                               uint64_t count, uint64_t bytes)
{
    if (bytes == 16)
        for (uint64_t i = 0; i < count; i++, out += out_step)
            _mm_stream_si128((__m128i *)(void *)out, _mm_loadu_si128((const __m128i *)(const void *)(input + o[i])));
    else
        for (uint64_t i = 0; i < count; i++, out += out_step)
            stream_row(out, input + o[i], bytes);
}

/* Rows copied between two prefetch passes: few enough that a pass runs
 * well ahead of the rows it fetches, enough that the size dispatch of
 * copy_rows is paid rarely. */
#define PREFETCH_GROUP 16

/* Rows pos..end of a run of n at the ring's offsets, stored plainly or
 * streamed, the rows `ahead` rows on (0: none; their first lines, as
 * tmv_gx_copy_run's) fetched a group at a time before each group is
 * copied. */
static inline void copy_rows_ahead(uint8_t *out, uint64_t out_step, const uint8_t *input, const uint32_t *ring,
                                   uint64_t pos, uint64_t end, uint64_t n, uint64_t bytes, bool stream,
                                   uint64_t ahead)
{
    const unsigned lines = (bytes + 63) / 64 < TMV_GX_ROW_LINES ? (unsigned)((bytes + 63) / 64) : TMV_GX_ROW_LINES;
    const uint64_t group = ahead != 0 ? PREFETCH_GROUP : end - pos;
    for (uint64_t g = pos; g < end; g += group) {
        const uint64_t count = end - g < group ? end - g : group;
        for (uint64_t j = g + ahead; ahead != 0 && j < g + ahead + count && j < n; j++)
            for (unsigned l = 0; l < lines; l++)
                _mm_prefetch((const char *)(input + ring[j % RING32] + 64 * l), _MM_HINT_T0);
        if (stream)
            stream_rows(out, out_step, input, ring + g % RING32, count, bytes);
        else
            copy_rows(out, out_step, input, ring + g % RING32, count, bytes);
        out += count * out_step;
    }
}

/* A packed run of rows (k <= 4, a constant here) with 32-bit offsets, a
 * chunk's offsets first. No prefetch: this path takes the outputs below the
 * stream threshold, and on Zen 4 a prefetch of a cached row cost 0.4 ns
 * (8 KiB output from a 3.2 MB table: 93 ns bare, 144 ns prefetching every
 * row first) while for 8192 rows from L3/L2 the out-of-order window already
 * overlaps the misses (1.33 vs 1.31 ns per row with a 16-row prefetch
 * distance). With check (a constant; the run is one chunk, not clamped),
 * the indices are checked as their offsets are
 * computed: false if one is out of range, before anything is written. */
static inline bool rows32_chunks(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
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

/* The same for an output past the stream threshold, unchecked: streamed
 * where stream says, the row `ahead` rows on prefetched (0: none; at most
 * CHUNK32), for which the next chunk's offsets are computed before the
 * current chunk's rows are copied. Never inlined, so that rows32_chunks
 * stays as it was: inlined together, they moved 8 KiB gathers of 64-byte or
 * 16-byte rows by 10-20% (65 -> 74-77 ns, 250 -> 282 ns), through the
 * code's and the stack's layout. */
__attribute__((noinline)) static void rows32_big(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output, uint32_t k, tmv_dtype type, bool clamp, uint64_t bytes,
                                bool stream, uint64_t ahead)
{
    const uint64_t n = r->count, out_step = r->out_step;
    uint8_t *out = output + r->out_off;
    offsets32_walk ow;
    offsets32_walk_init(&ow, s, r, k, type);
    uint32_t ring[RING32];
    offsets32_chunk(&ow, ring, n < CHUNK32 ? n : CHUNK32, k, type, clamp, NULL);
    for (uint64_t first = 0; first < n; first += CHUNK32) {
        const uint64_t end = n - first < CHUNK32 ? n : first + CHUNK32, next = first + CHUNK32;
        if (next < n)
            offsets32_chunk(&ow, ring + next % RING32, n - next < CHUNK32 ? n - next : CHUNK32, k, type, clamp,
                            NULL);
        copy_rows_ahead(out, out_step, input, ring, first, end, n, bytes, stream, ahead);
        out += (end - first) * out_step;
    }
}

/* rows32_chunks, or rows32_big for an output past the stream threshold
 * (big) when no check is asked. */
static inline bool rows32_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                              uint8_t *output, uint32_t k, tmv_dtype type, bool clamp, uint64_t bytes,
                              bool check, bool big, bool stream, uint64_t ahead)
{
    if (!big || check)
        return rows32_chunks(s, r, input, output, k, type, clamp, bytes, check);
    rows32_big(s, r, input, output, k, type, clamp, bytes, stream, ahead);
    return true;
}

static inline bool rows32(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                          uint8_t *output, tmv_dtype type, bool clamp, bool check, bool big, bool stream, uint64_t ahead)
{
    const uint64_t bytes = s->slice.elem_bytes;
    switch (s->k) {
    case 1: return rows32_run(s, r, input, output, 1, type, clamp, bytes, check, big, stream, ahead);
    case 2: return rows32_run(s, r, input, output, 2, type, clamp, bytes, check, big, stream, ahead);
    case 3: return rows32_run(s, r, input, output, 3, type, clamp, bytes, check, big, stream, ahead);
    default: return rows32_run(s, r, input, output, 4, type, clamp, bytes, check, big, stream, ahead);
    }
}

/* check as for rows32_run: without clamping. */
static inline bool rows32_typed(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input,
                                uint8_t *output, bool check, bool big, bool stream, uint64_t ahead)
{
    switch (s->index_type) {
    case TMV_DTYPE_INT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_INT32, false, true, big, stream, ahead)
                     : rows32(s, r, input, output, TMV_DTYPE_INT32, s->clamp, false, big, stream, ahead);
    case TMV_DTYPE_UINT32:
        return check ? rows32(s, r, input, output, TMV_DTYPE_UINT32, false, true, big, stream, ahead)
                     : rows32(s, r, input, output, TMV_DTYPE_UINT32, s->clamp, false, big, stream, ahead);
    case TMV_DTYPE_INT64:
        return check ? rows32(s, r, input, output, TMV_DTYPE_INT64, false, true, big, stream, ahead)
                     : rows32(s, r, input, output, TMV_DTYPE_INT64, s->clamp, false, big, stream, ahead);
    default:
        return check ? rows32(s, r, input, output, TMV_DTYPE_UINT64, false, true, big, stream, ahead)
                     : rows32(s, r, input, output, TMV_DTYPE_UINT64, s->clamp, false, big, stream, ahead);
    }
}

/* How many rows ahead a gather with an output past the stream threshold,
 * from a table beyond L2, prefetches: TMV_GX_AHEAD_BYTES of rows, from the
 * tuning's distance (0: none) up to a chunk. Small rows take little time
 * each, so more of them cover the table's latency: 64 MiB of 16-byte rows
 * from a 16 MiB table took 23.4 ms 16 rows ahead, 14.8 at 32 and 11.2 at
 * 64; 64-byte rows 5.6, 4.3, 4.0; 256-byte rows 2.15, 1.89, 2.14 (one run
 * each, the shared row loop under TENSORMOVE_GATHER_PREFETCH). Outputs that
 * stay in cache gain nothing: their misses overlap in the out-of-order
 * window (see rows32_chunks). */
#define TMV_GX_AHEAD_BYTES 8192
static inline uint64_t rows_ahead(uint64_t bytes, uint32_t least)
{
    if (least == 0)
        return 0;
    const uint64_t rows = TMV_GX_AHEAD_BYTES / bytes;
    return rows < least ? least : rows > CHUNK32 ? CHUNK32 : rows;
}

/* As the elements' prepare, and the rows' prefetch distance for outputs
 * past the stream threshold (rows_ahead): none when every slice the gather
 * can read fits the L2 cache (tuning's cache_bytes[1]; 1 MiB where none is
 * reported), whose rows the out-of-order window overlaps already. */
void tmv_gather_rows_avx512_prepare(const tmv_gather_shape *s, void *state)
{
    tmv_gather_elements_avx512_prepare(s, state);
    const uint64_t l2 = s->tuning->cache_bytes[1] ? s->tuning->cache_bytes[1] : (uint64_t)1 << 20;
    tmv_gx_state *st = state;
    st->ahead = tmv_gx_table_span(s) > l2 ? (uint32_t)rows_ahead(s->slice.elem_bytes, s->tuning->gather_prefetch) : 0;
}

tmv_status tmv_gather_rows_avx512(const tmv_gather_shape *s, const uint8_t *input,
                                  const uint8_t *indices, uint8_t *output)
{
    const tmv_gx_state *st = tmv_gx_state_of(s);
    const uint64_t bytes = s->slice.elem_bytes;
    const bool big = tmv_gx_output_bytes(s) >= s->tuning->stream_threshold;
    /* k <= 4 and 32-bit offsets (embedding lookups): vector offsets; past
     * the stream threshold only rows that stream (a size stream_row takes)
     * and are shorter than TMV_GX_BIG_ROW. The rest: the shared row loop
     * (64 MiB of 100-byte rows from a 16 MiB table: 4.0 ms there, 5.0 here
     * with plain stores). */
    const bool streams = bytes % (bytes < 64 ? 16 : 64) == 0 && bytes < TMV_GX_BIG_ROW;
    if (s->k <= 4 && st->fit32 && (!big || streams)) {
        const uint64_t ahead = big ? st->ahead : 0;
        tmv_gx_iter it;
        tmv_gx_iter_init(&it, s, indices);
        /* One packed run of indices that fits a chunk (8 KiB of 64-byte
         * rows): checked along with its offsets, so the indices are read
         * once; 64-byte rows of an 8 KiB output went from 160 to 134 ns
         * (0.49 to 0.58 x memcpy). 64-bit indices too: one 8 KiB row took
         * 80 ns with a pass of its own for the check, 58 with 32-bit ones. */
        if (!s->clamp && !s->checked && s->pos_rank == 1 && it.run.count <= CHUNK32 &&
            tmv_gx_run_packed(s, &it.run, tmv_gx_index_width(s))) {
            const bool stream = tmv_gx_run_streams(&it.run, output, bytes, bytes < 64 ? 16 : 64, big);
            const bool ok = rows32_typed(s, &it.run, input, output, true, big, stream, ahead);
            if (stream)
                _mm_sfence();
            return ok ? TMV_OK : tmv_gather_check(s, indices);
        }
        tmv_status status = tmv_gx_check(s, indices, check_values);
        if (status != TMV_OK)
            return status;
        bool streamed = false;
        do {
            const tmv_gx_run *r = &it.run;
            if (tmv_gx_run_packed(s, r, tmv_gx_index_width(s))) {
                const bool stream = tmv_gx_run_streams(r, output, bytes, bytes < 64 ? 16 : 64, big);
                rows32_typed(s, r, input, output, false, big, stream, ahead);
                streamed |= stream;
            } else {
                tmv_gx_copy_run(s, r, input, output, bytes, s->tuning->gather_prefetch,
                                TMV_GX_ROW_LINES, copy_row);
            }
        } while (tmv_gx_iter_next(&it, s));
        if (streamed)
            _mm_sfence();
        return TMV_OK;
    }
    /* One call site: a second one for short rows changed the inlining, and 256-byte rows
     * streamed from DRAM lost 16% (zoo DLRM, 1.6 -> 1.9 ms). */
    return tmv_gx_rows_fenced(s, input, indices, output, bytes < 64 ? 16 : 64, check_values,
                              copy_row, stream_row);
}
