/* interleave_net_x86.h - the permute networks: their index vectors, the two-vector zip / unzip steps, and B vectors (de)interleaved at a time. */
#ifndef TMV_INTERLEAVE_NET_X86_H
#define TMV_INTERLEAVE_NET_X86_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vec_x86.h"

/* Sets with a B = 3 network: AVX-512's two-source permutes, and AVX2's
 * one-source dword permute (elements of 4 and 8 bytes) or lane-local byte
 * shuffles (1 and 2 bytes). */
#if defined(TMV_PERM2) || defined(TMV_VEC_AVX2)
#define TMV_NET3 1
#endif

/* The network's constants: permute indices, set up at each kernel call
 * (B = 3's tables copied from three_tables, built once). */
typedef struct tmv_vctx {
#if defined(TMV_PERM2)
    tmv_v even, odd, lo, hi;   /* two-source index vectors */
    tmv_v chain[3][2];         /* B = 3: output j's permute for source vector k = 1, 2 */
#endif
#if defined(TMV_VEC_AVX2)
    tmv_v three[3];            /* B = 3: plane row q's dword permute (v_ctx_three) */
    tmv_v from1[3], from2[3];  /* B = 3: output k's dwords blended from vector 1 or 2 */
#endif
#if defined(TMV_VEC_AVX512)
    tmv_v fix_even;            /* qword order making lane-local packs whole (w = 1 without VBMI) */
    tmv_v fix_lo;              /* qword order before lane-local unpacks (w = 1 without VBMI) */
#endif
#if defined(TMV_VEC_AVX512VBMI)
    tmv_v tail_de, tail_in;    /* one-vector row tails (v_ctx_tails) */
#endif
    int unused;
} tmv_vctx;

#if defined(TMV_VEC_AVX512VBMI)
/* Bytes of v shifted by k bits (values below 64: a 16-bit lane's shift
 * moves no set bit into the other byte once masked). */
static inline tmv_v v_bytes_shr(tmv_v v, unsigned k)
{
    return _mm512_and_si512(_mm512_srl_epi16(v, _mm_cvtsi32_si128((int)k)), _mm512_set1_epi8((char)(0xff >> k)));
}

static inline tmv_v v_bytes_shl(tmv_v v, unsigned k) { return _mm512_sll_epi16(v, _mm_cvtsi32_si128((int)k)); }

/* Byte permutes for a row tail of b*rem <= 64 bytes (b = 2, 4 or 8,
 * elements of w bytes) as one vector, plane j's rem bytes in slot j of 64/b
 * bytes: tail_de takes the b*rem interleaved bytes to the slots (byte e of
 * slot j is byte ((e/w)*b + j)*w + e%w), tail_in the slots back. Built from
 * shifts and masks of a byte ramp: a handful of instructions a call. */
static inline void v_ctx_tails(tmv_vctx *c, size_t w, unsigned b)
{
    const unsigned lw = (unsigned)__builtin_ctzll(w), lb = (unsigned)__builtin_ctz(b), ls = 6 - lb;
    const tmv_v p = v_iota(1), wm = _mm512_set1_epi8((char)(w - 1));
    const tmv_v j = v_bytes_shr(p, ls), u = _mm512_and_si512(p, wm);
    const tmv_v t = v_bytes_shr(_mm512_and_si512(p, _mm512_set1_epi8((char)((64u >> lb) - 1))), lw);
    c->tail_de = _mm512_or_si512(v_bytes_shl(_mm512_add_epi8(v_bytes_shl(t, lb), j), lw), u);
    const tmv_v pj = _mm512_and_si512(v_bytes_shr(p, lw), _mm512_set1_epi8((char)(b - 1)));
    const tmv_v pt = v_bytes_shr(p, lw + lb);
    c->tail_in = _mm512_or_si512(_mm512_add_epi8(v_bytes_shl(pj, ls), v_bytes_shl(pt, lw)), u);
}

/* The same for b = 3: slots of 21 bytes, so plane j's rem bytes (b*rem <=
 * 64: at most 21) sit at byte 21 j. tail_in takes byte o (element e = o/w,
 * byte u) from byte 21 (e % 3) + (e / 3) w + u of the slots; tail_de takes
 * byte 21 j + r of slot j (element t = r/w, byte u) from byte (3 t + j) w + u.
 * The divisions by 3 and 21 of a byte index are lookups. Bytes past the
 * tail get indices that are never stored. */
