/* gather_x86.h - static inline helpers of the x86 GATHER_ND kernels: the index-check tables, offset resolution and the tuple-run driver. */
#ifndef TMV_GATHER_X86_H
#define TMV_GATHER_X86_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <emmintrin.h> /* _mm_sfence, _mm_stream_si128 */

#include "../gather_check.h"
#include "../gather_index.h"
#include "../gather_walk.h"
#include "../kernels.h"
#include "../move_run.h"

/* ------------------------------------------------------------ index check */

/* The vector check compares lane i of the index stream with the bounds of
 * component i % k. Unsigned indices are compared signed after flipping their
 * sign bit (flip), with the bounds flipped alike, so one signed
 * "lo <= x <= hi" serves all four types. klo/khi hold the k components'
 * bounds; kernels that compare against table rows (SSE2, AVX2) also get them
 * laid out over lcm(k, lanes) entries so that every vector starts at a
 * multiple of `lanes` in the table. */
#define TMV_GX_TABLE_MAX 128   /* lcm(k <= 8, lanes <= 16) is at most 112 */
typedef struct tmv_gx_bounds {
    uint32_t period;           /* table entries: lcm(k, lanes) */
    uint32_t width;            /* index bytes, 4 or 8 */
    uint32_t k;
    uint64_t flip;             /* sign bit of the index width for unsigned types, else 0 */
    union {
        int32_t i32[TMV_GX_TABLE_MAX];
        int64_t i64[TMV_GX_TABLE_MAX];
    } lo, hi;
    /* after the table: placed first, they slowed AVX2 64-byte rows by 8-10%
     * (the callers' stack frames move with this struct) */
    int64_t  klo[TMV_MAX_DIMS], khi[TMV_MAX_DIMS];
} tmv_gx_bounds;

