/* rows_permute_avx512.h - AVX-512 masked lane permutes for row interleaves of any stream count up to 16. */
#ifndef TMV_ROWS_PERMUTE_AVX512_H
#define TMV_ROWS_PERMUTE_AVX512_H

#include "rows_zip_x86.h"
#include "mask_page_x86.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)

/* The lanes the AVX-512 kernels permute: VBMI's kernels (the including file
 * defines TMV_VEC_AVX512VBMI) take one-byte pieces, in byte lanes (vpermb,
 * vpermt2b); AVX-512's take pieces of 2 bytes and more, in lanes of 2 or 4
 * bytes. */
#if defined(TMV_VEC_AVX512VBMI)
#define TMV_ROWS_BYTE_LANES 1
#else
#define TMV_ROWS_BYTE_LANES 0
#endif

/* Other stream counts (not a power of two) of 1, 2 or 4 bytes: a block of
 * 64 bytes from each stream is n vectors of the joined tensor, and each
 * vector on one side is built from the vectors of the other side by masked
 * lane permutes (lanes of the piece width), one per contributing vector.
 * The plan is those indices and masks. */
typedef struct tmv_rows_perm {
    unsigned n;                               /* vectors per block on each side */
    unsigned unit;                            /* lane bytes: the piece width */
    uint64_t joined_bytes;                    /* bytes per joined row */
    uint8_t  idx[TMV_ROWS_MAX_STREAMS][64];   /* lane indices per output vector */
    unsigned first[TMV_ROWS_MAX_STREAMS + 1]; /* entries of output o: [first[o], first[o+1]) */
    uint8_t  from[TMV_ROWS_MAX_STREAMS * TMV_ROWS_MAX_STREAMS];
    uint64_t mask[TMV_ROWS_MAX_STREAMS * TMV_ROWS_MAX_STREAMS];
} tmv_rows_perm;

/* Builds the plan into a kernel state (the interleave kernels' prepare).
 * Walks one block's joined lanes in order: lane g of the block is lane
 * g % lanes of joined vector g / lanes, and lane `row` of stream `p`. */
static inline void tmv_rows_perm_prepare(const tmv_rows_shape *s, void *state, bool join)
{
    _Static_assert(sizeof(tmv_rows_perm) <= TMV_KERNEL_STATE_BYTES, "permute plan exceeds the kernel state");
    tmv_rows_perm *pl = state;
    const unsigned n = s->piece_count, u = (unsigned)s->pieces[0].bytes, lanes = 64 / u;
    uint64_t masks[TMV_ROWS_MAX_STREAMS][TMV_ROWS_MAX_STREAMS];
    memset(masks, 0, sizeof masks);
    pl->n = n;
    pl->unit = u;
    pl->joined_bytes = s->joined_bytes;
    unsigned row = 0, p = 0;
    for (unsigned g = 0; g < n * lanes; g++) {
        const unsigned jv = g / lanes, jl = g % lanes;
        const unsigned out = join ? jv : p, in = join ? p : jv, out_lane = join ? jl : row;
        const unsigned in_lane = join ? row : jl;
        for (unsigned b = 0; b < u; b++) /* little-endian lane of u bytes */
            pl->idx[out][out_lane * u + b] = b == 0 ? (uint8_t)in_lane : 0;
        masks[out][in] |= 1ull << out_lane;
        if (++p == n) {
            p = 0;
            row++;
        }
    }
    unsigned e = 0;
    for (unsigned o = 0; o < n; o++) {
        pl->first[o] = e;
        for (unsigned i = 0; i < n; i++)
            if (masks[o][i]) {
                pl->from[e] = (uint8_t)i;
                pl->mask[e++] = masks[o][i];
            }
    }
    pl->first[n] = e;
}

/* Merge-masked lane permute of u-byte lanes (u a constant after inlining). */
static inline __m512i tmv_rows_permute(unsigned u, __m512i acc, uint64_t mask, __m512i idx, __m512i v)
{
    switch (u) {
#if defined(__AVX512VBMI__)
    case 1: return _mm512_mask_permutexvar_epi8(acc, (__mmask64)mask, idx, v);
#endif
    case 2: return _mm512_mask_permutexvar_epi16(acc, (__mmask32)mask, idx, v);
    default: return _mm512_mask_permutexvar_epi32(acc, (__mmask16)mask, idx, v);
    }
}

/* Bytes [0, n) of a vector, n clamped to [0, 64]. */
static inline __mmask64 tmv_rows_bytes_mask(int64_t n)
{
    return n <= 0 ? 0 : n >= 64 ? ~(__mmask64)0 : _bzhi_u64(~0ull, (unsigned)n);
}

