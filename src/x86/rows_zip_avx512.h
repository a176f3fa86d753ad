/* rows_zip_avx512.h - the AVX-512 zip network for power-of-two stream counts (vpermt2 stages). */
#ifndef TMV_ROWS_ZIP_AVX512_H
#define TMV_ROWS_ZIP_AVX512_H

#include "rows_permute_avx512.h"
#include "mask_page_x86.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)

/* ---- power-of-two stream counts: a zip network ----
 * n = 2^k streams interleave in k stages: stage s zips pairs of groups of
 * 2^s streams already interleaved, at a unit of w*2^s bytes (one vpermt2 per
 * output vector, so k per 64 bytes instead of n). Stages whose unit is 64
 * bytes or more only reorder whole vectors: they become the order in which
 * vectors are stored (JOIN) or loaded (SPLIT). SPLIT runs the stages
 * backwards, unzipping. */
#define TMV_ROWS_MAX_STAGES 4
typedef struct tmv_rows_zip_plan {
    unsigned stages;                           /* stages that permute (unit < 64) */
    uint8_t  idx[TMV_ROWS_MAX_STAGES][2][64];  /* per stage: lo/hi (zip) or even/odd (unzip) */
} tmv_rows_zip_plan;

/* The joined vector of network vector i in a block of n = 2^L vectors,
 * after k permuting stages. The pieces' width is a power of two, so the
 * stages stop either at n streams (nothing left to reorder) or at a unit
 * of exactly one vector, and the reordering stages then zip vectors in
 * units of 1, 2, 4 ... of them: together a transpose of n >> k groups of
 * 2^k vectors (tmv_rows_vector_order with a 64-byte unit gives the same).
 * A closed form of the constants n and k, so each load or store offset is
 * a constant. Read from the plan, each was a load that followed the
 * previous store, and its cost depended on where the plan lay: JOIN inner
 * 8x16B f32 L1 took 275-279 ns a call with Wave 1's library and 320-328 with a
 * later one running the same loop, 246-270 without the loads. */
static inline unsigned tmv_rows_zip_position(unsigned n, unsigned k, unsigned i)
{
    return (i & ((1u << k) - 1)) * (n >> k) + (i >> k);
}

/* Index vectors for lanes of e bytes (e divides the piece width w). */
static inline void tmv_rows_zip_init(tmv_rows_zip_plan *z, unsigned n, unsigned w, unsigned e, bool join)
{
    const unsigned lanes = 64 / e;
    unsigned s = 0, unit = w;
    for (; (1u << s) < n && unit < 64; s++, unit *= 2) {
        const unsigned per = unit / e; /* lanes per unit */
        for (unsigned half = 0; half < 2; half++)
            for (unsigned q = 0; q < lanes; q++) {
                const unsigned t = q / per, sub = q % per;
                unsigned from;
                if (join) /* unit t of the lo/hi half takes unit t/2 of A (even t) or B (odd t) */
                    from = (t & 1) * lanes + (t / 2 + half * (64 / unit) / 2) * per + sub;
                else /* even (half 0) or odd units of the pair A:B */
                    from = (2 * t + half) * per + sub;
                for (unsigned b = 0; b < e; b++)
                    z->idx[s][half][q * e + b] = b == 0 ? (uint8_t)from : 0;
            }
    }
    z->stages = s;
}

/* Two-source lane permute of e-byte lanes (e a constant after inlining). */
static inline __m512i tmv_rows_permute2(unsigned e, __m512i a, __m512i idx, __m512i b)
{
    switch (e) {
#if defined(__AVX512VBMI__)
    case 1: return _mm512_permutex2var_epi8(a, idx, b);
#endif
    case 2: return _mm512_permutex2var_epi16(a, idx, b);
    default: return _mm512_permutex2var_epi32(a, idx, b);
    }
}

/* The k permuting stages on n vectors (lanes of e bytes), in place. */
__attribute__((always_inline)) static inline void tmv_rows_zip_network(__m512i *v, const __m512i (*idx)[2],
                                                                       unsigned n, unsigned k, unsigned e, bool join)
{
    /* zeroed: with n at run time (the tail) no compiler sees every t[i < n]
     * set; with n a constant the stores are dead and go */
    __m512i t[TMV_ROWS_MAX_STREAMS] = {0};
    /* One loop of n / 2 pairs per stage: a constant trip count, which every
     * compiler unrolls fully (nested group and member loops, whose counts
     * depend on the stage, were unrolled at run time by clang: 17 copies of
     * the network and minutes to compile). */
#pragma GCC unroll 4
    for (unsigned step = 0; step < k; step++) {
        const unsigned st = join ? step : k - 1 - step;
#pragma GCC unroll 8
        for (unsigned p = 0; p < n / 2; p++) {
            const tmv_rows_pair q = tmv_rows_stage_pair(st, p, join);
            t[q.lo] = tmv_rows_permute2(e, v[q.a], idx[st][0], v[q.b]);
            t[q.hi] = tmv_rows_permute2(e, v[q.a], idx[st][1], v[q.b]);
        }
#pragma GCC unroll 16
        for (unsigned i = 0; i < n; i++)
            v[i] = t[i];
    }
}