static inline uint32_t tmv_gx_gcd(uint32_t a, uint32_t b)
{
    while (b != 0) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Fills the bounds for `lanes` indices per vector, once per operator (the
 * kernels' prepare), the table only if asked (the AVX-512 check compares
 * lane-wise minima and maxima with klo/khi and needs none).
 * Needs every dim size > 0 (a dim of size 0 rejects everything; the caller
 * leaves that to the portable check). */
static inline void tmv_gx_bounds_init(tmv_gx_bounds *b, const tmv_gather_shape *s, uint32_t lanes,
                                      bool table)
{
    const bool is_signed = s->index_type == TMV_DTYPE_INT32 || s->index_type == TMV_DTYPE_INT64;
    b->width = s->index_type == TMV_DTYPE_INT32 || s->index_type == TMV_DTYPE_UINT32 ? 4 : 8;
    b->k = s->k;
    b->period = s->k / tmv_gx_gcd(s->k, lanes) * lanes;
    const uint64_t sign = b->width == 4 ? UINT64_C(1) << 31 : UINT64_C(1) << 63;
    b->flip = is_signed ? 0 : sign;
    for (uint32_t j = 0; j < s->k; j++) {
        const uint64_t n = s->dim_sizes[j];
        /* bounds in the index's own value range, then flipped */
        if (is_signed) {
            const int64_t min = b->width == 4 ? INT32_MIN : INT64_MIN;
            const int64_t max = b->width == 4 ? INT32_MAX : INT64_MAX;
            b->klo[j] = -(int64_t)n < min ? min : -(int64_t)n;   /* n < 2^32: no overflow */
            b->khi[j] = (int64_t)(n - 1) > max ? max : (int64_t)(n - 1);
        } else {
            const uint64_t max = b->width == 4 ? UINT32_MAX : UINT64_MAX;
            b->klo[j] = (int64_t)sign;   /* 0, flipped */
            b->khi[j] = (int64_t)((n - 1 > max ? max : n - 1) ^ sign);
        }
    }
    if (!table)
        return;
    for (uint32_t i = 0, j = 0; i < b->period; i++, j = j + 1 == s->k ? 0 : j + 1) {
        if (b->width == 4) {
            b->lo.i32[i] = (int32_t)(uint32_t)(uint64_t)b->klo[j];
            b->hi.i32[i] = (int32_t)(uint32_t)(uint64_t)b->khi[j];
        } else {
            b->lo.i64[i] = b->klo[j];
            b->hi.i64[i] = b->khi[j];
        }
    }
}

/* Scalar check of values [first, count) of a contiguous index stream whose
 * value 0 is component 0 (vector tails). True if all are in range. */
static inline bool tmv_gx_check_tail(const tmv_gx_bounds *b, const uint8_t *p, uint64_t first,
                                     uint64_t count)
{
    bool ok = true;
    for (uint64_t i = first; i < count; i++) {
        const uint32_t j = (uint32_t)(i % b->k);
        if (b->width == 4) {
            uint32_t x;
            memcpy(&x, p + i * 4, 4);
            const int32_t v = (int32_t)(x ^ (uint32_t)b->flip);
            ok &= v >= (int32_t)b->klo[j] && v <= (int32_t)b->khi[j];
        } else {
            uint64_t x;
            memcpy(&x, p + i * 8, 8);
            const int64_t v = (int64_t)(x ^ b->flip);
            ok &= v >= b->klo[j] && v <= b->khi[j];
        }
    }
    return ok;
}

/* ------------------------------------------------------------ tuple runs */

/* One run of tuples along the innermost position dim. */
typedef struct tmv_gx_run {
    const uint8_t *idx;       /* the first tuple's first index */
    uint64_t       idx_step;  /* bytes from one tuple's indices to the next's */
    uint64_t       in_base;   /* input offset of the first tuple's batch */
    uint64_t       in_step;   /* and from one tuple's batch to the next's (0 unless batched) */
    uint64_t       out_off;   /* output offset of the first tuple's slice */
    uint64_t       out_step;
    uint64_t       count;
} tmv_gx_run;

/* Steps through the runs: the outer position dims as an odometer. */
typedef struct tmv_gx_iter {
    tmv_gx_run     run;
    const uint8_t *indices;
    uint64_t       pos[TMV_MAX_DIMS];
    uint64_t       idx_off;
} tmv_gx_iter;

static inline void tmv_gx_iter_init(tmv_gx_iter *it, const tmv_gather_shape *s, const uint8_t *indices)
{
    const uint32_t inner = s->pos_rank - 1;
    memset(it->pos, 0, sizeof it->pos);
    it->indices = indices;
    it->idx_off = 0;
    it->run = (tmv_gx_run){indices, s->pos_index_strides[inner], 0, s->pos_input_strides[inner], 0,
                           s->pos_output_strides[inner], s->pos_sizes[inner]};
}

/* Moves to the next run; false after the last. */
static inline bool tmv_gx_iter_next(tmv_gx_iter *it, const tmv_gather_shape *s)
{
    for (uint32_t d = s->pos_rank - 1; d-- > 0;) {
        if (++it->pos[d] < s->pos_sizes[d]) {
            it->idx_off += s->pos_index_strides[d];
            it->run.in_base += s->pos_input_strides[d];
            it->run.out_off += s->pos_output_strides[d];
            it->run.idx = it->indices + it->idx_off;
            return true;
        }
        it->idx_off -= s->pos_index_strides[d] * (s->pos_sizes[d] - 1);
        it->run.in_base -= s->pos_input_strides[d] * (s->pos_sizes[d] - 1);
        it->run.out_off -= s->pos_output_strides[d] * (s->pos_sizes[d] - 1);
        it->pos[d] = 0;
    }
    return false;
}

/* The run's indices form one contiguous stream of count * k values. */
static inline bool tmv_gx_run_packed(const tmv_gather_shape *s, const tmv_gx_run *r, uint64_t width)
{
    /* a size-1 dim has stride 0: k == 1 has any index_stride */
    return (s->k == 1 || s->index_stride == width) && (r->count == 1 || r->idx_step == s->k * width);
}

/* Bytes of one index of this type. */
static inline uint64_t tmv_gx_type_width(tmv_dtype type)
{
    return type == TMV_DTYPE_INT32 || type == TMV_DTYPE_UINT32 ? 4 : 8;
}

static inline uint64_t tmv_gx_index_width(const tmv_gather_shape *s) { return tmv_gx_type_width(s->index_type); }

/* Whether every tuple's indices, over all the runs, form one contiguous
 * stream (*tuples of them): then the check is one pass over it, not one per
 * run (batch gathers run once per batch; 8 batches of 8 rows spent about a
 * tenth of their time setting up per-run checks). Worked out at each call,
 * not at prepare: a parallel execute checks parts of the shape (task.c,
 * check_box) with the whole plan's state, and a part's tuples are fewer. */
static inline bool tmv_gx_all_packed(const tmv_gather_shape *s, uint64_t *tuples)
{
    const uint64_t width = tmv_gx_index_width(s);
    const uint32_t inner = s->pos_rank - 1;
    if (!(s->k == 1 || s->index_stride == width))
        return false;
    uint64_t n = s->pos_sizes[inner], bytes = s->k * width;
    if (n > 1 && s->pos_index_strides[inner] != bytes)
        return false;
    for (uint32_t d = inner; d-- > 0;) {
        if (s->pos_sizes[d] > 1 && s->pos_index_strides[d] != n * bytes)
            return false;
        n *= s->pos_sizes[d];
    }
    *tuples = n;
    return true;
}

/* A dim of size 0 rejects every index; the portable check names the first. */
static inline bool tmv_gx_has_empty_dim(const tmv_gather_shape *s)
{
    for (uint32_t j = 0; j < s->k; j++)
        if (s->dim_sizes[j] == 0)
            return true;
    return false;
}

/* The bytes from the first to the past-the-last byte any slice of the
 * gather can read (saturating; 0 when an indexed dim is empty). */
static inline uint64_t tmv_gx_table_span(const tmv_gather_shape *s)
{
    uint64_t span = tmv_shape_bytes(&s->slice);
    for (uint32_t d = 0; d < s->pos_rank + s->k; d++) {
        const bool pos = d < s->pos_rank;
        const uint64_t n = pos ? s->pos_sizes[d] : s->dim_sizes[d - s->pos_rank];
        const uint64_t stride = pos ? s->pos_input_strides[d] : s->dim_strides[d - s->pos_rank];
        if (n == 0)
            return 0;
        if (stride != 0 && (n - 1 > (UINT64_MAX - span) / stride))
            return UINT64_MAX;
        span += (n - 1) * stride;
    }
    return span;
}

/* Checks count values of a contiguous index stream against b; true if all
 * are in range. One per kernel set. */
typedef bool (*tmv_gx_check_fn)(const tmv_gx_bounds *b, const uint8_t *p, uint64_t count);

/* Checks one run; true if all its indices are in range. */
static inline bool tmv_gx_check_run(const tmv_gather_shape *s, const tmv_gx_run *r,
                                    const tmv_gx_bounds *b, tmv_gx_check_fn values)
{
    if (tmv_gx_run_packed(s, r, b->width))
        return values(b, r->idx, r->count * s->k);
    bool ok = true;   /* strided indices: one at a time */
    for (uint64_t i = 0; i < r->count; i++)
        for (uint32_t j = 0; j < s->k; j++) {
            uint64_t pos;
            ok &= tmv_resolve_index(r->idx + i * r->idx_step + j * s->index_stride, s->index_type,
                                    s->dim_sizes[j], false, &pos);
        }
    return ok;
}

/* Whether every input offset the gather can form, plus its element, fits
 * int32 (false with an empty dim: nothing to gather from). */
static inline bool tmv_gx_offsets_fit_32(const tmv_gather_shape *s)
{
    uint64_t max = s->slice.elem_bytes;
    for (uint32_t d = 0; d < s->pos_rank + s->k; d++) {
        const bool pos = d < s->pos_rank;
        const uint64_t n = pos ? s->pos_sizes[d] : s->dim_sizes[d - s->pos_rank];
        const uint64_t stride = pos ? s->pos_input_strides[d] : s->dim_strides[d - s->pos_rank];
        if (n == 0 || n > INT32_MAX || stride > INT32_MAX)   /* and no overflow below */
            return false;
        max += (n - 1) * stride;
    }
    return max <= INT32_MAX;
}

/* The x86 gather kernels' state (kernels.h), built once at create: the
 * check's bounds for the set's vectors, and whether every input offset fits
 * 32 bits (AVX-512's vector offsets). */
typedef struct tmv_gx_state {
    tmv_gx_bounds bounds;   /* set when the indices are checked and no indexed dim is empty */
    bool          fit32;
    /* AVX-512's row gather: rows prefetched ahead on an output past the
     * stream threshold (0: none), set by its prepare (gather_avx512.c,
     * rows_ahead). */
    uint32_t      ahead;
} tmv_gx_state;
_Static_assert(sizeof(tmv_gx_state) <= TMV_KERNEL_STATE_BYTES, "gather state exceeds the kernel state");

/* The prepare of a set with vectors of vbytes bytes, its check reading the
 * bounds table if `table` (see tmv_gx_bounds_init). */
static inline void tmv_gx_prepare(const tmv_gather_shape *s, void *state, uint32_t vbytes, bool table, bool fit32)
{
    tmv_gx_state *st = state;
    if (tmv_gather_must_check(s) && !tmv_gx_has_empty_dim(s))
        tmv_gx_bounds_init(&st->bounds, s, vbytes / (uint32_t)tmv_gx_index_width(s), table);
    st->fit32 = fit32;
    st->ahead = 0;
}

static inline const tmv_gx_state *tmv_gx_state_of(const tmv_gather_shape *s)
{
    return s->state;
}

/* The check pass against the prepared bounds, quietly (the kernels'
 * _check): true if every index is in range or none needs checking. */
static inline bool tmv_gx_in_range(const tmv_gather_shape *s, const uint8_t *indices, tmv_gx_check_fn values)
{
    if (!tmv_gather_must_check(s))
        return true;
    if (tmv_gx_has_empty_dim(s))
        return tmv_gather_indices_in_range(s, indices); /* no bounds prepared */
    uint64_t tuples;
    if (tmv_gx_all_packed(s, &tuples))
        return values(&tmv_gx_state_of(s)->bounds, indices, tuples * s->k);
    tmv_gx_iter it;
    tmv_gx_iter_init(&it, s, indices);
    do
        if (!tmv_gx_check_run(s, &it.run, &tmv_gx_state_of(s)->bounds, values))
            return false;
    while (tmv_gx_iter_next(&it, s));
    return true;
}

/* The same as a status: TMV_OK, or the portable check's error naming the
 * first bad tuple (only it builds messages). */
static inline tmv_status tmv_gx_check(const tmv_gather_shape *s, const uint8_t *indices, tmv_gx_check_fn values)
{
    return tmv_gx_in_range(s, indices, values) ? TMV_OK : tmv_gather_check(s, indices);
}

/* ------------------------------------------------------------ offsets */

/* The position an index selects, without branches on its value (random
 * signs would defeat the predictor): tmv_resolve_index for an index known
 * to be usable (checked, or clamped). type and clamp are constants in every
 * caller. */
static inline uint64_t tmv_gx_pos(const uint8_t *p, tmv_dtype type, uint64_t n, bool clamp)
{
    int64_t sv = 0;
    uint64_t uv = 0;
    if (tmv_read_index(p, type, &sv, &uv)) {
        if (clamp) {
            sv = sv < -(int64_t)n ? -(int64_t)n : sv;
            sv = sv > (int64_t)n - 1 ? (int64_t)n - 1 : sv;
        }
        return (uint64_t)sv + (n & (uint64_t)(sv >> 63));
    }
    return clamp && uv > n - 1 ? n - 1 : uv;
}

/* Offsets of count tuples; kc, when not 0, is k as a constant (so the
 * loop over a tuple's components unrolls). The dims are copied to locals
 * because the stores to off[] could alias the shape. This and the two
 * below are always inlined, so every index type, clamp and k gets its own
 * loop: left to gcc, they stopped being inlined once gather_avx512.c grew,
 * and 64 MiB of 100-byte rows from a 16 MiB table went from 3.8-4.6 to
 * 4.9-6.1 ms. */
__attribute__((always_inline)) static inline void tmv_gx_resolve_t(const tmv_gather_shape *s, const uint8_t *idx, uint64_t idx_step,
                                    uint64_t base, uint64_t step, uint64_t count, uint64_t *off,
                                    tmv_dtype type, uint32_t kc, bool clamp)
{
    const uint32_t k = kc != 0 ? kc : s->k;
    const uint64_t istride = s->index_stride;
    uint64_t sizes[TMV_MAX_DIMS], strides[TMV_MAX_DIMS];
    for (uint32_t j = 0; j < k; j++) {
        sizes[j] = s->dim_sizes[j];
        strides[j] = s->dim_strides[j];
    }
    const uint64_t width = tmv_gx_type_width(type);   /* a constant, as type is */
    if (k == 1 && idx_step == width) {
        /* packed single indices: a loop with no variable stride, which gcc
         * vectorizes for AVX2 and up (SSE2 has no sign extension to 64 bits
         * and keeps it scalar) */
        for (uint64_t i = 0; i < count; i++)
            off[i] = base + i * step + tmv_gx_pos(idx + i * width, type, sizes[0], clamp) * strides[0];
        return;
    }
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *t = idx + i * idx_step;
        uint64_t o = base + i * step;
        for (uint32_t j = 0; j < k; j++)
            o += tmv_gx_pos(t + j * istride, type, sizes[j], clamp) * strides[j];
        off[i] = o;
    }
}