static inline void v_ctx_tails3(tmv_vctx *c, size_t w)
{
    static const uint8_t third[64] = {0,  0,  0,  1,  1,  1,  2,  2,  2,  3,  3,  3,  4,  4,  4,  5,
                                      5,  5,  6,  6,  6,  7,  7,  7,  8,  8,  8,  9,  9,  9,  10, 10,
                                      10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15,
                                      16, 16, 16, 17, 17, 17, 18, 18, 18, 19, 19, 19, 20, 20, 20, 21};
    static const uint8_t slot_of_rest[64] = {0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0,
                                             21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21,
                                             42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42,
                                             0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0, 21, 42, 0};
    static const uint8_t slot[64] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3};
    static const uint8_t in_slot[64] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                        16, 17, 18, 19, 20, 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                        11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0,  1,  2,  3,  4,  5,
                                        6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0};
    const unsigned lw = (unsigned)__builtin_ctzll(w);
    const tmv_v wm = _mm512_set1_epi8((char)(w - 1)), p = v_iota(1);
    const tmv_v e = v_bytes_shr(p, lw);
    c->tail_in = _mm512_add_epi8(
        _mm512_add_epi8(_mm512_permutexvar_epi8(e, _mm512_loadu_si512(slot_of_rest)),
                        v_bytes_shl(_mm512_permutexvar_epi8(e, _mm512_loadu_si512(third)), lw)),
        _mm512_and_si512(p, wm));
    const tmv_v r = _mm512_loadu_si512(in_slot), t = v_bytes_shr(r, lw);
    const tmv_v plane = _mm512_add_epi8(_mm512_add_epi8(_mm512_add_epi8(t, t), t), _mm512_loadu_si512(slot));
    c->tail_de = _mm512_add_epi8(v_bytes_shl(plane, lw), _mm512_and_si512(r, wm));
}
#endif

#if defined(TMV_NET3)
/* Whether this set's B = 3 network takes elements of w bytes. */
static inline bool v_net3(size_t w)
{
#if defined(TMV_PERM2)
    return v_use_perm2(w);
#else
    (void)w;
    return true;
#endif
}

#if defined(TMV_VEC_AVX2)
/* AVX2's B = 3 of 1- and 2-byte elements works lane by lane on the
 * lane-split group of the powers of two (v_load_group): each lane holds 48
 * interleaved bytes as three 16-byte chunks, or the same elements as three
 * plane rows, and each output is three byte shuffles or'ed, one from each
 * input. Byte o (element e = o/w, byte u = o%w) of plane row j is
 * interleaved byte p = (3e + j)w + u, which chunk p/16 holds at p%16; byte
 * o of chunk j (interleaved byte p = 16j + o, element t = p/w) is byte
 * (t/3)w + u of plane row t%3. Entry [inter][w - 1][j][k] takes output j's
 * bytes from input k; Z (the shuffle's zero) where another input has them.
 * The dword permutes' way would need a byte permute across lanes, which
 * AVX2 has not: copy_permute took these shapes at 0.2-0.4 x best-copy. */
