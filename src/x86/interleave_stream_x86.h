/* interleave_stream_x86.h - the AVX-512 stream kernels: a block shape's rows as one run of whole vectors, non-temporal from the tuning record's stream_threshold on. */
#ifndef TMV_INTERLEAVE_STREAM_X86_H
#define TMV_INTERLEAVE_STREAM_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernels.h"
#include "../walk.h"
#include "interleave_net_x86.h"
#include "interleave_seq_x86.h"
#include "interleave_shape_x86.h"

#if defined(TMV_MASKED)
/* ---- streams: the rows of a block shape as one run of whole vectors ----
 *
 * In NCHW the side of the copy whose rows follow each other in memory (the
 * de-interleave's planes, the interleave's output) is one contiguous stream
 * across many short rows. Walking that stream in whole vectors makes every
 * store full (and alignable for non-temporal stores), and the other side's
 * row seams cost a second masked load instead of a masked store per row. */

/* SPACE_TO_DEPTH's partial group: k < n elements of each plane. */
static inline void deinterleave_part(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                     uint8_t *dst, uint64_t k, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned i = 0; i < b; i++) {
        const uint64_t before = (uint64_t)i * TMV_VB, bytes = b * k * w;
        const uint64_t want = bytes > before ? (bytes - before < 64 ? bytes - before : 64) : 0;
        v[i] = _mm512_setzero_si512();
        if (want) {
            v[i] = seq_load_pieces(q, *cur, src, want);
            seq_advance(q, cur, want);
        }
    }
    v_deinterleave(c, v, b, w);
    for (unsigned j = 0; j < b; j++)
        _mm512_mask_storeu_epi8(dst + j * plane, v_mask(k * w), v[j]);
}

/* SPACE_TO_DEPTH's next whole group: b source vectors at cur, de-interleaved into v. */
static inline void deinterleave_load(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                     tmv_v *v, unsigned b, size_t w)
{
#pragma GCC unroll 8
    for (unsigned i = 0; i < b; i++) {
        v[i] = seq_load64(q, cur, src);
        seq_step64(q, cur);
    }
    v_deinterleave(c, v, b, w);
}

/* The next whole group to one vector of each plane at dst (plain stores). */
static inline void deinterleave_whole(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                      uint8_t *dst, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    deinterleave_load(c, q, cur, src, v, b, w);
#pragma GCC unroll 8
    for (unsigned j = 0; j < b; j++)
        v_store(dst + j * plane, v[j]);
}

/* Non-temporal stores need 64-byte aligned lines, but b planes whose
 * distance is no multiple of 64 (a u8 plane of 2365 x 2364) are not aligned
 * alike. The stream's groups are then aligned for plane 0, and each other
 * plane's vector is stored shifted by the `mis` bytes that plane lies past
 * a line: the line's first mis bytes from the plane's previous vector, the
 * rest from this one (a two-source permute). Only the stream's first line
 * and its last vector's leftover go as masked plain stores: plain stores
 * in every segment made the stream 2x slower than no streaming at all
 * (the non-temporal stores then met lines the plain ones had brought in).
 * In cache B = 2 of 4- and 8-byte elements is realigned the same way, with
 * plain stores: a store across a line costs two, and SPACE_TO_DEPTH nchw
 * B2 C3 f32 at 1 MiB (planes 87024 bytes apart, 48 past a line) ran 0.45-0.52
 * x memcpy, 0.62-0.68 realigned (a bare loop of the same permutes: 0.58, and
 * 0.92-1.0 with planes of whole lines; Intel Xeon, 2026-11-28). Wider
 * blocks pay a permute per plane per group on top of their network, and
 * bytes (vpermt2b) lost; words were not measured. */
typedef struct tmv_realign {
    tmv_v    idx[8];   /* two-source (previous, current) indices of the shift */
    uint64_t mis[8];   /* bytes past a line when plane 0's store is aligned */
} tmv_realign;

/* False when some plane needs a shift this set cannot make (bytes without
 * VBMI, or a shift by part of an element). */
static inline bool realign_init(tmv_realign *ra, uint64_t plane, unsigned b, size_t w)
{
    const uint64_t n = TMV_VB / w;
    for (unsigned j = 0; j < b; j++) {
        ra->mis[j] = j * plane % 64;
        if (ra->mis[j] % w != 0 || (ra->mis[j] != 0 && !v_use_perm2(w)))
            return false;
        ra->idx[j] = v_add(v_iota(w), v_set1(n - ra->mis[j] / w, w), w);
    }
    return true;
}