/* Tuples of 1, 2 or 3 indices (rows, pixels, voxels) with k a constant. */
__attribute__((always_inline)) static inline void tmv_gx_resolve_k(const tmv_gather_shape *s, const uint8_t *idx, uint64_t idx_step,
                                    uint64_t base, uint64_t step, uint64_t count, uint64_t *off,
                                    tmv_dtype type, bool clamp)
{
    switch (s->k) {
    case 1: tmv_gx_resolve_t(s, idx, idx_step, base, step, count, off, type, 1, clamp); break;
    case 2: tmv_gx_resolve_t(s, idx, idx_step, base, step, count, off, type, 2, clamp); break;
    case 3: tmv_gx_resolve_t(s, idx, idx_step, base, step, count, off, type, 3, clamp); break;
    default: tmv_gx_resolve_t(s, idx, idx_step, base, step, count, off, type, 0, clamp); break;
    }
}

/* tmv_gx_resolve_k with clamping (DirectML's out-of-range policy) a constant. */
__attribute__((always_inline)) static inline void tmv_gx_resolve_c(const tmv_gather_shape *s, const uint8_t *idx, uint64_t idx_step,
                                    uint64_t base, uint64_t step, uint64_t count, uint64_t *off,
                                    tmv_dtype type)
{
    if (s->clamp)
        tmv_gx_resolve_k(s, idx, idx_step, base, step, count, off, type, true);
    else
        tmv_gx_resolve_k(s, idx, idx_step, base, step, count, off, type, false);
}