#define Z 0x80
static const uint8_t net3_bytes[2][2][3][3][16] __attribute__((aligned(16))) = {
    {   /* de-interleave */
        {   /* w = 1 */
            {{ 0,  3,  6,  9, 12, 15,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  2,  5,  8, 11, 14,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  1,  4,  7, 10, 13}},
            {{ 1,  4,  7, 10, 13,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  0,  3,  6,  9, 12, 15,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  2,  5,  8, 11, 14}},
            {{ 2,  5,  8, 11, 14,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  1,  4,  7, 10, 13,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  0,  3,  6,  9, 12, 15}}
        },
        {   /* w = 2 */
            {{ 0,  1,  6,  7, 12, 13,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  2,  3,  8,  9, 14, 15,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  4,  5, 10, 11}},
            {{ 2,  3,  8,  9, 14, 15,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  4,  5, 10, 11,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  0,  1,  6,  7, 12, 13}},
            {{ 4,  5, 10, 11,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  0,  1,  6,  7, 12, 13,  Z,  Z,  Z,  Z,  Z,  Z},
             { Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  Z,  2,  3,  8,  9, 14, 15}}
        }
    },
    {   /* interleave */
        {   /* w = 1 */
            {{ 0,  Z,  Z,  1,  Z,  Z,  2,  Z,  Z,  3,  Z,  Z,  4,  Z,  Z,  5},
             { Z,  0,  Z,  Z,  1,  Z,  Z,  2,  Z,  Z,  3,  Z,  Z,  4,  Z,  Z},
             { Z,  Z,  0,  Z,  Z,  1,  Z,  Z,  2,  Z,  Z,  3,  Z,  Z,  4,  Z}},
            {{ Z,  Z,  6,  Z,  Z,  7,  Z,  Z,  8,  Z,  Z,  9,  Z,  Z, 10,  Z},
             { 5,  Z,  Z,  6,  Z,  Z,  7,  Z,  Z,  8,  Z,  Z,  9,  Z,  Z, 10},
             { Z,  5,  Z,  Z,  6,  Z,  Z,  7,  Z,  Z,  8,  Z,  Z,  9,  Z,  Z}},
            {{ Z, 11,  Z,  Z, 12,  Z,  Z, 13,  Z,  Z, 14,  Z,  Z, 15,  Z,  Z},
             { Z,  Z, 11,  Z,  Z, 12,  Z,  Z, 13,  Z,  Z, 14,  Z,  Z, 15,  Z},
             {10,  Z,  Z, 11,  Z,  Z, 12,  Z,  Z, 13,  Z,  Z, 14,  Z,  Z, 15}}
        },
        {   /* w = 2 */
            {{ 0,  1,  Z,  Z,  Z,  Z,  2,  3,  Z,  Z,  Z,  Z,  4,  5,  Z,  Z},
             { Z,  Z,  0,  1,  Z,  Z,  Z,  Z,  2,  3,  Z,  Z,  Z,  Z,  4,  5},
             { Z,  Z,  Z,  Z,  0,  1,  Z,  Z,  Z,  Z,  2,  3,  Z,  Z,  Z,  Z}},
            {{ Z,  Z,  6,  7,  Z,  Z,  Z,  Z,  8,  9,  Z,  Z,  Z,  Z, 10, 11},
             { Z,  Z,  Z,  Z,  6,  7,  Z,  Z,  Z,  Z,  8,  9,  Z,  Z,  Z,  Z},
             { 4,  5,  Z,  Z,  Z,  Z,  6,  7,  Z,  Z,  Z,  Z,  8,  9,  Z,  Z}},
            {{ Z,  Z,  Z,  Z, 12, 13,  Z,  Z,  Z,  Z, 14, 15,  Z,  Z,  Z,  Z},
             {10, 11,  Z,  Z,  Z,  Z, 12, 13,  Z,  Z,  Z,  Z, 14, 15,  Z,  Z},
             { Z,  Z, 10, 11,  Z,  Z,  Z,  Z, 12, 13,  Z,  Z,  Z,  Z, 14, 15}}
        }
    }
};
#undef Z
#endif

/* B = 3, n elements a vector: output vector j's element i is element *r of
 * input vector *q. De-interleave: input element 3i + j. Interleave: output
 * position jn + i is element (jn + i) / 3 of row (jn + i) % 3. */
static inline void three_source(bool inter, unsigned n, unsigned j, unsigned i, unsigned *q, unsigned *r)
{
    const unsigned at = inter ? j * n + i : 3 * i + j;
    *q = inter ? at % 3 : at / n;
    *r = inter ? at / 3 : at % n;
}

/* The B = 3 network's tables for direction `inter`, built by a scalar loop.
 * AVX-512: each output is two chained two-source permutes, the first
 * taking what it needs of inputs 0 and 1, the second keeping that and
 * taking input 2's. AVX2: each plane row is permuted once, in place of
 * three permutes an output. As n (8 or 4) is no multiple of 3, each
 * position i of the three interleaved vectors holds an element of every
 * plane row, each from another vector: plane row q permuted by three[q]
 * has, at i, the element the interleaved vector that takes row q there
 * needs. The interleave permutes the rows and blends each output from
 * them; the de-interleave blends each row's elements from the three
 * vectors and permutes them back (the inverse permute). */