/* One block: 64 bytes of each stream, 64*n of the joined tensor; `join`
 * says which side is read. With `tail`, only the first stream_valid bytes of
 * each stream and joined_valid of the joined block are touched, and no
 * pointer is formed to a vector that holds none of them. */
static inline void tmv_rows_perm_block(const tmv_rows_perm *pl, unsigned u, uint8_t *const *streams,
                                       uint8_t *joined, bool join, bool tail, int64_t stream_valid,
                                       int64_t joined_valid)
{
    __m512i v[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < pl->n; i++) {
        const int64_t valid = join ? stream_valid : joined_valid - 64 * (int64_t)i;
        if (!tail)
            v[i] = _mm512_loadu_si512(join ? streams[i] : joined + 64 * i);
        else if (valid <= 0)
            v[i] = _mm512_setzero_si512();
        else
            v[i] = tmv_load_first(join ? streams[i] : joined + 64 * i, valid);
    }
    for (unsigned o = 0; o < pl->n; o++) {
        const int64_t valid = join ? joined_valid - 64 * (int64_t)o : stream_valid;
        if (tail && valid <= 0)
            continue;
        const __m512i idx = _mm512_loadu_si512(pl->idx[o]);
        __m512i acc = _mm512_setzero_si512();
        for (unsigned e = pl->first[o]; e < pl->first[o + 1]; e++)
            acc = tmv_rows_permute(u, acc, pl->mask[e], idx, v[pl->from[e]]);
        uint8_t *dst = join ? joined + 64 * o : streams[o];
        if (tail)
            tmv_store_first(dst, valid, acc);
        else
            _mm512_storeu_si512(dst, acc);
    }
}

/* Runs the interleave over all rows: streams (the pieces, in order) advance
 * 64 bytes per block, the joined tensor 64*n. */
static inline void tmv_rows_perm_rows(const tmv_rows_perm *pl, unsigned u, uint64_t rows,
                                      uint8_t *const *streams, uint8_t *joined, bool join)
{
    const unsigned n = pl->n;
    const uint64_t block_rows = 64 / pl->unit, blocks = rows / block_rows;
    uint8_t *s[TMV_ROWS_MAX_STREAMS];
    for (unsigned i = 0; i < n; i++)
        s[i] = streams[i];
    for (uint64_t b = 0; b < blocks; b++) {
        tmv_rows_perm_block(pl, u, s, joined, join, false, 0, 0);
        for (unsigned i = 0; i < n; i++)
            s[i] += 64;
        joined += 64 * n;
    }
    const uint64_t left = rows - blocks * block_rows;
    if (left != 0)
        tmv_rows_perm_block(pl, u, s, joined, join, true, (int64_t)(left * pl->unit),
                            (int64_t)(left * pl->joined_bytes));
}

/* AVX-512's interleave shapes: 3 to 15 pieces of 2 or 4 bytes. Wider
 * pieces: the fixed-size column moves measured faster. */
__attribute__((always_inline)) static inline bool tmv_rows_perm_avx512_shape(const tmv_rows_shape *s)
{
    return tmv_rows_perm_shape(s, 2, 4);
}

/* VBMI's: 3 to 15 one-byte pieces. */
__attribute__((always_inline)) static inline bool tmv_rows_perm_vbmi_shape(const tmv_rows_shape *s)
{
    return tmv_rows_perm_shape(s, 1, 1);
}

/* tmv_rows_perm_rows of the plan in s->state with lanes of 2 or 4 bytes, a
 * constant unit per call, so each permute is one instruction. */
static inline void tmv_rows_perm_rows_2_or_4(const tmv_rows_shape *s, const tmv_rows_streams *st, bool join)
{
    const tmv_rows_perm *pl = s->state;
    if (pl->unit == 2)
        tmv_rows_perm_rows(pl, 2, s->rows, st->at, st->joined, join);
    else
        tmv_rows_perm_rows(pl, 4, s->rows, st->at, st->joined, join);
}

/* The interleave kernels (rows_x86.h; their prepare is tmv_rows_perm_prepare):
 * the plan in s->state run in byte lanes on VBMI, else in lanes of 2 or 4
 * bytes. */
__attribute__((always_inline)) static inline void tmv_rows_perm_run(const tmv_rows_shape *s, void *const *pieces,
                                                                    uint8_t *joined, bool join)
{
    tmv_rows_streams st;
    tmv_rows_streams_of(s, pieces, joined, &st);
    if (TMV_ROWS_BYTE_LANES)
        tmv_rows_perm_rows(s->state, 1, s->rows, st.at, st.joined, join);
    else
        tmv_rows_perm_rows_2_or_4(s, &st, join);
}

#endif

#endif