/* Input offsets of count tuples of a run from tuple `first` on. */
static inline void tmv_gx_resolve(const tmv_gather_shape *s, const tmv_gx_run *r, uint64_t first,
                                  uint64_t count, uint64_t *off)
{
    const uint8_t *idx = r->idx + first * r->idx_step;
    const uint64_t base = r->in_base + first * r->in_step;
    switch (s->index_type) {
    case TMV_DTYPE_INT32: tmv_gx_resolve_c(s, idx, r->idx_step, base, r->in_step, count, off, TMV_DTYPE_INT32); break;
    case TMV_DTYPE_INT64: tmv_gx_resolve_c(s, idx, r->idx_step, base, r->in_step, count, off, TMV_DTYPE_INT64); break;
    case TMV_DTYPE_UINT32: tmv_gx_resolve_c(s, idx, r->idx_step, base, r->in_step, count, off, TMV_DTYPE_UINT32); break;
    default: tmv_gx_resolve_c(s, idx, r->idx_step, base, r->in_step, count, off, TMV_DTYPE_UINT64); break;
    }
}

/* ------------------------------------------------------------ slice copies */

/* Tuples resolved at a time; the ring holds two chunks, so a prefetch can
 * look up to one chunk ahead. */
#define TMV_GX_CHUNK 64
_Static_assert(TMV_GATHER_PREFETCH_MAX <= TMV_GX_CHUNK, "a prefetch looks at most one chunk ahead");
/* Prefetch distances in tuples (the tuning record's gather_prefetch), measured on
 * Zen 4 with the bench suite's 50,000-row tables (SSE2 rows at L2 size, x memcpy for 64/256/4096-byte
 * rows: distance 0: .38/.57/.92, 4: .37/.65/.95, 16: .38/.65/.91, 32:
 * .38/.60/.88, 64: .37/.53/.92). Rows prefetch their first TMV_GX_ROW_LINES
 * cache lines. Elements do not: 16 ahead lost 10-20% at L2 size and did not
 * help at DRAM size. This is the SSE2 and AVX2 row loop and the streaming
 * one; AVX-512's cached row path prefetches nothing (rows already in cache
 * paid ~0.4 ns each for it, and 16 ahead gained nothing at L2 size). */