static inline void v_ctx_three_build(tmv_vctx *c, size_t w, bool inter)
{
    const unsigned n = TMV_VB / (unsigned)w;
#if defined(TMV_PERM2)
    for (unsigned j = 0; j < 3; j++) {
        uint16_t g[2][64];
        for (unsigned i = 0; i < n; i++) {
            unsigned q, r;
            three_source(inter, n, j, i, &q, &r);
            g[0][i] = (uint16_t)(q == 0 ? r : q == 1 ? n + r : 0);
            g[1][i] = (uint16_t)(q == 2 ? n + r : i);
        }
        c->chain[j][0] = v_index(g[0], w);
        c->chain[j][1] = v_index(g[1], w);
    }
#else
    if (w < 4)
        return;   /* the byte shuffles' tables are net3_bytes */
    const unsigned d = (unsigned)w / 4;   /* dwords an element */
    int32_t perm[3][8], from1[3][8], from2[3][8];
    for (unsigned k = 0; k < 3; k++)      /* interleaved vector k */
        for (unsigned i = 0; i < n; i++) {
            unsigned q, r;                /* its element i is row q's element r */
            three_source(true, n, k, i, &q, &r);
            const unsigned out = inter ? k : q, from = inter ? q : k;
            for (unsigned e = 0; e < d; e++) {
                if (inter)
                    perm[q][i * d + e] = (int32_t)(r * d + e);
                else
                    perm[q][r * d + e] = (int32_t)(i * d + e);
                from1[out][i * d + e] = from == 1 ? -1 : 0;
                from2[out][i * d + e] = from == 2 ? -1 : 0;
            }
        }
    for (unsigned j = 0; j < 3; j++) {
        c->three[j] = v_load((const uint8_t *)perm[j]);
        c->from1[j] = v_load((const uint8_t *)from1[j]);
        c->from2[j] = v_load((const uint8_t *)from2[j]);
    }
#endif
}

/* Those tables for both directions and elements of 1, 2, 4 and 8 bytes,
 * built once a process (a translation unit: each set has its own). Built
 * at every call, their scalar loops and the vector loads of what they had
 * just stored a lane at a time took a third of the B = 3 kernels' time at
 * 8 KiB: SPACE_TO_DEPTH nchw B3 DCR C1 u8 by copy_deinterleave/avx512vbmi
 * 385 -> 230 ns, DEPTH_TO_SPACE nchw B3 DCR C3 f32 by
 * copy_interleave_planes/avx512 270 -> 209 (tmv-plan-regret, 2026-12-01). */
static tmv_vctx three_tables[2][4];
static pthread_once_t three_tables_once = PTHREAD_ONCE_INIT;

static void three_tables_build(void)
{
    for (unsigned inter = 0; inter < 2; inter++)
        for (unsigned lw = 0; lw < 4; lw++)
            v_ctx_three_build(&three_tables[inter][lw], (size_t)1 << lw, inter != 0);
}

/* w: 1, 2, 4 or 8 (every kernel dispatches on those widths). */
static inline void v_ctx_three(tmv_vctx *c, size_t w, bool inter)
{
    pthread_once(&three_tables_once, three_tables_build);
    const tmv_vctx *t = &three_tables[inter][__builtin_ctzll(w)];
#if defined(TMV_PERM2)
    for (unsigned j = 0; j < 3; j++) {
        c->chain[j][0] = t->chain[j][0];
        c->chain[j][1] = t->chain[j][1];
    }
#else
    for (unsigned j = 0; j < 3; j++) {
        c->three[j] = t->three[j];
        c->from1[j] = t->from1[j];
        c->from2[j] = t->from2[j];
    }
#endif
}
#endif

/* The constants for elements of w bytes, B = b, with B = 3's tables for
 * direction `three_inter`. */
static inline void v_ctx_setup(tmv_vctx *c, size_t w, unsigned b, bool three_inter)
{
#if defined(TMV_PERM2)
    const unsigned n = 64 / (unsigned)w;   /* elements per vector */
    const tmv_v i = v_iota(w), one = v_set1(1, w);
    /* i / 2 in every width: the 16-bit shift's stray top bit is masked off
     * for bytes (all indices are below 128). */
    const tmv_v half = _mm512_and_si512(_mm512_srli_epi16(i, 1), v_set1(w == 1 ? 0x7f : 0x7fff, w));
    /* n where i is odd: a byte subtract 0 - 1 sets the low byte, enough for n < 256 */
    const tmv_v odd_n = _mm512_and_si512(_mm512_sub_epi8(_mm512_setzero_si512(), _mm512_and_si512(i, one)),
                                         v_set1(n, w));
    c->even = v_add(i, i, w);                             /* even of a:b */
    c->odd = v_add(c->even, one, w);                      /* odd of a:b */
    c->lo = _mm512_or_si512(half, odd_n);                 /* interleave low halves */
    c->hi = v_add(c->lo, v_set1(n / 2, w), w);            /* interleave high halves */
    if (b == 3)
        v_ctx_three(c, w, three_inter);
#elif defined(TMV_VEC_AVX2)
    if (b == 3 && v_net3(w))
        v_ctx_three(c, w, three_inter);
#endif
#if defined(TMV_VEC_AVX512)
    c->fix_even = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    c->fix_lo = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
#endif
#if defined(TMV_VEC_AVX512VBMI)
    if (b == 3)
        v_ctx_tails3(c, w);
    else
        v_ctx_tails(c, w, b);
#endif
    (void)c;
    (void)w;
    (void)b;
    (void)three_inter;
}

