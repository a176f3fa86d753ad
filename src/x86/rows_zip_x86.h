/* rows_zip_x86.h - the zip networks' plan (stages, vector order, shapes, streaming), shared by every x86 set. */
#ifndef TMV_ROWS_ZIP_X86_H
#define TMV_ROWS_ZIP_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../kernels.h"

/* ------------------------------------------------------- zip networks */

/* The most pieces (streams) a row kernel takes. */
#define TMV_ROWS_MAX_STREAMS 16

/* 2..TMV_ROWS_MAX_STREAMS pieces, each packed (pitch = bytes), in packed
 * joined rows: the shapes whose rows the byte shuffles move as one block. */
static inline bool tmv_rows_packed(const tmv_rows_shape *s)
{
    if (s->piece_count < 2 || s->piece_count > TMV_ROWS_MAX_STREAMS || s->joined_pitch != s->joined_bytes)
        return false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].pitch != s->pieces[p].bytes)
            return false;
    return true;
}

/* A network's operands: the pieces' buffers in piece order (streams) and
 * the joined rows. A struct, so that each kernel's stream array keeps its
 * bound (gcc unrolls the filling loop by it). */
typedef struct tmv_rows_streams {
    uint8_t *at[TMV_ROWS_MAX_STREAMS];
    uint8_t *joined;
} tmv_rows_streams;

/* A network's operands: the pieces' buffers (JOIN's sources, only read:
 * the networks take one stream type for both directions; SPLIT's
 * destinations) and the joined rows (JOIN's dst; SPLIT's src, only read). */
static inline void tmv_rows_streams_of(const tmv_rows_shape *s, void *const *pieces, uint8_t *joined,
                                       tmv_rows_streams *st)
{
    *st = (tmv_rows_streams){{NULL}, joined};
    for (uint32_t p = 0; p < s->piece_count; p++)
        st->at[p] = pieces[s->pieces[p].buffer];
}

/* The reordering stages, from stage s (units of `unit` bytes, a whole
 * number of vec-byte vectors) on, applied to vector labels: JOIN zips groups
 * A and B of m vectors unit by unit (c vectors a unit). pos[i] is the joined
 * vector of network vector i within a block of n vectors. */
__attribute__((always_inline)) static inline void tmv_rows_vector_order(unsigned n, unsigned s, unsigned unit,
                                                                        unsigned vec, unsigned *pos)
{
    unsigned label[TMV_ROWS_MAX_STREAMS], next[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        label[i] = i;
    for (; (1u << s) < n; s++, unit *= 2) {
        const unsigned m = 1u << s, c = unit / vec;
        for (unsigned g = 0; g < n; g += 2 * m)
            for (unsigned u0 = 0; u0 < m; u0 += c)
                for (unsigned i = 0; i < c; i++) {
                    next[g + 2 * u0 + i] = label[g + u0 + i];
                    next[g + 2 * u0 + c + i] = label[g + m + u0 + i];
                }
        memcpy(label, next, sizeof label);
    }
    for (unsigned o = 0; o < n; o++)
        pos[label[o]] = o;
}

/* Both orders are always inlined: a pass indexes its vectors by pos, which
 * must be constants there to keep them in registers (called out of line
 * once a second pass used them, they spilled the AVX2 zip's vectors:
 * JOIN nhwc 2x4B u8 at 8 KiB took 351 ns instead of 115, inner 2x1B u8 at
 * 1 MiB 41-44 us instead of 30-32).
 *
 * n = 2^k equal packed streams of w bytes interleave in k stages: stage s
 * zips pairs of groups of 2^s streams already interleaved, at a unit of
 * w*2^s bytes (one two-source shuffle per output vector, so k shuffles per
 * vector instead of n). Stages whose unit is a whole vector (vec bytes) or
 * more only reorder vectors: they become the order in which vectors are
 * stored (JOIN) or loaded (SPLIT, which runs the stages backwards). Returns
 * the number of shuffling stages; pos[i] is the joined vector of network
 * vector i within a block. */
__attribute__((always_inline)) static inline unsigned tmv_rows_zip_order(unsigned n, unsigned w, unsigned vec,
                                                                          unsigned *pos)
{
    unsigned s = 0, unit = w;
    while ((1u << s) < n && unit < vec) {
        s++;
        unit *= 2;
    }
    tmv_rows_vector_order(n, s, unit, vec, pos);
    return s;
}

/* True if the shape is 2..16 packed pieces of one width w, in order, in a
 * packed joined tensor: n streams to interleave element by element. */
static inline bool tmv_rows_equal_pieces(const tmv_rows_shape *s)
{
    const uint64_t w = s->pieces[0].bytes;
    if (s->piece_count < 2 || s->piece_count > 16 || s->joined_pitch != s->joined_bytes)
        return false;
    for (uint32_t p = 0; p < s->piece_count; p++)
        if (s->pieces[p].bytes != w || s->pieces[p].pitch != w || s->pieces[p].offset != p * w)
            return false;
    return true;
}

/* The same with w a power of two from min_w to max_w bytes. */
static inline bool tmv_rows_equal_packed(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    const uint64_t w = s->pieces[0].bytes;
    return w >= min_w && w <= max_w && (w & (w - 1)) == 0 && tmv_rows_equal_pieces(s);
}

/* The same with 2, 4, 8 or 16 pieces: the zip networks' shapes. */
static inline bool tmv_rows_zip_shape(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    return (s->piece_count & (s->piece_count - 1)) == 0 && tmv_rows_equal_packed(s, min_w, max_w);
}

/* The same with the other counts, 3 to 15 pieces: the lane permutes' shapes. */
static inline bool tmv_rows_perm_shape(const tmv_rows_shape *s, uint64_t min_w, uint64_t max_w)
{
    return (s->piece_count & (s->piece_count - 1)) != 0 && tmv_rows_equal_packed(s, min_w, max_w);
}

/* Pair p (of n / 2) of stage st: JOIN zips v[a] and v[b] into the low and
 * high halves t[lo] and t[hi]; SPLIT, running the stages backwards, unzips
 * them into the even and odd units. */
typedef struct tmv_rows_pair {
    unsigned a, b, lo, hi;
} tmv_rows_pair;

static inline tmv_rows_pair tmv_rows_stage_pair(unsigned st, unsigned p, bool join)
{
    const unsigned m = 1u << st, g = p / m * 2 * m, i = p % m;
    return join ? (tmv_rows_pair){g + i, g + m + i, g + 2 * i, g + 2 * i + 1}
                : (tmv_rows_pair){g + 2 * i, g + 2 * i + 1, g + i, g + m + i};
}

/* Whether a zip network's output reaching stream_threshold bytes is written
 * with streaming stores: a JOIN's joined rows aligned to a vector (whole
 * lines in order, as memcpy does at that size); a SPLIT's streams each on a
 * line, which they then fill with consecutive blocks (64 MiB, split
 * inner/8x4B/f32: 5.3 -> 3.3-3.4 ms, inner/2x4B on SSE2 4.3-4.6 -> 3.0; memcpy
 * 3.8-4.1 ms). */
static inline bool tmv_rows_zip_stream(const tmv_rows_shape *s, uint8_t *const *streams, const uint8_t *joined,
                                       bool join, uint64_t stream_threshold, uintptr_t vec)
{
    uintptr_t bases = join ? (uintptr_t)joined % vec : 0;
    for (unsigned i = 0; !join && i < s->piece_count; i++)
        bases |= (uintptr_t)streams[i] % 64;
    return s->rows * s->joined_bytes >= stream_threshold && bases == 0;
}

#endif