/* The next whole group to the planes at dst, non-temporal: `first` is the
 * stream's first group (the shifted planes' lines before it are not ours);
 * prev holds each plane's previous vector and gets this one. */
static inline void realign_whole(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                 uint8_t *dst, uint64_t plane, const tmv_realign *ra, tmv_v *prev, unsigned b,
                                 size_t w, bool first, bool nt)
{
    tmv_v v[8];
    deinterleave_load(c, q, cur, src, v, b, w);
#pragma GCC unroll 8
    for (unsigned j = 0; j < b; j++) {
        uint8_t *at = dst + j * plane;
        const uint64_t mis = ra->mis[j];
        if (mis == 0) {
            stream_store(at, v[j], nt);
            continue;
        }
        /* first: nothing carried; the permute's bytes from it are masked off */
        const tmv_v line = v_perm2(first ? v[j] : prev[j], ra->idx[j], v[j], w);
        if (first)
            _mm512_mask_storeu_epi8(at - mis, ~v_mask(mis), line);
        else
            stream_store(at - mis, line, nt);
        prev[j] = v[j];
    }
}

/* The shifted planes' last mis bytes, just before dst (where the groups ended). */
static inline void realign_flush(uint8_t *dst, uint64_t plane, const tmv_v *prev, const tmv_realign *ra,
                                 unsigned b)
{
    for (unsigned j = 0; j < b; j++)
        if (ra->mis[j] != 0)
            _mm512_mask_storeu_epi8(dst + j * plane - 64, ~v_mask(64 - ra->mis[j]), prev[j]);
}

/* SPACE_TO_DEPTH: elements [begin, end) of each of b contiguous planes of
 * `total` from the source rows (b*x elements each, along the seq). The
 * first `head` elements go as a partial group (aligning plane 0 for the
 * non-temporal stores, made when ra is not NULL, with the shifted planes'
 * carries in prev); after it, ranges start and end on whole vectors but at
 * the end of the planes. */
static inline void deinterleave_stream(const tmv_vctx *c, const tmv_seq *q, uint64_t x, const uint8_t *src,
                                       uint8_t *dst, uint64_t begin, uint64_t end, uint64_t total, uint64_t head,
                                       uint64_t plane, unsigned b, size_t w, const tmv_realign *ra, tmv_v *prev,
                                       bool nt)
{
    const uint64_t n = TMV_VB / w;
    tmv_cursor cur = {0, begin / x * q->s0, begin % x * b * w, begin / x};
    uint64_t done = begin;
    if (done < head) {
        deinterleave_part(c, q, &cur, src, dst + done * w, head - done, plane, b, w);
        done = head;
    }
    if (ra) {
        for (; done + n <= end; done += n)
            realign_whole(c, q, &cur, src, dst + done * w, plane, ra, prev, b, w, done == head, nt);
        if (end == total && done > head)
            realign_flush(dst + done * w, plane, prev, ra, b);
    } else if (w == 1) {
        /* Bytes run two groups per iteration (measured 2-4% faster in L2);
         * wider elements, whose shorter rows put a seam in most groups,
         * lost as much that way. */
#pragma GCC unroll 2
        for (; done + n <= end; done += n)
            deinterleave_whole(c, q, &cur, src, dst + done * w, plane, b, w);
    } else {
        for (; done + n <= end; done += n)
            deinterleave_whole(c, q, &cur, src, dst + done * w, plane, b, w);
    }
    if (done < end)
        deinterleave_part(c, q, &cur, src, dst + done * w, end - done, plane, b, w);
}

/* SPACE_TO_DEPTH's streams, `total` elements per plane, at each position of
 * the dims outside the seq. The dim just outside it (DCR's and CRD's block
 * row) is looped inside segments of the streams: its streams read
 * interleaved source rows, so together they read the source in order
 * instead of each sweeping all of it.
 *
 * Streaming to memory a segment is one plane row, each segment starting at
 * the whole group nearest below its row, so the source is read in order:
 * two rows per segment read it as 0, 2, 1, 3, ... and ran at half the speed
 * at B = 2 (5.1 against 2.6 ms for 64 MiB; memcpy 4.0). In cache the block
 * rows run one after the other, each over whole planes: segments of 16 KiB
 * of source (so the block rows' passes met its lines in L1) kept b x (block
 * rows) planes written at once, and lost up to 1.7x at 1 MiB (B8 DCR f32,
 * 64 planes 16 KiB apart: 32.5 against 20.4 us; geometric mean of the NCHW
 * sweep at 1 MiB 1.15x, of the suite's L2 rows 1.07x). */