/* The de-interleave's constants. */
static inline void v_ctx_init(tmv_vctx *c, size_t w, unsigned b) { v_ctx_setup(c, w, b, false); }

/* The constants for one direction: the B = 3 interleave's tables in place
 * of the de-interleave's where this set's network takes w. */
static inline void v_ctx_for(tmv_vctx *c, size_t w, unsigned b, bool inter)
{
#if defined(TMV_NET3)
    v_ctx_setup(c, w, b, inter && b == 3 && v_net3(w));
#else
    (void)inter;
    v_ctx_setup(c, w, b, false);
#endif
}

/* ---- the four two-vector steps, for elements of w bytes ---- */

/* Lane-local even / odd elements: per 128-bit lane, those of a then those of b. */
static inline tmv_v lane_even(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: {
        const tmv_v m = MM(set1_epi16)(0x00ff);
        return MM(packus_epi16)(TMV_SI(and)(a, m), TMV_SI(and)(b, m));
    }
    case 2: return MM(packs_epi32)(MM(srai_epi32)(MM(slli_epi32)(a, 16), 16),
                                   MM(srai_epi32)(MM(slli_epi32)(b, 16), 16));
    case 4: return TMV_CAST_SI(MM(shuffle_ps)(TMV_CAST_PS(a), TMV_CAST_PS(b), 0x88));
    default: return MM(unpacklo_epi64)(a, b);
    }
}

static inline tmv_v lane_odd(tmv_v a, tmv_v b, size_t w)
{
    switch (w) {
    case 1: return MM(packus_epi16)(MM(srli_epi16)(a, 8), MM(srli_epi16)(b, 8));
    case 2: return MM(packs_epi32)(MM(srai_epi32)(a, 16), MM(srai_epi32)(b, 16));
    case 4: return TMV_CAST_SI(MM(shuffle_ps)(TMV_CAST_PS(a), TMV_CAST_PS(b), 0xdd));
    default: return MM(unpackhi_epi64)(a, b);
    }
}

/* Lane-local pack results [a0 b0 | a1 b1 | ...] in qwords, put in
 * whole-vector order. Nothing to do with one lane (SSE2) or with AVX2's
 * lane-split loads (see v_load_group). */
static inline tmv_v lane_fix(const tmv_vctx *c, tmv_v v)
{
#if defined(TMV_VEC_AVX512)
    return _mm512_permutexvar_epi64(c->fix_even, v);
#else
    (void)c;
    return v;
#endif
}

/* A vector's qwords arranged so that lane-local unpacks take whole halves.
 * Nothing to do with one lane (SSE2) or with AVX2's lane-split stores (see
 * v_store_group). */
static inline tmv_v lane_spread(const tmv_vctx *c, tmv_v v)
{
#if defined(TMV_VEC_AVX512)
    return _mm512_permutexvar_epi64(c->fix_lo, v);
#else
    (void)c;
    return v;
#endif
}

/* The low (hi false) or high halves of each 128-bit lane of a and b,
 * interleaved element by element (w bytes). */
static inline tmv_v lane_unpack(tmv_v a, tmv_v b, size_t w, bool hi)
{
    switch (w) {
    case 1: return hi ? MM(unpackhi_epi8)(a, b) : MM(unpacklo_epi8)(a, b);
    case 2: return hi ? MM(unpackhi_epi16)(a, b) : MM(unpacklo_epi16)(a, b);
    case 4: return hi ? MM(unpackhi_epi32)(a, b) : MM(unpacklo_epi32)(a, b);
    default: return hi ? MM(unpackhi_epi64)(a, b) : MM(unpacklo_epi64)(a, b);
    }
}

