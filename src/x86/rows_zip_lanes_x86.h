/* rows_zip_lanes_x86.h - the zip network of SSE2 and AVX2: 16-byte lanes of the set's vector (vec_x86.h) zipped or unzipped by interleave_net_x86.h's lane-local steps, the dispatch of the set's pass to constant shapes, and the zip kernel.
 *
 * Included by the set's header (rows_zip_sse2.h, rows_zip_avx2.h), which
 * first defines TMV_ROWS_ZIP_MAX_W, the widest piece its network takes
 * (8 or 16 bytes), and after it defines the set's pass, tmv_rows_zip_pass. */
#ifndef TMV_ROWS_ZIP_LANES_X86_H
#define TMV_ROWS_ZIP_LANES_X86_H

#include "interleave_net_x86.h"
#include "rows_columns_x86.h"
#include "rows_zip_x86.h"

/* The shuffling stages of the 16-byte network: min(log2 n, log2(16 / w)),
 * none for 16-byte pieces. */
static inline unsigned tmv_rows_network_stages(unsigned n, unsigned w)
{
    const unsigned lg_n = n >= 16 ? 4 : n >= 8 ? 3 : n >= 4 ? 2 : 1;
    const unsigned lg_v = w >= 16 ? 0 : w >= 8 ? 1 : w >= 4 ? 2 : w >= 2 ? 3 : 4;
    return lg_n < lg_v ? lg_n : lg_v;
}

/* The k shuffling stages on n vectors of pieces of w bytes, in place (n, w
 * and k constants at each call, so the loops unroll and v stays in
 * registers). Stage st works on units of w << st bytes: JOIN interleaves
 * the low and the high halves of each 16-byte lane unit by unit, SPLIT,
 * running the stages backwards, takes the even and the odd units. Every
 * step stays within a 128-bit lane, so AVX2 runs SSE2's network on both of
 * its lanes at once. */
__attribute__((always_inline)) static inline void tmv_rows_zip_lanes_network(tmv_v *v, unsigned n, unsigned w,
                                                                             unsigned k, bool join)
{
    tmv_v t[TMV_ROWS_MAX_STREAMS];
#pragma GCC unroll 4
    for (unsigned step = 0; step < k; step++) {
        const unsigned st = join ? step : k - 1 - step, unit = w << st;
#pragma GCC unroll 8
        for (unsigned p = 0; p < n / 2; p++) {
            const tmv_rows_pair q = tmv_rows_stage_pair(st, p, join);
            t[q.lo] = join ? lane_unpack(v[q.a], v[q.b], unit, false) : lane_even(v[q.a], v[q.b], unit);
            t[q.hi] = join ? lane_unpack(v[q.a], v[q.b], unit, true) : lane_odd(v[q.a], v[q.b], unit);
        }
#pragma GCC unroll 16
        for (unsigned i = 0; i < n; i++)
            v[i] = t[i];
    }
}

/* The set's pass over the shape's whole blocks through the network, for n
 * pieces of w bytes, with streaming stores if nt (all three constants at
 * each call): the rows done. Defined by the set's header. */
__attribute__((always_inline)) static inline uint64_t tmv_rows_zip_pass(const tmv_rows_shape *s, unsigned n,
                                                                        unsigned w, uint8_t *const *streams,
                                                                        uint8_t *joined, bool join, bool nt);

/* The pass with the streaming choice as a constant, on a local copy of the
 * stream pointers. The caller's array lives in memory that the pass's byte
 * stores may alias, so the loop reloaded a stream's pointer after every
 * store; a local array whose address is never taken stays in registers
 * (JOIN inner 2x4B u8 at 512 KiB on SSE2: 10.6-11.7 us a call before,
 * 9.3-10.2 after, over 16 stack placements). */
__attribute__((always_inline)) static inline uint64_t tmv_rows_lanes_by_stream(const tmv_rows_shape *s, unsigned n,
                                                                               unsigned w, uint8_t *const *streams,
                                                                               uint8_t *joined, bool join, bool nt)
{
    uint8_t *at[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        at[i] = streams[i];
    return nt ? tmv_rows_zip_pass(s, n, w, at, joined, join, true)
              : tmv_rows_zip_pass(s, n, w, at, joined, join, false);
}

/* The pass with the piece width (a power of two up to TMV_ROWS_ZIP_MAX_W)
 * and the streaming choice as constants. */
__attribute__((always_inline)) static inline uint64_t tmv_rows_lanes_by_width(const tmv_rows_shape *s, unsigned n,
                                                                              uint8_t *const *streams,
                                                                              uint8_t *joined, bool join, bool nt)
{
    switch (s->pieces[0].bytes) {
    case 1: return tmv_rows_lanes_by_stream(s, n, 1, streams, joined, join, nt);
    case 2: return tmv_rows_lanes_by_stream(s, n, 2, streams, joined, join, nt);
    case 4: return tmv_rows_lanes_by_stream(s, n, 4, streams, joined, join, nt);
    default:   /* 8 bytes, or 16 where the set takes them */
        if (TMV_ROWS_ZIP_MAX_W == 16 && s->pieces[0].bytes == 16)
            return tmv_rows_lanes_by_stream(s, n, 16, streams, joined, join, nt);
        return tmv_rows_lanes_by_stream(s, n, 8, streams, joined, join, nt);
    }
}

/* The set's network on a shape its accepts takes: 2, 4 or 8 pieces of 1 to
 * TMV_ROWS_ZIP_MAX_W bytes, the pass getting the piece count and width and
 * the streaming choice (tmv_rows_zip_stream) as constants, one instance
 * each. Out of line, as gcc leaves it: inlined into the kernels, all the
 * instances of the pass were laid out and scheduled anew. Returns the rows
 * done. */
static inline uint64_t tmv_rows_zip_lanes(const tmv_rows_shape *s, uint8_t *const *streams, uint8_t *joined,
                                          bool join, uint64_t stream_threshold)
{
    const bool nt = tmv_rows_zip_stream(s, streams, joined, join, stream_threshold, TMV_VB);
    switch (s->piece_count) {
    case 2: return tmv_rows_lanes_by_width(s, 2, streams, joined, join, nt);
    case 4: return tmv_rows_lanes_by_width(s, 4, streams, joined, join, nt);
    default: return tmv_rows_lanes_by_width(s, 8, streams, joined, join, nt);
    }
}

/* The zip kernel of SSE2 and AVX2 (rows_x86.h): the set's network on the
 * whole blocks, the rows after them by the SSE2 column moves. */
__attribute__((always_inline)) static inline void tmv_rows_zip_lanes_run(const tmv_rows_shape *s, void *const *pieces,
                                                                         uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    const uint64_t threshold = s->tuning->stream_threshold;
    tmv_rows_narrow_columns(s, pieces, joined, join, tmv_rows_zip_lanes(s, st.at, st.joined, join, threshold),
                            threshold);
}

#endif
