/* copy_long_x86.h - long runs (TMV_COPY_LONG_MIN bytes and more) moved by the set's vectors, four a step, in place of glibc's memcpy (the set's vector: vec_x86.h).
 *
 * glibc 2.36 copies 2112 bytes to the L2 size (1 MiB here) with rep movsb
 * on this AMD machine, which takes 1.6-1.9x as long as a vector loop on
 * runs of 4-16 KiB in L1 (16 KiB: 100 against 62 ns), and copies in a
 * second, slow mode for some buffers and stretches of time: TILE's bias
 * broadcast (16 KiB copies of the output's own first chunk) ran 27 us in
 * most processes and 61-66 us in about one in eight, the same copies by
 * vectors 29-31 us in every process (docs/PERFORMANCE.md, "glibc's rep
 * movsb"). Past TMV_COPY_LONG_VECTOR_MAX rep movsb wins (32-256 KiB
 * in L2: 1.3-1.8x faster than the vectors, which read each destination
 * line for ownership first), so those runs still go to memcpy. */
#ifndef TMV_COPY_LONG_X86_H
#define TMV_COPY_LONG_X86_H

#include "vec_x86.h"

/* The longest run moved by vectors, and the shortest. Below glibc's
 * rep movsb threshold (2112 bytes here, with FSRM; never less) its memcpy
 * is a vector loop of the widest vectors the CPU has, wider than AVX2's on
 * an AVX-512 machine: AVX2's loop ran JOIN outer 8x f32 in L1 (2 KiB
 * pieces) in 120 ns, memcpy in 94 (tmv-bench --tmv_quick, AVX2 set on this
 * Zen 4). So AVX2 takes runs from there; AVX-512 from one vector (a call
 * costs more than the loop: 256 bytes in 1.5 against 2.2 ns). */
#define TMV_COPY_LONG_VECTOR_MAX 16384
#if TMV_VB < 64
#define TMV_COPY_LONG_VECTOR_MIN 2112
#else
#define TMV_COPY_LONG_VECTOR_MIN TMV_VB
#endif
/* The shortest run (or JOIN / SPLIT piece) the long kernels take. */
#define TMV_COPY_LONG_MIN (TMV_COPY_LONG_VECTOR_MIN > 2 * TMV_VB ? TMV_COPY_LONG_VECTOR_MIN : 2 * TMV_VB)

/* n bytes from s to d (not overlapping): the first vector unaligned where d
 * is not at a vector boundary, then from the boundary four vectors a step,
 * single ones, and the last vector of the run again (overlapping the one
 * before); memcpy for runs shorter than TMV_COPY_LONG_VECTOR_MIN or longer
 * than TMV_COPY_LONG_VECTOR_MAX. Stores at the destination's boundaries
 * never cross a line: from d itself, a row of 1000 bytes split nearly all
 * of its 64-byte stores in two, and on an Intel Xeon (family 6 model 207)
 * JOIN inner 3x1000B u8 at 8 KiB took 80 ns against 60, TILE's 1000-float
 * row stacked 76 against 52.5 (docs/PERFORMANCE.md, forty-ninth). The
 * pointers move on past the head, so a destination already at a boundary
 * runs the loop it ran before (with an index starting past the head
 * instead, the suite's aligned outer JOIN / SPLIT cases lost up to 11%). */
static inline void tmv_copy_long(uint8_t *d, const uint8_t *s, uint64_t n)
{
    if (n < TMV_COPY_LONG_VECTOR_MIN || n > TMV_COPY_LONG_VECTOR_MAX) {
        memcpy(d, s, (size_t)n);
        return;
    }
    /* stores from the destination's first vector boundary (the first vector unaligned before it) */
    const uint64_t head = (0 - (uintptr_t)d) & (TMV_VB - 1);
    if (head != 0) {
        v_store(d, v_load(s));
        d += head;
        s += head;
        n -= head;   /* the last vector, n - TMV_VB on, still starts within the run */
    }
    uint64_t i = 0;
    for (; i + 4 * TMV_VB <= n; i += 4 * TMV_VB) {
        const tmv_v a = v_load(s + i), b = v_load(s + i + TMV_VB), c = v_load(s + i + 2 * TMV_VB),
                    e = v_load(s + i + 3 * TMV_VB);
        v_store(d + i, a);
        v_store(d + i + TMV_VB, b);
        v_store(d + i + 2 * TMV_VB, c);
        v_store(d + i + 3 * TMV_VB, e);
    }
    for (; i + TMV_VB <= n; i += TMV_VB)
        v_store(d + i, v_load(s + i));
    if (i < n)
        v_store(d + n - TMV_VB, v_load(s + n - TMV_VB));
}

/* A column of n runs of w bytes (walk_columns.h's mover). */
static inline void tmv_copy_long_column(uint8_t *d, uint64_t dp, const uint8_t *s, uint64_t sp, uint64_t n, size_t w)
{
    for (; n != 0; n--, d += dp, s += sp)
        tmv_copy_long(d, s, w);
}

#endif