/* De-interleave by 2: *e = even elements of a:b, *o = odd ones. */
static inline void v_unzip(const tmv_vctx *c, tmv_v a, tmv_v b, tmv_v *e, tmv_v *o, size_t w)
{
#if defined(TMV_PERM2)
    if (v_use_perm2(w)) {
        *e = v_perm2(a, c->even, b, w);
        *o = v_perm2(a, c->odd, b, w);
        return;
    }
#endif
    *e = lane_fix(c, lane_even(a, b, w));
    *o = lane_fix(c, lane_odd(a, b, w));
}

/* Interleave by 2: *l = a0 b0 a1 b1 ... of the low halves, *h of the high halves. */
static inline void v_zip(const tmv_vctx *c, tmv_v a, tmv_v b, tmv_v *l, tmv_v *h, size_t w)
{
#if defined(TMV_PERM2)
    if (v_use_perm2(w)) {
        *l = v_perm2(a, c->lo, b, w);
        *h = v_perm2(a, c->hi, b, w);
        return;
    }
#endif
    a = lane_spread(c, a);
    b = lane_spread(c, b);
    *l = lane_unpack(a, b, w, false);
    *h = lane_unpack(a, b, w, true);
}

/* ---- B vectors at a time ---- */

#if defined(TMV_NET3)
/* B = 3 either way, by the tables v_ctx_three set for the direction. */
static inline void v_permute3(const tmv_vctx *c, tmv_v *v, size_t w, bool inter)
{
    tmv_v out[3];
#if defined(TMV_PERM2)
    (void)inter;
    for (unsigned j = 0; j < 3; j++)
        out[j] = v_perm2(v_perm2(v[0], c->chain[j][0], v[1], w), c->chain[j][1], v[2], w);
#else
    if (w < 4) {
        const uint8_t(*m)[3][16] = net3_bytes[inter][w - 1];
        for (unsigned j = 0; j < 3; j++) {
            tmv_v o = _mm256_shuffle_epi8(v[0], _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)m[j][0])));
            for (unsigned k = 1; k < 3; k++)
                o = _mm256_or_si256(
                    o, _mm256_shuffle_epi8(v[k], _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)m[j][k]))));
            out[j] = o;
        }
        for (unsigned j = 0; j < 3; j++)
            v[j] = out[j];
        return;
    }
    if (inter)
        for (unsigned q = 0; q < 3; q++)
            v[q] = _mm256_permutevar8x32_epi32(v[q], c->three[q]);
    for (unsigned j = 0; j < 3; j++) {
        out[j] = _mm256_blendv_epi8(_mm256_blendv_epi8(v[0], v[1], c->from1[j]), v[2], c->from2[j]);
        if (!inter)
            out[j] = _mm256_permutevar8x32_epi32(out[j], c->three[j]);
    }
#endif
    for (unsigned j = 0; j < 3; j++)
        v[j] = out[j];
}
#endif

/* De-interleave (inter false): v[0..b) hold b*n consecutive elements;
 * afterwards v[j] holds elements j, j+b, j+2b, ... Interleave, the inverse:
 * v[j] holds n elements of row j; afterwards v[0..b) hold the rows
 * interleaved (row 0's first, row 1's first, ...). For b a power of two:
 * log2(b) rounds of unzipping or zipping pairs. Always inlined, so that each
 * wrapper below is the network of one direction, as written out by hand. */
__attribute__((always_inline)) static inline void v_reorder(const tmv_vctx *c, tmv_v *v, unsigned b, size_t w,
                                                            bool inter)
{
#if defined(TMV_NET3)
    if (b == 3) {
        v_permute3(c, v, w, inter);
        return;
    }
#endif
    for (unsigned round = 1; round < b; round *= 2) {
        tmv_v u[8];
        for (unsigned p = 0; p < b / 2; p++) {
            if (inter)
                v_zip(c, v[p], v[p + b / 2], &u[2 * p], &u[2 * p + 1], w);
            else
                v_unzip(c, v[2 * p], v[2 * p + 1], &u[p], &u[p + b / 2], w);
        }
        for (unsigned j = 0; j < b; j++)
            v[j] = u[j];
    }
}

static inline void v_deinterleave(const tmv_vctx *c, tmv_v *v, unsigned b, size_t w)
{
    v_reorder(c, v, b, w, false);
}

static inline void v_interleave(const tmv_vctx *c, tmv_v *v, unsigned b, size_t w)
{
    v_reorder(c, v, b, w, true);
}

#endif