#define TMV_GX_ROW_LINES 4
#define TMV_GX_ELEM_PREFETCH 0
/* Rows of TMV_GX_BIG_ROW bytes or more streamed to memory are prefetched
 * whole (up to 64 lines), into L2, TMV_GX_BIG_AHEAD bytes of rows ahead:
 * such a row fills a page or more, and the hardware prefetcher stops at
 * each page end and learns every row anew. 64 MiB of 4 KiB rows from a
 * 200 MB table (medians of 3): 19 -> 25 GB/s on one thread, 36 -> 46 GB/s
 * on two; whole rows 16 rows ahead into L1 lost (22 -> 17 GB/s: 64 KiB
 * ahead overflows L1). */
#define TMV_GX_BIG_ROW 1024
#define TMV_GX_BIG_AHEAD 16384

/* Copies one slice of `bytes` bytes; a constant per caller. */
typedef void (*tmv_gx_slice_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes);

/* Copies a run's slices: offsets are resolved a chunk ahead of the copies,
 * and the slice `dist` tuples ahead (dist <= TMV_GX_CHUNK, 0: none) is
 * prefetched, its first `lines` cache lines. Always inlined, so each call
 * site gets its own loop with copy (and mostly bytes and lines) constant:
 * left to GCC it stayed a function once the file grew, and SSE2 64-byte
 * rows at 8 KiB went from 344 to 371 ns. */