static inline uint64_t segment_start(uint64_t k, uint64_t seg, uint64_t head, uint64_t n, bool rows)
{
    if (k == 0)
        return 0;
    if (!rows)
        return k * seg + head;
    return k * seg > head ? head + (k * seg - head) / n * n : head;
}

static inline void deinterleave_streams(const tmv_vctx *c, const tmv_copy_shape *s, const tmv_seq *q,
                                        const uint8_t *src, uint8_t *dst, uint64_t x, uint64_t total,
                                        uint64_t plane, unsigned b, size_t w, bool nt)
{
    const uint64_t n = TMV_VB / w;
    const bool mid = s->rank >= 4;
    const uint32_t m = mid ? s->rank - 4 : 0;
    const uint64_t mids = mid ? s->sizes[m] : 1, mid_src = mid ? s->src_strides[m] : 0;
    const uint64_t mid_dst = mid ? s->dst_strides[m] : 0;
    tmv_realign ra;
    tmv_v prev[8][8];   /* each block row's carries (the stream's first group sets them) */
    const bool realign = mids <= 8 && (nt || (b == 2 && w >= 4)) && realign_init(&ra, plane, b, w);
    const uint64_t seg = nt ? x : total;
    tmv_walk walk;
    tmv_walk_init(&walk, s, m);
    do {
        for (uint64_t k = 0; k * seg < total; k++) {
            for (uint64_t i = 0; i < mids; i++) {
                uint8_t *d = dst + walk.dst + i * mid_dst;
                uint64_t head = 0;
                const bool aligned = realign && stream_head(d, w, &head);
                head = aligned && head < total ? head : aligned ? total : 0;
                const uint64_t begin = segment_start(k, seg, head, n, nt);
                const uint64_t next = segment_start(k + 1, seg, head, n, nt);
                const uint64_t end = (k + 1) * seg < total && next < total ? next : total;
                if (begin < end)
                    deinterleave_stream(c, q, x, src + walk.src + i * mid_src, d, begin, end, total, head, plane,
                                        b, w, aligned ? &ra : NULL, prev[aligned ? i : 0], nt);
            }
        }
    } while (tmv_walk_next(&walk));
}

/* DEPTH_TO_SPACE's partial group: k < n elements of each plane. */
static inline void interleave_part(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                   uint8_t *dst, uint64_t k, uint64_t plane, unsigned b, size_t w)
{
    tmv_v v[8];
    for (unsigned j = 0; j < b; j++)
        v[j] = seq_load_pieces(q, *cur, src + j * plane, k * w);
    seq_advance(q, cur, k * w);
    v_interleave(c, v, b, w);
    for (unsigned i = 0; i < b; i++) {
        const uint64_t before = (uint64_t)i * TMV_VB, bytes = b * k * w;
        _mm512_mask_storeu_epi8(dst + before, v_mask(bytes > before ? bytes - before : 0), v[i]);
    }
}

/* DEPTH_TO_SPACE's next whole group: 64 bytes of each of b planes at cur
 * (cur moved past them), interleaved to b vectors at dst. */
static inline void interleave_whole(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                    uint8_t *dst, uint64_t plane, unsigned b, size_t w, bool nt)
{
    tmv_v v[8];
#pragma GCC unroll 8
    for (unsigned j = 0; j < b; j++)
        v[j] = seq_load64(q, cur, src + j * plane);
    seq_step64(q, cur);
    v_interleave(c, v, b, w);
#pragma GCC unroll 8
    for (unsigned i = 0; i < b; i++)
        stream_store(dst + i * TMV_VB, v[i], nt);
}

/* How far along its rows each plane is read ahead past the stream
 * threshold. NCHW DEPTH_TO_SPACE reads B * B planes' rows in turn (a
 * plane row of W elements each output row), 64 source streams at B = 8,
 * and its sequence jumps plane group every row: more streams than the
 * prefetchers follow. Measured on the sweep's NCHW 64 MiB cases (four
 * rounds each): B8 CRD C3 f32 0.77 -> 0.86 x best copy, B8 DCR C1 f32 0.71
 * -> 0.80; 1.5 KiB ran 0.98x the time of 512 bytes, 3 KiB 1.03x. Below the
 * threshold, where the rows come from L3, prefetching lost (1 MiB: 1.05x
 * the time). */
#define INTERLEAVE_PREFETCH_BYTES 1536

/* The whole groups from done on while n elements are left, each plane's
 * source prefetched INTERLEAVE_PREFETCH_BYTES on along the seq (a cursor
 * that far ahead; it may run past the last row: a prefetch does not fault).
 * Returns where they ended. */
