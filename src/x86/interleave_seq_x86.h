/* interleave_seq_x86.h - the AVX-512 streams' cursors: many short rows walked as one run of bytes, read 64 at a time across their seams; and the stream stores. */
#ifndef TMV_INTERLEAVE_SEQ_X86_H
#define TMV_INTERLEAVE_SEQ_X86_H

#include <stdbool.h>
#include <stdint.h>

#include "vec_x86.h"

#if defined(TMV_MASKED)
/* The rows of the other side: row (r1, r0) at r1*s1 + r0*s0, len bytes each. */
typedef struct tmv_seq {
    uint64_t len, r0s, s0, s1;
} tmv_seq;

/* A position in a tmv_seq: row at offset row (outer: its r1's row 0), off bytes in. */
typedef struct tmv_cursor {
    uint64_t outer, row, off, r0;
} tmv_cursor;

static inline void seq_next_row(const tmv_seq *q, tmv_cursor *c)
{
    c->off = 0;
    if (++c->r0 < q->r0s) {
        c->row += q->s0;
    } else {
        c->r0 = 0;
        c->outer += q->s1;
        c->row = c->outer;
    }
}

static inline void seq_advance(const tmv_seq *q, tmv_cursor *c, uint64_t bytes)
{
    c->off += bytes;
    while (c->off >= q->len) {
        const uint64_t over = c->off - q->len;
        seq_next_row(q, c);
        c->off = over;
    }
}

/* The want (<= 64) bytes at c, from as many rows as they span (rows
 * seq_long). A piece for vector bytes [filled, ...) is loaded from its row
 * start minus filled with those bytes masked in: every row but the first
 * starts 64 or more bytes in, so that address stays inside the tensor.
 * Kept out of line (static, so private to the set's file): it serves only
 * seams and partial groups, and inlined it crowded the whole-vector loop. */
__attribute__((noinline)) static tmv_v seq_load_pieces(const tmv_seq *q, tmv_cursor c, const uint8_t *base, uint64_t want)
{
    uint64_t filled = q->len - c.off < want ? q->len - c.off : want;
    tmv_v v = _mm512_maskz_loadu_epi8(v_mask(filled), base + c.row + c.off);
    while (filled < want) {
        seq_next_row(q, &c);
        const uint64_t n = q->len < want - filled ? q->len : want - filled;
        const __mmask64 m = v_mask(filled + n) & ~v_mask(filled);
        v = _mm512_mask_loadu_epi8(v, m, base + c.row - filled);
        filled += n;
    }
    return v;
}

/* The offset of the row after c's. */
static inline uint64_t seq_next_offset(const tmv_seq *q, const tmv_cursor *c)
{
    return c->r0 + 1 < q->r0s ? c->row + q->s0 : c->outer + q->s1;
}

/* The next 64 bytes of the rows at c (there are that many; rows seq_long):
 * one load, or at a seam two masked loads. */
static inline tmv_v seq_load64(const tmv_seq *q, const tmv_cursor *c, const uint8_t *base)
{
    if (c->off + 64 <= q->len)
        return v_load(base + c->row + c->off);
    const uint64_t first = q->len - c->off;
    const tmv_v v = _mm512_maskz_loadu_epi8(v_mask(first), base + c->row + c->off);
    return _mm512_mask_loadu_epi8(v, ~v_mask(first), base + seq_next_offset(q, c) - first);
}

/* Moves c 64 bytes on (rows seq_long: into the next row at most). */
static inline void seq_step64(const tmv_seq *q, tmv_cursor *c)
{
    c->off += 64;
    if (c->off >= q->len) {
        const uint64_t over = c->off - q->len;
        seq_next_row(q, c);
        c->off = over;
    }
}

/* A full vector to an output stream: non-temporal when streaming (dst aligned). */
static inline void stream_store(uint8_t *dst, tmv_v v, bool nt)
{
    if (nt)
        _mm512_stream_si512((void *)dst, v);
    else
        v_store(dst, v);
}

/* Elements before the stream at dst reaches a 64-byte boundary (every
 * pointer in the stream moves in steps of `step` bytes per element); false
 * when it never does. */
static inline bool stream_head(const uint8_t *dst, uint64_t step, uint64_t *head)
{
    const uint64_t mis = (64 - ((uintptr_t)dst & 63)) & 63;
    *head = mis / step;
    return mis % step == 0;
}
#endif

#endif