__attribute__((always_inline)) static inline void
tmv_gx_copy_run(const tmv_gather_shape *s, const tmv_gx_run *r, const uint8_t *input, uint8_t *output,
                uint64_t bytes, unsigned dist, unsigned lines, tmv_gx_slice_fn copy)
{
    uint64_t ring[2 * TMV_GX_CHUNK];
    const uint64_t n = r->count;
    if (lines > (bytes + 63) / 64)
        lines = (unsigned)((bytes + 63) / 64);
    tmv_gx_resolve(s, r, 0, n < TMV_GX_CHUNK ? n : TMV_GX_CHUNK, ring);
    for (uint64_t base = 0; base < n; base += TMV_GX_CHUNK) {
        const uint64_t next = base + TMV_GX_CHUNK;
        uint64_t *cur = ring + (base / TMV_GX_CHUNK % 2) * TMV_GX_CHUNK;
        if (next < n)
            tmv_gx_resolve(s, r, next, n - next < TMV_GX_CHUNK ? n - next : TMV_GX_CHUNK,
                           ring + (next / TMV_GX_CHUNK % 2) * TMV_GX_CHUNK);
        const uint64_t end = n - base < TMV_GX_CHUNK ? n - base : TMV_GX_CHUNK;
        uint8_t *out = output + r->out_off + base * r->out_step;
        for (uint64_t i = 0; i < end; i++, out += r->out_step) {
            if (dist != 0 && base + i + dist < n) {
                const uint8_t *ahead = input + ring[(base + i + dist) % (2 * TMV_GX_CHUNK)];
                if (lines > TMV_GX_ROW_LINES) /* a big row (TMV_GX_BIG_ROW): into L2 */
                    for (unsigned l = 0; l < lines; l++)
                        __builtin_prefetch(ahead + 64 * l, 0, 1);
                else
                    for (unsigned l = 0; l < lines; l++)
                        __builtin_prefetch(ahead + 64 * l, 0, 3);
            }
            copy(out, input + cur[i], bytes);
        }
    }
}

/* Total output bytes of the gather (every tuple's slice). */
static inline uint64_t tmv_gx_output_bytes(const tmv_gather_shape *s)
{
    uint64_t n = tmv_shape_bytes(&s->slice);
    for (uint32_t d = 0; d < s->pos_rank; d++)
        n *= s->pos_sizes[d];
    return n;
}