static inline uint64_t interleave_far(const tmv_vctx *c, const tmv_seq *q, tmv_cursor *cur, const uint8_t *src,
                                      uint8_t *dst, uint64_t done, uint64_t total, uint64_t plane, unsigned b,
                                      size_t w, bool nt)
{
    const uint64_t n = TMV_VB / w;
    tmv_cursor ahead = *cur;
    seq_advance(q, &ahead, INTERLEAVE_PREFETCH_BYTES);
    for (; done + n <= total; done += n) {
        for (unsigned j = 0; j < b; j++)
            _mm_prefetch((const char *)(src + j * plane + ahead.row + ahead.off), _MM_HINT_T0);
        seq_step64(q, &ahead);
        interleave_whole(c, q, cur, src, dst + done * b * w, plane, b, w, nt);
    }
    return done;
}

/* DEPTH_TO_SPACE: `total` elements of each of b planes (rows of x elements
 * along the seq, plane bytes apart) interleave to one contiguous stream,
 * from its first line on once a partial group reaches it (where whole
 * groups can), so that no store crosses a line (non-temporal ones cannot).
 * `far`: the output is past the stream threshold. */
static inline void interleave_stream(const tmv_vctx *c, const tmv_seq *q, const uint8_t *src, uint8_t *dst,
                                     uint64_t total, uint64_t plane, unsigned b, size_t w, bool far)
{
    const uint64_t n = TMV_VB / w;
    tmv_cursor cur = {0, 0, 0, 0};
    uint64_t done = 0, head = 0;
    bool nt = far;
    if (stream_head(dst, b * w, &head)) {
        head = head < total ? head : total;
        if (head)
            interleave_part(c, q, &cur, src, dst, head, plane, b, w);
        done = head;
    } else {
        nt = false;
    }
    if (far)
        done = interleave_far(c, q, &cur, src, dst, done, total, plane, b, w, nt);
    for (; done + n <= total; done += n)
        interleave_whole(c, q, &cur, src, dst + done * b * w, plane, b, w, nt);
    if (done < total)
        interleave_part(c, q, &cur, src, dst + done * b * w, total - done, plane, b, w);
}

/* How a block shape streams (stream_dims returns 0 if it does not): the seq
 * of rows of the other side, the rows' count, and how many dims (from the
 * innermost) the stream covers. The de-interleave streams along the dim just
 * outside the block when its planes' rows follow each other; the
 * interleave along the dim outside the block when its output rows do, and
 * the next one too when that continues the output. */
static inline uint32_t stream_dims(const tmv_copy_shape *s, bool inter, unsigned b, uint64_t w, tmv_seq *q,
                                   uint64_t *rows)
{
    if (s->rank < 3)
        return 0;
    const uint32_t r = s->rank - 3;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t run = inter ? b * x * w : x * w;   /* output bytes of one row */
    if (s->dst_strides[r] != run)
        return 0;
    *q = (tmv_seq){inter ? x * w : b * x * w, s->sizes[r], s->src_strides[r], 0};
    *rows = s->sizes[r];
    if (inter && r > 0 && s->dst_strides[r - 1] == run * s->sizes[r]) {
        q->s1 = s->src_strides[r - 1];
        *rows *= s->sizes[r - 1];
        return 4;
    }
    q->s1 = s->src_strides[r] * s->sizes[r];   /* unused: the seq never wraps */
    return 3;
}

/* Rows for seq_load64's two-load seam: a vector long, and every row but
 * the first 64 or more bytes in, so the second address stays in the tensor. */
static inline bool seq_long(const tmv_seq *q, uint32_t dims)
{
    return q->len >= 64 && q->s0 >= 64 && (dims == 3 || q->s1 >= 64);
}

static inline void stream_shape(const tmv_vctx *c, const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst,
                                bool inter, unsigned b, size_t w)
{
    tmv_seq q = {0, 0, 0, 0};
    uint64_t rows = 0;
    const uint32_t dims = stream_dims(s, inter, b, w, &q, &rows);
    const bool nt = tmv_shape_bytes(s) >= s->tuning->stream_threshold;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t plane = inter ? s->src_strides[s->rank - 1] : s->dst_strides[s->rank - 2];
    if (inter) {
        tmv_walk walk;
        tmv_walk_init(&walk, s, s->rank - dims);
        do
            interleave_stream(c, &q, src + walk.src, dst + walk.dst, rows * x, plane, b, w, nt);
        while (tmv_walk_next(&walk));
    } else {
        deinterleave_streams(c, s, &q, src, dst, x, rows * x, plane, b, w, nt);
    }
    if (nt)
        _mm_sfence();
}