/* One whole block through the network (n vectors, k permuting stages, lanes
 * of e bytes: all constants at each call, so loops unroll and v stays in
 * registers). */
__attribute__((always_inline)) static inline void
tmv_rows_zip_block(const __m512i (*idx)[2], unsigned n, unsigned k, unsigned e, uint8_t *const *streams,
                   uint8_t *joined, bool join, bool nt)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
#pragma GCC unroll 16
    for (unsigned i = 0; i < n; i++)
        v[i] = _mm512_loadu_si512(join ? streams[i] : joined + 64 * tmv_rows_zip_position(n, k, i));
    tmv_rows_zip_network(v, idx, n, k, e, join);
#pragma GCC unroll 16
    for (unsigned o = 0; o < n; o++) {
        uint8_t *dst = join ? joined + 64 * tmv_rows_zip_position(n, k, o) : streams[o];
        if (nt)
            _mm512_stream_si512((void *)dst, v[o]);
        else
            _mm512_storeu_si512(dst, v[o]);
    }
}

/* The last, partial block of a call: only the first stream_valid bytes of
 * each stream and joined_valid of the joined block are touched, and no
 * pointer is formed to a vector that holds none of them. One copy serves
 * every network (n, k and e at run time): it runs once per call, and its
 * byte-masked accesses are what sanitizers instrument lane by lane, so a copy
 * per network made the kernel files take minutes to compile under ASan. */
__attribute__((noinline)) static void tmv_rows_zip_tail(const __m512i (*idx)[2], unsigned n, unsigned k, unsigned e,
                                                        uint8_t *const *streams, uint8_t *joined, bool join,
                                                        int64_t stream_valid, int64_t joined_valid)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < TMV_ROWS_MAX_STREAMS; i++) { /* all of v, so no compiler sees one unset */
        const unsigned at = i < n ? tmv_rows_zip_position(n, k, i) : 0;
        const int64_t  valid = i >= n ? 0 : join ? stream_valid : joined_valid - 64 * (int64_t)at;
        v[i] = valid <= 0 ? _mm512_setzero_si512()
                          : tmv_load_first(join ? streams[i] : joined + 64 * at, valid);
    }
    tmv_rows_zip_network(v, idx, n, k, e, join);
    for (unsigned o = 0; o < n; o++) {
        const unsigned at = tmv_rows_zip_position(n, k, o);
        const int64_t  valid = join ? joined_valid - 64 * (int64_t)at : stream_valid;
        if (valid > 0)
            tmv_store_first(join ? joined + 64 * at : streams[o], valid, v[o]);
    }
}

/* The whole shape through the network; n, k, e and nt (streaming stores,
 * every output vector 64-byte aligned) are constants at each call. */
__attribute__((always_inline)) static inline void
tmv_rows_zip_blocks(const tmv_rows_shape *s, const tmv_rows_zip_plan *z, unsigned n, unsigned k, unsigned e,
                    uint8_t *const *streams, uint8_t *joined, bool join, bool nt)
{
    const uint64_t w = s->pieces[0].bytes;
    __m512i idx[TMV_ROWS_MAX_STAGES][2];
    for (unsigned st = 0; st < k; st++)
        for (unsigned h = 0; h < 2; h++)
            idx[st][h] = _mm512_loadu_si512(z->idx[st][h]);
    uint8_t *p[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        p[i] = streams[i];
    const uint64_t block_rows = 64 / w, blocks = s->rows / block_rows;
    for (uint64_t b = 0; b < blocks; b++) {
        tmv_rows_zip_block((const __m512i(*)[2])idx, n, k, e, p, joined, join, nt);
        for (unsigned i = 0; i < n; i++)
            p[i] += 64;
        joined += 64 * n;
    }
    const uint64_t left = s->rows - blocks * block_rows;
    if (left != 0)
        tmv_rows_zip_tail((const __m512i(*)[2])idx, n, k, e, p, joined, join, (int64_t)(left * w),
                          (int64_t)(left * s->joined_bytes));
    if (nt)
        _mm_sfence(); /* streaming stores are weakly ordered: publish them before returning */
}

/* Dispatches (n, permuting stages) to constants. */
__attribute__((always_inline)) static inline void
tmv_rows_zip_nk(const tmv_rows_shape *s, const tmv_rows_zip_plan *z, unsigned e, uint8_t *const *streams,
                uint8_t *joined, bool join, bool nt)
{
    switch (s->piece_count * 8 + z->stages) {
    case 2 * 8 + 1: tmv_rows_zip_blocks(s, z, 2, 1, e, streams, joined, join, nt); break;
    case 4 * 8 + 2: tmv_rows_zip_blocks(s, z, 4, 2, e, streams, joined, join, nt); break;
    case 8 * 8 + 3: tmv_rows_zip_blocks(s, z, 8, 3, e, streams, joined, join, nt); break;
    case 8 * 8 + 2: tmv_rows_zip_blocks(s, z, 8, 2, e, streams, joined, join, nt); break;
    case 16 * 8 + 4: tmv_rows_zip_blocks(s, z, 16, 4, e, streams, joined, join, nt); break;
    case 16 * 8 + 3: tmv_rows_zip_blocks(s, z, 16, 3, e, streams, joined, join, nt); break;
    default: tmv_rows_zip_blocks(s, z, 16, 2, e, streams, joined, join, nt); break;
    }
}

/* The lanes of the zip kernels' network (TMV_ROWS_BYTE_LANES): bytes on
 * VBMI; on AVX-512, of 2 bytes for 2-byte pieces, else of 4. */
static inline unsigned tmv_rows_zip_lane(const tmv_rows_shape *s)
{
    return TMV_ROWS_BYTE_LANES ? 1 : s->pieces[0].bytes == 2 ? 2 : 4;
}

/* The zip kernels' prepare (rows_x86.h): the network's plan, in lanes of
 * tmv_rows_zip_lane, into the kernel state. */
static inline void tmv_rows_zip_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    _Static_assert(sizeof(tmv_rows_zip_plan) <= TMV_KERNEL_STATE_BYTES, "zip plan exceeds the kernel state");
    tmv_rows_zip_init(state, s->piece_count, (unsigned)s->pieces[0].bytes, tmv_rows_zip_lane(s), join);
}

