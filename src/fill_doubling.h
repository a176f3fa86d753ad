/* fill_doubling.h - TILE's repeats of one element of any width by a row that doubles itself, with a kernel set's copy (static inline only). */
#ifndef TMV_FILL_DOUBLING_H
#define TMV_FILL_DOUBLING_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "walk.h"

/* Copies bytes from src to dst (not overlapping), any count from 1. */
typedef void tmv_fill_copy_fn(uint8_t *dst, const uint8_t *src, uint64_t bytes);

/* The doubling stops at this many bytes; the rest of the row is copies of
 * that chunk, which stays in L1 while they are written. Doubling on to half
 * the row read it back from L2 or beyond: a 1 KiB NHWC bias broadcast to
 * 3 MiB ran 0.73 x memcpy of each element (tmv-bench --tmv_zoo). */
#define TMV_FILL_CHUNK_BYTES 16384

/* Elements of at least a line whose width is not a multiple of one are
 * copied from the source until the row holds TMV_FILL_FROM_SOURCE_BYTES,
 * and the doubling starts from there. A doubling reads what the copy
 * before it has just written, and where the element is no multiple of
 * the vectors' width its loads straddle two of those stores: they wait
 * for both to reach the cache, once a doubling. TILE inner 100x8 u8 (rows
 * of 800 bytes, one source copy and three doublings) took 203 ns at 8 KiB
 * by fill_doubling/avx512 and 27.6 us at 1 MiB, where a memcpy per
 * element took 157 ns and 18.5 us; copied from the source to 512 bytes
 * first, 144 ns and 19.9 us. Elements that are whole lines double without
 * the wait (TILE inner 16x8 f32, 64-byte elements: 119 ns at 8 KiB as they
 * are, 141 copied from the source to 1 KiB), and narrower ones would take
 * a call every few bytes. Much longer rows lose a little: TILE inner
 * 100x64 u8 (rows of 6400 bytes) took 45 ns at 8 KiB, 54 now, 58 copied
 * to 1 KiB (tmv-plan-regret --sizes=8KiB,1MiB --filter=tile/, three
 * rounds of each build alternating, 2026-12-01; docs/PERFORMANCE.md). */
#define TMV_FILL_FROM_SOURCE_BYTES 512
#define TMV_FILL_LINE_BYTES 64

/* The bytes of a row of n-byte elements (len in all) that hold copies
 * from the source before the doubling starts: one element, or for elements
 * of a line or more that are no whole lines, up to TMV_FILL_FROM_SOURCE_BYTES. */
static inline uint64_t tmv_fill_doubling_start(uint64_t w, uint64_t len)
{
    uint64_t done = w;
    if (w >= TMV_FILL_LINE_BYTES && w % TMV_FILL_LINE_BYTES != 0)
        while (done + w <= len && done < TMV_FILL_FROM_SOURCE_BYTES)
            done += w;
    return done;
}

/* The bytes the doubling from `start` has written when it stops: the row's
 * end, or the first double past half a chunk (the chunk the rest repeats). */
static inline uint64_t tmv_fill_doubling_stop(uint64_t start, uint64_t len)
{
    uint64_t done = start;
    while (done < len && done <= TMV_FILL_CHUNK_BYTES / 2)
        done *= 2;
    return done;
}

/* TILE's repeats of an element that is no power-of-two width (a 3-byte RGB
 * pixel, a 12-byte float3, a row of channels): the first copy, then the row
 * doubles itself up to TMV_FILL_CHUNK_BYTES, so a row of n copies takes
 * about log2(n) copies, plus one per chunk, instead of n (tile inner/3x64/u8
 * at L2: 0.03 x memcpy with a memcpy call per element); elements of a line
 * or more that are no whole lines are copied from the source to
 * TMV_FILL_FROM_SOURCE_BYTES first. `copy` doubles,
 * `repeat` copies the chunk on to the row's end (a streaming copy where the
 * output does not stay in cache); both are constants at each call. */
__attribute__((always_inline)) static inline void tmv_fill_doubling(const tmv_copy_shape *s, const uint8_t *src,
                                                                    uint8_t *dst, tmv_fill_copy_fn *copy,
                                                                    tmv_fill_copy_fn *repeat)
{
    const uint32_t inner = s->rank - 1;
    const uint64_t len = s->sizes[inner] * s->elem_bytes;
    const uint64_t start = tmv_fill_doubling_start(s->elem_bytes, len), stop = tmv_fill_doubling_stop(start, len);
    tmv_walk walk;
    tmv_walk_init(&walk, s, inner);
    do {
        uint8_t *row = dst + walk.dst;
        copy(row, src + walk.src, s->elem_bytes);
        uint64_t done = s->elem_bytes;
        for (; done < start; done += s->elem_bytes)
            copy(row + done, src + walk.src, s->elem_bytes);
        /* one test a doubling, against a bound set once a shape (testing
         * both the row's end and the chunk's in the loop was 5% slower:
         * TILE inner 16x8 f32, rows of 512 bytes, 8.9 -> 8.4 us a call) */
        for (; done < stop; done *= 2)
            copy(row + done, row, done < len - done ? done : len - done);
        for (const uint64_t chunk = done; done < len; done += chunk)
            repeat(row + done, row, chunk < len - done ? chunk : len - done);
    } while (tmv_walk_next(&walk));
}

/* Whether most of a row of s is the chunk's repeats (where a set's
 * doubling fill streams them past the stream threshold): the doubling stops
 * within the first half of the row. Shorter rows are doubled whole, with
 * plain stores (TILE inner 100x8 u8: rows of 800 bytes). */
static inline bool tmv_fill_doubling_repeats(const tmv_copy_shape *s)
{
    const uint64_t len = s->sizes[s->rank - 1] * s->elem_bytes;
    return 2 * tmv_fill_doubling_stop(tmv_fill_doubling_start(s->elem_bytes, len), len) <= len;
}

/* Contiguous repeats of one element (source stride 0) whose width the
 * fixed-width kernels do not take, at least four to a row. */
static inline bool tmv_fill_doubling_shape(const tmv_copy_shape *s)
{
    const uint64_t w = s->elem_bytes;
    if (s->rank == 0 || (w <= 16 && (w & (w - 1)) == 0))
        return false;
    const uint32_t inner = s->rank - 1;
    return s->src_strides[inner] == 0 && s->dst_strides[inner] == w && s->sizes[inner] >= 4;
}

#endif