/* Whether run r's rows of `bytes` go out by streaming stores: an output
 * past the stream threshold (big), and destinations and size multiples of
 * vbytes, or rows of 16-byte multiples that follow one another in the
 * output (out_step == bytes) from a 16-byte boundary. There the stream
 * function stores 16 bytes at a time where its wider store does not fit,
 * and each row completes the line the row before left partial while the
 * write-combining buffer still holds it: glibc's malloc returns a large
 * output 16 bytes past a line, which would otherwise be stored through the
 * cache, each line read first. */
static inline bool tmv_gx_run_streams(const tmv_gx_run *r, const uint8_t *output, uint64_t bytes, uint32_t vbytes,
                                      bool big)
{
    const uintptr_t out = (uintptr_t)(output + r->out_off);
    return big && (((out | r->out_step | bytes) & (vbytes - 1)) == 0 ||
                   (((out | bytes) & 15) == 0 && r->out_step == bytes));
}

/* A row of 16-byte multiples streamed 16 bytes at a time, to a 16-byte
 * boundary: the stream functions' path where their wide store does not fit
 * (tmv_gx_run_streams). */
static inline void tmv_gx_stream_row16(uint8_t *dst, const uint8_t *src, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes; i += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
}

/* Row gather (slice rank 0, at least a vector): check (as tmv_gx_check), then each run's rows
 * through copy, or through stream (non-temporal; needs vbytes-aligned
 * destinations and whole vectors) when the output is at least the stream
 * threshold. *streamed tells the caller to fence. */
__attribute__((always_inline)) static inline tmv_status tmv_gx_rows(const tmv_gather_shape *s, const uint8_t *input,
                                     const uint8_t *indices, uint8_t *output, uint32_t vbytes,
                                     tmv_gx_check_fn check, tmv_gx_slice_fn copy,
                                     tmv_gx_slice_fn stream, bool *streamed)
{
    *streamed = false;
    tmv_status status = tmv_gx_check(s, indices, check);
    if (status != TMV_OK)
        return status;
    const uint64_t bytes = s->slice.elem_bytes;
    const bool big = tmv_gx_output_bytes(s) >= s->tuning->stream_threshold;
    const unsigned dist = s->tuning->gather_prefetch;
    tmv_gx_iter it;
    tmv_gx_iter_init(&it, s, indices);
    do {
        const tmv_gx_run *r = &it.run;
        if (tmv_gx_run_streams(r, output, bytes, vbytes, big)) {
            if (bytes >= TMV_GX_BIG_ROW && dist != 0)
                tmv_gx_copy_run(s, r, input, output, bytes, bytes >= TMV_GX_BIG_AHEAD ? 1 : TMV_GX_BIG_AHEAD / bytes,
                                64, stream);
            else
                tmv_gx_copy_run(s, r, input, output, bytes, dist, TMV_GX_ROW_LINES, stream);
            *streamed = true;
        } else if (bytes == 64) {   /* the common row: a constant size unrolls the copy */
            tmv_gx_copy_run(s, r, input, output, 64, dist, TMV_GX_ROW_LINES, copy);
        } else {
            tmv_gx_copy_run(s, r, input, output, bytes, dist, TMV_GX_ROW_LINES, copy);
        }
    } while (tmv_gx_iter_next(&it, s));
    return TMV_OK;
}

/* tmv_gx_rows for a kernel's entry point: fenced when it streamed, as
 * streaming stores are weakly ordered. */
static inline tmv_status tmv_gx_rows_fenced(const tmv_gather_shape *s, const uint8_t *input,
                                            const uint8_t *indices, uint8_t *output, uint32_t vbytes,
                                            tmv_gx_check_fn check, tmv_gx_slice_fn copy,
                                            tmv_gx_slice_fn stream)
{
    bool streamed;
    tmv_status status = tmv_gx_rows(s, input, indices, output, vbytes, check, copy, stream, &streamed);
    if (streamed)
        _mm_sfence();
    return status;
}

/* Rows of 3 to 15 bytes that are not single elements (elements take 1, 2,
 * 4 and 8): the row kernels move them by move_run.h's overlapping halves.
 * 12-byte rows (xyz float triplets) went through the portable kernel's
 * per-row slice copy at 5.2 ns a row (8 KiB output from a 64 KiB table). */
static inline bool tmv_gx_short_row(uint64_t bytes)
{
    return bytes >= 3 && bytes < 16 && bytes != 4 && bytes != 8;
}

#endif