/* Runs the network planned in s->state. Outputs of at least
 * stream_threshold bytes whose vectors all fall 64-byte aligned are written
 * with streaming stores: they would not stay in cache, and skipping the
 * reads for ownership is what keeps pace with memcpy (which streams at that
 * size too). */
__attribute__((always_inline)) static inline void
tmv_rows_zip(const tmv_rows_shape *s, unsigned e, uint8_t *const *streams, uint8_t *joined, bool join,
             uint64_t stream_threshold)
{
    const tmv_rows_zip_plan *z = s->state;
    if (tmv_rows_zip_stream(s, streams, joined, join, stream_threshold, 64))
        tmv_rows_zip_nk(s, z, e, streams, joined, join, true);
    else
        tmv_rows_zip_nk(s, z, e, streams, joined, join, false);
}

/* AVX-512's zip shapes: 2, 4, 8 or 16 pieces of 2 to 16 bytes. Where a
 * vector holds more than 16 joined bytes of a row (8 pieces of 8 bytes),
 * zmm takes a stage more than SSE2's xmm (three vpermt2d a vector against
 * one punpck per 16 bytes) but a quarter of the loads and stores: on an
 * Intel Xeon (family 6 model 167) JOIN inner 8x8B f32 took 207 ns at 8 KiB
 * and 60 us at 1 MiB, SSE2 398 ns and 100 us; SPLIT 8x4B f32 186 ns and
 * 55 us against 267 ns and 66 us (tmv-plan-regret --filter=inner/). Wave 1
 * had left these shapes to SSE2 on a measurement it did not record. */
__attribute__((always_inline)) static inline bool tmv_rows_zip_avx512_shape(const tmv_rows_shape *s)
{
    return tmv_rows_zip_shape(s, 2, 16);
}

/* JOIN's: two pieces are AVX2's, as its lane exchange beat the zmm network
 * there (join inner/2x16B/f32: 0.98 vs 0.95 x memcpy at L2, 0.77 vs 0.69
 * at 8 KiB; 2x4B 0.97 vs 0.95). */
__attribute__((always_inline)) static inline bool tmv_rows_zip_avx512_join_shape(const tmv_rows_shape *s)
{
    return s->piece_count >= 4 && tmv_rows_zip_avx512_shape(s);
}

/* VBMI's: 2, 4, 8 or 16 one-byte pieces. */
__attribute__((always_inline)) static inline bool tmv_rows_zip_vbmi_shape(const tmv_rows_shape *s)
{
    return tmv_rows_zip_shape(s, 1, 1);
}

/* The zip kernels (rows_x86.h): tmv_rows_zip with the lane of
 * tmv_rows_zip_lane a constant in each branch. */
__attribute__((always_inline)) static inline void tmv_rows_zip_run(const tmv_rows_shape *s, void *const *pieces,
                                                                   uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    if (TMV_ROWS_BYTE_LANES)
        tmv_rows_zip(s, 1, st.at, st.joined, join, s->tuning->stream_threshold);
    else if (tmv_rows_zip_lane(s) == 2)
        tmv_rows_zip(s, 2, st.at, st.joined, join, s->tuning->stream_threshold);
    else
        tmv_rows_zip(s, 4, st.at, st.joined, join, s->tuning->stream_threshold);
}

#endif

#endif