/* A stream shape, instantiated for each block size at the constant width w. */
static inline void stream_width(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                unsigned b, size_t w)
{
    tmv_vctx c;
    v_ctx_for(&c, w, b, inter);
    switch (b) {
    case 2: stream_shape(&c, s, src, dst, inter, 2, w); break;
#if defined(TMV_PERM2)
    case 3: stream_shape(&c, s, src, dst, inter, 3, w); break;
#endif
    case 4: stream_shape(&c, s, src, dst, inter, 4, w); break;
    default: stream_shape(&c, s, src, dst, inter, 8, w); break;
    }
}

/* Whether a block shape of block size b goes to the stream kernels: rows of
 * at least a vector (shorter ones cost a masked load per piece), streams of
 * at least 16 vectors per plane (the partial head and tail groups are slow;
 * shorter ones only as said below), and then where they measured faster
 * than the row kernels (bench space_to_depth / depth_to_space, L2 and
 * DRAM): always when streaming to
 * memory; in cache, the de-interleave for B >= 4, bytes with vpermt2b, or
 * streams of 64 vectors or more (B = 2 gains a few percent on those and
 * loses on shorter ones), and the interleave except bytes at B >= 4. */
static inline bool stream_ok(const tmv_copy_shape *s, bool inter, unsigned b)
{
    const size_t w = (size_t)s->elem_bytes;
    tmv_seq q = {0, 0, 0, 0};
    uint64_t rows = 0;
#if defined(TMV_PERM2)
    const bool perm2 = v_use_perm2(w);
#else
    const bool perm2 = false;
#endif
    if (!(b == 2 || (b == 3 && perm2) || b == 4 || b == 8))
        return false;
#if defined(TMV_VEC_AVX512VBMI)
    if (inter && b != 3)
        return false;   /* vpermt2b interleaves no faster than AVX-512's unpacks */
#endif
    const uint32_t dims = stream_dims(s, inter, b, w, &q, &rows);
    if (dims == 0 || !seq_long(&q, dims))
        return false;
    const uint64_t x = inter ? interleave_x(s) : deinterleave_x(s);
    const uint64_t vectors = rows * x / (TMV_VB / w);   /* whole vectors per plane */
    if (vectors < 16) {
        /* A short stream pays its partial groups and setup. Taken only for
         * elements of 1 or 2 bytes (a vector holds 32-64 of them, so short
         * rows leave most of each row group empty), where the rows would
         * need half as many groups again, and never over packed rows.
         * Measured on SPACE_TO_DEPTH nchw with planes of 4-15 vectors: bytes
         * and u16 1.1-5x faster; f32 won and lost alike (0.78-1.6x), so it
         * keeps the rows. */
        const uint64_t n = TMV_VB / w, row_groups = rows * ((x + n - 1) / n);
        if (w > 2 || vectors < 4 || 2 * row_groups < 3 * (vectors + 2) || block_pack_dim(s, b, w, inter) >= 0)
            return false;
    }
    if (tmv_shape_bytes(s) >= s->tuning->stream_threshold)
        return true;
    return inter ? !(w == 1 && b >= 4) : perm2 && (b >= 4 || w == 1 || vectors >= 64);
}

static inline void stream_widths(const tmv_copy_shape *s, const uint8_t *src, uint8_t *dst, bool inter,
                                 unsigned widths, unsigned b)
{
    switch (s->elem_bytes) {
    case 1: if (widths & 2u) stream_width(s, src, dst, inter, b, 1); break;
    case 2: if (widths & 4u) stream_width(s, src, dst, inter, b, 2); break;
    case 4: if (widths & 16u) stream_width(s, src, dst, inter, b, 4); break;
    default: if (widths & 256u) stream_width(s, src, dst, inter, b, 8); break;
    }
}

/* Each direction flattened out of line on its own: in one function, a
 * change to either direction's loops moved the other's register
 * allocation (DEPTH_TO_SPACE in L2 lost 3-5% to a de-interleave change). */
__attribute__((noinline, flatten)) static void stream_run_interleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                     uint8_t *dst, unsigned widths, unsigned b)
{
    stream_widths(s, src, dst, true, widths, b);
}

__attribute__((noinline, flatten)) static void stream_run_deinterleave(const tmv_copy_shape *s, const uint8_t *src,
                                                                       uint8_t *dst, unsigned widths, unsigned b)
{
    stream_widths(s, src, dst, false, widths, b);
}
#endif

#endif
